"""A load benchmark: many tables, each with one scripted person, against a real server.

``cardplaza loadtest --tables N --level L --seconds S [--pause P] [--json] [--url U]``
starts its own server on a free loopback port (SQLite in a temporary directory) unless
``--url`` names a running one (loopback addresses only). Each table has one person who
plays a random legal action as soon as it is their turn, and starts a new table when a
game ends. It measures:

* the round trip of an action (sent → the acting seat's new state),
* the time to the person's next turn (sent → the state where they are to act again, i.e.
  every computer reply in between, with the computer pause: in four-hand Pinochle that
  may be a dozen computer moves, say the rest of an auction, each after its pause),
* each computer move's time (from the state before it to the state it makes: the pause,
  or the computer's thinking where that is longer, plus any wait for a worker),
* the server's own time to store an action (``action log append``: from the append to its
  commit, the servers' histograms of ``/healthz`` read at the start and the end of the
  measured time; each figure is the bound of the bucket it falls in, within 19%; none
  when a server was restarted meanwhile),
* ``/healthz`` latency (probed every 100 ms on a connection of its own), errors (error
  messages, time-outs, lost connections, failed requests), the server's peak memory, and
  the computers' fallbacks.

It also reports the server's CPU time per person action (the computers' replies included),
read from ``/proc`` for the server's whole process tree: ``web CPU ms per action`` (the
web processes, everything they did while measuring) and ``server CPU ms per action`` (with
the computer-player processes). ``web CPU ms per action (steady state)`` takes out, and
reports apart (``excluded from the steady state``), what is not the work of playing: the
tables opened while measuring and the ``/healthz`` probes, each at its CPU measured after
the measured time with the people gone (20 tables opened, joined and closed; 40 probes),
and the server's CPU when idle (heartbeats, sweeps) per second. ``--in-process``
(:mod:`.inproc`) measures the web process's own work without the network. Beside them,
where the processors went while measuring, in cores busy: the web processes, the
computer players, the load generator and the whole machine (``/proc/stat``, anything else
running on it included) out of ``cores`` — round trips measured on a machine with every
core busy wait for a processor.

``--sweep 50,100,200`` runs once per table count, each against a fresh server, and prints
one line per count (round trip p50/p95, actions/s, CPU per action): the scale curve. The
load generator always runs in its own process, apart from the server's. ``--workers N``
gives the server N web processes; ``--profile FILE`` runs the server under cProfile and
writes its statistics to FILE when the run ends (``python -m pstats FILE``, or a flame
graph viewer such as snakeviz).

``--servers 2`` runs two server processes on one database (``--db``: a URL, or
``postgres`` for a throw-away PostgreSQL cluster); tables are created on either and every
person joins through the *other* one, so every action is relayed to the owner.
``--kills K`` SIGKILLs a server K times during the run (in turn, restarting it each
time); the people reconnect (to the next server) and go on; at the end every action a
person saw acknowledged is looked up in the database's log (``lost`` must be 0).

``--humans-per-table N --drop-rate R [--standin-seconds S]`` seats N people at each table
(a room; the other seats are computers) who drop their connections at random, R times per
person per minute, and come back later; the server runs with ``standin_seconds`` = S (5 by
default). It reports the tables stuck waiting for an absent person longer than S + 2 s, the
lost acknowledged actions and the throughput (:mod:`cardplaza.web.loadtest.shared`, which
runs through :func:`run_loadtest`).

``--shared N`` seats two people at N of the tables (seats 0 and 1, each with its own
connection and seat token; the second joins each table the first opens), so the kills meet
shared tables too.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import math
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson

from cardplaza.web.loadtest.common import (
    LOOPBACK_BUDGETS,
    MAX_TABLES,
    http_limits,
    run_on_loop,
    table_levels,
)
from cardplaza.web.store.latency import BOUNDS_MS, between, percentile

MAX_SECONDS = 3_600.0
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
REPLY_SECONDS = 60.0
RETRY_SECONDS = 0.1
"""Wait before a simulated person sends again an action the server refused for its rate
(``rate_limited``: a person acting faster than a connection may send, which a computer
pause of 0 allows); the refusal is counted among the errors."""


class RateLimited(Exception):
    """The server refused the last message for the connection's rate."""


