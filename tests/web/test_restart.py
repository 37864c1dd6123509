"""Persistence: a table survives a real server process being killed and restarted."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
from web_helpers import Seat
from web_servers import free_port, wait_healthy
from websockets.sync.client import connect


def start_server(port: int, db: str, tmp: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, XDG_DATA_HOME=str(tmp / "xdg"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardplaza.web", "--port", str(port), "--db", db,
         "--pause", "0", "--set", "lease_seconds=2", "--set",
         "ai_warm_up=false", "--set", "log_level=debug"], env=env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT)
    if wait_healthy(f"http://127.0.0.1:{port}", proc, 20):
        return proc
    proc.kill()
    out = proc.stdout.read().decode() if proc.stdout else ""
    raise AssertionError(f"server did not start:\n{out}")


def recv_state(ws: Seat) -> dict[str, Any]:
    msg = ws.recv()
    assert msg["type"] == "state", msg
    return msg


def play_until_my_turn(ws: Seat, msg: dict[str, Any]) -> dict[str, Any]:
    while not msg["terminal"] and msg["current"] != msg["seat"]:
        msg = recv_state(ws)
    return msg


def test_table_resumes_after_sigkill(tmp_path: Path) -> None:
    port = free_port()
    db = f"sqlite:///{tmp_path / 'restart.sqlite3'}"
    proc = start_server(port, db, tmp_path)
    base = f"http://127.0.0.1:{port}"
    try:
        r = httpx.post(f"{base}/api/tables", json={"game": "pinochle2", "seed": 77,
                                                   "options": {"level": "1"},
                                                   "level": "random", "name": "Ann"})
        assert r.status_code == 200, r.text
        t = r.json()
        with connect(f"ws://127.0.0.1:{port}/ws") as raw:
            ws = Seat(raw)
            ws.send({"type": "join", "table": t["table"], "token": t["token"]})
            msg = play_until_my_turn(ws, recv_state(ws))
            for _ in range(6):
                ws.send({"type": "act", "action": msg["legal"][0]["json"],
                         "step": msg["step"]})
                msg = play_until_my_turn(ws, recv_state(ws))
            before = msg
        assert before["step"] >= 6
        out_before = proc
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    log = out_before.stdout.read().decode() if out_before.stdout else ""
    assert f"table {t['table']}: created pinochle2" in log
    assert f"table {t['table']}: step 1 seat 0" in log

    proc = start_server(port, db, tmp_path)
    try:
        with connect(f"ws://127.0.0.1:{port}/ws") as raw:
            ws = Seat(raw)
            ws.send({"type": "join", "table": t["table"], "token": t["token"]})
            after = recv_state(ws)
            assert after["step"] == before["step"]
            assert after["obs"] == before["obs"]
            assert after["legal"] == before["legal"]
            msg = after
            while not msg["terminal"]:
                msg = play_until_my_turn(ws, msg)
                if msg["terminal"]:
                    break
                ws.send({"type": "act", "action": msg["legal"][-1]["json"],
                         "step": msg["step"]})
                msg = recv_state(ws)
            assert msg["terminal"] and len(msg["returns"]) == 2
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    log = proc.stdout.read().decode() if proc.stdout else ""
    assert f"table {t['table']}: resumed pinochle2 after {before['step']} actions" in log
    assert f"table {t['table']}: finished" in log
