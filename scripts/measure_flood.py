"""Measure how a server holds up under floods, on this machine only (loopback).

Starts its own server (``python -m cardplaza.web`` on 127.0.0.1, SQLite in a temporary
folder) and measures, in alternating quiet and loaded windows:

* the computer's move time at another table (four-hand Pinochle, level ``expert``, instant
  pace): the time from one state message to the next while a computer is to play a card;
* the round trip of a quiet client's ``ping`` (every 50 ms);
* the processors busy, on average, with the server's web process, its computers' workers
  and its analysis workers, and the whole machine's (``cores_busy``: on a shared machine
  the rest of ``machine`` is other work).

Loaded means: ``--flooders`` connections each sending pings just under the per-connection
rate (``rate_per_second``), reconnecting when closed, and ``--hinters`` connections each at
a table of its own asking for hints continuously (again as soon as one is answered or
refused). Prints the figures as JSON::

    python scripts/measure_flood.py --seconds 240

The run is bounded (``--seconds`` at most 900) and never leaves this machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

MAX_SECONDS = 900.0
FLOODERS = "127.0.0.2"
HINTERS = "127.0.0.3"
"""Loopback addresses the flooding and the hinting connections come from (the measured
clients use 127.0.0.1): each crowd is one client address, as it would be on a network."""


def pct(values: list[float], q: float) -> float | None:
    """The ``q``-th percentile (nearest rank) of some values."""
    if not values:
        return None
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return round(ordered[k] * 1000, 1)


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_by_role(pid: int) -> dict[str, float]:
    """CPU seconds so far of a server's process tree by role: the web process, the
    computers' workers (niceness below 10) and the analysis workers (10 and above); and of
    the whole machine (``machine``: busy seconds of all its processors)."""
    out = {"web": 0.0, "computers": 0.0, "analysis": 0.0}
    todo, seen = [pid], set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            stat = Path(f"/proc/{p}/stat").read_text()
            cmd = Path(f"/proc/{p}/cmdline").read_bytes()
            tasks = list(Path(f"/proc/{p}/task").iterdir())
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        used = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
        if b"cardplaza.web.live.workers" in cmd:
            out["analysis" if int(fields[16]) >= 10 else "computers"] += used
        else:
            out["web"] += used
        for task in tasks:
            with contextlib.suppress(OSError, ValueError):
                todo += [int(c) for c in (task / "children").read_text().split()]
    with contextlib.suppress(OSError):
        cpu = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
        ticks = [int(x) for x in cpu]
        out["machine"] = (sum(ticks) - ticks[3] - ticks[4]) / CLOCK_TICKS
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Run:
    """Shared state of one measurement."""

    def __init__(self, base: str, rate: float) -> None:
        self.base = base
        self.ws = base.replace("http://", "ws://") + "/ws"
        self.rate = rate
        self.loaded = False
        self.stop = False
        self.moves: dict[bool, list[float]] = {False: [], True: []}
        self.pings: dict[bool, list[float]] = {False: [], True: []}
        self.flood = {"sent": 0, "pongs": 0, "refused": 0, "closed": 0, "not_let_in": 0}
        self.hints = {"asked": 0, "answered": 0, "refused": 0, "reconnects": 0}
        self.observer_errors: list[str] = []

    async def table(self, client: httpx.AsyncClient, level: str,
                    target: int = 1500) -> dict[str, Any]:
        r = await client.post(f"{self.base}/api/tables", json={
            "game": "pinochle4", "level": level, "options": {"target": target}})
        r.raise_for_status()
        out: dict[str, Any] = r.json()
        return out


async def observer(run: Run, client: httpx.AsyncClient) -> None:
    """Play tables against the expert at the instant pace, timing the computers' cards."""
    while not run.stop:
        try:
            await observe_one(run, client)
        except (ConnectionClosed, OSError, InvalidHandshake, httpx.HTTPError,
                ValueError) as exc:
            run.observer_errors.append(f"{type(exc).__name__}: {str(exc)[:120]}")
            await asyncio.sleep(0.5)


async def observe_one(run: Run, client: httpx.AsyncClient) -> None:
    """One table against the expert, to the end of its game."""
    if not run.stop:
        t = await run.table(client, "expert")
        async with connect(run.ws, max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "join", "table": t["table"], "token": t["token"],
                                      "pace": "instant"}))
            state: dict[str, Any] | None = None
            last_at = time.perf_counter()
            while not run.stop:
                msg = json.loads(await ws.recv())
                now = time.perf_counter()
                if msg.get("type") != "state":
                    continue
                from cardplaza.core.delta import rebuild

                prev = state
                state = rebuild(state, msg)
                if prev is not None and prev["current"] != prev["seat"] and \
                        prev["obs"].get("phase") == "play" and state["step"] == prev["step"] + 1:
                    run.moves[run.loaded].append(now - last_at)
                last_at = now
                if state["terminal"]:
                    break
                if state["current"] == state["seat"] and state["legal"]:
                    legal = state["legal"]
                    passes = [a for a in legal if a["text"] == "pass"]
                    choice = passes[0] if passes else legal[0]
                    await ws.send(json.dumps({"type": "act", "action": choice["json"],
                                              "step": state["step"]}))


