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


def test_a_review_is_of_the_game_as_it_was_played(client: TestClient,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A table whose history changed (the same seat, another game) is reviewed anew, never
    answered with the review of the game before."""
    import random

    from web_slowwork import no_review

    from cardplaza.core.registry import get_game
    from cardplaza.web.learning import handlers

    monkeypatch.setattr(handlers, "review_in_worker", no_review)
    t = create(client, game="efudatori", seed=6, level="1", options={"players": 2})
    manager = client.app.state.manager  # type: ignore[attr-defined]
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": t["table"], "token": t["token"]})
        msg = ws.receive_json()
        while not msg["terminal"]:
            if msg["current"] == msg["seat"]:
                ws.send_json({"type": "act", "action": msg["legal"][0]["json"]})
            msg = ws.receive_json()
        ws.send_json({"type": "review"})
        while (first := ws.receive_json())["type"] != "review":
            pass
        ws.send_json({"type": "review"})
        assert ws.receive_json() == first  # the same game: from the cache
        table = manager.tables[t["table"]]
        spec = get_game("efudatori")
        other = spec.new_game(table.state.options, table.state.seed)
        rng = random.Random(1)
        while not other.is_terminal:
            other.apply(rng.choice(list(other.legal_actions())))
        assert other.history != table.state.history
        table.state = other
        ws.send_json({"type": "review"})
        assert ws.receive_json()["type"] == "review_progress"  # analysed again
        while ws.receive_json()["type"] != "review":
            pass


def test_a_table_without_a_name_keeps_the_players_name(client: TestClient) -> None:
    key = client.post("/api/players", json={"name": "Ann"}).json()["key"]
    t = create(client, game="toy", seed=1, humans=[0], key=key)
    assert t["player"]["name"] == "Ann"
    assert client.get("/api/me", headers={"X-Player-Key": key}).json()["name"] == "Ann"
    ws = client.websocket_connect("/ws").__enter__()
    try:
        ws.send_json({"type": "join", "table": t["table"], "token": t["token"]})
        assert ws.receive_json()["players"][0]["name"] == "Ann"
    finally:
        ws.__exit__(None, None, None)
    create(client, game="toy", seed=2, humans=[0], key=key, name="Bea")  # a name renames
    assert client.get("/api/me", headers={"X-Player-Key": key}).json()["name"] == "Bea"


BAD_NAMES = ["Kim\u202e", "Ki\x00m", "<b>Kim</b>", "<img src=x onerror=alert(1)>",
             "\u3164", "\u3164\u3164", "\u2800", "\u115f\u1160", "Kim\u034f", "\u0301\u0301",
             "K\ufe0fim", "\uffa0"]


@pytest.mark.parametrize("raw", BAD_NAMES)
def test_blank_looking_and_markup_names_are_refused(client: TestClient, raw: str) -> None:
    for path in ("/api/tables", "/api/players"):
        r = client.post(path, json={"game": "toy", "name": raw})
        assert r.status_code == 400 and r.json()["code"] == "bad_name", (path, r.text)


@pytest.mark.parametrize("raw", BAD_NAMES)
def test_efudatori_names_follow_the_player_name_rules(client: TestClient, raw: str) -> None:
    r = client.post("/api/tables", json={"game": "efudatori", "options": {
        "players": 2, "names": ["Ann", raw]}})
    assert r.status_code == 400 and r.json()["code"] in ("bad_name", "bad_options"), r.text


def test_efudatori_names_are_normalised(client: TestClient) -> None:
    t = create(client, game="efudatori", options={"players": 2, "names": ["Ｋｉｍ", " Ann  Lee "]})
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": t["table"], "token": t["token"]})
        assert ws.receive_json()["options"]["names"] == ["Kim", "Ann Lee"]


@pytest.mark.parametrize(("headers", "code"), [
    ({"content-type": "text/plain"}, "bad_content_type"),
    ({"content-type": "application/x-www-form-urlencoded"}, "bad_content_type"),
    ({"content-type": "multipart/form-data; boundary=x"}, "bad_content_type"),
    ({}, "bad_content_type"),
    ({"content-type": "application/json", "origin": "https://evil.example"}, "cross_site"),
    ({"content-type": "application/json", "sec-fetch-site": "cross-site"}, "cross_site"),
    ({"content-type": "application/json", "origin": "null"}, "cross_site"),
])
def test_cross_site_posts_are_refused(client: TestClient, headers: dict[str, str],
                                      code: str) -> None:
    """A hostile page can send a form or text/plain POST without asking: it must not spend
    a visitor's table quota, nor start anything."""
    body = b'{"game": "toy", "humans": [0]}'
    for path in ("/api/tables", "/api/players", "/api/replay"):
        r = client.post(path, content=body, headers=headers)
        assert r.json()["code"] == code and r.status_code in (403, 415), (path, r.text)
    assert not client.app.state.manager.tables  # type: ignore[attr-defined]


def test_same_site_json_posts_pass(client: TestClient) -> None:
    host = "testserver"
    for headers in ({"origin": f"http://{host}", "sec-fetch-site": "same-origin"},
                    {"sec-fetch-site": "none"}, {}):
        r = client.post("/api/tables", json={"game": "toy", "humans": [0]}, headers=headers)
        assert r.status_code == 200, r.text


def test_refusals_are_logged_a_few_times_a_minute(client: TestClient,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    """A flood of refused messages and of relay attempts without the cluster's secret adds
    a few log lines, not one (or two) each."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    from cardplaza.web.live.client import CAP

    CAP.reset()  # earlier tests in this process may have used this minute's lines
    t = create(client, game="toy", seed=1, humans=[0, 1])
    manager = client.app.state.manager  # type: ignore[attr-defined]
    with caplog.at_level(logging.INFO):
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": t["table"], "token": t["tokens"]["1"]})
            ws.receive_json()
            for _ in range(100):
                ws.send_json({"type": "act", "action": 0})
            assert all(ws.receive_json()["code"] == "not_your_turn" for _ in range(100))
        for _ in range(30):
            with pytest.raises(InvalidStatus):
                connect(f"ws://{manager.relay_address}/relay", open_timeout=5).close()
    refused = [r for r in caplog.records if "seat 1 refused" in r.getMessage()]
    relay = [r for r in caplog.records if r.name.startswith("websockets")
             or "relay" in r.getMessage()]
    assert 1 <= len(refused) <= 11 and 1 <= len(relay) <= 11, (len(refused), len(relay))


def test_relay_connections_prove_the_secret_without_sending_it(client: TestClient) -> None:
    import json
    import time

    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    from cardplaza.web.live.relay import HEADER, relay_proof

    manager = client.app.state.manager  # type: ignore[attr-defined]
    secret, address = manager.cluster_secret, manager.relay_address
    url = f"ws://{address}/relay"

    def opens(value: str) -> bool:
        try:
            with connect(url, additional_headers={HEADER: value}, open_timeout=5) as ws:
                ws.send(json.dumps({"type": "ping", "t": 1}))
                return bool(json.loads(ws.recv(timeout=5))["type"] == "pong")
        except InvalidStatus:
            return False

    assert not opens(secret)  # the secret itself is no longer a key
    proof = relay_proof(secret, address)
    assert secret not in proof
    assert opens(proof)
    assert not opens(proof)  # each proof opens one connection
    assert not opens(relay_proof(secret, address, now=time.time() - 120))  # too old
    assert not opens(relay_proof(secret, "10.0.0.9:8100"))  # made for another listener
    assert not opens(relay_proof("another secret", address))
    assert opens(relay_proof(secret, address))


def _serve_in_thread(app: Any, options: dict[str, Any]) -> tuple[Any, Any, int]:
    import socket
    import threading
    import time

    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, **options))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    until = time.time() + 30
    while not server.started and time.time() < until:
        time.sleep(0.05)
    assert server.started
    return server, thread, port


@pytest.mark.parametrize("proxies", ["", "10.0.0.2"])
def test_forwarded_addresses_are_believed_only_from_named_proxies(db_url: str,
                                                                  proxies: str) -> None:
    """A local program cannot pick its own address (and so a fresh budget) with
    X-Forwarded-For: by default no proxy is trusted."""
    import httpx

    from cardplaza.web import create_app
    from cardplaza.web.front.server import serve, uvicorn_options
    from cardplaza.web.settings import Settings

    settings = Settings(computer_pause=0.0, ai_workers=1, max_open_tables_per_address=2)
    app = create_app(db_url, settings=settings)
    options = {k: v for k, v in uvicorn_options(settings, proxies).items()
               if k not in ("ws", "limit_concurrency")}
    server, thread, port = _serve_in_thread(app, options)
    try:
        codes = []
        for i in range(4):
            r = httpx.post(f"http://127.0.0.1:{port}/api/tables",
                           json={"game": "toy", "humans": [0]},
                           headers={"X-Forwarded-For": f"203.0.113.{i}"}, timeout=30)
            codes.append(r.status_code)
    finally:
        server.should_exit = True
        thread.join(30)
    assert codes == [200, 200, 429, 429]
    import inspect

    assert inspect.signature(serve).parameters["forwarded_allow_ips"].default == ""
