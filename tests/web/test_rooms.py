"""Playing with friends: rooms, invites and codes, seats, starting, and the table with
several people (each seat acts only for itself, undo requests, hints off, stand-ins, the
turn timer, the stand-in marks in the record)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardplaza.web import create_app
from cardplaza.web.live.rooms import CODE_ALPHABET, Rooms, normal_code
from cardplaza.web.live.tables import TableManager
from cardplaza.web.settings import Settings
from cardplaza.web.store.rooms import RoomStore
from cardplaza.web.store.storage import Storage, hash_token

FAST = Settings(computer_pause=0.0, rate_per_second=10_000.0, rate_burst=10_000,
                ai_workers=1)
ROOMS = FAST.replace(standin_seconds=1, standin_min_seconds=1, turn_choices=(1, 15),
                     undo_request_seconds=30.0)


def _app(db_url: str, settings: Settings = ROOMS) -> TestClient:
    return TestClient(create_app(db_url, settings=settings))


@pytest.fixture
def app(db_url: str, toy: None) -> Iterator[TestClient]:
    with _app(db_url) as c:
        yield c


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


def _started(c: TestClient, **config: Any) -> tuple[dict[str, Any], dict[str, Any], str]:
    """A toy room of two people (Hana at 0, Ken at 1), started: host, friend, table id."""
    host_key, friend_key = _key(c, "Hana"), _key(c, "Ken")
    room = _room(c, host_key, config={"level": "random", **config})
    friend = _join(c, friend_key, room["invite_token"], 1)
    r = c.post(f"/api/rooms/{room['room']}/start", json={}, headers=_h(host_key))
    assert r.status_code == 200, r.text
    table: str = r.json()["table"]
    return room, friend, table


def _ws_join(ws: Any, table: str, token: str) -> dict[str, Any]:
    ws.send_json({"type": "join", "table": table, "token": token})
    msg: dict[str, Any] = ws.receive_json()
    while msg["type"] == "notice":  # a person coming back is told so too
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


def _state(test: Callable[[dict[str, Any]], bool]) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] == "state" and test(m)


def _turn(ws: Any, seat: int) -> dict[str, Any]:
    return _until(ws, _state(lambda m: m["current"] == seat or m["terminal"]))


def _play(ws: Any, msg: dict[str, Any]) -> None:
    ws.send_json({"type": "act", "action": msg["legal"][0]["json"], "step": msg["step"]})


def _play_out(live: Any, seats: dict[int, Any]) -> dict[str, Any]:
    """Play the people's turns (the first legal action) until the game ends; the last
    state message seen."""
    msg: dict[str, Any] = {}
    some = next(iter(seats.values()))
    while not live.state.is_terminal:
        seat, step = live.state.current_player, len(live.state.history)
        ws = seats.get(seat)
        if ws is not None:
            ws.send_json({"type": "act", "action": live.state.legal_actions()[0],
                          "step": step})
        msg = _until(ws or some, _state(lambda m, s=step: m["step"] > s))
    if not msg.get("terminal"):
        msg = _until(some, _state(lambda m: m["terminal"]))
    return msg


# -- rooms, invites, codes ------------------------------------------------------------------

def test_a_room_has_an_invite_and_a_short_code_that_find_it(app: TestClient) -> None:
    key = _key(app, "Hana")
    room = _room(app, key)
    code = room["code"]
    assert len(code) == 7 and set(code) <= set(CODE_ALPHABET)
    assert not set(code) & set("0O1IL")
    assert len(room["invite_token"]) >= 24
    assert room["host"] is True and room["seat"] == 0
    assert [s["kind"] for s in room["seats"]] == ["human", "open"]
    friend = _key(app, "Ken")
    typed = (code[:3] + "-" + code[3:]).lower()
    for secret in (room["invite_token"], code, typed):
        r = app.post("/api/rooms/find", json={"secret": secret}, headers=_h(friend))
        assert r.status_code == 200, r.text
        view = r.json()
        assert view["room"] == room["room"] and view["host"] is False
        assert view["seats"][0] == {"seat": 0, "kind": "human", "name": "Hana", "host": True,
                                    "you": False}
        text = json.dumps(view)
        # Nothing secret is shown to a friend: no token, no hash, no player id.
        for secret_text in (room["invite_token"], code, room["token"], key,
                            hash_token(room["token"]), room["player"]["id"]):
            assert secret_text not in text
    r = app.post("/api/rooms/find", json={"secret": "ZZZZZZZ"})
    assert r.status_code == 404 and _error(r) == "bad_invite"
    # The room itself is shown only to its people.
    r = app.get(f"/api/rooms/{room['room']}", headers=_h(friend))
    assert r.status_code == 403 and _error(r) == "not_in_room"
    assert app.get(f"/api/rooms/{room['room']}", headers=_h(key)).json()["host"] is True


def test_normal_code_reads_what_people_type() -> None:
    assert normal_code(" abc-d ef\t") == "ABCDEF"


def test_the_invite_expires_after_a_day_unless_the_game_is_on(app: TestClient) -> None:
    key = _key(app, "Hana")
    room = _room(app, key)
    store = RoomStore(app.app.state.storage)  # type: ignore[attr-defined]
    row = store.load(room["room"])
    assert row is not None
    assert row.expires == pytest.approx(time.time() + 24 * 3600, abs=60)
    row.expires = time.time() - 1
    assert store.save(row)
    for secret in (room["invite_token"], room["code"]):
        r = app.post("/api/rooms/find", json={"secret": secret})
        assert r.status_code == 404 and _error(r) == "bad_invite"
        r = app.post("/api/rooms/join", json={"secret": secret, "seat": 1},
                     headers=_h(_key(app, "Ken")))
        assert r.status_code == 404 and _error(r) == "bad_invite"
    # A room whose game is being played keeps its invite (to come back to the table).
    r = app.post(f"/api/rooms/{room['room']}/start", json={"fill": True}, headers=_h(key))
    assert r.status_code == 200 and r.json()["status"] == "playing"
    r = app.post("/api/rooms/find", json={"secret": room["code"]})
    assert r.status_code == 200 and r.json()["invite"]["valid"] is True
    # Once that game is over, the day having passed, the invite no longer works.
    with app.websocket_connect("/ws") as ws:
        _ws_join(ws, _table_of(app, room), room["token"])
        live = app.app.state.manager.tables[_table_of(app, room)]  # type: ignore[attr-defined]
        _play_out(live, {0: ws})
    r = app.post("/api/rooms/find", json={"secret": room["code"]})
    assert r.status_code == 404 and _error(r) == "bad_invite"


def _table_of(app: TestClient, room: dict[str, Any]) -> str:
    row = RoomStore(app.app.state.storage).load(room["room"])  # type: ignore[attr-defined]
    assert row is not None and row.table_id is not None
    return row.table_id


def test_the_host_revokes_the_invite_and_makes_a_new_one(app: TestClient) -> None:
    key, friend = _key(app, "Hana"), _key(app, "Ken")
    room = _room(app, key)
    r = app.post(f"/api/rooms/{room['room']}/revoke", json={}, headers=_h(friend))
    assert r.status_code == 403 and _error(r) == "not_in_room"
    _join(app, friend, room["code"], 1)
    r = app.post(f"/api/rooms/{room['room']}/revoke", json={}, headers=_h(friend))
    assert r.status_code == 403 and _error(r) == "not_host"
    r = app.post(f"/api/rooms/{room['room']}/revoke", json={}, headers=_h(key))
    assert r.status_code == 200 and r.json()["invite"]["valid"] is False
    for secret in (room["invite_token"], room["code"]):
        assert _error(app.post("/api/rooms/find", json={"secret": secret})) == "bad_invite"
    r = app.post(f"/api/rooms/{room['room']}/invite", json={}, headers=_h(key))
    fresh = r.json()
    assert fresh["invite_token"] != room["invite_token"] and fresh["code"] != room["code"]
    assert app.post("/api/rooms/find", json={"secret": fresh["code"]}).status_code == 200
    assert _error(app.post("/api/rooms/find",
                           json={"secret": room["invite_token"]})) == "bad_invite"


def test_code_lookups_are_rate_limited_per_address(db_url: str, toy: None) -> None:
    with _app(db_url, ROOMS.replace(room_lookups_per_minute=3)) as c:
        for _ in range(3):
            assert _error(c.post("/api/rooms/find", json={"secret": "ABCDEFG"})) == \
                "bad_invite"
        r = c.post("/api/rooms/find", json={"secret": "ABCDEFG"})
        assert r.status_code == 429 and _error(r) == "too_many_lookups"


def test_room_qr_code_is_an_svg_of_the_invite_link_on_this_server(app: TestClient) -> None:
    room = _room(app, _key(app, "Hana"))
    r = app.post("/api/rooms/qr", json={"secret": room["invite_token"],
                                        "origin": "http://testserver"})
    assert r.status_code == 200 and r.headers["content-type"] == "image/svg+xml"
    assert r.text.startswith("<svg") and "<path" in r.text and "<script" not in r.text
    r = app.post("/api/rooms/qr", json={"secret": room["invite_token"],
                                        "origin": "http://evil.example"})
    assert r.status_code == 400
    r = app.post("/api/rooms/qr", json={"secret": "nope-nope", "origin": "http://testserver"})
    assert r.status_code == 404


# -- seats ------------------------------------------------------------------------------------

def test_a_friend_takes_an_open_seat_and_nobody_else_can(app: TestClient) -> None:
    key = _key(app, "Hana")
    room = _room(app, key, seats=["open", "me"])
    assert room["seat"] == 1
    ken, sam = _key(app, "Ken"), _key(app, "Sam")
    got = _join(app, ken, room["invite_token"], 0, "Ken")
    assert got["seat"] == 0 and got["token"] and got["seats"][0]["you"] is True
    r = app.post("/api/rooms/join", json={"secret": room["code"], "seat": 0, "name": "Sam"},
                 headers=_h(sam))
    assert r.status_code == 409 and _error(r) == "seat_taken"
    r = app.post("/api/rooms/join", json={"secret": room["code"], "seat": 1}, headers=_h(sam))
    assert _error(r) == "seat_taken"  # the host's
    r = app.post("/api/rooms/join", json={"secret": room["code"], "seat": 5}, headers=_h(sam))
    assert _error(r) == "bad_seat"
    # Ken comes again (another tab): his own seat, with a new token.
    again = _join(app, ken, room["code"], 1, "Ken")
    assert again["seat"] == 0 and again["token"] != got["token"]
    view = app.get(f"/api/rooms/{room['room']}", headers=_h(ken)).json()
    assert [s.get("name") for s in view["seats"]] == ["Ken", "Hana"]
    assert view["host"] is False and "table" not in view


async def _race(db_url: str, contenders: int) -> list[Any]:
    storage = Storage(db_url)
    manager = TableManager(storage, FAST)
    try:
        rooms = Rooms(manager)
        host_key, _row = storage.new_player("Hana")
        room = await rooms.create({"game": "toy", "name": "Hana",
                                   "config": {"level": "random"}}, host_key, None)
        keys = [storage.new_player(f"P{i}")[0] for i in range(contenders)]
        results = await asyncio.gather(
            *(rooms.claim({"secret": room["code"], "seat": 1, "name": f"P{i}"}, k, None)
              for i, k in enumerate(keys)), return_exceptions=True)
        results.append(await rooms.load(room["room"]))
        return results
    finally:
        manager.db_pool.shutdown(wait=True)
        storage.close()


def test_friends_racing_for_one_seat_get_it_once(db_url: str, toy: None) -> None:
    results = asyncio.run(_race(db_url, 6))
    room = results.pop()
    won = [r for r in results if isinstance(r, dict)]
    lost = [r for r in results if not isinstance(r, dict)]
    assert len(won) == 1 and len(lost) == 5
    assert {getattr(e, "code", None) for e in lost} <= {"seat_taken", "room_changed"}
    assert room.seats[1].kind == "human" and room.seats[1].token_hash == \
        hash_token(won[0]["token"])


def test_two_processes_writing_one_room_version_one_wins(tmp_path: Path, toy: None) -> None:
    """Compare and set across two storages (two server processes) on one database."""
    url = f"sqlite:///{tmp_path / 'race.sqlite3'}"
    a, b = Storage(url), Storage(url)
    try:
        with TestClient(create_app(url, settings=ROOMS)) as c:
            room = _room(c, _key(c, "Hana"))
        rows = [RoomStore(s).load(room["room"]) for s in (a, b)]
        wins: list[bool] = []
        barrier = threading.Barrier(2)

        def write(store: RoomStore, row: Any, name: str) -> None:
            row.seats[1].kind, row.seats[1].name = "human", name
            barrier.wait()
            wins.append(store.save(row))

        threads = [threading.Thread(target=write, args=(RoomStore(s), r, n))
                   for s, r, n in ((a, rows[0], "A"), (b, rows[1], "B"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(wins) == [False, True]
        final = RoomStore(a).load(room["room"])
        assert final is not None and final.version == room["version"] + 1
    finally:
        a.close()
        b.close()


def test_the_host_sets_seats_and_settings(app: TestClient) -> None:
    key, ken = _key(app, "Hana"), _key(app, "Ken")
    room = _room(app, key)
    rid = room["room"]
    r = app.post(f"/api/rooms/{rid}/seat", json={"seat": 1, "kind": "computer",
                                                 "level": "random"}, headers=_h(key))
    assert r.json()["seats"][1] == {"seat": 1, "kind": "computer", "level": "random"}
    r = app.post(f"/api/rooms/{rid}/seat", json={"seat": 0, "kind": "open"}, headers=_h(key))
    assert _error(r) == "seat_taken"
    r = app.post(f"/api/rooms/{rid}/config", json={"hints": False, "standin_seconds": 1,
                                                   "turn_seconds": 15, "spectators": False},
                 headers=_h(key))
    assert r.json()["config"] == {"level": "random", "hints": False, "standin_seconds": 1,
                                  "turn_seconds": 15, "spectators": False}
    assert "watch" not in r.json()
    for bad in ({"standin_seconds": 500}, {"turn_seconds": 7}, {"hints": "no"},
                {"spectators": "yes"},
                {"level": "godlike"}):
        r = app.post(f"/api/rooms/{rid}/config", json=bad, headers=_h(key))
        assert r.status_code == 400, bad
    app.post(f"/api/rooms/{rid}/seat", json={"seat": 1, "kind": "open"}, headers=_h(key))
    _join(app, ken, room["code"], 1)
    r = app.post(f"/api/rooms/{rid}/config", json={"hints": True}, headers=_h(ken))
    assert _error(r) == "not_host"


def test_the_host_starts_when_every_person_is_seated(app: TestClient) -> None:
    key, ken = _key(app, "Hana"), _key(app, "Ken")
    room = _room(app, key)
    rid = room["room"]
    r = app.post(f"/api/rooms/{rid}/start", json={}, headers=_h(key))
    assert r.status_code == 400 and _error(r) == "seats_open"
    friend = _join(app, ken, room["code"], 1)
    r = app.post(f"/api/rooms/{rid}/start", json={}, headers=_h(ken))
    assert _error(r) == "not_host"
    r = app.post(f"/api/rooms/{rid}/start", json={}, headers=_h(key))
    started = r.json()
    assert started["status"] == "playing"
    assert app.get(f"/api/rooms/{rid}", headers=_h(ken)).json()["table"] == started["table"]
    row = app.app.state.storage.load_table(started["table"])  # type: ignore[attr-defined]
    assert [s.kind for s in row.seats] == ["human", "human"]
    assert row.seats[0].token_hash == hash_token(room["token"])
    assert row.seats[1].token_hash == hash_token(friend["token"])
    assert row.extra["room"]["id"] == rid
    r = app.post(f"/api/rooms/{rid}/start", json={}, headers=_h(key))
    assert _error(r) == "room_started"
    r = app.post("/api/rooms/join", json={"secret": room["code"], "seat": 1},
                 headers=_h(_key(app, "Sam")))
    assert _error(r) == "room_started"


def test_open_seats_filled_with_computers(app: TestClient) -> None:
    key = _key(app, "Hana")
    room = _room(app, key)
    r = app.post(f"/api/rooms/{room['room']}/start", json={"fill": True}, headers=_h(key))
    table = r.json()["table"]
    row = app.app.state.storage.load_table(table)  # type: ignore[attr-defined]
    assert [(s.kind, s.level) for s in row.seats] == [("human", "random"),
                                                       ("computer", "random")]
    with app.websocket_connect("/ws") as ws:
        _ws_join(ws, table, room["token"])
        live = app.app.state.manager.tables[table]  # type: ignore[attr-defined]
        msg = _play_out(live, {0: ws})
    assert msg["room"]["standins"] == [0, 0] and msg["room"]["seats"][1] is None


# -- one table, several people --------------------------------------------------------------

def test_each_seat_acts_only_for_itself(app: TestClient) -> None:
    room, friend, table = _started(app)
    with app.websocket_connect("/ws") as a, app.websocket_connect("/ws") as b:
        ma = _ws_join(a, table, room["token"])
        mb = _ws_join(b, table, friend["token"])
        assert ma["seat"] == 0 and mb["seat"] == 1
        mover, other = (a, b) if ma["current"] == 0 else (b, a)
        msg = ma if mover is a else mb
        # Not its turn: refused.
        other.send_json({"type": "act", "action": msg["legal"][0]["json"]})
        assert _until(other, lambda m: False)["code"] == "not_your_turn"
        # The other seat's token riding along: refused.
        tokens = {a: room["token"], b: friend["token"]}
        other.send_json({"type": "act", "action": msg["legal"][0]["json"],
                         "table": table, "token": tokens[mover]})
        assert _until(other, lambda m: False)["code"] == "not_your_seat"
    # A token of no seat cannot even join.
    with app.websocket_connect("/ws") as c:
        c.send_json({"type": "join", "table": table, "token": room["invite_token"]})
        assert c.receive_json()["code"] == "bad_token"


def test_each_seat_sees_only_its_own_hand_and_the_public_facts(app: TestClient) -> None:
    room, friend, table = _started(app)
    with app.websocket_connect("/ws") as a, app.websocket_connect("/ws") as b:
        ma = _ws_join(a, table, room["token"])
        mb = _ws_join(b, table, friend["token"])
        live = app.app.state.manager.tables[table]  # type: ignore[attr-defined]
        assert ma["obs"] == live.state.observation(0)
        assert mb["obs"] == live.state.observation(1)
        assert set(ma["obs"]["hand"]).isdisjoint(mb["obs"]["hand"])
        facts = mb["room"]
        assert facts["seats"] == [{"here": True}, {"here": True}]
        assert facts["hints"] is True and "undo" not in facts
        assert set(facts) == {"id", "hints", "standin_seconds", "turn_seconds", "seats",
                              "actions", "standins", "spectators", "watching"}


def test_hints_off_is_refused_and_shown(app: TestClient) -> None:
    room, _friend, table = _started(app, hints=False)
    with app.websocket_connect("/ws") as a:
        msg = _ws_join(a, table, room["token"])
        assert msg["room"]["hints"] is False
        for kind in ("hint", "helper"):
            a.send_json({"type": kind})
            assert _until(a, lambda m, k=kind: m["type"] == k)["code"] == "hints_off"


def test_undo_is_a_request_the_other_person_answers(app: TestClient) -> None:
    room, friend, table = _started(app)
    live = app.app.state.manager.tables[table]  # type: ignore[attr-defined]
    with app.websocket_connect("/ws") as a, app.websocket_connect("/ws") as b:
        ma = _ws_join(a, table, room["token"])
        _ws_join(b, table, friend["token"])
        seats = {0: a, 1: b}
        first = ma["current"]
        me, them = seats[first], seats[1 - first]
        msg = _turn(me, first)
        _play(me, msg)
        mine_at = msg["step"]
        msg = _turn(them, 1 - first)
        _play(them, msg)
        _until(me, _state(lambda m: m["step"] == mine_at + 2))
        # Asking: the other person sees the request; nobody may act meanwhile.
        me.send_json({"type": "undo"})
        assert _until(me, lambda m: m["type"] == "undo_asked")["keep"] == mine_at
        seen = _until(them, _state(lambda m: "undo" in m["room"]))
        assert seen["room"]["undo"]["by"] == first
        assert seen["room"]["undo"]["waiting"] == [1 - first]
        now = live.state.current_player
        actor = seats[now]
        actor.send_json({"type": "act", "action": live.state.legal_actions()[0]})
        assert _until(actor, lambda m: False)["code"] == "undo_pending"
        # Refused: the table goes on where it was.
        them.send_json({"type": "undo_answer", "accept": False})
        ended = _until(me, lambda m: m["type"] == "undo_ended")
        assert ended["reason"] == "refused" and ended["seat"] == 1 - first
        assert len(live.state.history) == mine_at + 2
        # Asked again and accepted: back to before the asker's decision.
        me.send_json({"type": "undo"})
        _until(them, _state(lambda m: "undo" in m["room"]))
        them.send_json({"type": "undo_answer", "accept": True})
        done = _until(me, lambda m: m["type"] == "undone")
        assert done["step"] == mine_at
        assert len(live.state.history) == mine_at and live.state.current_player == first
        back = _until(them, _state(lambda m: m["step"] == mine_at and "undo" not in m["room"]))
        assert back["obs"] == live.state.observation(1 - first)
        stored = app.app.state.storage.load_table(table)  # type: ignore[attr-defined]
        assert len(stored.actions) == mine_at


def test_the_asker_cannot_answer_and_may_withdraw(app: TestClient) -> None:
    room, friend, table = _started(app)
    with app.websocket_connect("/ws") as a, app.websocket_connect("/ws") as b:
        ma = _ws_join(a, table, room["token"])
        _ws_join(b, table, friend["token"])
        seats = {0: a, 1: b}
        first = ma["current"]
        me = seats[first]
        _play(me, _turn(me, first))
        me.send_json({"type": "undo"})
        _until(me, lambda m: m["type"] == "undo_asked")
        me.send_json({"type": "undo_answer", "accept": True})
        assert _until(me, lambda m: False)["code"] == "no_undo_request"
        me.send_json({"type": "undo"})
        assert _until(me, lambda m: False)["code"] == "undo_pending"
        me.send_json({"type": "undo_answer", "accept": False})
        ended = _until(seats[1 - first], lambda m: m["type"] == "undo_ended")
        assert ended["reason"] == "withdrawn"


def test_an_unanswered_undo_request_lapses(db_url: str, toy: None) -> None:
    with _app(db_url, ROOMS.replace(undo_request_seconds=0.3)) as c:
        room, friend, table = _started(c)
        with c.websocket_connect("/ws") as a, c.websocket_connect("/ws") as b:
            ma = _ws_join(a, table, room["token"])
            _ws_join(b, table, friend["token"])
            first = ma["current"]
            me = {0: a, 1: b}[first]
            _play(me, _turn(me, first))
            me.send_json({"type": "undo"})
            ended = _until(me, lambda m: m["type"] == "undo_ended")
            assert ended["reason"] == "expired"
            live = c.app.state.manager.tables[table]  # type: ignore[attr-defined]
            assert len(live.state.history) == 1 and not live.paused()


def test_a_finished_game_with_friends_is_never_undone(app: TestClient) -> None:
    room, friend, table = _started(app)
    with app.websocket_connect("/ws") as a, app.websocket_connect("/ws") as b:
        seats = {0: a, 1: b}
        _ws_join(a, table, room["token"])
        _ws_join(b, table, friend["token"])
        live = app.app.state.manager.tables[table]  # type: ignore[attr-defined]
        _play_out(live, seats)
        a.send_json({"type": "undo"})
        assert _until(a, lambda m: m["type"] == "undo_asked")["code"] == "game_over"


# -- stand-ins and the turn timer -------------------------------------------------------------

def test_a_computer_stands_in_for_an_absent_person_and_hands_back(app: TestClient) -> None:
    room, friend, table = _started(app, standin_seconds=1)
    live = app.app.state.manager.tables[table]  # type: ignore[attr-defined]
    with app.websocket_connect("/ws") as a:
        _ws_join(a, table, room["token"])
        with app.websocket_connect("/ws") as b:
            _ws_join(b, table, friend["token"])
        # Ken's connection dropped: a countdown at his seat, then a computer plays it.
        away = _until(a, _state(lambda m: m["room"]["seats"][1].get("left") is not None))
        assert away["room"]["seats"][1]["here"] is False
        assert 0 < away["room"]["seats"][1]["left"] <= 1
        notice = _until(a, lambda m: m["type"] == "notice")
        assert notice == {"type": "notice", "kind": "standin", "seat": 1}
        # Hana plays her turns; the stand-in plays Ken's.
        while not live.state.is_terminal and len(live.state.history) < 5:
            seat, step = live.state.current_player, len(live.state.history)
            if seat == 0:
                a.send_json({"type": "act", "action": live.state.legal_actions()[0],
                             "step": step})
            _until(a, _state(lambda m, s=step: m["step"] > s))
        marked = list(live.row.standins)  # (read first: a mark follows its action)
        actions = list(live.row.actions)[:marked[-1] + 1]
        assert all(actions[i]["seat"] == 1 for i in marked)
        # Every action of Ken's seat so far was the stand-in's.
        assert marked == [i for i, x in enumerate(actions) if x["seat"] == 1]
        stored = app.app.state.storage.load_table(table)  # type: ignore[attr-defined]
        assert stored.standins[:len(marked)] == marked  # the stand-in may have gone on
        # Ken comes back: the seat is his again, everyone is told.
        with app.websocket_connect("/ws") as b:
            mb = _ws_join(b, table, friend["token"])
            assert "standin" not in mb["room"]["seats"][1]
            back = _until(a, lambda m: m["type"] == "notice")
            assert back == {"type": "notice", "kind": "back", "seat": 1}
            assert 1 not in live.addon.standins
            n = len(live.row.standins)
            played = 0
            while not live.state.is_terminal and played < 2:
                seat, step = live.state.current_player, len(live.state.history)
                if seat == 1:
                    time.sleep(0.3)  # no computer moves for him now
                    assert len(live.state.history) == step
                    played += 1
                ws = {0: a, 1: b}[seat]
                ws.send_json({"type": "act", "action": live.state.legal_actions()[0],
                              "step": step})
                _until(ws, _state(lambda m, s=step: m["step"] > s))
            assert len(live.row.standins) == n
            assert played or live.state.is_terminal


def test_nobody_at_the_table_means_no_stand_in(app: TestClient) -> None:
    room, _friend, table = _started(app, standin_seconds=1)
    live = app.app.state.manager.tables[table]  # type: ignore[attr-defined]
    with app.websocket_connect("/ws") as a:
        _ws_join(a, table, room["token"])
    time.sleep(1.5)
    assert not live.addon.standins and not live.addon.away
    assert len(live.state.history) == 0


def test_the_turn_timer_lets_the_computer_decide_and_marks_it(app: TestClient) -> None:
    room, friend, table = _started(app, turn_seconds=1)
    live = app.app.state.manager.tables[table]  # type: ignore[attr-defined]
    with app.websocket_connect("/ws") as a, app.websocket_connect("/ws") as b:
        ma = _ws_join(a, table, room["token"])
        _ws_join(b, table, friend["token"])
        first = ma["current"]
        timed = _until(a, _state(lambda m: "turn" in m["room"]))
        assert timed["room"]["turn"]["seat"] == first and timed["room"]["turn"]["left"] <= 1
        _until(a, _state(lambda m: m["step"] == 1))
        assert live.row.standins == [0] and live.row.actions[0]["seat"] == first
        assert _until(a, _state(lambda m: True))["room"]["standins"][first] >= 1


def test_the_record_marks_stand_in_actions(app: TestClient) -> None:
    room, friend, table = _started(app, turn_seconds=1)
    with app.websocket_connect("/ws") as a:
        _ws_join(a, table, room["token"])
        with app.websocket_connect("/ws") as b:
            _ws_join(b, table, friend["token"])
            msg = _until(a, _state(lambda m: m["terminal"]), limit=2000)
    stored = app.app.state.storage.load_table(table)  # type: ignore[attr-defined]
    assert stored.standins == list(range(len(stored.actions)))  # nobody moved: all timed out
    assert msg["room"]["standins"] == msg["room"]["actions"]
    r = app.get(f"/api/tables/{table}/record", headers={"X-Seat-Token": room["token"]})
    assert r.json()["standins"] == stored.standins
    r = app.get(f"/api/tables/{table}/download", headers={"X-Seat-Token": friend["token"]})
    assert r.json()["standins"] == stored.standins
