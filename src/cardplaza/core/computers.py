"""The computer levels' fixed ratings, read from the package's ``computers.json``.

The table is written by ``cardplaza arena GAME --players … --calibrate`` (see
:mod:`cardplaza.arena.calibrate`): per game the command that made it, the deals, every
pair's wins, draws and losses, and each level's Bradley–Terry strength with its 95%
interval and its fixed rating (``mu``, ``sigma``) on the players' scale
(:func:`cardplaza.core.strengths.to_rating`). A level missing from the table has no fixed
rating: a rated room cannot seat it.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from cardplaza.core.ratings import Rating

__all__ = ["TABLE_PATH", "computer_ratings", "load_table", "nearest_level"]

TABLE_PATH = Path(__file__).with_name("computers.json")


@cache
def load_table(path: str | None = None) -> dict[str, Any]:
    """The whole table (``{"format", "games": {game: entry}}``); empty when missing."""
    p = Path(path) if path else TABLE_PATH
    if not p.exists():
        return {"format": "cardplaza-computers/1", "games": {}}
    data: dict[str, Any] = json.loads(p.read_text(encoding="utf-8"))
    return data


def computer_ratings(game: str) -> dict[str, Rating]:
    """Each calibrated level of ``game`` → its fixed rating."""
    entry = load_table().get("games", {}).get(game) or {}
    return {lv: Rating(float(r["mu"]), float(r["sigma"]))
            for lv, r in (entry.get("ratings") or {}).items()}


def nearest_level(game: str, mu: float) -> tuple[str, int] | None:
    """The calibrated level whose ``mu`` is closest to ``mu``, and where ``mu`` lies:
    ``-1`` below the weakest level (by more than half the gap to the next), ``1`` above
    the strongest, ``0`` about as strong. ``None`` when the game has no table."""
    levels = sorted(computer_ratings(game).items(), key=lambda kv: kv[1].mu)
    if not levels:
        return None
    best = min(levels, key=lambda kv: abs(kv[1].mu - mu))[0]
    lo, hi = levels[0][1].mu, levels[-1][1].mu
    gap = (hi - lo) / max(1, len(levels) - 1) / 2 if len(levels) > 1 else 2.0
    if mu < lo - gap:
        return levels[0][0], -1
    if mu > hi + gap:
        return levels[-1][0], 1
    return best, 0
