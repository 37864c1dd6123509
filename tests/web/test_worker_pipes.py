"""The event loop drives the worker processes' pipes itself: tasks larger than a pipe's
buffer go through whole, a worker that dies while idle costs no task, a task that cannot
be sent does not hold up the next, a pool serves a second event loop after the first has
ended (a task the first left running does not hold a worker), and no thread stands
between the loop and a running worker."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from web_slowwork import echo, nap

from cardplaza.web.live.workers import WorkerFailed, WorkerPool


def test_a_task_and_reply_larger_than_a_pipe_go_through_whole() -> None:
    big = bytes(range(256)) * 20_000  # 5 MB each way: many partial writes and reads

    async def main() -> bytes:
        pool = WorkerPool(1, kill_seconds=60.0, nice=0)
        try:
            answers = await asyncio.gather(*(pool.run(echo, big, deadline=60.0)
                                             for _ in range(3)))
            assert all(a == big for a in answers)
            return bytes(await pool.run(echo, b"small", deadline=60.0))
        finally:
            await pool.close()

    assert asyncio.run(main()) == b"small"


def test_a_worker_that_dies_while_idle_fails_no_task() -> None:
    async def main() -> None:
        pool = WorkerPool(1, kill_seconds=60.0, nice=0)
        try:
            assert await pool.run(echo, 1, deadline=60.0) == 1
            (pid,) = pool.pids()
            os.kill(pid, signal.SIGKILL)
            until = time.monotonic() + 10
            while pool.pids() == [pid] and time.monotonic() < until:
                await asyncio.sleep(0.05)  # the loop sees the pipe close
            assert await pool.run(echo, 2, deadline=60.0) == 2
            assert pool.pids() and pool.pids() != [pid]
            assert pool.stats.crashes == 0 and pool.stats.failed == 0
            assert pool.stats.started == 2
        finally:
            await pool.close()

    asyncio.run(main())


def test_a_pool_serves_the_next_event_loop() -> None:
    pool = WorkerPool(1, kill_seconds=60.0, nice=0)
    pool.start(processes=True)
    assert pool.wait_ready(120.0)
    try:
        assert asyncio.run(pool.run(echo, "first", deadline=60.0)) == "first"
        assert asyncio.run(pool.run(echo, "second", deadline=60.0)) == "second"
        assert pool.stats.started == 1  # the same process served both loops
    finally:
        asyncio.run(pool.close())
    assert pool.pids() == []


def test_no_thread_runs_between_the_loop_and_a_ready_worker() -> None:
    async def main() -> list[str]:
        pool = WorkerPool(2, kill_seconds=60.0, nice=0)
        try:
            await asyncio.gather(*(pool.run(echo, i, deadline=60.0) for i in range(8)))
            until = time.monotonic() + 10
            while any(t.name.startswith("cardplaza-ai") for t in threading.enumerate()) \
                    and time.monotonic() < until:
                await asyncio.sleep(0.05)  # the start threads end once their worker is up
            results = await asyncio.gather(*(pool.run(echo, i, deadline=60.0)
                                             for i in range(20)))
            assert results == list(range(20))
            return [t.name for t in threading.enumerate() if t.name.startswith("cardplaza-ai")]
        finally:
            await pool.close()

    assert asyncio.run(main()) == []


def test_a_task_that_cannot_be_sent_leaves_the_worker_to_the_next() -> None:
    async def main() -> list[Any]:
        pool = WorkerPool(1, kill_seconds=60.0, nice=0)
        try:
            assert await pool.run(echo, 0, deadline=60.0) == 0  # the worker is up
            # Both wait behind the first; when it answers, the unpicklable one fails and
            # the next goes to the worker at once.
            calls = [pool.run(nap, 0.3, deadline=60.0),
                     pool.run(echo, lambda: 0, deadline=60.0),
                     pool.run(echo, 7, deadline=5.0)]
            return list(await asyncio.gather(*calls, return_exceptions=True))
        finally:
            await pool.close()

    slow, bad, good = asyncio.run(main())
    assert slow == 0.3 and good == 7
    assert isinstance(bad, WorkerFailed) and "cannot send the task" in str(bad)


def test_the_worker_cost_script_measures_both_loops() -> None:
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, str(root / "scripts" / "worker_cost.py"),
                           "--tasks", "20", "--workers", "1", "--json"],
                          capture_output=True, text=True, timeout=120, check=True)
    figures = json.loads(done.stdout)
    assert figures["tasks"] == 20
    assert figures["idle loop"]["CPU us per task"] > 0
    assert figures["idle loop"]["of it the loop's thread"] > 0
    assert figures["idle loop"]["wall us per task"] > 0
    assert figures["busy loop"]["wall us per task"] > 0


def test_a_task_left_running_by_an_ended_loop_costs_the_next_loop_nothing() -> None:
    pool = WorkerPool(1, kill_seconds=60.0, nice=0)

    async def leave_running() -> None:
        assert await pool.run(echo, 0, deadline=60.0) == 0
        asyncio.get_running_loop().create_task(pool.run(nap, 30.0, deadline=60.0))
        await asyncio.sleep(0.1)  # the task is with the worker when this loop ends
        # (its time limit was a timer of this loop: nothing would ever end it)

    try:
        asyncio.run(leave_running())
        began = time.monotonic()
        assert asyncio.run(pool.run(echo, "next", deadline=10.0)) == "next"
        assert time.monotonic() - began < 10.0
    finally:
        asyncio.run(pool.close())
