"""Engine benchmarks through the protocol: random deals and games, ``legal_actions``, ``clone``.

Rates are per CPU second (``time.process_time``) of this process, so other work on a shared
machine slows them less.

Comparisons (:func:`compare`) measure every contender in the same process in interleaved
rounds and quote ratios, each with its 95% interval; the method is :data:`METHOD`:

* a sample is one random **deal**: a fresh game (a new seed, or OpenSpiel's
  ``new_initial_state()``) played to the end of its first deal — a game of several deals is
  told to stop there (``GameState.deal_limit = 1``), so the next deal is never dealt;
* players' moves are ``rng.choice(state.legal_actions())``; OpenSpiel's chance nodes (every
  dealt card) are ``rng.choice(state.chance_outcomes())`` — one draw per node, the same way
  for OpenSpiel's games and ours through the OpenSpiel adapter; our engines deal by one
  seeded shuffle of their own;
* a deal that is redealt unplayed (all pass) or passed out is not counted as a deal: it is
  counted apart, and its time stays in the total;
* rounds go on until every ratio's 95% interval (Student's t over the rounds' log-ratios)
  lies within ±5% of it, or a cap on rounds or CPU time is reached (then it says so).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from cardplaza.core.protocol import GameState
from cardplaza.core.registry import GameSpec, new_game

GAMES_KEY = "random full games/s"
DEALS_KEY = "random deals/s"

METHOD = (
    "random deals per CPU second: each sample is a fresh game (new seed / "
    "new_initial_state()) played to the end of its first deal (a game of several deals stops "
    "there, the next deal is never dealt); moves rng.choice(legal_actions()); OpenSpiel "
    "chance nodes rng.choice(chance_outcomes()) (one draw per dealt card), our engines deal by "
    "one seeded shuffle; redealt (all-pass) and passed-out deals are counted apart, not as "
    "deals; contenders interleaved in rounds (order rotated) until each ratio's 95% interval "
    "(t over the rounds' log-ratios) is within ±{precision:.0%}, at most {max_rounds} rounds "
    "or {max_seconds:g} CPU s")


def random_steps(state: GameState, rng: random.Random, steps: int | None = None) -> int:
    """Apply up to ``steps`` uniformly random legal actions (to the end if ``None``).

    Returns the number applied; used for benchmarks and to reach test positions.
    """
    n = 0
    while not state.is_terminal and (steps is None or n < steps):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        n += 1
    return n


def _rate(fn: Callable[[], Any], seconds: float) -> float:
    """Calls of ``fn`` per CPU second over about ``seconds``."""
    count = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        fn()
        count += 1
        now = time.process_time()
        if now >= deadline:
            return count / (now - start)


# -- samplers ----------------------------------------------------------------------------

class Sampler(Protocol):
    """Something that plays random deals for a while and counts them."""

    deals: int
    """Deals played to the end so far."""
    redeals: int
    """Deals redealt unplayed or passed out so far (not in :attr:`deals`)."""
    cpu: float
    """CPU seconds spent so far."""

    def run(self, seconds: float) -> None:
        """Play deals for about ``seconds`` of CPU time (at least one)."""


@dataclass
class Counts:
    """What a sampler has counted (shared by the samplers below)."""

    deals: int = 0
    redeals: int = 0
    cpu: float = 0.0

    def rate(self) -> float:
        """Deals per CPU second so far."""
        return self.deals / self.cpu if self.cpu > 0 else 0.0


class RandomDeals(Counts):
    """Random deals of one of our games, the way a researcher drives an engine from Python.

    ``state = new_game(name, options, seed)`` (a new seed each deal), a game of several
    deals told to stop after its first (``state.deal_limit = 1``), then ``state.apply(
    rng.choice(state.legal_actions()))`` to the end. A deal the game's ``redeals`` hook
    calls redealt (everybody passed) counts in :attr:`redeals`, not in :attr:`deals`.
    """

    def __init__(self, spec: GameSpec, options: Any = None, seed: int = 1) -> None:
        super().__init__()
        self.spec = spec
        self.options = spec.options_type() if options is None else options
        self.rng = random.Random(seed)
        self.seed = seed

    def play(self) -> GameState:
        """Play the next deal (counted in :attr:`deals` or :attr:`redeals`); its final
        state."""
        state = new_game(self.spec.name, self.options, self.seed)
        self.seed += 1
        if self.spec.deals_played is not None:
            state.deal_limit = 1
        choice = self.rng.choice
        while not state.is_terminal:
            state.apply(choice(state.legal_actions()))
        redealt = self.spec.redeals
        if redealt is not None and redealt(state):
            self.redeals += 1
        else:
            self.deals += 1
        return state

    def run(self, seconds: float) -> None:
        """Play deals for about ``seconds`` of CPU time."""
        play = self.play
        start = time.process_time()
        deadline = start + seconds
        while True:
            play()
            if time.process_time() >= deadline:
                break
        self.cpu += time.process_time() - start


PassedOut = Callable[[Any, int], bool]
"""``(finished OpenSpiel state, number of players' moves) -> True`` if the deal was passed
out or redealt unplayed."""


class OpenSpielDeals(Counts):
    """Random deals of an OpenSpiel game (``pyspiel``), each one ``new_initial_state()``
    played to the end: moves ``rng.choice(state.legal_actions())``, chance nodes
    ``rng.choice(state.chance_outcomes())``. Needs ``pip install cardplaza[research]``."""

    def __init__(self, name: str, params: Mapping[str, Any] | None = None, seed: int = 1,
                 passed_out: PassedOut | None = None) -> None:
        super().__init__()
        import pyspiel  # type: ignore[import-not-found, unused-ignore]

        self.game = pyspiel.load_game(name, dict(params or {}))
        self.rng = random.Random(seed)
        self.passed_out = passed_out

    def run(self, seconds: float) -> None:
        """Play deals for about ``seconds`` of CPU time."""
        game, choice, passed_out = self.game, self.rng.choice, self.passed_out
        deals = redeals = 0
        start = time.process_time()
        deadline = start + seconds
        while True:
            state = game.new_initial_state()
            moves = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(choice(state.chance_outcomes())[0])
                else:
                    state.apply_action(choice(state.legal_actions()))
                    moves += 1
            if passed_out is not None and passed_out(state, moves):
                redeals += 1
            else:
                deals += 1
            if time.process_time() >= deadline:
                break
        self.cpu += time.process_time() - start
        self.deals += deals
        self.redeals += redeals


REFERENCES: dict[str, tuple[str, dict[str, Any], PassedOut | None]] = {
    "hearts": ("hearts", {}, None),
    # Skat as OpenSpiel has it: a deal ends at once when all three players pass.
    "skat": ("skat", {}, lambda state, moves: moves == 3),
    # Bridge played out card by card (no double-dummy result); four passes end the deal.
    "bridge": ("bridge", {"use_double_dummy_result": False}, lambda state, moves: moves == 4),
}
"""OpenSpiel games to compare with: name, parameters, passed-out test."""


def reference(name: str, seed: int = 1) -> OpenSpielDeals:
    """A sampler of one of :data:`REFERENCES` (``ImportError`` without OpenSpiel)."""
    game, params, passed_out = REFERENCES[name]
    return OpenSpielDeals(game, params, seed, passed_out)


# -- comparison --------------------------------------------------------------------------

_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
         2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
         2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom (two-sided 95%)."""
    if df < 1:
        raise ValueError("at least one degree of freedom")
    if df <= len(_T975):
        return _T975[df - 1]
    z = 1.959964
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)


