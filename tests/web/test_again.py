"""Play again: the next game of a finished table, same seats, the game's rematch options."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from web_helpers import create


def play_out(client: TestClient, table: dict[str, Any]) -> dict[str, Any]:
    """Join a table and play its human seat to the end; the last state message."""
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": table["table"], "token": table["token"]})
        msg = ws.receive_json()
        while not msg["terminal"]:
            if msg["current"] == msg["seat"] and msg["legal"]:
                ws.send_json({"type": "act", "action": msg["legal"][0]["json"],
                              "step": msg["step"]})
            msg = ws.receive_json()
            assert msg["type"] == "state", msg
        return msg


def first_state(client: TestClient, table: dict[str, Any]) -> dict[str, Any]:
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": table["table"], "token": table["token"]})
        msg: dict[str, Any] = ws.receive_json()
        return msg


def test_again_passes_the_efudatori_deal_to_the_left(client: TestClient) -> None:
    t = create(client, game="efudatori", options={"players": 3}, seed=4, level="1", name="Aki")
    last = play_out(client, t)
    dealer = last["obs"]["dealer"]
    r = client.post("/api/tables", json={"game": "efudatori",
                                         "again": {"table": t["table"], "token": t["token"]}})
    assert r.status_code == 200, r.text
    nxt = r.json()
    assert nxt["table"] != t["table"] and nxt["token"] != t["token"]
    msg = first_state(client, nxt)
    assert msg["obs"]["dealer"] == (dealer + 1) % 3  # rule E-2
    assert [p["kind"] for p in msg["players"]] == ["human", "computer", "computer"]
    assert msg["players"][0]["name"] == "Aki"
    assert {p["level"] for p in msg["players"][1:]} == {"1"}
    assert msg["options"]["players"] == 3


def test_again_keeps_the_options_of_the_finished_game(client: TestClient) -> None:
    t = create(client, game="toy", options={"cards": 3}, seed=5, level="random")
    play_out(client, t)
    r = client.post("/api/tables", json={"game": "toy", "seed": 9,
                                         "again": {"table": t["table"], "token": t["token"]}})
    assert r.status_code == 200, r.text
    assert first_state(client, r.json())["options"]["cards"] == 3


def test_again_is_refused_before_the_end_or_without_the_seat_token(client: TestClient) -> None:
    t = create(client, game="toy", options={"cards": 3}, seed=5, level="random")
    r = client.post("/api/tables", json={"again": {"table": t["table"], "token": t["token"]}})
    assert r.status_code == 400 and r.json()["code"] == "not_finished"
    play_out(client, t)
    r = client.post("/api/tables", json={"again": {"table": t["table"], "token": "nope"}})
    assert r.status_code == 403 and r.json()["code"] == "bad_token"
    r = client.post("/api/tables", json={"again": {"table": "missing", "token": t["token"]}})
    assert r.status_code == 404 and r.json()["code"] == "unknown_table"
    r = client.post("/api/tables", json={"again": "yes"})
    assert r.status_code == 400 and r.json()["code"] == "bad_again"
