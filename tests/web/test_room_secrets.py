"""Secrets at a table of several people: over random games of every registered game, no
message a seat is sent tells it a card it cannot see.

A room table with people at every seat but the last (a computer) is played at random. The
property is checked in two ways that need no knowledge of where a message keeps its cards:

* **The seat's own view.** Every state message (the first on joining, each broadcast rebuilt
  from its delta, the one after coming back, after a stand-in takes over or hands back,
  during an undo request) holds exactly what the server builds from the game's
  ``observation(seat)`` at that step; that part does not change when the cards the seat
  cannot see are re-dealt (``permute_unseen``); everything else in the message is one of the
  table's public facts, the same for every seat.
* **Re-dealt worlds.** At a person's turn the table's state is swapped for one where every
  card that person cannot see is re-dealt; the whole state message sent on request and the
  error for a move with a card they do not hold must be the same word for word in both
  worlds. Hints and the bid helper are computed from exactly the asking seat's observation
  and legal actions, and suggest only those actions.

Messages that concern no card (notices of stand-ins, undo requests and their ends) carry
no card name and no field beyond their own.

Apart from that: a seat token riding along on another seat's connection, an expired
invite and a revoked invite can neither act nor read a hand.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardplaza.core.delta import rebuild
from cardplaza.core.protocol import GameState
from cardplaza.core.registry import GameSpec, games, get_game
from cardplaza.web import create_app
from cardplaza.web.live.gameinfo import deck_of
from cardplaza.web.live.tables import seat_message
from cardplaza.web.settings import Settings
from cardplaza.web.store.rooms import RoomStore

SETTINGS = Settings(computer_pause=0.0, rate_per_second=10_000.0, rate_burst=10_000,
                    ai_workers=1, standin_seconds=1, standin_min_seconds=1,
                    undo_request_seconds=30.0, hints_burst_per_address=10_000,
                    hints_burst_per_player=10_000, analysis_burst=10_000)
SMALL: dict[str, dict[str, Any]] = {
    "pinochle2": {"level": "1"},
    "pinochle4": {"target": 500},
    "pinochle3": {"target": 500},
    "pinochle_dd": {"target": 500},
    "piquet": {"four_deals": True},
}
STEPS = 64
"""Actions of each random game looked at (the first hand: auction, passing, melds, play)."""
PUBLIC_KEYS = {"type", "table", "game", "seat", "step", "players", "options", "pace",
               "room", "helps", "streak", "n", "fair"}
FAIR_KEYS = {"deal", "commitment", "log"}
"""The deal's commitment and the action log's digest: hashes every seat gets alike."""
ROOM_KEYS = {"id", "hints", "standin_seconds", "turn_seconds", "seats", "actions",
             "standins", "turn", "undo", "move", "watching", "spectators", "next"}
PLAIN = {
    "notice": {"type", "kind", "seat"},
    "undo_asked": {"type", "keep"},
    "undo_ended": {"type", "reason", "by", "seat"},
    "undone": {"type", "step", "from", "helps"},
    "error": {"type", "code", "message", "params"},
}


@pytest.fixture
def app(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, settings=SETTINGS)) as c:
        yield c


def _key(c: TestClient, name: str) -> str:
    r = c.post("/api/players", json={"name": name})
    assert r.status_code == 200
    key: str = r.json()["key"]
    return key


def _post(c: TestClient, path: str, key: str, body: dict[str, Any]) -> dict[str, Any]:
    r = c.post(path, json=body, headers={"X-Player-Key": key})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def room_table(c: TestClient, game: str, options: dict[str, Any], people: int,
               **config: Any) -> tuple[str, dict[int, str], dict[str, Any]]:
    """A started room of ``game``: people at seats 0…people-1, a computer after them.
    Returns the table id, each person's seat token and the host's room answer."""
    spec = get_game(game)
    n = spec.new_game(spec.options(options), 0).num_players
    host = _key(c, "P0")
    kinds = ["me"] + ["open"] * (people - 1) + ["computer"] * (n - people)
    room = _post(c, "/api/rooms", host, {
        "game": game, "options": options, "name": "P0", "seats": kinds,
        "config": {"level": spec.levels[0], "standin_seconds": 1, **config}})
    tokens = {0: room["token"]}
    keys = {0: host}
    for s in range(1, people):
        keys[s] = _key(c, f"P{s}")
        got = _post(c, "/api/rooms/join", keys[s],
                    {"secret": room["invite_token"], "seat": s, "name": f"P{s}"})
        tokens[s] = got["token"]
    started = _post(c, f"/api/rooms/{room['room']}/start", host, {})
    return str(started["table"]), tokens, {**room, "host_key": host, "guest_keys": keys}


def card_names(state: GameState) -> re.Pattern[str] | None:
    """Any card's name as the game writes it (``10♥``, ``10H``)."""
    deck = deck_of(state)
    if deck is None:
        return None
    names = {deck.text(c) for c in range(deck.size)}
    names |= {deck.text(c, ascii_only=True) for c in range(deck.size)}
    alts = "|".join(re.escape(x) for x in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![\w♠♥♦♣])(?:{alts})(?![\w♠♥♦♣])")


