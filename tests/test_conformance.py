"""One conformance suite for every registered game and preset.

Seeded random playouts check, at every step: a legal action exists until the end, the
game's invariants hold (cards conserved, point totals), ``clone()`` is independent, actions
outside the legal set raise ``IllegalAction`` and leave the state unchanged, and the JSON
hand history replays to identical observations. Information hiding and the determinizer are
checked through each game's ``permute_unseen`` and ``sample_world``.
"""

from __future__ import annotations

import json
import random
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardplaza.core.bench import random_steps
from cardplaza.core.history import GameRecord
from cardplaza.core.protocol import Action, GameState, IllegalAction
from cardplaza.core.registry import GameSpec, games

CASES = [(name, preset) for name, spec in games().items() for preset in spec.all_presets()]
IDS = [f"{g}-{p}" for g, p in CASES]
SEEDS = (11, 22)
# Random play-outs: every preset with one of the seeds (taking turns), each game's default
# with both: a preset changes a rule or two of the default, whose play-outs are the ones
# that go through every part of the engine.
PLAYOUTS = [(seed, name, preset) for i, (name, preset) in enumerate(CASES)
            for seed in (SEEDS if preset == "default" else (SEEDS[i % len(SEEDS)],))]


def fingerprint(state: GameState) -> bytes:
    """Everything observable about a state, as JSON (orjson: the views of a long game carry
    its whole past, and the standard encoder made this most of a double-deck test's time)."""
    last = state.history[-1] if state.history else None
    return orjson.dumps({
        "current": state.current_player,
        "steps": len(state.history),
        "last": None if last is None else [last[0], state.action_to_json(last[1])],
        "obs": [state.observation(seat) for seat in range(state.num_players)],
        "returns": list(state.returns()),
    }, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS, default=str)


def new(name: str, preset: str, seed: int) -> tuple[GameSpec, GameState]:
    spec = games()[name]
    return spec, spec.new_game(spec.all_presets()[preset], seed)


def random_step(state: GameState, rng: random.Random) -> Action:
    legal = state.legal_actions()
    assert legal, f"no legal action for seat {state.current_player} in a running game"
    action = legal[rng.randrange(len(legal))]
    state.apply(action)
    return action


@pytest.mark.parametrize(("seed", "name", "preset"), PLAYOUTS,
                         ids=[f"{s}-{g}-{p}" for s, g, p in PLAYOUTS])
def test_random_playout_conformance(name: str, preset: str, seed: int) -> None:
    spec, state = new(name, preset, seed)
    rng = random.Random(seed)
    universe: dict[str, Action] = {}
    # Fingerprints at sampled steps (every step would make long games quadratic).
    checkpoints = {0: fingerprint(state)}
    steps = 0
    while not state.is_terminal:
        legal = list(state.legal_actions())
        assert legal, "a running game must offer a legal action"
        assert len(set(legal)) == len(legal), "legal actions must be distinct"
        for a in legal:
            universe.setdefault(json.dumps(state.action_to_json(a), sort_keys=True), a)
        # Dense checks early, thinning out in long multi-deal games.
        if rng.random() < 0.15 * 100 / max(100, steps):
            before = fingerprint(state)
            checkpoints[steps] = before
            legal_set = set(legal)
            outsiders = [a for a in universe.values() if a not in legal_set]
            for bad in rng.sample(outsiders, min(len(outsiders), 8)):
                with pytest.raises(IllegalAction):
                    state.apply(bad)
                assert fingerprint(state) == before, "a rejected action changed the state"
            copy = state.clone()
            assert fingerprint(copy) == before
            random_step(copy, random.Random(steps))
            assert fingerprint(state) == before, "changing a clone changed the original"
        random_step(state, rng)
        steps += 1
        if spec.check_invariants is not None:
            spec.check_invariants(state)
        assert steps < 20_000, "game does not end"
    checkpoints[steps] = fingerprint(state)
    with pytest.raises(IllegalAction):
        state.apply(next(iter(universe.values())))
    assert len(state.returns()) == state.num_players
    won = state.winners()
    assert won and len(set(won)) == len(won) and set(won) <= set(range(state.num_players))

    record = GameRecord.loads(GameRecord.of(state).dumps())
    assert record.result == list(state.returns())
    replayed = record.new_state()
    for i, _ in enumerate(record.replay(replayed)):
        if i in checkpoints:
            assert fingerprint(replayed) == checkpoints[i], f"replay differs before step {i + 1}"
    assert fingerprint(replayed) == checkpoints[steps]
    assert replayed.history == state.history


@pytest.mark.parametrize(("name", "preset"), CASES, ids=IDS)
def test_text_and_json_forms_round_trip(name: str, preset: str) -> None:
    _, state = new(name, preset, 5)
    rng = random.Random(5)
    while not state.is_terminal:
        legal = state.legal_actions()
        # Exchanges can offer hundreds of discards: check a sample of big lists.
        for a in legal if len(legal) <= 40 else rng.sample(list(legal), 40):
            assert state.action_from_json(json.loads(json.dumps(state.action_to_json(a)))) == a
            text = state.action_text(a)
            parsed = state.parse_action(text)
            # Identical copies may parse to an equivalent action with the same text.
            assert parsed in legal and state.action_text(parsed) == text, text
        random_step(state, rng)


@pytest.mark.parametrize(("name", "preset"), CASES, ids=IDS)
def test_malformed_actions_are_rejected(name: str, preset: str) -> None:
    _, state = new(name, preset, 3)
    before = fingerprint(state)
    for junk in ("", "xyzzy", "play 11♠", "🂡", "bid -5"):
        with pytest.raises(IllegalAction):
            state.apply(state.parse_action(junk))
    for data in (None, 17.5, "nonsense", {"kind": "nonsense"}, [1, 2, 3, 4, 5, 6, 7]):
        with pytest.raises(IllegalAction):
            state.apply(state.action_from_json(data))
    assert fingerprint(state) == before


