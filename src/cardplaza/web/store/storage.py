"""Persistent storage with SQLAlchemy Core: table headers, an append-only action log,
players, streaks, and the leases that give each table one owning process.

Any SQLAlchemy URL works (SQLite by default, PostgreSQL via ``postgresql+psycopg://``).

* ``cp_games`` — one header row per table: what changes rarely (game, options, seed, seats,
  status, result). The deal seed is kept for replay; it leaves the server only through
  :meth:`Storage.load_record` of a finished game, read by its seats.
* ``cp_actions`` — one row per action ``(table, index, seat, action)``, written in the
  transaction that applies it, so saving an action costs the same at any length of game.
  A table is rebuilt exactly by replaying its header and log.
* ``cp_players`` — one row per browser: a secret key (stored as a SHA-256 hash), a public
  id and the latest name used; ``cp_player_streaks`` — the two-hand Pinochle streak of a
  player.
* ``cp_action_marks`` — marks on single actions of a log (``standin``: a computer played
  it for a person who was away), written in the action's own transaction.
* ``cp_rooms`` — rooms being set up to play with friends (see :mod:`.rooms`): the game,
  its options, who sits where, the invite's and the room code's hashes, and the table once
  the game has started.
* ``cp_servers`` / ``cp_leases`` — each running process's heartbeat and relay address, and
  which process owns each table in memory. Appending an action checks the lease in the
  same transaction, so a process that lost a table can never write to it.

Seat tokens, player keys, invites and room codes are stored only as SHA-256 hashes.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from sqlalchemy import (
    Column,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

log = logging.getLogger("cardplaza.web")

metadata = MetaData()

games_t = Table(
    "cp_games",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("game", String(40), nullable=False),
    Column("options", Text, nullable=False),
    Column("seed", String(80), nullable=False),
    Column("seats", Text, nullable=False),
    Column("extra", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("result", String(16), nullable=True),
    Column("owner", String(40), nullable=True),
    Column("address", String(64), nullable=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Index("cp_games_address", "address", "status", "created"),
    Index("cp_games_owner", "owner", "status", "created"),
)

actions_t = Table(
    "cp_actions",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("idx", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("at", Float, nullable=False),
)

players_t = Table(
    "cp_players",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("key_hash", String(64), nullable=False, unique=True),
    Column("name", String(80), nullable=False),
    Column("created", Float, nullable=False),
    Column("seen", Float, nullable=False),
)

streaks_t = Table(
    "cp_player_streaks",
    metadata,
    Column("player", String(40), primary_key=True),
    Column("streak", Integer, nullable=False),
    Column("margin", Integer, nullable=False),
    Column("best", Integer, nullable=False),
    Column("open_table", String(40), nullable=True),
    Column("updated", Float, nullable=False),
)

servers_t = Table(
    "cp_servers",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("address", String(200), nullable=False),
    Column("heartbeat", Float, nullable=False),
    Column("started", Float, nullable=False),
)

leases_t = Table(
    "cp_leases",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("server", String(40), nullable=False),
    Column("since", Float, nullable=False),
    Index("cp_leases_server", "server"),
)

marks_t = Table(
    "cp_action_marks",
    metadata,
    Column("table_id", String(40), primary_key=True),
    Column("idx", Integer, primary_key=True, autoincrement=False),
    Column("mark", String(16), nullable=False),
)

rooms_t = Table(
    "cp_rooms",
    metadata,
    Column("id", String(40), primary_key=True),
    Column("host", String(40), nullable=False),
    Column("game", String(40), nullable=False),
    Column("options", Text, nullable=False),
    Column("config", Text, nullable=False),
    Column("seats", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("table_id", String(40), nullable=True),
    Column("invite_hash", String(64), nullable=True, unique=True),
    Column("code_hash", String(64), nullable=True, unique=True),
    Column("expires", Float, nullable=False),
    Column("version", Integer, nullable=False),
    Column("address", String(64), nullable=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Index("cp_rooms_host", "host", "created"),
    Index("cp_rooms_address", "address", "created"),
)

cluster_t = Table(
    "cp_cluster",
    metadata,
    Column("key", String(40), primary_key=True),
    Column("value", Text, nullable=False),
)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """WAL journal: a commit survives a killed process without a full sync per action."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=10000")
    # No checkpoint inside a commit: it writes the log back and syncs the file while every
    # other writer waits. A background thread of the Storage does it (CHECKPOINT_SECONDS).
    cur.execute("PRAGMA wal_autocheckpoint=0")
    cur.close()


