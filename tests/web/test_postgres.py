"""Storage on a real PostgreSQL server started for the test (initdb + pg_ctl)."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cardplaza.web import create_app
from cardplaza.web.storage import Storage, StreakRow


def _bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
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


def test_tables_and_streaks_on_postgres(pg_url: str) -> None:
    storage = Storage(pg_url)
    _key, ann = storage.new_player("Ann")
    storage.save_streak(StreakRow(ann.id, 2, 150, 20_150))
    storage.save_streak(StreakRow(ann.id, 3, 300, 30_300))
    assert storage.load_streak(ann.id).best == 30_300
    assert [(r.best, p.name) for r, p in storage.high_scores()] == [(30_300, "Ann")]
    storage.close()

    app = create_app(pg_url, computer_pause=0.0)
    with TestClient(app) as client:
        r = client.post("/api/tables", json={"game": "pinochle2", "seed": 2**40 + 5,
                                             "options": {"level": "1"}})
        assert r.status_code == 200, r.text
        t = r.json()
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": t["table"], "token": t["token"]})
            msg = ws.receive_json()
            for _ in range(4):
                while msg["current"] != msg["seat"]:
                    msg = ws.receive_json()
                ws.send_json({"type": "act", "action": msg["legal"][0]["json"],
                              "step": msg["step"]})
                msg = ws.receive_json()
            while msg["current"] != msg["seat"]:
                msg = ws.receive_json()
        before = msg
    # A new app on the same database resumes the table by replaying its record.
    app = create_app(pg_url, computer_pause=0.0)
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": t["table"], "token": t["token"]})
        after = ws.receive_json()
        assert after["step"] == before["step"] and after["obs"] == before["obs"]
