"""Record secrecy: what a seat is given of a running game (the download, the replay frames,
the record, the review) holds only what that seat has seen; after the game, everything.

The property, for every game and every prefix of a random game: a seat's record is a
function of that seat's observations. Two histories that differ in one action of another
seat and give that seat the same observation ("twins": another card passed, another
discard, another choice of combinations) must give it the same record and replay frames.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from web_helpers import create

from cardplaza.core.history import GameRecord
from cardplaza.core.protocol import GameState
from cardplaza.core.registry import GameSpec, games, get_game
from cardplaza.web.learning.records import replay_frames, view_record

OPTIONS: dict[str, list[dict[str, Any]]] = {
    "pinochle2": [{"level": "1"}],
    "pinochle4": [{"target": 500}],
    "pinochle3": [{"target": 500}],
    "piquet": [{"four_deals": True}, {"four_deals": True, "sinking": True}],
    "efudatori": [{}, {"players": 3}],
}
PLAYERS = [{"name": f"P{i}", "kind": "human", "level": ""} for i in range(4)]
MAX_STEPS = 260
"""Steps of a random game the property looks at (the opening hands hold every kind of
hidden action: passes, burials, exchanges, declarations)."""


def _cases() -> list[tuple[str, dict[str, Any]]]:
    return [(name, opts) for name in games() for opts in OPTIONS.get(name, [{}])]


def _state(spec: GameSpec, options: Any, seed: int, history: list[Any]) -> GameState:
    state = spec.new_game(options, seed)
    for action in history:
        state.apply(action)
    return state


def _seat_view(state: GameState, seat: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The record and the replay frames a seat of a running game is given."""
    record = view_record(state, seat, PLAYERS[:state.num_players])
    frames = replay_frames(GameRecord.of(state), seat=seat)
    return record, frames


def _twins(spec: GameSpec, options: Any, seed: int, rng: random.Random,
           checks: int) -> int:
    """Play a random game; at random steps of another seat, look for an alternative action
    the watching seat cannot tell apart, and compare what that seat is given. Returns how
    many twin pairs were compared."""
    state = spec.new_game(options, seed)
    history: list[Any] = []
    compared = 0
    while not state.is_terminal and len(history) < MAX_STEPS and compared < checks:
        actor = state.current_player
        legal = list(state.legal_actions())
        action = rng.choice(legal)
        after = state.clone()
        after.apply(action)
        if len(legal) > 1 and not after.is_terminal:
            watchers = [v for v in range(state.num_players) if v != actor]
            v = rng.choice(watchers)
            seen = after.observation(v)
            for other in rng.sample(legal, min(len(legal), 24)):
                if other == action:
                    continue
                twin = state.clone()
                twin.apply(other)
                if twin.is_terminal or twin.observation(v) != seen:
                    continue
                mine = _state(spec, options, seed, [*history, action])
                theirs = _state(spec, options, seed, [*history, other])
                assert _seat_view(mine, v) == _seat_view(theirs, v), (
                    f"seat {v} is told apart {state.action_text(action)!r} and "
                    f"{state.action_text(other)!r} of seat {actor}, which it cannot see")
                compared += 1
                break
        history.append(action)
        state = after
    return compared


@pytest.mark.parametrize(("game", "options"), _cases(),
                         ids=[f"{g}-{'-'.join(o) or 'default'}" for g, o in _cases()])
@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), choices=st.integers(0, 2**32 - 1))
def test_a_seats_record_is_a_function_of_its_observations(
        game: str, options: dict[str, Any], seed: int, choices: int) -> None:
    spec = get_game(game)
    _twins(spec, spec.options(options), seed, random.Random(choices), checks=10)


def test_every_hidden_kind_of_action_is_compared() -> None:
    """The property above meets each game's hidden actions (so it tests something)."""
    found = 0
    for game, opts in [("pinochle4", {}), ("pinochle3", {}), ("piquet", {"sinking": True})]:
        spec = get_game(game)
        for seed in range(3):
            found += _twins(spec, spec.options(opts), seed, random.Random(seed), checks=4)
    assert found >= 12