@dataclass
class Figures:
    """What the run measured."""

    round_trips: list[float] = field(default_factory=list)
    next_turns: list[float] = field(default_factory=list)
    computer_moves: list[float] = field(default_factory=list)
    health: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    actions: int = 0
    games: int = 0
    acked: dict[str, dict[int, Any]] = field(default_factory=dict)
    seen_steps: dict[str, int] = field(default_factory=dict)
    shared: set[str] = field(default_factory=set)
    """Tables with two people."""
    opened: int = 0
    """Tables opened while measuring."""
    probes: int = 0
    """``/healthz`` probes sent while measuring."""

    def count(self, code: str) -> None:
        """Count one error of a kind."""
        self.errors[code] = self.errors.get(code, 0) + 1


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


async def _log_counts(http: Any, bases: list[str]) -> list[int]:
    """The servers' action-log append times so far (``/healthz``), bucket by bucket,
    summed over the servers (zeros for a server that does not answer)."""
    total = [0] * (len(BOUNDS_MS) + 1)
    for base in bases:
        with contextlib.suppress(Exception):
            counts = (await http.get(f"{base}/healthz", timeout=10.0)).json()[
                "log"]["append_ms_counts"]
            total = [a + b for a, b in zip(total, counts, strict=True)]
    return total


def _bucket(ms: float) -> float | None:
    """A percentile's bucket bound as the figures print it (None: no append counted)."""
    return None if math.isnan(ms) else round(ms, 2)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """A server started for the run (``python -m cardplaza.web``)."""

    def __init__(self, db: str, pause: float, tmp: Path, extra: list[str],
                 profile: str | None = None) -> None:
        self.db = db
        self.pause = pause
        self.tmp = tmp
        self.extra = extra
        self.profile = profile
        self.port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.profiled = False
        self.log = tmp / f"server-{self.port}.log"

    @property
    def base(self) -> str:
        """Its HTTP address."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start it and wait until it answers."""
        env = dict(os.environ, XDG_DATA_HOME=str(self.tmp / "xdg"))
        # CPU time, not the wall clock: the profiler's timer is the event loop thread's.
        profiler = ["-m", "cardplaza.web.loadtest.cpuprofile", self.profile] \
            if self.profile else []
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, *profiler, "-m", "cardplaza.web", "--port", str(self.port),
                 "--db", self.db, "--pause", str(self.pause), *self.extra],
                env=env, stdout=out, stderr=subprocess.STDOUT)

    def cpu(self) -> tuple[float, float]:
        """CPU seconds used so far by the server's web processes and by its computer-player
        processes (its whole process tree; zeros where ``/proc`` cannot be read)."""
        if self.proc is None:
            return 0.0, 0.0
        return tree_cpu(self.proc.pid)

    def kill(self) -> None:
        """SIGKILL, no warning."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(30)

    def stop(self) -> None:
        """Ask it to stop, then make sure."""
        if self.proc is not None and self.proc.poll() is None:
            # Under cProfile, SIGINT: the server re-raises the signal that stopped it once
            # it has shut down, and only an interrupt lets the profiler write its file.
            self.proc.send_signal(signal.SIGINT if self.profile else signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()


CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
WORKER_MODULE = "cardplaza.web.live.workers"


def _children(pid: int) -> list[int]:
    out: list[int] = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError, ValueError):
                out += [int(c) for c in (task / "children").read_text().split()]
    return out


def tree_cpu(pid: int) -> tuple[float, float]:
    """CPU seconds (user + system) of process ``pid`` and its descendants, split into the
    computer-player worker processes and all the others: ``(web, workers)``."""
    web = workers = 0.0
    todo = [pid]
    seen: set[int] = set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            stat = Path(f"/proc/{p}/stat").read_text()
            cmdline = Path(f"/proc/{p}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        used = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
        if WORKER_MODULE.encode() in cmdline:
            workers += used
        else:
            web += used
        todo += _children(p)
    return web, workers


def machine_busy() -> float | None:
    """CPU seconds every processor of the machine has spent busy since boot (``/proc/stat``:
    all but idle and I/O wait), whoever used them; ``None`` where there is no ``/proc``."""
    try:
        first = Path("/proc/stat").read_text().split("\n", 1)[0].split()
    except OSError:
        return None
    if not first or first[0] != "cpu":
        return None
    ticks = [int(v) for v in first[1:]]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)
    return (sum(ticks[:8]) - idle) / CLOCK_TICKS


def load_figures(elapsed: float, web: float, computers: float, generator: float,
                 machine: float | None) -> dict[str, Any]:
    """Where the processors went while measuring, in cores (CPU seconds per second): the
    server's web and computer-player processes, the load generator, and the whole machine
    with what else ran on it — a round trip measured on a saturated machine waits for the
    processor, whoever takes it."""
    cores = os.cpu_count() or 1
    out: dict[str, Any] = {
        "cores": cores,
        "web cores busy": round(web / elapsed, 2),
        "computer cores busy": round(computers / elapsed, 2),
        "load generator cores busy": round(generator / elapsed, 2),
    }
    if machine is not None:
        out["machine cores busy"] = round(machine / elapsed, 2)
        out["other cores busy"] = round(max(0.0, machine - web - computers - generator)
                                        / elapsed, 2)
    return out


async def _wait_ready(client: Any, base: str, workers: int | None, limit: float) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            r = await client.get(f"{base}/healthz", timeout=2.0)
            if r.status_code == 200:
                info = r.json().get("computers", {})
                if workers is None or info.get("ready", 0) >= min(workers,
                                                                  info.get("workers", 0)):
                    return
        except Exception:
            pass
        await asyncio.sleep(0.2)
    raise RuntimeError(f"the server at {base} did not get ready in {limit:.0f} s")


class Bot:
    """The person at one table (with ``guest``, the first of two people at it)."""

    def __init__(self, run: Run, index: int, guest: Guest | None = None) -> None:
        self.run = run
        self.index = index
        self.rng = random.Random(index)
        self.table: dict[str, Any] | None = None
        self.state: dict[str, Any] | None = None
        self.ws: Any = None
        self.guest = guest

    async def main(self) -> None:
        while not self.run.stopping:
            try:
                await self.new_table()
                await self.play()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.run.stopping:
                    return
                self.run.figures.count(type(exc).__name__)
                await asyncio.sleep(0.5)
            finally:
                if self.ws is not None:
                    with contextlib.suppress(Exception):
                        await self.ws.close()
                    self.ws = None

    def level(self) -> str:
        return self.run.levels[self.index % len(self.run.levels)]

    async def new_table(self) -> None:
        base = self.run.create_base(self.index)
        body: dict[str, Any] = {"game": self.run.game, "level": self.level(),
                                "name": f"Bot {self.index}"}
        if self.run.game == "pinochle2":
            lv = self.level()
            body["options"] = {"level": lv if lv in ("1", "2", "3", "4") else "4"}
        if self.guest is not None:
            body["humans"] = [0, 1]
        r = await self.run.http.post(f"{base}/api/tables", json=body, timeout=30.0)
        if r.status_code != 200:
            self.run.figures.count(f"http {r.status_code}")
            await asyncio.sleep(1.0)
            raise RuntimeError("table not created")
        self.table = r.json()
        self.run.figures.games += 1
        if self.run.measuring:
            self.run.figures.opened += 1
        if self.guest is not None:
            self.run.figures.shared.add(self.table["table"])
            self.guest.tables.put_nowait({"table": self.table["table"],
                                          "token": self.table["tokens"]["1"]})
        await self.connect()

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        assert self.table is not None
        url = self.run.join_url(self.index)
        self.ws = await connect(url, open_timeout=20, max_size=2**22, compression=None,
                                proxy=None)
        await self.ws.send(json.dumps({"type": "join", "table": self.table["table"],
                                       "token": self.table["token"]}))
        self.state = None
        await self.recv_state()

    async def recv_state(self) -> dict[str, Any]:
        from cardplaza.core.delta import rebuild

        while True:
            text = await asyncio.wait_for(self.ws.recv(), REPLY_SECONDS)
            msg = orjson.loads(text)
            if msg.get("type") == "state":
                self.state = rebuild(self.state, msg)
                assert self.table is not None
                tid = self.table["table"]
                self.run.figures.seen_steps[tid] = max(self.run.figures.seen_steps.get(tid, 0),
                                                       self.state["step"])
                return self.state
            if msg.get("type") == "error":
                self.run.figures.count(str(msg.get("code")))
                if msg.get("code") in ("unknown_table", "bad_token", "broken_table"):
                    raise RuntimeError(msg["code"])
                if msg.get("code") == "rate_limited":
                    raise RateLimited

    async def play(self) -> None:
        from websockets.exceptions import ConnectionClosed

        assert self.table is not None
        tid = self.table["table"]
        acked = self.run.figures.acked.setdefault(tid, {})
        while not self.run.stopping:
            state = self.state
            assert state is not None
            if state["terminal"]:
                return
            if state["current"] != state["seat"] or not state["legal"]:
                try:
                    await self.recv_state()
                except RateLimited:
                    pass
                except (ConnectionClosed, OSError):
                    await self.reconnect()
                continue
            choice = state["legal"][self.rng.randrange(len(state["legal"]))]["json"]
            step = state["step"]
            act = orjson.dumps({"type": "act", "action": choice, "step": step}).decode()
            t0 = time.perf_counter()
            try:
                await self.ws.send(act)
                now = state
                while now["step"] <= step:
                    try:
                        now = await self.recv_state()
                    except RateLimited:  # refused, not played: sent again
                        await asyncio.sleep(RETRY_SECONDS)
                        await self.ws.send(act)
                t1 = time.perf_counter()
                acked[step] = choice
                self.run.figures.actions += 1
                moves: list[float] = []
                last = t1
                while not now["terminal"] and now["current"] != now["seat"]:
                    now = await self.recv_state()
                    arrived = time.perf_counter()
                    moves.append(arrived - last)
                    last = arrived
                t2 = time.perf_counter()
            except (ConnectionClosed, OSError):
                await self.reconnect()
                continue
            except RateLimited:  # while the computers moved (no message of ours waited)
                continue
            except TimeoutError:
                self.run.figures.count("time-out")
                await self.reconnect()
                continue
            if self.run.measuring:
                self.run.figures.round_trips.append((t1 - t0) * 1000)
                if not now["terminal"]:
                    self.run.figures.next_turns.append(t2 - t0)
                if self.guest is None and not isinstance(self, Guest):
                    # At a table of two people the other person's moves are no computer's.
                    self.run.figures.computer_moves.extend(moves)

    async def reconnect(self) -> None:
        if self.run.stopping:
            return
        self.run.figures.count("lost connection")
        with contextlib.suppress(Exception):
            await self.ws.close()
        for attempt in range(60):
            if self.run.stopping:
                return
            self.run.rotate(self.index)
            try:
                await self.connect()
                return
            except Exception:
                await asyncio.sleep(min(0.3 * (attempt + 1), 2.0))
        raise RuntimeError("could not reconnect")


class Guest(Bot):
    """The second person at a table of two people: joins each table the first one opens,
    with a seat token of its own, on a connection of its own."""

    def __init__(self, run: Run, index: int) -> None:
        super().__init__(run, index)
        self.tables: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def new_table(self) -> None:
        self.table = await self.tables.get()
        await self.connect()


class Run:
    """One load run."""

    def __init__(self, game: str, levels: list[str], tables: int, seconds: float,
                 bases: list[str], warm: float) -> None:
        self.game = game
        self.levels = levels
        self.tables = tables
        self.seconds = seconds
        self.bases = bases
        self.warm = warm
        self.figures = Figures()
        self.stopping = False
        self.measuring = False
        self.http: Any = None
        self.probe_http: Any = None
        """The ``/healthz`` probes' own connection: never waiting behind a table's creation
        in :attr:`http`'s pool, so their time is the server's."""
        self.offset: dict[int, int] = {}

    def create_base(self, index: int) -> str:
        return self.bases[(index + self.offset.get(index, 0)) % len(self.bases)]

    def join_url(self, index: int) -> str:
        # With two servers, join through the one the table was not created on.
        base = self.bases[(index + 1 + self.offset.get(index, 0)) % len(self.bases)]
        return base.replace("http://", "ws://") + "/ws"

    def rotate(self, index: int) -> None:
        self.offset[index] = self.offset.get(index, 0) + 1

    async def probe(self) -> None:
        while not self.stopping:
            t0 = time.perf_counter()
            if self.measuring:
                self.figures.probes += 1
            try:
                r = await self.probe_http.get(f"{self.bases[0]}/healthz", timeout=10.0)
                if r.status_code == 200 and self.measuring:
                    self.figures.health.append((time.perf_counter() - t0) * 1000)
            except Exception:
                if self.measuring:
                    self.figures.count("healthz")
            await asyncio.sleep(0.1)


async def _run(args: Any, servers: list[ServerProcess], bases: list[str]) -> dict[str, Any]:
    import httpx

    levels = table_levels(args.game, args.level)
    run = Run(args.game, levels, args.tables, args.seconds, bases, args.warm)
    async with httpx.AsyncClient(limits=http_limits()) as http, \
            httpx.AsyncClient(limits=http_limits(1)) as probe_http:
        run.http, run.probe_http = http, probe_http
        for base in bases:
            await _wait_ready(http, base, None if args.url else 99, 900)
        shared = min(args.tables, getattr(args, "shared", 0) or 0)
        guests = [Guest(run, args.tables + i) for i in range(shared)]
        bots: list[Bot] = [Bot(run, i, guests[i] if i < shared else None)
                           for i in range(args.tables)]
        bots += guests
        tasks = [asyncio.create_task(b.main()) for b in bots]
        probe = asyncio.create_task(run.probe())
        killer = asyncio.create_task(_killer(args, servers, run)) if args.kills else None
        await asyncio.sleep(run.warm)
        log_before = await _log_counts(http, bases)
        run.measuring = True
        started = time.perf_counter()
        acted = run.figures.actions
        cpu_before = [s.cpu() for s in servers]
        own_before, machine_before = time.process_time(), machine_busy()
        await asyncio.sleep(run.seconds)
        run.measuring = False
        cpu_after = [s.cpu() for s in servers]
        own = time.process_time() - own_before
        machine_after = machine_busy()
        elapsed = time.perf_counter() - started
        acted = run.figures.actions - acted
        try:
            log_during = between(log_before, await _log_counts(http, bases))
        except ValueError:  # a server restarted (--kills): its counts began again
            log_during = []
        peak = {}
        with contextlib.suppress(Exception):
            peak = (await http.get(f"{bases[0]}/healthz", timeout=10.0)).json()
        run.stopping = True
        if killer is not None:
            killer.cancel()
        for t in [*tasks, probe]:
            t.cancel()
        await asyncio.gather(*tasks, probe, return_exceptions=True)
        apart = None
        if len(servers) == 1 and acted and not args.kills:
            apart = await _calibrate(run, servers[0], min(CALIBRATION_TABLES, args.tables),
                                     args.pause)
    f = run.figures
    kb = peak.get("peak_kb", {})
    out: dict[str, Any] = {
        "game": args.game, "tables": args.tables, "level": ",".join(levels),
        "seconds": round(elapsed, 1), "pause": args.pause, "servers": len(bases),
        "actions": acted, "actions/s": round(acted / elapsed, 1) if elapsed else 0.0,
        "games started": f.games,
        "round trip p50 ms": round(_pct(f.round_trips, 50), 1),
        "round trip p95 ms": round(_pct(f.round_trips, 95), 1),
        "round trip p99 ms": round(_pct(f.round_trips, 99), 1),
        "next turn p50 s": round(_pct(f.next_turns, 50), 2),
        "next turn p95 s": round(_pct(f.next_turns, 95), 2),
        "next turn p99 s": round(_pct(f.next_turns, 99), 2),
        "computer move p50 s": round(_pct(f.computer_moves, 50), 2),
        "computer move p95 s": round(_pct(f.computer_moves, 95), 2),
        "computer move p99 s": round(_pct(f.computer_moves, 99), 2),
        "action log append p50 ms": _bucket(percentile(log_during, 50)),
        "action log append p95 ms": _bucket(percentile(log_during, 95)),
        "healthz p50 ms": round(_pct(f.health, 50), 1),
        "healthz p99 ms": round(_pct(f.health, 99), 1),
        "errors": sum(f.errors.values()), "error kinds": dict(sorted(f.errors.items())),
        "server peak MB": round(kb.get("web", 0) / 1024, 1),
        "computer workers peak MB": round(kb.get("computers", 0) / 1024, 1),
        "computer fallbacks": peak.get("computers", {}).get("fallbacks"),
        "kills": args.kills,
        "tables of two people": min(args.tables, getattr(args, "shared", 0) or 0),
    }
    if servers and acted:
        web = sum(a[0] - b[0] for a, b in zip(cpu_after, cpu_before, strict=True))
        computers = sum(a[1] - b[1] for a, b in zip(cpu_after, cpu_before, strict=True))
        out["web CPU ms per action"] = round(1000 * web / acted, 3)
        out["server CPU ms per action"] = round(1000 * (web + computers) / acted, 3)
        machine = None if machine_before is None or machine_after is None else \
            machine_after - machine_before
        out.update(load_figures(elapsed, web, computers, own, machine))
        if apart is not None:
            idle, probe_cpu, open_cpu = apart
            steady = (web - idle * elapsed - probe_cpu * f.probes - open_cpu * f.opened)
            out["web CPU ms per action (steady state)"] = round(1000 * steady / acted, 3)
            out["excluded from the steady state"] = {
                "idle CPU ms per second": round(1000 * idle, 3),
                "healthz probes": f.probes, "CPU ms per probe": round(1000 * probe_cpu, 3),
                "tables opened": f.opened,
                "CPU ms per table opened (POST, WebSocket, join, first state, close)":
                    round(1000 * open_cpu, 3)}
    if servers and args.kills:
        out["lost acknowledged actions"] = _lost(servers[0].db, f)
        out["acknowledged actions checked"] = sum(len(a) for a in f.acked.values())
        out["of them at tables of two people"] = sum(len(a) for t, a in f.acked.items()
                                                     if t in f.shared)
    return out


CALIBRATION_TABLES = 20
"""Tables opened (and left) after the measured time to measure the CPU of opening one."""
CALIBRATION_PROBES = 40
"""``/healthz`` probes sent after the measured time to measure the CPU of one."""
IDLE_SECONDS = 2.0
"""Seconds of quiet after the measured time to measure the server's CPU when idle."""
SETTLE_SECONDS = 0.5
"""Time allowed for a computer's thinking per move when waiting for the moves under way
to end before the quiet is measured."""


