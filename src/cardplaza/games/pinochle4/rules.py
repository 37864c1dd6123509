"""Card arithmetic shared by the Pinochle engine, meld calculator, helper and odds.

Cards are the ints of :data:`cardplaza.core.cards.PINOCHLE`: ``card = face + 24 * copy``,
``face = suit * 6 + rank`` with rank positions 0..5 = 9, J, Q, K, 10, A (low to high), so
``card % 6`` is the rank and ``card % 24 // 6`` the suit. Card sets are 48-bit masks.
"""

from __future__ import annotations

import random

from cardplaza.core.cards import PINOCHLE, shuffle, shuffle_draws, shuffle_into_places

NINE, JACK, QUEEN, KING, TEN, ACE = range(6)
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANK_TEXT = ("9", "J", "Q", "K", "10", "A")
DECK_SIZE = 48
FULL_MASK = (1 << DECK_SIZE) - 1
FACE_MASK24 = (1 << 24) - 1


def face(suit: int, rank: int) -> int:
    """Face index of a suit and rank position."""
    return suit * 6 + rank


def suit_of(card: int) -> int:
    """Suit (0..3) of a card."""
    return card % 24 // 6


def rank_of(card: int) -> int:
    """Rank position (0 = 9 … 5 = A) of a card."""
    return card % 6


def card_text(card: int) -> str:
    """Display text, e.g. ``10♥``."""
    return PINOCHLE.text(card)


def cards_text(mask: int) -> str:
    """Display text of a card set, sorted by suit and strength."""
    return PINOCHLE.format_mask(mask)


SUIT_MASK: tuple[int, ...] = tuple(
    sum(1 << c for c in range(DECK_SIZE) if suit_of(c) == s) for s in range(4))
"""Every physical card of a suit."""

RANK_MASK: tuple[int, ...] = tuple(
    sum(1 << c for c in range(DECK_SIZE) if rank_of(c) == r) for r in range(6))
"""Every physical card of a rank."""

ABOVE: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << c for c in range(DECK_SIZE) if suit_of(c) == s and rank_of(c) > r)
          for r in range(6))
    for s in range(4))
"""``ABOVE[suit][rank]``: cards of that suit ranking strictly higher."""

COUNTER_VALUES: dict[str, tuple[int, ...]] = {
    "A": (0, 0, 0, 10, 10, 10),
    "A1": (0, 0, 0, 1, 1, 1),
    "B": (0, 2, 3, 4, 10, 11),
    "C": (0, 0, 5, 5, 10, 10),
}
"""Counter value by rank position for each scheme (``A1`` = scheme A, 1-point counting)."""


def counter_table(scheme: str, one_point: bool) -> tuple[int, ...]:
    """Per-card (0..47) counter values for a scheme."""
    key = "A1" if one_point else scheme
    table = _COUNTER_TABLES.get(key)
    if table is None:
        vals = COUNTER_VALUES[key]
        table = _COUNTER_TABLES[key] = tuple(vals[rank_of(c)] for c in range(DECK_SIZE))
    return table


_COUNTER_TABLES: dict[str, tuple[int, ...]] = {}


def mask_points(mask: int, table: tuple[int, ...]) -> int:
    """Sum of counter values of the cards in ``mask``."""
    total = 0
    for r in range(3, 6):  # K, 10, A are counters in every scheme
        total += (mask & RANK_MASK[r]).bit_count() * table[r]
    if table[JACK] or table[QUEEN]:
        total += (mask & RANK_MASK[JACK]).bit_count() * table[JACK]
        total += (mask & RANK_MASK[QUEEN]).bit_count() * table[QUEEN]
    return total


SUIT_OF: tuple[int, ...] = tuple(suit_of(c) for c in range(DECK_SIZE))
"""Suit of each card."""

RANK_OF: tuple[int, ...] = tuple(rank_of(c) for c in range(DECK_SIZE))
"""Rank position of each card."""


BEATERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(ABOVE[suit_of(w)][rank_of(w)] | (SUIT_MASK[t] if suit_of(w) != t else 0)
          for w in range(DECK_SIZE))
    for t in range(4))
"""``BEATERS[trump][w]``: the cards that beat ``w`` when it wins a trick (a higher card of
its suit, or any trump over a card that is not trump; an identical card never beats)."""


def beats(card: int, winning: int, trump: int) -> bool:
    """True if ``card`` beats ``winning`` (identical cards never beat, DECISION P-26)."""
    cs, ws = card % 24 // 6, winning % 24 // 6
    if cs == ws:
        return card % 6 > winning % 6
    return cs == trump


def winning_index(cards: list[int] | tuple[int, ...], trump: int) -> int:
    """Position of the current winning card of a (possibly incomplete) trick."""
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], trump):
            best = i
    return best


def winning_card(trick: list[int] | tuple[int, ...], trump: int) -> int:
    """The current winning card of a non-empty trick."""
    w = trick[0]
    ws = SUIT_OF[w]
    for c in trick[1:]:
        cs = SUIT_OF[c]
        if cs == ws:
            if RANK_OF[c] > RANK_OF[w]:
                w = c
        elif cs == trump:
            w, ws = c, cs
    return w


