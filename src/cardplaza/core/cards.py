"""Cards as small ints, card sets as int bitmasks, and text parsing/formatting.

A :class:`Deck` fixes which physical cards exist in a game. Each physical card is an
``int`` in ``range(deck.size)``; a set of cards is an ``int`` bitmask with bit ``c`` set
for card ``c``. Decks with duplicate copies (Pinochle) number the copies explicitly:
card ``c`` has face ``c % deck.faces_count`` and copy ``c // deck.faces_count``, so the
mask of copy ``k`` occupies its own run of bits.

>>> PINOCHLE.format_cards(PINOCHLE.parse_cards("A♠ 10♥ qc"))
'A♠ 10♥ Q♣'
>>> PINOCHLE.size, PIQUET.size, FULL_DECK.size
(48, 32, 53)
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TypeVar

T = TypeVar("T")


class Suit(IntEnum):
    """The four suits, in display order."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def symbol(self) -> str:
        """Unicode symbol, e.g. ``♠``."""
        return "♠♥♦♣"[self]

    @property
    def letter(self) -> str:
        """ASCII letter, e.g. ``S``."""
        return "SHDC"[self]

    @property
    def is_red(self) -> bool:
        """True for hearts and diamonds."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)


class Rank(IntEnum):
    """Ranks by their natural value; each game has its own strength order."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    JOKER = 15

    @property
    def text(self) -> str:
        """Short text: ``A K Q J 10 9 … 2``, ``Jo`` for the Joker."""
        return _RANK_TEXT[self]


_RANK_TEXT = {
    Rank.TWO: "2", Rank.THREE: "3", Rank.FOUR: "4", Rank.FIVE: "5", Rank.SIX: "6",
    Rank.SEVEN: "7", Rank.EIGHT: "8", Rank.NINE: "9", Rank.TEN: "10", Rank.JACK: "J",
    Rank.QUEEN: "Q", Rank.KING: "K", Rank.ACE: "A", Rank.JOKER: "Jo",
}
_RANK_PARSE = {
    "2": Rank.TWO, "3": Rank.THREE, "4": Rank.FOUR, "5": Rank.FIVE, "6": Rank.SIX,
    "7": Rank.SEVEN, "8": Rank.EIGHT, "9": Rank.NINE, "10": Rank.TEN, "T": Rank.TEN,
    "J": Rank.JACK, "Q": Rank.QUEEN, "K": Rank.KING, "A": Rank.ACE,
}
_SUIT_PARSE = {
    "S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS, "C": Suit.CLUBS,
    "♠": Suit.SPADES, "♥": Suit.HEARTS, "♦": Suit.DIAMONDS, "♣": Suit.CLUBS,
    "♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS,
}
_JOKER_WORDS = {"JO", "JK", "JOKER", "🃏", "*"}
_CARD_RE = re.compile(r"^(10|[2-9TJQKA])([SHDC♠♥♦♣♤♡♢♧])$")


class CardParseError(ValueError):
    """Raised when a text is not a card of the deck at hand."""


Face = tuple[Suit | None, Rank]
"""A card face: ``(suit, rank)``; the Joker has no suit."""


def parse_face(text: str) -> Face:
    """Parse one card face from ``A♠``, ``AS``, ``as``, ``10h``, ``TH`` or ``Jo``.

    >>> parse_face("10h")
    (<Suit.HEARTS: 1>, <Rank.TEN: 10>)
    """
    t = text.strip().upper()
    if t in _JOKER_WORDS:
        return (None, Rank.JOKER)
    m = _CARD_RE.match(t)
    if not m:
        raise CardParseError(f"{text!r} is not a card (try A♠, AS, 10h or TH)")
    return (_SUIT_PARSE[m.group(2)], _RANK_PARSE[m.group(1)])


def face_text(face: Face, *, ascii_only: bool = False) -> str:
    """Format a face: ``A♠`` (or ``AS`` with ``ascii_only``); the Joker is ``Jo``."""
    suit, rank = face
    if suit is None:
        return "Jo"
    return rank.text + (suit.letter if ascii_only else suit.symbol)


