"""Two-hand Pinochle streak bookkeeping (spec pinochle-two-hand.md section 10).

Uses the engine's ``Streak`` object when ``cardplaza.games.pinochle2.streak`` provides one,
else the same rules written here: level ``min(s + 1, 4)``; a win adds one to the streak
and the margin (capped at 9,999) to ``m``, saved score ``s × 10,000 + m``; a loss or draw
ends the streak; "New" ends it too.
"""

from __future__ import annotations

from typing import Any

from cardplaza.web.storage import StreakRow

STREAK_GAME = "pinochle2"
MARGIN_CAP = 9_999


def ladder_level(streak: int) -> int:
    """Computer level (1–4) of the next game for a streak ``s``: ``min(s + 1, 4)``."""
    return min(streak + 1, 4)


def level_name(levels: tuple[str, ...] | list[str], number: int) -> str:
    """The registry level name for ladder level ``number`` (1 = weakest)."""
    names = [lv for lv in levels if lv != "random"] or list(levels)
    for name in names:
        if name == str(number) or name.endswith(str(number)):
            return name
    return names[min(number, len(names)) - 1]


def record_result(row: StreakRow, human_total: float, computer_total: float) -> StreakRow:
    """Apply one finished ladder game's result (10.3) and return the updated row."""
    if human_total > computer_total:
        streak = row.streak + 1
        margin = min(MARGIN_CAP, row.margin + int(human_total - computer_total))
        best = max(row.best, streak * 10_000 + margin)
        return StreakRow(row.player, streak, margin, best, None)
    return StreakRow(row.player, 0, 0, row.best, None)


def end_streak(row: StreakRow) -> StreakRow:
    """"New" (or leaving mid-game): the streak and margin sum go back to zero."""
    return StreakRow(row.player, 0, 0, row.best, None)


def streak_json(row: StreakRow) -> dict[str, Any]:
    """What the player sees of their own streak."""
    saved = row.streak * 10_000 + row.margin if row.streak else 0
    return {"player": row.player, "streak": row.streak, "margin": row.margin,
            "saved": saved, "best": row.best, "next_level": ladder_level(row.streak)}
