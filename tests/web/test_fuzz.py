"""Fuzzing the server: a Hypothesis state machine sends valid, mutated and random WebSocket
messages and HTTP requests to one table of every game (every seat a person, each with its
own connection) and checks after every step:

* no internal error: no ``internal`` error code, no HTTP 500, no traceback or error line in
  the server's log;
* every refusal leaves the tables as they were (the server's history is the mirror's, which
  only accepted actions change; an action the server accepts must be legal in the mirror);
* every seat's state messages hold that seat's view only: its observation, and legal actions
  only when it is to act, exactly as :func:`~cardplaza.web.live.tables.seat_message` builds
  them from the mirror.

The bounded run is part of ``make test``; ``make fuzz`` (``HYPOTHESIS_PROFILE=fuzz``) runs
many more and longer sequences, with fresh random examples each time.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
from typing import Any
from unittest import mock

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from web_slowwork import no_review, quick_hint

from cardplaza.core.delta import rebuild
from cardplaza.core.protocol import GameState
from cardplaza.core.registry import games, get_game
from cardplaza.web import create_app
from cardplaza.web.learning import handlers
from cardplaza.web.live.tables import seat_message
from cardplaza.web.settings import Settings

LONG = os.environ.get("HYPOTHESIS_PROFILE") == "fuzz"
EXAMPLES = int(os.environ.get("CARDPLAZA_FUZZ_EXAMPLES", 300 if LONG else 10))
STEPS = int(os.environ.get("CARDPLAZA_FUZZ_STEPS", 150 if LONG else 50))

OPTIONS: dict[str, dict[str, Any]] = {
    "pinochle2": {"level": "1"},
    "pinochle4": {"target": 500},
    "pinochle3": {"target": 500},
    "piquet": {"four_deals": True},
}
TYPES = ["join", "act", "state", "settings", "ping", "hint", "helper", "undo", "review",
         "unknown", "", "ACT", "act "]
FUZZ_SETTINGS = Settings(computer_pause=0.0, ai_workers=1, analysis_workers=1,
                         rate_per_second=100_000.0, rate_burst=100_000,
                         address_rate_per_second=100_000.0, address_rate_burst=100_000,
                         player_rate_per_second=100_000.0, player_rate_burst=100_000,
                         tables_burst_per_address=100_000, tables_burst_per_player=100_000,
                         hints_burst_per_address=100_000, hints_burst_per_player=100_000,
                         analysis_burst=100_000, max_open_tables_per_address=100_000,
                         connections_burst_per_address=100_000)

json_leaf = (st.none() | st.booleans() | st.integers(-2**60, 2**60)
             | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12))
json_value = st.recursive(json_leaf, lambda inner: st.lists(inner, max_size=4)
                          | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                          max_leaves=12)


def mutate(value: Any, data: st.DataObject) -> Any:
    """A changed copy of a JSON action: a leaf replaced, a key dropped or added, a type
    changed, the whole wrapped."""
    how = data.draw(st.sampled_from(["leaf", "drop", "add", "wrap", "type", "random"]))
    if how == "random":
        return data.draw(json_value)
    if how == "wrap":
        return [value]
    if how == "type":
        return json.dumps(value) if not isinstance(value, str) else {"text": value}
    if isinstance(value, dict) and value:
        key = data.draw(st.sampled_from(sorted(value)))
        out = dict(value)
        if how == "drop":
            del out[key]
        elif how == "add":
            out[data.draw(st.text(max_size=6))] = data.draw(json_leaf)
        else:
            out[key] = mutate(out[key], data) if isinstance(out[key], (dict, list)) else \
                data.draw(json_leaf | st.integers(-5, 100))
        return out
    if isinstance(value, list) and value:
        i = data.draw(st.integers(0, len(value) - 1))
        out_list = list(value)
        out_list[i] = data.draw(json_leaf | st.integers(-5, 100))
        if how == "drop":
            del out_list[i]
        return out_list
    return data.draw(json_leaf | st.integers(-5, 100))


class Capture(logging.Handler):
    """Error lines and tracebacks of the server's log."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.bad: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or record.levelno >= logging.ERROR:
            self.bad.append(f"{record.name}: {record.getMessage()}")


class Table:
    """One table of the machine: its mirror, its seats' connections and last messages."""

    def __init__(self, game: str, info: dict[str, Any], mirror: GameState,
                 sockets: list[Any]) -> None:
        self.game = game
        self.info = info
        self.mirror = mirror
        self.sockets = sockets
        self.last: list[dict[str, Any] | None] = [None] * len(sockets)