@pytest.mark.parametrize(("name", "preset"), CASES, ids=IDS)
def test_same_seed_same_game(name: str, preset: str) -> None:
    _, a = new(name, preset, 99)
    _, b = new(name, preset, 99)
    ra, rb = random.Random(4), random.Random(4)
    while not a.is_terminal:
        if len(a.history) % 25 == 0:
            assert fingerprint(a) == fingerprint(b)
        random_step(a, ra)
        random_step(b, rb)
    assert b.is_terminal and a.returns() == b.returns()
    assert a.history == b.history and fingerprint(a) == fingerprint(b)


def _playout_prefix(name: str, preset: str, seed: int, steps: int) -> tuple[GameSpec, GameState]:
    spec, state = new(name, preset, seed)
    random_steps(state, random.Random(seed), steps)
    return spec, state


HIDING = [(g, p) for g, p in CASES if games()[g].permute_unseen is not None]


@pytest.mark.parametrize(("name", "preset"), HIDING, ids=[f"{g}-{p}" for g, p in HIDING])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 200), perm_seed=st.integers(0, 10**6))
def test_information_hiding(name: str, preset: str, seed: int, steps: int,
                            perm_seed: int) -> None:
    """Re-dealing what a seat cannot see never changes that seat's observation."""
    spec, state = _playout_prefix(name, preset, seed, steps)
    assert spec.permute_unseen is not None
    for seat in range(state.num_players):
        permuted = spec.permute_unseen(state, seat, random.Random(perm_seed))
        assert permuted.observation(seat) == state.observation(seat)


@pytest.mark.parametrize(("name", "preset"), HIDING, ids=[f"{g}-{p}" for g, p in HIDING])
def test_permutation_really_redeals(name: str, preset: str) -> None:
    """The hiding test is meaningful: permuting does change what other seats see."""
    changed = 0
    for seed in range(12):
        spec, state = _playout_prefix(name, preset, seed, 3)
        assert spec.permute_unseen is not None
        for seat in range(state.num_players):
            permuted = spec.permute_unseen(state, seat, random.Random(seed))
            others = [s for s in range(state.num_players) if s != seat]
            if any(permuted.observation(s) != state.observation(s) for s in others):
                changed += 1
    assert changed > 0


WORLDS = [(g, p) for g, p in CASES if games()[g].sample_world is not None]


@pytest.mark.parametrize(("name", "preset"), WORLDS, ids=[f"{g}-{p}" for g, p in WORLDS])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 200), world_seed=st.integers(0, 10**6))
def test_sampled_world_matches_observation(name: str, preset: str, seed: int, steps: int,
                                           world_seed: int) -> None:
    """The determinizer's worlds look, from the observer's seat, exactly like the real one."""
    spec, state = _playout_prefix(name, preset, seed, steps)
    assert spec.sample_world is not None
    seat = state.current_player if not state.is_terminal else 0
    obs = state.observation(seat)
    world: Any = spec.sample_world(obs, random.Random(world_seed))
    assert world.observation(seat) == obs
    assert world.current_player == state.current_player
    if not world.is_terminal:
        assert sorted(map(str, world.legal_actions())) == sorted(map(str, state.legal_actions()))


def _held_alike(public: Any, seats: list[Any], path: tuple[Any, ...] = ()) -> None:
    """Every leaf of ``public`` (a value that is not a non-empty dict or a non-empty list of
    dicts) is in every seat's view at the same place and equal there.

    The views are walked side by side; a part every seat holds equal to the public one
    (deeply, as ``==`` on its leaves would find) holds all its leaves alike, so it is not
    walked: the game's past in a long game's views is compared at C speed, not leaf by
    leaf from the top (which cost a long game's check most of its time)."""
    if all(theirs == public for theirs in seats):
        return
    if isinstance(public, dict) and public:
        parts: Any = public.items()
    elif isinstance(public, list) and public and all(isinstance(v, dict) for v in public):
        parts = enumerate(public)
    else:
        for seat, theirs in enumerate(seats):
            assert theirs == public, f"{path} differs from what seat {seat} sees"
        return
    for part, value in parts:
        inner = []
        for seat, theirs in enumerate(seats):
            try:
                inner.append(theirs[part])
            except (KeyError, IndexError, TypeError):
                pytest.fail(f"{(*path, part)} of the public view is not in seat {seat}'s view")
        _held_alike(value, inner, (*path, part))


@pytest.mark.parametrize(("name", "preset"), CASES, ids=IDS)
def test_public_view_holds_only_what_every_seat_sees(name: str, preset: str) -> None:
    """A spectator's view (no seat), over a whole game: every value in it is one that
    every seat's own observation holds alike at the same place — no hand, no passed or
    face-down card — and the view still says what is going on (whose turn, the phase).

    Every step of the first deals is checked, then every 37th step and the end (the views
    carry the game's past, so checking all steps of a long game costs its length
    squared)."""
    _spec, state = new(name, preset, 7)
    rng = random.Random(7)
    hidden_seen = False
    step = 0
    while True:
        step += 1
        if step > 300 and step % 37 and not state.is_terminal:
            random_step(state, rng)
            continue
        public = state.public_observation()
        json.dumps(public)
        seats = [state.observation(s) for s in range(state.num_players)]
        _held_alike(public, seats)
        hands = [obs.get("hand") for obs in seats]
        if any(hands):
            hidden_seen = True
            assert "hand" not in public
        if state.is_terminal:
            break
        random_step(state, rng)
    assert hidden_seen, "some seat held a hand at some point"
    assert public, "the public view of a finished game is not empty"