@dataclass
class Ratio:
    """One contender's rate over another's, from paired rounds."""

    numerator: str
    denominator: str
    per_round: list[float] = field(default_factory=list)

    @property
    def value(self) -> float:
        """The geometric mean of the rounds' ratios."""
        return math.exp(statistics.fmean(math.log(r) for r in self.per_round))

    def interval(self) -> tuple[float, float]:
        """The 95% interval of the ratio (``(0, inf)`` with fewer than two rounds)."""
        n = len(self.per_round)
        if n < 2:
            return 0.0, math.inf
        logs = [math.log(r) for r in self.per_round]
        half = t975(n - 1) * statistics.stdev(logs) / math.sqrt(n)
        mean = statistics.fmean(logs)
        return math.exp(mean - half), math.exp(mean + half)

    def within(self, precision: float) -> bool:
        """True when the whole interval lies within ±``precision`` of the ratio."""
        lo, hi = self.interval()
        value = self.value if self.per_round else 0.0
        return hi <= value * (1 + precision) and lo >= value * (1 - precision)


@dataclass
class Comparison:
    """The outcome of :func:`compare`."""

    samplers: dict[str, Sampler]
    ratios: list[Ratio]
    rounds: int
    converged: bool
    precision: float
    max_rounds: int
    max_seconds: float

    def method(self) -> str:
        """How the figures were measured, to print with them."""
        return METHOD.format(precision=self.precision, max_rounds=self.max_rounds,
                             max_seconds=self.max_seconds)

    def figures(self) -> dict[str, Any]:
        """JSON-ready figures: every rate, every ratio with its interval, the method."""
        out: dict[str, Any] = {}
        for name, s in self.samplers.items():
            out[f"{name} deals/s"] = s.deals / s.cpu if s.cpu > 0 else 0.0
            if s.redeals:
                out[f"{name} redealt or passed-out deals/s"] = s.redeals / s.cpu
        for r in self.ratios:
            lo, hi = r.interval()
            out[f"{r.numerator} ÷ {r.denominator}"] = r.value
            out[f"{r.numerator} ÷ {r.denominator} 95% interval"] = [lo, hi]
        out["rounds"] = self.rounds
        out["converged"] = self.converged
        out["method"] = self.method()
        return out


