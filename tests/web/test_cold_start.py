"""A first game on a machine whose kernel cache is empty: the computers do not wait for a
compiler (their search runs as Python until the kernels are ready, within its time cap)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from web_helpers import Seat
from web_servers import free_port, wait_healthy
from websockets.sync.client import connect


def _start(port: int, tmp: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, XDG_DATA_HOME=str(tmp / "xdg"),
               CARDPLAZA_KERNEL_CACHE=str(tmp / "empty-kernel-cache"))
    env.pop("CARDPLAZA_NO_JIT", None)
    return subprocess.Popen(
        [sys.executable, "-m", "cardplaza.web", "--port", str(port), "--db",
         f"sqlite:///{tmp / 'cold.sqlite3'}", "--pause", "0", "--ai-workers", "1"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def test_first_expert_moves_come_at_once_with_an_empty_kernel_cache(tmp_path: Path) -> None:
    port = free_port()
    proc = _start(port, tmp_path)
    base = f"http://127.0.0.1:{port}"
    moves: list[float] = []
    try:
        assert wait_healthy(base, proc)
        r = httpx.post(f"{base}/api/tables", json={"game": "pinochle4", "seed": 5,
                                                   "level": "expert", "name": "Ann"})
        assert r.status_code == 200, r.text
        t = r.json()
        with connect(f"ws://127.0.0.1:{port}/ws") as raw:
            ws = Seat(raw)
            ws.send({"type": "join", "table": t["table"], "token": t["token"]})
            msg: dict[str, Any] = ws.recv()
            last = time.perf_counter()
            while len(moves) < 6:
                if msg["type"] != "state":
                    msg = ws.recv()
                    continue
                if msg["current"] == msg["seat"]:
                    ws.send({"type": "act", "action": msg["legal"][-1]["json"],
                             "step": msg["step"]})
                    last = time.perf_counter()
                    msg = ws.recv()
                    continue
                msg = ws.recv()
                now = time.perf_counter()
                if msg["type"] == "state":
                    moves.append(now - last)
                    last = now
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            out = proc.communicate(timeout=20)[0].decode(errors="replace")
        except subprocess.TimeoutExpired:
            proc.kill()
            out = proc.communicate()[0].decode(errors="replace")
    # No decision waited for the compiler past its deadline (the quick level never stood
    # in): the Python search takes its normal cap, a fraction of a second of CPU, where a
    # compiler takes minutes.
    assert "missed its" not in out, out
    assert sorted(moves)[len(moves) // 2] < 6.0 and max(moves) < 8.0, (moves, out)
