"""Rooms with people around the table: spectators (a watch link, the public view only, no
acting, asking or reading before the end), table talk (preset phrases only, a rate limit,
spectators cannot talk) and the next game with the same people."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardplaza.core.delta import encode as delta_encode
from cardplaza.core.delta import rebuild
from cardplaza.core.protocol import SPECTATOR, common_view
from cardplaza.core.registry import games
from cardplaza.web import create_app
from cardplaza.web.live.tables import seat_message
from cardplaza.web.live.together import PHRASES, watch_token
from cardplaza.web.settings import Settings

FAST = Settings(computer_pause=0.0, rate_per_second=10_000.0, rate_burst=10_000,
                ai_workers=1)
ROOMS = FAST.replace(standin_seconds=1, standin_min_seconds=1, turn_choices=(1, 15),
                     undo_request_seconds=30.0)


def _key(c: TestClient, name: str) -> str:
    r = c.post("/api/players", json={"name": name})
    assert r.status_code == 200
    key: str = r.json()["key"]
    return key


def _h(key: str) -> dict[str, str]:
    return {"X-Player-Key": key}


def _room(c: TestClient, key: str, **data: Any) -> dict[str, Any]:
    body = {"game": "toy", "name": "Hana", "config": {"level": "random"}, **data}
    r = c.post("/api/rooms", json=body, headers=_h(key))
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def _join(c: TestClient, key: str, secret: str, seat: int, name: str = "Ken"
          ) -> dict[str, Any]:
    r = c.post("/api/rooms/join", json={"secret": secret, "seat": seat, "name": name},
               headers=_h(key))
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def _error(r: Any) -> str:
    code: str = r.json()["code"]
    return code


def _ws_join(ws: Any, table: str, token: str) -> dict[str, Any]:
    ws.send_json({"type": "join", "table": table, "token": token})
    msg: dict[str, Any] = ws.receive_json()
    while msg["type"] == "notice":
        msg = ws.receive_json()
    assert msg["type"] == "state", msg
    return msg


def _until(ws: Any, test: Callable[[dict[str, Any]], bool], limit: int = 200
           ) -> dict[str, Any]:
    """The first message that passes ``test`` (errors always end the wait)."""
    for _ in range(limit):
        msg: dict[str, Any] = ws.receive_json()
        if test(msg) or msg["type"] == "error":
            return msg
    raise AssertionError("the message never came")


def _watch(app: TestClient, room: dict[str, Any]) -> str:
    token: str = room["watch"]
    return token


def _ws_watch(ws: Any, table: str, watch: str) -> dict[str, Any]:
    ws.send_json({"type": "join", "table": table, "watch": watch})
    msg: dict[str, Any] = ws.receive_json()
    assert msg["type"] == "state", msg
    return msg


@pytest.fixture
def app(db_url: str, toy: None) -> Any:
    with TestClient(create_app(db_url, settings=ROOMS)) as c:
        yield c


def test_the_watch_link_is_its_own_token_and_opens_the_public_view(app: TestClient) -> None:
    room, friend, table = _started(app)
    watch = _watch(app, room)
    assert watch not in (room["invite_token"], room["code"], room["token"])
    assert friend["watch"] == watch
    r = app.post("/api/rooms/watch", json={"watch": watch})
    assert r.status_code == 200 and r.json()["table"] == table
    assert r.json()["spectator"] is True
    text = r.text
    for secret in (room["invite_token"], room["code"], room["token"], friend["token"]):
        assert secret not in text
    # A forged or another room's token opens nothing.
    room_id = room["room"]
    for bad in (f"{room_id}.AAAAAAAAAAAAAAAAAAAAAAAA", room["invite_token"], "x", 5):
        r = app.post("/api/rooms/watch", json={"watch": bad})
        assert r.status_code == 404 and _error(r) == "bad_watch"
    with app.websocket_connect("/ws") as a, app.websocket_connect("/ws") as s:
        ma = _ws_join(a, table, room["token"])
        assert ma["room"]["watching"] == 0
        ms = _ws_watch(s, table, watch)
        live = app.app.state.manager.tables[table]  # type: ignore[attr-defined]
        assert ms["seat"] == SPECTATOR and ms["legal"] == [] and ms["extra"] is None
        assert ms["obs"] == live.state.public_observation()
        assert "hand" not in ms["obs"]
        for seat in (0, 1):
            assert live.state.observation(seat)["hand"] not in json.loads(
                json.dumps(list(ms["obs"].values())))
        # The seats see how many people watch.
        seen = _until(a, lambda m: m["type"] == "state" and m["room"]["watching"] == 1)
        assert seen["room"]["watching"] == 1


def test_a_spectator_can_never_act_ask_talk_or_read_before_the_end(app: TestClient) -> None:
    room, _friend, table = _started(app)
    watch = _watch(app, room)
    with app.websocket_connect("/ws") as a, app.websocket_connect("/ws") as s:
        ma = _ws_join(a, table, room["token"])
        _ws_watch(s, table, watch)
        action = ma["legal"][0]["json"] if ma["legal"] else 0
        for msg in ({"type": "act", "action": action},
                    {"type": "act", "action": action, "table": table},
                    {"type": "hint"}, {"type": "helper"}, {"type": "undo"},
                    {"type": "undo_answer", "accept": True}, {"type": "review"},
                    {"type": "talk", "say": "hello"}, {"type": "settings", "pace": "fast"}):
            s.send_json(msg)
            got = _until(s, lambda m: m["type"] == "error")
            assert got["code"] in ("spectator",), (msg, got)
        # The record, the replay and the download: refused while the game is on.
        for path in ("download", "replay"):
            r = app.get(f"/api/tables/{table}/{path}", headers={"X-Watch-Token": watch})
            assert r.status_code == 403 and _error(r) == "spectator_record"
        live = app.app.state.manager.tables[table]  # type: ignore[attr-defined]
        assert len(live.state.history) == 0
        # Once the game is over, the record is there for the spectator too.
        with app.websocket_connect("/ws") as b:
            _ws_join(b, table, _friend["token"])
            _finish(app, table, {0: a, 1: b})
        r = app.get(f"/api/tables/{table}/download", headers={"X-Watch-Token": watch})
        assert r.status_code == 200, r.text
        # A watch token of another room reads nothing.
        other, _f, _t = _started(app)
        r = app.get(f"/api/tables/{table}/download",
                    headers={"X-Watch-Token": other["watch"]})
        assert r.status_code == 404 and _error(r) == "bad_watch"


def test_no_spectators_when_the_host_says_no(app: TestClient) -> None:
    room, friend, table = _started(app, spectators=False)
    assert "watch" not in room and "watch" not in friend
    secret = app.app.state.manager.cluster_secret  # type: ignore[attr-defined]
    watch = watch_token(secret, room["room"])
    r = app.post("/api/rooms/watch", json={"watch": watch})
    assert r.status_code == 403 and _error(r) == "spectators_off"
    with app.websocket_connect("/ws") as s:
        s.send_json({"type": "join", "table": table, "watch": watch})
        assert s.receive_json()["code"] == "spectators_off"


def test_a_spectator_is_sent_only_the_public_view_across_a_whole_game(
        app: TestClient) -> None:
    """Over the WebSocket, every state a spectator is sent (deltas rebuilt) holds exactly
    the public view at that step, from the first message to the end."""
    room, friend, table = _started(app)
    with app.websocket_connect("/ws") as a, app.websocket_connect("/ws") as b, \
            app.websocket_connect("/ws") as s:
        _ws_join(a, table, room["token"])
        _ws_join(b, table, friend["token"])
        last = _ws_watch(s, table, room["watch"])
        live = app.app.state.manager.tables[table]  # type: ignore[attr-defined]
        seen = [last]
        views = {0: live.state.public_observation()}
        seats = {0: a, 1: b}
        while not live.state.is_terminal:
            step = len(live.state.history)
            seats[live.state.current_player].send_json(
                {"type": "act", "action": live.state.action_to_json(
                    live.state.legal_actions()[0]), "step": step})
            while True:
                raw = s.receive_json()
                if raw["type"] == "state":
                    last = rebuild(last, raw)
                    seen.append(last)
                    if last["step"] > step:
                        break
            views[len(live.state.history)] = live.state.public_observation()
        assert last["terminal"]
        for msg in seen:
            assert msg["seat"] == SPECTATOR and msg["legal"] == []
            assert msg["obs"] == views[msg["step"]], f"step {msg['step']}"


@pytest.mark.parametrize("game", sorted(g for g in games() if g != "toy"))
def test_a_spectators_message_holds_only_the_public_view_in_every_game(game: str) -> None:
    """For every game, over a whole random game: the spectator's message (what the table
    sends, and its delta from the previous one) holds no hand, no legal action, and no
    value that some seat does not see alike at the same place."""
    spec = games()[game]
    # The double-deck game to its least target, still a whole game of 11 deals (to the
    # default target, 18 deals took 3.5 times as long: every message carries the past).
    state = spec.new_game(spec.options({"target": 250} if game == "pinochle_dd" else {}), 5)
    rng = random.Random(5)
    prev: dict[str, Any] | None = None
    while True:
        msg = {**seat_message(state, SPECTATOR), "type": "state",
               "step": len(state.history)}
        assert msg["legal"] == [] and msg["illegal"] == {} and msg["extra"] is None
        assert msg["obs"] == common_view([state.observation(s)
                                          for s in range(state.num_players)])
        assert "hand" not in msg["obs"] or all(
            state.observation(s).get("hand") == msg["obs"]["hand"]
            for s in range(state.num_players))
        wire = delta_encode(prev, msg, 1)
        whole = rebuild(prev, json.loads(json.dumps(wire)))
        assert {k: v for k, v in whole.items() if k != "n"} == msg
        prev = {**msg, "n": 1}
        if state.is_terminal:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


def test_talk_accepts_only_preset_ids_and_is_rate_limited(db_url: str, toy: None) -> None:
    with TestClient(create_app(db_url, settings=ROOMS.replace(talk_per_minute=3))) as app:
        room, friend, table = _started(app)
        with app.websocket_connect("/ws") as a, app.websocket_connect("/ws") as b, \
                app.websocket_connect("/ws") as s:
            _ws_join(a, table, room["token"])
            _ws_join(b, table, friend["token"])
            _ws_watch(s, table, room["watch"])
            for bad in ("Hello, you fool", "", None, 3, ["hello"], {"say": "hello"},
                        "HELLO", "hello "):
                a.send_json({"type": "talk", "say": bad})
                assert _until(a, lambda m: m["type"] == "error")["code"] == "bad_talk"
            for say in ("hello", "good_game", "heart"):
                assert say in PHRASES
                a.send_json({"type": "talk", "say": say})
                # Everyone at the table hears it, spectators too; the sender as well.
                for ws in (a, b, s):
                    got = _until(ws, lambda m: m["type"] == "talk")
                    assert got == {"type": "talk", "seat": 0, "say": say}
            a.send_json({"type": "talk", "say": "sorry"})
            assert _until(a, lambda m: m["type"] in ("talk", "error"))["code"] == \
                "talk_limited"
            # Another seat has its own allowance.
            b.send_json({"type": "talk", "say": "sorry"})
            assert _until(a, lambda m: m["type"] == "talk")["seat"] == 1


def test_the_talk_limit_is_a_named_setting() -> None:
    from cardplaza.web.settings import Settings

    assert Settings().talk_per_minute == 6.0
    assert Settings().max_spectators == 50


def test_every_phrase_has_a_text_in_both_languages() -> None:
    from cardplaza.texts.catalog import catalog

    for lang in ("en", "ja"):
        for say in PHRASES:
            assert catalog(lang)[f"talk.say.{say}"].strip()


# -- the next game with the same people ------------------------------------------------------

def _finish(app: TestClient, table: str, seats: dict[int, Any]) -> None:
    live = app.app.state.manager.tables[table]  # type: ignore[attr-defined]
    some = next(iter(seats.values()))
    while not live.state.is_terminal:
        seat, step = live.state.current_player, len(live.state.history)
        ws = seats.get(seat)
        if ws is not None:
            ws.send_json({"type": "act", "action": live.state.action_to_json(
                live.state.legal_actions()[0]), "step": step})
        _until(ws or some, lambda m, s=step: m["type"] == "state" and m["step"] > s)


def test_play_again_keeps_the_seats_and_everyone_lands_in_the_new_game(
        app: TestClient) -> None:
    room, friend, table = _started(app)
    with app.websocket_connect("/ws") as a, app.websocket_connect("/ws") as b:
        _ws_join(a, table, room["token"])
        _ws_join(b, table, friend["token"])
        # Not before the end.
        keys = _keys_of(app, room, friend)
        r = app.post(f"/api/rooms/{room['room']}/again", json={}, headers=_h(keys[1]))
        assert r.status_code == 400 and _error(r) == "not_finished"
        _finish(app, table, {0: a, 1: b})
        # The friend (not the host) starts the next game in one click.
        r = app.post(f"/api/rooms/{room['room']}/again", json={}, headers=_h(keys[1]))
        assert r.status_code == 200, r.text
        new = r.json()["table"]
        assert new != table
        # Both are told, and their own seat tokens seat them at the new table.
        for ws in (a, b):
            assert _until(ws, lambda m: m["type"] == "next_game")["table"] == new
        for ws, token in ((a, room["token"]), (b, friend["token"])):
            ws.send_json({"type": "join", "table": new, "token": token})
        na, nb = (_until(ws, lambda m: m["type"] == "state" and m["table"] == new)
                  for ws in (a, b))
        assert (na["seat"], nb["seat"]) == (0, 1)
        assert [p["kind"] for p in na["players"]] == ["human", "human"]
        assert na["step"] == 0 and not na["terminal"]
    # Seen from the room, too.
    assert app.get(f"/api/rooms/{room['room']}", headers=_h(keys[0])).json()["table"] == new


def _keys_of(app: TestClient, room: dict[str, Any], friend: dict[str, Any]) -> list[str]:
    return [KEYS[room["room"]][0], KEYS[room["room"]][1]]


KEYS: dict[str, tuple[str, str]] = {}


def _started(c: TestClient, **config: Any) -> tuple[dict[str, Any], dict[str, Any], str]:
    """A toy room of two people (Hana at 0, Ken at 1), started: host, friend, table id
    (their player keys kept in :data:`KEYS`)."""
    host_key, friend_key = _key(c, "Hana"), _key(c, "Ken")
    room = _room(c, host_key, config={"level": "random", **config})
    friend = _join(c, friend_key, room["invite_token"], 1)
    r = c.post(f"/api/rooms/{room['room']}/start", json={}, headers=_h(host_key))
    assert r.status_code == 200, r.text
    KEYS[room["room"]] = (host_key, friend_key)
    return room, friend, r.json()["table"]


def test_play_again_rotates_the_deal_by_the_games_rematch_rule(db_url: str) -> None:
    with TestClient(create_app(db_url, settings=FAST)) as c:
        key = _key(c, "Hana")
        room = _room(c, key, game="efudatori", config={"level": "1"},
                     seats=["me", "computer", "computer"], options={"players": 3})
        r = c.post(f"/api/rooms/{room['room']}/start", json={}, headers=_h(key))
        table = r.json()["table"]
        manager = c.app.state.manager  # type: ignore[attr-defined]
        with c.websocket_connect("/ws") as a:
            _ws_join(a, table, room["token"])
            _finish(c, table, {0: a})
            before = manager.tables[table].state
            dealer = before.options.dealer
            r = c.post(f"/api/rooms/{room['room']}/again", json={}, headers=_h(key))
            assert r.status_code == 200, r.text
            new = manager.tables[r.json()["table"]]
            spec = games()["efudatori"]
            expected = spec.rematch_options(before.options, before)
            assert new.state.options.dealer == expected.dealer
            assert expected.dealer != dealer or before.num_players == 1
            assert [s.kind for s in new.row.seats] == ["human", "computer", "computer"]
            assert new.row.seats[0].token_hash == manager.tables[table].row.seats[0].token_hash


def test_a_person_who_leaves_frees_the_seat_for_a_computer_or_a_friend(
        app: TestClient) -> None:
    room, friend, table = _started(app)
    keys = _keys_of(app, room, friend)
    with app.websocket_connect("/ws") as a, app.websocket_connect("/ws") as b:
        _ws_join(a, table, room["token"])
        _ws_join(b, table, friend["token"])
        _finish(app, table, {0: a, 1: b})
    r = app.post(f"/api/rooms/{room['room']}/leave", json={}, headers=_h(keys[1]))
    assert r.status_code == 200 and r.json()["seats"][1]["kind"] == "open"
    r = app.post(f"/api/rooms/{room['room']}/again", json={}, headers=_h(keys[0]))
    assert r.status_code == 400 and _error(r) == "seats_open"
    # Another friend may take the free seat with the invite before the next game...
    other = _key(app, "Mio")
    joined = _join(app, other, room["invite_token"], 1, name="Mio")
    assert joined["seat"] == 1
    r = app.post(f"/api/rooms/{room['room']}/again", json={}, headers=_h(keys[0]))
    assert r.status_code == 200, r.text
    new = app.app.state.manager.tables[r.json()["table"]]  # type: ignore[attr-defined]
    assert new.row.seats[1].name == "Mio" and new.row.seats[1].kind == "human"
    # ...or the host fills it with a computer.
    with app.websocket_connect("/ws") as a, app.websocket_connect("/ws") as b:
        _ws_join(a, new.id, room["token"])
        _ws_join(b, new.id, joined["token"])
        _finish(app, new.id, {0: a, 1: b})
    r = app.post(f"/api/rooms/{room['room']}/leave", json={}, headers=_h(other))
    r = app.post(f"/api/rooms/{room['room']}/again", json={"fill": True},
                 headers=_h(keys[0]))
    assert r.status_code == 200, r.text
    third = app.app.state.manager.tables[r.json()["table"]]  # type: ignore[attr-defined]
    assert [s.kind for s in third.row.seats] == ["human", "computer"]
