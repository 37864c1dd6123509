"""The daily deal and challenges in the database.

``cp_daily_par``: the expert's par of one game on one day (claimed by one process, then
filled in: it is computed once). ``cp_daily_attempts``: one row per day, game and player —
the primary key is what allows a single attempt — with the attempt's table and, once it
is over, its score. ``cp_challenges``: a finished game offered to a friend (by the SHA-256
hash of an unguessable token), the friend's table once they start it, and the comparison
once both are done. The daily secret lives in ``cp_cluster`` beside the other cluster-wide
values.
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Float, Index, String, Table, Text, select, update
from sqlalchemy.exc import IntegrityError

from cardplaza.web.store.storage import Storage, cluster_t, metadata

__all__ = ["Attempt", "ChallengeRow", "DailyStore", "ParRow"]

daily_par_t = Table(
    "cp_daily_par",
    metadata,
    Column("day", String(10), primary_key=True),
    Column("game", String(40), primary_key=True),
    Column("status", String(16), nullable=False),
    Column("par", Float, nullable=True),
    Column("detail", Text, nullable=False),
    Column("claimed", Float, nullable=False),
    Column("done", Float, nullable=True),
)

daily_attempts_t = Table(
    "cp_daily_attempts",
    metadata,
    Column("day", String(10), primary_key=True),
    Column("game", String(40), primary_key=True),
    Column("player", String(40), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("table_id", String(40), nullable=False),
    Column("score", Float, nullable=True),
    Column("returns", Text, nullable=True),
    Column("started", Float, nullable=False),
    Column("finished", Float, nullable=True),
    Index("cp_daily_attempts_table", "table_id"),
)

challenges_t = Table(
    "cp_challenges",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("table_id", String(40), nullable=False, unique=True),
    Column("challenger", String(40), nullable=False),
    Column("friend", String(40), nullable=True),
    Column("friend_table", String(40), nullable=True),
    Column("comparison", Text, nullable=True),
    Column("created", Float, nullable=False),
)

STALE_CLAIM = 900.0
"""A par claimed this many seconds ago and still not done is claimed anew (its process
died)."""


@dataclass
class ParRow:
    """The expert's par of one game on one day."""

    day: str
    game: str
    status: str
    par: float | None
    detail: dict[str, Any]


@dataclass
class Attempt:
    """One player's attempt at one day's deal of a game."""

    day: str
    game: str
    player: str
    name: str
    table_id: str
    score: float | None
    returns: list[float] | None
    finished: float | None


@dataclass
class ChallengeRow:
    """A finished game offered to a friend."""

    id: str
    table_id: str
    challenger: str
    friend: str | None
    friend_table: str | None
    comparison: dict[str, Any] | None


def _attempt(r: Any) -> Attempt:
    return Attempt(day=r.day, game=r.game, player=r.player, name=r.name,
                   table_id=r.table_id, score=r.score,
                   returns=json.loads(r.returns) if r.returns else None, finished=r.finished)


def _challenge(r: Any) -> ChallengeRow:
    return ChallengeRow(id=r.id, table_id=r.table_id, challenger=r.challenger,
                        friend=r.friend, friend_table=r.friend_table,
                        comparison=json.loads(r.comparison) if r.comparison else None)


