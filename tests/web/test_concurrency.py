"""Computer players run in worker processes: a thinking, slow, crashed or hung computer
never holds up other tables, and every table still gets its computer's move."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import create

from cardplaza.web import create_app
from cardplaza.web.live.workers import WorkerFailed, WorkerPool, WorkerTimeout
from cardplaza.web.settings import Settings


def toy_settings(**changes: Any) -> Settings:
    return Settings(computer_pause=0.0, ai_workers=2, ai_preload=("web_toygame:register",),
                    streak_seeds=True, fixed_computers=False).replace(**changes)


@pytest.fixture
def workers_client(db_url: str, toy: None) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, settings=toy_settings())) as c:
        yield c


def join(client: TestClient, t: dict[str, Any], seat: int = 0) -> Any:
    ws = client.websocket_connect("/ws").__enter__()
    ws.send_json({"type": "join", "table": t["table"], "token": t["tokens"][str(seat)]})
    msg = ws.receive_json()
    assert msg["type"] == "state"
    return ws, msg


def play_first(ws: Any, msg: dict[str, Any]) -> dict[str, Any]:
    ws.send_json({"type": "act", "action": msg["legal"][0]["json"], "step": msg["step"]})
    reply: dict[str, Any] = ws.receive_json()
    assert reply["type"] == "state" and reply["step"] == msg["step"] + 1, reply
    return reply


def my_turn(ws: Any, msg: dict[str, Any]) -> dict[str, Any]:
    """Receive states until the seat is to act (or the game is over)."""
    while not msg["terminal"] and msg["current"] != msg["seat"]:
        msg = ws.receive_json()
        assert msg["type"] == "state", msg
    return msg


def test_slow_computer_does_not_block_other_tables(workers_client: TestClient) -> None:
    client = workers_client
    slow = create(client, game="toy", seed=1, humans=[0], level="slow")
    busy = create(client, game="toy", options={"cards": 8}, seed=2, humans=[0, 1])
    ws_slow, msg = join(client, slow)
    ws, view = join(client, busy)
    try:
        play_first(ws_slow, msg)  # the slow computer starts thinking in a worker
        time.sleep(0.2)
        t0 = time.perf_counter()
        after = play_first(ws, view)
        elapsed = time.perf_counter() - t0
        assert after["step"] == 1
        assert elapsed < 0.5, f"another table waited {elapsed:.2f}s for a thinking computer"
        reply = ws_slow.receive_json()  # the slow computer's move arrives later
        assert reply["step"] == 2
        manager = client.app.state.manager  # type: ignore[attr-defined]
        assert manager.pool.stats.done >= 1 and manager.fallbacks == 0
    finally:
        ws_slow.__exit__(None, None, None)
        ws.__exit__(None, None, None)


def test_crashed_worker_mid_decision(workers_client: TestClient,
                                     caplog: pytest.LogCaptureFixture) -> None:
    """A worker killed while deciding: its table still gets a move (the quick level's),
    a table thinking in the other worker gets its own answer, and the pool carries on."""
    client = workers_client
    manager = client.app.state.manager  # type: ignore[attr-defined]
    crash = create(client, game="toy", seed=3, humans=[0], level="crash")
    slow = create(client, game="toy", seed=4, humans=[0], level="slow")
    ws_crash, m_crash = join(client, crash)
    ws_slow, m_slow = join(client, slow)
    caplog.set_level(logging.INFO, "cardplaza.web")
    try:
        play_first(ws_slow, m_slow)
        time.sleep(0.1)  # the slow decision holds one worker
        play_first(ws_crash, m_crash)
        moved = ws_crash.receive_json()
        assert moved["step"] == 2, "the table whose worker crashed got no computer move"
        slow_moved = ws_slow.receive_json()
        assert slow_moved["step"] == 2
        assert manager.pool.stats.crashes >= 1
        assert manager.fallbacks >= 1
        assert any("failed" in r.getMessage() and "quick level" in r.getMessage()
                   for r in caplog.records)
        # The crashed worker was replaced: the next thinking move still comes from a worker.
        done = manager.pool.stats.done
        msg = my_turn(ws_slow, slow_moved)
        while not msg["terminal"] and manager.pool.stats.done == done:
            msg = my_turn(ws_slow, play_first(ws_slow, msg))
        assert manager.pool.stats.done > done
    finally:
        ws_crash.__exit__(None, None, None)
        ws_slow.__exit__(None, None, None)


def test_missed_deadline_plays_the_quick_level(db_url: str, toy: None,
                                               caplog: pytest.LogCaptureFixture) -> None:
    settings = toy_settings(ai_deadline_seconds=0.3)
    caplog.set_level(logging.INFO, "cardplaza.web")
    with TestClient(create_app(db_url, settings=settings)) as client:
        t = create(client, game="toy", seed=5, humans=[0], level="slow")
        ws, msg = join(client, t)
        try:
            play_first(ws, msg)
            t0 = time.perf_counter()
            moved = ws.receive_json()
            waited = time.perf_counter() - t0
            assert moved["step"] == 2
            assert waited < 0.9, f"the fallback came after {waited:.2f}s"
        finally:
            ws.__exit__(None, None, None)
    assert any("missed its 0.3 s deadline" in r.getMessage() for r in caplog.records)


def test_hung_worker_is_replaced(db_url: str, toy: None) -> None:
    settings = toy_settings(ai_deadline_seconds=0.3, ai_kill_seconds=1.0, ai_workers=1)
    with TestClient(create_app(db_url, settings=settings)) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        # The worker is ready before the move: on a loaded machine one still starting
        # would take the task after its 0.3 s deadline, and a task expired in the queue
        # is dropped, never sent (so nothing would hang to be replaced).
        manager.pool.start(processes=True)
        assert manager.pool.wait_ready(60.0)
        t = create(client, game="toy", seed=6, humans=[0], level="hang")
        ws, msg = join(client, t)
        try:
            msg = play_first(ws, msg)
            msg = ws.receive_json()
            assert msg["step"] == 2  # the quick level answered
            deadline = time.time() + 10
            while manager.pool.stats.killed < 1 and time.time() < deadline:
                time.sleep(0.1)
            assert manager.pool.stats.killed == 1
        finally:
            ws.__exit__(None, None, None)


def report_pid(x: int) -> tuple[int, int]:
    """Runs in a worker."""
    return os.getpid(), x * 2


def sleepy(seconds: float) -> float:
    """Runs in a worker."""
    time.sleep(seconds)
    return seconds


def broken() -> None:
    """Runs in a worker."""
    raise ValueError("nope")


def test_run_in_worker_runs_functions_with_a_deadline(workers_client: TestClient) -> None:
    """The general way to run a picklable module-level function off the event loop."""
    import asyncio

    manager = workers_client.app.state.manager  # type: ignore[attr-defined]
    portal = workers_client.portal  # type: ignore[attr-defined]

    async def go() -> None:
        pid, doubled = await manager.run_in_worker(report_pid, 21, deadline=20)
        assert doubled == 42 and pid != os.getpid() and pid in manager.pool.pids()
        with pytest.raises(WorkerTimeout):
            await manager.run_in_worker(sleepy, 2.0, deadline=0.2)
        with pytest.raises(WorkerFailed, match="ValueError: nope"):
            await manager.run_in_worker(broken, deadline=20)
        results = await asyncio.gather(*(manager.run_in_worker(report_pid, i, deadline=20)
                                         for i in range(6)))
        assert [r[1] for r in results] == [2 * i for i in range(6)]

    portal.call(go)


def test_pool_survives_a_crash_of_one_worker() -> None:
    import asyncio

    async def go() -> None:
        pool = WorkerPool(2, kill_seconds=10)
        try:
            slow = asyncio.ensure_future(pool.run(sleepy, 0.8, deadline=10))
            await asyncio.sleep(0.3)
            victim = pool.run(os.kill, 0, 0)  # warm-up no-op on the other worker
            await victim
            crash = pool.run(_kill_self, deadline=10)
            with pytest.raises(WorkerFailed):
                await crash
            assert await slow == 0.8
            assert pool.stats.crashes == 1
            assert (await pool.run(report_pid, 1, deadline=10))[1] == 2
        finally:
            await pool.close()

    asyncio.run(go())


def _kill_self() -> None:
    import signal

    os.kill(os.getpid(), signal.SIGKILL)


def test_search_levels_never_run_in_the_server_process(db_url: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Two-hand Pinochle's searching levels decide in workers only."""
    from cardplaza.games.pinochle2 import players

    def forbidden(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a search ran in the server process")

    monkeypatch.setattr(players.SimulationPlayer, "choose", forbidden)
    # A fresh worker may first compile the search kernels: no deadline to speak of here.
    settings = Settings(computer_pause=0.0, ai_workers=1, streak_seeds=True,
                        ai_deadline_seconds=300.0, ai_kill_seconds=600.0)
    with TestClient(create_app(db_url, settings=settings)) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        t = create(client, game="pinochle2", seed=8, options={"level": "4"}, level="5")
        ws = client.websocket_connect("/ws").__enter__()
        try:
            ws.send_json({"type": "join", "table": t["table"], "token": t["token"]})
            msg = ws.receive_json()
            while manager.pool.stats.done < 3 and not msg["terminal"]:
                if msg["current"] == msg["seat"]:
                    ws.send_json({"type": "act", "action": msg["legal"][0]["json"],
                                  "step": msg["step"]})
                msg = ws.receive_json()
                assert msg["type"] == "state", msg
            assert manager.pool.stats.done >= 3 and manager.fallbacks == 0
        finally:
            ws.__exit__(None, None, None)


def test_quick_levels_choose_on_the_loop_among_few_actions(
        workers_client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A quick level's choice among a few actions is made at once (no thread, no worker);
    a choice among more than ``INLINE_CHOICES`` goes to a thread."""
    import asyncio

    from cardplaza.web.live import tables
    from cardplaza.web.live.computer import decide

    threaded: list[int] = []
    real = asyncio.to_thread

    async def counting(fn: Any, *args: Any, **kwargs: Any) -> Any:
        if fn is decide:
            threaded.append(len(args[4]))
        return await real(fn, *args, **kwargs)

    monkeypatch.setattr(asyncio, "to_thread", counting)  # what tables.py calls
    client = workers_client
    manager = client.app.state.manager  # type: ignore[attr-defined]
    t = create(client, game="toy", seed=6, humans=[0], level="random")
    ws, msg = join(client, t)
    try:
        for _ in range(3):
            msg = my_turn(ws, play_first(ws, msg))
        assert msg["step"] >= 6  # the computer moved in between
        assert threaded == [] and manager.pool.stats.done == 0
    finally:
        ws.__exit__(None, None, None)
    monkeypatch.setattr(tables, "INLINE_CHOICES", 1)
    # The computer leads the first trick from eight cards: more than one choice.
    t = create(client, game="toy", seed=7, humans=[1], level="random", options={"cards": 8})
    ws, msg = join(client, t, seat=1)
    try:
        my_turn(ws, msg)
        assert threaded[:1] == [8] and manager.pool.stats.done == 0
    finally:
        ws.__exit__(None, None, None)
