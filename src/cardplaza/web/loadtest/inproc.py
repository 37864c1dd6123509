"""The web process's CPU per person action measured in process: no network, no HTTP.

``cardplaza loadtest --in-process`` builds the app's own table manager (``create_app``: its
hooks, its action log on SQLite in a temporary directory, its computer-player processes)
and drives it as the WebSocket endpoint does — a :class:`~cardplaza.web.live.session.Session`
and a :class:`~cardplaza.web.live.client.Client` per person — with a fake socket in place
of the network. Each table has one person who plays a random legal action as soon as it
is their turn and opens a new table when a game ends, as in the network benchmark.

What is measured is this process's CPU time (``time.process_time``: every thread, the
action log's writing thread included) over the measured seconds, divided by the person
actions; it includes the computers' replies as the web process sees them (their
observation, the hop to a worker and back, applying, storing and sending the move) but
not the computers' search, which runs in the worker processes. The shares of the event
loop's thread and of the action log's writing thread (storing each action) are reported
beside it. Taken out, and reported apart:

* the simulated people's own work (reading the state texts they are sent, choosing an
  action, writing it), timed around it with ``time.thread_time``;
* the tables opened during the measured time, at the CPU per table measured before it
  (opening a table, joining it and its first state, then leaving it);
* the process's CPU while idle (heartbeats, sweeps), per second, measured before it.

The kernel's socket work and the WebSocket framing are not in this figure; the network
benchmark (:mod:`.generator`) has them. The run uses the server's event loop (uvloop where
installed).
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

CALIBRATION_TABLES = 20
"""Tables opened (and left) to measure the CPU of opening one."""
SETTLE_LIMIT = 30.0
"""Longest wait after the measured time for the computers' moves under way to end."""
IDLE_SECONDS = 1.5
"""Seconds of idling to measure the process's CPU when nothing happens."""


class Person:
    """One simulated person at a table, connected through a fake socket."""

    def __init__(self, run: InProcRun, index: int) -> None:
        self.run = run
        self.index = index
        self.rng = random.Random(index)
        self.state: dict[str, Any] | None = None
        self.table: str = ""
        self.inbox: asyncio.Queue[str | None] = asyncio.Queue()
        """The person's messages to the server; ``None`` ends the game (it is over, or the
        connection was closed): one wait per message, no helper tasks (their CPU would be
        counted as the server's)."""
        self.over = False
        self.session: Any = None
        self.client: Any = None
        self.last_act = ""
        """The last action sent, sent again after the server refused it for its rate."""

    def level(self) -> str:
        return self.run.levels[self.index % len(self.run.levels)]

    async def _send_text(self, text: str) -> None:
        # The server's writer task hands a text to the socket: the person reads it at once.
        t0 = time.thread_time()
        try:
            self._read(text)
        finally:
            self.run.own_cpu += time.thread_time() - t0

    async def _close(self, code: int) -> None:
        self._end()

    def _end(self) -> None:
        if not self.over:
            self.over = True
            self.inbox.put_nowait(None)

    def _read(self, text: str) -> None:
        from cardplaza.core.delta import rebuild

        msg = orjson.loads(text)
        if msg.get("type") == "error":
            code = str(msg.get("code"))
            self.run.errors[code] = self.run.errors.get(code, 0) + 1
            if code == "rate_limited" and self.last_act and not self.over:
                # Refused, not played: the person sends it again once the connection's
                # bucket has a token (as a person clicking again would).
                wait = 1.0 / self.run.manager.settings.rate_per_second
                asyncio.get_running_loop().call_later(wait, self._again, self.last_act)
            return
        if msg.get("type") != "state":
            return
        state = rebuild(self.state, msg)
        self.state = state
        if self.run.pending.get(self.index) is not None and \
                state["step"] > self.run.pending[self.index]:
            self.run.pending[self.index] = None
            if self.run.measuring:
                self.run.actions += 1
        if state["terminal"]:
            self._end()
            return
        if state["current"] == state["seat"] and state["legal"] and \
                self.run.pending.get(self.index) is None:
            choice = state["legal"][self.rng.randrange(len(state["legal"]))]["json"]
            self.run.pending[self.index] = state["step"]
            self.last_act = orjson.dumps({"type": "act", "action": choice,
                                          "step": state["step"]}).decode()
            self.inbox.put_nowait(self.last_act)

    def _again(self, text: str) -> None:
        if not self.over and text == self.last_act:
            self.inbox.put_nowait(text)

    async def open(self) -> None:
        """Open a table and join it (as ``POST /api/tables`` and the ``join`` message)."""
        from cardplaza.web.live.client import Client
        from cardplaza.web.live.session import Session

        run = self.run
        body: dict[str, Any] = {"game": run.game, "level": self.level(),
                                "name": f"Bot {self.index}"}
        if run.game == "pinochle2":
            lv = self.level()
            body["options"] = {"level": lv if lv in ("1", "2", "3", "4") else "4"}
        made = await run.manager.create(body, address="127.0.0.1")
        self.table = made["table"]
        self.state = None
        self.over = False
        self.inbox = asyncio.Queue()
        self.last_act = ""
        run.pending[self.index] = None
        self.client = Client(run.manager.settings, self._send_text, self._close)
        self.session = Session(run.manager, self.client, address="127.0.0.1")
        await self.session.receive(orjson.dumps({"type": "join", "table": made["table"],
                                                 "token": made["token"]}).decode())

    async def leave(self) -> None:
        """Close the fake connection (as the endpoint does when a socket ends)."""
        if self.session is not None:
            await self.session.close()
            await self.client.aclose()
            self.session = self.client = None

    async def main(self) -> None:
        """Games one after another."""
        run = self.run
        while not run.stopping:
            await self.open()
            if run.measuring:
                run.opened += 1
            try:
                while not run.stopping:
                    text = await self.inbox.get()
                    if text is None:
                        break
                    await self.session.receive(text)
            finally:
                await self.leave()