def _play(client: TestClient, t: dict[str, Any], until: Any, rng: random.Random) -> list[
        dict[str, Any]]:
    """Drive every seat of a table over WebSockets until ``until(messages)``."""
    n = len(t["tokens"])
    sockets = [client.websocket_connect("/ws").__enter__() for _ in range(n)]
    try:
        msgs = []
        for s, ws in enumerate(sockets):
            ws.send_json({"type": "join", "table": t["table"], "token": t["tokens"][str(s)]})
            msgs.append(ws.receive_json())
        while not msgs[0]["terminal"] and not until(msgs):
            cur = msgs[0]["current"]
            legal = msgs[cur]["legal"]
            sockets[cur].send_json({"type": "act", "action": rng.choice(legal)["json"],
                                    "step": msgs[cur]["step"]})
            msgs = [ws.receive_json() for ws in sockets]
        return msgs
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)


def test_piquet_younger_choice_stays_hidden_in_records(client: TestClient) -> None:
    """With sinking, Younger's choice of combinations is hidden at the table until the first
    lead: so it is in Elder's download and replay frames."""
    t = create(client, game="piquet", seed=45, options={"sinking": True}, humans=[0, 1])

    def chosen(msgs: list[dict[str, Any]]) -> bool:
        return any(d["kind"] == "choose" for d in msgs[0]["obs"]["dialogue"] + msgs[1][
            "obs"]["dialogue"])

    msgs = _play(client, t, chosen, random.Random(3))
    assert not msgs[0]["terminal"] and chosen(msgs)
    elder = msgs[0]["obs"]["elder"]
    younger = 1 - elder
    seen = [d for d in msgs[elder]["obs"]["dialogue"] if d["seat"] == younger]
    assert seen[-1]["text"] == "chooses which combinations to score"
    headers = {"X-Seat-Token": t["tokens"][str(elder)]}
    record = client.get(f"/api/tables/{t['table']}/download", headers=headers).json()
    frames = client.get(f"/api/tables/{t['table']}/replay", headers=headers).json()
    for step in record["steps"]:
        if step["seat"] == younger:
            assert not step["text"].startswith(("add ", "point ")), step
    for frame in frames["frames"]:
        if frame["seat"] == younger:
            assert not str(frame["text"]).startswith(("add ", "point ")), frame
    assert any(s.get("hidden") and s["text"] == "chooses which combinations to score"
               for s in record["steps"])
    mine = client.get(f"/api/tables/{t['table']}/download",
                      headers={"X-Seat-Token": t["tokens"][str(younger)]}).json()
    assert any(s["seat"] == younger and s["text"].startswith(("add ", "point "))
               for s in mine["steps"])


@pytest.mark.parametrize("game", ["pinochle4", "piquet"])
def test_records_hold_everything_only_after_the_game(client: TestClient, game: str) -> None:
    """Before the end: no seed, no record, no review; after: the whole record."""
    options = {"target": 500} if game == "pinochle4" else {"four_deals": True}
    spec = get_game(game)
    n = spec.new_game(spec.options(options), 5).num_players
    t = create(client, game=game, seed=5, options=options, humans=list(range(n)),
               level="random")
    rng = random.Random(5)
    _play(client, t, lambda msgs: msgs[0]["step"] >= 40, rng)
    for s in range(n):
        headers = {"X-Seat-Token": t["tokens"][str(s)]}
        partial = client.get(f"/api/tables/{t['table']}/download", headers=headers).json()
        assert partial["format"] == "cardplaza-view/1" and "seed" not in partial
        assert client.get(f"/api/tables/{t['table']}/record",
                          headers=headers).status_code == 403
        frames = client.get(f"/api/tables/{t['table']}/replay", headers=headers).json()
        assert all(v is None for f in frames["frames"] for k, v in enumerate(f["views"])
                   if k != s)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": t["table"], "token": t["tokens"]["0"]})
        ws.receive_json()
        ws.send_json({"type": "review"})
        assert ws.receive_json()["code"] == "not_finished"
    msgs = _play(client, t, lambda msgs: False, rng)
    assert msgs[0]["terminal"]
    headers = {"X-Seat-Token": t["tokens"]["0"]}
    whole = client.get(f"/api/tables/{t['table']}/download", headers=headers).json()
    record = GameRecord.from_json(whole)
    assert record.seed == 5 and list(record.final_state().returns()) == msgs[0]["returns"]
    assert client.get(f"/api/tables/{t['table']}/record", headers=headers).json()["seed"] == "5"



