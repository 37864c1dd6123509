"""Several server processes on one database: a game started through one process goes on
through another (its messages relayed to the owner), and when the owner is killed with
SIGKILL mid-game the other takes its tables over with no acknowledged action lost."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_helpers import Seat
from websockets.sync.client import connect

from cardplaza.core import fairness
from cardplaza.web.store.storage import Storage

FAST_LEASES = ["--set", "lease_seconds=2", "--set", "heartbeat_seconds=0.4",
               "--set", "ai_warm_up=false", "--set", "rate_per_second=500",
               "--set", "rate_burst=500", "--set", "address_rate_per_second=5000",
               "--set", "address_rate_burst=5000", "--set", "connections_burst_per_address=5000",
               "--set", "log_level=debug"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """One server process of the test."""

    def __init__(self, db: str, tmp: Path, *extra: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}/ws"
        self.log = tmp / f"server-{self.port}.log"
        env = dict(os.environ, XDG_DATA_HOME=str(tmp / "xdg"))
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "cardplaza.web", "--port", str(self.port), "--db", db,
                 "--pause", "0", *FAST_LEASES, *extra], env=env, stdout=out,
                stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                if httpx.get(f"{self.url}/healthz", timeout=0.5).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
            if self.proc.poll() is not None:
                break
        self.stop()
        raise AssertionError(f"server did not start:\n{self.log.read_text()}")

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def text(self) -> str:
        return self.log.read_text(errors="replace")


@pytest.fixture
def servers(pg_db: str, tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    a = Server(pg_db, tmp_path)
    try:
        b = Server(pg_db, tmp_path)
    except BaseException:
        a.stop()
        raise
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()


class Player:
    """A person at one seat: keeps every state it was sent (acknowledged actions)."""

    def __init__(self, url: str, table: dict[str, Any]) -> None:
        self.table = table
        self.acked: dict[int, Any] = {}
        self.connect(url)

    def connect(self, url: str) -> None:
        self.raw = connect(url, open_timeout=10)
        self.seat = Seat(self.raw)
        self.seat.send({"type": "join", "table": self.table["table"],
                        "token": self.table["token"]})
        self.msg = self.state()

    def state(self, timeout: float = 20) -> dict[str, Any]:
        while True:
            msg = self.seat.recv(timeout)
            if msg["type"] == "state":
                return msg
            assert msg["type"] == "error" and msg["code"] in ("stale",), msg

    def my_turn(self) -> dict[str, Any]:
        while not self.msg["terminal"] and self.msg["current"] != self.msg["seat"]:
            self.msg = self.state()
        return self.msg

    def play(self, moves: int) -> None:
        for _ in range(moves):
            msg = self.my_turn()
            if msg["terminal"]:
                return
            action = msg["legal"][-1]["json"]
            self.seat.send({"type": "act", "action": action, "step": msg["step"]})
            while True:
                self.msg = self.state()
                if self.msg["step"] > msg["step"]:
                    break
            self.acked[msg["step"]] = action  # our action is in the state we were sent

    def close(self) -> None:
        self.raw.close()


def check_log(db: str, table: str, acked: dict[int, Any], upto: int) -> None:
    """Every acknowledged action is in the log at its place, and the log has no gaps."""
    storage = Storage(db)
    try:
        row = storage.load_table(table)
    finally:
        storage.close()
    assert row is not None and len(row.actions) >= upto
    for index, action in acked.items():
        assert row.actions[index]["action"] == action, f"acknowledged action {index} lost"


def check_fair(db: str, table: str, fair: dict[str, Any]) -> None:
    """The commitment and log digest a process sent are those of the stored table."""
    storage = Storage(db)
    try:
        row = storage.load_table(table)
    finally:
        storage.close()
    assert row is not None
    first = fairness.commitment(table, 1, row.seed)
    assert fair["commitment"] == fairness.commitment(table, fair["deal"], row.seed)
    assert fair["log"] == fairness.log_digest(table, first, [(a["seat"], a["action"])
                                                             for a in row.actions])


def test_a_game_goes_on_through_another_server(servers: tuple[Server, Server],
                                               pg_db: str) -> None:
    a, b = servers
    r = httpx.post(f"{a.url}/api/tables", json={"game": "pinochle2", "level": "1",
                                                "options": {"level": "1"}, "name": "Ann"})
    assert r.status_code == 200, r.text
    t = r.json()
    p = Player(b.ws, t)  # joined through B: relayed to A, which owns the table
    try:
        p.play(4)
        p.close()
        p.connect(a.ws)  # and straight to the owner
        p.play(3)
        p.close()
        p.connect(b.ws)
        p.play(3)
        step = p.msg["step"]
        assert len(p.acked) == 10
    finally:
        p.close()
    assert f"table {t['table']}: step {step}" in a.text()
    assert f"table {t['table']}: step" not in b.text()  # B only relayed
    check_log(pg_db, t["table"], p.acked, step)


def test_sigkill_of_the_owner_mid_game(servers: tuple[Server, Server], pg_db: str) -> None:
    a, b = servers
    r = httpx.post(f"{a.url}/api/tables", json={"game": "pinochle2", "level": "1",
                                                "options": {"level": "1"}, "name": "Ann"})
    t = r.json()
    relayed = Player(b.ws, t)      # through B
    direct = Player(a.ws, t)       # and the same seat straight on A
    try:
        relayed.play(5)
        before = relayed.msg["fair"]
        a.kill()  # the owner dies mid-game, with no warning
        killed_at = relayed.msg["step"]
        # The relayed client is seated again by B once A's lease runs out: a whole state.
        relayed.msg = relayed.state(timeout=30)
        assert "delta" not in relayed.msg  # seated again: a whole state
        # Computer moves A made after our last acknowledged one may be there too.
        assert relayed.msg["step"] >= killed_at
        resumed_at = relayed.msg["step"]
        # The process that took over sends the same commitment (and digest, at that step).
        assert relayed.msg["fair"]["commitment"] == before["commitment"]
        if resumed_at == killed_at:
            assert relayed.msg["fair"] == before
        relayed.play(5)
        # The direct client lost its socket; it reconnects to B.
        direct.close()
        direct.connect(b.ws)
        assert direct.msg["step"] >= relayed.msg["step"]
        direct.acked = relayed.acked
        while not direct.my_turn()["terminal"]:
            direct.play(1)
        assert direct.msg["terminal"] and len(direct.msg["returns"]) == 2
        check_log(pg_db, t["table"], direct.acked, direct.msg["step"])
        check_fair(pg_db, t["table"], direct.msg["fair"])
    finally:
        relayed.close()
        direct.close()
    # B resumed from the log: every acknowledged action, and at most what the client was then
    # sent (B may make a computer move between reading the log and seating the client).
    resumed = re.findall(rf"table {re.escape(t['table'])}: resumed pinochle2 after (\d+) actions",
                         b.text())
    assert len(resumed) == 1 and killed_at <= int(resumed[0]) <= resumed_at, resumed