async def pinger(run: Run) -> None:
    async with connect(run.ws) as ws:
        while not run.stop:
            sent = time.perf_counter()
            await ws.send(json.dumps({"type": "ping", "t": sent}))
            while True:
                msg = json.loads(await ws.recv())
                if msg.get("type") == "pong" and msg.get("t") == sent:
                    break
            run.pings[run.loaded].append(time.perf_counter() - sent)
            await asyncio.sleep(0.05)


async def flooder(run: Run, n: int) -> None:
    """Pings just under the connection's rate while the run is loaded; reconnects."""
    gap = 1.0 / (run.rate * 0.95)
    while not run.stop:
        if not run.loaded:
            await asyncio.sleep(0.2)
            continue
        try:
            async with connect(run.ws, local_addr=(FLOODERS, 0)) as ws:
                async def read() -> None:
                    async for text in ws:
                        msg = json.loads(text)
                        if msg.get("type") == "pong":
                            run.flood["pongs"] += 1
                        elif msg.get("type") == "error":
                            run.flood["refused"] += 1

                reader = asyncio.create_task(read())
                next_at = time.perf_counter() + random.random() * gap
                try:
                    while run.loaded and not run.stop:
                        await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
                        next_at += gap
                        await ws.send(f'{{"type":"ping","t":{n}}}')
                        run.flood["sent"] += 1
                finally:
                    reader.cancel()
        except (ConnectionClosed, OSError):
            run.flood["closed"] += 1
            await asyncio.sleep(0.5)
        except InvalidHandshake:
            run.flood["not_let_in"] += 1
            await asyncio.sleep(0.5)


async def hinter(run: Run, client: httpx.AsyncClient) -> None:
    """Asks for hints at its own table, again and again, while the run is loaded."""
    t = await run.table(client, "weak", 500)
    from cardplaza.core.delta import rebuild

    while not run.stop:
        try:
            async with connect(run.ws, max_size=2**22, local_addr=(HINTERS, 0)) as ws:
                await ws.send(json.dumps({"type": "join", "table": t["table"],
                                          "token": t["token"], "pace": "instant"}))
                state: dict[str, Any] | None = None
                while not run.stop:
                    msg = json.loads(await ws.recv())
                    if msg.get("type") == "state":
                        state = rebuild(state, msg)
                        if state["current"] == state["seat"]:
                            break
                while not run.stop:
                    if not run.loaded:
                        await asyncio.sleep(0.2)
                        continue
                    await ws.send('{"type":"hint"}')
                    run.hints["asked"] += 1
                    while True:
                        msg = json.loads(await ws.recv())
                        if msg.get("type") == "hint":
                            run.hints["answered"] += 1
                            break
                        if msg.get("type") == "error":
                            run.hints["refused"] += 1
                            await asyncio.sleep(0.2)
                            break
        except (ConnectionClosed, OSError, InvalidHandshake):
            run.hints["reconnects"] += 1
            await asyncio.sleep(1.0)


def loaded_now(started: float, window: float) -> bool:
    """Windows alternate from ``started``: loaded, quiet, loaded, …"""
    return int((time.time() - started) / window) % 2 == 0


async def load(args: argparse.Namespace, base: str) -> dict[str, Any]:
    """The crowd: flooders and hinters, busy in the loaded windows only."""
    run = Run(base, args.rate)
    hint_transport = httpx.AsyncHTTPTransport(local_address=HINTERS)
    async with httpx.AsyncClient(timeout=30, transport=hint_transport) as hints:
        tasks = [asyncio.create_task(flooder(run, i)) for i in range(args.flooders)]
        tasks += [asyncio.create_task(hinter(run, hints)) for _ in range(args.hinters)]
        end = args.started + args.seconds
        while time.time() < end:
            run.loaded = loaded_now(args.started, args.window)
            await asyncio.sleep(0.05)
        run.stop = True
        await asyncio.sleep(0.5)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return {"flood": run.flood, "hints": run.hints}


