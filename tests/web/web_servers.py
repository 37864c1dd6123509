"""Server processes of a test: started on a free port against one database, killed or
stopped, their log read."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

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


def wait_healthy(url: str, proc: subprocess.Popen[Any], seconds: float = 180) -> bool:
    """Wait until the server at ``url`` answers ``/healthz``; False if it did not in
    ``seconds`` or its process ended."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            if httpx.get(f"{url}/healthz", timeout=0.5).status_code == 200:
                return True
        except httpx.HTTPError:
            time.sleep(0.1)
        if proc.poll() is not None:
            return False
    return False


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
        if wait_healthy(self.url, self.proc):
            return
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


def fresh_pg_db(pg_url: str) -> str:
    """A new database in the throw-away PostgreSQL cluster at ``pg_url``."""
    import secrets

    from sqlalchemy import create_engine, text

    name = f"cp_{secrets.token_hex(6)}"
    engine = create_engine(pg_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    engine.dispose()
    return pg_url.rsplit("/", 1)[0] + f"/{name}"


class ServerPairs:
    """Two server processes on one fresh database, shared by the tests of a module (a pair
    takes several seconds to start): each test plays tables of its own. A test that killed
    one of them leaves the pair to be replaced, both, on a new database, when the next test
    asks."""

    def __init__(self, new_db: Callable[[], str], tmp: Path) -> None:
        self.new_db = new_db
        self.tmp = tmp
        self.pair: tuple[Server, Server] | None = None
        self.db = ""

    def get(self) -> tuple[Server, Server, str]:
        """Two running servers and their database."""
        if self.pair is not None and all(s.proc.poll() is None for s in self.pair):
            return (*self.pair, self.db)
        self.close()
        self.db = self.new_db()
        a = Server(self.db, self.tmp)
        try:
            b = Server(self.db, self.tmp)
        except BaseException:
            a.stop()
            raise
        self.pair = (a, b)
        return (a, b, self.db)

    def close(self) -> None:
        """Stop both servers (nothing if none runs)."""
        if self.pair is not None:
            (a, b), self.pair = self.pair, None
            try:
                a.stop()
            finally:
                b.stop()


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
