"""Persistent storage of tables and streaks with SQLAlchemy Core.

Any SQLAlchemy URL works (SQLite by default, PostgreSQL via ``postgresql+psycopg://``).
A table row holds the game record (game, options, seed, actions) plus its seats, so a
table is rebuilt exactly by replaying the record. Seat tokens are stored as SHA-256 hashes.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    select,
)
from sqlalchemy.engine import Engine

metadata = MetaData()

tables_t = Table(
    "cp_tables",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("options", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("actions", Text, nullable=False),
    Column("seats", Text, nullable=False),
    Column("extra", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
)

streaks_t = Table(
    "cp_streaks",
    metadata,
    Column("player", String(40), primary_key=True),
    Column("streak", Integer, nullable=False),
    Column("margin", Integer, nullable=False),
    Column("best", Integer, nullable=False),
    Column("open_table", String(40), nullable=True),
    Column("updated", Float, nullable=False),
)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """WAL journal: a commit survives a killed process without a full sync per action."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()


def default_db_url() -> str:
    """SQLite file in the user's data directory (``$XDG_DATA_HOME/cardplaza``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    folder = Path(base) / "cardplaza"
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'cardplaza.sqlite3'}"


def hash_token(token: str) -> str:
    """SHA-256 hex digest of a seat token (only hashes are stored)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class SeatInfo:
    """One seat: a person (with a token hash) or a computer at a level."""

    kind: str
    name: str
    level: str = ""
    token_hash: str = ""

    def to_json(self) -> dict[str, str]:
        """JSON-ready dict."""
        return {"kind": self.kind, "name": self.name, "level": self.level,
                "token_hash": self.token_hash}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatInfo:
        """Inverse of :meth:`to_json`."""
        return cls(kind=str(data["kind"]), name=str(data["name"]),
                   level=str(data.get("level", "")), token_hash=str(data.get("token_hash", "")))


@dataclass
class TableRow:
    """A stored table."""

    id: str
    game: str
    options: dict[str, Any]
    seed: int
    actions: list[dict[str, Any]]
    seats: list[SeatInfo]
    extra: dict[str, Any] = field(default_factory=dict)
    status: str = "playing"
    created: float = 0.0
    updated: float = 0.0


@dataclass
class StreakRow:
    """Two-hand Pinochle streak state of one player name."""

    player: str
    streak: int = 0
    margin: int = 0
    best: int = 0
    open_table: str | None = None


class Storage:
    """Tables and streaks in one SQL database."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_db_url()
        kwargs: dict[str, Any] = {"future": True}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)

    def close(self) -> None:
        """Release the connection pool."""
        self.engine.dispose()

    # -- tables ---------------------------------------------------------------------------
    def insert_table(self, row: TableRow) -> None:
        """Store a new table."""
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(tables_t.insert().values(
                id=row.id, game=row.game, options=json.dumps(row.options),
                seed=row.seed, actions=json.dumps(row.actions),
                seats=json.dumps([s.to_json() for s in row.seats]),
                extra=json.dumps(row.extra), status=row.status, created=now, updated=now))

    def save_progress(self, table_id: str, actions: list[dict[str, Any]], status: str,
                      extra: dict[str, Any] | None = None) -> None:
        """Store the actions so far (and the status) of a table."""
        values: dict[str, Any] = {"actions": json.dumps(actions), "status": status,
                                  "updated": time.time()}
        if extra is not None:
            values["extra"] = json.dumps(extra)
        with self.engine.begin() as conn:
            conn.execute(tables_t.update().where(tables_t.c.id == table_id).values(**values))

    def load_table(self, table_id: str) -> TableRow | None:
        """A stored table, or ``None``."""
        with self.engine.connect() as conn:
            r = conn.execute(select(tables_t).where(tables_t.c.id == table_id)).first()
        if r is None:
            return None
        return TableRow(
            id=r.id, game=r.game, options=json.loads(r.options), seed=int(r.seed),
            actions=json.loads(r.actions),
            seats=[SeatInfo.from_json(s) for s in json.loads(r.seats)],
            extra=json.loads(r.extra), status=r.status, created=float(r.created),
            updated=float(r.updated))

    # -- streaks --------------------------------------------------------------------------
    def load_streak(self, player: str) -> StreakRow:
        """Streak state of a player name (zeros when unknown)."""
        with self.engine.connect() as conn:
            r = conn.execute(select(streaks_t).where(streaks_t.c.player == player)).first()
        if r is None:
            return StreakRow(player=player)
        return StreakRow(player=r.player, streak=int(r.streak), margin=int(r.margin),
                         best=int(r.best), open_table=r.open_table)

    def save_streak(self, row: StreakRow) -> None:
        """Insert or update a player's streak state."""
        values = {"streak": row.streak, "margin": row.margin, "best": row.best,
                  "open_table": row.open_table, "updated": time.time()}
        with self.engine.begin() as conn:
            done = conn.execute(streaks_t.update().where(streaks_t.c.player == row.player)
                                .values(**values))
            if done.rowcount == 0:
                conn.execute(streaks_t.insert().values(player=row.player, **values))

    def high_scores(self, limit: int = 20) -> list[StreakRow]:
        """Players with the best saved scores, best first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(streaks_t).where(streaks_t.c.best > 0)
                                .order_by(streaks_t.c.best.desc(), streaks_t.c.player)
                                .limit(limit)).all()
        return [StreakRow(player=r.player, streak=int(r.streak), margin=int(r.margin),
                          best=int(r.best), open_table=r.open_table) for r in rows]
