"""The web process's processor time for one task in a computer-player worker.

``python scripts/worker_cost.py [--game G] [--tasks N] [--workers W] [--json]`` starts a
pool of ``W`` worker processes and sends them ``N`` tasks one after another, each carrying
a computer's usual arguments (a seat's observation and its legal actions, taken from a
seeded position of game ``G``) and answered at once with the first legal action, so the
figure is the pool's own cost: pickling, the pipes, waking the loop. It prints this
process's CPU time per task (every thread of it; the workers' own time is not counted)
and the wall time per task, once with the event loop idle between tasks and once with a
task of its own keeping the loop busy (as a server's loop is), where the wall time shows
how long a reply waits for the loop.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from typing import Any

WARM_TASKS = 50
BUSY_SLICE = 20_000
"""Additions the busy task makes between its yields to the loop (about a millisecond)."""


def first_legal(observation: dict[str, Any], legal: list[Any]) -> Any:
    """Runs in a worker: the first legal action (no thinking)."""
    return legal[0]


def position(game: str) -> tuple[dict[str, Any], list[Any]]:
    """A seeded position of ``game`` with a choice to make: its observation and actions."""
    from cardplaza.core.registry import get_game

    spec = get_game(game)
    state = spec.new_game(seed=3)
    rng = random.Random(1)
    for _ in range(15):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    while not state.is_terminal and len(state.legal_actions()) < 2:
        state.apply(rng.choice(state.legal_actions()))
    return state.observation(state.current_player), list(state.legal_actions())


async def measure(args: Any, busy: bool) -> dict[str, float]:
    """CPU and wall microseconds per task, the loop idle or kept busy."""
    # By its module's name, not ``__main__``: a worker imports it (this directory is on
    # the path the pool hands its workers).
    from worker_cost import first_legal as answer

    from cardplaza.web.live.workers import WorkerPool

    obs, legal = position(args.game)
    pool = WorkerPool(args.workers, kill_seconds=60.0, nice=0)

    async def spin() -> None:
        while True:
            total = 0
            for i in range(BUSY_SLICE):
                total += i
            await asyncio.sleep(0)

    try:
        for _ in range(WARM_TASKS):
            await pool.run(answer, obs, legal, deadline=60.0)
        spinner = asyncio.create_task(spin()) if busy else None
        cpu0, wall0 = time.process_time(), time.perf_counter()
        spun0 = time.thread_time()
        for _ in range(args.tasks):
            await pool.run(answer, obs, legal, deadline=60.0)
        cpu = time.process_time() - cpu0
        wall = time.perf_counter() - wall0
        if spinner is not None:
            spinner.cancel()
        out = {"wall us per task": round(1e6 * wall / args.tasks, 1)}
        if not busy:  # with the spinner, the loop's CPU is mostly the spinner's
            out["CPU us per task"] = round(1e6 * cpu / args.tasks, 1)
            out["of it the loop's thread"] = round(
                1e6 * (time.thread_time() - spun0) / args.tasks, 1)
        return out
    finally:
        await pool.close()


def main() -> None:
    """Run both measurements and print them (JSON with ``--json``)."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--game", default="pinochle2")
    ap.add_argument("--tasks", type=int, default=2_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    from cardplaza.web.settings import SERVE_SWITCH_INTERVAL

    sys.setswitchinterval(SERVE_SWITCH_INTERVAL)  # as a served process runs
    results = {"game": args.game, "tasks": args.tasks, "workers": args.workers,
               "idle loop": asyncio.run(measure(args, busy=False)),
               "busy loop": asyncio.run(measure(args, busy=True))}
    if args.json:
        print(json.dumps(results))
        return
    for key, value in results.items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