def legal_play_mask(hand: int, trick: list[int] | tuple[int, ...], trump: int,
                    beat_only_trump_leads: bool) -> int:
    """Mask of the cards of ``hand`` that may be played to ``trick`` (section 11.2/11.3)."""
    if not trick:
        return hand
    led = SUIT_OF[trick[0]]
    w = winning_card(trick, trump)
    ws, wr = SUIT_OF[w], RANK_OF[w]
    relaxed = beat_only_trump_leads and led != trump
    follow = hand & SUIT_MASK[led]
    if follow:
        if relaxed or ws != led:
            return follow
        return (follow & ABOVE[led][wr]) or follow
    trumps = hand & SUIT_MASK[trump]
    if trumps:
        if relaxed or ws != trump:
            return trumps
        return (trumps & ABOVE[trump][wr]) or trumps
    return hand


_CARD_BITS = [1 << c for c in range(DECK_SIZE)]


_PLACES = {4: (shuffle_draws(47, 12), shuffle_draws(35, 12), shuffle_draws(23, 12)),
           3: (shuffle_draws(47, 3), shuffle_draws(44, 15), shuffle_draws(29, 15))}
"""Per number of players, the deck positions a shuffle settles for each place from the
last (the widow in cut-throat, then the hands from the last), top first, each with the
bit width of its draw."""
_FIRST_SIZE = {4: 12, 3: 15}
_FIRST_POSITIONS = {n: shuffle_draws(size - 1, size - 1) for n, size in _FIRST_SIZE.items()}
"""The draws that settle the first hand's positions (its cards are those left by then)."""


def deal(rng: random.Random, players: int) -> tuple[list[int], int]:
    """Shuffle the 48 cards; 12 each for four players, 15 each + 3-card widow for three.

    By a plain ``random.Random`` the order is ``rng.shuffle(deck)``'s drawn the same way
    (Fisher–Yates from the top, ``getrandbits`` of the position's width, a draw above the
    position drawn again): the same cards, and the generator left in the same state; each
    place's card is gathered as its position is settled, the first hand's are what is left.

    >>> r, g = random.Random(3), random.Random(3)
    >>> deck = list(range(48)); r.shuffle(deck)
    >>> deal(g, 4) == ([sum(1 << c for c in deck[p:p + 12]) for p in (0, 12, 24, 36)], 0)
    True
    >>> r.random() == g.random()
    True
    """
    if type(rng) is random.Random:
        bits = _CARD_BITS[:]
        # the last place's positions first, top first; the first hand holds what is left
        held = shuffle_into_places(rng.getrandbits, bits, _PLACES[players],
                                   _FIRST_POSITIONS[players])
        first = sum(bits[:_FIRST_SIZE[players]])
        if players == 4:
            return [first, held[2], held[1], held[0]], 0
        return [first, held[2], held[1]], held[0]
    deck = _CARD_BITS[:]  # each card as its bit: the order of a shuffled list(range(48))
    shuffle(rng, deck)
    if players == 4:
        return [sum(deck[0:12]), sum(deck[12:24]), sum(deck[24:36]), sum(deck[36:48])], 0
    return [sum(deck[0:15]), sum(deck[15:30]), sum(deck[30:45])], sum(deck[45:48])


# -- the most a side can score in one hand ----------------------------------------------

TRICK_POINTS = 250
"""Every counter of the deck plus the last trick (10-point units), in every scheme A, B, C."""

MAX_TEAM_MELD = 2220
"""The largest meld a four-hand team can show (10-point units), with or without O6.

Section 9.4 searched exhaustively over every pair of 12-card hands made of counted melds
only (extra cards never lower a meld, so these cover every deal): one partner holds all
eight aces, both Q♠ and both J♦ (double aces 1000 + double pinochle 300), the other all
eight kings with both K–Q pairs of two suits, one of them trump (double kings 800 + two
royal marriages 80 + two marriages 40). A double run (1500) takes every trump A, K, Q and
J, so it leaves no around to either partner and at most 1,940 in all.
"""

MAX_CUTTHROAT_MELD = 1900
"""The largest meld of one cut-throat hand of 15 cards (10-point units), with or without O6.

Found by the same search: ♠ trump, the double run (1500), A♥ A♦ A♣ making aces around with
a run A♠ (100) and both J♦ making double pinochle with the run's two Q♠ (300).
"""


def max_side_score(players: int, one_point: bool) -> int:
    """The most one side can score in a hand (its largest meld plus every trick point), in
    the active units: 2,470 in four hands, 2,150 in cut-throat (247 / 215 with 1-point
    counting). No bid above it can ever be made, so none is legal."""
    meld = MAX_TEAM_MELD if players == 4 else MAX_CUTTHROAT_MELD
    return (meld + TRICK_POINTS) // (10 if one_point else 1)