async def _calibrate(run: Run, server: ServerProcess, tables: int,
                     pause: float) -> tuple[float, float, float] | None:
    """After the measured time, with the people gone: the server's web CPU seconds per
    second idle, per ``/healthz`` probe, and per table opened (``POST /api/tables``, the
    WebSocket opened, the join and its first state, the socket closed)."""
    from websockets.asyncio.client import connect

    # The computers' moves under way end: at most one per other seat, each after its pause
    # (and the computer's thinking).
    from cardplaza.core.registry import get_game

    spec = get_game(run.game)
    others = spec.new_game(spec.options_type(), 0).num_players - 1
    await asyncio.sleep((pause + SETTLE_SECONDS) * others + 1.0)
    t0, (c0, _) = time.perf_counter(), server.cpu()
    await asyncio.sleep(IDLE_SECONDS)
    idle = (server.cpu()[0] - c0) / (time.perf_counter() - t0)
    if idle <= 0.0 and server.cpu()[0] == 0.0:
        return None  # /proc cannot be read here
    t0, (c0, _) = time.perf_counter(), server.cpu()
    for _ in range(CALIBRATION_PROBES):
        await run.http.get(f"{server.base}/healthz", timeout=10.0)
    probe = (server.cpu()[0] - c0 - idle * (time.perf_counter() - t0)) / CALIBRATION_PROBES
    t0, (c0, _) = time.perf_counter(), server.cpu()
    ws_url = server.base.replace("http://", "ws://") + "/ws"
    for i in range(tables):
        level = run.levels[i % len(run.levels)]
        body: dict[str, Any] = {"game": run.game, "level": level, "name": f"C {i}"}
        if run.game == "pinochle2":
            body["options"] = {"level": level if level in ("1", "2", "3", "4") else "4"}
        made = (await run.http.post(f"{server.base}/api/tables", json=body,
                                    timeout=30.0)).json()
        async with connect(ws_url, open_timeout=20, max_size=2**22, compression=None,
                           proxy=None) as ws:
            await ws.send(json.dumps({"type": "join", "table": made["table"],
                                      "token": made["token"]}))
            await asyncio.wait_for(ws.recv(), REPLY_SECONDS)
    opened = (server.cpu()[0] - c0 - idle * (time.perf_counter() - t0)) / tables
    return idle, max(0.0, probe), max(0.0, opened)


