"""Advice from the expert computer: each choice's evaluation, hints with reasons, marks.

Everything here decides from one seat's observation and a seed, never from the full state,
so a hint cannot leak hidden cards: re-dealing the cards the seat cannot see changes no
answer. A game plugs in its expert's analysis through the registry hook ``advice`` (an
:class:`Advisor`); a game without one gets :class:`SampledAdvisor`, plain perfect-information
Monte Carlo over its determinizer.

Values are in the game's points, as the margin of the seat (its score minus the mean of the
other sides'), so a choice that gives a trick worth 10 to the opponent of a two-seat game
costs 20. A bidding decision is valued by the chance of making each amount instead
(``unit = "chance"``).

>>> marks = Thresholds(5, 15, 30)
>>> [marks.mark(x) for x in (0, 4.9, 5, 20, 30)]
['good', 'good', 'inaccuracy', 'mistake', 'blunder']
>>> shares([[1, 2, 2], [3, 0, 1]])
[0.5, 0.25, 0.25]
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from cardplaza.ai.common import margin, random_rollout
from cardplaza.core.protocol import Action, GameState
from cardplaza.core.registry import GameSpec, get_game

Reason = dict[str, Any]
"""A short explanation: ``{"en": …, "ja": …}``, or sentences of the message catalog
``{"parts": [[key, {name: value}], …]}`` (:func:`said`) whose texts the front ends fill
in each language (``cardplaza.texts.catalog.reason_texts``)."""

MARKS = ("good", "inaccuracy", "mistake", "blunder")
MARK_NAMES_JA = {"good": "好手", "inaccuracy": "疑問手", "mistake": "悪手", "blunder": "大悪手"}


@dataclass(frozen=True)
class Thresholds:
    """Expected points lost from which a decision is an inaccuracy, a mistake, a blunder."""

    inaccuracy: float
    mistake: float
    blunder: float
    chance_inaccuracy: float = 0.15
    chance_mistake: float = 0.30
    chance_blunder: float = 0.50

    def mark(self, loss: float, unit: str = "points") -> str:
        """The mark of a decision that loses ``loss`` against the best choice."""
        if unit == "chance":
            cuts = (self.chance_inaccuracy, self.chance_mistake, self.chance_blunder)
        else:
            cuts = (self.inaccuracy, self.mistake, self.blunder)
        eps = 1e-9
        if loss >= cuts[2] - eps:
            return "blunder"
        if loss >= cuts[1] - eps:
            return "mistake"
        if loss >= cuts[0] - eps:
            return "inaccuracy"
        return "good"

    def to_json(self) -> dict[str, float]:
        """JSON-ready dict."""
        return {"inaccuracy": self.inaccuracy, "mistake": self.mistake,
                "blunder": self.blunder, "chance_inaccuracy": self.chance_inaccuracy,
                "chance_mistake": self.chance_mistake, "chance_blunder": self.chance_blunder}


@dataclass
class Choice:
    """One candidate action: its mean value over the sampled worlds and facts read off them.

    ``share`` is the fraction of sampled worlds in which it was the best choice (ties split).
    ``same`` lists the other legal actions that play exactly alike (a second copy, an
    adjacent rank): they share this value. ``facts`` are game-specific figures such as the
    chance of winning the current trick (``"trick"``).
    """

    action: Action
    value: float | None
    share: float | None = None
    facts: dict[str, float] = field(default_factory=dict)
    same: tuple[Action, ...] = ()

    def covers(self, action: Action) -> bool:
        """True if ``action`` is this choice or plays exactly like it."""
        return action == self.action or action in self.same


@dataclass
class Evaluation:
    """The expert's analysis of one decision, best choice first."""

    kind: str
    """What is decided: ``play``, ``bid``, ``trump``, ``meld``, ``exchange``, ``give``,
    ``discard``, ``declare`` …"""
    unit: str
    """``points`` (expected margin) or ``chance`` (chance of making a bid)."""
    choices: list[Choice]
    best: Action
    worlds: int = 0
    exact: bool = False
    """Every world was solved exactly (and, with ``determined``, there was only one)."""
    determined: bool = False
    """The observation fixes every card that still matters (one possible world)."""
    seconds: float = 0.0
    info: dict[str, Any] = field(default_factory=dict)

    def choice_of(self, action: Action) -> Choice | None:
        """The choice that covers ``action``, if it was evaluated."""
        for c in self.choices:
            if c.covers(action):
                return c
        return None

    def best_choice(self) -> Choice:
        """The choice of the best action."""
        c = self.choice_of(self.best)
        assert c is not None
        return c

    def loss(self, action: Action) -> float | None:
        """Value lost by ``action`` against the best choice (``None`` if not valued)."""
        best = self.best_choice().value
        c = self.choice_of(action)
        if best is None or c is None or c.value is None:
            return None
        return max(0.0, best - c.value)


