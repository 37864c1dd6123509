"""Small hardening fixes, each with the request that once went wrong."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import create

pytestmark = pytest.mark.usefixtures("toy")


def _joined(client: TestClient, t: dict[str, Any]) -> Any:
    ws = client.websocket_connect("/ws").__enter__()
    ws.send_json({"type": "join", "table": t["table"], "token": t["token"]})
    assert ws.receive_json()["type"] == "state"
    return ws


@pytest.mark.parametrize("pace", [["fast"], {"fast": 1}, 3, "FAST"])
def test_a_pace_that_is_not_a_name_is_refused(client: TestClient, pace: Any,
                                              caplog: pytest.LogCaptureFixture) -> None:
    t = create(client, game="toy", seed=1, humans=[0])
    ws = _joined(client, t)
    try:
        with caplog.at_level(logging.INFO, logger="cardplaza.web"):
            ws.send_json({"type": "settings", "pace": pace})
            err = ws.receive_json()
            ws.send_json({"type": "join", "table": t["table"], "token": t["token"],
                          "pace": pace})
            err2 = ws.receive_json()
    finally:
        ws.__exit__(None, None, None)
    assert err["code"] == err2["code"] == "bad_pace"
    assert "Traceback" not in caplog.text and "unexpected" not in caplog.text


@pytest.mark.parametrize("depth", [17, 1_000, 30_000])
def test_deeply_nested_uploads_are_refused(client: TestClient, depth: int,
                                           caplog: pytest.LogCaptureFixture) -> None:
    body = b'{"record": ' + b"[" * depth + b"]" * depth + b"}"
    with caplog.at_level(logging.INFO, logger="cardplaza.web"):
        r = client.post("/api/replay", content=body,
                        headers={"content-type": "application/json"})
        bare = client.post("/api/replay", content=b"[" * depth,
                           headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["code"] == "too_deep"
    assert bare.status_code == 400 and bare.json()["code"] in ("too_deep", "bad_json")
    assert "Traceback" not in caplog.text