def playable(state: GameState, data: Any) -> bool:
    """True when the action whose JSON form is ``data`` is legal in ``state`` (listed by
    ``legal_actions`` or not, as four-hand Pinochle's jump bids)."""
    try:
        state.clone().apply(state.action_from_json(data))
    except Exception:
        return False
    return True


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)


class Seat:
    """One person's connection: whole state messages rebuilt from deltas."""

    def __init__(self, c: TestClient, table: str, seat: int, token: str) -> None:
        self.cm = c.websocket_connect("/ws")
        self.ws = self.cm.__enter__()
        self.seat = seat
        self.last: dict[str, Any] | None = None
        self.ws.send_json({"type": "join", "table": table, "token": token})

    def recv(self) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.ws.receive_text())
        if msg.get("type") == "state":
            msg = rebuild(self.last, msg)
            self.last = msg
        return msg

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send_json(msg)

    def close(self) -> None:
        self.cm.__exit__(None, None, None)


class Game:
    """A random game at a room table, every message checked as it arrives."""

    def __init__(self, c: TestClient, name: str, options: dict[str, Any], seed: int) -> None:
        self.c = c
        self.spec: GameSpec = get_game(name)
        n = self.spec.new_game(self.spec.options(options), 0).num_players
        self.people = max(2, n - 1)
        self.table, self.tokens, self.room = room_table(c, name, options, self.people)
        self.live = c.app.state.manager.tables[self.table]  # type: ignore[attr-defined]
        self.rng = random.Random(seed)
        row = self.live.row
        first = self.spec.new_game(self.spec.options(row.options), row.seed)
        self.states: list[GameState] = [first]
        self.names = card_names(first)
        self.seats: dict[int, Seat] = {}
        self.seen: dict[str, int] = {}
        self.pending_return: int | None = None
        self.undo_again: int | None = None
        """A refused undo request is asked again at this step or later (cards come to
        light at most turns of some games, so one try may never be allowed)."""

    def start(self) -> None:
        for s in range(self.people):
            self.connect(s)

    # -- the game as it was at each step ------------
    def at(self, step: int) -> GameState:
        history = list(self.live.state.history)
        while len(self.states) <= step:
            nxt = self.states[-1].clone()
            nxt.apply(history[len(self.states) - 1][1])
            self.states.append(nxt)
        return self.states[step]

    # -- checks ------------
    def check(self, seat: int, msg: dict[str, Any]) -> None:
        kind = str(msg.get("type"))
        self.seen[kind] = self.seen.get(kind, 0) + 1
        if kind == "state":
            self.check_state(seat, msg)
            return
        assert kind in PLAIN, msg
        assert set(msg) <= PLAIN[kind], msg
        if self.names is not None:
            named = [m.group(0) for x in strings(msg) for m in self.names.finditer(x)]
            assert not named, (msg, named)

    def check_move(self, move: dict[str, Any]) -> None:
        """The table's last move is told whole only when every other seat sees it whole,
        else in the words the others see ("passes a card")."""
        step = move["step"]
        before = self.at(step)
        seat, action = self.live.state.history[step]
        assert move["seat"] == seat
        hidden = next((h for v in range(before.num_players) if v != seat
                       for h in [before.public_action(action, v)] if h is not None), None)
        if hidden is None:
            assert move["text"] == before.action_text(action)
            assert move["json"] == before.action_to_json(action)
        else:
            assert move["text"] == hidden and "json" not in move

    def check_state(self, seat: int, msg: dict[str, Any]) -> None:
        assert msg["seat"] == seat
        state = self.at(msg["step"])
        own = seat_message(state, seat)
        assert {k: msg[k] for k in own} == own
        assert set(msg) - set(own) <= PUBLIC_KEYS, set(msg) - set(own)
        row = self.live.row
        if "fair" in msg:
            assert set(msg["fair"]) == FAIR_KEYS and str(row.seed) not in json.dumps(msg["fair"])
        assert msg["options"] == row.options and msg["table"] == self.table
        assert msg["players"] == [{"name": s.name, "kind": s.kind, "level": s.level}
                                  for s in row.seats]
        facts = dict(msg["room"])
        assert set(facts) <= ROOM_KEYS
        move = facts.pop("move", None)
        if move is not None:
            self.check_move(move)
        assert json.dumps(facts).count('"') <= 2 * (len(facts) + 12)  # no text but keys
        if not state.is_terminal and self.spec.permute_unseen is not None:
            other = self.spec.permute_unseen(state, seat, self.rng)
            assert seat_message(other, seat) == own

    def drain(self, step: int) -> None:
        """Read every connected seat's messages until its view reached ``step``."""
        for seat, conn in list(self.seats.items()):
            while conn.last is None or (conn.last["step"] < step
                                        and not conn.last["terminal"]):
                self.check(seat, conn.recv())

    def expect(self, seat: int, *kinds: str) -> dict[str, Any]:
        """Read ``seat``'s messages (checking each) until one of ``kinds``."""
        for _ in range(200):
            msg = self.seats[seat].recv()
            self.check(seat, msg)
            if msg["type"] in kinds:
                return msg
        raise AssertionError(f"no {kinds} message")

    # -- people come and go ------------
    def connect(self, seat: int) -> None:
        self.seats[seat] = Seat(self.c, self.table, seat, self.tokens[seat])
        self.drain(len(self.live.state.history))

    def leave(self, seat: int) -> None:
        self.seats.pop(seat).close()

    # -- moves ------------
    def human_turn(self) -> tuple[int, int] | None:
        """The person to act now (connected, no stand-in for them), with the step."""
        live = self.live
        addon = live.addon
        seat = live.state.current_player
        step = len(live.state.history)
        if live.state.is_terminal or seat not in self.seats or seat in addon.standins:
            return None
        if len(live.state.history) != step:
            return None
        return seat, step

    def play(self, seat: int, step: int) -> None:
        state = self.at(step)
        legal = state.legal_actions()
        passes = [a for a in legal if state.action_text(a) == "pass"]
        pick = passes[0] if passes and self.rng.random() < 0.7 else self.rng.choice(legal)
        self.seats[seat].send({"type": "act", "action": state.action_to_json(pick),
                               "step": step})
        self.drain(step + 1)

    def wait(self) -> None:
        """No person is to act: read the host's next message (a computer's move)."""
        step = len(self.live.state.history)
        self.drain(step)
        if len(self.live.state.history) == step and self.human_turn() is None \
                and not self.live.state.is_terminal:
            self.check(0, self.seats[0].recv())

    def run(self, steps: int, at: dict[int, Any]) -> None:
        """Play until ``steps`` actions were made; ``at[k]`` runs when a person is to act
        at step k or later (once)."""
        pending = dict(sorted(at.items()))
        deadline = time.monotonic() + 20
        while len(self.live.state.history) < steps and not self.live.state.is_terminal:
            assert time.monotonic() < deadline, "the game stalled"
            turn = self.human_turn()
            if turn is None:
                self.wait()
                continue
            seat, step = turn
            self.drain(step)
            due = [k for k in pending if k <= step]
            if due:
                pending.pop(due[0])(seat, step)
                continue
            if (self.undo_again is not None and step >= self.undo_again
                    and self.pending_return is None):
                self.undo_again = None
                self.undo(seat, step)
                continue
            self.play(seat, step)

    # -- the re-dealt world ------------
    def swapped(self, seat: int, step: int) -> None:
        """The state message on request and a wrong move's error are the same in a world
        where every card ``seat`` cannot see is re-dealt."""
        assert self.spec.permute_unseen is not None
        live = self.live
        real = live.state
        assert len(real.history) == step and real.current_player == seat
        world = self.spec.permute_unseen(real, seat, self.rng)
        assert world.observation(seat) == real.observation(seat)
        # A move with cards this seat does not hold: its legal moves in a world where its
        # own hand was dealt again.
        other = (seat + 1) % real.num_players
        elsewhere = self.spec.permute_unseen(real, other, self.rng)
        mine = {json.dumps(real.action_to_json(a)) for a in real.legal_actions()}
        wrong = [x for x in (json.dumps(elsewhere.action_to_json(a))
                             for a in elsewhere.legal_actions()) if x not in mine] \
            or [json.dumps({"nonsense": True})]
        answers: list[list[dict[str, Any]]] = []
        conn = self.seats[seat]
        for state in (real, world):
            live.state = state
            try:
                got = []
                conn.send({"type": "act", "action": json.loads(wrong[0]),
                           "step": len(state.history)})
                got.append(conn.recv())
                conn.send({"type": "state"})
                got.append(conn.recv())
            finally:
                live.state = real
            answers.append(got)
        assert answers[0][0]["type"] == "error"
        self.seen["error"] = self.seen.get("error", 0) + 1  # (it names the card sent)
        self.check(seat, answers[0][-1])
        conn.send({"type": "state"})  # the real world's view again, for what follows
        self.check(seat, conn.recv())

        # ``n`` numbers a connection's state messages; ``step`` counts the history, which a
        # re-dealt Piquet world keeps of the current deal only.
        def same(msgs: list[dict[str, Any]]) -> list[dict[str, Any]]:
            return [{k: v for k, v in m.items() if k not in ("n", "step")} for m in msgs]

        assert same(answers[0]) == same(answers[1])

    def advice(self, seat: int, step: int) -> None:
        """A hint and the helper: computed from this seat's observation and legal moves
        only, suggesting only those moves."""
        manager = self.c.app.state.manager  # type: ignore[attr-defined]
        calls: list[tuple[Any, ...]] = []
        original = manager.run_analysis

        async def spy(fn: Any, game: str, obs: Any, legal: Any, *rest: Any,
                      deadline: float | None = None) -> Any:
            # What the analysis is given, then the analysis itself (briefly, in a thread
            # of this process rather than a worker process); its time cap comes last.
            calls.append((obs, list(legal)))
            *given, seconds = rest
            return await asyncio.to_thread(fn, game, obs, legal, *given, min(seconds, 0.05))

        manager.run_analysis = spy
        try:
            state = self.at(step)
            for kind in ("hint", "helper"):
                self.seats[seat].send({"type": kind})
                msg = self.seats[seat].recv()
                assert msg["type"] in (kind, "error"), msg
                if msg["type"] == "error":
                    assert msg["code"] in ("hint_failed", "analysis_busy"), msg
                    continue
                assert msg["step"] == step
                self.seen[kind] = self.seen.get(kind, 0) + 1
                if kind == "hint":
                    legal = [state.action_to_json(a) for a in state.legal_actions()]
                    assert msg["best"] in legal
                    # A choice may be legal without being listed: a bid hint weighs a jump
                    # to the bid its simulations support (how far they get in the time
                    # cap decides whether that is above the lowest bid).
                    assert all(ch["action"] in legal or playable(state, ch["action"])
                               for ch in msg["choices"]), msg["choices"]
        finally:
            manager.run_analysis = original
        assert calls, "no analysis ran"
        for obs, legal in calls:
            assert obs == state.observation(seat)
            assert legal in ([], list(state.legal_actions()))

    def undo(self, seat: int, step: int) -> None:
        """An undo request the next person refuses (or the server refuses outright)."""
        if self.seen.get("undo_asked", 0) >= 2:
            self.play(seat, step)
            return
        self.seats[seat].send({"type": "undo"})
        msg = self.expect(seat, "undo_asked", "error")
        if msg["type"] == "error":
            assert msg["code"] in ("nothing_to_undo", "undo_revealed"), msg
            self.undo_again = step + 1
            return
        other = next(s for s in self.seats if s != seat)
        self.seats[other].send({"type": "undo_answer", "accept": False})
        ended = self.expect(seat, "undo_ended")
        assert ended["reason"] == "refused"

    def away_and_back(self, seat: int, step: int) -> None:
        """A person other than the host leaves: the countdown, the stand-in takes over;
        later the person comes back."""
        gone = self.people - 1
        self.leave(gone)
        self.expect(0, "notice")  # a computer stands in
        self.pending_return = gone

    def come_back(self, seat: int, step: int) -> None:
        gone = self.pending_return
        if gone is None:
            return
        self.connect(gone)
        self.pending_return = None

    def close(self) -> None:
        for conn in self.seats.values():
            conn.close()
        self.seats.clear()


