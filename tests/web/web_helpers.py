"""Helpers shared by the web tests."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from websockets.sync.client import ClientConnection, connect

from cardplaza.core.delta import rebuild
from cardplaza.web.settings import Settings

FAST = Settings(computer_pause=0.0, streak_seeds=True, rate_per_second=10_000.0,
                rate_burst=10_000, ai_workers=1, tables_burst_per_address=10_000,
                tables_burst_per_player=10_000, address_rate_burst=10_000,
                address_rate_per_second=10_000.0, player_rate_burst=10_000,
                player_rate_per_second=10_000.0, hints_burst_per_address=10_000,
                hints_burst_per_player=10_000, analysis_burst=10_000,
                connections_burst_per_address=10_000)
"""Tests play as fast as they can: no message-rate or creation budget to speak of (they
have own tests)."""


def create(client: TestClient, **data: Any) -> dict[str, Any]:
    """Create a table, asserting success."""
    r = client.post("/api/tables", json=data)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def open_socket(url: str) -> ClientConnection:
    """A real WebSocket connection kept open past the block that makes it (a player's
    connection lives as long as the player): entered as a ``with`` block would enter it,
    and closed by its ``close()``."""
    return connect(url, open_timeout=10).__enter__()


class Seat:
    """A real WebSocket client (``websockets.sync``) that rebuilds whole state messages."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None

    def send(self, msg: dict[str, Any]) -> None:
        """Send one JSON message."""
        self.ws.send(json.dumps(msg))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        """The next message (a state message rebuilt whole)."""
        msg: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        if msg.get("type") == "state":
            msg = rebuild(self.state, msg)
            self.state = msg
        return msg


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of ``kind`` (or an error) on a test client's WebSocket."""
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] in (kind, "error"):
            return msg


def until_my_turn(ws: Any, msg: dict[str, Any]) -> dict[str, Any]:
    """The state messages from ``msg`` on, until it is the seat's turn or the game ends."""
    while msg["current"] != msg["seat"] and not msg["terminal"]:
        msg = next_of(ws, "state")
    return msg

