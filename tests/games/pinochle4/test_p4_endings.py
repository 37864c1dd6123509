"""The ending solver: best play by both sides, against plain minimax.

:func:`kernels.end_points` must give the minimax value of the rules module's legal plays
(every card tried, no pruning, no table), compiled and as Python, from any trick position
of both variants (four-hand: the partnerships; cut-throat: the bid winner against both
opponents); its table may be shared by positions of one search; and the card search that
solves endings must be the Python view's exact values, world by world.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest
from p4_helpers import python_card_search, search_cards_both_forms

from cardplaza.core.protocol import GameState
from cardplaza.core.registry import get_game
from cardplaza.games.pinochle4.kernels import END_FRAME, END_TABLE_ROWS, KERNELS
from cardplaza.games.pinochle4.players import (
    EXPERT_END_CARDS,
    EXPERT_END_CARDS3,
    EXPERT_END_WORLDS,
    ExpertPlayer,
    _candidate_cards,
    _PlayView,
    card_search,
    make_player,
)
from cardplaza.games.pinochle4.rules import (
    counter_table,
    deal,
    legal_play_mask,
    winning_index,
)
from cardplaza.games.pinochle4.world import Dealer

Position = tuple[list[int], list[int], int, int, bool, int]
"""Hands, the cards of the trick so far, its leader, trump, option O5 and the maximising
seats (bit mask: seats 0 and 2 four-hand, the bid winner cut-throat)."""


def _ending(rng: random.Random, cards: int, n: int = 4) -> Position:
    """A deal of ``n`` hands played at random (legal cards, the trick's winner leads next)
    until each hand has ``cards`` cards, then part of a trick."""
    hands, _ = deal(rng, n)
    trump, leader, relaxed = rng.randrange(4), rng.randrange(n), rng.random() < 0.3
    maxers = 0b0101 if n == 4 else 1 << rng.randrange(3)

    def play(trick: list[int], seat: int) -> None:
        legal = legal_play_mask(hands[seat], trick, trump, relaxed)
        c = rng.choice([b for b in range(48) if legal >> b & 1])
        hands[seat] ^= 1 << c
        trick.append(c)

    for _t in range(48 // n - cards):
        trick: list[int] = []
        for k in range(n):
            play(trick, (leader + k) % n)
        leader = (leader + winning_index(trick, trump)) % n
    trick = []
    for k in range(rng.randrange(n)):
        play(trick, (leader + k) % n)
    return hands, trick, leader, trump, relaxed, maxers


def _minimax(hands: list[int], trick: list[int], leader: int, trump: int, relaxed: bool,
             maxers: int, values: tuple[int, ...], bonus: int) -> int:
    """Counters (and the last trick's bonus) of the seats of ``maxers`` under best play:
    every legal card of the rules module tried at every turn."""
    n = len(hands)
    if len(trick) == n:
        winner = (leader + winning_index(trick, trump)) % n
        last = not any(hands)
        pts = sum(values[c] for c in trick) + (bonus if last else 0)
        gain = pts if maxers >> winner & 1 else 0
        return gain if last else gain + _minimax(hands, [], winner, trump, relaxed, maxers,
                                                 values, bonus)
    seat = (leader + len(trick)) % n
    outcomes = [_minimax(rest, more, leader, trump, relaxed, maxers, values, bonus)
                for rest, more in _plays(hands, trick, leader, trump, relaxed)]
    return max(outcomes) if maxers >> seat & 1 else min(outcomes)


def _plays(hands: list[int], trick: list[int], leader: int, trump: int,
           relaxed: bool) -> Iterator[tuple[list[int], list[int]]]:
    """The hands and the trick after each legal card of the seat to play (rules module)."""
    seat = (leader + len(trick)) % len(hands)
    legal = legal_play_mask(hands[seat], trick, trump, relaxed)
    for c in range(48):
        if legal >> c & 1:
            rest = hands[:]
            rest[seat] ^= 1 << c
            yield rest, [*trick, c]


def _late_states(game: str, seeds: range, cards: int) -> list[GameState]:
    """Positions of games played by the normal level: the first card decision (two or
    more candidates) of each deal with at most ``cards`` cards in the mover's hand."""
    out = []
    for seed in seeds:
        st = get_game(game).new_game(None, seed)
        normal = make_player("normal")
        rng = random.Random(seed)
        while not st.is_terminal:
            obs = st.observation(st.current_player)
            legal = st.legal_actions()
            if obs["phase"] == "play" and len(obs["hand"]) <= cards \
                    and len(_candidate_cards(legal)) > 1:
                out.append(st)
                break
            st.apply(normal.choose(obs, legal, rng))
    return out


def _buffers() -> tuple[np.ndarray, np.ndarray]:
    table = np.zeros((END_TABLE_ROWS, 7), np.int64)
    table[:, 4] = -1
    return table, np.zeros((49, END_FRAME), np.int64)


def _solve(fn: object, pos: Position, values: tuple[int, ...], bonus: int,
           buffers: tuple[np.ndarray, np.ndarray]) -> int:
    hands, trick, leader, trump, relaxed, maxers = pos
    tr = np.zeros(4, np.int64)
    tr[:len(trick)] = trick
    h = np.array([*hands, 0][:4], np.int64)
    got = fn(h, tr, len(trick), leader, len(hands), maxers,  # type: ignore[operator]
             trump, int(relaxed), np.array(values, np.int64), bonus, *buffers)
    assert h.tolist()[:len(hands)] == hands  # every hand put back
    return int(got)


@pytest.mark.parametrize(("n", "scheme", "one_point", "cards", "count"), [
    (4, "A", False, 3, 120), (4, "B", False, 3, 120), (4, "C", False, 3, 60),
    (4, "A", True, 3, 60), (4, "A", False, 4, 12), (4, "B", False, 4, 12),
    (3, "A", False, 4, 120), (3, "B", True, 4, 60), (3, "C", False, 5, 12),
])
def test_end_points_is_minimax(n: int, scheme: str, one_point: bool, cards: int,
                               count: int) -> None:
    values = counter_table(scheme, one_point)
    bonus = 1 if one_point else 10
    rng = random.Random(f"{n}{scheme}{one_point}{cards}")
    for i in range(count):
        pos = _ending(rng, cards, n)
        want = _minimax(pos[0][:], pos[1][:], *pos[2:], values, bonus)
        assert _solve(KERNELS.end_points, pos, values, bonus, _buffers()) == want
        if i < 10:  # the Python form is slow: a few positions
            assert _solve(KERNELS.reference("end_points"), pos, values, bonus,
                          _buffers()) == want


@pytest.mark.parametrize("n", [4, 3])
def test_end_points_table_serves_many_positions(n: int) -> None:
    """One table through many positions of one trump, scheme and bid winner (as in one
    card search) gives the values a fresh table gives, also once a row was overwritten."""
    values = counter_table("A", False)
    rng = random.Random(3)
    shared = _buffers()
    positions = [(*_ending(rng, rng.choice((4, 5, 6)), n)[:5], 0b0101 if n == 4 else 0b10)
                 for _ in range(400)]
    for pos in positions + positions[::-1]:  # the second pass finds its rows kept
        fresh = _solve(KERNELS.end_points, pos, values, 10, _buffers())
        assert _solve(KERNELS.end_points, pos, values, 10, shared) == fresh
    assert (shared[0][:, 4] >= 0).sum() > 0


def _next_trick_starts(pos: Position) -> list[Position]:
    """Every position at the start of the next trick reachable from ``pos`` by legal plays
    (each once)."""
    hands, trick, leader, trump, relaxed, maxers = pos
    n = len(hands)
    if len(trick) == n:
        winner = (leader + winning_index(trick, trump)) % n
        return [(hands, [], winner, trump, relaxed, maxers)] if any(hands) else []
    seen: set[tuple[int, ...]] = set()
    out: list[Position] = []
    for rest, more in _plays(hands, trick, leader, trump, relaxed):
        for child in _next_trick_starts((rest, more, leader, trump, relaxed, maxers)):
            key = (*child[0], child[2])
            if key not in seen:
                seen.add(key)
                out.append(child)
    return out


@pytest.mark.parametrize(("n", "cards"), [(4, 5), (3, 7)])
def test_end_points_table_bounds_serve_later_positions(n: int, cards: int) -> None:
    """The rows a search leaves are bounds found with narrow windows; solving the positions
    it passed through (each start of the next trick) with that table must still give their
    exact values, so a row may say exact only where its value was inside its window (a
    node that fails low exactly at its alpha holds an upper bound)."""
    values = counter_table("A", False)
    rng = random.Random(11 + n)
    checked = 0
    for _ in range(60):
        shared = _buffers()
        root = _ending(rng, cards, n)
        _solve(KERNELS.end_points, root, values, 10, shared)
        for pos in _next_trick_starts(root):
            got = _solve(KERNELS.end_points, pos, values, 10, shared)
            assert got == _solve(KERNELS.end_points, pos, values, 10, _buffers())
            checked += 1
    assert checked > 500


@pytest.mark.parametrize("form", ["compiled", "python"])
def test_exact_points_shares_the_opponents_take_cut_throat(form: str) -> None:
    """Cut-throat: the bid winner's points are the solver's, the two opponents share the
    rest (the odd point to the first after the bid winner), and nothing is lost."""
    fn = KERNELS.exact_points if form == "compiled" else KERNELS.reference("exact_points")
    values = counter_table("A", True)  # one point a counter: odd shares occur
    rng = random.Random(11)
    odd = 0
    for _ in range(30 if form == "compiled" else 4):
        hands, trick, leader, trump, relaxed, maxers = _ending(rng, 4, 3)
        bidder = maxers.bit_length() - 1
        tr = np.zeros(4, np.int64)
        tr[:len(trick)] = trick
        pts = np.full(4, 99, np.int64)
        last = fn(np.array([*hands, 0], np.int64), tr, len(trick), leader, 3, bidder, trump,
                  int(relaxed), np.array(values, np.int64), 1, *_buffers(), pts)
        assert last == -1 and pts[3] == 0
        want = _minimax(hands[:], trick[:], leader, trump, relaxed, maxers, values, 1)
        total = 1 + sum(values[c] for c in trick) + sum(
            values[c] for h in hands for c in range(48) if h >> c & 1)
        first, second = (bidder + 1) % 3, (bidder + 2) % 3
        assert pts[bidder] == want
        assert pts[first] - pts[second] in (0, 1)
        assert pts[:3].sum() == total
        odd += (total - want) % 2
    assert odd


@pytest.mark.parametrize(("game", "cards"), [("pinochle4", 5), ("pinochle3", 5)])
def test_exact_card_search_is_the_python_view(game: str, cards: int) -> None:
    """The card search with endings solved: compiled kernel, its Python form and the
    Python dealer with the view's exact values agree world by world."""
    checked = 0
    for st in _late_states(game, range(8), cards):
        obs = st.observation(st.current_player)
        cands = [b[1] for b in _candidate_cards(st.legal_actions())]
        view, dealer = _PlayView(obs), Dealer(obs, infer_bids=True)
        view.solve_endings()
        found = card_search(view, dealer, cands, 12, random.Random(5))
        ref_view, ref_dealer = _PlayView(obs), Dealer(obs, infer_bids=True)
        ref_view.solve_endings()
        totals, _made = python_card_search(ref_view, ref_dealer, cands, 12, random.Random(5))
        assert found.totals == totals
        outs = search_cards_both_forms(view, dealer, cands, 4, True, (1, *_buffers()))
        assert outs[0] == outs[1]
        checked += 1
    assert checked >= 6


@pytest.mark.parametrize(("game", "later", "ending"), [("pinochle4", 8, 5),
                                                     ("pinochle3", 9, 6)])
def test_expert_solves_endings_from_its_threshold(game: str, later: int, ending: int) -> None:
    """The expert solves endings from ``end_cards`` cards on (cut-throat ``end_cards3``),
    in at most ``end_worlds`` worlds; the level as played does so from its constants."""
    player = ExpertPlayer(sims=4000, min_worlds=20, end_cards=5, end_worlds=30, end_cards3=6)
    for cards, solved in ((later, False), (ending, True)):
        for st in _late_states(game, range(3), cards):
            obs = st.observation(st.current_player)
            assert player.solves_ending(obs) == solved
            player.choose(obs, st.legal_actions(), random.Random(1))
            assert (player.last_stats["worlds"] <= 30) == solved
    expert = make_player("expert")
    assert isinstance(expert, ExpertPlayer)
    limit = EXPERT_END_CARDS if game == "pinochle4" else EXPERT_END_CARDS3
    for st in _late_states(game, range(3), limit):
        obs = st.observation(st.current_player)
        assert expert.solves_ending(obs)
        expert.choose(obs, st.legal_actions(), random.Random(1))
        assert expert.last_stats["worlds"] <= EXPERT_END_WORLDS
    before = [st.observation(st.current_player) for st in _late_states(game, range(6),
                                                                       limit + 1)]
    before = [obs for obs in before if len(obs["hand"]) == limit + 1]
    assert before and not any(expert.solves_ending(obs) for obs in before)