CHECKPOINT_SECONDS = 1.0
"""How often a SQLite database's write-ahead log is copied back into the database file
(``PRAGMA wal_checkpoint(PASSIVE)``: it never makes a writer wait)."""


def default_db_url() -> str:
    """SQLite file in the user's data directory (``$XDG_DATA_HOME/cardplaza``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    folder = Path(base) / "cardplaza"
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'cardplaza.sqlite3'}"


def hash_token(token: str) -> str:
    """SHA-256 hex digest of a seat token or player key (only hashes are stored)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


AtOnce = Literal["written", "busy", "failed"]
"""What :meth:`Storage.append_actions_at_once` did with a batch."""


class LeaseLost(Exception):
    """This process no longer owns the table (another took it over)."""


class ActionConflict(Exception):
    """An action with this index is already in the log."""


class GameOver(Exception):
    """The table's game is finished or abandoned: its log is never cut."""


class TooManyTables(Exception):
    """Storing a table would take its address over its limit of unfinished tables."""


OPEN_STATUSES = ("playing", "abandoned")
"""Statuses of tables that count against an address's limit (all but finished ones)."""


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


# Statements of the hot path (one per action), built once: their compiled form is cached.
_APPEND = actions_t.insert()
_HOLD_READ = (select(leases_t.c.server)
              .where(leases_t.c.table_id == bindparam("t"), leases_t.c.server == bindparam("s"))
              .with_for_update(read=True))
_HOLD_MANY_READ = (select(leases_t.c.table_id)
                   .where(leases_t.c.table_id.in_(bindparam("ts", expanding=True)),
                          leases_t.c.server == bindparam("s"))
                   .with_for_update(read=True))
_HOLD_MANY_WRITE = (update(leases_t)
                    .where(leases_t.c.table_id.in_(bindparam("ts", expanding=True)),
                           leases_t.c.server == bindparam("s"))
                    .values(server=bindparam("s_again")))
_PLAIN_ROWS: dict[int, str] = {}
_PLAIN_LEASES: dict[int, str] = {}


def _plain_insert(rows: int, leases: int) -> str:
    """SQLite: one statement that appends ``rows`` actions if, and only if, each of
    ``leases`` (table, server) pairs is a lease held (``qmark`` text: five values per row,
    then the pairs, then their number); its two parts made once per size. Either every
    row is written or none: the lease check is one count, not a condition per row."""
    head = _PLAIN_ROWS.get(rows)
    if head is None:
        values = ", ".join(["(?, ?, ?, ?, ?)"] * rows)
        head = _PLAIN_ROWS[rows] = (f"INSERT INTO {actions_t.name} (table_id, idx, seat, "
                                    f"action, at) SELECT * FROM (VALUES {values})")
    if not leases:
        return head
    tail = _PLAIN_LEASES.get(leases)
    if tail is None:
        pairs = ", ".join(["(?, ?)"] * leases)
        tail = _PLAIN_LEASES[leases] = (f" WHERE (SELECT count(*) FROM {leases_t.name} "
                                        f"WHERE (table_id, server) IN (VALUES {pairs})) = ?")
    return head + tail


_HOLD_WRITE = (update(leases_t)
               .where(leases_t.c.table_id == bindparam("t"), leases_t.c.server == bindparam("s"))
               .values(server=bindparam("s_again")))

# Statements of opening a table and ending a game, built once as well: building one takes
# several times longer than running it.
_INSERT_GAME = games_t.insert()
_INSERT_LEASE = leases_t.insert()
_INSERT_PLAYER = players_t.insert()
_INSERT_MARK = marks_t.insert()
_FINISH_GAME = (update(games_t).where(games_t.c.id == bindparam("t"))
                .values(status=bindparam("status"), extra=bindparam("extra"),
                        result=bindparam("result"), updated=bindparam("updated")))
_OPEN_BASE = select(func.count()).select_from(games_t).where(
    games_t.c.status.in_(bindparam("statuses", expanding=True)),
    games_t.c.created >= bindparam("since"))
_COUNT_OPEN = {
    (False, False): _OPEN_BASE,
    (True, False): _OPEN_BASE.where(games_t.c.address == bindparam("address")),
    (False, True): _OPEN_BASE.where(games_t.c.owner == bindparam("owner")),
    (True, True): _OPEN_BASE.where(games_t.c.address == bindparam("address"),
                                   games_t.c.owner == bindparam("owner")),
}
"""Tables of some statuses created since a time, by (by address, by owner)."""
_OWNER_OF = select(leases_t.c.server).where(leases_t.c.table_id == bindparam("t"))
_LEASES_OF = select(leases_t.c.table_id).where(leases_t.c.server == bindparam("s"))
_RELEASE = delete(leases_t).where(leases_t.c.table_id == bindparam("t"),
                                  leases_t.c.server == bindparam("s"))
