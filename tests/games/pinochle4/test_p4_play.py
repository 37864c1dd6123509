"""Trick play: legal cards L1–L11 (section 20.4), trick winners W1–W4 and trick points."""

from __future__ import annotations

import pytest
from p4_helpers import cards, faces, new4

from cardplaza.core.protocol import IllegalAction
from cardplaza.games.pinochle4.engine import K_PLAY, PLAY, Options
from cardplaza.games.pinochle4.rules import (
    SPADES,
    counter_table,
    legal_play_mask,
    mask_points,
    winning_index,
)

# (case, trick so far, hand, legal by default, legal with O5 "must beat only on trump leads")
LEGALITY = [
    ("L1", "K♥", "A♥ 9♥ 10♣ Q♦", "A♥", "A♥ 9♥"),
    ("L2", "K♥ 9♠", "A♥ 9♥ K♦", "A♥ 9♥", "A♥ 9♥"),
    ("L3", "K♣ Q♣", "A♣ J♣ A♥", "A♣", "A♣ J♣"),
    ("L4", "A♦", "A♦ 10♦ 9♠", "A♦ 10♦", "A♦ 10♦"),
    ("L5", "Q♥", "9♠ A♠ A♣ 10♦", "9♠ A♠", "9♠ A♠"),
    ("L6", "Q♥ K♠", "10♠ J♠ A♣", "10♠", "10♠ J♠"),
    ("L7", "Q♥ A♠", "10♠ J♠ A♣", "10♠ J♠", "10♠ J♠"),
    ("L8", "Q♥", "A♣ 9♦", "A♣ 9♦", "A♣ 9♦"),
    ("L9", "J♠ Q♠", "K♠ 9♠ A♥", "K♠", "K♠"),
    ("L10", "A♠", "10♠ 9♠ A♥", "10♠ 9♠", "10♠ 9♠"),
    ("L11", "A♥ 9♠ 9♥", "J♠ 9♠ Q♣", "J♠", "J♠ 9♠"),
    # Further clauses: leading; following a trumped non-trump lead with the led suit;
    # holding the led suit but no higher card; trump lead followed by a void player.
    ("lead", "", "A♥ 9♣ J♠", "A♥ 9♣ J♠", "A♥ 9♣ J♠"),
    ("cannot-beat-led", "A♥", "10♥ 9♥ A♠", "10♥ 9♥", "10♥ 9♥"),
    ("void-in-trump-lead", "Q♠", "A♥ 9♦", "A♥ 9♦", "A♥ 9♦"),
    ("trumped-then-follow", "10♦ 9♠ J♦", "A♦ K♦ A♠", "A♦ K♦", "A♦ K♦"),
]


@pytest.mark.parametrize("o5", [False, True], ids=["default", "o5"])
@pytest.mark.parametrize(("case", "trick", "hand", "legal", "legal_o5"), LEGALITY,
                         ids=[row[0] for row in LEGALITY])
def test_legal_cards_table(case: str, trick: str, hand: str, legal: str, legal_o5: str,
                           o5: bool) -> None:
    """Section 20.4 (trump ♠): every case with and without option O5."""
    t, h = cards(trick, hand)
    m = sum(1 << c for c in h)
    got = legal_play_mask(m, t, SPADES, o5)
    assert faces(got) == sorted((legal_o5 if o5 else legal).split()), case


def _play_state(trick: str, hand: str, o5: bool = False) -> tuple[object, list[int]]:
    """A four-hand state in play: P1 = seat 0 led ``trick``; the next seat holds ``hand``."""
    st = new4(Options(beat_only_trump_leads=o5))
    t, h = cards(trick, hand)
    st.phase = PLAY
    st.trump = SPADES
    st.bidder = 0
    st.leader = 0
    st.trick = list(t)
    st.turn = len(t)
    st.hands[st.turn] = sum(1 << c for c in h)
    return st, h


def test_example_l1_must_beat_in_suit_reason() -> None:
    """L1 through the engine: 9♥ is rejected with a precise reason; A♥ is legal."""
    st, h = _play_state("K♥", "A♥ 9♥ 10♣ Q♦")
    reasons = st.illegal_card_reasons()
    assert "beat the winning K♥" in reasons[h[1]]
    assert "follow suit" in reasons[h[2]]
    with pytest.raises(IllegalAction, match="must beat"):
        st.apply((K_PLAY, h[1]))
    st.apply((K_PLAY, h[0]))


def test_example_l5_void_must_trump_reason() -> None:
    """L5: void in ♥ and holding ♠: A♣ is rejected ("must trump")."""
    st, h = _play_state("Q♥", "9♠ A♠ A♣ 10♦")
    assert "must trump" in st.illegal_reason((K_PLAY, h[2]))


def test_example_l6_over_trump_reason() -> None:
    """L6: after K♠ trumped, J♠ is rejected (must over-trump with 10♠)."""
    st, h = _play_state("Q♥ K♠", "10♠ J♠ A♣")
    assert "over-trump" in st.illegal_reason((K_PLAY, h[1]))
    assert st.illegal_reason((K_PLAY, h[0])) is None


def test_example_l3_must_beat_partner_and_o5() -> None:
    """L3: P3 must beat partner's K♣ with A♣; under O5 J♣ is legal too."""
    st, h = _play_state("K♣ Q♣", "A♣ J♣ A♥")
    assert st.illegal_reason((K_PLAY, h[1])) is not None
    st5, h5 = _play_state("K♣ Q♣", "A♣ J♣ A♥", o5=True)
    assert st5.illegal_reason((K_PLAY, h5[1])) is None


def test_example_l11_identical_trump_does_not_beat() -> None:
    """L11: P4 must over-trump partner's 9♠ with J♠; the other 9♠ does not beat."""
    st, h = _play_state("A♥ 9♠ 9♥", "J♠ 9♠ Q♣")
    assert [a[1] for a in st.legal_actions()] == [h[0]]


WINNERS = [
    ("W1", "K♥ 10♠ 10♠ A♥", 1),
    ("W2", "10♦ A♦ A♦ K♦", 1),
    ("W3", "9♣ A♥ A♦ J♣", 3),
    ("W4", "A♥ 10♥ K♥ 9♥", 0),
]


@pytest.mark.parametrize(("case", "trick", "winner"), WINNERS, ids=[w[0] for w in WINNERS])
def test_example_w_trick_winners(case: str, trick: str, winner: int) -> None:
    """Section 20.5 (trump ♠): first of identical highest cards wins; off-suit never wins."""
    (t,) = cards(trick)
    assert winning_index(t, SPADES) == winner, case


@pytest.mark.parametrize(("scheme", "one_point", "points"),
                         [("A", False, 30), ("A", True, 3), ("B", False, 25), ("C", False, 25)])
def test_example_w4_trick_points(scheme: str, one_point: bool, points: int) -> None:
    """W4: A♥ 10♥ K♥ 9♥ is worth 30 / 3 / 25 / 25 under A, A 1-point, B, C."""
    (t,) = cards("A♥ 10♥ K♥ 9♥")
    assert mask_points(sum(1 << c for c in t), counter_table(scheme, one_point)) == points


@pytest.mark.parametrize(("scheme", "one_point", "total"),
                         [("A", False, 240), ("A", True, 24), ("B", False, 240), ("C", False, 240)])
def test_counters_total_per_deck(scheme: str, one_point: bool, total: int) -> None:
    """Section 3.4: counters total 240 (24) + last trick = 250 (25) in every scheme."""
    assert mask_points((1 << 48) - 1, counter_table(scheme, one_point)) == total
