"""The load benchmark with people at shared tables (``--humans-per-table N --drop-rate R``).

Each table is a room: its first person makes it (``POST /api/rooms``, the other seats
open, or computers beyond ``N``), the others take the open seats with the room code, the
first starts the game; when a game ends the same people make a new room. Every person
plays a random legal action as soon as it is their turn, and **drops their connection at
random**: ``R`` is the rate of drops per person per minute while connected (a Poisson
process: the time to the next drop is exponential with mean ``60 / R`` seconds). A dropped
person comes back after a time drawn uniformly from 1 s to twice ``standin_seconds`` (so
about half the absences are long enough for a computer to stand in, and the person then
takes the seat back) and joins again with their seat token.

Measured (the server runs with ``standin_seconds`` set short, ``--standin-seconds``):

* **stuck tables**: waits for an absent person longer than ``standin_seconds + 2`` s. A
  wait starts when the table is to act at an absent person's seat while someone else of
  the table is connected, from the latest of: the state that made it that seat's turn, the
  person's drop, and the moment someone came back to a table everybody had left (the
  server then starts the countdown afresh: with nobody at a table no computer stands in);
  it ends with the next step. Must be 0.
* **lost acknowledged actions**: a person's action counts as acknowledged when the state
  after it names it as that seat's move made by the person (``room.move``: not a
  stand-in's, and the same JSON form where the move is public; an action of the person's
  dropped connection may have been on its way for the same step, and a refusal of ours
  that follows takes the acknowledgement back); at the end each one is looked up in the
  database's log (and no log is shorter than a step seen). Must be 0.
* throughput: the people's acknowledged actions per second and the tables' steps per
  second (people, stand-ins and computers), games finished, drops, stand-in moves,
  hand-backs, the longest wait for an absent person, and errors.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import orjson

from cardplaza.web.loadtest.common import MAX_TABLES, http_limits
from cardplaza.web.loadtest.generator import (
    REPLY_SECONDS,
    Figures,
    _lost,
    _pct,
    _wait_ready,
    check_args,
    run_loadtest,
)

SLACK_SECONDS = 2.0
"""A wait for an absent person longer than ``standin_seconds`` plus this is a stuck table."""


@dataclass
class SharedFigures:
    """What a run with shared tables measured."""

    base: Figures = field(default_factory=Figures)
    """Acknowledged actions and steps seen (for the lost-action check), errors."""
    person_actions: int = 0
    steps: int = 0
    games_finished: int = 0
    drops: int = 0
    standin_moves: int = 0
    handbacks: int = 0
    stuck: int = 0
    waits: list[float] = field(default_factory=list)
    longest_wait: float = 0.0
    lags: list[float] = field(default_factory=list)
    """How late the load generator's own loop woke up (its waits are that much longer)."""
    stuck_at: list[dict[str, Any]] = field(default_factory=list)
    """The first stuck waits: table, step, seat, seconds waited (for the server's log)."""


def _lost_details(db: str, f: Figures) -> list[dict[str, Any]]:
    """The first few acknowledged actions the log lacks (or holds otherwise)."""
    from cardplaza.web.store.storage import Storage

    storage = Storage(db)
    out: list[dict[str, Any]] = []
    try:
        for table, acked in f.acked.items():
            row = storage.load_table(table)
            actions = row.actions if row is not None else []
            for index, action in sorted(acked.items()):
                stored = actions[index] if index < len(actions) else None
                if stored is None or stored["action"] != action:
                    out.append({"table": table, "step": index, "acked": action,
                                "log": stored, "log length": len(actions),
                                "seen": f.seen_steps.get(table)})
            if len(actions) < f.seen_steps.get(table, 0):
                out.append({"table": table, "log length": len(actions),
                            "seen": f.seen_steps[table]})
            if len(out) >= 5:
                break
    finally:
        storage.close()
    return out


