"""The exact two-hand Pinochle playoff solver agrees with brute-force enumeration."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cardplaza.ai.solver import brute_force, solve
from cardplaza.games.pinochle2.engine import (
    POINTS,
    Options,
    Pinochle2State,
    iter_bits,
    playoff_follow_mask,
    trick_winner,
)
from cardplaza.games.pinochle2.solver import PlayoffSolver, canonical, playoff_value, solve_playoff


def brute(trump: int, leader: int, follower: int, lead: int = -1) -> int:
    """Future margin of the seat to act by plain minimax over physical cards.

    ``leader`` is the leader's (remaining) hand; with ``lead >= 0`` the follower acts.
    """
    if lead < 0:
        if not leader:
            return 0
        return max(-brute(trump, leader & ~(1 << c), follower, c) for c in iter_bits(leader))
    best = None
    for c in iter_bits(playoff_follow_mask(follower, lead, trump)):
        rest_f = follower & ~(1 << c)
        pts = POINTS[lead] + POINTS[c] + (10 if not rest_f and not leader else 0)
        if trick_winner(lead, c, trump):
            val = pts + brute(trump, rest_f, leader)
        else:
            val = -pts - brute(trump, leader, rest_f)
        best = val if best is None else max(best, val)
    assert best is not None
    return best


def random_hands(seed: int, n: int) -> tuple[int, int, int]:
    rng = random.Random(seed)
    cards = rng.sample(range(48), 2 * n)
    return rng.randrange(4), sum(1 << c for c in cards[:n]), sum(1 << c for c in cards[n:])


@given(st.integers(0, 10**9), st.integers(1, 5))
@settings(max_examples=120, deadline=None)
def test_solver_matches_brute_force_when_leading(seed: int, n: int) -> None:
    trump, a, b = random_hands(seed, n)
    assert playoff_value(trump, a, b) == brute(trump, a, b)


@given(st.integers(0, 10**9), st.integers(1, 5))
@settings(max_examples=120, deadline=None)
def test_solver_matches_brute_force_when_following(seed: int, n: int) -> None:
    trump, a, b = random_hands(seed, n)
    lead = next(iter(iter_bits(a)))
    rest = a & ~(1 << lead)
    assert playoff_value(trump, rest, b, lead) == brute(trump, rest, b, lead)


def test_identical_and_crowded_suits_match_brute_force() -> None:
    """Hands full of duplicate copies and one long suit (merging must stay exact)."""
    rng = random.Random(7)
    for _ in range(60):
        trump = rng.randrange(4)
        suits = rng.sample(range(4), 2)
        pool = [f + 6 * s + 24 * k for s in suits for f in range(6) for k in (0, 1)]
        cards = rng.sample(pool, 10)
        a = sum(1 << c for c in cards[:5])
        b = sum(1 << c for c in cards[5:])
        assert playoff_value(trump, a, b) == brute(trump, a, b)


def to_playoff(seed: int, left: int) -> Pinochle2State:
    """A random deal played at random until ``left`` cards remain in each hand (leading)."""
    state = Pinochle2State(Options(), seed)
    rng = random.Random(seed)
    while not (not state.stock and state.step == 0 and state.lead < 0
               and state.hands[state.turn].bit_count() == left):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def future(state: Pinochle2State) -> int:
    a, b = state.totals()
    return (a - b) if state.turn == 0 else (b - a)


@given(st.integers(0, 10**6), st.integers(1, 4), st.booleans())
@settings(max_examples=40, deadline=None)
def test_solver_matches_engine_brute_force(seed: int, left: int, follow: bool) -> None:
    """On real engine positions: same value as minimax through the game protocol."""
    state = to_playoff(seed, left)
    if follow:
        state.apply(state.legal_actions()[0])
    seat = state.turn
    sol = solve_playoff(state)
    exact = brute_force(state, seat)
    assert future(state) + sol.value == exact
    child = state.clone()
    child.apply(sol.card)
    assert brute_force(child, seat) == exact
    generic = solve(state, seat, key=lambda s: (s.hands[0], s.hands[1], s.turn, s.lead))
    assert generic.value == exact


def test_full_playoffs_solve_and_reuse_the_table() -> None:
    state = to_playoff(3, 12)
    solver = PlayoffSolver(state.trump)
    first = solve_playoff(state, solver)
    again = solve_playoff(state, solver)
    assert first.value == again.value and again.nodes <= 2
    hands = (canonical(state.hands[state.turn]), canonical(state.hands[1 - state.turn]))
    assert solver.value(*hands) == first.value
