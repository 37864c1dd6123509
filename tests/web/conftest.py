"""Fixtures for the web tests: a toy game, an app on a temporary database, a client."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cardplaza.core import registry
from cardplaza.web import create_app

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


@pytest.fixture
def client(db_url: str, toy: None) -> Iterator[TestClient]:
    """A test client of an app with no computer pause that deals any requested seed."""
    app = create_app(db_url, computer_pause=0.0, streak_seeds=True)
    with TestClient(app) as c:
        yield c