def bits(mask: int) -> Iterator[int]:
    """Yield the set bit positions of ``mask`` in increasing order.

    >>> list(bits(0b10110))
    [1, 2, 4]
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def chunk_tables(items: Sequence[T]) -> tuple[tuple[tuple[T, ...], ...], ...]:
    """Tables that turn a bitmask into the items of its set bits without a loop per bit.

    ``tables[k][b]`` holds ``items[8 * k + i]`` for every bit ``i`` set in the byte ``b``;
    ``[*tables[0][m & 255], *tables[1][m >> 8 & 255], …]`` lists the items of mask ``m`` in
    increasing bit order.

    >>> t = chunk_tables("abcdefghij")
    >>> [*t[0][0b101], *t[1][0b10]]
    ['a', 'c', 'j']
    """
    out = []
    for k in range(0, len(items), 8):
        chunk = items[k:k + 8]
        table: list[tuple[T, ...]] = [()] * 256
        for b in range(1, 256):
            i = b.bit_length() - 1  # the highest bit comes last
            rest = table[b ^ (1 << i)]
            table[b] = (*rest, chunk[i]) if i < len(chunk) else rest
        out.append(tuple(table))
    return tuple(out)


_B0, _B1, _B2, _B3, _B4, _B5, _B6, _B7 = chunk_tables(range(64))


def bit_list(mask: int) -> list[int]:
    """The set bit positions of ``mask`` as a list, in increasing order.

    >>> bit_list(0b10110)
    [1, 2, 4]
    """
    if 0 <= mask < 1 << 64:
        if mask < 1 << 32:
            return [*_B0[mask & 255], *_B1[mask >> 8 & 255], *_B2[mask >> 16 & 255],
                    *_B3[mask >> 24]]
        return [*_B0[mask & 255], *_B1[mask >> 8 & 255], *_B2[mask >> 16 & 255],
                *_B3[mask >> 24 & 255], *_B4[mask >> 32 & 255], *_B5[mask >> 40 & 255],
                *_B6[mask >> 48 & 255], *_B7[mask >> 56]]
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def shuffle_draws(top: int, count: int) -> tuple[tuple[int, int], ...]:
    """The draws of a shuffle from the top (Fisher–Yates, as ``random.shuffle``) that settle
    the ``count`` positions from ``top`` down: each position and the bit width of its draw.

    >>> shuffle_draws(5, 3)
    ((5, 3), (4, 3), (3, 3))
    """
    return tuple((i, (i + 1).bit_length()) for i in range(top, top - count, -1))


_DRAWS = tuple(shuffle_draws(n - 1, n - 1) for n in range(129))
"""Per deck size ``n`` (up to 128), every draw of its shuffle (:func:`shuffle_draws`)."""


def shuffle(rng: random.Random, items: list[T]) -> None:
    """``rng.shuffle(items)``: the very same order from the same RNG state, but without a
    Python call per item when ``rng`` is a plain ``random.Random`` (any other RNG, such as
    a research adapter's scripted one, is asked to shuffle itself).

    >>> a, b = list(range(48)), list(range(48))
    >>> random.Random(5).shuffle(a); shuffle(random.Random(5), b); a == b
    True
    """
    n = len(items)
    if type(rng) is not random.Random or n >= len(_DRAWS):
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i, width in _DRAWS[n]:
        j = getrandbits(width)
        while j > i:
            j = getrandbits(width)
        items[i], items[j] = items[j], items[i]


Places = Sequence[Sequence[tuple[int, int]]]
"""Per place, the draws that settle its deck positions, top first (:func:`shuffle_draws`)."""


def shuffle_into_places(getrandbits: Callable[[int], int], bits: list[int], places: Places,
                        rest: Sequence[tuple[int, int]]) -> list[int]:
    """:func:`shuffle`'s draws (Fisher–Yates from the top) over ``bits`` (each card as its
    bit), each place's cards gathered as the shuffle settles its positions: the card at a
    position drawn moves to the settled one's index, so nothing is swapped or sliced.
    Returns each place's cards in the order of ``places``; the draws of ``rest`` (the
    positions below them) are made too, so the generator ends as after a whole shuffle,
    and the cards left at the front of ``bits`` are the remaining place's.

    >>> deck = list(range(6)); random.Random(2).shuffle(deck)
    >>> bits = [1 << c for c in range(6)]
    >>> top = [[(5, 3), (4, 3)], [(3, 2), (2, 2)]]
    >>> held = shuffle_into_places(random.Random(2).getrandbits, bits, top, [(1, 1)])
    >>> held == [1 << deck[5] | 1 << deck[4], 1 << deck[3] | 1 << deck[2]]
    True
    >>> bits[0] | bits[1] == 1 << deck[0] | 1 << deck[1]
    True
    """
    held = []
    for positions in places:
        cards = 0
        for i, width in positions:
            j = getrandbits(width)
            while j > i:
                j = getrandbits(width)
            cards |= bits[j]
            bits[j] = bits[i]  # the card at i moves to j; i is settled
        held.append(cards)
    for i, width in rest:
        while getrandbits(width) > i:
            pass
    return held


def mask_of(cards: Iterable[int]) -> int:
    """Bitmask of an iterable of card ints."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


