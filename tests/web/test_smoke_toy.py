"""Quick end-to-end check on the toy game."""

from __future__ import annotations

from fastapi.testclient import TestClient
from web_helpers import create


def test_toy_game_plays_to_the_end(client: TestClient) -> None:
    t = create(client, game="toy", options={"cards": 3}, seed=5, level="random")
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": t["table"], "token": t["token"]})
        msg = ws.receive_json()
        while not msg["terminal"]:
            if msg["current"] == msg["seat"] and msg["legal"]:
                ws.send_json({"type": "act", "action": msg["legal"][0]["json"],
                              "step": msg["step"]})
            msg = ws.receive_json()
            assert msg["type"] == "state", msg
        assert sum(msg["returns"]) == 3
