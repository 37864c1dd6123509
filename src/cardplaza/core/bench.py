"""Engine benchmarks through the protocol: random full games, ``legal_actions`` and ``clone``.

Rates are per CPU second (``time.process_time``) of this process, so other work on a shared
machine slows them less; comparisons with OpenSpiel are measured in the same process in
alternating rounds, and only their ratio is meant to be quoted.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from cardplaza.core.protocol import GameState
from cardplaza.core.registry import GameSpec, new_game

GAMES_KEY = "random full games/s"
DEALS_KEY = "random full deals/s"


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
        self.deals = 0
        self.cpu = 0.0

    def run(self, seconds: float) -> None:
        """Play whole games for about ``seconds`` of CPU time."""
        name, options, rng = self.spec.name, self.options, self.rng
        deals_of = self.spec.deals_played
        start = time.process_time()
        deadline = start + seconds
        games = deals = 0
        while True:
            state = new_game(name, options, self.seed)
            self.seed += 1
            while not state.is_terminal:
                state.apply(rng.choice(state.legal_actions()))
            games += 1
            deals += 1 if deals_of is None else deals_of(state)
            if time.process_time() >= deadline:
                break
        self.cpu += time.process_time() - start
        self.games += games
        self.deals += deals

    def figures(self) -> dict[str, float]:
        """``random full games/s`` and, for games of several deals, ``random full deals/s``."""
        out = {GAMES_KEY: self.games / self.cpu}
        if self.spec.deals_played is not None:
            out[DEALS_KEY] = self.deals / self.cpu
        return out


def engine_benchmarks(spec: GameSpec, options: Any, seconds: float = 2.0) -> dict[str, float]:
    """Random full games/s (and deals/s), ``legal_actions()``/s and ``clone()``/s.

    ``legal_actions()`` is timed on positions never asked before (fresh copies of mid-game
    positions), since a position keeps the legal actions it has worked out.
    """
    games = RandomGames(spec, options)
    games.run(seconds)
    rng = random.Random(12345)
    positions: list[GameState] = []
    for seed in range(40):
        state = spec.new_game(options, 10_000 + seed)
        random_steps(state, rng, rng.randrange(1, 40))
        if not state.is_terminal:
            positions.append(state)
    figures = games.figures()
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


class HeartsGames:
    """OpenSpiel's ``hearts`` (``pyspiel``, C++) driven from Python the researcher's way.

    Decisions are ``rng.choice(state.legal_actions())``; chance nodes (the pass direction and
    every dealt card) draw from ``state.chance_outcomes()`` with their probabilities
    (``rng.choices``). Needs ``pip install cardplaza[research]``.
    """

    def __init__(self, seed: int = 1) -> None:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]

        self.game = pyspiel.load_game("hearts")
        self.rng = random.Random(seed)
        self.games = 0
        self.cpu = 0.0

    def run(self, seconds: float) -> None:
        """Play whole hearts games for about ``seconds`` of CPU time."""
        game, rng = self.game, self.rng
        start = time.process_time()
        deadline = start + seconds
        games = 0
        while True:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(actions, probs)[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
            games += 1
            if time.process_time() >= deadline:
                break
        self.cpu += time.process_time() - start
        self.games += games

    def rate(self) -> float:
        """Hearts games per CPU second so far."""
        return self.games / self.cpu


def versus_openspiel(spec: GameSpec, options: Any = None, seconds: float = 4.0,
                     rounds: int = 4) -> dict[str, float]:
    """Our random full deals/s beside pyspiel hearts games/s, in alternating rounds.

    ``ImportError`` when OpenSpiel is not installed. The ratio divides our deals/s (games/s
    for games of one deal) by hearts games/s (a hearts game is one deal).
    """
    hearts = HeartsGames()
    ours = RandomGames(spec, options)
    ours.run(0.05)  # warm up both (imports, tables) before measuring
    hearts.run(0.05)
    ours = RandomGames(spec, options)
    hearts = HeartsGames()
    slice_ = seconds / (2 * rounds)
    for _ in range(rounds):
        ours.run(slice_)
        hearts.run(slice_)
    figures = ours.figures()
    per_deal = figures.get(DEALS_KEY, figures[GAMES_KEY])
    figures["openspiel hearts games/s"] = hearts.rate()
    figures["deals/s ÷ openspiel hearts games/s"] = per_deal / hearts.rate()
    return figures
