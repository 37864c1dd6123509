"""Fixtures for the web tests: a toy game, an app on a temporary database, a client."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardplaza.core import registry
from cardplaza.web import create_app
from cardplaza.web.settings import Settings

sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture
def toy() -> Iterator[None]:
    """Register the toy game for one test only."""
    from web_toygame import SPEC

    registry.register(SPEC)
    yield
    registry._GAMES.pop("toy", None)


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """A fresh SQLite database."""
    return f"sqlite:///{tmp_path / 'web.sqlite3'}"


FAST = Settings(computer_pause=0.0, streak_seeds=True, rate_per_second=10_000.0,
                rate_burst=10_000, ai_workers=1)
"""Tests play as fast as they can: no message-rate limit to speak of (it has own tests)."""


@pytest.fixture
def client(db_url: str, toy: None) -> Iterator[TestClient]:
    """A test client of an app with no computer pause that deals any requested seed."""
    app = create_app(db_url, settings=FAST)
    with TestClient(app) as c:
        yield c


@pytest.fixture(autouse=True)
def whole_states(monkeypatch: pytest.MonkeyPatch) -> None:
    """Test clients see whole state messages, rebuilt from deltas as ``net.js`` does."""
    from starlette.testclient import WebSocketTestSession

    from cardplaza.web.delta import rebuild

    original = WebSocketTestSession.receive_json

    def receive_json(self: WebSocketTestSession, mode: str = "text") -> Any:
        msg = original(self, mode)  # type: ignore[arg-type]
        if isinstance(msg, dict) and msg.get("type") == "state":
            msg = rebuild(getattr(self, "_cp_state", None), msg)
            self._cp_state = msg  # type: ignore[attr-defined]
        return msg

    monkeypatch.setattr(WebSocketTestSession, "receive_json", receive_json)


def _bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A throw-away PostgreSQL cluster; skipped only when the server binaries are absent."""
    initdb, pg_ctl = _bin("initdb"), _bin("pg_ctl")
    if initdb is None or pg_ctl is None:
        pytest.skip("PostgreSQL server binaries (initdb, pg_ctl) are not installed")
    root = os.geteuid() == 0
    base = Path(tempfile.mkdtemp(prefix="cardplaza-pg-"))
    data = base / "data"
    port = _free_port()

    def run(*cmd: str) -> None:
        full = ["runuser", "-u", "postgres", "--", *cmd] if root else list(cmd)
        subprocess.run(full, check=True, capture_output=True, timeout=60)

    if root:
        shutil.chown(base, "postgres", "postgres")
    run(initdb, "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "-N")
    run(pg_ctl, "-D", str(data), "-l", str(base / "log.txt"), "-w", "-o",
        f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off", "start")
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        run(pg_ctl, "-D", str(data), "-m", "immediate", "stop")
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def pg_db(pg_url: str) -> str:
    """A fresh database in the throw-away PostgreSQL cluster."""
    import secrets

    from sqlalchemy import create_engine, text

    name = f"cp_{secrets.token_hex(6)}"
    engine = create_engine(pg_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    engine.dispose()
    return pg_url.rsplit("/", 1)[0] + f"/{name}"