async def _killer(args: Any, servers: list[ServerProcess], run: Run) -> None:
    """SIGKILL the servers in turn, evenly over the measured time, restarting each."""
    gap = (run.warm + run.seconds) / (args.kills + 1)
    for k in range(args.kills):
        await asyncio.sleep(gap)
        victim = servers[k % len(servers)]
        await asyncio.to_thread(victim.kill)
        run.figures.count("server killed (on purpose)")
        victim.start()


def _lost(db: str, f: Figures) -> int:
    """Acknowledged actions missing from the log, and logs shorter than a step seen."""
    from cardplaza.web.store.storage import Storage

    storage = Storage(db)
    lost = 0
    try:
        for table, acked in f.acked.items():
            row = storage.load_table(table)
            actions = row.actions if row is not None else []
            for index, action in acked.items():
                if index >= len(actions) or actions[index]["action"] != action:
                    lost += 1
            if len(actions) < f.seen_steps.get(table, 0):
                lost += f.seen_steps[table] - len(actions)
    finally:
        storage.close()
    return lost


@contextlib.contextmanager
def _database(choice: str | None, tmp: Path) -> Iterator[str]:
    if choice == "postgres":
        from cardplaza.web.store.pgtemp import temporary_postgres

        with temporary_postgres() as url:
            yield url
    elif choice:
        yield choice
    else:
        yield f"sqlite:///{tmp / 'load.sqlite3'}"




