"""Explicit chance for the research adapters: deals become chance nodes, engines unchanged."""

from __future__ import annotations

import pickle
import random

import pytest

from cardplaza.core.protocol import chance_from
from cardplaza.core.registry import get_game
from cardplaza.games.pinochle2.engine import Pinochle2State
from cardplaza.research.core import (
    CHANCE,
    ChanceState,
    NeedChance,
    ScriptedRNG,
    outcome_utilities,
    research_games,
)

NAMES = sorted(research_games())


def test_every_game_has_a_research_codec() -> None:
    assert NAMES == ["efudatori", "pinochle2", "pinochle3", "pinochle4", "pinochle_dd",
                     "piquet"]


def test_a_scripted_deal_is_the_chosen_order() -> None:
    """Chance outcomes name which remaining card comes next; the engine deals that order."""
    order = list(range(47, -1, -1))
    state = ChanceState(get_game("pinochle2"), get_game("pinochle2").options_type())
    assert state.current_player == CHANCE and len(state.chance_outcomes()) == 48
    for k in order[:-1]:
        assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
        state.apply_number(k)
    assert state.current_player == 0
    engine = state.engine
    assert isinstance(engine, Pinochle2State)
    with chance_from(lambda seed: ScriptedRNG([("shuffle", tuple(order))])):
        twin = Pinochle2State(engine.options, 0)
    assert engine.hands == twin.hands and engine.stock == twin.stock
    assert engine.hands[0] == sum(1 << c for c in order[:12])  # the non-dealer's 12 cards


def test_unscripted_draws_ask_for_chance() -> None:
    rng = ScriptedRNG()
    with pytest.raises(NeedChance):
        rng.shuffle([1, 2, 3])
    with pytest.raises(NeedChance):
        rng.randrange(4)
    with pytest.raises(RuntimeError):
        rng.random()


@pytest.mark.parametrize("name", NAMES)
def test_random_games_with_explicit_chance(name: str) -> None:
    """Whole games with every deal as chance nodes; clones and pickles stay independent;
    every legal number decodes to a legal action and back."""
    spec = get_game(name)
    options = spec.options_type(target=500) if name.startswith("pinochle") and name != \
        "pinochle2" else spec.options_type()
    rng = random.Random(7)
    state = ChanceState(spec, options)
    chance_nodes = steps = 0
    while not state.is_terminal:
        if state.current_player == CHANCE:
            chance_nodes += 1
            state.apply_number(rng.choice(state.chance_outcomes())[0])
        else:
            legal = state.legal_numbers()
            engine = state.engine
            assert engine is not None
            assert sorted(state.codec.encode(engine, a) for a in engine.legal_actions()) == legal
            number = rng.choice(legal)
            if steps % 25 == 0:
                twin = state.clone()
                copy = pickle.loads(pickle.dumps(state))
                twin.apply_number(number)
                assert copy.information_state_string(0) == state.information_state_string(0)
            state.apply_number(number)
        steps += 1
    assert chance_nodes >= 31  # at least one whole deal
    utilities = state.utilities()
    assert sum(utilities) == pytest.approx(0.0) and max(utilities) > 0
    assert state.engine is not None and utilities == outcome_utilities(state.engine)


@pytest.mark.parametrize("name", NAMES)
def test_tensors_have_fixed_sizes(name: str) -> None:
    spec = get_game(name)
    state = ChanceState(spec, spec.options_type())
    rng = random.Random(3)
    sizes = {False: state.codec.tensor_size(state.options, False),
             True: state.codec.tensor_size(state.options, True)}
    assert sizes[True] > sizes[False] > 0
    for _ in range(200):
        if state.is_terminal:
            break
        for recall, size in sizes.items():
            assert len(state.tensor(0, recall)) == size
        if state.current_player == CHANCE:
            state.apply_number(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_number(rng.choice(state.legal_numbers()))


def test_resampled_states_keep_the_information_state() -> None:
    spec = get_game("pinochle4")
    state = ChanceState(spec, spec.options_type())
    rng = random.Random(5)
    while state.current_player == CHANCE or len(state.history) < 60:
        if state.current_player == CHANCE:
            state.apply_number(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_number(rng.choice(state.legal_numbers()))
    seat = state.current_player
    for seed in range(5):
        world = state.resample(seat, random.Random(seed))
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.legal_numbers() == state.legal_numbers()
