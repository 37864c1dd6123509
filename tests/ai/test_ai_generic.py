"""Generic search players and the generic solver on a tiny trick game."""

from __future__ import annotations

import random

import pytest
from cp_tinygame import SPEC, Options, TinyState, solver_key
from hypothesis import given, settings
from hypothesis import strategies as st

from cardplaza.ai.common import Budget, margin, player_rollout
from cardplaza.ai.ismcts import ISMCTSPlayer
from cardplaza.ai.pimc import PIMCPlayer
from cardplaza.ai.player import RandomPlayer
from cardplaza.ai.solver import brute_force, solve
from cardplaza.core.bench import random_steps


def advance(seed: int, steps: int, hand_size: int = 4) -> TinyState:
    state = TinyState(Options(hand_size), seed)
    random_steps(state, random.Random(seed), steps)
    return state


def test_margin_two_and_more_seats() -> None:
    assert margin((30.0, 10.0), 0) == 20.0
    assert margin((30.0, 10.0, 20.0), 1) == -15.0


def test_budget_iterations_and_minimum() -> None:
    b = Budget(5, seconds=0.0, min_iterations=2)
    b.start()
    assert b.more(0) and b.more(1) and not b.more(2)
    b = Budget(3)
    b.start()
    assert b.more(2) and not b.more(3)


@given(st.integers(0, 10_000), st.integers(0, 7))
@settings(max_examples=40, deadline=None)
def test_sample_world_is_consistent(seed: int, steps: int) -> None:
    state = advance(seed, steps)
    if state.is_terminal:
        return
    seat = state.current_player
    obs = state.observation(seat)
    world = SPEC.sample_world(obs, random.Random(seed))  # type: ignore[misc]
    assert world.observation(seat) == obs
    assert set(world.legal_actions()) == set(state.legal_actions())


def pimc() -> PIMCPlayer:
    return PIMCPlayer(SPEC, worlds=10)


def ismcts() -> ISMCTSPlayer:
    return ISMCTSPlayer(SPEC, iterations=60, reward_scale=20.0)


@pytest.mark.parametrize("make", [pimc, ismcts])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 6), choice_seed=st.integers(0, 99))
@settings(max_examples=25, deadline=None)
def test_fairness_redealing_unseen_cards_keeps_decision(make, seed, steps, choice_seed) -> None:
    """Re-dealing the cards the player cannot see never changes its decision (fixed seed)."""
    state = advance(seed, steps)
    if state.is_terminal:
        return
    seat = state.current_player
    permuted = SPEC.permute_unseen(state, seat, random.Random(seed + 1))  # type: ignore[misc]
    assert permuted.observation(seat) == state.observation(seat)
    legal = state.legal_actions()
    assert list(permuted.legal_actions()) == list(legal)
    a = make().choose(state.observation(seat), legal, random.Random(choice_seed))
    b = make().choose(permuted.observation(seat), legal, random.Random(choice_seed))
    assert a == b
    assert a in legal


def test_pimc_uses_same_worlds_for_every_candidate_and_reports_stats() -> None:
    state = advance(3, 0)
    player = PIMCPlayer(SPEC, worlds=7)
    values = player.action_values(state.observation(0), state.legal_actions(), random.Random(1))
    assert set(values) == set(state.legal_actions())
    assert player.last_stats == {"worlds": 7, "simulations": 7 * len(values)}


class LastPlayer:
    name = "last"

    def choose(self, observation, legal_actions, rng):
        return legal_actions[-1]


def test_pimc_ties_go_to_the_preferred_player() -> None:
    """Two worthless discards tie in every world: the preferred player's choice is taken."""
    state = TinyState(Options(2), 0, deal=False)
    state.hands = [(1 << 7) | (1 << 4), (1 << 8) | (1 << 9)]  # seat 0: b3 b0; seat 1: c0 c1
    state.talon = (1 << 12) - 1 - state.hands[0] - state.hands[1]
    state.apply(7)
    legal = state.legal_actions()
    assert list(legal) == [8, 9]
    obs = state.observation(1)
    assert PIMCPlayer(SPEC, worlds=5).choose(obs, legal, random.Random(0)) == 8
    player = PIMCPlayer(SPEC, worlds=5, prefer=LastPlayer())
    assert player.choose(obs, legal, random.Random(0)) == 9