def check_args(args: Any) -> None:
    """Refuse runs that are not bounded or not on this machine."""
    if not 1 <= args.tables <= MAX_TABLES:
        raise SystemExit(f"--tables must be 1–{MAX_TABLES}")
    if not 1 <= args.seconds <= MAX_SECONDS:
        raise SystemExit(f"--seconds must be 1–{MAX_SECONDS:.0f}")
    if args.url:
        host = urlsplit(args.url).hostname or ""
        if host not in LOOPBACK:
            raise SystemExit("--url must be a loopback address (127.0.0.1, localhost, ::1): "
                             "the load benchmark never loads another machine")
        if args.servers != 1 or args.kills:
            raise SystemExit("--servers and --kills need a server started by the benchmark")
    if not 1 <= args.servers <= 4:
        raise SystemExit("--servers must be 1–4")
    if not 0 <= args.kills <= 20:
        raise SystemExit("--kills must be 0–20")
    if not 0 <= (getattr(args, "shared", 0) or 0) <= args.tables:
        raise SystemExit("--shared must be 0 up to --tables")
    if not 0 <= (getattr(args, "workers", None) or 0) <= 16:
        raise SystemExit("--workers must be 1–16")
    if getattr(args, "profile", None) and (args.url or args.servers != 1
                                           or getattr(args, "workers", None)):
        raise SystemExit("--profile needs one server process started by the benchmark "
                         "(no --url, --servers or --workers)")
    if getattr(args, "sweep", None):
        sweep_counts(args.sweep)
    if getattr(args, "humans_per_table", 0):
        if not 1 <= args.humans_per_table <= 7:
            raise SystemExit("--humans-per-table must be 1–7")
        if not 0 <= args.drop_rate <= 60:
            raise SystemExit("--drop-rate must be 0–60 drops per person per minute")
        if not 1 <= args.standin_seconds <= 180:
            raise SystemExit("--standin-seconds must be 1–180")
        if args.servers != 1 or args.kills or getattr(args, "sweep", None):
            raise SystemExit("--humans-per-table runs one server (no --servers, --kills or "
                             "--sweep)")


