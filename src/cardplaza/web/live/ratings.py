"""Rating updates when a game ends (within the action that ends it).

Which games count:

* a **rated room's** table (the room option ``rated``): every person is rated (kind
  ``rated``); computers take part at their fixed ratings;
* a game of **one person against computers** (any other table): the person's
  "vs computers" rating (kind ``computers``), the computers at their fixed ratings.

A computer level without a fixed rating (not in the calibration table) makes the game
unrated. Each person's stand-in share (decisions a computer made for them) and whether they
had left when the game ended (a computer was standing in: they did not come back within
the grace period) go into :func:`cardplaza.core.ratings.rate_game`. The update is computed
while the game's last action is being stored and written in that action's transaction
(:attr:`cardplaza.web.store.storage.Finish.writes`); the time it took is kept for the
benchmark (:data:`TIMINGS`).
"""

from __future__ import annotations

import functools
import logging
import time
import weakref
from collections import deque

from sqlalchemy.engine import Connection

from cardplaza.core.computers import computer_ratings
from cardplaza.core.protocol import GameState
from cardplaza.core.ratings import Rating, SeatResult, Update, display, places, rate_game
from cardplaza.core.seats import team_of
from cardplaza.web.live.tables import LiveTable, TableManager
from cardplaza.web.store.ratings import RatingStore, write_updates
from cardplaza.web.store.storage import Finish

log = logging.getLogger("cardplaza.web")

__all__ = ["TIMINGS", "install", "plan"]

TIMINGS: deque[float] = deque(maxlen=1000)
"""Seconds of server time of the latest rating updates (read + compute)."""

PARTNERSHIPS = frozenset({"pinochle4", "pinochle_dd"})


def _teams(game: str, seats: int) -> list[int]:
    if game in PARTNERSHIPS and seats == 4:
        return [team_of(s) for s in range(seats)]
    return list(range(seats))


def plan(table: LiveTable, state: GameState) -> tuple[str, list[SeatResult]] | None:
    """The kind of rating a finished table gives and its seats, or ``None`` (unrated)."""
    row = table.row
    n = len(row.seats)
    room = row.extra.get("room")
    people: list[str | None]
    if isinstance(room, dict) and isinstance(room.get("players"), list):
        people = [p if isinstance(p, str) and p else None for p in room["players"]]
        kind = "rated" if room.get("rated") is True else "computers"
    else:
        people = [row.owner if s.kind == "human" else None for s in row.seats]
        kind = "computers"
    if len(people) != n:
        return None
    humans = [i for i, s in enumerate(row.seats) if s.kind == "human"]
    if not humans or any(people[i] is None for i in humans):
        return None
    if kind == "computers" and len(humans) != 1:
        return None
    fixed = computer_ratings(row.game)
    actions = [0] * n
    standins = [0] * n
    for a in row.actions:
        actions[int(a["seat"])] += 1
    for index in row.standins:
        if index < len(row.actions):
            standins[int(row.actions[index]["seat"])] += 1
    away: set[int] = set()
    if table.addon is not None:
        away = set(table.addon.standins)
    teams = _teams(row.game, n)
    ranks = places(state.returns(), state.winners(), teams)
    seats: list[SeatResult] = []
    for i, s in enumerate(row.seats):
        if s.kind == "human":
            share = standins[i] / actions[i] if actions[i] else 0.0
            seats.append(SeatResult(people[i], teams[i], ranks[i], share, i in away))
        else:
            level = s.level
            if level not in fixed:
                return None
            seats.append(SeatResult(None, teams[i], ranks[i], fixed=fixed[level]))
    return kind, seats


def _read_and_rate(store: RatingStore, game: str, kind: str, seats: list[SeatResult]
                   ) -> tuple[list[Update], dict[str, int]]:
    players = [s.player for s in seats if s.player is not None]
    rows = store.current(game, kind, players)
    current: dict[str, Rating] = {p: r.rating for p, r in rows.items()}
    return rate_game(seats, current), {p: r.games for p, r in rows.items()}


def _write(game: str, kind: str, table_id: str, updates: list[Update],
           games: dict[str, int], conn: Connection) -> None:
    write_updates(conn, game, kind, table_id, updates, games)


_installed: weakref.WeakSet[TableManager] = weakref.WeakSet()


def install(manager: TableManager) -> None:
    """Rate finished games of a table manager (once)."""
    if manager in _installed:
        return
    _installed.add(manager)
    store = RatingStore(manager.storage)

    async def on_finish(table: LiveTable, state: GameState, finish: Finish) -> None:
        start = time.perf_counter()
        try:
            planned = plan(table, state)
            if planned is None:
                return
            kind, seats = planned
            updates, games = await manager._db(_read_and_rate, store, table.row.game, kind,
                                               seats)
        except Exception as exc:  # a game's end never fails for its rating
            log.error("table %s: no rating update (%s)", table.id, type(exc).__name__)
            return
        if updates:
            finish.writes.append(functools.partial(_write, table.row.game, kind, table.id,
                                                   updates, games))
            finish.extra["rating"] = {
                "kind": kind,
                "seats": {str(u.seat): {"before": display(u.before), "after": display(u.after),
                                        "games": games.get(u.player, 0) + 1}
                          for u in updates}}
        TIMINGS.append(time.perf_counter() - start)

    manager.on_finish.append(on_finish)

