"""``cardplaza arena GAME --players … --calibrate``: the computer levels' fixed ratings.

Every pair of levels plays the same paired deals (:func:`cardplaza.arena.core.run_arena`);
the pairs' wins, draws and losses are fitted by Bradley–Terry
(:func:`cardplaza.core.strengths.fit`) and written with the command, the deals and the
intervals into the game's entry of the ratings table (by default the package's
``cardplaza/core/computers.json``, which the server reads).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cardplaza.arena.core import ArenaResult
from cardplaza.core.computers import TABLE_PATH, load_table
from cardplaza.core.ratings import display
from cardplaza.core.strengths import SCALE, fit, to_rating

__all__ = ["calibration_entry", "write_calibration"]


def calibration_entry(result: ArenaResult, command: str) -> dict[str, Any]:
    """The table entry of one arena run: its pairs, strengths, intervals and ratings."""
    pairs = [{"a": p.a, "b": p.b, "wins": p.wins, "draws": p.draws, "losses": p.losses,
              "deals": p.deals, "games": p.games} for p in result.pairs]
    levels = list(result.players)
    strengths = fit(levels, pairs)
    ratings = {lv: to_rating(s) for lv, s in strengths.items()}
    return {
        "command": command, "deals": result.deals, "seed": result.seed, "unit": result.unit,
        "options": result.options, "levels": levels, "pairs": pairs,
        "seconds": round(result.seconds, 1),
        "fit": "Bradley-Terry, natural-log strengths with mean 0, draws half a win, half a "
               "virtual win each side of every pair; 95% interval = theta +- 1.96 se",
        "strengths": {lv: {"theta": s.theta, "se": s.se, "low": round(s.low, 6),
                           "high": round(s.high, 6)} for lv, s in strengths.items()},
        "scale": f"mu = 25 + {SCALE:.6f} * theta, sigma = max({SCALE:.6f} * se, 0.5)",
        "ratings": {lv: {"mu": r.mu, "sigma": r.sigma, "display": display(r)}
                    for lv, r in ratings.items()},
    }


def write_calibration(result: ArenaResult, command: str, path: str | Path | None = None
                      ) -> dict[str, Any]:
    """Write (or replace) the game's entry in the ratings table; returns the entry."""
    p = Path(path) if path else TABLE_PATH
    table: dict[str, Any] = dict(load_table(str(p))) if p.exists() else {}
    entry = calibration_entry(result, command)
    games: dict[str, Any] = dict(table.get("games") or {})
    games[result.game] = entry
    table["format"] = "cardplaza-computers/1"
    table["games"] = dict(sorted(games.items()))
    p.write_text(json.dumps(table, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    load_table.cache_clear()
    return entry
