"""State messages carry what changed (growing lists as their new entries) and rebuild to
the whole message; the pace setting of a table."""

from __future__ import annotations

import json
import time
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from web_helpers import create

from cardplaza.core.delta import encode, rebuild
from cardplaza.web import create_app
from cardplaza.web.live.tables import seat_message
from cardplaza.web.settings import PACES, Settings

values = st.recursive(st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=3),
                      lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=2), inner, max_size=3), max_leaves=8)
observations = st.dictionaries(st.sampled_from(["hand", "tricks", "bids", "score", "x"]),
                               values | st.lists(st.integers(0, 9), max_size=6), max_size=5)
messages = st.fixed_dictionaries(
    {"type": st.just("state"), "step": st.integers(0, 99), "obs": observations},
    optional={"legal": values, "returns": values, "streak": values, "current": values})


@given(st.lists(messages, min_size=1, max_size=8))
@settings(max_examples=300, deadline=None)
def test_deltas_rebuild_every_message(sequence: list[dict[str, Any]]) -> None:
    prev_sent: dict[str, Any] | None = None
    prev_seen: dict[str, Any] | None = None
    for n, msg in enumerate(sequence, 1):
        wire = json.loads(json.dumps(encode(prev_sent, msg, n)))
        prev_sent = {**msg, "n": n}
        prev_seen = rebuild(prev_seen, wire)
        assert prev_seen == prev_sent


def test_growing_lists_go_as_new_entries() -> None:
    a = {"type": "state", "step": 1, "players": ["p"], "obs": {"tricks": [1, 2], "hand": [5]}}
    b = {"type": "state", "step": 2, "players": ["p"], "obs": {"tricks": [1, 2, 3], "hand": []}}
    wire = encode({**a, "n": 1}, b, 2)
    assert wire == {"type": "state", "delta": 1, "n": 2, "base": 1, "step": 2,
                    "obs": {"set": {"hand": []}, "add": {"tricks": [3]}}}


def test_four_hand_messages_stay_under_4_kb(client: TestClient) -> None:
    """A whole default four-hand game: after the join, every message is under 4 KB, and
    rebuilt it is exactly the seat's view."""
    from cardplaza.core.registry import get_game

    t = create(client, game="pinochle4", seed=31, level="random")
    spec = get_game("pinochle4")
    sizes: list[int] = []
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": t["table"], "token": t["token"]})
        first = ws.receive_text()
        msg = rebuild(None, json.loads(first))
        mirror = spec.new_game(spec.options(msg["options"]), 31)
        while not msg["terminal"]:
            if msg["current"] == msg["seat"]:
                legal = msg["legal"]
                passes = [a for a in legal if a["text"] == "pass"]
                ws.send_json({"type": "act", "action": (passes or legal)[0]["json"],
                              "step": msg["step"]})
            text = ws.receive_text()
            sizes.append(len(text.encode()))
            msg = rebuild(msg, json.loads(text))
            while len(mirror.history) < msg["step"]:
                row = client.app.state.manager.tables[t["table"]].row  # type: ignore[attr-defined]
                step = row.actions[len(mirror.history)]
                mirror.apply(mirror.action_from_json(step["action"]))
            expected = seat_message(mirror, 0)
            assert {k: msg[k] for k in expected} == expected
    assert len(sizes) > 200
    assert max(sizes) < 4096, f"largest message {max(sizes)} bytes"
    print(f"four-hand: join {len(first)} bytes, then {len(sizes)} messages, "
          f"max {max(sizes)}, mean {sum(sizes) / len(sizes):.0f}")


def test_pace_settings_and_bounds() -> None:
    s = Settings(computer_pause=0.6)
    assert [s.pause_for(p) for p in ("slow", "normal", "fast", "instant")] == \
        [1.2, 0.6, s.computer_pause * 0.4, 0.0]
    assert set(PACES) == {"slow", "normal", "fast", "instant"}
    tight = Settings(computer_pause=4.0, pace_min_seconds=0.1, pace_max_seconds=5.0)
    assert tight.pause_for("slow") == 5.0 and tight.pause_for("instant") == 0.1


def _computer_delay(ws: Any, msg: dict[str, Any]) -> float:
    ws.send_json({"type": "act", "action": msg["legal"][0]["json"], "step": msg["step"]})
    mine = msg["step"] + 1
    while ws.receive_json()["step"] < mine:
        pass
    t0 = time.perf_counter()
    while ws.receive_json()["step"] <= mine:
        pass
    return time.perf_counter() - t0


def test_pace_changes_the_computer_pause(db_url: str, toy: None) -> None:
    settings = Settings(computer_pause=0.5, pace_max_seconds=2.0)
    with TestClient(create_app(db_url, settings=settings)) as client:
        t = create(client, game="toy", options={"cards": 8}, seed=1, level="random")
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": t["table"], "token": t["token"],
                          "pace": "instant"})
            msg = ws.receive_json()
            assert msg["pace"] == "instant" and msg["players"][1]["kind"] == "computer"
            assert _computer_delay(ws, msg) < 0.25
            ws.send_json({"type": "settings", "pace": "normal"})
            reply = ws.receive_json()
            paces = []
            while reply["type"] != "settings":
                paces.append(reply["pace"])
                reply = ws.receive_json()
            assert paces[-1:] == ["normal"]  # every seat is told the new pace
            assert reply == {"type": "settings", "pace": "normal"}
            ws.send_json({"type": "state"})
            msg = ws.receive_json()
            while msg["current"] != msg["seat"]:
                msg = ws.receive_json()
            assert 0.45 < _computer_delay(ws, msg) < 1.5
            ws.send_json({"type": "settings", "pace": "ludicrous"})
            err = ws.receive_json()
            assert err["type"] == "error" and err["code"] == "bad_pace"
            ws.send_json({"type": "settings"})
            assert ws.receive_json()["code"] == "missing_field"
