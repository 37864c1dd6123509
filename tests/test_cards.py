"""Cards, decks, bitmasks and text forms."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardplaza.core.cards import (
    FULL_DECK,
    PINOCHLE,
    PIQUET,
    CardParseError,
    Deck,
    Rank,
    Suit,
    bits,
    mask_of,
    parse_face,
)

DECKS = [PINOCHLE, PIQUET, FULL_DECK]


def test_deck_sizes_and_composition() -> None:
    assert (PINOCHLE.size, PINOCHLE.faces_count, PINOCHLE.copies) == (48, 24, 2)
    assert PIQUET.size == 32
    assert FULL_DECK.size == 53
    assert FULL_DECK.rank(52) is Rank.JOKER and FULL_DECK.suit(52) is None
    for suit in Suit:
        assert PINOCHLE.suit_mask(suit).bit_count() == 12
        assert PIQUET.suit_mask(suit).bit_count() == 8
        assert FULL_DECK.suit_mask(suit).bit_count() == 13
    assert PINOCHLE.rank_mask(Rank.ACE).bit_count() == 8


def test_pinochle_copies_are_distinct_physical_cards() -> None:
    a0 = PINOCHLE.card(PINOCHLE.parse_face("A♠"), 0)
    a1 = PINOCHLE.card(PINOCHLE.parse_face("A♠"), 1)
    assert a0 != a1
    assert PINOCHLE.face_of(a0) == PINOCHLE.face_of(a1)
    assert (PINOCHLE.copy_of(a0), PINOCHLE.copy_of(a1)) == (0, 1)
    assert a1 == a0 + 24
    both = mask_of([a0, a1])
    assert PINOCHLE.mask_faces(both) == 1 << PINOCHLE.face_of(a0)
    assert PINOCHLE.face_counts(both)[PINOCHLE.face_of(a0)] == 2
    assert PINOCHLE.parse_cards("A♠ A♠") == [a0, a1]
    with pytest.raises(CardParseError):
        PINOCHLE.parse_cards("A♠ A♠ A♠")


def test_pinochle_rank_order_is_a_10_k_q_j_9() -> None:
    order = [PINOCHLE.rank(PINOCHLE.card(f)) for f in range(6)]
    assert order == [Rank.NINE, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.TEN, Rank.ACE]
    assert [PIQUET.rank(c) for c in range(8)][-1] is Rank.ACE


@pytest.mark.parametrize(("text", "face"), [
    ("A♠", (Suit.SPADES, Rank.ACE)), ("AS", (Suit.SPADES, Rank.ACE)),
    ("as", (Suit.SPADES, Rank.ACE)), ("10h", (Suit.HEARTS, Rank.TEN)),
    ("TH", (Suit.HEARTS, Rank.TEN)), ("10♥", (Suit.HEARTS, Rank.TEN)),
    ("Q♣", (Suit.CLUBS, Rank.QUEEN)), ("qc", (Suit.CLUBS, Rank.QUEEN)),
    ("9♦", (Suit.DIAMONDS, Rank.NINE)), ("Jo", (None, Rank.JOKER)),
    ("joker", (None, Rank.JOKER)), ("2♡", (Suit.HEARTS, Rank.TWO)),
])
def test_parse_face_forms(text: str, face: tuple[Suit | None, Rank]) -> None:
    assert parse_face(text) == face


@pytest.mark.parametrize("bad", ["", "1S", "11♠", "AX", "A", "♠", "10", "ZZ"])
def test_parse_face_rejects(bad: str) -> None:
    with pytest.raises(CardParseError):
        parse_face(bad)


def test_card_not_in_deck_is_rejected() -> None:
    with pytest.raises(CardParseError, match="not in the Pinochle deck"):
        PINOCHLE.parse_face("8♠")
    with pytest.raises(CardParseError):
        PIQUET.parse_face("Jo")


def test_hand_formats() -> None:
    hand = PINOCHLE.parse_cards("A♠ 10♥ Q♣")
    assert PINOCHLE.format_cards(hand) == "A♠ 10♥ Q♣"
    assert PINOCHLE.format_cards(hand, ascii_only=True) == "AS 10H QC"
    assert PINOCHLE.parse_cards("AS TH QC") == hand
    assert PINOCHLE.parse_cards("as, 10h,qc") == hand
    assert PINOCHLE.format_mask(mask_of(PINOCHLE.parse_cards("9♠ A♣ K♠ 10♠"))) == "10♠ K♠ 9♠ A♣"


@pytest.mark.parametrize("deck", DECKS, ids=lambda d: d.name)
def test_every_card_text_round_trips(deck: Deck) -> None:
    for card in range(deck.size):
        for ascii_only in (False, True):
            text = deck.text(card, ascii_only=ascii_only)
            assert deck.parse_face(text) == deck.face_of(card)


@pytest.mark.parametrize("deck", DECKS, ids=lambda d: d.name)
@given(data=st.data())
def test_hand_text_round_trip(deck: Deck, data: st.DataObject) -> None:
    cards = data.draw(st.sets(st.integers(0, deck.size - 1), max_size=20))
    mask = mask_of(cards)
    text = deck.format_mask(mask)
    assert deck.parse_mask(text) == _canonical(deck, mask)
    assert deck.parse_mask(deck.format_mask(mask, ascii_only=True)) == _canonical(deck, mask)


def _canonical(deck: Deck, mask: int) -> int:
    """Same faces with the lowest copies (text cannot tell copies apart)."""
    out = 0
    for face, count in enumerate(deck.face_counts(mask)):
        for copy in range(count):
            out |= 1 << deck.card(face, copy)
    return out


@given(st.integers(0, (1 << 53) - 1))
def test_bits_and_mask_of_are_inverse(mask: int) -> None:
    cards = list(bits(mask))
    assert cards == sorted(cards)
    assert mask_of(cards) == mask
    assert len(cards) == mask.bit_count()


def test_fast_shuffle_gives_the_same_order_and_rng_state_as_random_shuffle() -> None:
    import random

    from cardplaza.core.cards import shuffle

    for seed in range(300):
        for size in (0, 1, 2, 3, 17, 32, 48, 53, 200):
            a, b = list(range(size)), list(range(size))
            ra, rb = random.Random(seed), random.Random(seed)
            ra.shuffle(a)
            shuffle(rb, b)
            assert a == b
            assert ra.getstate() == rb.getstate()  # the next draws agree too


def test_fast_shuffle_leaves_any_other_rng_to_shuffle_itself() -> None:
    import random

    from cardplaza.core.cards import shuffle

    class Reverse(random.Random):
        def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
            x.reverse()

    items = [1, 2, 3]
    shuffle(Reverse(0), items)
    assert items == [3, 2, 1]


@pytest.mark.parametrize("deck", DECKS, ids=lambda d: d.name)
@given(data=st.data())
def test_a_masks_text_is_its_cards_sorted_from_texts_made_once(
        deck: Deck, data: st.DataObject) -> None:
    """``format_mask`` names the cards as ``format_cards`` sorted does, and once a deck's
    card texts are made it names no card afresh."""
    cards = data.draw(st.sets(st.integers(0, deck.size - 1), max_size=20))
    mask = mask_of(cards)
    named: list[int] = []
    text = Deck.text

    def counted(self: Deck, card: int, *, ascii_only: bool = False) -> str:
        named.append(card)
        return text(self, card, ascii_only=ascii_only)

    for ascii_only in (False, True):
        deck.format_mask(mask, ascii_only=ascii_only)  # the deck's texts made
        named.clear()
        Deck.text = counted  # type: ignore[method-assign]
        try:
            fast = deck.format_mask(mask, ascii_only=ascii_only)
        finally:
            Deck.text = text  # type: ignore[method-assign]
        assert named == []
        assert fast == deck.format_cards(cards, ascii_only=ascii_only, sort=True)
