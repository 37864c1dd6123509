"""The MCCFR example: the abstraction of two-hand Pinochle it trains on, a short training
run whose keys recur in new deals, and the policy playing in the arena through the seat
protocol."""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path

import pyspiel

from cardplaza.arena.core import run_arena
from cardplaza.core.registry import get_game, new_game
from cardplaza.games.pinochle2 import abstraction as kinds_of
from cardplaza.games.pinochle2.engine import RANK_OF, SUIT_OF, Pinochle2State, trick_winner
from cardplaza.research import abstract as ab
from cardplaza.research.core import codec_of, outcome_utilities
from cardplaza.research.mccfr import LEVEL, Policy, _Seat, serve, train


def test_the_abstract_game_passes_openspiels_random_simulation() -> None:
    game = pyspiel.load_game(ab.NAME)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_move_kinds_stand_for_the_cards_they_name() -> None:
    """Every move kind is a legal card (or meld) of the seat, and means what it says."""
    codec = codec_of(get_game("pinochle2"))
    rng = random.Random(4)
    seen = set()
    for seed in range(6):
        state = new_game("pinochle2", None, seed)
        assert isinstance(state, Pinochle2State)
        while not state.is_terminal:
            key, moves = ab.abstract(state)
            legal = codec.numbers(state)
            kinds = [k for k, m in enumerate(moves) if m is not None]
            assert kinds and all(moves[k] in legal for k in kinds)
            assert key.endswith("".join("1" if m is not None else "0" for m in moves))
            trump, lead = state.trump, state.lead
            for k in kinds:
                seen.add(k)
                card = moves[k]
                assert card is not None
                if k in (kinds_of.WIN_CHEAP, kinds_of.WIN_TRUMP):
                    assert trick_winner(lead, card, trump)
                if k == kinds_of.WIN_TRUMP:
                    assert SUIT_OF[card] == trump
                if k == kinds_of.DUCK:
                    assert not trick_winner(lead, card, trump)
                if k in (kinds_of.LEAD_LOW_TRUMP, kinds_of.LEAD_HIGH_TRUMP):
                    assert lead < 0 and SUIT_OF[card] == trump
                if k == kinds_of.LEAD_ACE:
                    assert RANK_OF[card] == 5 and SUIT_OF[card] != trump
            chosen = moves[rng.choice(kinds)]
            assert chosen is not None
            state.apply(codec.decode(state, chosen))
    assert seen == set(range(len(ab.MOVES)))


def test_the_seat_works_out_the_abstract_games_keys_from_the_record() -> None:
    """A deal dealt by seed 5 in the engine and the same deal made of chance outcomes in
    the abstract game give the same keys at every decision of seat 0."""
    deck = list(range(48))
    random.Random(5).shuffle(deck)  # the engine's deal of seed 5
    state = pyspiel.load_game(ab.NAME).new_initial_state()
    for card in deck[:-1]:
        state.apply_action(state.inner.outcome_of(card))
    seat = _Seat({"game": "pinochle2", "options": {}, "seed": 5, "seat": 0, "rng_seed": 1},
                 Policy())
    rng = random.Random(2)
    decisions = 0
    while not state.is_terminal():
        native = seat.state
        if state.current_player() == 0:
            assert ab.abstract(native)[0] == state.information_state_string(0)
            decisions += 1
        kind = rng.choice(state.legal_actions())
        number = ab.abstract(native)[1][kind]
        action = codec_of(get_game("pinochle2")).decode(native, number)
        seat.replay([{"seat": native.current_player, "action": native.action_to_json(action)}])
        state.apply_action(kind)
    assert decisions >= 24 and seat.state.is_terminal
    assert state.returns() == outcome_utilities(seat.state)


def test_a_short_training_run_learns_keys_that_recur_in_new_deals(tmp_path: Path) -> None:
    policy = train(seconds=30.0, seed=1, max_iterations=40)
    assert policy.iterations == 40 and len(policy.table) > 50
    for probs in policy.table.values():
        assert abs(float(probs.sum()) - 1.0) < 1e-5 and (probs >= 0).all()
    path = tmp_path / "p.pkl"
    policy.save(path)
    again = Policy.load(path)
    assert again.iterations == 40 and again.table.keys() == policy.table.keys()
    assert path.stat().st_size < 100_000
    # Deals never trained on: most decisions with a choice meet a trained key.
    met = unmet = 0
    rng = random.Random(9)
    for seed in range(1000, 1010):
        state = new_game("pinochle2", None, seed)
        while not state.is_terminal:
            key, moves = ab.abstract(state)
            kinds = [m for m in moves if m is not None]
            if len(kinds) > 1:
                if policy.probabilities(key, len(kinds)) is None:
                    unmet += 1
                else:
                    met += 1
            state.apply(rng.choice(state.legal_actions()))
    assert met > 2 * unmet


def test_the_seat_program_speaks_the_arena_protocol() -> None:
    lines = [json.dumps(m) for m in (
        {"type": "hello"}, {"type": "levels", "game": "pinochle2"},
        {"type": "new", "id": 0, "game": "pinochle2", "options": {}, "seed": 3, "seat": 1,
         "level": LEVEL, "player_seed": 0, "rng_seed": 4},
        {"type": "act", "id": 0, "actions": []},
        {"type": "new", "id": 1, "game": "pinochle2", "options": {}, "seed": 3, "seat": 0,
         "level": LEVEL, "player_seed": 0, "rng_seed": 4},
        {"type": "act", "id": 1, "actions": []})]
    out = io.StringIO()
    serve(Policy(), lines, out)
    answers = [json.loads(a) for a in out.getvalue().splitlines()]
    from cardplaza.arena.seat_driver import PROTOCOL

    assert answers[0]["protocol"] == PROTOCOL
    assert answers[1]["levels"] == [LEVEL]
    assert answers[3]["type"] == "error"  # seat 1 does not lead: the dealer's opponent does
    assert answers[5]["type"] == "action"
    state = new_game("pinochle2", None, 3)
    assert state.action_from_json(answers[5]["action"]) in state.legal_actions()


def test_the_trained_policy_plays_in_the_arena(tmp_path: Path) -> None:
    path = tmp_path / "p.pkl"
    train(seconds=30.0, seed=2, max_iterations=5).save(path)
    command = (sys.executable, "-m", "cardplaza.research.mccfr", "seat", "--policy", str(path))
    result = run_arena("pinochle2", [f"mccfr:{LEVEL}", "random"], deals=2, seed=1,
                       sources={"mccfr": command})
    (pair,) = result.pairs
    assert pair.a == f"mccfr:{LEVEL}" and pair.b == "random"
    assert pair.games == 4  # two deals, each played from both seats