class Effort:
    """How much a search may spend: a scale on the expert's budget and an optional clock.

    ``scale`` multiplies the worlds of a decision (1.0 = the expert's own budget); with
    ``seconds`` a search stops once it has used that much wall time and run at least its
    minimum of worlds, which trades reproducibility for a bounded wait.
    """

    def __init__(self, scale: float = 1.0, seconds: float | None = None) -> None:
        if scale <= 0:
            raise ValueError("effort scale must be positive")
        self.scale = scale
        self.seconds = seconds
        self.started = time.perf_counter()

    def start(self) -> None:
        """Restart the clock."""
        self.started = time.perf_counter()

    def worlds(self, base: int, least: int = 1) -> int:
        """The scaled number of worlds (at least ``least``)."""
        return max(least, round(base * self.scale))

    def more(self, done: int, least: int) -> bool:
        """False once the clock ran out and ``least`` worlds are done."""
        if self.seconds is None or done < least:
            return True
        return time.perf_counter() - self.started < self.seconds

    def elapsed(self) -> float:
        """Seconds since the clock started."""
        return time.perf_counter() - self.started


class Advisor(Protocol):
    """What a game gives the advice functions (registry hook ``advice``)."""

    thresholds: Thresholds

    def evaluate(self, observation: dict[str, Any], legal: Sequence[Action],
                 rng: random.Random, effort: Effort,
                 include: Sequence[Action] = ()) -> Evaluation:
        """The expert's evaluation of every distinct legal action; ``include`` names legal
        actions the menu does not list (a jump bid, a discard) that must be valued too."""
        ...

    def thresholds_for(self, observation: dict[str, Any]) -> Thresholds:
        """The marks' thresholds in the game's units for this observation."""
        ...

    def reason(self, observation: dict[str, Any], evaluation: Evaluation) -> Reason:
        """A short explanation of the best choice, read off the evaluation."""
        ...

    def helper(self, observation: dict[str, Any], legal: Sequence[Action],
               rng: random.Random, effort: Effort,
               evaluation: Evaluation | None = None) -> dict[str, Any] | None:
        """The decision helper's table (bid odds, exchange, meld), or ``None``; read off
        ``evaluation`` (the same position's, from the same seed) where the game can, so the
        helper and the hint show the same numbers."""
        ...

    def hand_of(self, observation: dict[str, Any]) -> int:
        """Number of the hand (deal) an observation belongs to, from 1."""
        ...


# -- helpers shared by the game advisors -------------------------------------------------------

def shares(per_world: Sequence[Sequence[float]]) -> list[float]:
    """Fraction of worlds in which each column is the best (ties split evenly)."""
    if not per_world:
        return []
    k = len(per_world[0])
    out = [0.0] * k
    for row in per_world:
        top = max(row)
        best = [i for i, v in enumerate(row) if v >= top - 1e-9]
        for i in best:
            out[i] += 1.0 / len(best)
    return [x / len(per_world) for x in out]


