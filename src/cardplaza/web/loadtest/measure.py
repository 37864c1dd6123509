"""Measure the WebSocket round trip of an action on a real server process.

``python -m cardplaza.web.loadtest.measure [--actions 200] [--game pinochle2]`` starts the
server on a free port (SQLite in a temporary directory, no computer pause), seats people at
every seat, and times each action from sending it to receiving the acting seat's new state (which
includes storing the game record in the database). Prints the median and percentiles.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Any


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        data: dict[str, Any] = json.loads(r.read())
    return data


def measure(actions: int, game: str) -> list[float]:
    """Round-trip times in milliseconds of ``actions`` actions."""
    from websockets.sync.client import connect

    from cardplaza.core.delta import rebuild

    port = _free_port()
    tmp = tempfile.mkdtemp(prefix="cardplaza-rtt-")
    env = dict(os.environ, XDG_DATA_HOME=tmp)
    proc = subprocess.Popen([sys.executable, "-m", "cardplaza.web", "--port", str(port),
                             "--pause", "0", "--db", f"sqlite:///{tmp}/rtt.sqlite3",
                             "--streak-seeds"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180  # the server answers once its computers are ready
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"{base}/healthz", timeout=0.5)
                break
            except OSError:
                time.sleep(0.1)
        rng = random.Random(1)
        times: list[float] = []
        seed = 0
        while len(times) < actions:
            seed += 1
            t = _post(f"{base}/api/tables", {"game": game, "seed": seed, "humans": [0, 1],
                                             "options": {"level": "1"} if game == "pinochle2"
                                             else {}})
            stack = contextlib.ExitStack()
            socks = [stack.enter_context(connect(f"ws://127.0.0.1:{port}/ws")) for _ in range(2)]
            msgs = []
            for s, ws in enumerate(socks):
                ws.send(json.dumps({"type": "join", "table": t["table"],
                                    "token": t["tokens"][str(s)]}))
                msgs.append(rebuild(None, json.loads(ws.recv())))
            while not msgs[0]["terminal"] and len(times) < actions:
                cur = msgs[0]["current"]
                legal = msgs[cur]["legal"]
                action = legal[rng.randrange(len(legal))]["json"]
                start = time.perf_counter()
                socks[cur].send(json.dumps({"type": "act", "action": action,
                                            "step": msgs[cur]["step"]}))
                reply = rebuild(msgs[cur], json.loads(socks[cur].recv()))
                times.append((time.perf_counter() - start) * 1000)
                msgs[cur] = reply
                other = 1 - cur
                msgs[other] = rebuild(msgs[other], json.loads(socks[other].recv()))
            stack.close()
        return times
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv: list[str] | None = None) -> None:
    """Run the measurement and print a summary."""
    p = argparse.ArgumentParser(prog="python -m cardplaza.web.loadtest.measure")
    p.add_argument("--actions", type=int, default=200)
    p.add_argument("--game", default="pinochle2")
    a = p.parse_args(argv)
    times = measure(a.actions, a.game)
    qs = statistics.quantiles(times, n=10)
    print(f"{len(times)} actions of {a.game} over WebSocket (send → own new state, stored): "
          f"median {statistics.median(times):.2f} ms, p10 {qs[0]:.2f} ms, "
          f"p90 {qs[-1]:.2f} ms, max {max(times):.2f} ms")


if __name__ == "__main__":
    main()
