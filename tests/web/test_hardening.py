"""Security headers, no API schema, WebSocket origin check, clean names, and errors that
never carry internal exception text."""

from __future__ import annotations

import ast
import logging
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from web_helpers import create

from cardplaza.texts.catalog import catalog
from cardplaza.web import create_app
from cardplaza.web.errors import ERRORS, WebError, error_message
from cardplaza.web.live.names import clean_name
from cardplaza.web.settings import Settings

WEB = Path(__file__).resolve().parents[2] / "src" / "cardplaza" / "web"


@pytest.mark.parametrize("path", ["/", "/healthz", "/api/games", "/static/app.js",
                                  "/static/style.css", "/api/highscores", "/nowhere",
                                  "/api/rules/nogame"])
def test_security_headers_on_every_response(client: TestClient, path: str) -> None:
    r = client.get(path)
    csp = r.headers["content-security-policy"]
    for part in ("default-src 'self'", "script-src 'self'", "style-src 'self'",
                 "frame-ancestors 'none'", "object-src 'none'"):
        assert part in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "no-referrer"


def test_security_headers_on_errors(client: TestClient) -> None:
    r = client.post("/api/tables", content=b"{oops", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "content-security-policy" in r.headers


@pytest.mark.parametrize("path", ["/openapi.json", "/docs", "/redoc"])
def test_no_api_schema_or_docs(client: TestClient, path: str) -> None:
    assert client.get(path).status_code == 404


def test_websocket_origin_must_be_this_site(client: TestClient) -> None:
    t = create(client, game="toy", seed=1, humans=[0, 1])
    join = {"type": "join", "table": t["table"], "token": t["tokens"]["0"]}
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(
            "/ws", headers={"origin": "https://evil.example"}) as ws:
        ws.send_json(join)
        ws.receive_json()
    assert refused.value.code == 1008
    for headers in ({"origin": "http://testserver"}, {}):  # this site, or not a browser
        with client.websocket_connect("/ws", headers=headers) as ws:
            ws.send_json(join)
            assert ws.receive_json()["type"] == "state"


def test_allowed_origins_setting(db_url: str, toy: None) -> None:
    settings = Settings(computer_pause=0.0, allowed_origins=("https://cards.example",))
    with TestClient(create_app(db_url, settings=settings)) as client:
        t = create(client, game="toy", seed=1, humans=[0, 1])
        with client.websocket_connect("/ws", headers={"origin": "https://cards.example"}) as ws:
            ws.send_json({"type": "join", "table": t["table"], "token": t["tokens"]["0"]})
            assert ws.receive_json()["type"] == "state"
        with pytest.raises(WebSocketDisconnect), client.websocket_connect(
                "/ws", headers={"origin": "https://other.example"}) as ws:
            ws.receive_json()


@pytest.mark.parametrize(("raw", "clean"), [
    ("Ｋｉｍ", "Kim"), ("  Ann   Lee ", "Ann Lee"), ("ﬁona", "fiona"), ("花子", "花子"),
    (None, "Player"), ("   ", "Player"), ("Ａ" * 20, "A" * 20),
])
def test_names_are_normalised(raw: Any, clean: str) -> None:
    assert clean_name(raw) == clean


@pytest.mark.parametrize("raw", [
    "Kim\x07", "Ki\x00m", "Ki\u200bm", "\u200dKim", "Kim\u202e", "\u2066Kim\u2069",
    "Kim\u200f", "\ufeffKim", "Kim\u2028", "Kim\ue000", "x" * 21, 42, ["Kim"],
])
def test_bad_names_are_refused(client: TestClient, raw: Any) -> None:
    with pytest.raises(WebError) as exc:
        clean_name(raw)
    assert exc.value.code == "bad_name"
    for path in ("/api/tables", "/api/players"):
        r = client.post(path, json={"game": "toy", "name": raw})
        assert r.status_code == 400 and r.json()["code"] == "bad_name"


def test_unexpected_errors_carry_no_internal_text(client: TestClient,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    t = create(client, game="toy", seed=2, humans=[0, 1])
    manager = client.app.state.manager  # type: ignore[attr-defined]

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("secret internals at 0xdeadbeef")

    monkeypatch.setattr(manager, "act", broken)
    caplog.set_level(logging.INFO)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": t["table"], "token": t["tokens"]["0"]})
        ws.receive_json()
        for _ in range(5):
            ws.send_json({"type": "act", "action": 0})
            msg = ws.receive_json()
            assert msg == error_message("internal")
            assert "secret" not in str(msg)
        ws.send_json({"type": "ping", "t": 3})
        assert ws.receive_json()["t"] == 3  # the connection lives on
    tracebacks = [r for r in caplog.records if r.exc_info]
    assert len(tracebacks) <= 1, "a traceback per message in the log"

    def failing() -> None:
        raise RuntimeError("secret database details")

    monkeypatch.setattr(client.app.state.storage, "high_scores", failing)  # type: ignore[attr-defined]
    r = client.get("/api/highscores")
    assert r.status_code == 500 and r.json()["code"] == "internal"
    assert "secret" not in r.text


def test_broken_table_error_has_no_exception_text(client: TestClient) -> None:
    t = create(client, game="toy", seed=9, humans=[0, 1])
    client.app.state.storage.append_action(t["table"], 0, 1, 99)  # type: ignore[attr-defined]
    client.app.state.manager.tables.clear()  # type: ignore[attr-defined]
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": t["table"], "token": t["tokens"]["0"]})
        assert ws.receive_json() == error_message("broken_table")


def _codes_in_source() -> set[str]:
    """Every literal error code the server's code passes to WebError/error_message/
    http_body, or gives as the first element of an error tuple."""
    found: set[str] = set()
    for path in WEB.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and node.args:
                name = getattr(node.func, "id", getattr(node.func, "attr", ""))
                first = node.args[0]
                if name in ("WebError", "error_message", "http_body") and \
                        isinstance(first, ast.Constant) and isinstance(first.value, str):
                    found.add(first.value)
    return found


def test_every_error_code_sent_is_listed() -> None:
    codes = _codes_in_source()
    assert len(codes) >= 30
    missing = sorted(codes - set(ERRORS))
    assert not missing, f"codes used but not in cardplaza.web.errors: {missing}"
    with pytest.raises(KeyError):
        WebError("no_such_code")
    with pytest.raises(KeyError):
        error_message("no_such_code")
    for code, text in ERRORS.items():
        assert code.replace("_", "").isalpha() and code.islower()
        # the catalog's English sentence, as the English page shows it
        assert text == catalog("en")[f"err.{code}"] and text[0].isupper(), code


def test_every_listed_code_is_used() -> None:
    unused = sorted(set(ERRORS) - _codes_in_source() - {"problem"})
    assert not unused, f"codes listed but never sent: {unused}"