class Person:
    """One simulated person at a shared table."""

    def __init__(self, table: SharedTable, index: int) -> None:
        self.table = table
        self.run = table.run
        self.index = index
        self.rng = random.Random(table.index * 101 + index)
        self.token = ""
        self.present = False
        self.dropped_at = 0.0
        self.joined_at = 0.0
        self.ws: Any = None
        self.state: dict[str, Any] | None = None
        self.pending: tuple[int, Any] | None = None
        self.last_ack: int | None = None
        """The step of the last action acknowledged (until the next is sent)."""

    async def play(self) -> None:
        """Play the table's current game, dropping and coming back, until it ends."""
        from websockets.exceptions import ConnectionClosed

        run, table = self.run, self.table
        rate = run.drop_rate / 60.0
        while not run.stopping and not table.over.is_set():
            try:
                await self._connect()
            except Exception:
                run.figures.base.count("connect failed")
                await asyncio.sleep(0.5)
                continue
            drop_at = time.monotonic() + (self.rng.expovariate(rate) if rate > 0
                                          else float("inf"))
            try:
                while not table.over.is_set() and not run.stopping:
                    left = drop_at - time.monotonic()
                    if left <= 0:
                        break
                    try:
                        text = await asyncio.wait_for(self.ws.recv(), min(left, REPLY_SECONDS))
                    except TimeoutError:
                        continue
                    await self._message(orjson.loads(text))
            except (ConnectionClosed, OSError):
                run.figures.base.count("lost connection")
            await self._leave()
            if table.over.is_set() or run.stopping:
                return
            # Away for a while (the game may end meanwhile).
            run.figures.drops += 1
            away = self.rng.uniform(1.0, 2.0 * run.standin)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(table.over.wait(), away)

    async def _connect(self) -> None:
        from websockets.asyncio.client import connect

        self.ws = await connect(self.run.ws_url, open_timeout=20, max_size=2**22,
                                compression=None, proxy=None)
        self.joined_at = time.monotonic()
        await self.ws.send(json.dumps({"type": "join", "table": self.table.table_id,
                                       "token": self.token}))
        self.state = None
        self.pending = None
        self.last_ack = None

    async def _leave(self) -> None:
        if self.present or self.ws is not None:
            # The server may have seated a connection whose first state had not been read
            # yet: its countdown starts afresh from this drop.
            self.present = False
            self.dropped_at = time.monotonic()
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
            self.ws = None

    async def _message(self, msg: dict[str, Any]) -> None:
        from cardplaza.core.delta import rebuild

        f = self.run.figures
        kind = msg.get("type")
        if kind == "notice":
            if msg.get("kind") == "back" and msg.get("seat") == self.table.seat_of(self):
                f.handbacks += 1
            if msg.get("kind") == "standin":
                self.table.standin_told = time.monotonic()
            return
        if kind == "error":
            code = str(msg.get("code"))
            f.base.count(code)
            if code in ("stale", "not_your_turn", "undo_pending"):
                self.pending = None
                if self.last_ack is not None:
                    f.base.acked.get(self.table.table_id, {}).pop(self.last_ack, None)
                    self.last_ack = None
            return
        if kind != "state":
            return
        state = rebuild(self.state, msg)
        self.state = state
        if not self.present:
            self.present = True
            if not any(p.present for p in self.table.people if p is not self):
                # Someone is back at a table everybody had left: the server's countdowns
                # start again, at the latest from when this join was sent.
                self.table.back_at = self.joined_at
        self.table.saw(state)
        step = state["step"]
        if self.pending is not None and step > self.pending[0]:
            at, action = self.pending
            self.pending = None
            move = (state.get("room") or {}).get("move") or {}
            # Ours, unless another connection of this person (one that dropped) had an
            # action for this step on its way: then the move's JSON form differs, or
            # (a hidden move) our action's refusal follows and takes the ack back.
            if step == at + 1 and move.get("step") == at and not move.get("standin") \
                    and move.get("seat") == state["seat"] \
                    and move.get("json", action) == action:
                f.base.acked.setdefault(self.table.table_id, {})[at] = action
                self.last_ack = at
                if self.run.measuring:
                    f.person_actions += 1
        if state["terminal"]:
            self.table.finish()
            return
        if state["current"] == state["seat"] and state["legal"] and self.pending is None \
                and not (state.get("room") or {}).get("undo"):
            choice = state["legal"][self.rng.randrange(len(state["legal"]))]["json"]
            self.pending = (step, choice)
            self.last_ack = None
            await self.ws.send(json.dumps({"type": "act", "action": choice, "step": step}))