def _cases() -> list[tuple[str, dict[str, Any]]]:
    return [(name, SMALL.get(name, {})) for name in games()]


@pytest.mark.parametrize(("game", "options"), _cases(), ids=[c[0] for c in _cases()])
def test_no_message_shows_a_card_the_seat_cannot_see(app: TestClient, game: str,
                                                     options: dict[str, Any]) -> None:
    started = time.perf_counter()
    g = Game(app, game, options, seed=sum(map(ord, game)))
    try:
        g.start()
        g.run(STEPS, {
            3: g.swapped,
            5: g.advice,
            8: g.undo,
            12: g.away_and_back,
            26: g.come_back,
            34: g.swapped,
            40: g.undo,
            46: g.undo,
            52: g.undo,
            58: g.undo,
        })
        g.drain(len(g.live.state.history))
    finally:
        g.close()
    # Every kind of message was seen and checked.
    assert {"state", "notice", "undo_asked", "undo_ended", "error", "hint"} <= set(g.seen), \
        g.seen
    print(f"{game}: {len(g.live.state.history)} actions, {g.seen}, "
          f"{time.perf_counter() - started:.1f}s")


# -- tokens and invites that are not a seat's ---------------------------------------------------

def _hands_of(c: TestClient, table: str, token: str) -> list[int]:
    """HTTP statuses of every way to read a table's record with ``token``."""
    return [c.get(f"/api/tables/{table}/{what}", headers={"X-Seat-Token": token}).status_code
            for what in ("record", "download", "replay")]


