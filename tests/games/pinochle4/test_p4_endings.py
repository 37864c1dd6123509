"""The four-hand ending solver: best play by both sides, against plain minimax.

:func:`kernels.end_points` must give the minimax value of the rules module's legal plays
(every card tried, no pruning, no table), compiled and as Python, from any trick position;
its table may be shared by positions of one search; and the card search that solves
endings must be the Python view's exact values, world by world.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from p4_helpers import python_card_search, search_cards_both_forms

from cardplaza.core.protocol import GameState
from cardplaza.core.registry import get_game
from cardplaza.games.pinochle4.kernels import END_FRAME, END_TABLE_ROWS, KERNELS
from cardplaza.games.pinochle4.players import (
    EXPERT_END_CARDS,
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

Position = tuple[list[int], list[int], int, int, bool]
"""Hands, the cards of the trick so far, its leader, trump and option O5."""


def _ending(rng: random.Random, cards: int) -> Position:
    """A four-hand deal played at random (legal cards, the trick's winner leads next) until
    each hand has ``cards`` cards, then part of a trick."""
    hands, _ = deal(rng, 4)
    trump, leader, relaxed = rng.randrange(4), rng.randrange(4), rng.random() < 0.3

    def play(trick: list[int], seat: int) -> None:
        legal = legal_play_mask(hands[seat], trick, trump, relaxed)
        c = rng.choice([b for b in range(48) if legal >> b & 1])
        hands[seat] ^= 1 << c
        trick.append(c)

    for _t in range(12 - cards):
        trick: list[int] = []
        for k in range(4):
            play(trick, (leader + k) % 4)
        leader = (leader + winning_index(trick, trump)) % 4
    trick = []
    for k in range(rng.randrange(4)):
        play(trick, (leader + k) % 4)
    return hands, trick, leader, trump, relaxed


def _minimax(hands: list[int], trick: list[int], leader: int, trump: int, relaxed: bool,
             values: tuple[int, ...], bonus: int) -> int:
    """Counters (and the last trick's bonus) of seats 0 and 2 under best play: every legal
    card of the rules module tried at every turn."""
    if len(trick) == 4:
        winner = (leader + winning_index(trick, trump)) % 4
        last = not any(hands)
        pts = sum(values[c] for c in trick) + (bonus if last else 0)
        gain = pts if winner % 2 == 0 else 0
        return gain if last else gain + _minimax(hands, [], winner, trump, relaxed, values,
                                                 bonus)
    seat = (leader + len(trick)) % 4
    legal = legal_play_mask(hands[seat], trick, trump, relaxed)
    outcomes = []
    for c in range(48):
        if legal >> c & 1:
            rest = hands[:]
            rest[seat] ^= 1 << c
            outcomes.append(_minimax(rest, [*trick, c], leader, trump, relaxed, values, bonus))
    return max(outcomes) if seat % 2 == 0 else min(outcomes)


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
    hands, trick, leader, trump, relaxed = pos
    tr = np.zeros(4, np.int64)
    tr[:len(trick)] = trick
    h = np.array(hands, np.int64)
    got = fn(h, tr, len(trick), leader, trump, int(relaxed),  # type: ignore[operator]
             np.array(values, np.int64), bonus, *buffers)
    assert h.tolist() == hands  # every hand put back
    return int(got)


@pytest.mark.parametrize(("scheme", "one_point", "cards", "count"), [
    ("A", False, 3, 120), ("B", False, 3, 120), ("C", False, 3, 60), ("A", True, 3, 60),
    ("A", False, 4, 12), ("B", False, 4, 12),
])
def test_end_points_is_minimax(scheme: str, one_point: bool, cards: int, count: int) -> None:
    values = counter_table(scheme, one_point)
    bonus = 1 if one_point else 10
    rng = random.Random(f"{scheme}{one_point}{cards}")
    for i in range(count):
        pos = _ending(rng, cards)
        want = _minimax(pos[0][:], pos[1][:], pos[2], pos[3], pos[4], values, bonus)
        assert _solve(KERNELS.end_points, pos, values, bonus, _buffers()) == want
        if i < 10:  # the Python form is slow: a few positions
            assert _solve(KERNELS.reference("end_points"), pos, values, bonus,
                          _buffers()) == want


def test_end_points_table_serves_many_positions() -> None:
    """One table through many positions of one trump and scheme (as in one card search)
    gives the values a fresh table gives, also once a row was overwritten."""
    values = counter_table("A", False)
    rng = random.Random(3)
    shared = _buffers()
    small = (np.full((END_TABLE_ROWS, 7), 0, np.int64), shared[1].copy())
    small[0][:, 4] = -1
    positions = [_ending(rng, rng.choice((4, 5, 6))) for _ in range(400)]
    for pos in positions + positions[::-1]:  # the second pass finds its rows kept
        fresh = _solve(KERNELS.end_points, pos, values, 10, _buffers())
        assert _solve(KERNELS.end_points, pos, values, 10, shared) == fresh
    assert (shared[0][:, 4] >= 0).sum() > 0


def test_exact_card_search_is_the_python_view() -> None:
    """The card search with endings solved: compiled kernel, its Python form and the
    Python dealer with the view's exact values agree world by world."""
    checked = 0
    for st in _late_states("pinochle4", range(8), 5):
        obs = st.observation(st.current_player)
        cards = [b[1] for b in _candidate_cards(st.legal_actions())]
        view, dealer = _PlayView(obs), Dealer(obs, infer_bids=True)
        view.solve_endings()
        found = card_search(view, dealer, cards, 12, random.Random(5))
        ref_view, ref_dealer = _PlayView(obs), Dealer(obs, infer_bids=True)
        ref_view.solve_endings()
        totals, _made = python_card_search(ref_view, ref_dealer, cards, 12, random.Random(5))
        assert found.totals == totals
        outs = search_cards_both_forms(view, dealer, cards, 4, True, (1, *_buffers()))
        assert outs[0] == outs[1]
        checked += 1
    assert checked >= 6


def test_expert_solves_endings_from_its_threshold() -> None:
    """The expert solves endings from ``end_cards`` cards on, in at most ``end_worlds``
    worlds; the cut-throat game is never solved this way."""
    player = ExpertPlayer(sims=4000, min_worlds=20, end_cards=5, end_worlds=30)
    for cards, ending in ((8, False), (5, True)):
        for st in _late_states("pinochle4", range(3), cards):
            obs = st.observation(st.current_player)
            player.choose(obs, st.legal_actions(), random.Random(1))
            assert (player.last_stats["worlds"] <= 30) == ending
    expert = make_player("expert")  # the level as played: endings solved from 5 cards
    assert isinstance(expert, ExpertPlayer)
    for st in _late_states("pinochle4", range(3), EXPERT_END_CARDS):
        expert.choose(st.observation(st.current_player), st.legal_actions(), random.Random(1))
        assert expert.last_stats["worlds"] <= EXPERT_END_WORLDS
    (st3,) = _late_states("pinochle3", range(1), 5)
    with pytest.raises(ValueError, match="four-hand"):
        _PlayView(st3.observation(st3.current_player)).solve_endings()