class SharedTable:
    """One room table with its people, game after game."""

    def __init__(self, run: SharedRun, index: int) -> None:
        self.run = run
        self.index = index
        self.people = [Person(self, i) for i in range(run.humans)]
        self.seats: list[int] = []
        self.table_id = ""
        self.over = asyncio.Event()
        self.latest: dict[str, Any] | None = None
        self.step_at = 0.0
        self.back_at = 0.0
        self.wait_since: float | None = None
        self.stuck_now = False
        self.moves_seen: set[int] = set()
        self.standin_told = 0.0
        """When a person here was last told that a computer stands in for another."""

    def seat_of(self, person: Person) -> int:
        """The seat a person holds."""
        return self.seats[person.index] if self.seats else -1

    def person_at(self, seat: int) -> Person | None:
        """The person holding ``seat`` (``None``: a computer's seat)."""
        for person, s in zip(self.people, self.seats, strict=False):
            if s == seat:
                return person
        return None

    def saw(self, state: dict[str, Any]) -> None:
        """A state arrived at one of the people: the table's freshest view."""
        f = self.run.figures
        tid = self.table_id
        f.base.seen_steps[tid] = max(f.base.seen_steps.get(tid, 0), state["step"])
        if self.latest is None or state["step"] > self.latest["step"]:
            if self.latest is not None and self.run.measuring:
                f.steps += state["step"] - self.latest["step"]
            self.latest = state
            self.step_at = time.monotonic()
            self._end_wait()
        elif state["step"] == self.latest["step"]:
            self.latest = state
        move = (state.get("room") or {}).get("move") or {}
        if move.get("standin") and move.get("step") not in self.moves_seen:
            self.moves_seen.add(int(move["step"]))
            if self.run.measuring:
                f.standin_moves += 1

    def finish(self) -> None:
        """The game ended."""
        if not self.over.is_set():
            self.over.set()
            if self.run.measuring:
                self.run.figures.games_finished += 1

    def _end_wait(self) -> None:
        if self.wait_since is not None and self.run.measuring:
            self.run.figures.waits.append(time.monotonic() - self.wait_since)
        self.wait_since = None
        self.stuck_now = False

    def check(self, now: float) -> None:
        """Is the table waiting for an absent person, and for how long?"""
        state = self.latest
        if state is None or state["terminal"] or self.over.is_set():
            self._end_wait()
            return
        absent = self.person_at(state["current"])
        if absent is None or absent.present or not any(p.present for p in self.people):
            self._end_wait()
            return
        start = max(self.step_at, absent.dropped_at, self.back_at)
        if self.wait_since is None or start > self.wait_since:
            self.wait_since = start
            self.stuck_now = False
        waited = now - self.wait_since
        f = self.run.figures
        if self.run.measuring:
            f.longest_wait = max(f.longest_wait, waited)
            if waited > self.run.standin + SLACK_SECONDS and not self.stuck_now:
                self.stuck_now = True
                f.stuck += 1
                if len(f.stuck_at) < 10:
                    told = self.standin_told - self.wait_since
                    f.stuck_at.append({"table": self.table_id, "step": state["step"],
                                       "seat": state["current"],
                                       "since": time.strftime("%H:%M:%S", time.localtime(
                                           time.time() - waited)),
                                       "stand-in told after s": round(told, 2)
                                       if told >= 0 else None})

    async def main(self) -> None:
        """Games one after another."""
        while not self.run.stopping:
            try:
                await self.new_game()
                await asyncio.gather(*(p.play() for p in self.people))
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.run.stopping:
                    return
                self.run.figures.base.count(type(exc).__name__)
                await asyncio.sleep(0.5)
            finally:
                for p in self.people:
                    await p._leave()

    async def new_game(self) -> None:
        """A new room with these people, started."""
        run = self.run
        http = run.http
        n = run.seat_count
        kinds = ["me"] + ["open"] * (run.humans - 1) + ["computer"] * (n - run.humans)
        body = {"game": run.game, "name": f"P{self.index}-0", "seats": kinds,
                "config": {"level": run.level, "standin_seconds": run.standin}}
        r = await http.post(f"{run.base}/api/rooms", json=body, timeout=30.0)
        if r.status_code != 200:
            run.figures.base.count(f"http {r.status_code}")
            raise RuntimeError("room not made")
        room = r.json()
        self.people[0].token = room["token"]
        seats = [int(room["seat"])]
        for i, person in enumerate(self.people[1:], 1):
            r = await http.post(f"{run.base}/api/rooms/join", timeout=30.0, json={
                "secret": room["code"], "seat": i, "name": f"P{self.index}-{i}"})
            if r.status_code != 200:
                run.figures.base.count(f"http {r.status_code}")
                raise RuntimeError("seat not taken")
            person.token = r.json()["token"]
            seats.append(int(r.json()["seat"]))
        r = await http.post(f"{run.base}/api/rooms/{room['room']}/start", json={},
                            headers={"X-Player-Key": room["key"]}, timeout=30.0)
        if r.status_code != 200:
            run.figures.base.count(f"http {r.status_code}")
            raise RuntimeError("room not started")
        self.seats = seats
        self.table_id = r.json()["table"]
        self.over = asyncio.Event()
        self.latest = None
        self.wait_since = None
        self.moves_seen = set()
        self.back_at = time.monotonic()
        for p in self.people:
            p.present = False
            p.dropped_at = 0.0
        run.figures.base.games += 1


