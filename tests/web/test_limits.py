"""Every limit is a named setting with a default; going over it gets an error (or a closed
connection), leaves the table unchanged and never holds up other tables."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from web_helpers import create

from cardplaza.web import create_app
from cardplaza.web.settings import Settings
from cardplaza.web.store.storage import StreakRow

pytestmark = pytest.mark.usefixtures("toy")


def limited(db_url: str, **changes: Any) -> TestClient:
    base = Settings(computer_pause=0.0, streak_seeds=True, ai_workers=1)
    return TestClient(create_app(db_url, settings=base.replace(**changes)))


def join(client: TestClient, t: dict[str, Any], seat: int = 0) -> Any:
    ws = client.websocket_connect("/ws").__enter__()
    ws.send_json({"type": "join", "table": t["table"], "token": t["tokens"][str(seat)]})
    msg = ws.receive_json()
    assert msg["type"] == "state", msg
    return ws


def view(client: TestClient, t: dict[str, Any], seat: int = 0) -> dict[str, Any]:
    """What a seat is shown on joining (without ``n``, the table's message number)."""
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": t["table"], "token": t["tokens"][str(seat)]})
        msg: dict[str, Any] = ws.receive_json()
        msg.pop("n", None)
        return msg


def error_code(ws: Any) -> str:
    msg = ws.receive_json()
    assert msg["type"] == "error", msg
    assert msg["message"]
    return str(msg["code"])


def test_defaults_are_named_and_bounded() -> None:
    s = Settings()
    assert s.ws_max_size == 65_536 and s.http_max_body == 65_536
    assert s.json_max_depth == 16 and s.json_max_int == 2**53
    assert s.rate_per_second > 0 and s.rate_burst > 0 and s.rate_strikes > 0
    assert s.max_open_tables_per_address > 0 and s.max_open_tables_per_player > 0
    assert s.idle_seconds > 0 and s.max_live_tables > 0
    assert s.send_queue > 0 and s.send_timeout_seconds > 0
    assert 0 <= s.pace_min_seconds <= s.computer_pause <= s.pace_max_seconds
    assert Settings.from_json(s.to_json()) == s


def test_oversized_message(client: TestClient) -> None:
    t = create(client, game="toy", seed=1, humans=[0, 1])
    before = view(client, t)
    ws = join(client, t)
    try:
        ws.send_text(json.dumps({"type": "act", "action": 0, "pad": "x" * 70_000}))
        assert error_code(ws) == "too_large"
        ws.send_text(json.dumps({"type": "ping", "pad": "é" * 40_000}))  # 80 kB as UTF-8
        assert error_code(ws) == "too_large"
        ws.send_json({"type": "ping", "t": 1})
        assert ws.receive_json() == {"type": "pong", "t": 1}
    finally:
        ws.__exit__(None, None, None)
    assert view(client, t) == before


@pytest.mark.parametrize("depth", [17, 100, 5_000, 50_000])
def test_deeply_nested_json(client: TestClient, depth: int) -> None:
    t = create(client, game="toy", seed=2, humans=[0, 1])
    before = view(client, t)
    ws = join(client, t)
    try:
        nested = "[" * depth + "]" * depth
        ws.send_text('{"type": "act", "action": ' + nested + "}")
        assert error_code(ws) in ("too_deep", "too_large")
        ws.send_json({"type": "ping", "t": 2})
        assert ws.receive_json()["type"] == "pong"
    finally:
        ws.__exit__(None, None, None)
    assert view(client, t) == before
    r = client.post("/api/tables", content=b'{"game": ' + b"[" * depth + b"]" * depth + b"}",
                    headers={"content-type": "application/json"})
    assert r.status_code in (400, 413) and r.json()["code"] in ("too_deep", "body_too_large")


def test_huge_numbers(client: TestClient) -> None:
    """A 4,300-digit bid once broke a table for good; numbers have a bound now."""
    t = create(client, game="pinochle4", seed=8, humans=[0, 1, 2, 3], level="random")
    before = [view(client, t, s) for s in range(4)]
    actor = before[0]["current"]
    ws = join(client, t, actor)
    try:
        for digits in (20, 4_300):
            ws.send_text('{"type": "act", "action": {"kind": "bid", "amount": '
                         + "9" * digits + "}}")
            assert error_code(ws) == "number_too_large"
        ws.send_text('{"type": "act", "action": {"kind": "bid", "amount": ' + "9" * 5_000
                     + "}}")
        assert error_code(ws) in ("bad_json", "number_too_large")
        ws.send_text('{"type": "act", "action": {"kind": "bid", "amount": 1e308}}')
        assert error_code(ws) in ("number_too_large", "illegal", "bad_action")
    finally:
        ws.__exit__(None, None, None)
    assert [view(client, t, s) for s in range(4)] == before


def test_binary_frames_get_an_error(client: TestClient) -> None:
    t = create(client, game="toy", seed=3, humans=[0, 1])
    before = view(client, t)
    ws = join(client, t)
    try:
        ws.send_bytes(b'{"type": "act", "action": 0}')
        assert error_code(ws) == "binary_frame"
        ws.send_bytes(b"\xff\x00" * 100)
        assert error_code(ws) == "binary_frame"
        ws.send_json({"type": "state"})
        assert ws.receive_json()["step"] == 0
    finally:
        ws.__exit__(None, None, None)
    assert view(client, t) == before


def test_http_bodies_are_capped(client: TestClient) -> None:
    big = json.dumps({"game": "toy", "name": "x" * 70_000}).encode()
    r = client.post("/api/tables", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["code"] == "body_too_large"

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted while read
        yield b'{"game": "toy", "name": "'
        for _ in range(100):
            yield b"y" * 1_000
        yield b'"}'

    r = client.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["code"] == "body_too_large"
    assert not client.app.state.manager.tables  # type: ignore[attr-defined]
    assert client.get("/healthz").status_code == 200


def test_message_rate_is_limited(db_url: str) -> None:
    with limited(db_url, rate_per_second=5.0, rate_burst=10, rate_strikes=5) as client:
        t = create(client, game="toy", seed=4, humans=[0, 1])
        other = create(client, game="toy", seed=5, humans=[0, 1])
        ws = join(client, t)
        calm = join(client, other)
        try:
            for i in range(9):  # the join took one token of ten
                ws.send_json({"type": "ping", "t": i})
            assert [ws.receive_json()["t"] for _ in range(9)] == list(range(9))
            for i in range(4):
                ws.send_json({"type": "ping", "t": 100 + i})
            codes = [error_code(ws) for _ in range(4)]
            assert codes == ["rate_limited"] * 4
            calm.send_json({"type": "ping", "t": "calm"})
            assert calm.receive_json() == {"type": "pong", "t": "calm"}
            ws.send_json({"type": "ping"})  # the fifth refusal closes the connection
            with pytest.raises(WebSocketDisconnect):
                for _ in range(3):
                    ws.receive_json()
            time.sleep(0.5)  # the bucket refills: a calm client is never refused
            for i in range(2):
                calm.send_json({"type": "ping", "t": i})
                assert calm.receive_json()["t"] == i
        finally:
            ws.__exit__(None, None, None)
            calm.__exit__(None, None, None)


def test_open_tables_per_address(db_url: str) -> None:
    with limited(db_url, max_open_tables_per_address=3) as client:
        for seed in range(3):
            create(client, game="toy", seed=seed, humans=[0, 1])
        r = client.post("/api/tables", json={"game": "toy", "seed": 9, "humans": [0, 1]})
        assert r.status_code == 429 and r.json()["code"] == "too_many_tables"
        assert r.json()["params"] == {"limit": 3}
        assert len(client.app.state.manager.tables) == 3  # type: ignore[attr-defined]


def test_open_tables_per_player(db_url: str) -> None:
    """A player's new table beyond the limit abandons their oldest open one."""
    with limited(db_url, max_open_tables_per_player=2) as client:
        key = client.post("/api/players", json={}).json()["key"]
        first = create(client, game="toy", seed=1, humans=[0, 1], key=key)
        create(client, game="toy", seed=2, humans=[0, 1], key=key)
        create(client, game="toy", seed=3, humans=[0, 1], key=key)
        storage = client.app.state.storage  # type: ignore[attr-defined]
        assert storage.load_table(first["table"]).status == "abandoned"
        ws = join(client, first)
        try:
            ws.send_json({"type": "act", "action": 0})
            assert error_code(ws) == "game_over"
        finally:
            ws.__exit__(None, None, None)
        assert storage.count_open(0.0, owner=storage.load_table(first["table"]).owner) == 2


def test_idle_tables_leave_memory_and_come_back(db_url: str) -> None:
    with limited(db_url, idle_seconds=0.0) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        storage = client.app.state.storage  # type: ignore[attr-defined]
        t = create(client, game="toy", seed=6, humans=[0, 1])
        ws = join(client, t)
        try:
            ws.send_json({"type": "act", "action": view(client, t)["legal"][0]["json"]})
            assert ws.receive_json()["step"] == 1
            assert client.portal.call(manager.evict_idle) == 0  # type: ignore[attr-defined]
        finally:
            ws.__exit__(None, None, None)
        before = view(client, t, 1)
        time.sleep(0.05)
        assert client.portal.call(manager.evict_idle) == 1  # type: ignore[attr-defined]
        assert t["table"] not in manager.tables
        assert storage.owner_of(t["table"]) is None  # its lease is free for any process
        after = view(client, t, 1)  # reloaded from the log
        assert t["table"] in manager.tables
        assert after["obs"] == before["obs"] and after["step"] == 1


def test_tables_in_memory_are_bounded(db_url: str) -> None:
    with limited(db_url, max_live_tables=2) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        a = create(client, game="toy", seed=1, humans=[0, 1])
        b = create(client, game="toy", seed=2, humans=[0, 1])
        wa, wb = join(client, a), join(client, b)
        try:
            r = client.post("/api/tables", json={"game": "toy", "seed": 3, "humans": [0, 1]})
            assert r.status_code == 503 and r.json()["code"] == "server_busy"
        finally:
            wa.__exit__(None, None, None)
        c = create(client, game="toy", seed=3, humans=[0, 1])  # the idle one (a) leaves
        assert set(manager.tables) == {b["table"], c["table"]}
        wb.__exit__(None, None, None)
        assert view(client, a)["step"] == 0  # and comes back from the log when needed


class StuckClient:
    """A connection whose sends never complete (a browser that stopped reading)."""

    def __init__(self) -> None:
        self.closed = asyncio.Event()
        self.sent = 0

    async def send_text(self, text: str) -> None:
        self.sent += 1
        await asyncio.Event().wait()

    async def close(self, code: int) -> None:
        self.closed.set()


def test_a_client_that_stops_reading_never_holds_up_the_table(db_url: str) -> None:
    """While one seat's socket reads nothing, the other seat's actions are applied at once;
    the stuck client is dropped when its send times out or its queue fills up."""
    from cardplaza.web.live.client import Client

    with limited(db_url, send_timeout_seconds=1.0, send_queue=4) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        settings = client.app.state.settings  # type: ignore[attr-defined]
        t = create(client, game="pinochle4", seed=3, humans=[0, 1, 2, 3], level="random")
        table = client.portal.call(manager.get, t["table"])  # type: ignore[attr-defined]
        stuck = StuckClient()

        async def attach() -> Client:
            c = Client(settings, stuck.send_text, stuck.close)
            manager.attach(table, 1, c)
            return c

        stuck_client = client.portal.call(attach)  # type: ignore[attr-defined]
        seats = {s: join(client, t, s) for s in (0, 1, 2, 3)}
        try:
            msg = view(client, t)
            for _ in range(12):
                actor = msg["current"]
                legal = view(client, t, actor)["legal"]
                passes = [a for a in legal if a["text"] == "pass"] or legal
                t0 = time.perf_counter()
                seats[actor].send_json({"type": "act", "action": passes[0]["json"]})
                msg = seats[actor].receive_json()
                elapsed = time.perf_counter() - t0
                assert msg["type"] == "state", msg
                assert elapsed < 1.0, f"an action waited {elapsed:.2f}s on a stuck reader"
                for s in (0, 1, 2, 3):
                    if s != actor:
                        seats[s].receive_json()
            deadline = time.time() + 5
            while not stuck_client.closed and time.time() < deadline:
                time.sleep(0.05)
            assert stuck_client.closed and stuck.sent >= 1
            seats[0].send_json({"type": "ping"})
            assert seats[0].receive_json()["type"] == "pong"
            msg = view(client, t)
            actor = msg["current"]
            legal = view(client, t, actor)["legal"]
            seats[actor].send_json({"type": "act", "action": legal[0]["json"]})
            assert seats[actor].receive_json()["type"] == "state"
            assert stuck_client not in table.sockets.get(1, set())  # forgotten once dropped
        finally:
            for ws in seats.values():
                ws.__exit__(None, None, None)


def test_streak_rows_are_untouched_by_limits(db_url: str) -> None:
    """A refused creation changes nothing stored (streaks included)."""
    with limited(db_url, max_open_tables_per_address=1) as client:
        storage = client.app.state.storage  # type: ignore[attr-defined]
        key = client.post("/api/players", json={"name": "Ann"}).json()["key"]
        ann = storage.player_by_key(key)
        storage.save_streak(StreakRow(ann.id, 2, 30, 20_030))
        create(client, game="toy", seed=1, humans=[0, 1])
        r = client.post("/api/tables", json={"game": "pinochle2", "streak": "new", "key": key})
        assert r.status_code == 429
        assert storage.load_streak(ann.id) == StreakRow(ann.id, 2, 30, 20_030)


@pytest.mark.parametrize("seconds, reads", [(3600.0, 1), (0.0, 3)])
def test_healthz_reads_peak_memory_at_most_every_health_peak_seconds(
        db_url: str, monkeypatch: pytest.MonkeyPatch, seconds: float, reads: int) -> None:
    """Three probes: with an hour between readings one reading of /proc serves them all;
    with none, each probe reads again. Every probe answers with the figures."""
    from cardplaza.web.front import app as app_module

    calls: list[list[int]] = []

    def fake_peak(pids: list[int]) -> int:
        calls.append(pids)
        return 1234

    monkeypatch.setattr(app_module, "peak_rss_kb", fake_peak)
    assert Settings().health_peak_seconds == 1.0
    with limited(db_url, health_peak_seconds=seconds) as client:
        for _ in range(3):
            body = client.get("/healthz").json()
            assert body["ok"] is True and body["peak_kb"]["web"] == 1234
    assert len(calls) == 3 * reads  # web, computers, analysis per reading
