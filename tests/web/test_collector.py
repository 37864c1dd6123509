"""The server's own garbage-collection schedule and thread switch interval, and the server
log's level."""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardplaza.web import create_app
from cardplaza.web.front import server
from cardplaza.web.front.server import _logging
from cardplaza.web.live import collector
from cardplaza.web.loadtest.inproc import settings_for
from cardplaza.web.settings import SERVE_SWITCH_INTERVAL, Settings


@pytest.fixture
def python_schedule() -> Iterator[None]:
    """Whatever a test does to the collector, the next one starts from Python's own."""
    before = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*before)


def test_take_over_freezes_and_stops_automatic_full_passes(python_schedule: None) -> None:
    collector.take_over()
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == (*collector.YOUNG_THRESHOLDS,
                                  collector.NO_AUTOMATIC_FULL_PASS)
    collector.give_back()
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == (700, 10, 10)


def test_full_passes_run_on_their_schedule(monkeypatch: pytest.MonkeyPatch) -> None:
    passes: list[int] = []

    def collect(*args: int) -> int:
        passes.append(1)
        return 0

    monkeypatch.setattr(gc, "collect", collect)

    async def run() -> None:
        task = asyncio.create_task(collector.full_passes(0.02))
        await asyncio.sleep(0.15)
        task.cancel()

    asyncio.run(run())
    assert 3 <= len(passes) <= 8


def test_a_served_app_takes_the_schedule_over_and_gives_it_back(
        tmp_path: Path, python_schedule: None) -> None:
    settings = Settings(ai_workers=1, gc_schedule=True, gc_full_seconds=60.0)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'gc.sqlite3'}", settings=settings)):
        assert gc.get_threshold()[2] == collector.NO_AUTOMATIC_FULL_PASS
        assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == (700, 10, 10) and gc.get_freeze_count() == 0
    # Without the setting (tests, embedding) Python's schedule is left alone.
    with TestClient(create_app(f"sqlite:///{tmp_path / 'plain.sqlite3'}",
                               settings=Settings(ai_workers=1))):
        assert gc.get_threshold() == (700, 10, 10) and gc.get_freeze_count() == 0


def test_the_log_level_is_a_setting() -> None:
    web = logging.getLogger("cardplaza.web")
    before = web.level
    try:
        _logging("debug")
        assert web.level == logging.DEBUG
        _logging("info")
        assert web.level == logging.INFO
        with pytest.raises(SystemExit, match="unknown log level"):
            _logging("chatty")
    finally:
        web.setLevel(before)


def test_actions_are_logged_only_at_debug_level(client: TestClient,
                                                caplog: pytest.LogCaptureFixture) -> None:
    from web_helpers import create

    def play(t: dict[str, object]) -> None:
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": t["table"], "token": t["token"]})
            msg = ws.receive_json()
            while msg["current"] != msg["seat"]:
                msg = ws.receive_json()
            ws.send_json({"type": "act", "action": msg["legal"][0]["json"],
                          "step": msg["step"]})
            ws.receive_json()

    caplog.set_level(logging.INFO, "cardplaza.web")
    quiet = create(client, game="toy", seed=1, humans=[0], level="random")
    play(quiet)
    assert not any(f"table {quiet['table']}: step" in r.getMessage() for r in caplog.records)
    caplog.set_level(logging.DEBUG, "cardplaza.web")
    told = create(client, game="toy", seed=2, humans=[0], level="random")
    play(told)
    assert any(f"table {told['table']}: step 1 seat" in r.getMessage()
               for r in caplog.records)


@pytest.fixture
def python_switch() -> Iterator[float]:
    """The interval a test started with, set again after it whatever it did."""
    before = sys.getswitchinterval()
    yield before
    sys.setswitchinterval(before)


def test_an_app_runs_at_its_switch_interval_and_gives_it_back(tmp_path: Path,
                                                              python_switch: float) -> None:
    settings = Settings(ai_workers=1, switch_interval=0.0007)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'sw.sqlite3'}", settings=settings)):
        assert sys.getswitchinterval() == pytest.approx(0.0007)
    assert sys.getswitchinterval() == pytest.approx(python_switch)
    # Without the setting (tests, embedding) Python's interval is left alone.
    with TestClient(create_app(f"sqlite:///{tmp_path / 'plain.sqlite3'}",
                               settings=Settings(ai_workers=1))):
        assert sys.getswitchinterval() == pytest.approx(python_switch)


def test_serve_and_the_benchmarks_run_at_the_servers_interval(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    served: list[Settings] = []

    def run(self: Any, sockets: Any = None) -> None:
        served.append(self.config.app.state.manager.settings)
        for sock in sockets or ():
            sock.close()

    monkeypatch.setattr(uvicorn.Server, "run", run)
    db = f"sqlite:///{tmp_path / 'serve.sqlite3'}"
    server.serve(port=0, db=db, settings=Settings(ai_workers=1))
    server.serve(port=0, db=db, settings=Settings(ai_workers=1, switch_interval=0.005))
    assert [s.switch_interval for s in served] == [SERVE_SWITCH_INTERVAL, 0.005]
    assert SERVE_SWITCH_INTERVAL < 0.005  # quicker than Python's own
    args = SimpleNamespace(tables=4, set=None, pause=0.0, ai_workers=None)
    assert settings_for(args).switch_interval == SERVE_SWITCH_INTERVAL
    args.set = ["switch_interval=0.002"]
    assert settings_for(args).switch_interval == 0.002