def means(per_world: Sequence[Sequence[float]]) -> list[float]:
    """Column means."""
    n = len(per_world)
    return [sum(row[i] for row in per_world) / n for i in range(len(per_world[0]))]


def ranked(choices: list[Choice], prefer: Action | None = None,
           tolerance: float = 1e-9) -> tuple[list[Choice], Action]:
    """Choices best first (stable among equals) and the best action: ``prefer`` (the
    expert's own tie-break) when its value is within ``tolerance`` of the top."""
    valued = [c for c in choices if c.value is not None]
    rest = [c for c in choices if c.value is None]
    valued.sort(key=lambda c: -(c.value or 0.0))
    out = valued + rest
    if not out:
        raise ValueError("nothing to rank")
    best = out[0]
    if prefer is not None and valued:
        top = valued[0].value or 0.0
        for c in valued:
            if c.covers(prefer) and (c.value or 0.0) >= top - tolerance:
                best = c
                break
    if best is not out[0]:
        out.remove(best)
        out.insert(0, best)
    if prefer is not None and best.covers(prefer) and best.action != prefer:
        # The expert's own pick stands for its group of equivalent actions.
        best.same = tuple(a for a in (best.action, *best.same) if a != prefer)
        best.action = prefer
    return out, best.action


def build_choices(candidates: Sequence[Action], per_world: Sequence[Sequence[float]],
                  same: Mapping[Any, tuple[Action, ...]] | None = None,
                  facts: Mapping[Any, dict[str, float]] | None = None) -> list[Choice]:
    """Choices from a worlds × candidates matrix of margins."""
    if not per_world:
        return [Choice(a, None, None, (facts or {}).get(a, {}), (same or {}).get(a, ()))
                for a in candidates]
    vals = means(per_world)
    sh = shares(per_world)
    return [Choice(a, vals[i], sh[i], (facts or {}).get(a, {}), (same or {}).get(a, ()))
            for i, a in enumerate(candidates)]


def pct(x: float) -> str:
    """A chance as a whole percentage: ``92%``."""
    return f"{round(100 * x)}%"


def pts(x: float) -> str:
    """Points with one decimal where it matters: ``12``, ``7.5``."""
    r = round(x, 1)
    return f"{r:g}"


def comparison(evaluation: Evaluation, text: Callable[[Action], str],
               text_ja: Callable[[Action], str] | None = None) -> Reason:
    """"The next best, X, averages N points less", in both languages."""
    ch = evaluation.choices
    valued = [c for c in ch if c.value is not None]
    if len(valued) < 2 or valued[0].value is None or valued[1].value is None:
        return {"en": "", "ja": ""}
    gap = valued[0].value - valued[1].value
    other = text(valued[1].action)
    other_ja = (text_ja or text)(valued[1].action)
    if evaluation.unit == "chance":
        return {"en": "", "ja": ""}
    if gap < 0:
        # The pick is not the best value (a rule chose it among near values): no claim.
        return {"en": "", "ja": ""}
    if gap < 0.05:
        return {"en": f"{other} is as good.", "ja": f"{other_ja}も同じくらい良い手です。"}
    word = "exactly" if evaluation.exact and evaluation.determined else "on average"
    word_ja = "正確に" if evaluation.exact and evaluation.determined else "平均"
    amount = pts(gap)
    unit = "point" if amount == "1" else "points"
    return {"en": f"The next best, {other}, scores {word} {amount} {unit} less.",
            "ja": f"次善の{other_ja}は{word_ja}{amount}点少なくなります。"}


def said(key: str, **params: str | int | float) -> Reason:
    """A reason that is one sentence of the message catalog, with its placeholders."""
    return {"parts": [[key, params]]}


def join(*parts: Reason) -> Reason:
    """Sentences of several reasons, in order, per language (catalog sentences stay
    catalog sentences: a reason is either kind, not both)."""
    if any("parts" in p for p in parts):
        assert all("parts" in p for p in parts), "catalog and literal reasons mixed"
        return {"parts": [q for p in parts for q in p["parts"]]}
    return {"en": " ".join(p["en"] for p in parts if p.get("en")),
            "ja": "".join(p["ja"] for p in parts if p.get("ja"))}


