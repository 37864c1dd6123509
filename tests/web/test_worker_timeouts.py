"""Tasks whose callers gave up leave no "exception was never retrieved" behind."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

from web_slowwork import nap

from cardplaza.web.live.workers import WorkerPool, WorkerTimeout


def test_abandoned_tasks_report_nothing() -> None:
    reports: list[dict[str, Any]] = []

    async def main() -> None:
        asyncio.get_running_loop().set_exception_handler(lambda _l, ctx: reports.append(ctx))
        pool = WorkerPool(1, kill_seconds=30.0, nice=0)
        try:
            assert await pool.run(nap, 0.0, deadline=60.0) == 0.0  # the worker is up
            calls = [pool.run(nap, 0.6, deadline=0.1) for _ in range(6)]
            outcomes = await asyncio.gather(*calls, return_exceptions=True)
            assert all(isinstance(o, WorkerTimeout) for o in outcomes)
            await asyncio.sleep(1.2)  # the first finishes late, the others expire
        finally:
            await pool.close()
        await asyncio.sleep(0.1)

    asyncio.run(main())
    gc.collect()
    never = [r for r in reports if "never retrieved" in str(r.get("message", ""))]
    assert not never, never


def test_a_task_within_its_deadline_answers() -> None:
    async def main() -> float:
        pool = WorkerPool(1, kill_seconds=30.0, nice=0)
        try:
            return float(await pool.run(nap, 0.01, deadline=60.0))
        finally:
            await pool.close()

    assert asyncio.run(main()) == 0.01
