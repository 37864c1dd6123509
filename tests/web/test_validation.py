"""Every bad request gets a clear error to that client and leaves the table unchanged."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from web_helpers import create

from cardplaza.texts.catalog import text


def snapshot(client: TestClient, table: str, tokens: dict[str, str]) -> list[Any]:
    """Every seat's view of the table (fresh connections; without ``n``, the table's
    message number, which counts the messages made)."""
    out = []
    for seat in sorted(tokens):
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": table, "token": tokens[seat]})
            msg = ws.receive_json()
            assert msg["type"] == "state"
            msg.pop("n", None)
            out.append(msg)
    return out


def stored_actions(client: TestClient, table: str) -> list[Any]:
    row = client.app.state.storage.load_table(table)  # type: ignore[attr-defined]
    assert row is not None
    return list(row.actions)


@pytest.fixture
def duo(client: TestClient) -> dict[str, Any]:
    """A toy table with two people (seats 0 and 1), seat 0 to lead."""
    return create(client, game="toy", options={"cards": 4}, seed=11, humans=[0, 1])


def joined(client: TestClient, t: dict[str, Any], seat: int) -> WebSocketTestSession:
    ws = client.websocket_connect("/ws").__enter__()
    ws.send_json({"type": "join", "table": t["table"], "token": t["tokens"][str(seat)]})
    msg = ws.receive_json()
    assert msg["type"] == "state" and msg["seat"] == seat
    return ws


def expect_error(ws: WebSocketTestSession, code: str) -> str:
    """The message of the error that must come next: ``code``'s English sentence of the
    message catalog, or the rules reason it carries."""
    msg = ws.receive_json()
    assert msg["type"] == "error", msg
    assert msg["code"] == code, msg
    assert isinstance(msg["message"], str) and msg["message"]
    if code not in ("illegal", "bad_options"):
        assert msg["message"] == text(f"err.{code}", "en", **msg.get("params", {})), msg
    return str(msg["message"])


def check_unchanged(client: TestClient, t: dict[str, Any], before: list[Any],
                    actions: list[Any]) -> None:
    assert snapshot(client, t["table"], t["tokens"]) == before
    assert stored_actions(client, t["table"]) == actions


def test_bad_messages_leave_table_unchanged(client: TestClient, duo: dict[str, Any]) -> None:
    before = snapshot(client, duo["table"], duo["tokens"])
    actions = stored_actions(client, duo["table"])
    ws = joined(client, duo, 0)
    try:
        ws.send_text("{not json")
        assert "could not be read" in expect_error(ws, "bad_json")
        ws.send_text("[1, 2]")
        expect_error(ws, "bad_message")
        ws.send_json({"type": "fly"})
        expect_error(ws, "unknown_type")
        ws.send_json({"type": "act"})
        expect_error(ws, "missing_field")
        ws.send_json({"type": "act", "action": "queen of nothing"})
        expect_error(ws, "bad_action")
        ws.send_json({"type": "act", "action": {"card": 3}})
        expect_error(ws, "bad_action")
        ws.send_text(json.dumps({"type": "act", "action": 0, "pad": "x" * 70_000}))
        expect_error(ws, "too_large")
    finally:
        ws.__exit__(None, None, None)
    check_unchanged(client, duo, before, actions)


def test_unknown_table_and_tokens(client: TestClient, duo: dict[str, Any]) -> None:
    other = create(client, game="toy", seed=3)
    before = snapshot(client, duo["table"], duo["tokens"])
    actions = stored_actions(client, duo["table"])
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": "no-such-table", "token": "x"})
        expect_error(ws, "unknown_table")
        ws.send_json({"type": "join", "table": duo["table"], "token": "guessed-token"})
        expect_error(ws, "bad_token")
        ws.send_json({"type": "join", "table": duo["table"], "token": other["token"]})
        expect_error(ws, "bad_token")
        ws.send_json({"type": "act", "action": 0})
        expect_error(ws, "not_joined")
        ws.send_json({"type": "state"})
        expect_error(ws, "not_joined")
    check_unchanged(client, duo, before, actions)


def test_token_of_another_seat_is_refused(client: TestClient, duo: dict[str, Any]) -> None:
    before = snapshot(client, duo["table"], duo["tokens"])
    actions = stored_actions(client, duo["table"])
    ws = joined(client, duo, 1)
    try:
        legal0 = before[0]["legal"][0]["json"]
        ws.send_json({"type": "act", "action": legal0, "table": duo["table"],
                      "token": duo["tokens"]["0"]})
        assert "someone else" in expect_error(ws, "not_your_seat")
    finally:
        ws.__exit__(None, None, None)
    check_unchanged(client, duo, before, actions)


def test_out_of_turn_and_illegal_card(client: TestClient, duo: dict[str, Any]) -> None:
    before = snapshot(client, duo["table"], duo["tokens"])
    actions = stored_actions(client, duo["table"])
    seat0, seat1 = before
    assert seat0["current"] == 0
    ws1 = joined(client, duo, 1)
    try:
        ws1.send_json({"type": "act", "action": seat1["obs"]["hand"][0]})
        assert "not your turn" in expect_error(ws1, "not_your_turn")
    finally:
        ws1.__exit__(None, None, None)
    check_unchanged(client, duo, before, actions)
    ws0 = joined(client, duo, 0)
    try:
        ws0.send_json({"type": "act", "action": seat1["obs"]["hand"][0]})
        expect_error(ws0, "illegal")
        ws0.send_json({"type": "act", "action": seat0["obs"]["hand"][0], "step": 5})
        expect_error(ws0, "stale")
    finally:
        ws0.__exit__(None, None, None)
    check_unchanged(client, duo, before, actions)


def test_must_follow_suit_reason(client: TestClient) -> None:
    """Find a seed where seat 1 cannot follow with some card; that card is refused."""
    for seed in range(40):
        t = create(client, game="toy", options={"cards": 4}, seed=seed, humans=[0, 1])
        ws0, ws1 = joined(client, t, 0), joined(client, t, 1)
        try:
            lead = snapshot(client, t["table"], t["tokens"])[0]["legal"][0]["json"]
            ws0.send_json({"type": "act", "action": lead})
            ws0.receive_json()
            m1 = ws1.receive_json()
            if not m1["illegal"]:
                continue
            before = snapshot(client, t["table"], t["tokens"])
            actions = stored_actions(client, t["table"])
            card, reason = next(iter(m1["illegal"].items()))
            assert reason == "You must follow suit"
            ws1.send_json({"type": "act", "action": int(card), "step": m1["step"]})
            assert "follow suit" in expect_error(ws1, "illegal")
            check_unchanged(client, t, before, actions)
            return
        finally:
            ws0.__exit__(None, None, None)
            ws1.__exit__(None, None, None)
    pytest.fail("no seed gave a follow-suit situation")


def test_act_after_game_over(client: TestClient) -> None:
    t = create(client, game="toy", options={"cards": 1}, seed=2, humans=[0, 1])
    ws = {s: joined(client, t, s) for s in (0, 1)}
    try:
        for _ in range(2):
            view = snapshot(client, t["table"], t["tokens"])
            cur = view[0]["current"]
            ws[cur].send_json({"type": "act", "action": view[cur]["legal"][0]["json"]})
            for s in (0, 1):
                ws[s].receive_json()
        before = snapshot(client, t["table"], t["tokens"])
        assert before[0]["terminal"]
        actions = stored_actions(client, t["table"])
        ws[0].send_json({"type": "act", "action": 0})
        assert "over" in expect_error(ws[0], "game_over")
    finally:
        for w in ws.values():
            w.__exit__(None, None, None)
    check_unchanged(client, t, before, actions)


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"game": "no-such-game"}, 404, "unknown_game"),
    ({"game": "toy", "options": {"cards": 99}}, 400, "bad_options"),
    ({"game": "toy", "options": {"colour": "red"}}, 400, "bad_options"),
    ({"game": "toy", "options": {"cards": "many"}}, 400, "bad_options"),
    ({"game": "toy", "level": "grandmaster"}, 400, "bad_level"),
    ({"game": "toy", "humans": [5]}, 400, "bad_humans"),
    ({"game": "toy", "seed": -1}, 400, "bad_seed"),
    ({"game": "toy", "seed": 2**128}, 400, "bad_seed"),
    ({"game": "toy", "name": "x" * 40}, 400, "bad_name"),
    ({"game": "toy", "streak": "new"}, 400, "no_streak"),
    ({"game": "toy", "streak": "forever"}, 400, "bad_streak"),
    ([1, 2], 400, "bad_request"),
])
def test_create_rejects_bad_requests(client: TestClient, body: Any, status: int,
                                     code: str) -> None:
    r = client.post("/api/tables", json=body)
    assert r.status_code == status
    assert r.json()["code"] == code
    assert r.json()["error"]


def test_create_rejects_malformed_json(client: TestClient) -> None:
    r = client.post("/api/tables", content=b"{oops", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["code"] == "bad_json"


def test_real_game_refuses_card_not_in_hand(client: TestClient) -> None:
    t = create(client, game="pinochle2", options={"level": "1"}, seed=4, level="random")
    ws = joined(client, t, 0)
    try:
        before = snapshot(client, t["table"], t["tokens"])
        view = before[0]
        assert view["current"] == 0
        missing = next(c for c in range(48) if c not in view["obs"]["hand"])
        ws.send_json({"type": "act", "action": {"type": "play", "card": missing}})
        expect_error(ws, "illegal")
        ws.send_json({"type": "act", "action": {"type": "bid", "amount": 300}})
        expect_error(ws, "bad_action")
    finally:
        ws.__exit__(None, None, None)
    check_unchanged(client, t, before, [])


def test_healthz_and_lobby(client: TestClient) -> None:
    assert client.get("/healthz").json()["ok"] is True
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert "toy" in games and "pinochle2" in games
    toy = games["toy"]
    assert toy["options"] == [
        {"name": "cards", "kind": "int", "default": 4},
        {"name": "lead_high", "kind": "bool", "default": False},
    ]
    assert toy["levels"] == ["random", "slow", "crash", "hang"] and toy["players"] == 2
    assert len(toy["deck"]) == 32 and toy["deck"][31] == "AC"


def test_table_whose_record_no_longer_replays(client: TestClient) -> None:
    """A stored record that the rules refuse gives a clear error, not a crash."""
    t = create(client, game="toy", seed=9, humans=[0, 1])
    storage = client.app.state.storage  # type: ignore[attr-defined]
    storage.append_action(t["table"], 0, 1, "not a card")
    client.app.state.manager.tables.clear()  # type: ignore[attr-defined]
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": t["table"], "token": t["tokens"]["0"]})
        # The error says what happened in the app's own words, no internal exception text.
        assert expect_error(ws, "broken_table") == "This table cannot be restored."


def test_illegal_bid_is_refused(client: TestClient) -> None:
    """Four-hand Pinochle: a bid under the minimum or off the step is refused with a reason."""
    t = create(client, game="pinochle4", seed=8, humans=[0, 1, 2, 3], level="random")
    before = snapshot(client, t["table"], t["tokens"])
    actor = before[0]["current"]
    assert any(a["json"] == {"kind": "bid", "amount": 250} for a in before[actor]["legal"])
    ws = joined(client, t, actor)
    try:
        for amount in (240, 255):
            ws.send_json({"type": "act", "action": {"kind": "bid", "amount": amount}})
            msg = ws.receive_json()
            assert msg["type"] == "error" and msg["code"] in ("illegal", "bad_action"), msg
            assert msg["message"]
        ws.send_json({"type": "act", "action": {"kind": "trump", "suit": 1}})
        assert ws.receive_json()["type"] == "error"
    finally:
        ws.__exit__(None, None, None)
    check_unchanged(client, t, before, [])


def test_jump_bid_is_accepted(client: TestClient) -> None:
    """A jump bid (above the lowest legal bid, which is all the legal list shows) is played."""
    t = create(client, game="pinochle4", seed=8, humans=[0, 1, 2, 3], level="random")
    before = snapshot(client, t["table"], t["tokens"])
    actor = before[0]["current"]
    ws = joined(client, t, actor)
    try:
        ws.send_json({"type": "act", "action": {"kind": "bid", "amount": 400}})
        msg = ws.receive_json()
        assert msg["type"] == "state", msg
        assert msg["obs"]["high_bid"] == 400
    finally:
        ws.__exit__(None, None, None)


GARBAGE: list[Any] = [
    None, True, -1, 10**9, 3.5, "", "A♠", "pass", "bid 99999", [], [1, 2], {},
    {"type": "play"}, {"type": "play", "card": -3}, {"type": "play", "card": 999},
    {"kind": "bid", "amount": "many"}, {"kind": "give", "card": 47}, {"play": 31},
    {"discard": [0, 0, 0]}, {"discard": list(range(40))}, {"say": "nonsense"},
    {"add": [99]}, {"point_suit": 9}, {"meld": "run", "cards": [1, 2, 3]},
    {"type": "meld", "meld": "nothing", "cards": []}, {"kind": "trump", "suit": 7},
]


@pytest.mark.parametrize("game", ["pinochle2", "pinochle4", "pinochle3", "piquet", "efudatori"])
def test_garbage_actions_never_change_a_table(client: TestClient, game: str) -> None:
    """Malformed or illegal action forms of every kind get an error; nothing changes."""
    from cardplaza.core.registry import get_game

    n = get_game(game).new_game(None, 5).num_players
    options = {"level": "1"} if game == "pinochle2" else {}
    t = create(client, game=game, seed=5, humans=list(range(n)), level="random",
               options=options)
    before = snapshot(client, t["table"], t["tokens"])
    actor = before[0]["current"]
    legal = {json.dumps(a["json"], sort_keys=True) for a in before[actor]["legal"]}
    ws = joined(client, t, actor)
    try:
        for data in GARBAGE:
            if json.dumps(data, sort_keys=True) in legal:
                continue
            ws.send_json({"type": "act", "action": data})
            msg = ws.receive_json()
            assert msg["type"] == "error", (data, msg)
            assert msg["code"] in ("illegal", "bad_action"), (data, msg)
    finally:
        ws.__exit__(None, None, None)
    check_unchanged(client, t, before, [])


def test_final_message_names_the_winners_not_just_the_top_score() -> None:
    """A finished table tells every seat who won: in a Pinochle double finish the bidding
    side wins with the lower score, and the result screen must say so."""
    import random

    from cardplaza.core.registry import get_game
    from cardplaza.web.live.tables import seat_message

    spec = get_game("pinochle4")
    st = spec.new_game(spec.options({"target": 500}), 273)
    rng = random.Random(273)
    assert "winners" not in seat_message(st, 0)
    while not st.is_terminal:
        st.apply(rng.choice(list(st.legal_actions())))
    for seat in range(4):
        msg = seat_message(st, seat)
        assert msg["returns"] == [530.0, 570.0, 530.0, 570.0]
        assert msg["winners"] == [0, 2]