# -- the fallback advisor: PIMC over the game's determinizer ----------------------------------

class SampledAdvisor:
    """Perfect-information Monte Carlo for any game with a determinizer: every legal action
    in every sampled world, random play-outs (used where a game has no advisor of its own)."""

    thresholds = Thresholds(2, 5, 10)

    def __init__(self, spec: GameSpec, worlds: int = 40) -> None:
        self.spec = spec
        self.base_worlds = worlds

    def thresholds_for(self, observation: dict[str, Any]) -> Thresholds:
        """The same thresholds everywhere."""
        return self.thresholds

    def evaluate(self, observation: dict[str, Any], legal: Sequence[Action],
                 rng: random.Random, effort: Effort,
                 include: Sequence[Action] = ()) -> Evaluation:
        """Mean margin of each legal action over sampled worlds."""
        sample = self.spec.sample_world
        if sample is None:
            return Evaluation("decide", "points", [Choice(a, None) for a in legal], legal[0])
        actions = list(dict.fromkeys([*legal, *include]))
        n = effort.worlds(self.base_worlds)
        rows: list[list[float]] = []
        while len(rows) < n and effort.more(len(rows), 4):
            world = sample(observation, rng)
            seat = observation.get("seat", world.current_player)
            roll = rng.getrandbits(64)
            row = []
            for a in actions:
                st = world.clone()
                st.apply(a)
                r = random.Random(roll)
                while not st.is_terminal:
                    st.apply(random_rollout(st, r))
                row.append(margin(st.returns(), seat))
            rows.append(row)
        choices, best = ranked(build_choices(actions, rows))
        return Evaluation("decide", "points", choices, best, worlds=len(rows))

    def reason(self, observation: dict[str, Any], evaluation: Evaluation) -> Reason:
        """The best choice's average margin."""
        c = evaluation.best_choice()
        if c.value is None:
            return {"en": "", "ja": ""}
        return {"en": f"Best average result over {evaluation.worlds} sampled deals "
                      f"({pts(c.value)}).",
                "ja": f"{evaluation.worlds}通りの配りの平均で最善です（{pts(c.value)}）。"}

    def helper(self, observation: dict[str, Any], legal: Sequence[Action],
               rng: random.Random, effort: Effort,
               evaluation: Evaluation | None = None) -> dict[str, Any] | None:
        """No decision helper."""
        return None

    def hand_of(self, observation: dict[str, Any]) -> int:
        """One hand per game."""
        return 1


def advisor(game: str | GameSpec) -> Advisor:
    """The advisor of a game (its ``advice`` hook, else :class:`SampledAdvisor`)."""
    spec = get_game(game) if isinstance(game, str) else game
    if "advice" in spec.hooks:
        made: Advisor = spec.hook("advice")()
        return made
    return SampledAdvisor(spec)


# -- hints -----------------------------------------------------------------------------------

HINT_SECONDS = 1.8
"""Wall-time cap of a hint's search (the analysis normally finishes well before)."""
HINT_CHOICES = 4
"""Choices a hint lists."""


@dataclass
class Hint:
    """A suggested action with the top choices and the reason."""

    best: Action
    evaluation: Evaluation
    reason: Reason
    top: int = HINT_CHOICES

    def to_json(self, state: GameState) -> dict[str, Any]:
        """JSON-ready form; ``state`` (any state of the seat's view, such as a sampled
        world) gives the actions' text and JSON forms."""
        ev = self.evaluation
        choices = []
        for c in ev.choices[:self.top]:
            shown = None if c.value is None or c.facts.get("reference") else round(c.value, 2)
            entry: dict[str, Any] = {"action": state.action_to_json(c.action),
                                     "text": state.action_text(c.action), "value": shown}
            if c.share is not None:
                entry["share"] = round(c.share, 3)
            if c.facts:
                entry["facts"] = {k: round(v, 3) for k, v in c.facts.items()}
            choices.append(entry)
        return {"best": state.action_to_json(self.best), "best_text":
                state.action_text(self.best), "choices": choices, "reason": self.reason,
                "unit": ev.unit, "kind": ev.kind, "worlds": ev.worlds, "exact": ev.exact,
                "seconds": round(ev.seconds, 3)}


