"""Two-hand Pinochle streak bookkeeping (spec pinochle-two-hand.md section 10).

The rules live in the engine's :class:`cardplaza.games.pinochle2.streak.Streak`: level
``min(s + 1, 4)``; a win adds one to the streak and the margin (capped at 9,999) to ``m``,
saved score ``s × 10,000 + m``; a loss or draw ends the streak; "New" ends it too. This
module maps it to the stored rows. A streak belongs to a player key (a browser), not to a
name: starting a game under someone else's name never touches their streak.
"""

from __future__ import annotations

from typing import Any

from cardplaza.games.pinochle2.streak import Streak
from cardplaza.web.store.storage import StreakRow

STREAK_GAME = "pinochle2"


def ladder_level(streak: int) -> int:
    """Computer level (1–4) of the next game for a streak ``s``: ``min(s + 1, 4)``."""
    return Streak(streak=streak).level()


def level_name(levels: tuple[str, ...] | list[str], number: int) -> str:
    """The registry level name for ladder level ``number`` (1 = weakest)."""
    names = [lv for lv in levels if lv != "random"] or list(levels)
    for name in names:
        if name == str(number) or name.endswith(str(number)):
            return name
    return names[min(number, len(names)) - 1]


def record_result(row: StreakRow, human_total: float, computer_total: float) -> StreakRow:
    """Apply one finished ladder game's result (10.3) and return the updated row."""
    s = Streak(row.streak, row.margin, row.best)
    s.record_result(int(human_total), int(computer_total))
    return StreakRow(row.player, s.streak, s.margin_sum, s.best, None)


def end_streak(row: StreakRow) -> StreakRow:
    """"New" (or leaving mid-game): the streak and margin sum go back to zero."""
    s = Streak(row.streak, row.margin, row.best)
    s.new()
    return StreakRow(row.player, s.streak, s.margin_sum, s.best, None)


def streak_json(row: StreakRow, name: str | None = None) -> dict[str, Any]:
    """What the player sees of their own streak (``player``: the name shown with it)."""
    saved = Streak(row.streak, row.margin, row.best).saved_score
    return {"player": name, "streak": row.streak, "margin": row.margin,
            "saved": saved, "best": row.best, "next_level": ladder_level(row.streak)}
