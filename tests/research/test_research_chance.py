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
    """Outcome ``k`` deals the ``k``-th of the cards left next; the engine deals that
    order."""
    order = list(range(47, -1, -1))
    state = ChanceState(get_game("pinochle2"), get_game("pinochle2").options_type())
    assert state.current_player == CHANCE and len(state.chance_outcomes()) == 48
    for i, card in enumerate(order[:-1]):
        outcomes = state.chance_outcomes()
        assert [k for k, _ in outcomes] == list(range(48 - i))
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        k = state.outcome_of(card)
        assert k == sorted(order[i:]).index(card)
        assert f"deal item {card} " in state.action_string(CHANCE, k)
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


@pytest.mark.parametrize("name", NAMES)
def test_legal_numbers_are_the_sorted_encodings(name: str) -> None:
    """Codecs list their numbers without sorting where the engine's order allows; the
    result is always the sorted numbers of the legal actions, each decoding back."""
    from cardplaza.research.core import codec_of

    spec = get_game(name)
    codec = codec_of(spec)
    rng = random.Random(9)
    seen = 0
    for options in spec.all_presets().values():
        state = spec.new_game(options, seen)
        state.deal_limit = 1
        while not state.is_terminal:
            numbers = codec.numbers(state)
            assert numbers == sorted(codec.encode(state, a) for a in state.legal_actions())
            assert all(codec.encode(state, codec.decode(state, k)) == k for k in numbers)
            first, fixed = codec.fixed_actions(options)
            for k in numbers:  # numbers applied without decoding mean what decode says
                if 0 <= k - first < len(fixed):
                    assert fixed[k - first] == codec.decode(state, k)
            state.apply(rng.choice(state.legal_actions()))
            seen += 1
    assert seen > 100
    assert codec.fixed_actions(spec.options_type())[1]  # the cards to play, at least


def test_a_chance_node_refuses_outcomes_it_does_not_have() -> None:
    state = ChanceState(get_game("efudatori"), get_game("efudatori").options_type())
    with pytest.raises(ValueError, match="not an outcome"):
        state.apply_number(99)
    k = state.chance_outcomes()[-1][0]
    state.apply_number(k)  # the dealer drawn; now the first card of the deal
    outcomes = state.chance_outcomes()
    last = outcomes[-1][0]
    state.apply_number(last)  # the highest card dealt: one card fewer is left
    assert [o for o, _ in state.chance_outcomes()] == [o for o, _ in outcomes[:-1]]
    for wrong in (last, -1):
        with pytest.raises(ValueError, match="not an outcome"):
            state.apply_number(wrong)


@pytest.mark.parametrize("name", ["pinochle4", "piquet"])
def test_a_kept_copy_at_the_end_of_a_deal_equals_the_replayed_deal(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Going back to the copy kept before a deal's last card gives the very position a
    replay of the deal gives: the same next deals, views and results."""
    from cardplaza.research.core import codec_of

    spec = get_game(name)

    def play(keep: bool) -> list[str]:
        codec = codec_of(spec)
        monkeypatch.setattr(type(codec), "deal_may_end",
                            type(codec).deal_may_end if keep else lambda self, s: False)
        state = ChanceState(spec, spec.options_type(), max_deals=3)
        rng = random.Random(4)
        views = []
        while not state.is_terminal:
            if state.current_player == CHANCE:
                state.apply_number(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_number(rng.choice(state.legal_numbers()))
                views.append(state.information_state_string(0))
        assert spec.deals_played is not None and state.engine is not None
        assert spec.deals_played(state.engine) == 3
        views.append(str(state.utilities()))
        return views

    assert play(True) == play(False)


def test_the_double_deck_deal_ends_its_chance_nodes_when_the_last_hand_is_left() -> None:
    """Once 60 of the 80 cards are dealt, the fourth hand is the 20 left: no more chance
    nodes, and the deal is the one the full order (the rest ascending) deals."""
    spec = get_game("pinochle_dd")
    rng = random.Random(5)
    state = ChanceState(spec, spec.options_type())
    nodes = 0
    while state.current_player == CHANCE:
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert len(outcomes) > 20 or (state.need is not None and state.need.kind == "number")
        state.apply_number(rng.choice(outcomes)[0])
        nodes += 1
    assert nodes == 1 + 60  # the first dealer, then 60 places of the shuffle
    engine = state.engine
    assert engine is not None
    start = state.deal_start
    assert isinstance(start, tuple)
    (kind, order), = [d for d in start if d[0] == "shuffle"]
    assert kind == "shuffle" and sorted(order) == list(range(80))
    assert list(order[60:]) == sorted(order[60:])
    with chance_from(lambda seed: ScriptedRNG(start)):
        twin = spec.new_game(spec.options_type(), 0)
    assert twin.hands == engine.hands  # type: ignore[attr-defined]
    assert [h.bit_count() for h in engine.hands] == [20] * 4  # type: ignore[attr-defined]


@pytest.mark.parametrize(("game", "tail", "sizes"), [
    ("pinochle4", 12, ([12] * 4, 0)),
    ("pinochle3", 3, ([15] * 3, 3)),
])
def test_a_pinochle_deal_ends_its_chance_nodes_when_the_last_holder_is_left(
        game: str, tail: int, sizes: tuple[list[int], int]) -> None:
    """Once all but the fourth hand (partnership) or the widow (cut-throat) are dealt, the
    cards left are theirs: no more chance nodes, and the deal is the one the full order (the
    rest ascending) deals."""
    spec = get_game(game)
    for seed in range(5):
        rng = random.Random(seed)
        state = ChanceState(spec, spec.options_type())
        nodes = 0
        while state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            assert len(outcomes) > tail or (state.need is not None
                                           and state.need.kind == "number")
            state.apply_number(rng.choice(outcomes)[0])
            nodes += 1
        assert nodes == 1 + 48 - tail  # the first dealer, then the shuffle's places
        engine = state.engine
        assert engine is not None
        start = state.deal_start
        assert isinstance(start, tuple)
        (_, order), = [d for d in start if d[0] == "shuffle"]
        assert sorted(order) == list(range(48))
        assert list(order[48 - tail:]) == sorted(order[48 - tail:])
        script = ScriptedRNG(start)
        with chance_from(lambda seed, script=script: script):
            twin = spec.new_game(spec.options_type(), 0)
        assert twin.hands == engine.hands  # type: ignore[attr-defined]
        assert twin.widow == engine.widow  # type: ignore[attr-defined]
        hands = [h.bit_count() for h in engine.hands]  # type: ignore[attr-defined]
        assert (hands, engine.widow.bit_count()) == sizes  # type: ignore[attr-defined]