_PLAYER_BY_KEY = select(players_t).where(players_t.c.key_hash == bindparam("h"))


@dataclass
class TableRow:
    """A stored table: its header and, when loaded, its log of actions."""

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
    owner: str | None = None
    """The player id (of the key) that created the table, if any."""
    result: str | None = None
    standins: list[int] = field(default_factory=list)
    """Indices of the actions a computer made for a person who was away (a stand-in)."""


@dataclass
class StreakRow:
    """Two-hand Pinochle streak state of one player (by player id)."""

    player: str
    streak: int = 0
    margin: int = 0
    best: int = 0
    open_table: str | None = None


@dataclass
class PlayerRow:
    """A player known by a secret key: public id and latest name."""

    id: str
    name: str

    @property
    def tag(self) -> str:
        """A short public mark that tells apart players of the same name."""
        return self.id[:4]


@dataclass
class Finish:
    """What changes in the header (and streak) when an action ends a game."""

    status: str
    extra: dict[str, Any]
    result: str | None = None
    streak: StreakRow | None = None
    writes: list[Callable[[Connection], None]] = field(default_factory=list)
    """More writes of the finished game (ratings), made in the same transaction."""


@dataclass(frozen=True)
class Append:
    """One action to append to a table's log (see :meth:`Storage.append_action`)."""

    table_id: str
    index: int
    seat: int
    action: Any
    server: str | None = None
    finish: Finish | None = None
    standin: bool = False
    """A computer made this action for a person who was away (marked in the log)."""


@dataclass
class Owner:
    """The live process holding a table's lease."""

    server: str
    address: str