class DailyStore:
    """Reads and writes the daily-deal and challenge tables."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    # -- secret ---------------------------------------------------------------------------
    def secret(self) -> str:
        """The random secret the daily seeds are derived from (made once per database)."""
        with self.storage._tx() as conn:
            r = conn.execute(select(cluster_t.c.value)
                             .where(cluster_t.c.key == "daily_secret")).first()
            if r is not None:
                return str(r.value)
            value = secrets.token_urlsafe(32)
            try:
                with conn.begin_nested():
                    conn.execute(cluster_t.insert().values(key="daily_secret", value=value))
            except IntegrityError:
                r = conn.execute(select(cluster_t.c.value)
                                 .where(cluster_t.c.key == "daily_secret")).first()
                assert r is not None
                return str(r.value)
            return value

    # -- par ------------------------------------------------------------------------------
    def claim_par(self, day: str, game: str) -> bool:
        """True when this caller is to compute the par (nobody has, or a claim went stale)."""
        now = time.time()
        with self.storage._tx() as conn:
            r = conn.execute(select(daily_par_t).where(daily_par_t.c.day == day,
                                                       daily_par_t.c.game == game)).first()
            if r is None:
                try:
                    with conn.begin_nested():
                        conn.execute(daily_par_t.insert().values(
                            day=day, game=game, status="running", par=None, detail="{}",
                            claimed=now, done=None))
                except IntegrityError:
                    return False
                return True
            if r.status == "running" and now - r.claimed > STALE_CLAIM:
                got = conn.execute(update(daily_par_t).where(
                    daily_par_t.c.day == day, daily_par_t.c.game == game,
                    daily_par_t.c.claimed == r.claimed).values(claimed=now))
                return got.rowcount == 1
            return False

    def save_par(self, day: str, game: str, par: float, detail: dict[str, Any]) -> None:
        """Store a computed par."""
        with self.storage._tx() as conn:
            conn.execute(update(daily_par_t).where(
                daily_par_t.c.day == day, daily_par_t.c.game == game).values(
                status="done", par=par, detail=json.dumps(detail), done=time.time()))

    def release_par(self, day: str, game: str) -> None:
        """Give up a claim (the computation failed): the next request claims it again."""
        with self.storage._tx() as conn:
            conn.execute(daily_par_t.delete().where(
                daily_par_t.c.day == day, daily_par_t.c.game == game,
                daily_par_t.c.status == "running"))

    def par(self, day: str, game: str) -> ParRow | None:
        """The par row of a day and game, if claimed."""
        with self.storage.engine.connect() as conn:
            r = conn.execute(select(daily_par_t).where(daily_par_t.c.day == day,
                                                       daily_par_t.c.game == game)).first()
        if r is None:
            return None
        return ParRow(day=r.day, game=r.game, status=r.status, par=r.par,
                      detail=json.loads(r.detail))

    # -- attempts -------------------------------------------------------------------------
    def add_attempt(self, day: str, game: str, player: str, name: str, table_id: str) -> bool:
        """Record the start of a player's attempt; ``False`` if they already made one."""
        try:
            with self.storage._tx() as conn:
                conn.execute(daily_attempts_t.insert().values(
                    day=day, game=game, player=player, name=name, table_id=table_id,
                    score=None, returns=None, started=time.time(), finished=None))
        except IntegrityError:
            return False
        return True

    def attempt(self, day: str, game: str, player: str) -> Attempt | None:
        """A player's attempt of a day and game."""
        with self.storage.engine.connect() as conn:
            r = conn.execute(select(daily_attempts_t).where(
                daily_attempts_t.c.day == day, daily_attempts_t.c.game == game,
                daily_attempts_t.c.player == player)).first()
        return None if r is None else _attempt(r)

    def finish_attempt(self, table_id: str, score: float, returns: list[float]) -> None:
        """Store the score of the attempt played at ``table_id`` (once)."""
        with self.storage._tx() as conn:
            conn.execute(update(daily_attempts_t).where(
                daily_attempts_t.c.table_id == table_id,
                daily_attempts_t.c.finished.is_(None)).values(
                score=score, returns=json.dumps(returns), finished=time.time()))

    def attempts(self, day: str, game: str) -> list[Attempt]:
        """Every attempt of a day and game (finished or not)."""
        with self.storage.engine.connect() as conn:
            rows = conn.execute(select(daily_attempts_t).where(
                daily_attempts_t.c.day == day, daily_attempts_t.c.game == game)
                .order_by(daily_attempts_t.c.started)).all()
        return [_attempt(r) for r in rows]

    # -- challenges -----------------------------------------------------------------------
    def challenge_for_table(self, table_id: str) -> ChallengeRow | None:
        """The challenge made from a table, if any."""
        with self.storage.engine.connect() as conn:
            r = conn.execute(select(challenges_t).where(
                challenges_t.c.table_id == table_id)).first()
        return None if r is None else _challenge(r)

    def add_challenge(self, table_id: str, challenger: str, token_hash: str) -> str | None:
        """A new challenge from a finished table (``None`` if the table has one)."""
        cid = secrets.token_urlsafe(9)
        try:
            with self.storage._tx() as conn:
                conn.execute(challenges_t.insert().values(
                    id=cid, token_hash=token_hash, table_id=table_id, challenger=challenger,
                    friend=None, friend_table=None, comparison=None, created=time.time()))
        except IntegrityError:
            return None
        return cid

    def challenge(self, token_hash: str) -> ChallengeRow | None:
        """The challenge of a token's hash."""
        with self.storage.engine.connect() as conn:
            r = conn.execute(select(challenges_t).where(
                challenges_t.c.token_hash == token_hash)).first()
        return None if r is None else _challenge(r)

    def set_friend(self, cid: str, friend: str, table_id: str) -> bool:
        """The friend's table of a challenge (only the first friend gets one)."""
        with self.storage._tx() as conn:
            got = conn.execute(update(challenges_t).where(
                challenges_t.c.id == cid, challenges_t.c.friend_table.is_(None)).values(
                friend=friend, friend_table=table_id))
        return bool(got.rowcount == 1)

    def save_comparison(self, cid: str, comparison: dict[str, Any]) -> None:
        """Keep a finished comparison."""
        with self.storage._tx() as conn:
            conn.execute(update(challenges_t).where(challenges_t.c.id == cid).values(
                comparison=json.dumps(comparison)))