async def measure(args: argparse.Namespace, base: str, server_pid: int) -> dict[str, Any]:
    """The measured clients: the expert's table and the quiet pinger; and the processor
    time the server's processes (and the machine) used in each kind of window."""
    run = Run(base, args.rate)
    spent: dict[bool, dict[str, float]] = {False: {}, True: {}}
    seconds = {False: 0.0, True: 0.0}
    async with httpx.AsyncClient(timeout=30) as client:
        tasks = [asyncio.create_task(observer(run, client)),
                 asyncio.create_task(pinger(run))]
        end = args.started + args.seconds
        mark, at = cpu_by_role(server_pid), time.monotonic()
        while time.time() < end:
            loaded = loaded_now(args.started, args.window)
            if loaded != run.loaded or time.time() + 0.01 >= end:
                now, t = cpu_by_role(server_pid), time.monotonic()
                for role, used in now.items():
                    spent[run.loaded][role] = spent[run.loaded].get(role, 0.0) + \
                        used - mark.get(role, 0.0)
                seconds[run.loaded] += t - at
                mark, at = now, t
            run.loaded = loaded
            await asyncio.sleep(0.01)
        run.stop = True
        await asyncio.sleep(0.5)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        health = (await client.get(f"{base}/healthz")).json()

    def figures(loaded: bool) -> dict[str, Any]:
        return {"expert_move_ms": {"n": len(run.moves[loaded]),
                                   "p50": pct(run.moves[loaded], 50),
                                   "p95": pct(run.moves[loaded], 95)},
                "ping_ms": {"n": len(run.pings[loaded]), "p50": pct(run.pings[loaded], 50),
                            "p95": pct(run.pings[loaded], 95)}}

    def cores(loaded: bool) -> dict[str, float]:
        """Processors busy on average, by role (``machine``: the whole machine's)."""
        span = seconds[loaded] or 1.0
        return {role: round(used / span, 2) for role, used in spent[loaded].items()}

    quiet, loaded = figures(False), figures(True)
    quiet["cores_busy"], loaded["cores_busy"] = cores(False), cores(True)
    q95, l95 = quiet["expert_move_ms"]["p95"], loaded["expert_move_ms"]["p95"]
    return {"quiet": quiet, "loaded": loaded,
            "expert_p95_ratio": round(l95 / q95, 3) if q95 and l95 else None,
            "observer_errors": run.observer_errors[:5],
            "server": {"computers": health.get("computers"),
                       "analysis": health.get("analysis")}}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=240.0)
    p.add_argument("--window", type=float, default=20.0,
                   help="seconds of each quiet or loaded window (they alternate)")
    p.add_argument("--flooders", type=int, default=50)
    p.add_argument("--hinters", type=int, default=20)
    p.add_argument("--rate", type=float, default=20.0,
                   help="the server's per-connection rate (rate_per_second)")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="a server setting for the run")
    p.add_argument("--load-only", metavar="URL", help=argparse.SUPPRESS)
    p.add_argument("--started", type=float, default=0.0, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.load_only:
        # The crowd runs in a process of its own at a low priority: on a network its
        # processor would not be the server's; on this machine it should not take the
        # server's time either.
        os.nice(10)
        print(json.dumps(asyncio.run(load(args, args.load_only))))
        return
    if not 10 <= args.seconds <= MAX_SECONDS:
        raise SystemExit(f"--seconds must be 10–{MAX_SECONDS:.0f}")
    tmp = Path(tempfile.mkdtemp(prefix="cardplaza-flood-"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    extra = [a for pair in args.set for a in ("--set", pair)]
    env = dict(os.environ, XDG_DATA_HOME=str(tmp))
    with (tmp / "server.log").open("wb") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "cardplaza.web", "--host", "127.0.0.1", "--port",
             str(port), "--db", f"sqlite:///{tmp / 'db.sqlite3'}",
             "--set", f"rate_per_second={args.rate}",
             *extra],
            env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        until = time.time() + 600
        while time.time() < until:
            with contextlib.suppress(httpx.HTTPError):
                h = httpx.get(f"{base}/healthz", timeout=1).json()
                if h["computers"]["ready"] >= h["computers"]["workers"] and \
                        h["analysis"]["ready"] >= h["analysis"]["workers"]:
                    break
            if server.poll() is not None:
                raise SystemExit((tmp / "server.log").read_text())
            time.sleep(0.5)
        args.started = time.time() + 2.0
        crowd = subprocess.Popen(
            [sys.executable, __file__, "--load-only", base, "--started", str(args.started),
             "--seconds", str(args.seconds), "--window", str(args.window), "--flooders",
             str(args.flooders), "--hinters", str(args.hinters), "--rate", str(args.rate)],
            stdout=subprocess.PIPE)
        out = asyncio.run(measure(args, base, server.pid))
        got, _ = crowd.communicate(timeout=120)
        out.update(json.loads(got))
        out["command"] = " ".join(["python", "scripts/measure_flood.py", *sys.argv[1:]])
        print(json.dumps(out, indent=2))
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(30)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