class Storage:
    """Tables, players, streaks and leases in one SQL database."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_db_url()
        kwargs: dict[str, Any] = {}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 10}
        else:
            kwargs["pool_size"] = 10
            kwargs["max_overflow"] = 10
            kwargs["pool_pre_ping"] = True
        self.engine: Engine = create_engine(self.url, **kwargs)
        self._writer: threading.RLock | None = None
        self._insert_sql: dict[int, str] = {}
        self._quick: Connection | None = None
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
            # SQLite has one writer at a time; threads that meet its lock back off in
            # sleeps of up to 100 ms. Queueing them on a lock here serves them in turn.
            self._writer = threading.RLock()
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        self._create_schema()
        if self._writer is not None and self.engine.url.database not in (None, "", ":memory:"):
            self._checkpointer = threading.Thread(target=self._checkpoints, daemon=True,
                                                  name="cardplaza-checkpoint")
            self._checkpointer.start()

    def _create_schema(self) -> None:
        with self.engine.begin() as conn:
            if self.engine.dialect.name == "postgresql":
                # Several processes may start at once on an empty database.
                conn.execute(text("SELECT pg_advisory_xact_lock(727301)"))
            metadata.create_all(conn)
            _migrate_old_tables(conn)

    def close(self) -> None:
        """Stop the checkpoints and release the connection pool."""
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(5)
        if self._quick is not None:
            self._quick.close()
            self._quick = None
        self.engine.dispose()

    def _checkpoints(self) -> None:
        path = Path(str(self.engine.url.database))
        while not self._stop.wait(CHECKPOINT_SECONDS):
            if not path.exists():  # the database went away (a test's directory)
                return
            try:
                with self.engine.connect() as conn:
                    conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception as exc:  # the next round tries again
                log.warning("SQLite checkpoint failed (%s)", type(exc).__name__)

    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        if self._writer is None:
            with self.engine.begin() as conn:
                yield conn
            return
        with self._writer, self.engine.begin() as conn:
            yield conn

    # -- tables ---------------------------------------------------------------------------
    def insert_table(self, row: TableRow, server: str | None = None,
                     address: str | None = None, limit: int | None = None,
                     since: float = 0.0) -> None:
        """Store a new table (its header, its first actions if any, and this process's
        lease on it when ``server`` is given). With ``address`` and ``limit``, the same
        transaction counts the address's tables created since ``since`` that are not
        finished (this one included) and stores nothing if there would be more than
        ``limit`` (:class:`TooManyTables`): concurrent requests cannot pass it together."""
        now = time.time()
        with self._tx() as conn:
            if address is not None and limit is not None and \
                    self.engine.dialect.name == "postgresql":
                # Concurrent inserts of one address wait for each other here; SQLite's
                # insert below takes the database's write lock before the count.
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"),
                             {"k": _lock_key(address)})
            self.insert_table_on(conn, row, server, address, now)
            if (address is not None and limit is not None
                    and self._count_open_on(conn, since, address, None, OPEN_STATUSES) > limit):
                raise TooManyTables(address)

    @staticmethod
    def insert_table_on(conn: Connection, row: TableRow, server: str | None,
                        address: str | None, now: float) -> None:
        """:meth:`insert_table` inside the caller's transaction."""
        conn.execute(_INSERT_GAME, {
            "id": row.id, "game": row.game, "options": json.dumps(row.options),
            "seed": str(row.seed), "seats": json.dumps([s.to_json() for s in row.seats]),
            "extra": json.dumps(row.extra), "status": row.status, "result": row.result,
            "owner": row.owner, "address": address, "created": now, "updated": now})
        if row.actions:
            conn.execute(_APPEND, [
                Storage._row(Append(row.id, i, int(a["seat"]), a["action"]), now)
                for i, a in enumerate(row.actions)])
        if server is not None:
            conn.execute(_INSERT_LEASE, {"table_id": row.id, "server": server, "since": now})
        row.created = row.updated = now

    def append_action(self, table_id: str, index: int, seat: int, action: Any,
                      server: str | None = None, finish: Finish | None = None,
                      standin: bool = False) -> None:
        """Append one action at ``index`` in one transaction (with the header and streak
        changes of a finished game). With ``server``, the transaction first checks that
        this process still owns the table (:class:`LeaseLost` otherwise); an index already
        taken raises :class:`ActionConflict`. Nothing is written when either is raised."""
        item = Append(table_id, index, seat, action, server, finish, standin)
        try:
            with self._tx() as conn:
                self._write(conn, item, time.time())
        except IntegrityError:
            raise ActionConflict(f"{table_id}:{index}") from None

    def append_actions(self, items: Sequence[Append],
                       together: bool = True) -> list[Exception | None]:
        """Append several tables' actions in one transaction (a group commit); returns,
        for each item in order, ``None`` once it is written or the exception
        :meth:`append_action` raises for it. When any item cannot be written the
        transaction is rolled back and every item is written in a transaction of its
        own, so one table's lost lease or conflict never fails another's action.
        ``together=False`` skips the shared transaction (the caller already saw it fail)."""
        if together and len(items) > 1:
            try:
                self._write_many(items)
                return [None] * len(items)
            except Exception:  # one of them: found out below, each alone
                pass
        out: list[Exception | None] = []
        for item in items:
            try:
                self.append_action(item.table_id, item.index, item.seat, item.action,
                                   item.server, item.finish, item.standin)
                out.append(None)
            except Exception as exc:
                out.append(exc)
        return out

    def _write(self, conn: Connection, item: Append, now: float) -> None:
        if item.server is not None:
            self._hold(conn, item.table_id, item.server)
        conn.execute(_APPEND, self._row(item, now))
        self._write_finish(conn, item, now)

    def append_actions_at_once(self, items: Sequence[Append]) -> AtOnce:
        """SQLite: write ``items`` in one transaction on the calling thread when that needs
        no wait — no other writer of this process busy, the database not locked by
        another process. ``"written"`` once written; ``"busy"`` (nothing written) when it
        would have to wait or cannot be done here (PostgreSQL); ``"failed"`` (nothing
        written) when an item cannot be written — a lost lease or a taken index — so
        :meth:`append_actions` with ``together=False`` sorts the items out one by one.
        The event loop calls this: a batch takes a fraction of a millisecond, where a
        hop to a writing thread waits behind the loop for the interpreter lock."""
        if self._writer is None or not self._writer.acquire(blocking=False):
            return "busy"
        try:
            conn = self._quick_connection()
            if all(item.finish is None and not item.standin for item in items):
                return self._write_plain(conn, items)
            try:
                with conn.begin():
                    self._write_many_on(conn, items)
            except (LeaseLost, IntegrityError):
                return "failed"
            except Exception:  # the file is locked by another process
                return "busy"
            return "written"
        finally:
            self._writer.release()

    def _write_plain(self, conn: Connection, items: Sequence[Append]) -> AtOnce:
        """:meth:`append_actions_at_once` of actions that end no game and mark nothing,
        through the driver's own connection in one statement that is its own transaction
        (:func:`_plain_insert`): every row inserted only while every lease is held, so the
        same checks as :meth:`_write_many_on` at less than half the processor time of
        SQLAlchemy's transaction and statement layers, with no write of the lease rows (a
        page less in the write-ahead log). The driver gives up the interpreter lock once,
        not once per statement of a transaction: a writing thread waits behind a busy
        event loop to get it back each time."""
        raw = conn.connection.driver_connection
        assert isinstance(raw, sqlite3.Connection)
        now = time.time()
        held = {(item.table_id, item.server) for item in items if item.server is not None}
        values: list[Any] = []
        for item in items:
            values += (item.table_id, item.index, item.seat, json.dumps(item.action), now)
        for pair in held:
            values += pair
        if held:
            values.append(len(held))
        level = raw.isolation_level
        raw.isolation_level = None  # the statement commits itself
        try:
            cur = raw.execute(_plain_insert(len(items), len(held)), values)
        except sqlite3.IntegrityError:
            return "failed"
        except sqlite3.Error:  # the file is locked by another process
            return "busy"
        finally:
            raw.isolation_level = level
        return "written" if cur.rowcount == len(items) else "failed"

    def _quick_connection(self) -> Connection:
        if self._quick is None:
            conn = self.engine.connect()
            conn.exec_driver_sql("PRAGMA busy_timeout=0")  # locked: say so, never wait
            conn.commit()
            self._quick = conn
        return self._quick

    def _write_many(self, items: Sequence[Append]) -> None:
        with self._tx() as conn:
            self._write_many_on(conn, items)

    def _write_many_on(self, conn: Connection, items: Sequence[Append]) -> None:
        """All of ``items`` in the transaction of ``conn`` with as few statements as
        possible: one lease check per server, one insert of every row (raises as
        :meth:`_write`)."""
        now = time.time()
        owners: dict[str, set[str]] = {}
        for item in items:
            if item.server is not None:
                owners.setdefault(item.server, set()).add(item.table_id)
        for server, tables in owners.items():
            if self.engine.dialect.name == "postgresql":
                held = len(conn.execute(_HOLD_MANY_READ, {"ts": sorted(tables),
                                                          "s": server}).all())
            else:
                held = conn.execute(_HOLD_MANY_WRITE, {"ts": sorted(tables), "s": server,
                                                       "s_again": server}).rowcount
            if held != len(tables):
                raise LeaseLost(",".join(sorted(tables)))
        # One multi-row INSERT, not executemany: the driver gives up the interpreter lock
        # around each step of a statement, and under load a writing thread waits behind
        # the event loop each time to get it back. Its text is made once per size.
        values: list[Any] = []
        for item in items:
            values += (item.table_id, item.index, item.seat, json.dumps(item.action), now)
        conn.exec_driver_sql(self._insert_rows(len(items)), tuple(values))
        for item in items:
            self._write_finish(conn, item, now)

    def _insert_rows(self, count: int) -> str:
        sql = self._insert_sql.get(count)
        if sql is None:
            mark = "?" if self.engine.dialect.paramstyle == "qmark" else "%s"
            row = "(" + ", ".join([mark] * 5) + ")"
            sql = (f"INSERT INTO {actions_t.name} (table_id, idx, seat, action, at) VALUES "
                   + ", ".join([row] * count))
            self._insert_sql[count] = sql
        return sql

    @staticmethod
    def _row(item: Append, now: float) -> dict[str, Any]:
        return {"table_id": item.table_id, "idx": item.index, "seat": item.seat,
                "action": json.dumps(item.action), "at": now}

    def _write_finish(self, conn: Connection, item: Append, now: float) -> None:
        if item.standin:
            conn.execute(_INSERT_MARK, {"table_id": item.table_id, "idx": item.index,
                                        "mark": "standin"})
        finish = item.finish
        if finish is not None:
            conn.execute(_FINISH_GAME, {"t": item.table_id, "status": finish.status,
                                        "extra": json.dumps(finish.extra),
                                        "result": finish.result, "updated": now})
            if finish.streak is not None:
                self._save_streak(conn, finish.streak)
            for write in finish.writes:
                write(conn)

    def _hold(self, conn: Connection, table_id: str, server: str) -> None:
        """Inside a writing transaction: lock this table's lease row, which must be
        ``server``'s (:class:`LeaseLost` otherwise). A takeover waits for this transaction
        (or this one sees the new owner), so a table has one writer at a time."""
        if self.engine.dialect.name == "postgresql":
            held = conn.execute(_HOLD_READ, {"t": table_id, "s": server}).first() is not None
        else:  # SQLite: the first write takes the database's write lock.
            held = conn.execute(_HOLD_WRITE, {"t": table_id, "s": server,
                                              "s_again": server}).rowcount == 1
        if not held:
            raise LeaseLost(table_id)

    def truncate_actions(self, table_id: str, keep: int, server: str | None = None) -> int:
        """Drop the actions of a running table from index ``keep`` on (undo), in one
        transaction; returns how many were dropped. A finished or abandoned table is never
        cut (:class:`GameOver`: its result and statistics stand). With ``server``, raises
        :class:`LeaseLost` unless this process owns the table."""
        with self._tx() as conn:
            if server is not None:
                self._hold(conn, table_id, server)
            status = conn.execute(select(games_t.c.status)
                                  .where(games_t.c.id == table_id)).scalar()
            if status != "playing":
                raise GameOver(table_id)
            done = conn.execute(delete(actions_t).where(
                actions_t.c.table_id == table_id, actions_t.c.idx >= keep))
            conn.execute(delete(marks_t).where(marks_t.c.table_id == table_id,
                                               marks_t.c.idx >= keep))
            conn.execute(update(games_t).where(games_t.c.id == table_id)
                         .values(updated=time.time()))
            return int(done.rowcount)

    def update_header(self, table_id: str, status: str | None = None,
                      extra: dict[str, Any] | None = None) -> None:
        """Change the rarely-changing part of a table."""
        values: dict[str, Any] = {"updated": time.time()}
        if status is not None:
            values["status"] = status
        if extra is not None:
            values["extra"] = json.dumps(extra)
        with self._tx() as conn:
            conn.execute(update(games_t).where(games_t.c.id == table_id).values(**values))

    def load_table(self, table_id: str) -> TableRow | None:
        """A stored table with its whole log, or ``None``."""
        with self.engine.connect() as conn:
            r = conn.execute(select(games_t).where(games_t.c.id == table_id)).first()
            if r is None:
                return None
            acts = conn.execute(select(actions_t.c.seat, actions_t.c.action)
                                .where(actions_t.c.table_id == table_id)
                                .order_by(actions_t.c.idx)).all()
            marks = conn.execute(select(marks_t.c.idx)
                                 .where(marks_t.c.table_id == table_id,
                                        marks_t.c.mark == "standin")
                                 .order_by(marks_t.c.idx)).all()
        return TableRow(
            id=r.id, game=r.game, options=json.loads(r.options), seed=int(r.seed),
            actions=[{"seat": int(a.seat), "action": json.loads(a.action)} for a in acts],
            seats=[SeatInfo.from_json(s) for s in json.loads(r.seats)],
            extra=json.loads(r.extra), status=r.status, created=float(r.created),
            updated=float(r.updated), owner=r.owner, result=r.result,
            standins=[int(m.idx) for m in marks])

    def table_exists(self, table_id: str) -> bool:
        """True when a table of this id is stored."""
        with self.engine.connect() as conn:
            return conn.execute(select(games_t.c.id)
                                .where(games_t.c.id == table_id)).first() is not None

    def count_actions(self, table_id: str) -> int:
        """Length of a table's log."""
        with self.engine.connect() as conn:
            n = conn.execute(select(func.count()).select_from(actions_t)
                             .where(actions_t.c.table_id == table_id)).scalar()
        return int(n or 0)

    def count_open(self, since: float, address: str | None = None,
                   owner: str | None = None,
                   statuses: tuple[str, ...] = ("playing",)) -> int:
        """Tables of ``statuses`` created since ``since`` from an address or by a player."""
        with self.engine.connect() as conn:
            return self._count_open_on(conn, since, address, owner, statuses)

    @staticmethod
    def _count_open_on(conn: Connection, since: float, address: str | None,
                       owner: str | None, statuses: tuple[str, ...]) -> int:
        """:meth:`count_open` on the caller's connection (inside its transaction)."""
        q = _COUNT_OPEN[address is not None, owner is not None]
        return int(conn.execute(q, {"statuses": list(statuses), "since": since,
                                    "address": address, "owner": owner}).scalar() or 0)

    def oldest_open(self, owner: str, since: float, count: int) -> list[str]:
        """The ``count`` least recent unfinished tables of a player."""
        q = (select(games_t.c.id).where(games_t.c.owner == owner,
                                        games_t.c.status == "playing",
                                        games_t.c.created >= since)
             .order_by(games_t.c.created).limit(count))
        with self.engine.connect() as conn:
            return [r.id for r in conn.execute(q).all()]

    def player_stats(self, owner: str) -> dict[str, dict[str, int]]:
        """Finished games of a player by game: played, won, lost, drawn."""
        q = (select(games_t.c.game, games_t.c.result, func.count().label("n"))
             .where(games_t.c.owner == owner, games_t.c.status == "finished")
             .group_by(games_t.c.game, games_t.c.result))
        out: dict[str, dict[str, int]] = {}
        with self.engine.connect() as conn:
            for r in conn.execute(q).all():
                entry = out.setdefault(r.game, {"played": 0, "won": 0, "lost": 0, "drawn": 0})
                entry["played"] += int(r.n)
                key = {"win": "won", "loss": "lost", "draw": "drawn"}.get(r.result or "")
                if key:
                    entry[key] += int(r.n)
        return out

    # -- players --------------------------------------------------------------------------
    def new_player(self, name: str) -> tuple[str, PlayerRow]:
        """A new player: its secret key (returned once, stored hashed) and its row."""
        key = secrets.token_urlsafe(24)
        row = PlayerRow(id=secrets.token_hex(8), name=name)
        now = time.time()
        with self._tx() as conn:
            conn.execute(_INSERT_PLAYER, {"id": row.id, "key_hash": hash_token(key),
                                          "name": name, "created": now, "seen": now})
        return key, row

    def player_by_key(self, key: str) -> PlayerRow | None:
        """The player a key belongs to."""
        with self.engine.connect() as conn:
            r = conn.execute(_PLAYER_BY_KEY, {"h": hash_token(key)}).first()
        return None if r is None else PlayerRow(id=r.id, name=r.name)

    def rename_player(self, player: str, name: str) -> None:
        """Record the latest name a player used."""
        with self._tx() as conn:
            conn.execute(update(players_t).where(players_t.c.id == player)
                         .values(name=name, seen=time.time()))

    # -- streaks --------------------------------------------------------------------------
    def load_streak(self, player: str) -> StreakRow:
        """Streak state of a player id (zeros when unknown)."""
        with self.engine.connect() as conn:
            r = conn.execute(select(streaks_t).where(streaks_t.c.player == player)).first()
        if r is None:
            return StreakRow(player=player)
        return StreakRow(player=r.player, streak=int(r.streak), margin=int(r.margin),
                         best=int(r.best), open_table=r.open_table)

    def save_streak(self, row: StreakRow) -> None:
        """Insert or update a player's streak state."""
        with self._tx() as conn:
            self._save_streak(conn, row)

    @staticmethod
    def _save_streak(conn: Connection, row: StreakRow) -> None:
        values = {"streak": row.streak, "margin": row.margin, "best": row.best,
                  "open_table": row.open_table, "updated": time.time()}
        done = conn.execute(streaks_t.update().where(streaks_t.c.player == row.player)
                            .values(**values))
        if done.rowcount == 0:
            conn.execute(streaks_t.insert().values(player=row.player, **values))

    def high_scores(self, limit: int = 20) -> list[tuple[StreakRow, PlayerRow]]:
        """Players with the best saved scores, best first, with their names."""
        q = (select(streaks_t, players_t.c.name)
             .join(players_t, players_t.c.id == streaks_t.c.player)
             .where(streaks_t.c.best > 0)
             .order_by(streaks_t.c.best.desc(), players_t.c.name, streaks_t.c.player)
             .limit(limit))
        with self.engine.connect() as conn:
            rows = conn.execute(q).all()
        return [(StreakRow(player=r.player, streak=int(r.streak), margin=int(r.margin),
                           best=int(r.best), open_table=r.open_table),
                 PlayerRow(id=r.player, name=r.name)) for r in rows]

    # -- records ----------------------------------------------------------------------------
    def load_record(self, table_id: str, token: str) -> dict[str, Any] | None:
        """The full record of a finished game (with its seed) for one of its seats, or
        ``None`` when the table is unknown, unfinished or the token is not a seat's."""
        row = self.load_table(table_id)
        if row is None or row.status != "finished" or not isinstance(token, str):
            return None
        h = hash_token(token)
        if not any(s.kind == "human" and secrets.compare_digest(s.token_hash, h)
                   for s in row.seats):
            return None
        return {"table": row.id, "game": row.game, "options": row.options,
                "seed": str(row.seed), "actions": row.actions,
                "seats": [{"name": s.name, "kind": s.kind, "level": s.level}
                          for s in row.seats],
                "returns": row.extra.get("returns"), "standins": row.standins}

    # -- processes and leases ----------------------------------------------------------------
    def cluster_secret(self) -> str:
        """A random secret shared by every process on this database (made once)."""
        with self._tx() as conn:
            r = conn.execute(select(cluster_t.c.value)
                             .where(cluster_t.c.key == "relay_secret")).first()
            if r is not None:
                return str(r.value)
            value = secrets.token_urlsafe(32)
            try:
                with conn.begin_nested():
                    conn.execute(cluster_t.insert().values(key="relay_secret", value=value))
            except IntegrityError:
                r = conn.execute(select(cluster_t.c.value)
                                 .where(cluster_t.c.key == "relay_secret")).first()
                assert r is not None
                return str(r.value)
            return value

    def register_server(self, server: str, address: str) -> None:
        """Announce a running process and where its relay listens."""
        now = time.time()
        with self._tx() as conn:
            conn.execute(servers_t.insert().values(id=server, address=address, heartbeat=now,
                                                   started=now))

    def heartbeat(self, server: str) -> bool:
        """Renew a process's heartbeat; ``False`` if its row is gone."""
        with self._tx() as conn:
            done = conn.execute(update(servers_t).where(servers_t.c.id == server)
                                .values(heartbeat=time.time()))
        return bool(done.rowcount)

    def unregister_server(self, server: str) -> None:
        """A process stops: its leases and its row go."""
        with self._tx() as conn:
            conn.execute(delete(leases_t).where(leases_t.c.server == server))
            conn.execute(delete(servers_t).where(servers_t.c.id == server))

    def forget_dead_servers(self, older_than: float) -> int:
        """Drop server rows whose heartbeat stopped long ago (their leases stay until taken)."""
        with self._tx() as conn:
            done = conn.execute(delete(servers_t).where(servers_t.c.heartbeat < older_than))
        return int(done.rowcount)

    def acquire(self, table_id: str, server: str, lease_seconds: float) -> Owner | None:
        """Take the lease of a table for ``server`` unless a live process holds it.

        Returns ``None`` when ``server`` owns the table now, else the live owner."""
        for _ in range(5):
            now = time.time()
            try:
                with self._tx() as conn:
                    r = conn.execute(select(leases_t.c.server, servers_t.c.address,
                                            servers_t.c.heartbeat)
                                     .select_from(leases_t.outerjoin(
                                         servers_t, servers_t.c.id == leases_t.c.server))
                                     .where(leases_t.c.table_id == table_id)).first()
                    if r is None:
                        conn.execute(leases_t.insert().values(table_id=table_id,
                                                              server=server, since=now))
                        return None
                    if r.server == server:
                        return None
                    alive = r.heartbeat is not None and r.heartbeat >= now - lease_seconds
                    if alive:
                        return Owner(server=str(r.server), address=str(r.address))
                    done = conn.execute(update(leases_t).where(
                        leases_t.c.table_id == table_id, leases_t.c.server == r.server)
                        .values(server=server, since=now))
                    if done.rowcount == 1:
                        return None
            except IntegrityError:
                continue
        raise LeaseLost(table_id)

    def owner_of(self, table_id: str) -> str | None:
        """The process id holding a table's lease, if any."""
        with self.engine.connect() as conn:
            r = conn.execute(_OWNER_OF, {"t": table_id}).first()
        return None if r is None else str(r.server)

    def leases_of(self, server: str) -> set[str]:
        """The ids of the tables whose leases a process holds (one query, however many)."""
        with self.engine.connect() as conn:
            return {str(r.table_id) for r in conn.execute(_LEASES_OF, {"s": server})}

    def release(self, table_id: str, server: str) -> None:
        """Give up a table's lease (it is then free for any process)."""
        with self._tx() as conn:
            conn.execute(_RELEASE, {"t": table_id, "s": server})


