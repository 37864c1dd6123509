"""Undo takes back only what may be taken back: never a finished game (its result and the
player's statistics stand), never another person's moves, never past a step that brought
cards to light."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import create, next_of, until_my_turn

from cardplaza.core.registry import games, get_game


def _join(ws: Any, t: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
    token = t["token"] if seat is None else t["tokens"][str(seat)]
    ws.send_json({"type": "join", "table": t["table"], "token": token})
    msg: dict[str, Any] = ws.receive_json()
    assert msg["type"] == "state", msg
    return msg


def _act(ws: Any, msg: dict[str, Any], i: int = 0) -> dict[str, Any]:
    ws.send_json({"type": "act", "action": msg["legal"][i]["json"], "step": msg["step"]})
    return until_my_turn(ws, next_of(ws, "state"))


def test_a_finished_game_is_never_taken_back(client: TestClient) -> None:
    key = client.post("/api/players", json={"name": "Ann"}).json()["key"]
    t = create(client, game="efudatori", seed=3, level="1", options={"players": 2}, key=key)
    with client.websocket_connect("/ws") as ws:
        msg = until_my_turn(ws, _join(ws, t))
        while not msg["terminal"]:
            msg = _act(ws, msg)
        stats = client.get("/api/stats", headers={"X-Player-Key": key}).json()
        record = client.get(f"/api/tables/{t['table']}/record",
                            headers={"X-Seat-Token": t["token"]})
        assert record.status_code == 200 and record.json()["seed"] == "3"
        for _ in range(3):
            ws.send_json({"type": "undo"})
            assert next_of(ws, "undone")["code"] == "game_over"
        ws.send_json({"type": "state"})
        assert next_of(ws, "state")["step"] == msg["step"]
    storage = client.app.state.storage  # type: ignore[attr-defined]
    row = storage.load_table(t["table"])
    assert row.status == "finished" and len(row.actions) == msg["step"]
    assert client.get("/api/stats", headers={"X-Player-Key": key}).json() == stats


def test_undo_is_refused_at_a_table_of_several_people(client: TestClient) -> None:
    t = create(client, game="toy", seed=2, humans=[0, 1])
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
        ma, mb = _join(a, t, 0), _join(b, t, 1)
        a.send_json({"type": "act", "action": ma["legal"][0]["json"]})
        mb = next_of(b, "state")
        next_of(a, "state")
        b.send_json({"type": "act", "action": mb["legal"][0]["json"]})
        mb = next_of(b, "state")
        ma = next_of(a, "state")
        a.send_json({"type": "undo"})
        assert next_of(a, "undone")["code"] == "undo_not_alone"
        a.send_json({"type": "state"})
        assert next_of(a, "state")["step"] == ma["step"] == 2


def test_undo_never_goes_past_a_draw(client: TestClient) -> None:
    """E-fuda-tori draws from the stock after every trick: once a trick is over, the next
    cards are known and the decision before them stands."""
    t = create(client, game="efudatori", seed=4, level="2", options={"players": 3})
    with client.websocket_connect("/ws") as ws:
        msg = until_my_turn(ws, _join(ws, t))
        msg = _act(ws, msg)  # a whole trick went by, and its draws
        assert msg["obs"]["draws"]
        ws.send_json({"type": "undo"})
        assert next_of(ws, "undone")["code"] == "undo_revealed"
        ws.send_json({"type": "state"})
        now = next_of(ws, "state")
        assert now["step"] == msg["step"] and now["obs"] == msg["obs"]
        assert now.get("helps", {}).get("undo") is None  # a refused undo is not counted


@pytest.mark.parametrize("game", sorted(games()))
def test_every_deal_and_the_end_bring_cards_to_light(game: str) -> None:
    """The engines' own account: a new deal (or the first draw) and the end of the game
    are steps that bring cards to light; a card played to a trick in the open is not."""
    spec = get_game(game)
    state = spec.new_game(None, 9)
    rng = random.Random(9)
    lit = 0
    plain = 0
    while not state.is_terminal:
        before = state.clone()
        state.apply(rng.choice(list(state.legal_actions())))
        if state.brings_to_light(before):
            lit += 1
        else:
            plain += 1
    assert state.brings_to_light(before)
    assert lit >= 2 and plain > lit
