"""Fixtures for the web tests: a toy game, an app on a temporary database, a client."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardplaza.core import registry
from cardplaza.web import create_app

sys.path.insert(0, str(Path(__file__).resolve().parent))

from web_helpers import FAST
from web_servers import Server, ServerPairs, fresh_pg_db


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

    from cardplaza.core.delta import rebuild

    original = WebSocketTestSession.receive_json

    def receive_json(self: WebSocketTestSession, mode: str = "text") -> Any:
        msg = original(self, mode)  # type: ignore[arg-type]
        if isinstance(msg, dict) and msg.get("type") == "state":
            msg = rebuild(getattr(self, "_cp_state", None), msg)
            self._cp_state = msg  # type: ignore[attr-defined]
        return msg

    monkeypatch.setattr(WebSocketTestSession, "receive_json", receive_json)


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A throw-away PostgreSQL cluster; skipped only when the server binaries are absent."""
    from cardplaza.web.store import pgtemp

    if not pgtemp.available():
        pytest.skip("PostgreSQL server binaries (initdb, pg_ctl) are not installed")
    with pgtemp.temporary_postgres() as url:
        yield url


@pytest.fixture
def pg_db(pg_url: str) -> str:
    """A fresh database in the throw-away PostgreSQL cluster."""
    return fresh_pg_db(pg_url)


@pytest.fixture(scope="module")
def server_pairs(pg_url: str, tmp_path_factory: pytest.TempPathFactory
                 ) -> Iterator[ServerPairs]:
    """Two server processes on one fresh PostgreSQL database, shared by a module's tests
    that each play tables of their own; started again (both, on a new database) after a
    test killed one of them."""
    pairs = ServerPairs(lambda: fresh_pg_db(pg_url), tmp_path_factory.mktemp("pairs"))
    try:
        yield pairs
    finally:
        pairs.close()


@pytest.fixture
def shared_servers(server_pairs: ServerPairs) -> tuple[Server, Server, str]:
    """Two running server processes of :func:`server_pairs` and their database."""
    return server_pairs.get()
