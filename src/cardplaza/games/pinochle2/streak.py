"""Winning-streak bookkeeping of two-hand Pinochle (spec section 10).

A plain data object; front ends persist it with :meth:`Streak.to_dict` /
:meth:`Streak.from_dict` (T-25) and call :meth:`Streak.record_result` after each completed
game played on the ladder, :meth:`Streak.new` for "New" or for leaving during a game.
Games at a fixed practice level (option TO3) must not be recorded (T-27):
:meth:`record_result` takes the level option and ignores such games.

:func:`rematch_options` gives the next game's options: the dealer alternates from game to
game (spec 2.3, T-1).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from cardplaza.core.protocol import GameState

MARGIN_CAP = 9_999
MAX_LEVEL = 4


@dataclass
class Streak:
    """Streak ``streak`` (s), margin sum ``margin_sum`` (m) and ``best`` saved score."""

    streak: int = 0
    margin_sum: int = 0
    best: int = 0

    def level(self, option: str = "streak") -> int:
        """Computer level of the next game: min(s + 1, 4) (10.2), or the fixed practice
        level when the level option is ``"1"``…``"4"``."""
        if option != "streak":
            return int(option)
        return min(self.streak + 1, MAX_LEVEL)

    @property
    def saved_score(self) -> int:
        """s × 10,000 + m (0 when there is no streak)."""
        return self.streak * 10_000 + self.margin_sum

    def record_result(self, human_total: int, computer_total: int,
                      level_option: str = "streak") -> str:
        """Update after a completed game (10.3); returns ``"win"``, ``"loss"`` or ``"draw"``.

        With a fixed practice level nothing changes (T-27).
        """
        outcome = ("win" if human_total > computer_total
                   else "loss" if human_total < computer_total else "draw")
        if level_option != "streak":
            return outcome
        if outcome == "win":
            self.streak += 1
            self.margin_sum = min(MARGIN_CAP, self.margin_sum + human_total - computer_total)
            self.best = max(self.best, self.saved_score)
        else:
            self.streak = 0
            self.margin_sum = 0
        return outcome

    def new(self) -> None:
        """"New" (or leaving during a game) ends the streak; the best score is kept (10.4)."""
        self.streak = 0
        self.margin_sum = 0

    def to_dict(self) -> dict[str, int]:
        """JSON-ready form."""
        return {"streak": self.streak, "margin_sum": self.margin_sum, "best": self.best}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Streak:
        """Inverse of :meth:`to_dict` (missing keys default to 0)."""
        return cls(int(data.get("streak", 0)), int(data.get("margin_sum", 0)),
                   int(data.get("best", 0)))


def rematch_options(options: Any, finished: GameState) -> Any:
    """Options of the next game of the session: the other seat deals (2.3, T-1)."""
    return replace(options, dealer=1 - options.dealer)
