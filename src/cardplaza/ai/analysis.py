"""One analysis per decision: the hint, the decision helper and the review of a position read
the same numbers.

A position is a seat's observation at a step of a game. Its analysis (the expert's
:class:`~cardplaza.ai.advice.Evaluation` of the decision and, where the game has one, the
decision helper's table read off the same sampled deals) is computed by :func:`analyse`
with a seed that depends only on the game (a table id, or a game's seed), the seat, the step
and the seat's observation (:func:`position_seed`), so computing it again gives the same
numbers. An :class:`AnalysisCache` keeps the analyses of one game, keyed by seat, step and
observation, bounded in size: a review reads the analyses of the hints already shown and
computes the missing positions with the same function.

Everything is computed from one seat's observation: the key includes the seat, so one
seat's analysis is never served to another.

>>> a = position_seed("game:1", 0, 3, {"hand": [1, 2]})
>>> a == position_seed("game:1", 0, 3, {"hand": [1, 2]})
True
>>> a == position_seed("game:1", 1, 3, {"hand": [1, 2]})
False
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cardplaza.ai.advice import Effort, Evaluation, Hint, Reason, advisor
from cardplaza.core.protocol import Action
from cardplaza.core.registry import GameSpec

ANALYSIS_SECONDS = 1.8
"""Wall-time cap of one analysis at a server (a safety net: the expert's budget of sampled
deals normally finishes well before, and then the numbers depend only on the seed)."""


def digest(observation: dict[str, Any]) -> str:
    """A short fingerprint of an observation (what one seat sees)."""
    text = json.dumps(observation, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def game_base(seed: int) -> str:
    """The seed base of a game played from ``seed`` (terminal play, a saved record)."""
    return f"game:{seed}"


def table_base(table_id: str) -> str:
    """The seed base of a server's table."""
    return f"table:{table_id}"


def position_seed(base: str, seat: int, step: int, observation: dict[str, Any]) -> int:
    """The seed of the analysis of ``seat``'s position at ``step`` of the game ``base``."""
    text = f"{base}|{seat}|{step}|{digest(observation)}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


@dataclass
class Analysis:
    """The expert's analysis of one position: the decision's evaluation (``None`` when the
    seat is not to act) and the decision helper's table (``None`` where there is none)."""

    seat: int
    step: int
    key: str
    evaluation: Evaluation | None
    helper: dict[str, Any] | None
    reason: Reason
    forms: dict[str, Any] = field(default_factory=dict)
    """JSON forms made once for showing (a server keeps the hint's message here)."""

    def hint(self) -> Hint:
        """The hint this analysis gives (its best choice and reason)."""
        if self.evaluation is None:
            raise ValueError("the seat has no decision here")
        return Hint(self.evaluation.best, self.evaluation, self.reason)


def position_key(seat: int, step: int, observation: dict[str, Any]) -> str:
    """The cache key of a position: the seat, the step and what the seat sees."""
    return f"{seat}/{step}/{digest(observation)}"


def analyse(game: str | GameSpec, observation: dict[str, Any], legal: Sequence[Action],
            seed: int, *, seat: int, step: int, effort: Effort | None = None,
            include: Sequence[Action] = ()) -> Analysis:
    """The analysis of a position, computed from the seat's observation and ``seed`` alone.

    ``legal`` is empty when the seat is not to act (then only the helper is computed).
    The helper is read off the evaluation where the game can (the same sampled deals);
    otherwise it is computed with the same seed and budget.
    """
    adv = advisor(game)
    effort = effort or Effort()
    effort.start()
    ev: Evaluation | None = None
    reason: Reason = {"en": "", "ja": ""}
    if legal:
        ev = adv.evaluate(observation, legal, random.Random(seed), effort, include)
        ev.seconds = effort.elapsed()
        reason = adv.reason(observation, ev)
    helper = adv.helper(observation, legal, random.Random(seed), effort, evaluation=ev)
    if helper is not None:
        helper["seconds"] = round(effort.elapsed(), 3)
    return Analysis(seat, step, position_key(seat, step, observation), ev, helper, reason)


class AnalysisCache:
    """The analyses of one game's positions, the most recent ``size`` kept."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError("an analysis cache keeps at least one position")
        self.size = size
        self._items: OrderedDict[str, Analysis] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: str) -> Analysis | None:
        """The analysis of a position, if kept."""
        found = self._items.get(key)
        if found is not None:
            self._items.move_to_end(key)
        return found

    def put(self, analysis: Analysis) -> None:
        """Keep an analysis (the oldest goes once the cache is full). An analysis that has
        an evaluation is never replaced by one without (a helper asked out of turn)."""
        old = self._items.get(analysis.key)
        if old is not None and old.evaluation is not None and analysis.evaluation is None:
            return
        self._items[analysis.key] = analysis
        self._items.move_to_end(analysis.key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)


def analyse_cached(cache: AnalysisCache | None, game: str | GameSpec,
                   observation: dict[str, Any], legal: Sequence[Action], base: str, *,
                   seat: int, step: int, effort: Effort | None = None) -> Analysis:
    """The analysis of a position from ``cache``, computed (and kept) when missing or when it
    lacks the evaluation now needed."""
    key = position_key(seat, step, observation)
    found = cache.get(key) if cache is not None else None
    if found is not None and (found.evaluation is not None or not legal):
        return found
    made = analyse(game, observation, legal, position_seed(base, seat, step, observation),
                   seat=seat, step=step, effort=effort)
    if cache is not None:
        cache.put(made)
    return made


__all__ = ["ANALYSIS_SECONDS", "Analysis", "AnalysisCache", "analyse", "analyse_cached",
           "digest", "game_base", "position_key", "position_seed", "table_base"]
