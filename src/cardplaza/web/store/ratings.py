"""Ratings in the database: one row per (player, game, kind) and one history row per
rated game of a player (the player page's chart and recent games).

* ``cp_ratings`` — ``mu``, ``sigma``, the shown value and the number of games of a
  player's rating of a game. ``kind`` is ``rated`` (rated rooms: people, and computers at
  their fixed ratings) or ``computers`` (games of one person against computers).
* ``cp_rating_games`` — one row per player and rated game: the rating after it, the
  change, the place and the weight the update used.

The leaderboard reads ``cp_ratings_board`` (game, kind, shown descending, player; with the
games count on PostgreSQL): a page is an index range read, and a player's place is a count
over the same index. Rows are written
by :func:`write_updates` inside the transaction that stores the action ending the game.
Only player ids are stored here (never a key); names come from ``cp_players``.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    Float,
    Index,
    Integer,
    String,
    Table,
    and_,
    bindparam,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection

from cardplaza.core.ratings import Rating, Update, display
from cardplaza.web.store.storage import Storage, metadata, players_t

__all__ = ["BoardRow", "HistoryRow", "RatingRow", "RatingStore", "rating_games_t", "ratings_t",
           "write_updates"]

KINDS = ("rated", "computers")

ratings_t = Table(
    "cp_ratings",
    metadata,
    Column("player", String(40), primary_key=True),
    Column("game", String(40), primary_key=True),
    Column("kind", String(12), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("shown", Integer, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", Float, nullable=False),
)
Index("cp_ratings_board", ratings_t.c.game, ratings_t.c.kind, ratings_t.c.shown.desc(),
      ratings_t.c.player, postgresql_include=["games"])
"""The leaderboard's order (best first, then player id); on PostgreSQL it also holds the
games count, so a page, the count and a player's place read only the index."""

