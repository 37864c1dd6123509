"""E-fuda-tori rules as pure functions over card ints and bitmasks.

Cards are :data:`cardplaza.core.cards.FULL_DECK` ids: ``suit * 13 + (rank - 2)`` with
suits ♠ 0, ♥ 1, ♦ 2, ♣ 3 (so ``card % 13`` is the strength inside a suit, 2 low, A high)
and the Joker is 52. A set of cards is an int bitmask.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from cardplaza.core.cards import FULL_DECK, Suit, bits

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
JOKER = 52
SPADE_ACE = 12
SPADE_THREE = 1
JOKER_BIT = 1 << JOKER
SPADE_ACE_BIT = 1 << SPADE_ACE
SPADE_THREE_BIT = 1 << SPADE_THREE
SUIT_MASK = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
"""Mask of the 13 cards of each suit (index = suit)."""
HAND_SIZE = 4
MIN_PLAYERS = 2
MAX_PLAYERS = 7
NAME_MAX = 20

JACK, QUEEN, KING = 9, 10, 11  # card % 13 of the picture cards
FACE_POINTS = {JACK: 5, QUEEN: 10, KING: 20}
SET_BONUS = 15  # a K-Q-J of one suit counts 50 instead of 35
FACE_TOTAL = 140  # 4 × (20 + 10 + 5)
FACE_MASK = sum(1 << (13 * s + r) for s in range(4) for r in (JACK, QUEEN, KING))
SET_MASKS = tuple(sum(1 << (13 * s + r) for r in (JACK, QUEEN, KING)) for s in range(4))


def card(suit: int, rank: int) -> int:
    """Card id from a suit index and a natural rank (2 … 14 for the ace)."""
    return suit * 13 + rank - 2


REMOVED: dict[int, tuple[int, ...]] = {
    2: (card(CLUBS, 2),),
    3: (card(CLUBS, 2), card(DIAMONDS, 2)),
    4: (card(CLUBS, 2),),
    5: (card(CLUBS, 2), card(DIAMONDS, 2), card(HEARTS, 2)),
    6: (card(SPADES, 2), card(HEARTS, 2), card(DIAMONDS, 2), card(CLUBS, 2), card(CLUBS, 3)),
    7: (card(SPADES, 2), card(HEARTS, 2), card(DIAMONDS, 2), card(CLUBS, 2)),
}
"""Cards removed from the 53-card base deck for each number of players (spec 3.1)."""


def deck_mask(players: int) -> int:
    """The deck dealt for ``players`` players; ``ValueError`` if it breaks the stock invariant.

    The invariant (spec 3.4, E-21): the deck holds at least four cards per player and its
    size is a multiple of the number of players, so every draw round gives each player one
    card and the stock is emptied exactly by the last round.
    """
    if players not in REMOVED:
        raise ValueError(f"E-fuda-tori is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                         f"not {players}")
    mask = FULL_DECK.full_mask
    for c in REMOVED[players]:
        mask &= ~(1 << c)
    check_deck(mask, players)
    return mask


def check_deck(mask: int, players: int) -> None:
    """Refuse a deck configuration whose stock would not be a multiple of ``players``."""
    size = mask.bit_count()
    if size < HAND_SIZE * players:
        raise ValueError(f"a {size}-card deck cannot deal {HAND_SIZE} cards to each of "
                         f"{players} players")
    if size % players:
        raise ValueError(f"a {size}-card deck leaves a stock of {size - HAND_SIZE * players} "
                         f"cards, not a multiple of {players} players: a draw round would "
                         "run short")
    needed = JOKER_BIT | SPADE_ACE_BIT | SPADE_THREE_BIT | FACE_MASK
    if mask & needed != needed:
        raise ValueError("the deck must hold every K, Q, J, the ♠A, the ♠3 and the Joker")


def mask_of_list(cards: list[int] | tuple[int, ...]) -> int:
    """Bitmask of a sequence of cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def trump_of(trick_number: int) -> int:
    """Trump suit of trick ``trick_number`` (1-based): ♣, ♦, ♥, ♣ … (spec 7.1)."""
    return (CLUBS, DIAMONDS, HEARTS)[(trick_number - 1) % 3]


def suit_of(c: int) -> int:
    """Suit index of a card; -1 for the Joker."""
    return -1 if c == JOKER else c // 13


def text(c: int) -> str:
    """Display text of a card, e.g. ``Q♥``, ``Jo``."""
    return FULL_DECK.text(c)


def suit_symbol(suit: int) -> str:
    """``♠ ♥ ♦ ♣`` for a suit index."""
    return Suit(suit).symbol


FIRST_LEAD_OK = SUIT_MASK[HEARTS] | SUIT_MASK[DIAMONDS] | JOKER_BIT