def _lock_key(address: str) -> int:
    """A signed 64-bit advisory-lock key of an address key."""
    return int.from_bytes(hashlib.sha256(b"cp-address/" + address.encode()).digest()[:8],
                          "big", signed=True)


def _migrate_old_tables(conn: Connection) -> None:
    """Copy tables of the earlier one-row-per-table layout (``cp_tables``) into the header
    and log, once. Earlier streaks belonged to bare names, which anyone could use; they
    are not carried over."""
    names = set(inspect(conn).get_table_names())
    if "cp_tables" not in names:
        return
    done = conn.execute(select(cluster_t.c.value)
                        .where(cluster_t.c.key == "migrated_cp_tables")).first()
    if done is not None:
        return
    old = conn.execute(text("SELECT id, game, options, seed, actions, seats, extra, status, "
                            "created, updated FROM cp_tables")).all()
    known = {r.id for r in conn.execute(select(games_t.c.id)).all()}
    for r in old:
        if r.id in known:
            continue
        conn.execute(games_t.insert().values(
            id=r.id, game=r.game, options=r.options, seed=str(r.seed), seats=r.seats,
            extra=r.extra, status=r.status, result=None, owner=None, address=None,
            created=float(r.created), updated=float(r.updated)))
        for i, a in enumerate(json.loads(r.actions)):
            conn.execute(actions_t.insert().values(
                table_id=r.id, idx=i, seat=int(a["seat"]), action=json.dumps(a["action"]),
                at=float(r.updated)))
    conn.execute(cluster_t.insert().values(key="migrated_cp_tables", value=str(len(old))))