def compare(samplers: Mapping[str, Sampler], pairs: Sequence[tuple[str, str]], *,
            round_seconds: float = 0.25, precision: float = 0.05, min_rounds: int = 5,
            max_rounds: int = 60, max_seconds: float = 150.0) -> Comparison:
    """Rates of ``samplers`` measured in interleaved rounds and the ratios of ``pairs``.

    Each round runs every sampler for ``round_seconds`` of CPU time (the order rotated by
    one each round) and adds, for each pair ``(a, b)``, the ratio of a's deals/s to b's in
    that round. Rounds stop once every ratio's 95% interval lies within ±``precision`` (and
    at least ``min_rounds`` were run), or after ``max_rounds`` rounds or ``max_seconds`` of
    CPU time in all (``converged`` is False then).
    """
    names = list(samplers)
    ratios = [Ratio(a, b) for a, b in pairs]
    for a, b in pairs:
        if a not in samplers or b not in samplers:
            raise KeyError(f"no sampler {a if a not in samplers else b!r}")
    rounds = 0
    converged = False
    while True:
        rates: dict[str, float] = {}
        order = names[rounds % len(names):] + names[:rounds % len(names)]
        for name in order:
            s = samplers[name]
            deals, cpu = s.deals, s.cpu
            s.run(round_seconds)
            rates[name] = (s.deals - deals) / (s.cpu - cpu)
        rounds += 1
        for r in ratios:
            den = rates[r.denominator]
            r.per_round.append(rates[r.numerator] / den if den > 0 else math.inf)
        if rounds >= min_rounds and all(r.within(precision) for r in ratios):
            converged = True
            break
        if rounds >= max_rounds or sum(s.cpu for s in samplers.values()) >= max_seconds:
            break
    return Comparison(dict(samplers), ratios, rounds, converged, precision, max_rounds,
                      max_seconds)


def versus_openspiel(specs: Sequence[GameSpec], options: Mapping[str, Any] | None = None, *,
                     references: Sequence[str] = tuple(REFERENCES),
                     **kwargs: Any) -> Comparison:
    """Our random deals/s of each game beside OpenSpiel's ``references`` (hearts, skat,
    bridge), all measured in one run: a ratio for every game and reference.

    ``ImportError`` when OpenSpiel is not installed.
    """
    samplers: dict[str, Sampler] = {ref: reference(ref) for ref in references}
    for spec in specs:
        samplers[spec.name] = RandomDeals(spec, (options or {}).get(spec.name))
    for s in samplers.values():  # warm up (imports, tables) before measuring
        s.run(0.02)
    for s in samplers.values():
        s.deals = s.redeals = 0
        s.cpu = 0.0
    pairs = [(spec.name, ref) for spec in specs for ref in references]
    return compare(samplers, pairs, **kwargs)


# -- single-engine figures ---------------------------------------------------------------

class RandomGames:
    """Random full games the way a researcher drives an engine from Python.

    ``state = new_game(name, options, seed)``, then ``state.apply(rng.choice(
    state.legal_actions()))`` until the end. Each :meth:`run` continues the same seeds and
    RNG, so several short runs add up to one long one.
    """

    def __init__(self, spec: GameSpec, options: Any = None, seed: int = 1) -> None:
        self.spec = spec
        self.options = options
        self.rng = random.Random(seed)
        self.seed = seed
        self.games = 0
        self.cpu = 0.0

    def run(self, seconds: float) -> None:
        """Play whole games for about ``seconds`` of CPU time."""
        name, options, rng = self.spec.name, self.options, self.rng
        start = time.process_time()
        deadline = start + seconds
        games = 0
        while True:
            state = new_game(name, options, self.seed)
            self.seed += 1
            while not state.is_terminal:
                state.apply(rng.choice(state.legal_actions()))
            games += 1
            if time.process_time() >= deadline:
                break
        self.cpu += time.process_time() - start
        self.games += games

    def figures(self) -> dict[str, float]:
        """``random full games/s``."""
        return {GAMES_KEY: self.games / self.cpu}


def engine_benchmarks(spec: GameSpec, options: Any, seconds: float = 2.0) -> dict[str, float]:
    """Random full games/s, random deals/s (see :class:`RandomDeals`), ``legal_actions()``/s
    and ``clone()``/s.

    ``legal_actions()`` is timed on positions never asked before (fresh copies of mid-game
    positions), since a position keeps the legal actions it has worked out.
    """
    games = RandomGames(spec, options)
    games.run(seconds / 2)
    deals = RandomDeals(spec, options)
    deals.run(seconds / 2)
    rng = random.Random(12345)
    positions: list[GameState] = []
    for seed in range(40):
        state = spec.new_game(options, 10_000 + seed)
        random_steps(state, rng, rng.randrange(1, 40))
        if not state.is_terminal:
            positions.append(state)
    figures = games.figures()
    figures[DEALS_KEY] = deals.rate()
    calls = 0
    spent = 0.0
    while spent < seconds / 2:
        fresh = [p.clone() for p in positions for _ in range(25)]
        start = time.process_time()
        for state in fresh:
            state.legal_actions()
        spent += time.process_time() - start
        calls += len(fresh)
    figures["legal_actions()/s"] = calls / spent
    cycle = iter(lambda: positions[rng.randrange(len(positions))], None)
    figures["clone()/s"] = _rate(lambda: next(cycle).clone(), seconds / 2)
    return figures
