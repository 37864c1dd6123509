"""A thinking computer runs in the worker pool: other tables keep answering meanwhile."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Sequence
from typing import Any

from fastapi.testclient import TestClient
from web_helpers import create


class SlowPlayer:
    """Takes its time, then plays the first legal action."""

    name = "slow"

    def __init__(self, started: threading.Event, seconds: float) -> None:
        self.started = started
        self.seconds = seconds

    def choose(self, observation: dict[str, Any], legal_actions: Sequence[Any],
               rng: random.Random) -> Any:
        self.started.set()
        time.sleep(self.seconds)
        return legal_actions[0]


def test_slow_computer_does_not_block_other_tables(client: TestClient) -> None:
    manager = client.app.state.manager  # type: ignore[attr-defined]
    slow = create(client, game="toy", seed=1, humans=[0])
    started = threading.Event()
    manager.tables[slow["table"]].players[1] = SlowPlayer(started, 1.5)
    busy = create(client, game="toy", options={"cards": 8}, seed=2, humans=[0, 1])
    with client.websocket_connect("/ws") as ws_slow, client.websocket_connect("/ws") as ws:
        ws_slow.send_json({"type": "join", "table": slow["table"], "token": slow["token"]})
        msg = ws_slow.receive_json()
        ws_slow.send_json({"type": "act", "action": msg["legal"][0]["json"]})
        ws_slow.receive_json()
        assert started.wait(5), "the computer never started thinking"
        t0 = time.perf_counter()
        ws.send_json({"type": "join", "table": busy["table"], "token": busy["tokens"]["0"]})
        view = ws.receive_json()
        ws.send_json({"type": "act", "action": view["legal"][0]["json"]})
        after = ws.receive_json()
        elapsed = time.perf_counter() - t0
        assert after["step"] == 1
        assert elapsed < 0.75, f"another table waited {elapsed:.2f}s for a thinking computer"
        reply = ws_slow.receive_json()  # the slow computer's move arrives later
        assert reply["step"] == 2
