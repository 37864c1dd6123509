"""Hints, helpers and reviews run in workers of their own: a computer's move never waits
behind them, and the analyses waiting at once are bounded."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import create
from web_slowwork import echo, slow_hint

from cardplaza.web import create_app
from cardplaza.web.learning import handlers
from cardplaza.web.settings import Settings

pytestmark = pytest.mark.usefixtures("toy")

BASE = Settings(computer_pause=0.0, ai_workers=1, analysis_workers=1,
                rate_per_second=1_000.0, rate_burst=1_000)


def _app(db_url: str, **changes: Any) -> TestClient:
    return TestClient(create_app(db_url, settings=BASE.replace(**changes)))


def _seated(client: TestClient, t: dict[str, Any], n: int) -> list[Any]:
    """``n`` connections joined to the person's seat of a table."""
    sockets = []
    for _ in range(n):
        ws = client.websocket_connect("/ws").__enter__()
        ws.send_json({"type": "join", "table": t["table"], "token": t["token"]})
        assert ws.receive_json()["current"] == 0
        sockets.append(ws)
    return sockets


def test_a_computers_move_never_waits_behind_hints(db_url: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(handlers, "analysis_in_worker", slow_hint)
    with _app(db_url) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        assert client.portal.call(manager.run_in_worker, echo, 0) == 0  # type: ignore[attr-defined]
        t = create(client, game="toy", seed=1, humans=[0])
        sockets = _seated(client, t, 4)
        try:
            for ws in sockets:
                ws.send_json({"type": "hint"})
            time.sleep(0.3)  # the hints are being worked on and queued
            started = time.perf_counter()
            assert client.portal.call(manager.run_in_worker, echo, 1) == 1  # type: ignore[attr-defined]
            waited = time.perf_counter() - started
            hints = [ws.receive_json() for ws in sockets]
        finally:
            for ws in sockets:
                ws.__exit__(None, None, None)
        assert waited < 0.4, f"a computer's move waited {waited:.2f} s behind hints"
        assert [h["type"] for h in hints] == ["hint"] * 4 and all(h["slow"] for h in hints)


def test_analyses_at_once_are_bounded(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(handlers, "analysis_in_worker", slow_hint)
    with _app(db_url, analysis_queue=2) as client:
        t = create(client, game="toy", seed=1, humans=[0])
        sockets = _seated(client, t, 5)
        try:
            for ws in sockets:
                ws.send_json({"type": "hint"})
            answers = [ws.receive_json() for ws in sockets]
        finally:
            for ws in sockets:
                ws.__exit__(None, None, None)
        kinds = sorted(a["type"] if a["type"] == "hint" else a["code"] for a in answers)
        assert kinds == ["analysis_busy"] * 3 + ["hint"] * 2
        health = client.get("/healthz").json()
        assert health["analysis"]["workers"] == 1 and health["analysis"]["done"] >= 2


def test_analysis_settings_have_defaults() -> None:
    s = Settings()
    assert s.analysis_workers >= 1 and s.analysis_queue >= 1
    assert s.analysis_nice > s.ai_nice  # an analysis yields the processor to the moves
