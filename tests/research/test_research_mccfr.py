"""The MCCFR example: a short training run, the policy's information states rebuilt from a
game record, and the policy playing in the arena through the seat protocol."""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path

from cardplaza.arena.core import run_arena
from cardplaza.core.registry import get_game, new_game
from cardplaza.research.core import ChanceState
from cardplaza.research.mccfr import LEVEL, Policy, _Seat, key_of, serve, train


def test_a_short_training_run_learns_information_states(tmp_path: Path) -> None:
    policy = train(seconds=30.0, seed=1, max_iterations=6)
    assert policy.iterations == 6 and len(policy.table) > 100
    for probs in list(policy.table.values())[:50]:
        assert abs(float(probs.sum()) - 1.0) < 1e-5 and (probs >= 0).all()
    path = tmp_path / "p.pkl"
    policy.save(path)
    again = Policy.load(path)
    assert again.iterations == 6 and again.table.keys() == policy.table.keys()


def test_the_seat_rebuilds_the_adapters_information_state_strings() -> None:
    """A game dealt by seed 5 in the engine and the same deal made of chance outcomes in
    the adapter give seat 0 the same information-state strings at every decision."""
    spec = get_game("pinochle2")
    deck = list(range(48))
    random.Random(5).shuffle(deck)  # the engine's deal of seed 5
    adapter = ChanceState(spec, spec.options_type())
    for card in deck[:-1]:
        adapter.apply_number(adapter.outcome_of(card))
    native = new_game("pinochle2", None, 5)
    seat = _Seat({"game": "pinochle2", "options": {}, "seed": 5, "seat": 0, "rng_seed": 1},
                 Policy())
    rng = random.Random(2)
    decisions = 0
    while not native.is_terminal:
        if native.current_player == 0:
            expected = adapter.information_state_string(0)
            assert key_of(expected) == key_of(_seat_string(seat))
            decisions += 1
        action = rng.choice(native.legal_actions())
        number = adapter.codec.encode(native, action)
        seat.replay([{"seat": native.current_player, "action": native.action_to_json(action)}])
        native.apply(action)
        adapter.apply_number(number)
    assert decisions >= 24


def _seat_string(seat: _Seat) -> str:
    from cardplaza.research.core import information_state_string

    return information_state_string(seat.own, seat.state.observation(seat.seat))


def test_the_seat_program_speaks_the_arena_protocol() -> None:
    lines = [json.dumps(m) for m in (
        {"type": "hello"}, {"type": "levels", "game": "pinochle2"},
        {"type": "new", "id": 0, "game": "pinochle2", "options": {}, "seed": 3, "seat": 1,
         "level": LEVEL, "player_seed": 0, "rng_seed": 4},
        {"type": "act", "id": 0, "actions": []})]
    out = io.StringIO()
    serve(Policy(), lines, out)
    answers = [json.loads(a) for a in out.getvalue().splitlines()]
    from cardplaza.arena.seat_driver import PROTOCOL

    assert answers[0]["protocol"] == PROTOCOL
    assert answers[1]["levels"] == [LEVEL]
    assert answers[3]["type"] == "error"  # seat 1 does not lead: the dealer's opponent does
    state = new_game("pinochle2", None, 3)
    assert state.current_player == 0


def test_the_trained_policy_plays_in_the_arena(tmp_path: Path) -> None:
    path = tmp_path / "p.pkl"
    train(seconds=30.0, seed=2, max_iterations=3).save(path)
    command = (sys.executable, "-m", "cardplaza.research.mccfr", "seat", "--policy", str(path))
    result = run_arena("pinochle2", [f"mccfr:{LEVEL}", "random"], deals=2, seed=1,
                       sources={"mccfr": command})
    (pair,) = result.pairs
    assert pair.a == f"mccfr:{LEVEL}" and pair.b == "random"
    assert pair.games == 4  # two deals, each played from both seats
