"""Rooms in the database: a table being set up to play with friends.

A room row holds the game and its options, the table's settings (``config``), who sits
where (``seats``), the SHA-256 hashes of its invite token and of its room code, when the
invite runs out, and, once the game has started, its table. Every change goes through
:meth:`RoomStore.save` with the version the change was made from (compare and set), so two
people taking the same seat at once — in one process or in several — cannot both get it:
the second is told the room changed and looks again. Starting the game writes the table's
header (and its lease) in the transaction that marks the room started.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.engine import Row

from cardplaza.web.store.storage import Storage, TableRow, rooms_t

__all__ = ["RoomRow", "RoomSeat", "RoomStore"]


@dataclass
class RoomSeat:
    """One seat of a room: a person (``human``, with the player id and the hash of the
    seat token), an ``open`` seat waiting for a friend, or a ``computer`` at a level."""

    kind: str
    name: str = ""
    level: str = ""
    player: str = ""
    token_hash: str = ""

    def to_json(self) -> dict[str, str]:
        """JSON-ready dict (as stored)."""
        return {"kind": self.kind, "name": self.name, "level": self.level,
                "player": self.player, "token_hash": self.token_hash}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RoomSeat:
        """Inverse of :meth:`to_json`."""
        return cls(kind=str(data["kind"]), name=str(data.get("name", "")),
                   level=str(data.get("level", "")), player=str(data.get("player", "")),
                   token_hash=str(data.get("token_hash", "")))


@dataclass
class RoomRow:
    """A stored room."""

    id: str
    host: str
    game: str
    options: dict[str, Any]
    config: dict[str, Any]
    seats: list[RoomSeat]
    status: str = "open"
    """``open`` (being set up), ``playing`` (its table started) or ``closed``."""
    table_id: str | None = None
    invite_hash: str | None = None
    code_hash: str | None = None
    expires: float = 0.0
    """When the invite and the code run out (they stay valid while the game is played)."""
    version: int = 0
    created: float = 0.0
    address: str | None = None


def _row(r: Row[Any]) -> RoomRow:
    return RoomRow(id=r.id, host=r.host, game=r.game, options=json.loads(r.options),
                   config=json.loads(r.config),
                   seats=[RoomSeat.from_json(s) for s in json.loads(r.seats)],
                   status=r.status, table_id=r.table_id, invite_hash=r.invite_hash,
                   code_hash=r.code_hash, expires=float(r.expires), version=int(r.version),
                   created=float(r.created), address=r.address)


class RoomStore:
    """Rooms kept in the database of a :class:`Storage` (any number of processes)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def insert(self, room: RoomRow) -> None:
        """Store a new room (``IntegrityError`` if its invite or code hash is taken)."""
        now = time.time()
        with self.storage._tx() as conn:
            conn.execute(rooms_t.insert().values(
                id=room.id, host=room.host, game=room.game,
                options=json.dumps(room.options), config=json.dumps(room.config),
                seats=json.dumps([s.to_json() for s in room.seats]), status=room.status,
                table_id=room.table_id, invite_hash=room.invite_hash,
                code_hash=room.code_hash, expires=room.expires, version=room.version,
                address=room.address, created=now, updated=now))
        room.created = now

    def load(self, room_id: str) -> RoomRow | None:
        """A room by id."""
        with self.storage.engine.connect() as conn:
            r = conn.execute(select(rooms_t).where(rooms_t.c.id == room_id)).first()
        return None if r is None else _row(r)

    def by_hash(self, secret_hash: str) -> RoomRow | None:
        """The room whose invite or room code has this hash."""
        with self.storage.engine.connect() as conn:
            r = conn.execute(select(rooms_t).where(
                (rooms_t.c.invite_hash == secret_hash) | (rooms_t.c.code_hash == secret_hash)
            )).first()
        return None if r is None else _row(r)

    def count_recent(self, since: float, host: str | None = None,
                     address: str | None = None) -> int:
        """Rooms made since ``since`` by a player or from an address."""
        q = select(func.count()).select_from(rooms_t).where(rooms_t.c.created >= since)
        if host is not None:
            q = q.where(rooms_t.c.host == host)
        if address is not None:
            q = q.where(rooms_t.c.address == address)
        with self.storage.engine.connect() as conn:
            return int(conn.execute(q).scalar() or 0)

    def _values(self, room: RoomRow) -> dict[str, Any]:
        return {"options": json.dumps(room.options), "config": json.dumps(room.config),
                "seats": json.dumps([s.to_json() for s in room.seats]),
                "status": room.status, "table_id": room.table_id,
                "invite_hash": room.invite_hash, "code_hash": room.code_hash,
                "expires": room.expires, "version": room.version + 1,
                "updated": time.time()}

    def save(self, room: RoomRow) -> bool:
        """Write a changed room if nobody changed it since it was read (its ``version``);
        ``False`` (nothing written) otherwise. On success the row's version goes up."""
        with self.storage._tx() as conn:
            done = conn.execute(update(rooms_t).where(
                rooms_t.c.id == room.id, rooms_t.c.version == room.version)
                .values(**self._values(room)))
        if done.rowcount != 1:
            return False
        room.version += 1
        return True

    def start(self, room: RoomRow, table: TableRow, server: str) -> bool:
        """Mark the room started with ``table`` and store the table (and ``server``'s lease
        on it) in one transaction — if the room is still at its version; ``False`` and
        nothing written otherwise."""
        now = time.time()
        with self.storage._tx() as conn:
            done = conn.execute(update(rooms_t).where(
                rooms_t.c.id == room.id, rooms_t.c.version == room.version)
                .values(**self._values(room)))
            if done.rowcount != 1:
                return False
            self.storage.insert_table_on(conn, table, server, None, now)
        room.version += 1
        return True
