"""Post-game review: the expert's verdict on every decision one seat made in a game record.

For each decision of the seat that had a real choice, the review evaluates the position
from that seat's observation at the time (never the hidden cards: the seat is judged on
what it could know), with the game's advisor, and reports the value of the action
played, the best action, the expected points lost against it and a mark (good,
inaccuracy, mistake, blunder) by the game's thresholds, which the review states. A summary
per hand counts the marks and the points lost.

Each position is analysed once (:mod:`cardplaza.ai.analysis`): with the seed its hint had
(from the game's seed, or a server's table, the seat, the step and the observation), read
from the hints already shown where they are kept, so the review grades by the numbers the
hint showed and a move that followed the hint is always "good". It is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cardplaza.ai.advice import MARKS, Effort, Evaluation, Thresholds, advisor
from cardplaza.ai.analysis import (
    Analysis,
    AnalysisCache,
    analyse_cached,
    game_base,
    position_key,
    position_seed,
)
from cardplaza.core.history import GameRecord
from cardplaza.core.protocol import Action, GameState
from cardplaza.core.registry import get_game

Progress = Callable[[int, int], None]
"""Called with (decisions reviewed, decisions in all) as the review goes."""


@dataclass
class Decision:
    """One reviewed decision."""

    index: int
    """Index of the action in the record (0-based)."""
    hand: int
    kind: str
    unit: str
    action: Action
    text: str
    best: Action
    best_text: str
    value: float | None
    best_value: float | None
    loss: float | None
    mark: str | None
    exact: bool
    worlds: int
    seconds: float
    choices: list[dict[str, Any]] = field(default_factory=list)
    win_drop: float | None = None
    """Chance of winning the game given up, where the game's advisor knows it."""
    followed: bool = False
    """The move played is the analysis's best choice (the hint's)."""

    def to_json(self, state: GameState) -> dict[str, Any]:
        """JSON-ready dict (``state`` gives the actions' JSON forms)."""
        return {"index": self.index, "hand": self.hand, "kind": self.kind, "unit": self.unit,
                "action": state.action_to_json(self.action), "text": self.text,
                "best": state.action_to_json(self.best), "best_text": self.best_text,
                "value": _round(self.value), "best_value": _round(self.best_value),
                "loss": _round(self.loss), "mark": self.mark, "exact": self.exact,
                "worlds": self.worlds, "seconds": round(self.seconds, 3),
                "win_drop": _round(self.win_drop), "followed": self.followed,
                "choices": self.choices}


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 2)


@dataclass
class Review:
    """A whole review: the decisions, the thresholds and a summary per hand."""

    game: str
    seat: int
    thresholds: Thresholds
    decisions: list[Decision]
    records: list[dict[str, Any]]
    actions: int

    @classmethod
    def from_decisions(cls, game: str, seat: int, records: list[dict[str, Any]],
                       actions: int, thresholds: Thresholds | None = None) -> Review:
        """A review assembled from decisions reviewed one by one (as JSON)."""
        t = thresholds or cls.thresholds_of(game)
        return cls(game, seat, t, [], records, actions)

    @staticmethod
    def thresholds_of(game: str, record: dict[str, Any] | None = None) -> Thresholds:
        """The game's thresholds (for a record's options where they matter)."""
        rec = GameRecord.from_json(record) if record else None
        state = rec.new_state() if rec else get_game(game).new_game(None, 0)
        return advisor(game).thresholds_for(state.observation(0))

    def hands(self) -> list[dict[str, Any]]:
        """Per hand: decisions, count of each mark and points lost."""
        return hand_summary(self.records)

    def summary(self) -> dict[str, Any]:
        """Totals over the game."""
        total: dict[str, Any] = {"decisions": len(self.records), **dict.fromkeys(MARKS, 0)}
        total["lost"] = round(sum(d["loss"] or 0.0 for d in self.records
                                  if d["unit"] == "points"), 2)
        for d in self.records:
            if d["mark"] is not None:
                total[d["mark"]] += 1
        return total

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict (the form ``cardplaza review --json`` prints)."""
        return {"format": "cardplaza-review/1", "game": self.game, "seat": self.seat,
                "actions": self.actions, "thresholds": self.thresholds.to_json(),
                "decisions": self.records, "hands": self.hands(), "summary": self.summary()}


def hand_summary(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per hand of reviewed decisions (JSON): decisions, count of each mark, points lost."""
    out: dict[int, dict[str, Any]] = {}
    for d in records:
        row = out.setdefault(d["hand"], {"hand": d["hand"], "decisions": 0, "lost": 0.0,
                                         "chance_lost": 0.0, **dict.fromkeys(MARKS, 0)})
        row["decisions"] += 1
        if d["mark"] is not None:
            row[d["mark"]] += 1
        if d["loss"] is not None:
            key = "chance_lost" if d["unit"] == "chance" else "lost"
            row[key] = round(row[key] + d["loss"], 2)
    return [out[k] for k in sorted(out)]


