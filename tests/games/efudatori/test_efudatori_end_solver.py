"""The exact end solver (:func:`.kernels.solve_end`): pruning interchangeable cards, the
table of trick starts and the directly played last trick change no value and no choice —
it gives an unpruned max-n's values, compiled and as Python."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardplaza.core.cards import bits
from cardplaza.games.efudatori import EfudatoriState, Options, kernels, rules
from cardplaza.games.efudatori.players import exact_values, play_orders

SPECIALS = (rules.JOKER, rules.SPADE_THREE, rules.SPADE_ACE)
EndPos = tuple[tuple[int, ...], tuple[int, ...], int, int, tuple[int, ...]]
"""(hands, trick cards so far, leader, trick number, captured masks)."""


def end_position(s: EfudatoriState) -> EndPos:
    return tuple(s.hands), tuple(s.trick), s.leader, s.trick_number, tuple(s.captured)


class UnprunedMaxN:
    """The end solver as it was before pruning (every legal card searched): the oracle."""

    def __init__(self, players: int, tricks_total: int, simple: bool) -> None:
        self.n, self.total, self.simple = players, tricks_total, simple
        self.memo: dict[Any, tuple[float, ...]] = {}
        self.nodes = 0

    def margins(self, captured: tuple[int, ...]) -> tuple[float, ...]:
        scores = [rules.score(m, self.simple) for m in captured]
        total = sum(scores)
        return tuple(s - (total - s) / (self.n - 1) for s in scores)

    def play(self, pos: EndPos, c: int) -> tuple[EndPos, bool]:
        hands, trick, leader, k, captured = pos
        hl = list(hands)
        hl[(leader + len(trick)) % self.n] &= ~(1 << c)
        new_trick = (*trick, c)
        if len(new_trick) < self.n:
            return (tuple(hl), new_trick, leader, k, captured), False
        w = (leader + rules.trick_winner_index(new_trick, k)) % self.n
        cl = list(captured)
        for x in new_trick:
            cl[w] |= 1 << x
        return (tuple(hl), (), w, k + 1, tuple(cl)), k >= self.total

    def values(self, pos: EndPos) -> tuple[float, ...]:
        hands, trick, leader, k, captured = pos
        key = (hands, trick, leader, tuple(m & rules.FACE_MASK for m in captured))
        if key in self.memo:
            return self.memo[key]
        self.nodes += 1
        p = (leader + len(trick)) % self.n
        best: tuple[float, ...] | None = None
        for c in bits(rules.legal_mask(hands[p], trick, k)):
            child, over = self.play(pos, c)
            v = self.margins(child[4]) if over else self.values(child)
            if best is None or v[p] > best[p] + 1e-9:
                best = v
        assert best is not None
        self.memo[key] = best
        return best

    def root_values(self, pos: EndPos, cards: list[int], seat: int) -> dict[int, float]:
        out = {}
        for c in cards:
            child, over = self.play(pos, c)
            out[c] = (self.margins(child[4]) if over else self.values(child))[seat]
        return out


def end_state(seed: int) -> EfudatoriState:
    """A seeded random game of 2–7 players (simple scoring in a third of them) played to
    the empty stock, then up to two tricks further (so at a trick's start or inside one)."""
    n = 2 + seed % 6
    s = EfudatoriState(Options(players=n, simple_scoring=seed % 3 == 0), seed)
    rng = random.Random(seed)
    extra = rng.randrange(2 * n + 1)
    while not s.is_terminal and (s.stock or extra):
        if not s.stock:
            extra -= 1
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
    return s


def kernel_values(s: EfudatoriState, cards: list[int], compiled: bool = True) -> list[float]:
    """The solver's values of ``cards`` in the state (``compiled`` or as Python)."""
    return exact_values(s.hands, s.trick, s.leader, s.trick_number, s.captured, cards,
                        s.current_player, s.num_players, s.tricks_total,
                        s.options.simple_scoring, compiled)


def seat_values(s: EfudatoriState, card: int) -> tuple[list[float], int]:
    """Every seat's max-n margin after ``card`` (the kernel's search run as Python), and
    the cards it tried."""
    n, m = s.num_players, len(s.trick)
    tricks = [[0] * n for _ in range(s.tricks_total + 2)]
    tricks[s.trick_number][:m] = s.trick
    rows = kernels.end_rows(s.hands, s.trick, n)
    size = kernels.end_table_size(s.hands, s.trick, n)
    scratch = [[0.0] * n for _ in range(rows)]
    tried = kernels.end_values(
        list(s.hands), tricks, m, s.leader, s.trick_number, list(s.captured), n,
        s.tricks_total, int(s.options.simple_scoring), card, [[0] * 11 for _ in range(rows)],
        scratch, [[0] * n for _ in range(rows)], [[0] * (2 * n + 2) for _ in range(size)],
        [[0] * n for _ in range(size)])
    return scratch[0], tried


def sized_positions(seeds: range, limit: int) -> list[EfudatoriState]:
    """The end states of ``seeds`` whose play orders are at most ``limit``."""
    return [s for s in map(end_state, seeds) if not s.is_terminal
            and play_orders([h.bit_count() for h in s.hands]) <= limit]


def has_special_in_play(s: EfudatoriState) -> bool:
    live = rules.mask_of_list(s.trick)
    for h in s.hands:
        live |= h
    return any(live >> c & 1 for c in SPECIALS)


@pytest.mark.parametrize("block", range(3))
def test_pruned_solver_gives_the_unpruned_values(block: int) -> None:
    """On seeded end positions (2–7 players, both scorings, at a trick's start and inside
    one, the Joker, ♠3 or ♠A in play in many) the solver gives bit for bit the unpruned
    max-n's values of every legal card, for the seat to play (compiled and as Python) and
    for every seat (so the same cards are chosen all the way down)."""
    states = sized_positions(range(block * 150, block * 150 + 150), 30_000)
    mid = special = 0
    for s in states:
        pos, cards, seat = end_position(s), list(s.legal_actions()), s.current_player
        old = UnprunedMaxN(s.num_players, s.tricks_total, s.options.simple_scoring)
        want = old.root_values(pos, cards, seat)
        for compiled in (True, False):
            assert kernel_values(s, cards, compiled) == [want[c] for c in cards]
        for c in cards[:2]:
            child, over = old.play(pos, c)
            every = old.margins(child[4]) if over else old.values(child)
            assert tuple(seat_values(s, c)[0]) == every
        mid += bool(s.trick)
        special += has_special_in_play(s)
    assert len(states) >= 80
    assert mid >= 30 and len(states) - mid >= 30
    assert special >= 30
    assert {s.num_players for s in states} == {2, 3, 4, 5, 6, 7}
    assert {s.options.simple_scoring for s in states} == {False, True}


@pytest.mark.parametrize("block", range(2))
def test_kernel_gives_the_reference_values(block: int) -> None:
    """The compiled solver (table of trick starts, last trick played directly, pruning)
    returns its Python form's value for every legal card, bit for bit."""
    states = sized_positions(range(1000 + block * 200, 1200 + block * 200), 20_000)
    for s in states:
        cards = list(s.legal_actions())
        assert kernel_values(s, cards, True) == kernel_values(s, cards, False)
    assert len(states) >= 120


def test_kernel_solves_a_just_emptied_stock_as_the_reference() -> None:
    """Four hands of four cards each (the stock just emptied): compiled, as Python and the
    unpruned max-n agree."""
    checked = 0
    for seed in range(2, 2000, 6):  # four players
        s = EfudatoriState(Options(players=4), seed)
        rng = random.Random(seed)
        while s.stock:
            legal = s.legal_actions()
            s.apply(legal[rng.randrange(len(legal))])
        if s.trick or len(s.legal_actions()) < 2:
            continue
        cards = list(s.legal_actions())
        want = UnprunedMaxN(4, s.tricks_total, False).root_values(end_position(s), cards,
                                                                 s.current_player)
        assert kernel_values(s, cards) == [want[c] for c in cards]
        assert kernel_values(s, cards, False) == [want[c] for c in cards]
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def _plain_live(s: EfudatoriState) -> tuple[int, int]:
    """The mover's legal plain cards and the cards in play (hands and trick)."""
    live = rules.mask_of_list(s.trick)
    for h in s.hands:
        live |= h
    legal = rules.legal_mask(s.hands[s.current_player], s.trick, s.trick_number)
    return legal & kernels.PLAIN, live


def test_equivalent_cards_follow_the_cards_in_play() -> None:
    """Two plain cards of a suit are interchangeable when no card in play (any hand, the
    trick) ranks between them; pictures and the ♠A, ♠3 never are."""
    from efudatori_helpers import c, position

    s = position(["4H 6H 8H 9H", "5H QD", "7C 8C", "KH 2D"], 12, 0)
    plain, live = _plain_live(s)
    low = kernels.lowest_equivalent
    assert low(c("4H"), plain, live) == c("4H")  # the lowest
    assert low(c("6H"), plain, live) == c("6H")  # the 5♥ is between
    assert low(c("8H"), plain, live) == c("6H")  # the 7♥ is out of play
    assert low(c("9H"), plain, live) == c("6H")
    legal = rules.legal_mask(s.hands[0], s.trick, s.trick_number)
    assert kernels._distinct(legal, plain, live) == legal & ~(1 << c("8H") | 1 << c("9H"))
    s = position(["2S 4S 10H JH", "3S 7D", "AS 8D", "QH 9D"], 12, 0)
    plain, live = _plain_live(s)
    assert low(c("4S"), plain, live) == c("4S")  # the ♠3 is between
    assert low(c("JH"), plain, live) == c("JH")  # a picture scores
    s = position(["4S 5S 3S AS", "7D", "8D", "9D"], 13, 0)
    plain, live = _plain_live(s)
    assert low(c("5S"), plain, live) == c("4S")
    assert low(c("AS"), plain, live) == c("AS")


def test_pruning_skips_interchangeable_cards() -> None:
    """The 7♦ and 9♦ are interchangeable once nothing between them is in play: the
    solver then tries one of them, not both, with the unpruned values."""
    from efudatori_helpers import c, position

    tried = {}
    for other in ("8D", "10D"):  # the 8♦ in play separates them, the 10♦ does not
        s = position([f"4H {other}", "7D 9D"], 25, 0, players=2)
        values, got = seat_values(s, c("4H"))
        want = UnprunedMaxN(2, 26, False).root_values(end_position(s), [c("4H")], 0)
        assert values[0] == want[c("4H")]
        tried[other] = got
    assert tried == {"8D": 3, "10D": 2}  # the led 4♥, then one or both replies

    s = position(["2H 3H 4H 5H", "6D 7D 8D 9D", "2C 3C 4C 5C", "10S 9S 8S 7S"], 10, 0)
    s.trick_number, s.tricks_total = 10, 13
    pos, cards = end_position(s), list(s.legal_actions())
    old = UnprunedMaxN(4, 13, False)
    want = old.root_values(pos, cards, 0)
    assert kernel_values(s, cards) == [want[x] for x in cards]
    assert kernel_values(s, cards, False) == [want[x] for x in cards]
    # every hand is one run of interchangeable cards: one line of play is searched
    assert seat_values(s, cards[0])[1] <= 13
    assert old.nodes > 100