def test_other_tokens_and_dead_invites_neither_act_nor_read(app: TestClient) -> None:
    table, tokens, room = room_table(app, "pinochle4", {"target": 500}, 3,
                                     standin_seconds=180)
    live = app.app.state.manager.tables[table]  # type: ignore[attr-defined]
    store = RoomStore(app.app.state.storage)  # type: ignore[attr-defined]
    assert _hands_of(app, table, tokens[0])[1:] == [200, 200]  # (the record: once over)
    # Another seat's token riding along on seat 0's connection: refused for every request.
    with app.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": table, "token": tokens[0]})
        first = ws.receive_json()
        assert first["type"] == "state" and first["obs"] == live.state.observation(0)
        step = len(live.state.history)
        action = live.state.action_to_json(live.state.legal_actions()[0])
        for kind in ("act", "hint", "helper", "undo"):
            ws.send_json({"type": kind, "action": action, "table": table,
                          "token": tokens[1], "step": step})
            got = ws.receive_json()
            while got["type"] in ("state", "notice"):  # (the others' presence)
                assert got.get("obs", live.state.observation(0)) == \
                    live.state.observation(0)
                got = ws.receive_json()
            assert got.get("code") in ("not_your_seat", "hints_off", "not_your_turn"), got
            assert "obs" not in got and "hand" not in json.dumps(got)
        assert len(live.state.history) == step
    # A revoked invite (and its code) of the running game, and an expired one of a room
    # not yet started, find no room, take no seat, are no seat token and read nothing.
    r = app.post(f"/api/rooms/{room['room']}/revoke", json={},
                 headers={"X-Player-Key": _key(app, "P9")})
    assert r.json()["code"] == "not_in_room"
    r = app.post(f"/api/rooms/{room['room']}/revoke", json={},
                 headers={"X-Player-Key": room["guest_keys"][1]})
    assert r.json()["code"] == "not_host"
    _post(app, f"/api/rooms/{room['room']}/revoke", room["host_key"], {})
    dead = [(table, room["invite_token"]), (table, room["code"])]
    other = _post(app, "/api/rooms", room["host_key"], {"game": "pinochle4", "name": "P0"})
    row = store.load(other["room"])
    assert row is not None
    row.expires = time.time() - 1
    assert store.save(row)
    dead += [(table, other["invite_token"]), (table, other["code"])]
    for where, secret in dead:
        for path in ("/api/rooms/find", "/api/rooms/join"):
            r = app.post(path, json={"secret": secret, "seat": 1},
                         headers={"X-Player-Key": _key(app, "P8")})
            assert r.status_code == 404 and r.json()["code"] == "bad_invite", r.text
        assert all(code in (403, 404) for code in _hands_of(app, where, secret))
        with app.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": where, "token": secret})
            assert ws.receive_json()["code"] == "bad_token"
            ws.send_json({"type": "act", "action": action, "table": where, "token": secret})
            assert ws.receive_json()["code"] == "bad_token"