def legal_mask(hand: int, trick: list[int] | tuple[int, ...], trick_number: int) -> int:
    """Cards of ``hand`` that may be played to ``trick`` (cards so far, in order).

    Leading: trick 1 forbids trumps (♣) and spades unless the hand has no ♦, ♥ or Joker
    (E-9). Following: the first rule of F1–F4 (spec 9.2) that applies.
    """
    if not trick:
        if trick_number == 1:
            return (hand & FIRST_LEAD_OK) or hand
        return hand
    played = 0
    for c in trick:
        played |= 1 << c
    if played & SPADE_THREE_BIT and hand & JOKER_BIT:  # F1
        return JOKER_BIT
    if played & JOKER_BIT:  # F2
        trumps = hand & SUIT_MASK[trump_of(trick_number)]
        if trumps:
            return trumps
    led = trick[0]
    if led != JOKER:  # F3
        follow = hand & SUIT_MASK[led // 13]
        if follow:
            return follow | (hand & JOKER_BIT)
    return hand  # F4


def illegal_card_reason(c: int, hand: int, trick: list[int] | tuple[int, ...],
                        trick_number: int) -> str | None:
    """Why card ``c`` cannot be played from ``hand`` now, or ``None`` if it can."""
    if not 0 <= c <= JOKER:
        return f"{c} is not a card"
    if not hand >> c & 1:
        return f"You do not hold {text(c)}"
    if legal_mask(hand, trick, trick_number) >> c & 1:
        return None
    trump = trump_of(trick_number)
    if not trick:
        kind = "a trump (♣)" if suit_of(c) == CLUBS else "a spade"
        return (f"On the first lead of the game you may not lead {kind}: "
                "lead a ♦, a ♥ or the Joker")
    played = 0
    for t in trick:
        played |= 1 << t
    if played & SPADE_THREE_BIT and hand & JOKER_BIT:
        return "The ♠3 has been played and you hold the Joker: you must play the Joker"
    if played & JOKER_BIT and hand & SUIT_MASK[trump]:
        return "You hold a trump: the Joker forces you to play one"
    led = suit_of(trick[0])
    joker = " or the Joker" if hand & JOKER_BIT else ""
    return f"You must follow suit: you hold {suit_symbol(led)} (play a {suit_symbol(led)}{joker})"


def trick_winner_index(trick: list[int] | tuple[int, ...], trick_number: int) -> int:
    """Index (play order) of the winning card of a complete trick: rules W1–W5 (spec 10)."""
    if JOKER in trick:
        if SPADE_THREE in trick:  # W1
            return trick.index(SPADE_THREE)
        return trick.index(JOKER)  # W2
    if SPADE_ACE in trick:  # W3
        return trick.index(SPADE_ACE)
    trump = trump_of(trick_number)
    best, best_i = -1, -1
    for i, c in enumerate(trick):  # W4
        if c // 13 == trump and c > best:
            best, best_i = c, i
    if best_i >= 0:
        return best_i
    led = trick[0] // 13
    for i, c in enumerate(trick):  # W5
        if c // 13 == led and c > best:
            best, best_i = c, i
    return best_i


def complete_sets(captured: int) -> int:
    """Number of K-Q-J suit sets in one player's captured cards."""
    return sum(1 for m in SET_MASKS if captured & m == m)


def score(captured: int, simple_scoring: bool = False) -> int:
    """Points of one player's captured cards: K 20, Q 10, J 5; a set of one suit 50."""
    pts = 0
    for c in bits(captured & FACE_MASK):
        pts += FACE_POINTS[c % 13]
    if not simple_scoring:
        pts += SET_BONUS * complete_sets(captured)
    return pts


def ranking(scores: list[int] | tuple[int, ...]) -> list[int]:
    """Competition ranks (1, 1, 3 …) of each seat, highest score first (E-24)."""
    return [1 + sum(1 for o in scores if o > s) for s in scores]


@functools.cache
def default_names(players: int) -> tuple[str, ...]:
    """``Player 1`` … ``Player n`` (spec 14)."""
    return tuple(f"Player {i + 1}" for i in range(players))


@dataclass(frozen=True)
class Options:
    """E-fuda-tori settings.

    ``players``: 2–7 (default 4; a site-faithful lobby offers 4 or 5, E-25).
    ``names``: one name per seat, free text trimmed to 1–20 characters; empty means
    ``Player 1`` … ``Player n``.
    ``simple_scoring``: no K-Q-J set bonus (every picture card counts alone).
    ``dealer``: the seat that deals, or -1 to draw the dealer at random (E-2); "play
    again" sets it to the seat left of the previous dealer.
    """

    players: int = 4
    names: tuple[str, ...] = ()
    simple_scoring: bool = False
    dealer: int = -1

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int):
            raise ValueError(f"players must be a whole number; got {self.players!r}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}; "
                             f"got {self.players}")
        if isinstance(self.dealer, bool) or not isinstance(self.dealer, int) \
                or not -1 <= self.dealer < self.players:
            raise ValueError(f"dealer must be -1 (drawn at random) or a seat from 0 to "
                             f"{self.players - 1}; got {self.dealer!r}")
        if not isinstance(self.simple_scoring, bool):
            raise ValueError(f"simple_scoring must be on or off; got {self.simple_scoring!r}")
        if not isinstance(self.names, tuple):
            raise ValueError("names must be a tuple of player names")
        if self.names:
            if len(self.names) != self.players:
                raise ValueError(f"names must give one name per player: {self.players} "
                                 f"names expected, got {len(self.names)}")
            trimmed = []
            for i, name in enumerate(self.names):
                if not isinstance(name, str):
                    raise ValueError(f"name of player {i + 1} must be text; got {name!r}")
                t = name.strip()
                if not 1 <= len(t) <= NAME_MAX:
                    raise ValueError(f"name of player {i + 1} must be 1 to {NAME_MAX} "
                                     f"characters after trimming; got {name!r}")
                trimmed.append(t)
            object.__setattr__(self, "names", tuple(trimmed))
        deck_mask(self.players)

    def display_names(self) -> tuple[str, ...]:
        """The names shown for each seat."""
        return self.names or default_names(self.players)