@dataclass(frozen=True)
class Deck:
    """A game's physical deck.

    ``faces`` lists the distinct faces in increasing strength within each suit
    (suit-major); ``copies`` is how many physical copies each face has.
    """

    name: str
    faces: tuple[Face, ...]
    copies: int = 1
    _index: dict[Face, int] = field(init=False, repr=False, compare=False)
    _display: dict[bool, tuple[tuple[str, ...], tuple[tuple[int, int, int], ...]]] = field(
        init=False, repr=False, compare=False)
    """Each card's text and display sort key, by ``ascii_only`` (made when first asked)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {f: i for i, f in enumerate(self.faces)})
        object.__setattr__(self, "_display", {})

    @property
    def faces_count(self) -> int:
        """Number of distinct faces."""
        return len(self.faces)

    @property
    def size(self) -> int:
        """Number of physical cards."""
        return len(self.faces) * self.copies

    @property
    def full_mask(self) -> int:
        """Mask with every physical card."""
        return (1 << self.size) - 1

    def face_of(self, card: int) -> int:
        """Face index of a physical card."""
        return card % len(self.faces)

    def copy_of(self, card: int) -> int:
        """Copy number (0-based) of a physical card."""
        return card // len(self.faces)

    def card(self, face: int, copy: int = 0) -> int:
        """Physical card for a face index and copy."""
        return face + copy * len(self.faces)

    def suit(self, card: int) -> Suit | None:
        """Suit of a card (``None`` for the Joker)."""
        return self.faces[card % len(self.faces)][0]

    def rank(self, card: int) -> Rank:
        """Rank of a card."""
        return self.faces[card % len(self.faces)][1]

    def face_index(self, face: Face) -> int:
        """Index of a face; raises :class:`CardParseError` if the deck lacks it."""
        try:
            return self._index[face]
        except KeyError:
            raise CardParseError(f"{face_text(face)} is not in the {self.name} deck") from None

    def text(self, card: int, *, ascii_only: bool = False) -> str:
        """Text of one card, e.g. ``10♥``."""
        return face_text(self.faces[card % len(self.faces)], ascii_only=ascii_only)

    def parse_face(self, text: str) -> int:
        """Parse a card text into a face index of this deck."""
        return self.face_index(parse_face(text))

    def parse_cards(self, text: str) -> list[int]:
        """Parse a space/comma separated hand into physical cards.

        Repeated faces take successive copies (``"A♠ A♠"`` gives both copies).
        """
        used: dict[int, int] = {}
        out: list[int] = []
        for token in re.split(r"[\s,]+", text.strip()):
            if not token:
                continue
            f = self.parse_face(token)
            k = used.get(f, 0)
            if k >= self.copies:
                raise CardParseError(f"{token} appears more than {self.copies} time(s)")
            used[f] = k + 1
            out.append(self.card(f, k))
        return out

    def parse_mask(self, text: str) -> int:
        """Parse a hand into a bitmask (see :meth:`parse_cards`)."""
        return mask_of(self.parse_cards(text))

    def sorted_cards(self, cards: Iterable[int],
                     suit_order: Sequence[Suit] = tuple(Suit)) -> list[int]:
        """Cards sorted by suit (``suit_order``), then by strength high to low."""
        order = {s: i for i, s in enumerate(suit_order)}
        return sorted(cards, key=lambda c: self._sort_key(c, order))

    def _sort_key(self, card: int, order: dict[Suit, int]) -> tuple[int, int, int]:
        suit = self.suit(card)
        return (len(order) if suit is None else order.get(suit, len(order)),
                -self.face_of(card), self.copy_of(card))

    def _display_tables(self, ascii_only: bool
                        ) -> tuple[tuple[str, ...], tuple[tuple[int, int, int], ...]]:
        """Every card's text and its key in :meth:`sorted_cards`' default order."""
        found = self._display.get(ascii_only)
        if found is None:
            order = {s: i for i, s in enumerate(Suit)}
            found = self._display[ascii_only] = (
                tuple(self.text(c, ascii_only=ascii_only) for c in range(self.size)),
                tuple(self._sort_key(c, order) for c in range(self.size)))
        return found

    def format_cards(self, cards: Iterable[int], *, ascii_only: bool = False,
                     sort: bool = False) -> str:
        """Space-separated card texts (optionally sorted for display)."""
        seq = self.sorted_cards(cards) if sort else list(cards)
        return " ".join(self.text(c, ascii_only=ascii_only) for c in seq)

    def format_mask(self, mask: int, *, ascii_only: bool = False) -> str:
        """Display text of a card set, sorted by suit and strength (as
        :meth:`format_cards` with ``sort=True``, from texts and keys made once)."""
        if mask >> self.size:  # cards beyond the deck: named as their faces
            return self.format_cards(bits(mask), ascii_only=ascii_only, sort=True)
        texts, keys = self._display_tables(ascii_only)
        return " ".join([texts[c] for c in sorted(bits(mask), key=keys.__getitem__)])

    def mask_faces(self, mask: int) -> int:
        """Collapse copies: bitmask over face indices present in ``mask``."""
        n = len(self.faces)
        low = (1 << n) - 1
        out = 0
        while mask:
            out |= mask & low
            mask >>= n
        return out

    def face_counts(self, mask: int) -> list[int]:
        """Number of copies of each face present in ``mask``."""
        counts = [0] * len(self.faces)
        n = len(self.faces)
        for c in bits(mask):
            counts[c % n] += 1
        return counts

    def suit_mask(self, suit: Suit) -> int:
        """Mask of every physical card of a suit."""
        return mask_of(c for c in range(self.size) if self.suit(c) is suit)

    def rank_mask(self, rank: Rank) -> int:
        """Mask of every physical card of a rank."""
        return mask_of(c for c in range(self.size) if self.rank(c) is rank)


def _suited(ranks: Sequence[Rank]) -> tuple[Face, ...]:
    return tuple((s, r) for s in Suit for r in ranks)


PINOCHLE_RANKS = (Rank.NINE, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.TEN, Rank.ACE)
"""Pinochle ranks, low to high (A > 10 > K > Q > J > 9)."""

PIQUET_RANKS = (Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN,
                Rank.KING, Rank.ACE)
"""Piquet ranks, low to high."""

STANDARD_RANKS = tuple(Rank(v) for v in range(2, 15))
"""Standard ranks 2 … A, low to high."""

PINOCHLE = Deck("Pinochle", _suited(PINOCHLE_RANKS), copies=2)
"""48 cards: A 10 K Q J 9 in four suits, two copies each. Card = face + 24 × copy."""

PIQUET = Deck("Piquet", _suited(PIQUET_RANKS))
"""32 cards: A K Q J 10 9 8 7 in four suits."""

FULL_DECK = Deck("52 + Joker", (*_suited(STANDARD_RANKS), (None, Rank.JOKER)))
"""52 standard cards plus one Joker (card 52)."""