def test_ismcts_finds_the_obvious_capture() -> None:
    """With a10 trump seen as the only winner of a 10-point lead, the search trumps it."""
    state = TinyState(Options(2), 0, deal=False)
    state.hands = [1 << 7, (1 << 3) | (1 << 8)]   # seat 0: b3; seat 1: a3, c0
    state.talon = (1 << 12) - 1 - state.hands[0] - state.hands[1] - (1 << 4)
    state.hands[0] |= 1 << 4                       # seat 0 also b0
    state.leader = 0
    state.apply(7)                                 # lead b3 (10 points)
    obs = state.observation(1)
    legal = state.legal_actions()
    assert set(legal) == {3, 8}                    # void in b: any card
    for player in (ISMCTSPlayer(SPEC, iterations=200, reward_scale=20.0),
                   PIMCPlayer(SPEC, worlds=10)):
        assert player.choose(obs, legal, random.Random(0)) == 3


@given(st.integers(0, 100_000), st.integers(2, 4), st.integers(0, 3))
@settings(max_examples=40, deadline=None)
def test_generic_solver_matches_brute_force(seed: int, hand_size: int, steps: int) -> None:
    state = advance(seed, steps, hand_size)
    if state.is_terminal:
        return
    seat = state.current_player
    exact = brute_force(state, seat)
    sol = solve(state, seat, key=solver_key, all_values=True)
    assert sol.value == exact
    assert sol.action is not None
    child = state.clone()
    child.apply(sol.action)
    assert brute_force(child, seat) == exact
    for action, value in sol.values.items():
        child = state.clone()
        child.apply(action)
        assert brute_force(child, seat) == value
    assert solve(state, seat, key=solver_key).value == exact
    assert solve(state, 1 - seat).value == -exact


def test_player_rollout_wraps_players() -> None:
    state = advance(11, 0)
    policy = player_rollout(lambda seat: RandomPlayer())
    rng = random.Random(0)
    while not state.is_terminal:
        state.apply(policy(state, rng))
    assert sum(state.returns()) == (5 + 10) * 3 + 1 - state_points_in_talon(11)


def state_points_in_talon(seed: int) -> int:
    from cardplaza.core.cards import bits
    t = TinyState(Options(4), seed)
    return sum((0, 0, 5, 10)[c % 4] for c in bits(t.talon))


def test_pimc_with_an_exact_evaluator_and_ismcts_with_a_leaf_evaluator() -> None:
    """Evaluators replace rollouts: exact solving of each sampled world."""
    def exact(state, seat):
        return solve(state, seat, key=solver_key).value

    def leaf(state):
        v = solve(state, 0, key=solver_key).value
        return (v / 2, -v / 2)

    state = advance(21, 1)
    seat = state.current_player
    obs = state.observation(seat)
    legal = state.legal_actions()
    pimc_exact = PIMCPlayer(SPEC, worlds=6, evaluate=exact)
    values = pimc_exact.action_values(obs, legal, random.Random(3))
    assert set(values) == set(legal)
    assert pimc_exact.choose(obs, legal, random.Random(3)) in legal
    tree = ISMCTSPlayer(SPEC, iterations=40, leaf=leaf, reward_scale=20.0)
    stats = tree.search(obs, legal, random.Random(3))
    assert sum(v for v, _ in stats.values()) == 40
    assert tree.last_stats["iterations"] == 40


def test_ismcts_time_budget_still_runs_the_minimum() -> None:
    state = advance(8, 0)
    player = ISMCTSPlayer(SPEC, iterations=10_000, seconds=0.0, min_iterations=15)
    player.choose(state.observation(0), state.legal_actions(), random.Random(0))
    assert player.last_stats["iterations"] == 15
