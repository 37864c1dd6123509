"""What the learning tools share: the seat a message speaks for, the helps counted."""

from __future__ import annotations

from typing import Any

from cardplaza.web.errors import WebError
from cardplaza.web.live.session import Session
from cardplaza.web.live.tables import LiveTable

__all__ = ["count_help", "helps", "my_seat"]


def helps(table: LiveTable) -> dict[str, int]:
    """Hints, helpers and undos used at a table so far."""
    got = table.row.extra.get("helps")
    return dict(got) if isinstance(got, dict) else {}


async def count_help(session: Session, table: LiveTable, key: str) -> dict[str, int]:
    """Count one hint, helper or undo used at a table (kept in its header)."""
    used = helps(table)
    used[key] = used.get(key, 0) + 1
    table.row.extra = {**table.row.extra, "helps": used}
    manager = session.manager
    await manager._db(manager.storage.update_header, table.id, None, table.row.extra)
    return used


def my_seat(session: Session, msg: dict[str, Any]) -> tuple[LiveTable, int]:
    """The joined seat; a token riding along must be that seat's."""
    table, seat = session.seat()
    if "token" in msg and table.seat_of_token(msg.get("token")) != seat:
        raise WebError("not_your_seat")
    if "table" in msg and msg.get("table") != table.id:
        raise WebError("not_your_seat")
    return table, seat