def seed_for(observation: dict[str, Any], salt: int = 0) -> int:
    """A seed that depends only on what the seat sees (so asking twice gives one answer)."""
    import hashlib
    import json

    text = json.dumps(observation, sort_keys=True, separators=(",", ":"), default=str)
    digest = hashlib.sha256(f"{salt}:{text}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def hint(game: str | GameSpec, observation: dict[str, Any], legal: Sequence[Action],
         seed: int | None = None, *, effort: Effort | None = None) -> Hint:
    """The expert's suggested action for the seat of ``observation`` with its reason.

    Deterministic for a given observation, legal list and seed (default: a seed derived from
    the observation), unless ``effort`` has a clock that runs out.
    """
    if not legal:
        raise ValueError("no legal action to advise on")
    adv = advisor(game)
    effort = effort or Effort()
    effort.start()
    rng = random.Random(seed_for(observation) if seed is None else seed)
    ev = adv.evaluate(observation, legal, rng, effort)
    ev.seconds = effort.elapsed()
    return Hint(ev.best, ev, adv.reason(observation, ev))


def forms_state(game: str | GameSpec, observation: dict[str, Any]) -> GameState:
    """A state consistent with the observation, for the text and JSON forms of actions."""
    spec = get_game(game) if isinstance(game, str) else game
    if spec.sample_world is None:
        raise ValueError(f"{spec.name} has no determinizer")
    return spec.sample_world(observation, random.Random(0))


def hint_json(game: str | GameSpec, observation: dict[str, Any], legal: Sequence[Action],
              seed: int | None = None, seconds: float | None = HINT_SECONDS) -> dict[str, Any]:
    """The hint as a JSON-ready dict (the WebSocket answer without ``type`` and ``step``).

    A module-level function of picklable arguments, so it can run in a worker process.
    """
    h = hint(game, observation, legal, seed, effort=Effort(1.0, seconds))
    return h.to_json(forms_state(game, observation))


def helper_json(game: str | GameSpec, observation: dict[str, Any], legal: Sequence[Action],
                seed: int | None = None, seconds: float | None = 1.2) -> dict[str, Any] | None:
    """The decision helper's table (bid odds, exchange, meld) for the seat, or ``None``."""
    adv = advisor(game)
    effort = Effort(1.0, seconds)
    rng = random.Random(seed_for(observation, 1) if seed is None else seed)
    out = adv.helper(observation, legal, rng, effort)
    if out is not None:
        out["seconds"] = round(effort.elapsed(), 3)
    return out


def timing(samples: Sequence[float]) -> dict[str, float]:
    """Median and 95th percentile of a list of durations (seconds)."""
    xs = sorted(samples)
    if not xs:
        return {"count": 0, "median": math.nan, "p95": math.nan, "max": math.nan}
    k = min(len(xs) - 1, math.ceil(0.95 * len(xs)) - 1)
    return {"count": len(xs), "median": statistics.median(xs), "p95": xs[k], "max": xs[-1]}


__all__ = [
    "HINT_CHOICES", "HINT_SECONDS", "MARKS", "MARK_NAMES_JA", "Advisor", "Choice", "Effort",
    "Evaluation", "Hint", "Reason", "SampledAdvisor", "Thresholds", "advisor", "build_choices",
    "comparison", "forms_state", "helper_json", "hint", "hint_json", "join", "means", "pct",
    "pts", "ranked", "said", "seed_for", "shares", "timing",
]