def decisions_of(record: GameRecord, seat: int) -> list[int]:
    """Indices of the record's actions where ``seat`` had more than one legal action."""
    out = []
    for i, (state, s, _a) in enumerate(record.replay()):
        if s == seat and len(state.legal_actions()) > 1:
            out.append(i)
    return out


def review_positions(record: GameRecord, seat: int) -> list[tuple[int, str]]:
    """The decisions a review looks at with their positions' cache keys
    (:func:`cardplaza.ai.analysis.position_key`)."""
    out = []
    for i, (state, s, _a) in enumerate(record.replay()):
        if s == seat and len(state.legal_actions()) > 1:
            out.append((i, position_key(seat, i, state.observation(seat))))
    return out


def review_plan(record: GameRecord, seat: int) -> list[int]:
    """The decisions a review looks at (see :func:`decisions_of`)."""
    return decisions_of(record, seat)


def _position(record: GameRecord, seat: int, index: int, state: GameState, action: Action,
              base: str, effort: Effort, cache: AnalysisCache | None,
              top: int) -> Decision | None:
    """The reviewed decision at ``index`` from the position's one analysis (the hint's, when
    one was shown: read from ``cache``), ``None`` when all its actions play alike."""
    adv = advisor(record.game)
    obs = state.observation(seat)
    legal = state.legal_actions()
    found = analyse_cached(cache, record.game, obs, legal, base, seat=seat, step=index,
                           effort=effort)
    ev = found.evaluation
    assert ev is not None
    if ev.choice_of(action) is None:
        # An action the menu did not list (a jump bid): valued with the same seed, so the
        # choices the position shared with its hint keep their values where the game can.
        effort.start()
        ev = adv.evaluate(obs, legal, random.Random(position_seed(base, seat, index, obs)),
                          effort, [action])
        ev.seconds = effort.elapsed()
    if len(ev.choices) <= 1:
        return None
    return _decision(index, adv.hand_of(obs), ev, action, state, adv.thresholds_for(obs), top)


def review_decision_json(record: GameRecord, seat: int, index: int,
                         seconds: float | None = None, base: str | None = None,
                         scale: float = 1.0, top: int = 4,
                         analysis: Analysis | None = None) -> dict[str, Any] | None:
    """One decision of a review as JSON (``None`` when all its actions play alike): the
    unit of work a server hands to a worker process. ``base`` is the seed base of the game's
    analyses (default: the record's seed); ``analysis`` the position's analysis already made
    (a hint shown), which the review then grades by."""
    base = game_base(record.seed) if base is None else base
    for i, (state, s, action) in enumerate(record.replay()):
        if i < index:
            continue
        if s != seat:
            raise ValueError(f"action {index} is not seat {seat}'s")
        cache = None
        if analysis is not None:
            cache = AnalysisCache(1)
            cache.put(analysis)
        d = _position(record, seat, i, state, action, base, Effort(scale, seconds), cache, top)
        return None if d is None else d.to_json(state)
    raise ValueError(f"the record has no action {index}")


def review(record: GameRecord, seat: int, *, seconds_per_decision: float | None = None,
           scale: float = 1.0, base: str | None = None,
           progress: Progress | None = None, top: int = 4,
           cache: AnalysisCache | None = None) -> Review:
    """Review every decision of ``seat`` in ``record``.

    Each position is analysed once, by the function and seed its hint uses
    (:func:`cardplaza.ai.analysis.analyse`, seeds from ``base``, by default the record's
    seed): the analyses in ``cache`` (the hints shown) are read, the others computed, so a
    move that followed the hint is graded by the numbers the hint showed. ``scale``
    multiplies the expert's budget per decision; ``seconds_per_decision`` caps each
    decision's search by the clock (after a minimum of sampled worlds).
    """
    adv = advisor(record.game)
    todo = set(decisions_of(record, seat))
    base = game_base(record.seed) if base is None else base
    decisions: list[Decision] = []
    records: list[dict[str, Any]] = []
    thresholds: Thresholds | None = None
    done = 0
    if progress is not None:
        progress(0, len(todo))
    for i, (state, _s, action) in enumerate(record.replay()):
        if i not in todo:
            continue
        thresholds = thresholds or adv.thresholds_for(state.observation(seat))
        d = _position(record, seat, i, state, action, base,
                      Effort(scale, seconds_per_decision), cache, top)
        done += 1
        if progress is not None:
            progress(done, len(todo))
        if d is None:
            continue  # the legal actions all play alike: no real choice
        decisions.append(d)
        records.append(d.to_json(state))
    if thresholds is None:
        spec_obs = record.new_state().observation(seat)
        thresholds = adv.thresholds_for(spec_obs)
    return Review(record.game, seat, thresholds, decisions, records, len(record.actions))


