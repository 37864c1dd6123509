"""Finished browser games of a player, read from the server's storage for statistics."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select

from cardplaza.core.results import GameResult, opponents_of
from cardplaza.web.store.storage import games_t


def browser_results(storage: Any, owner: str) -> list[GameResult]:
    """The finished browser games of a player (by player id) from a server's storage: the
    seat of the player is the table's first person."""
    q = (select(games_t.c.game, games_t.c.seats, games_t.c.extra, games_t.c.result,
                games_t.c.updated)
         .where(games_t.c.owner == owner, games_t.c.status == "finished"))
    out: list[GameResult] = []
    with storage.engine.connect() as conn:
        for r in conn.execute(q).all():
            try:
                seats = json.loads(r.seats)
                extra = json.loads(r.extra)
                returns = [float(x) for x in extra.get("returns") or []]
                me = next(i for i, s in enumerate(seats) if s.get("kind") == "human")
            except (ValueError, StopIteration, TypeError, AttributeError):
                continue
            if not returns or me >= len(returns):
                continue
            levels = sorted({str(s.get("level") or "") for s in seats
                             if s.get("kind") == "computer"} - {""})
            others = opponents_of(r.game, me, len(returns))
            margin = returns[me] - max(returns[s] for s in others) if others else 0.0
            outcome = {"win": "win", "loss": "loss", "draw": "draw"}.get(r.result or "",
                                                                         "loss")
            out.append(GameResult(owner, str(seats[me].get("name", "")), r.game,
                                  "/".join(levels), outcome, margin, returns[me],
                                  float(r.updated)))
    return out


__all__ = ["browser_results"]