def sweep_counts(text: str) -> list[int]:
    """``"50,100,200"`` → ``[50, 100, 200]``, each a valid table count."""
    try:
        counts = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise SystemExit("--sweep takes table counts separated by commas, e.g. 50,100,200"
                         ) from None
    if not counts or len(counts) > 12 or any(not 1 <= c <= MAX_TABLES for c in counts):
        raise SystemExit(f"--sweep takes 1–12 table counts, each 1–{MAX_TABLES}")
    return counts


SWEEP_COLUMNS = (("tables", "tables"), ("actions/s", "actions/s"),
                 ("round trip p50 ms", "rt p50 ms"), ("round trip p95 ms", "rt p95 ms"),
                 ("action log append p95 ms", "log p95 ms"), ("next turn p95 s", "turn p95 s"),
                 ("web CPU ms per action", "web ms/act"),
                 ("web CPU ms per action (steady state)", "steady ms/act"),
                 ("server CPU ms per action", "server ms/act"),
                 ("computer cores busy", "computer cores"),
                 ("machine cores busy", "machine cores"), ("errors", "errors"))
"""The figures of a sweep's table, each with its column's heading."""


def run_sweep(args: Any) -> list[dict[str, Any]]:
    """One run per table count of ``args.sweep``, each against a fresh server."""
    rows = []
    for count in sweep_counts(args.sweep):
        one = copy.copy(args)
        one.sweep = None
        one.tables = count
        rows.append(run_loadtest(one))
    return rows


