"""Hints, undo, helpers, records, the replay viewer's frames, review and statistics over the
web: each refused where the issue says, and each answering from the seat's view only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import create

from cardplaza.core.delta import rebuild
from cardplaza.core.history import GameRecord
from cardplaza.core.registry import get_game


@pytest.fixture(autouse=True)
def patient(monkeypatch: pytest.MonkeyPatch) -> None:
    """Test workers compile the search kernels on first use (a server's are warmed up when
    it starts), so the analyses get a long deadline here."""
    from cardplaza.web.learning import handlers as learning

    for name in ("HINT_DEADLINE", "HELPER_DEADLINE", "REVIEW_DEADLINE"):
        monkeypatch.setattr(learning, name, 300.0)


def _join(ws: Any, t: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    ws.send_json({"type": "join", "table": t["table"], "token": token or t["token"]})
    msg: dict[str, Any] = ws.receive_json()
    assert msg["type"] == "state", msg
    return msg


def _until(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of a type (state messages before it are skipped)."""
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg
        if msg["type"] == "error":
            return msg


def _collect(ws: Any, kind: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The next message of a type (or an error), with the state messages before it."""
    states = []
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "state":
            states.append(msg)
        elif msg["type"] in (kind, "error"):
            return msg, states


def _my_turn(ws: Any, msg: dict[str, Any]) -> dict[str, Any]:
    while msg["current"] != msg["seat"] and not msg["terminal"]:
        msg = _until(ws, "state")
    return msg


def _act(ws: Any, msg: dict[str, Any], i: int = 0) -> dict[str, Any]:
    ws.send_json({"type": "act", "action": msg["legal"][i]["json"], "step": msg["step"]})
    return _my_turn(ws, _until(ws, "state"))


# -- hints -----------------------------------------------------------------------------------

def test_hint_names_a_legal_action_with_reasons(client: TestClient) -> None:
    t = create(client, game="pinochle4", seed=7, level="normal")
    with client.websocket_connect("/ws") as ws:
        msg = _my_turn(ws, _join(ws, t))
        ws.send_json({"type": "hint"})
        h = _until(ws, "hint")
    assert h["type"] == "hint", h
    assert h["step"] == msg["step"]
    assert h["best"] in [a["json"] for a in msg["legal"]] or h["best"]["kind"] == "bid"
    assert h["reason"]["en"] and h["reason"]["ja"]
    assert h["choices"] and all({"action", "text", "value"} <= set(c) for c in h["choices"])
    assert h["helps"] == {"hint": 1}


def test_hint_refused_out_of_turn_and_for_another_seat(client: TestClient) -> None:
    t = create(client, game="pinochle2", seed=3, options={"level": "3"}, humans=[0, 1])
    tokens = t["tokens"]
    with client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
        ma = _join(a, t, tokens["0"])
        mb = _join(b, t, tokens["1"])
        first, other = (a, b) if ma["current"] == 0 else (b, a)
        assert ma["current"] == mb["current"]
        other.send_json({"type": "hint"})
        assert _until(other, "hint")["code"] == "not_your_turn"
        wrong = tokens["1"] if first is a else tokens["0"]
        first.send_json({"type": "hint", "token": wrong})
        assert _until(first, "hint")["code"] == "not_your_seat"
        first.send_json({"type": "hint"})
        assert _until(first, "hint")["type"] == "hint"


def _playoff_position() -> Any:
    """Two-hand Pinochle, seat 0 to lead in the playoff: A♥ 9♥ 9♦ against 10♥ K♦ 9♣, hearts
    trump, seat 1 ten meld points ahead. Leading the 9♦ (draws the K♦, then the A♥ catches
    the 10♥) wins by 10; the A♥ first draws, the 9♥ first loses (exact playoff values)."""
    from cardplaza.core.cards import PINOCHLE
    from cardplaza.games.pinochle2.engine import POINTS, Options, Pinochle2State

    st = Pinochle2State(Options(), 0)
    taken: set[int] = set()

    def cards(text: str) -> list[int]:
        out = []
        for word in text.split():
            f = PINOCHLE.parse_face(word)
            c = f if f not in taken else f + 24
            taken.add(c)
            out.append(c)
        return out

    mine, theirs = cards("A♥ 9♥ 9♦"), cards("10♥ K♦ 9♣")
    rest = [c for c in range(48) if c not in taken]
    st.trump, st.stock, st.turn, st.lead = 0, [], 0, -1
    st.hands = [sum(1 << c for c in mine), sum(1 << c for c in theirs)]
    st.tricks = [(0, rest[i], rest[i + 1], 0) for i in range(0, len(rest), 2)]
    st.counters = [sum(POINTS[c] for c in rest), 0]
    st.meld_points = [0, st.counters[0] + 10]
    st.melded, st.known, st.used, st.nine_bonus = [0, 0], [0, 0], [0] * 6, -1
    return st


def test_hint_at_the_table_names_the_clearly_best_card(client: TestClient) -> None:
    t = create(client, game="pinochle2", seed=1, options={"level": "3"})
    manager = client.app.state.manager  # type: ignore[attr-defined]
    with client.websocket_connect("/ws") as ws:
        _join(ws, t)
        table = manager.tables[t["table"]]
        table.state = _playoff_position()  # a built position in place of the deal
        ws.send_json({"type": "hint"})
        h = _until(ws, "hint")
    assert h["type"] == "hint", h
    assert h["best_text"] == "play 9♦" and h["choices"][0]["text"] == "play 9♦"
    assert h["choices"][0]["value"] == 10.0 and h["exact"]
    assert h["choices"][0]["value"] - h["choices"][1]["value"] >= 10
    assert h["reason"]["en"] and h["reason"]["ja"]


def test_hint_is_unchanged_when_the_unseen_cards_are_re_dealt(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server hands the worker the seat's observation alone: a table whose hidden cards
    are re-dealt (same observation) gets the same hint, with the hint's seed fixed."""
    import random

    from cardplaza.web.learning import handlers as learning

    # The expert's fixed budget decides, not the clock (which a loaded machine would cut).
    monkeypatch.setattr(learning, "ANALYSIS_SECONDS", 120.0)
    seen: list[tuple[Any, ...]] = []
    t = create(client, game="pinochle4", seed=21, level="normal")
    manager = client.app.state.manager  # type: ignore[attr-defined]
    original = manager.run_analysis

    async def spy(fn: Any, *args: Any, deadline: float | None = None) -> Any:
        seen.append(args)
        return await original(fn, *args, deadline=deadline)

    monkeypatch.setattr(manager, "run_analysis", spy)
    answers = []
    with client.websocket_connect("/ws") as ws:
        msg = _my_turn(ws, _join(ws, t))
        table = manager.tables[t["table"]]
        state = table.state
        spec = get_game("pinochle4")
        assert spec.permute_unseen is not None
        for k in range(2):
            if k:
                other = spec.permute_unseen(state, msg["seat"], random.Random(5))
                assert other.observation(msg["seat"]) == state.observation(msg["seat"])
                assert [other.observation(s)["hand"] for s in range(4)] != [
                    state.observation(s)["hand"] for s in range(4)]
                table.state = other
                table.analyses = None  # analysed anew, not read from the kept analysis
            ws.send_json({"type": "hint"})
            answers.append({k: v for k, v in _until(ws, "hint").items()
                            if k not in ("helps", "seconds")})
    assert answers[0]["type"] == "hint" and answers[0] == answers[1]
    # What went to the worker: the game, the seat's observation, its legal actions, a clock.
    assert seen[0][0] == "pinochle4" and seen[0][1] == msg["obs"]
    assert seen[0] == seen[1]


def test_streak_game_refuses_hints_helpers_and_undo(client: TestClient) -> None:
    t = create(client, game="pinochle2", seed=5, name="Ladder", streak="new")
    with client.websocket_connect("/ws") as ws:
        msg = _my_turn(ws, _join(ws, t))
        mine = (msg["step"], msg["legal"][0]["json"])
        msg = _act(ws, msg)
        for kind in ("hint", "helper", "undo"):
            ws.send_json({"type": kind})
            err = _until(ws, kind)
            assert err["type"] == "error" and err["code"] == "no_help_in_streak", err
        msg = _act(ws, msg)
    stored = client.app.state.storage.load_table(t["table"])  # type: ignore[attr-defined]
    # The record has every action played and nothing taken back: the person's first
    # decision is still at its step and the log replays to the state the client last saw.
    assert len(stored.actions) == msg["step"]
    assert stored.actions[mine[0]] == {"seat": msg["seat"], "action": mine[1]}
    state = get_game("pinochle2").new_game(
        get_game("pinochle2").options(stored.options), stored.seed)
    for a in stored.actions:
        state.apply(state.action_from_json(a["action"]))
    assert state.observation(msg["seat"]) == msg["obs"]


# -- undo --------------------------------------------------------------------------------------

def _snapshot(msg: dict[str, Any]) -> tuple[str, str]:
    return json.dumps(msg["obs"], sort_keys=True), json.dumps(msg["legal"], sort_keys=True)


def test_undo_restores_exactly_the_state_before_the_last_decision(client: TestClient) -> None:
    """In the play of a Pinochle hand nothing comes to light but the cards played: the
    decision may be taken back."""
    t = create(client, game="pinochle4", seed=7, level="weak", options={"target": 500})
    with client.websocket_connect("/ws") as ws:
        msg = _my_turn(ws, _join(ws, t))
        while msg["obs"]["phase"] != "play" or len(msg["legal"]) < 2:
            passes = [i for i, a in enumerate(msg["legal"]) if a["text"] == "pass"]
            msg = _act(ws, msg, passes[0] if passes else 0)
        before = msg
        manager = client.app.state.manager  # type: ignore[attr-defined]
        kept = list(manager.tables[t["table"]].row.actions[:before["step"]])
        msg = _act(ws, msg)
        assert msg["step"] > before["step"]
        ws.send_json({"type": "undo"})
        done, states = _collect(ws, "undone")
        assert done["step"] == before["step"] and done["helps"] == {"undo": 1}
        back = states[-1]  # every seat's view is sent before the answer
        assert back["step"] == before["step"]
        assert _snapshot(back) == _snapshot(before)
        # The computers' moves before the decision stay; only what came after is gone.
        assert manager.tables[t["table"]].row.actions == kept
        stored = client.app.state.storage.load_table(t["table"])  # type: ignore[attr-defined]
        assert stored.actions == kept
        assert back["helps"] == {"undo": 1}


def test_nothing_to_undo_before_the_first_decision(client: TestClient) -> None:
    t = create(client, game="efudatori", seed=4, level="2", options={"players": 3})
    with client.websocket_connect("/ws") as ws:
        _my_turn(ws, _join(ws, t))
        ws.send_json({"type": "undo"})
        assert _until(ws, "undone")["code"] == "nothing_to_undo"


def test_undo_stops_at_a_new_deal(client: TestClient) -> None:
    """The next hand's cards are known once it is dealt: the last decision of the hand
    before stands."""
    t = create(client, game="pinochle4", seed=11, level="normal", options={"target": 500})
    with client.websocket_connect("/ws") as ws:
        msg = _my_turn(ws, _join(ws, t))
        while msg["obs"]["hand_number"] == 1 and not msg["terminal"]:
            passes = [i for i, a in enumerate(msg["legal"]) if a["text"] == "pass"]
            msg = _act(ws, msg, passes[0] if passes else 0)
        assert msg["obs"]["hand_number"] == 2
        ws.send_json({"type": "undo"})
        err = _until(ws, "undone")
        assert err["code"] == "undo_revealed", err
        ws.send_json({"type": "state"})
        now = _until(ws, "state")
        assert now["step"] == msg["step"] and _snapshot(now) == _snapshot(msg)


# -- records, replay viewer, review ---------------------------------------------------------------

def _finish(client: TestClient, t: dict[str, Any]) -> dict[str, Any]:
    with client.websocket_connect("/ws") as ws:
        msg = _my_turn(ws, _join(ws, t))
        while not msg["terminal"]:
            msg = _act(ws, msg)
    return msg


def test_downloaded_record_replays_to_the_same_final_scores(client: TestClient,
                                                              tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cardplaza.cli.main import app

    t = create(client, game="efudatori", seed=9, level="2", options={"players": 2})
    headers = {"X-Seat-Token": t["token"]}
    with client.websocket_connect("/ws") as ws:
        msg = _act(ws, _my_turn(ws, _join(ws, t)))
        partial = client.get(f"/api/tables/{t['table']}/download", headers=headers).json()
        assert partial["format"] == "cardplaza-view/1" and "seed" not in partial
        assert partial["observation"] == msg["obs"]
        while not msg["terminal"]:
            msg = _act(ws, msg)
    r = client.get(f"/api/tables/{t['table']}/download", headers=headers)
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    record = GameRecord.from_json(r.json())
    assert list(record.final_state().returns()) == msg["returns"]
    path = tmp_path / "game.json"
    path.write_text(r.text)
    out = CliRunner().invoke(app, ["replay", str(path)], env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    final = out.output.split("Final scores:")[1].splitlines()[0]
    assert [float(part.split()[-1]) for part in final.split("·")] == msg["returns"]
    assert client.get(f"/api/tables/{t['table']}/download",
                      headers={"X-Seat-Token": "nope"}).status_code == 403


def test_replay_frames_show_every_hand_as_the_record(client: TestClient) -> None:
    t = create(client, game="efudatori", seed=2, level="2", options={"players": 3})
    _finish(client, t)
    r = client.get(f"/api/tables/{t['table']}/replay", headers={"X-Seat-Token": t["token"]})
    assert r.status_code == 200, r.text
    data = r.json()
    download = client.get(f"/api/tables/{t['table']}/download",
                          headers={"X-Seat-Token": t["token"]}).json()
    record = GameRecord.from_json(download)
    prev: list[dict[str, Any] | None] = [None] * data["players"]
    steps = record.replay()
    state = record.new_state()
    for i, frame in enumerate(data["frames"]):
        views = []
        for s, wire in enumerate(frame["views"]):
            prev[s] = rebuild(prev[s], wire)
            views.append(prev[s]["obs"])  # type: ignore[index]
        if i:
            _st, seat, action = next(steps)
            assert frame["seat"] == seat and frame["text"] == state.action_text(action)
            state.apply(action)
        assert [v["hand"] for v in views] == [state.observation(s)["hand"]
                                             for s in range(data["players"])]
    uploaded = client.post("/api/replay", json={"record": download}).json()
    assert len(uploaded["frames"]) == len(data["frames"])
    assert client.post("/api/replay", json={"record": {"format": "x"}}).json()[
        "code"] == "bad_record"


def test_replay_frames_of_a_running_game_show_only_the_seat(client: TestClient) -> None:
    t = create(client, game="piquet", seed=3, level="1")
    with client.websocket_connect("/ws") as ws:
        msg = _my_turn(ws, _join(ws, t))
        msg = _act(ws, msg)
        r = client.get(f"/api/tables/{t['table']}/replay",
                       headers={"X-Seat-Token": t["token"]})
    data = r.json()
    assert r.status_code == 200 and data["result"] is None
    seat = msg["seat"]
    last: dict[str, Any] | None = None
    hidden = 0
    for frame in data["frames"]:
        assert all(v is None for s, v in enumerate(frame["views"]) if s != seat)
        last = rebuild(last, frame["views"][seat])
        if frame["seat"] is not None and frame["seat"] != seat and frame["action"] is None:
            assert "exchanges" in frame["text"]  # the other's discards stay hidden
            hidden += 1
    assert hidden == 1  # the computer's exchange
    assert last is not None and last["obs"] == msg["obs"]


def test_review_runs_on_the_server_with_progress(client: TestClient) -> None:
    t = create(client, game="efudatori", seed=6, level="2", options={"players": 2})
    with client.websocket_connect("/ws") as ws:
        msg = _my_turn(ws, _join(ws, t))
        ws.send_json({"type": "review"})
        assert _until(ws, "review")["code"] == "not_finished"
        while not msg["terminal"]:
            msg = _act(ws, msg)
        ws.send_json({"type": "review"})
        progress = []
        while True:
            m = ws.receive_json()
            if m["type"] == "review_progress":
                progress.append((m["done"], m["total"]))
            elif m["type"] == "review":
                review = m["review"]
                break
    assert progress[0][0] == 0 and progress[-1][0] == progress[-1][1] > 0
    assert review["decisions"] and review["hands"][0]["decisions"] == len(review["decisions"])
    assert review["thresholds"]["blunder"] == 20 and review["marks"]["ja"]
    assert {d["mark"] for d in review["decisions"]} <= {"good", "inaccuracy", "mistake",
                                                         "blunder"}


# -- helper and statistics ------------------------------------------------------------------------

def test_bid_helper_during_the_auction(client: TestClient) -> None:
    t = create(client, game="pinochle4", seed=12, level="normal")
    with client.websocket_connect("/ws") as ws:
        msg = _join(ws, t)
        assert msg["obs"]["phase"] == "bidding"
        ws.send_json({"type": "helper"})
        h = _until(ws, "helper")
    table = h["table"]
    assert table["kind"] == "bids" and len(table["suits"]) == 4
    assert table["amounts"][0] == msg["obs"]["high_bid"] or msg["obs"]["min_bid"]


def test_statistics_of_a_player_key(client: TestClient) -> None:
    key = client.post("/api/players", json={"name": "Stat"}).json()["key"]
    t = create(client, game="efudatori", seed=3, level="2", options={"players": 2}, key=key)
    end = _finish(client, t)
    r = client.get("/api/stats", headers={"X-Player-Key": key})
    assert r.status_code == 200, r.text
    (row,) = r.json()["stats"]
    assert row["game"] == "efudatori" and row["played"] == 1
    assert row["won"] + row["lost"] + row["drawn"] == 1
    mine = end["returns"][0]
    assert row["average_margin"] == mine - end["returns"][1]
    assert list(row["best"]) == ["2"]
    assert client.get("/api/stats", headers={"X-Player-Key": "x"}).status_code == 403