def _decision(index: int, hand: int, ev: Evaluation, action: Action, state: GameState,
              marks: Thresholds, top: int) -> Decision:
    played = ev.choice_of(action)
    best = ev.best_choice()
    followed = best.covers(action)
    loss = 0.0 if followed else ev.loss(action)
    mark = None if loss is None else marks.mark(loss, ev.unit)
    win_drop = None
    if not followed and played is not None and "win" in played.facts and "win" in best.facts:
        win_drop = max(0.0, best.facts["win"] - played.facts["win"])
        by_win = marks.mark(win_drop, "chance")
        # Only a large drop counts (sampling noise alone makes no inaccuracy).
        if by_win in ("mistake", "blunder") and (
                mark is None or MARKS.index(by_win) > MARKS.index(mark)):
            mark = by_win
    if followed:
        mark = "good"  # the hint's own choice, graded by the hint's own numbers
    choices = []
    shown = list(ev.choices[:top])
    if played is not None and played not in shown:
        shown.append(played)  # the played move's value is always shown
    for c in shown:
        entry: dict[str, Any] = {"action": state.action_to_json(c.action),
                                 "text": state.action_text(c.action),
                                 "value": _round(c.value),
                                 "played": c is played}
        if c.share is not None:
            entry["share"] = round(c.share, 3)
        choices.append(entry)
    return Decision(index=index, hand=hand, kind=ev.kind, unit=ev.unit, action=action,
                    win_drop=win_drop,
                    text=state.action_text(action), best=ev.best,
                    best_text=state.action_text(ev.best),
                    value=None if played is None else played.value, best_value=best.value,
                    loss=loss, mark=mark, exact=ev.exact and ev.determined, worlds=ev.worlds,
                    seconds=ev.seconds, choices=choices, followed=followed)


def marks_text(thresholds: Thresholds, game: str = "") -> dict[str, str]:
    """The thresholds in words, in both languages (stated with every review)."""
    t = thresholds
    bids = game in ("pinochle4", "pinochle3")
    outcome = game in ("pinochle4", "pinochle3", "pinochle2")
    en = (f"Marks by expected points lost against the expert's best choice: inaccuracy "
          f"from {t.inaccuracy:g}, mistake from {t.mistake:g}, blunder from {t.blunder:g}.")
    ja = (f"評価はエキスパートの最善手と比べた期待失点によります。疑問手{t.inaccuracy:g}点以上、"
          f"悪手{t.mistake:g}点以上、大悪手{t.blunder:g}点以上。")
    cuts = (f"{round(100 * t.chance_inaccuracy)} / {round(100 * t.chance_mistake)} / "
            f"{round(100 * t.chance_blunder)}")
    cuts_ja = (f"{round(100 * t.chance_inaccuracy)}・{round(100 * t.chance_mistake)}・"
               f"{round(100 * t.chance_blunder)}")
    if bids:
        en += (f" A bid is marked by its chance of being made against the expert's own "
               f"bid: {cuts} points of chance.")
        ja += (f"ビッドは達成率をエキスパートのビッドと比べ、{cuts_ja}"
               "ポイント以上の差で評価します。")
    if outcome:
        what = "the contract" if bids else "the game"
        what_ja = "コントラクト" if bids else "勝負"
        en += (f" Giving up a large chance of winning {what} (from "
               f"{round(100 * t.chance_mistake)} points of chance) is a mistake or a blunder "
               f"however few points it costs: a move that turns a sure win into a loss is a "
               "blunder.")
        ja += (f"{what_ja}に勝つ確率を大きく失う手（{round(100 * t.chance_mistake)}"
               "ポイント以上）は、失点が少なくても悪手・大悪手です。"
               "確実な勝ちを負けにする手は大悪手です。")
    return {"en": en, "ja": ja}


__all__ = ["Decision", "Progress", "Review", "decisions_of", "hand_summary", "marks_text",
           "review", "review_decision_json", "review_plan", "review_positions"]