def format_sweep(rows: list[dict[str, Any]]) -> str:
    """The scale curve as a text table."""
    lines = ["  ".join(f"{label:>13}" for _, label in SWEEP_COLUMNS)]
    for r in rows:
        lines.append("  ".join(f"{r.get(key, '—')!s:>13}" for key, _ in SWEEP_COLUMNS))
    return "\n".join(lines)


Runner = Callable[[Any, str, "str | None"], Coroutine[Any, Any, dict[str, Any]]]
"""Another kind of run against the server at an address (with its database URL when the
benchmark started the server): :func:`cardplaza.web.loadtest.shared.run_shared`."""


def run_loadtest(args: Any, runner: Runner | None = None) -> dict[str, Any]:
    """Run the benchmark described by ``args`` (see :func:`main`); returns the figures.
    With ``runner``, that run instead of one person per table, against one server."""
    check_args(args)
    if getattr(args, "in_process", False):
        from cardplaza.web.loadtest.inproc import run_in_process

        figures: dict[str, Any] = run_on_loop(run_in_process(args))
        return figures
    if args.url:
        if runner is not None:
            return run_on_loop(runner(args, args.url.rstrip("/"), None))
        return run_on_loop(_run(args, [], [args.url.rstrip("/")]))
    tmp = Path(tempfile.mkdtemp(prefix="cardplaza-load-"))
    kept = False
    extra = ["--set", f"max_live_tables={max(5_000, 4 * args.tables)}"]
    for pair in LOOPBACK_BUDGETS:
        extra += ["--set", pair]
    if args.ai_workers is not None:
        extra += ["--ai-workers", str(args.ai_workers)]
    if getattr(args, "workers", None):
        extra += ["--workers", str(args.workers)]
    for pair in args.set or []:
        extra += ["--set", pair]
    profile = getattr(args, "profile", None)
    try:
        with _database(args.db, tmp) as db:
            servers = [ServerProcess(db, args.pause, tmp, extra, profile if i == 0 else None)
                       for i in range(args.servers)]
            try:
                for s in servers:
                    s.start()
                if runner is not None:
                    return run_on_loop(runner(args, servers[0].base, db))
                return run_on_loop(_run(args, servers, [s.base for s in servers]))
            finally:
                for s in servers:
                    s.stop()
    except BaseException:
        # The servers' logs tell what went wrong: kept, and said where.
        print(f"cardplaza loadtest: the servers' logs are in {tmp}", file=sys.stderr)
        kept = True
        raise
    finally:
        if not kept:
            shutil.rmtree(tmp, ignore_errors=True)


