"""Budgets shared by every connection of one address and of one player: many connections,
each within its own rate, add up to no more than their address's and player's budgets; hints
have budgets of their own and the server one for all analysis."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import create
from web_slowwork import quick_hint

from cardplaza.ai.analysis import AnalysisCache
from cardplaza.web import create_app
from cardplaza.web.learning import handlers
from cardplaza.web.settings import Settings

pytestmark = pytest.mark.usefixtures("toy")

OPEN = Settings(computer_pause=0.0, ai_workers=1, analysis_workers=1,
                rate_per_second=0.001, rate_burst=1_000, rate_strikes=1_000,
                address_rate_burst=1_000, player_rate_burst=1_000,
                tables_burst_per_address=1_000, tables_burst_per_player=1_000,
                hints_burst_per_address=1_000, hints_burst_per_player=1_000,
                analysis_burst=1_000, connections_burst_per_address=1_000,
                address_rate_per_second=0.001, player_rate_per_second=0.001,
                hints_per_minute_per_address=0.001, hints_per_minute_per_player=0.001,
                analysis_per_second=0.001, tables_per_minute_per_address=0.001,
                tables_per_minute_per_player=0.001,
                connections_per_minute_per_address=0.001)
"""Every budget roomy (and refilling too slowly to matter, however slow the machine);
each test narrows one."""


def _app(db_url: str, **changes: Any) -> TestClient:
    return TestClient(create_app(db_url, settings=OPEN.replace(**changes)))


def _answers(ws: Any, n: int) -> list[str]:
    out = []
    for _ in range(n):
        msg = ws.receive_json()
        out.append(msg["type"] if msg["type"] != "error" else msg["code"])
    return out


def _joined(client: TestClient, t: dict[str, Any]) -> Any:
    ws = client.websocket_connect("/ws").__enter__()
    ws.send_json({"type": "join", "table": t["table"], "token": t["token"]})
    assert ws.receive_json()["type"] == "state"
    return ws


def test_connections_of_one_address_share_its_budget(db_url: str) -> None:
    with _app(db_url, address_rate_burst=20, address_rate_per_second=0.001) as client:
        sockets = [client.websocket_connect("/ws").__enter__() for _ in range(5)]
        try:
            for ws in sockets:
                for i in range(8):
                    ws.send_json({"type": "ping", "t": i})
            answers = [a for ws in sockets for a in _answers(ws, 8)]
        finally:
            for ws in sockets:
                ws.__exit__(None, None, None)
        assert answers.count("pong") == 20 and answers.count("rate_limited") == 20


def test_connections_at_one_players_tables_share_its_budget(db_url: str) -> None:
    with _app(db_url, player_rate_burst=10, player_rate_per_second=0.001) as client:
        key = client.post("/api/players", json={}).json()["key"]
        mine = [create(client, game="toy", seed=s, humans=[0], key=key) for s in (1, 2)]
        other = create(client, game="toy", seed=3, humans=[0])
        sockets = [_joined(client, t) for t in mine]
        calm = _joined(client, other)
        try:
            for ws in sockets:
                for i in range(8):
                    ws.send_json({"type": "ping", "t": i})
            answers = [a for ws in sockets for a in _answers(ws, 8)]
            for i in range(8):
                calm.send_json({"type": "ping", "t": i})
            assert _answers(calm, 8) == ["pong"] * 8
        finally:
            for ws in [*sockets, calm]:
                ws.__exit__(None, None, None)
        assert answers.count("pong") == 10 and answers.count("rate_limited") == 6


@pytest.mark.parametrize(("changes", "refusal"), [
    ({"hints_burst_per_player": 2}, "too_many_requests"),
    ({"hints_burst_per_address": 2}, "too_many_requests"),
    ({"analysis_burst": 2}, "analysis_busy"),
])
def test_hints_are_budgeted(db_url: str, monkeypatch: pytest.MonkeyPatch,
                            changes: dict[str, int], refusal: str) -> None:
    monkeypatch.setattr(handlers, "analysis_in_worker", quick_hint)
    # Every hint is analysed anew (a kept analysis is answered without spending a budget).
    monkeypatch.setattr(handlers, "analyses_of", lambda session, table: AnalysisCache(1))
    with _app(db_url, **changes) as client:
        key = client.post("/api/players", json={}).json()["key"]
        t = create(client, game="toy", seed=1, humans=[0], key=key)
        ws = _joined(client, t)
        try:
            for _ in range(3):
                ws.send_json({"type": "hint"})
            assert _answers(ws, 3) == ["hint", "hint", refusal]
        finally:
            ws.__exit__(None, None, None)


def test_connections_of_one_address_are_budgeted(db_url: str) -> None:
    from starlette.websockets import WebSocketDisconnect

    with _app(db_url, connections_burst_per_address=3,
              connections_per_minute_per_address=0.001) as client:
        sockets = [client.websocket_connect("/ws").__enter__() for _ in range(3)]
        try:
            with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws") as ws:
                ws.receive_json()
            sockets[0].send_json({"type": "ping", "t": 1})
            assert sockets[0].receive_json() == {"type": "pong", "t": 1}
        finally:
            for ws in sockets:
                ws.__exit__(None, None, None)


def test_an_address_over_its_message_budget_opens_no_connection(db_url: str) -> None:
    from starlette.websockets import WebSocketDisconnect

    with _app(db_url, address_rate_burst=5, address_rate_per_second=0.001) as client:
        ws = client.websocket_connect("/ws").__enter__()
        try:
            for i in range(8):
                ws.send_json({"type": "ping", "t": i})
            assert _answers(ws, 8).count("pong") == 5
            with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws") as other:
                other.receive_json()
        finally:
            ws.__exit__(None, None, None)