class SharedRun:
    """One run with shared tables."""

    def __init__(self, args: Any, base: str, seat_count: int) -> None:
        self.game = args.game
        self.level = args.level.split(",")[0].strip()
        self.humans = args.humans_per_table
        self.drop_rate = args.drop_rate
        self.standin = int(args.standin_seconds)
        self.base = base
        self.ws_url = base.replace("http://", "ws://") + "/ws"
        self.seat_count = seat_count
        self.figures = SharedFigures()
        self.stopping = False
        self.measuring = False
        self.http: Any = None

    async def watch(self, tables: list[SharedTable]) -> None:
        """Check every table four times a second; note how late this loop wakes up (a
        busy machine delays the generator's own reading too)."""
        while not self.stopping:
            now = time.monotonic()
            for t in tables:
                t.check(now)
            await asyncio.sleep(0.25)
            if self.measuring:
                self.figures.lags.append(time.monotonic() - now - 0.25)


def run_shared_loadtest(args: Any) -> dict[str, Any]:
    """The benchmark with shared tables (``args`` as :func:`.generator.run_loadtest`'s,
    with ``humans_per_table``, ``drop_rate`` and ``standin_seconds``): its server runs with
    ``standin_seconds`` set and the room budgets of one address lifted."""
    import copy

    check_args(args)
    secs = int(args.standin_seconds)
    one = copy.copy(args)
    one.set = [f"standin_seconds={secs}", f"standin_min_seconds={min(secs, 30)}",
               f"max_rooms_per_address={100 * MAX_TABLES}",
               f"max_rooms_per_player={100 * MAX_TABLES}",
               f"room_lookups_per_minute={600 * MAX_TABLES}", *(args.set or [])]
    return run_loadtest(one, run_shared)


async def run_shared(args: Any, base: str, db: str | None) -> dict[str, Any]:
    """A run of ``args.tables`` shared tables against the server at ``base``."""
    import httpx

    from cardplaza.core.registry import get_game

    spec = get_game(args.game)
    seat_count = spec.new_game(spec.options_type(), 0).num_players
    if not 1 <= args.humans_per_table <= seat_count:
        raise SystemExit(f"--humans-per-table must be 1–{seat_count} for {args.game}")
    run = SharedRun(args, base, seat_count)
    if run.level not in spec.levels:
        raise SystemExit(f"unknown level {run.level!r} for {args.game}: "
                         f"{', '.join(spec.levels)}")
    async with httpx.AsyncClient(limits=http_limits()) as http:
        run.http = http
        # With a server of its own, the computers (who stand in) are ready first.
        await _wait_ready(http, base, None if db is None else 99, 900)
        tables = [SharedTable(run, i) for i in range(args.tables)]
        tasks = [asyncio.create_task(t.main()) for t in tables]
        watch = asyncio.create_task(run.watch(tables))
        await asyncio.sleep(args.warm)
        run.measuring = True
        started = time.perf_counter()
        await asyncio.sleep(args.seconds)
        run.measuring = False
        elapsed = time.perf_counter() - started
        run.stopping = True
        for t in [*tasks, watch]:
            t.cancel()
        await asyncio.gather(*tasks, watch, return_exceptions=True)
    f = run.figures
    out: dict[str, Any] = {
        "game": args.game, "tables": args.tables, "humans per table": args.humans_per_table,
        "drop rate per person per minute": args.drop_rate,
        "standin seconds": run.standin, "level": run.level, "pause": args.pause,
        "seconds": round(elapsed, 1),
        "stuck tables (wait > standin + 2 s)": f.stuck,
        "longest wait for an absent person s": round(f.longest_wait, 2),
        "wait for an absent person p50 s": round(_pct(f.waits, 50), 2),
        "wait for an absent person p95 s": round(_pct(f.waits, 95), 2),
        "generator loop lag p99 s": round(_pct(f.lags, 99), 2),
        "generator loop lag max s": round(max(f.lags, default=0.0), 2),
        "person actions": f.person_actions,
        "person actions/s": round(f.person_actions / elapsed, 1) if elapsed else 0.0,
        "table steps/s": round(f.steps / elapsed, 1) if elapsed else 0.0,
        "games started": f.base.games, "games finished": f.games_finished,
        "drops": f.drops, "stand-in moves": f.standin_moves, "hand-backs": f.handbacks,
        "errors": sum(f.base.errors.values()),
        "error kinds": dict(sorted(f.base.errors.items())),
    }
    if f.stuck_at:
        out["stuck waits"] = f.stuck_at
    if db is not None:
        out["lost acknowledged actions"] = await asyncio.to_thread(_lost, db, f.base)
        if out["lost acknowledged actions"]:
            out["lost details"] = await asyncio.to_thread(_lost_details, db, f.base)
        out["acknowledged actions checked"] = sum(len(a) for a in f.base.acked.values())
    return out