class InProcRun:
    """One in-process run."""

    def __init__(self, game: str, levels: list[str], manager: Any) -> None:
        self.game = game
        self.levels = levels
        self.manager = manager
        self.stopping = False
        self.measuring = False
        self.actions = 0
        self.opened = 0
        self.own_cpu = 0.0
        """CPU the simulated people spent reading and writing (taken out)."""
        self.pending: dict[int, int | None] = {}
        self.errors: dict[str, int] = {}


def settings_for(args: Any) -> Any:
    """The server's settings as ``serve`` and the network benchmark set them."""
    from cardplaza.web.front.server import parse_settings, served
    from cardplaza.web.loadtest.common import LOOPBACK_BUDGETS

    pairs = [f"max_live_tables={max(5_000, 4 * args.tables)}", *LOOPBACK_BUDGETS,
             *(args.set or [])]
    settings = parse_settings(pairs)
    changes: dict[str, Any] = {**served(settings), "computer_pause": args.pause}
    if args.ai_workers is not None:
        changes["ai_workers"] = args.ai_workers
    return settings.replace(**changes)


def _profiler() -> Any:
    """cProfile timing CPU, not the wall clock: the event loop thread's CPU time."""
    import cProfile

    return cProfile.Profile(time.thread_time)


async def _calibrate(run: InProcRun, count: int) -> tuple[float, float]:
    """CPU seconds per second idle, and per table opened, joined and left."""
    t0, c0 = time.perf_counter(), time.process_time()
    await asyncio.sleep(IDLE_SECONDS)
    idle = (time.process_time() - c0) / (time.perf_counter() - t0)
    people = [Person(run, 10_000_000 + i) for i in range(count)]
    own = run.own_cpu
    t0, c0 = time.perf_counter(), time.process_time()
    for p in people:
        await p.open()
        await p.leave()
    spent = time.process_time() - c0 - (run.own_cpu - own)
    spent -= idle * (time.perf_counter() - t0)
    return idle, max(0.0, spent) / count


async def run_in_process(args: Any) -> dict[str, Any]:
    """The in-process run of ``args`` (the benchmark's options); returns its figures (its
    database is a temporary file, removed after the run)."""
    from cardplaza.web.loadtest.common import table_levels

    levels = table_levels(args.game, args.level)
    with tempfile.TemporaryDirectory(prefix="cardplaza-inproc-") as tmp:
        return await _run_in(Path(tmp), args, levels)


async def _run_in(tmp: Path, args: Any, levels: list[str]) -> dict[str, Any]:
    from cardplaza.web.front.app import create_app

    app = create_app(f"sqlite:///{tmp / 'inproc.sqlite3'}", settings=settings_for(args))
    manager = app.state.manager
    async with app.router.lifespan_context(app):
        run = InProcRun(args.game, levels, manager)
        people = [Person(run, i) for i in range(args.tables)]
        tasks = [asyncio.create_task(p.main()) for p in people]
        await asyncio.sleep(args.warm)
        profiler = _profiler() if getattr(args, "profile", None) else None
        run.measuring = True
        own = run.own_cpu
        t0, c0, l0 = time.perf_counter(), time.process_time(), time.thread_time()
        log0 = (manager.action_log.transactions, manager.action_log.appended)
        w0 = manager.action_log.writer_cpu()
        if profiler is not None:
            profiler.enable()
        await asyncio.sleep(args.seconds)
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(args.profile)
        cpu = time.process_time() - c0
        loop_cpu = time.thread_time() - l0
        elapsed = time.perf_counter() - t0
        run.measuring = False
        own = run.own_cpu - own
        log1 = (manager.action_log.transactions, manager.action_log.appended)
        writer_cpu = manager.action_log.writer_cpu() - w0
        run.stopping = True
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        # The computers' moves under way end (each table waits for its person again); then
        # the quiet process.
        until = time.monotonic() + SETTLE_LIMIT
        while time.monotonic() < until and any(
                t.task is not None and not t.task.done() for t in manager.tables.values()):
            await asyncio.sleep(0.2)
        await asyncio.sleep(0.5)
        idle, per_table = await _calibrate(run, min(CALIBRATION_TABLES, args.tables))
    acted = run.actions
    server = cpu - own
    steady = server - idle * elapsed - per_table * run.opened
    out: dict[str, Any] = {
        "game": args.game, "tables": args.tables, "level": ",".join(levels),
        "seconds": round(elapsed, 1), "pause": args.pause, "in process": True,
        "actions": acted, "actions/s": round(acted / elapsed, 1) if elapsed else 0.0,
        "log transactions": log1[0] - log0[0], "log appends": log1[1] - log0[1],
        "errors": sum(run.errors.values()), "error kinds": dict(sorted(run.errors.items())),
        "process CPU ms per action (all)": round(1000 * server / acted, 3) if acted else None,
        "web CPU ms per action (steady state)": round(1000 * steady / acted, 3)
        if acted else None,
        "of it the event loop's thread ms per action": round(
            1000 * (loop_cpu - own) / acted, 3) if acted else None,
        "of it the action log's writing thread ms per action": round(
            1000 * writer_cpu / acted, 3) if acted else None,
        "excluded": {
            "simulated people's own CPU ms": round(1000 * own, 1),
            "tables opened": run.opened,
            "CPU ms per table opened (join, first state, leave)": round(1000 * per_table, 3),
            "idle CPU ms per second": round(1000 * idle, 3),
        },
    }
    return out