class ServerFuzz(RuleBasedStateMachine):
    """Valid, mutated and random messages against one table of every game."""

    def __init__(self) -> None:
        super().__init__()
        self.patches = [mock.patch.object(handlers, "analysis_in_worker", quick_hint),
                        mock.patch.object(handlers, "review_in_worker", no_review)]
        for p in self.patches:
            p.start()
        self.capture = Capture()
        logging.getLogger().addHandler(self.capture)
        self.folder = tempfile.mkdtemp(prefix="cardplaza-fuzz-")
        db = f"sqlite:///{self.folder}/fuzz.sqlite3"
        self.client = TestClient(create_app(db, settings=FUZZ_SETTINGS))
        self.client.__enter__()
        self.tables: list[Table] = []
        self.nonce = 0
        for game in games():
            spec = get_game(game)
            options = OPTIONS.get(game, {})
            n = spec.new_game(spec.options(options), 1).num_players
            seed = 1000 + len(self.tables)
            r = self.client.post("/api/tables", json={
                "game": game, "options": options, "seed": seed,
                "humans": list(range(n)), "level": "random"})
            assert r.status_code == 200, r.text
            info = r.json()
            sockets = []
            for s in range(n):
                ws = self.client.websocket_connect("/ws").__enter__()
                ws.send_json({"type": "join", "table": info["table"],
                              "token": info["tokens"][str(s)]})
                sockets.append(ws)
            table = Table(game, info, spec.new_game(spec.options(options), seed), sockets)
            self.tables.append(table)
            self._drain(table)
            first = table.last[0]
            assert first is not None  # the options as stored (player names filled in)
            table.mirror = spec.new_game(spec.options(first["options"]), seed)

    def teardown(self) -> None:
        for table in self.tables:
            for ws in table.sockets:
                ws.__exit__(None, None, None)
        self.client.__exit__(None, None, None)
        logging.getLogger().removeHandler(self.capture)
        for p in self.patches:
            p.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    # -- helpers -----------------------------------------------------------------------------
    def _drain(self, table: Table, first: int = 0) -> list[dict[str, Any]]:
        """Every message each seat of a table got so far (a ping's pong marks the end);
        state messages are rebuilt whole and kept as the seat's last. The connection that
        sent the last message goes ``first``: once its pong is back, what its message
        caused has been queued to every seat."""
        got = []
        order = [first, *(s for s in range(len(table.sockets)) if s != first)]
        for s in order:
            ws = table.sockets[s]
            self.nonce += 1
            ws.send_json({"type": "ping", "t": self.nonce})
            while True:
                msg = json.loads(ws.receive_text())
                if msg == {"type": "pong", "t": self.nonce}:
                    break
                if msg.get("type") == "state":
                    msg = rebuild(table.last[s], msg)
                    table.last[s] = msg
                got.append(msg)
                assert msg.get("code") != "internal", msg
        return got

    def _check_table(self, table: Table) -> None:
        manager = self.client.app.state.manager  # type: ignore[attr-defined]
        live = manager.tables[table.info["table"]]
        if len(live.state.history) == len(table.mirror.history) + 1:
            seat, action = live.state.history[-1]
            assert table.mirror.current_player == seat
            table.mirror.apply(action)  # raises if the server took an illegal action
        assert live.state.history == table.mirror.history
        for s, msg in enumerate(table.last):
            assert msg is not None
            expected = seat_message(table.mirror, s)
            wrong = sorted(k for k in expected if msg.get(k) != expected[k])
            assert not wrong, (table.game, s, wrong, msg["step"], len(table.mirror.history))
            assert msg["seat"] == s and msg["step"] == len(table.mirror.history)

    def _table(self, data: st.DataObject) -> Table:
        return self.tables[data.draw(st.integers(0, len(self.tables) - 1))]

    # -- rules ---------------------------------------------------------------------------------
    @rule(data=st.data())
    def act_legally(self, data: st.DataObject) -> None:
        table = self._table(data)
        if table.mirror.is_terminal:
            return
        seat = table.mirror.current_player
        msg = table.last[seat]
        assert msg is not None and msg["legal"]
        choice = data.draw(st.sampled_from(msg["legal"]))
        step = data.draw(st.sampled_from([None, msg["step"]]))
        out: dict[str, Any] = {"type": "act", "action": choice["json"]}
        if step is not None:
            out["step"] = step
        table.sockets[seat].send_json(out)
        self._drain(table, seat)
        self._check_table(table)

    @rule(data=st.data())
    def act_mutated(self, data: st.DataObject) -> None:
        table = self._table(data)
        seat = data.draw(st.integers(0, len(table.sockets) - 1))
        current = table.mirror.current_player
        source = table.last[current] if 0 <= current < len(table.last) else None
        legal = source["legal"] if source else []
        base = data.draw(st.sampled_from(legal))["json"] if legal else {"play": 0}
        out: dict[str, Any] = {"type": "act", "action": mutate(base, data)}
        if data.draw(st.booleans()):
            out["step"] = data.draw(st.integers(-2, len(table.mirror.history) + 2)
                                    | json_leaf)
        if data.draw(st.booleans()):
            out["table"] = data.draw(st.sampled_from([table.info["table"], "nope", 7]))
        table.sockets[seat].send_json(out)
        self._drain(table, seat)
        self._check_table(table)

    @rule(data=st.data())
    def random_message(self, data: st.DataObject) -> None:
        table = self._table(data)
        seat = data.draw(st.integers(0, len(table.sockets) - 1))
        ws = table.sockets[seat]
        kind = data.draw(st.integers(0, 3))
        if kind == 0:
            ws.send_text(data.draw(st.text(max_size=40)))
        elif kind == 1:
            ws.send_text(data.draw(st.sampled_from(
                ["{", "[]", "null", '{"type": 5}', '{"type": "act"}', "[" * 40 + "]" * 40,
                 '{"type": "join", "table": "x", "token": "y"}',
                 '{"type": "settings", "pace": ["fast"]}', '{"type": "ping", "t": NaN}',
                 '{"type": "act", "action": {"play": Infinity}}', '{"type": "ping"} x'])))
        else:
            msg = data.draw(st.dictionaries(st.text(max_size=8), json_value, max_size=4))
            msg["type"] = data.draw(st.sampled_from(TYPES))
            if msg["type"] == "join":  # never another seat's real token: the seat stays
                msg["token"] = data.draw(st.text(max_size=30))
            ws.send_json(msg)
        self._drain(table, seat)
        self._check_table(table)

    @rule(data=st.data())
    def change_pace(self, data: st.DataObject) -> None:
        table = self._table(data)
        pace = data.draw(st.sampled_from(["slow", "normal", "fast", "instant"]))
        table.sockets[0].send_json({"type": "settings", "pace": pace})
        self._drain(table)
        self._check_table(table)
        assert all(m is not None and m["pace"] == pace for m in table.last)

    @precondition(lambda self: bool(self.tables))
    @rule(data=st.data())
    def http_request(self, data: st.DataObject) -> None:
        table = self._table(data)
        tid = table.info["table"]
        token = data.draw(st.sampled_from([*table.info["tokens"].values(), "", "x" * 300]))
        kind = data.draw(st.sampled_from(["create", "download", "replay", "record",
                                          "upload", "stats", "players"]))
        body = data.draw(json_value)
        headers = {"X-Seat-Token": token}
        if kind == "create":
            if isinstance(body, dict) and data.draw(st.booleans()):
                body["game"] = data.draw(st.sampled_from([*games(), "toy", "nope"]))
            r = self.client.post("/api/tables", json=body)
        elif kind == "upload":
            if data.draw(st.booleans()):
                first = table.last[0] or {}
                body = {"record": {"format": "cardplaza-record/1", "game": table.game,
                                   "options": first.get("options", {}), "seed": 1,
                                   "actions": data.draw(st.lists(json_value, max_size=5))}}
            r = self.client.post("/api/replay", json=body)
        elif kind == "stats":
            r = self.client.get("/api/stats", headers={"X-Player-Key": token})
        elif kind == "players":
            r = self.client.post("/api/players", json=body)
        else:
            r = self.client.get(f"/api/tables/{tid}/{kind}", headers=headers)
        assert r.status_code < 500 or r.json()["code"] in ("server_busy",), r.text
        if r.status_code >= 400:
            assert r.json()["code"] != "internal"
        seats = [int(s) for s, t in table.info["tokens"].items() if t == token]
        if kind in ("download", "replay") and r.status_code == 200 and \
                not table.mirror.is_terminal:
            assert seats, "a record without a seat's token"
            out = r.json()
            seat = seats[0]
            if kind == "download":
                assert "seed" not in out and out["observation"] == \
                    table.mirror.observation(seat)
            else:
                assert all(v is None for f in out["frames"]
                           for k, v in enumerate(f["views"]) if k != seat)
        self._check_table(table)

    @invariant()
    def nothing_went_wrong_inside(self) -> None:
        assert not self.capture.bad, self.capture.bad


TestServerFuzz = ServerFuzz.TestCase
TestServerFuzz.settings = settings(max_examples=EXAMPLES, stateful_step_count=STEPS,
                                   deadline=None,
                                   suppress_health_check=list(HealthCheck))
