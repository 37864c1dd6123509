"""Seconds from the server printing its address to the first expert computer move.

``python scripts/first_move.py [--game pinochle4] [--cache DIR] [--runs N] [--compile]``
starts ``cardplaza serve`` as ``make play`` does (with ``--compile``, ``cardplaza kernels``
first, as ``make play`` runs it before serving: give an empty ``--cache`` to measure a new
machine), waits for the line with the address, then at once opens a table against the
expert through the HTTP API, joins it over the WebSocket, plays the person's turns (the last
legal move) and stops at the first computer move. The server's computer pause (0.6 s by
default) is part of the figure, as a player sees it.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from cardplaza.core.delta import rebuild


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def first_move(game: str, env: dict[str, str], data: Path) -> float:
    """One run: a fresh server and database; the seconds to the first computer move."""
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardplaza", "serve", "--port", str(port), "--db",
         f"sqlite:///{data / f'first-{port}.sqlite3'}"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if "Card Plaza on http" in line:
                break
        else:
            raise SystemExit("the server stopped before it printed its address")
        start = time.perf_counter()
        base = f"http://127.0.0.1:{port}"
        made = httpx.post(f"{base}/api/tables", json={"game": game, "level": "expert",
                                                       "name": "A"}, timeout=60).json()
        with connect(f"ws://127.0.0.1:{port}/ws") as ws:
            ws.send(json.dumps({"type": "join", "table": made["table"],
                                "token": made["token"]}))
            state: dict[str, Any] = rebuild(None, json.loads(ws.recv()))
            sent = -1
            while True:
                if state["current"] == state["seat"] and sent != state["step"]:
                    sent = state["step"]
                    ws.send(json.dumps({"type": "act", "action": state["legal"][-1]["json"],
                                        "step": state["step"]}))
                message = json.loads(ws.recv())
                if message.get("type") != "state":
                    continue
                mover = state["current"]
                state = rebuild(state, message)
                if mover != state["seat"]:
                    return time.perf_counter() - start
    finally:
        proc.terminate()
        proc.wait(20)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="pinochle4")
    p.add_argument("--cache", help="the kernel cache folder (default: the user's)")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--compile", action="store_true",
                   help="run `cardplaza kernels` first, as `make play` does")
    args = p.parse_args()
    env = dict(os.environ)
    if args.cache:
        env["CARDPLAZA_KERNEL_CACHE"] = args.cache
    if args.compile:
        began = time.perf_counter()
        subprocess.run([sys.executable, "-m", "cardplaza", "kernels"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        print(f"cardplaza kernels: {time.perf_counter() - began:.1f} s")
    with tempfile.TemporaryDirectory() as tmp:
        env["XDG_DATA_HOME"] = tmp
        for run in range(args.runs):
            seconds = first_move(args.game, env, Path(tmp))
            print(f"run {run + 1}: first computer move {seconds:.2f} s after the address")


if __name__ == "__main__":
    main()