rating_games_t = Table(
    "cp_rating_games",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player", String(40), nullable=False),
    Column("game", String(40), nullable=False),
    Column("kind", String(12), nullable=False),
    Column("table_id", String(40), nullable=False),
    Column("at", Float, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("shown", Integer, nullable=False),
    Column("change", Integer, nullable=False),
    Column("place", Integer, nullable=False),
    Column("weight", Float, nullable=False),
    Index("cp_rating_games_player", "player", "game", "kind", "at"),
)


@dataclass(frozen=True)
class RatingRow:
    """A player's rating of one game and kind."""

    player: str
    game: str
    kind: str
    rating: Rating
    games: int

    @property
    def shown(self) -> int:
        """The value shown."""
        return display(self.rating)


@dataclass(frozen=True)
class BoardRow:
    """One leaderboard line."""

    place: int
    player: str
    name: str
    shown: int
    games: int


@dataclass(frozen=True)
class HistoryRow:
    """A player's rating after one rated game."""

    at: float
    shown: int
    change: int
    place: int
    weight: float
    mu: float
    sigma: float


# The statements of every rated game's end, built once.
_UPDATE_RATING = update(ratings_t).where(
    ratings_t.c.player == bindparam("p"), ratings_t.c.game == bindparam("g"),
    ratings_t.c.kind == bindparam("k"))
_INSERT_RATING = insert(ratings_t)
_INSERT_HISTORY = insert(rating_games_t)
_CURRENT = select(ratings_t).where(
    ratings_t.c.game == bindparam("g"), ratings_t.c.kind == bindparam("k"),
    ratings_t.c.player.in_(bindparam("ids", expanding=True)))


def write_updates(conn: Connection, game: str, kind: str, table_id: str,
                  updates: Sequence[Update], games: dict[str, int],
                  now: float | None = None) -> None:
    """Inside a writing transaction: store each person's new rating (and its history row).
    ``games`` holds each player's games before this one (0 = new rating row)."""
    at = time.time() if now is None else now
    history, changed, new = [], [], []
    for up in updates:
        shown = display(up.after)
        values = {"mu": up.after.mu, "sigma": up.after.sigma, "shown": shown,
                  "games": games.get(up.player, 0) + 1, "updated": at}
        if games.get(up.player, 0) > 0:
            changed.append({"p": up.player, "g": game, "k": kind, **values})
        else:
            new.append({"player": up.player, "game": game, "kind": kind, **values})
        history.append({"player": up.player, "game": game, "kind": kind,
                        "table_id": table_id, "at": at, "mu": up.after.mu,
                        "sigma": up.after.sigma, "shown": shown,
                        "change": shown - display(up.before), "place": up.rank,
                        "weight": up.weight})
    if changed:
        conn.execute(_UPDATE_RATING, changed)
    if new:
        conn.execute(_INSERT_RATING, new)
    if history:
        conn.execute(_INSERT_HISTORY, history)


class RatingStore:
    """Reading ratings, leaderboards and player histories from a :class:`Storage`."""

    def __init__(self, storage: Storage, total_seconds: float = 10.0) -> None:
        self.storage = storage
        self.total_seconds = total_seconds
        """How long a leaderboard's counts per shown value are reused before they are
        counted again."""
        self._totals: dict[tuple[str, str, int], tuple[float, list[tuple[int, int]]]] = {}

    def current(self, game: str, kind: str, players: Iterable[str]) -> dict[str, RatingRow]:
        """The stored ratings of some players (missing ones have none yet)."""
        ids = sorted(set(players))
        if not ids:
            return {}
        with self.storage.engine.connect() as conn:
            return {r.player: RatingRow(r.player, r.game, r.kind,
                                        Rating(float(r.mu), float(r.sigma)), int(r.games))
                    for r in conn.execute(_CURRENT, {"g": game, "k": kind, "ids": ids}).all()}

    def _board_where(self, game: str, kind: str, min_games: int) -> Any:
        return and_(ratings_t.c.game == game, ratings_t.c.kind == kind,
                    ratings_t.c.games >= min_games)

    def _counts(self, conn: Connection, game: str, kind: str, min_games: int
                ) -> list[tuple[int, int]]:
        """How many listed players have each shown value, best first — counted at most
        every ``total_seconds`` (one pass over the board's index), reused meanwhile."""
        now = time.monotonic()
        key = (game, kind, min_games)
        cached = self._totals.get(key)
        if cached is not None and now - cached[0] < self.total_seconds:
            return cached[1]
        q = (select(ratings_t.c.shown, func.count()).where(
            self._board_where(game, kind, min_games))
             .group_by(ratings_t.c.shown).order_by(ratings_t.c.shown.desc()))
        counts = [(int(v), int(n)) for v, n in conn.execute(q).all()]
        if len(self._totals) > 1000:
            self._totals.clear()
        self._totals[key] = (now, counts)
        return counts

    def board(self, game: str, min_games: int, page: int, size: int,
              kind: str = "rated") -> tuple[list[BoardRow], int]:
        """One page (0-based) of the leaderboard, best first, and how many players it
        has in all. Equal values are ordered by player id (a stable order).

        The page starts from the counts per shown value (:meth:`_counts`): the value its
        first row has and how many rows of that value come before it, so the query reads
        only the page's rows from the index, however deep the page (the counts may be
        ``total_seconds`` old: a row that moved meanwhile may show on a neighbour page)."""
        where = self._board_where(game, kind, min_games)
        with self.storage.engine.connect() as conn:
            counts = self._counts(conn, game, kind, min_games)
            total = sum(n for _v, n in counts)
            skip = page * size
            top_value: int | None = None
            for value, n in counts:
                if skip < n:
                    top_value = value
                    break
                skip -= n
            if top_value is None:
                return [], total
            # The page's rows first (from the index alone), then their names: joining
            # before the offset would look up the name of every player skipped.
            top = (select(ratings_t.c.player, ratings_t.c.shown, ratings_t.c.games)
                   .where(where, ratings_t.c.shown <= top_value)
                   .order_by(ratings_t.c.shown.desc(), ratings_t.c.player)
                   .limit(size).offset(skip)).subquery()
            q = (select(top.c.player, top.c.shown, top.c.games, players_t.c.name)
                 .join(players_t, players_t.c.id == top.c.player)
                 .order_by(top.c.shown.desc(), top.c.player))
            rows = conn.execute(q).all()
        return ([BoardRow(page * size + i + 1, r.player, r.name, int(r.shown), int(r.games))
                 for i, r in enumerate(rows)], total)

    def player(self, player: str, game: str, min_games: int, history: int,
               kind: str = "rated") -> tuple[str, RatingRow | None, int | None,
                                             list[HistoryRow]]:
        """A player's page: name, rating, place on the leaderboard (``None`` when not
        listed) and the latest ``history`` rated games (oldest first)."""
        with self.storage.engine.connect() as conn:
            name_row = conn.execute(select(players_t.c.name)
                                    .where(players_t.c.id == player)).first()
            r = conn.execute(select(ratings_t).where(
                ratings_t.c.player == player, ratings_t.c.game == game,
                ratings_t.c.kind == kind)).first()
            row = None if r is None else RatingRow(
                r.player, r.game, r.kind, Rating(float(r.mu), float(r.sigma)), int(r.games))
            place = None
            if r is not None and int(r.games) >= min_games:
                where = self._board_where(game, kind, min_games)
                # Those above from the counts per value, those level by one small count.
                above = sum(n for v, n in self._counts(conn, game, kind, min_games)
                            if v > int(r.shown))
                level = conn.execute(select(func.count()).select_from(ratings_t).where(
                    where, ratings_t.c.shown == r.shown, ratings_t.c.player < player)
                ).scalar()
                place = above + int(level or 0) + 1
            g = rating_games_t.c
            hist = conn.execute(
                select(rating_games_t).where(g.player == player, g.game == game, g.kind == kind)
                .order_by(g.at.desc(), g.id.desc()).limit(history)).all()
        out = [HistoryRow(float(h.at), int(h.shown), int(h.change), int(h.place),
                          float(h.weight), float(h.mu), float(h.sigma)) for h in hist]
        out.reverse()
        return ("" if name_row is None else str(name_row.name)), row, place, out