PREFIX_STEPS = 60
"""Steps of a random game whose every prefix the prefix property looks at (the first
hand's hidden actions come early: passes, burials, exchanges, Piquet's declarations)."""
ALTERNATIVES = 6
"""Other legal actions of the acting seat compared at each step."""
HIDDEN = {"pinochle3", "pinochle4", "pinochle_dd", "piquet"}
"""Games whose opening holds actions some seats cannot see."""


def _entry(state: GameState, action: Any, viewer: int) -> tuple[Any, ...]:
    """What ``viewer``'s record holds of ``action`` taken in ``state``."""
    hidden = state.public_action(action, viewer)
    if hidden is not None:
        return (None, hidden)
    return (state.action_to_json(action), state.action_text(action))


def _prefixes(spec: GameSpec, options: Any, seed: int, rng: random.Random) -> int:
    """Play a random game and check, after every step, what each seat is given of it.

    At each step, for every seat and every compared alternative the seat cannot tell apart
    from the action taken (the same observation right after it), the seat's record entry
    must be the same: an entry is a function of the seat's observations. At every prefix,
    every seat's record (the download of a running game) must be those entries, in order,
    and its observation now, with no seed; and one seat's replay frames (the seats in
    turn) its own observations step by step, nobody else's view, and the same entries.
    Together: what a seat is given is a function of its observation history so far.
    Returns how many indistinguishable alternatives were compared."""
    state = spec.new_game(options, seed)
    n = state.num_players
    players = PLAYERS[:n]
    seen: list[list[dict[str, Any]]] = [[state.observation(v)] for v in range(n)]
    entries: list[list[tuple[Any, ...]]] = [[] for _ in range(n)]
    twins = 0
    while not state.is_terminal and len(state.history) < PREFIX_STEPS:
        actor = state.current_player
        legal = list(state.legal_actions())
        action = rng.choice(legal)
        after = state.clone()
        after.apply(action)
        alternatives = []
        for b in rng.sample(legal, min(len(legal), ALTERNATIVES + 1)):
            if b != action and len(alternatives) < ALTERNATIVES:
                alt = state.clone()
                alt.apply(b)
                alternatives.append((b, alt.observation))
        for v in range(n):
            mine = _entry(state, action, v)
            obs = after.observation(v)
            for b, observe in alternatives:
                if observe(v) == obs:
                    assert _entry(state, b, v) == mine, (
                        f"seat {v} cannot tell {state.action_text(action)!r} from "
                        f"{state.action_text(b)!r} of seat {actor}, but its record can")
                    twins += 1
            entries[v].append(mine)
            seen[v].append(obs)
        state = after
        if state.is_terminal:
            break
        for v in range(n):
            view = view_record(state, v, players)
            assert "seed" not in view and view["observation"] == seen[v][-1]
            assert [(s["action"], s["text"]) for s in view["steps"]] == entries[v]
            assert [s["seat"] for s in view["steps"]] == [s for s, _ in state.history]
        v = len(state.history) % n
        frames = replay_frames(GameRecord.of(state), seat=v)["frames"]
        assert [f["views"][v] for f in frames] == seen[v]
        assert all(o is None for f in frames for u, o in enumerate(f["views"]) if u != v)
        assert [(f["action"], f["text"]) for f in frames[1:]] == entries[v]
    return twins


@pytest.mark.parametrize(("game", "options"), _cases(),
                         ids=[f"{g}-{'-'.join(o) or 'default'}" for g, o in _cases()])
@settings(max_examples=1, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), choices=st.integers(0, 2**32 - 1))
def test_every_prefix_gives_a_seat_only_its_observations(
        game: str, options: dict[str, Any], seed: int, choices: int) -> None:
    """For every prefix of a random game of every game (the property; its hidden actions
    met, so the comparison tests something)."""
    spec = get_game(game)
    twins = _prefixes(spec, spec.options(options), seed, random.Random(choices))
    assert twins > 0 or game not in HIDDEN
