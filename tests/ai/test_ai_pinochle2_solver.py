"""The exact two-hand Pinochle playoff solver agrees with brute-force enumeration."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardplaza.ai.solver import brute_force, solve
from cardplaza.games.pinochle2.engine import (
    NO_MELD,
    POINTS,
    Options,
    Pinochle2State,
    iter_bits,
    playoff_follow_mask,
    trick_winner,
)
from cardplaza.games.pinochle2.solver import (
    _ASC_R,
    _DESC_L,
    _DESC_R,
    F24,
    PlayoffSolver,
    _classes,
    canonical,
    playoff_value,
    solve_playoff,
)


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


# -- Golden lines: the search, its tie-breaks and its table reuse are pinned ------------

def playoff_line(trump: int, turn: int, hands: tuple[int, int], seed: int,
                 max_entries: int = 2_000_000,
                 make: Callable[[int, int], Any] = PlayoffSolver,
                 canon: Callable[[int], int] = canonical) -> tuple[Any, ...]:
    """Play a playoff with one persistent solver per seat, as level 5 does.

    Each decision asks the seat's solver exactly what :func:`solve_playoff` asks; the
    solver's card is played three times in four, a seeded random legal card otherwise.
    Returns (first card, first value, first nodes, cards chosen as hex, sum of values,
    sum of nodes).
    """
    rng = random.Random(-seed)
    solvers = [make(trump, max_entries), make(trump, max_entries)]
    hand = list(hands)
    seat, lead, leader = turn, -1, turn
    chosen: list[int] = []
    values = nodes = 0
    first: tuple[int, int, int] | None = None
    while hand[0] or hand[1]:
        solver = solvers[seat]
        before = solver.nodes
        mine, theirs = hand[seat], hand[1 - seat]
        if lead < 0:
            face, val = solver.best_lead(canon(mine), canon(theirs))
            legal = mine
        else:
            face, val = solver.reply_values(canon(mine), canon(theirs), lead % 24)
            legal = playoff_follow_mask(mine, lead, trump)
        card = face if (legal >> face) & 1 else face + 24
        assert (legal >> card) & 1
        used = solver.nodes - before
        if first is None:
            first = (card, val, used)
        chosen.append(card)
        values += val
        nodes += used
        play = card if rng.random() < 0.75 else rng.choice(list(iter_bits(legal)))
        hand[seat] &= ~(1 << play)
        if lead < 0:
            lead, leader, seat = play, seat, 1 - seat
        else:
            seat = seat if trick_winner(lead, play, trump) else leader
            lead = -1
    assert first is not None
    return (*first, "".join(f"{c:02x}" for c in chosen), values, nodes)


# (trump, seat to lead, hand 0, hand 1, max table entries) -> playoff_line(...); playoffs
# of seeds 0-33 played at random to trick 13 (as in benchmark_playoffs).
GOLDEN: list[tuple[tuple[int, int, int, int, int], tuple[Any, ...]]] = [
    ((2, 1, 0x11dc52001001, 0x2000296b0450, 2000000),
     (4, -10, 8142, '042c041c190a191d04001b28231106231e1016271e2d0c13', 40, 17173)),
    ((1, 0, 0xb8021008412a, 0x2418b560040, 2000000),
     (5, 50, 12171, '051b1c1b0319212021161121011f110e292c2613142f2b12', 60, 21473)),
    ((2, 1, 0x81a8281a041, 0x712000004d8a, 2000000),
     (3, 0, 21889, '031903000b101f0b2e17212d280f08212307060a250d2c24', 0, 54873)),
    ((0, 0, 0x910128418091, 0x201201346320, 2000000),
     (29, 60, 15566, '1d1800050920210708041b0e100d2815281428240f122c2d', 20, 29432)),
    ((0, 0, 0xba2c08800240, 0x45246006103, 2000000),
     (27, 60, 22737, '1b1a2321172a2f0801221e09290e251900250e25262f0d2c', 40, 47179)),
    ((1, 0, 0xa11c0050a180, 0x2f1090449, 2000000),
     (40, 0, 20227, '28100f130f0a1d230d211d22081f070600070d1e1c2d1c14', 0, 39376)),
    ((1, 1, 0x68854010063, 0x14188501704, 2000000),
     (27, -60, 5109, '1b23051b1c021a0a090628291a20262a1f012610000c0014', 40, 8554)),
    ((3, 0, 0x41a84810c006, 0xa004158601a0, 2000000),
     (2, -100, 9776, '02051c011a1b23081e221128172e2f2e180f07272d0e1225', 0, 18191)),
    ((1, 0, 0x26502404c220, 0x190c48802045, 2000000),
     (5, 0, 7730, '05021d021a1b2309220e06261e2428290f0d12172c2d2a2b', 0, 16961)),
    ((0, 0, 0x20004898c486, 0xc1a411042201, 2000000),
     (2, -30, 4249, '021c2207280f270e001b01180a091e0d2d2e252d172e2d25', 0, 7404)),
    ((3, 0, 0x723100082818, 0x80290949182, 2000000),
     (4, 10, 9277, '04012c171c2e2d14031c210d0b0f2b13080b290720211f24', 60, 20747)),
    ((0, 0, 0x4440402e078, 0x13208a850005, 2000000),
     (5, 20, 16105, '0502041b192a1904031f00030f102c0f281122250e2c0d12', 40, 39542)),
    ((0, 0, 0xa02450044168, 0x450021c08c03, 2000000),
     (5, -70, 4569, '05011c1d0003080b18220b06280e0f25172d162d2e2d1e2e', 60, 8587)),
    ((1, 1, 0x1c8292868, 0x4fc14040101, 2000000),
     (26, -10, 18343, '1a05031c001b0b272320080b1f2226151f260625102a1024', 0, 40654)),
    ((1, 0, 0xa0678804104, 0x2021031088f0, 2000000),
     (8, 30, 70011, '080b20221c05191d020418211b181e070f290e252b2d1417', 0, 92538)),
    ((3, 1, 0xd11a0020056, 0x2e60a080888, 2000000),
     (3, 0, 13590, '031d041911292b271b020b20221f212b2106072a01252829', 40, 30248)),
    ((1, 0, 0x200282c90027, 0x881944301240, 2000000),
     (5, 10, 9997, '051a02090c100123202119061e1f002f14170024132b1315', 20, 18798)),
    ((1, 0, 0x42438208c081, 0x1106423005a, 2000000),
     (25, 0, 15522, '191d1d00012120060f111e0707040e10032628292e151324', 0, 23973)),
    ((2, 1, 0x400151815103, 0x3a402a0004b0, 2000000),
     (7, 40, 28679, '07081c05290e2610011d2d1700042c2e181b190c200a2b1e', 0, 49001)),
    ((2, 1, 0x181124908058, 0xe02c43004402, 2000000),
     (1, -20, 4368, '011d1d19172f142e18041a0e23200a2022242c2d220f2b25', 0, 9541)),
    ((2, 1, 0x861220140a81, 0x204888416052, 2000000),
     (4, -10, 16808, '04292f16142d041d00231b0001240b1f0906211010120d2a', 0, 26072)),
    ((0, 0, 0x331002800925, 0x84835128090, 2000000),
     (5, 10, 26409, '051a021d04191c191824230807280b07291117142d2b2c26', 40, 43354)),
    ((1, 0, 0x161c000420a6, 0x2081589a0240, 2000000),
     (5, 0, 10651, '051c021b20230109062201170601112c110d272414121301', 0, 17554)),
    ((2, 0, 0x84cc0000c498, 0x8109d612004, 2000000),
     (4, 60, 10387, '04101c031b04231f070d020f2a161a2726240a150a18222b', 0, 14038)),
    ((2, 1, 0xe0a44805210, 0x1200828a127, 2000000),
     (5, 20, 21547, '051a1b1a022923080928010e210f000c1e150d1e13171e0d', 0, 30828)),
    ((2, 1, 0xc00405809922, 0x2a002a3b0040, 2000000),
     (17, -10, 10424, '110c290f15171a1d14170b0608190810132f222b011b2d18', 20, 26725)),
    ((0, 1, 0x401021728406, 0xa06060801d1, 2000000),
     (34, 40, 14866, '220a2911080202040701181a06161819210f0616132e1315', 20, 34601)),
    ((0, 0, 0x885c45c00800, 0x10000a199017, 2000000),
     (26, -50, 10029, '1a041b26181b020b100b010b0f0b141723012c161e00132b', 0, 18283)),
    ((0, 1, 0x4a00a1002a86, 0x95600c400029, 2000000),
     (5, 80, 21311, '050226291d1a01031b18000b280d25092f2e162b2c072a1f', 0, 42096)),
    ((3, 1, 0x20b020820632, 0x48059508a004, 2000000),
     (2, -60, 10048, '02051d0f1d0d2201041a0120011c2009272e1f1725131f2d', 60, 24051)),
    ((2, 1, 0x880818615011, 0x21a48508a200, 4000),
     (34, -10, 12724, '2223041a1c181b0f1f2f00271f0e1613162709100c282515', 40, 44948)),
    ((3, 1, 0xa41972004040, 0x2c40007b408, 4000),
     (3, -80, 4281, '031d19120a231c112022110e2924102f201020271e262a0d', 0, 9117)),
    ((3, 0, 0x5c1312881000, 0xa02005a60b, 4000),
     (28, -40, 20328, '1c1d03190117210a002e201009200f0c272c2c272b0d2a25', 0, 26925)),
    ((3, 1, 0xa02000968055, 0x182016e2a, 4000),
     (11, -30, 38469, '0b060a1700012503040102190009110d0f0e250d1420121f', 0, 124104)),
]


@pytest.mark.parametrize(("position", "expected"), GOLDEN)
def test_golden_playoff_lines(position: tuple[int, int, int, int, int],
                              expected: tuple[Any, ...]) -> None:
    """Cards, values and node counts of whole playoffs with persistent solvers (and, for
    the last four, a table small enough to be cleared between decisions) are unchanged:
    the same nodes are searched in the same order, so every tie between equally good
    cards is broken as before."""
    trump, turn, h0, h1, max_entries = position
    assert playoff_line(trump, turn, (h0, h1), GOLDEN.index((position, expected)),
                        max_entries) == expected


def test_golden_lines_match_engine_play() -> None:
    """The line driver asks what :func:`solve_playoff` asks on the engine's positions."""
    state = Pinochle2State(Options(), 0)
    rng = random.Random(0)
    while state.stock or state.step != 0:
        legal = state.legal_actions()
        if legal == [NO_MELD]:  # no meld possible: decline without drawing from the RNG
            state.apply(NO_MELD)
            continue
        state.apply(legal[rng.randrange(len(legal))])
    (trump, turn, h0, h1, _), expected = GOLDEN[0]
    assert (state.trump, state.turn, state.hands[0], state.hands[1]) == (trump, turn, h0, h1)
    sol = solve_playoff(state, PlayoffSolver(trump))
    assert (sol.card, sol.value, sol.nodes) == expected[:3]


def test_suit_tables_match_the_merging_rule() -> None:
    """Precomputed per-suit move lists equal the reference merge of equivalent cards."""
    rng = random.Random(11)
    for _ in range(300):
        mine = canonical(rng.getrandbits(48))
        other = canonical(rng.getrandbits(48)) & ~(mine & ~F24)
        lists = [tuple(r[0] for r in _DESC_R[4096 * s + ((mine >> 6 * s) & 63
                                                         | ((other >> 6 * s) & 63) << 6)])
                 for s in range(4)]
        assert [f for t in lists for f in t] == _classes(mine, other, mine & F24)
        for s, t in enumerate(lists):
            k = 4096 * s + ((mine >> 6 * s) & 63 | ((other >> 6 * s) & 63) << 6)
            assert [r[0] for r in _ASC_R[k]] == list(t[::-1])
            assert [r[0] for r in _DESC_L[k]] == list(t)