def format_figures(out: dict[str, Any]) -> str:
    """The figures as lines of text."""
    return "\n".join(f"{k:>26}: {v}" for k, v in out.items())


def main(argv: list[str] | None = None) -> None:
    """``python -m cardplaza.web.loadtest.generator`` (the options of ``cardplaza loadtest``)."""
    import argparse

    p = argparse.ArgumentParser(prog="cardplaza loadtest", description=__doc__.split("\n")[0])
    add_arguments(p)
    args = p.parse_args(argv)
    if args.sweep:
        rows = run_sweep(args)
        print(json.dumps(rows) if args.json else format_sweep(rows))
        return
    out = run_loadtest(args)
    print(json.dumps(out) if args.json else format_figures(out))


def add_arguments(p: Any) -> None:
    """The command-line options."""
    p.add_argument("--tables", type=int, default=20)
    p.add_argument("--level", default="all",
                   help="computer level(s), comma-separated, one per table in turn "
                        "('expert' = the game's strongest)")
    p.add_argument("--seconds", type=float, default=60.0, help="measured time")
    p.add_argument("--pause", type=float, default=0.6, help="the server's computer pause")
    p.add_argument("--game", default="pinochle2")
    p.add_argument("--json", action="store_true")
    p.add_argument("--url", default=None, help="a running server (loopback only)")
    p.add_argument("--warm", type=float, default=10.0, help="seconds before measuring")
    p.add_argument("--servers", type=int, default=1)
    p.add_argument("--kills", type=int, default=0)
    p.add_argument("--shared", type=int, default=0, metavar="N",
                   help="N of the tables have two people (seats 0 and 1), each on a "
                        "connection and seat token of their own")
    p.add_argument("--db", default=None, help="database URL, or 'postgres' for a "
                   "throw-away PostgreSQL cluster (default: SQLite in a temporary directory)")
    p.add_argument("--ai-workers", type=int, default=None)
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--sweep", default=None, metavar="N,N,…",
                   help="one run per table count (the scale curve)")
    p.add_argument("--workers", type=int, default=None, help="the server's web processes")
    p.add_argument("--in-process", action="store_true",
                   help="drive the server's tables directly, no network: the web "
                        "process's own CPU per action (cardplaza.web.loadtest.inproc)")
    p.add_argument("--profile", default=None, metavar="FILE",
                   help="run the server under cProfile and write its statistics to FILE")


if __name__ == "__main__":
    main()
