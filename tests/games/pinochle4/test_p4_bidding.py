"""Bidding (section 6, examples B1–B5), trump naming and passing (example X1)."""

from __future__ import annotations

import pytest
from p4_helpers import faces, new4

from cardplaza.core.protocol import IllegalAction
from cardplaza.games.pinochle4.engine import (
    BIDDING,
    K_BID,
    K_GIVE,
    K_JUMP,
    K_TRUMP,
    PASS,
    PASSING,
    PLAY,
    TRUMP,
    Options,
)


def bid(st: object, amount: int) -> None:
    st.apply(st.parse_action(f"bid {amount}") if amount else PASS)  # type: ignore[attr-defined]


def test_example_b1_seed000_sequence() -> None:
    """B1: 250, 260, pass, dealer 270, pass, pass → the dealer wins at 270."""
    st = new4(dealer=3)
    bid(st, 250)
    bid(st, 260)
    bid(st, 0)
    assert st.turn == 3
    bid(st, 270)
    bid(st, 0)
    assert st.phase == BIDDING
    bid(st, 0)
    assert st.phase == TRUMP and st.bidder == 3 and st.contract == 270 and st.turn == 3


def test_example_b2_stuck_dealer() -> None:
    """B2: three passes before the dealer: the dealer wins at 250 with no turn."""
    st = new4(dealer=1)
    for _ in range(3):
        bid(st, 0)
    assert st.phase == TRUMP and st.bidder == 1 and st.contract == 250 and st.stuck


def test_example_b3_all_pass_redeal() -> None:
    """B3 (O7): all four pass: no score; the next hand is dealt by the dealer's left."""
    st = new4(Options(all_pass_redeal=True), dealer=2)
    for _ in range(3):
        bid(st, 0)
    assert st.phase == BIDDING and st.turn == 2  # the dealer may pass too
    bid(st, 0)
    assert st.phase == BIDDING and st.dealer == 3 and st.hand_no == 2
    assert st.scores == [0, 0] and st.log[-1]["redeal"]
    assert st.turn == 0
    assert [h.bit_count() for h in st.hands] == [12] * 4


def test_all_pass_redeal_dealer_may_bid() -> None:
    """O7: after three passes the dealer may bid and then wins at that bid."""
    st = new4(Options(all_pass_redeal=True), dealer=2)
    for _ in range(3):
        bid(st, 0)
    bid(st, 300)
    assert st.phase == TRUMP and st.bidder == 2 and st.contract == 300


def test_example_b4_legal_amounts() -> None:
    """B4: high bid 260: 270, 280, … legal; 265 and 260 illegal; 1-point: 27, 28 after 26."""
    st = new4(dealer=3)
    bid(st, 250)
    bid(st, 260)
    assert st.illegal_reason((K_BID, 270)) is None
    assert st.illegal_reason((K_JUMP, 280)) is None
    assert st.illegal_reason((K_JUMP, 2000)) is None  # DECISION P-8: 2,000 is accepted
    assert "steps of 10" in str(st.illegal_reason((K_JUMP, 265)))
    assert "higher than 260" in str(st.illegal_reason((K_BID, 260)))
    assert st.parse_action("280") == (K_JUMP, 280)
    one = new4(Options(one_point=True), dealer=3)
    bid(one, 25)
    bid(one, 26)
    assert one.legal_actions() == [PASS, (K_BID, 27)]
    assert one.illegal_reason((K_JUMP, 28)) is None
    assert one.illegal_reason((K_BID, 26)) is not None


def test_example_b5_overbid_partner() -> None:
    """B5: P1 bids 250, P2 passes, P3 (P1's partner) bids 260: legal."""
    st = new4(dealer=3)
    bid(st, 250)
    bid(st, 0)
    assert st.illegal_reason((K_BID, 260)) is None
    bid(st, 260)
    assert st.high_bidder == 2


def test_pass_is_final_even_after_bidding() -> None:
    """DECISION P-9: a player who bid and then passed is skipped."""
    st = new4(dealer=3)
    bid(st, 250)  # seat 0
    bid(st, 260)  # seat 1
    bid(st, 270)  # seat 2
    bid(st, 280)  # seat 3
    bid(st, 0)  # seat 0 passes
    bid(st, 290)  # seat 1
    bid(st, 0)  # seat 2 passes
    assert st.turn == 3
    bid(st, 0)  # seat 3 passes: seat 1 wins
    assert st.bidder == 1 and st.contract == 290


def test_first_bid_minimum_option() -> None:
    """O9: the minimum bid is the option's value."""
    st = new4(Options(min_bid=150), dealer=3)
    assert st.legal_actions() == [PASS, (K_BID, 150)]
    assert "at least 150" in str(st.illegal_reason((K_BID, 140)))


def test_example_x1_passing_four_cards() -> None:
    """X1: South wins and names ♠; North gives 4 (South holds 16), South returns any 4."""
    st = new4(dealer=3)
    bid(st, 250)
    for _ in range(3):
        bid(st, 0)
    assert st.bidder == 0
    st.apply((K_TRUMP, 0))
    assert st.phase == PASSING and st.turn == 2
    north = [c for c in range(48) if st.hands[2] >> c & 1][:4]
    for c in north:
        st.apply((K_GIVE, c))
    assert st.hands[0].bit_count() == 16 and st.hands[2].bit_count() == 8
    assert st.turn == 0
    south_own = [c for c in range(48) if st.hands[0] >> c & 1 and c not in north][:2]
    back = north[:2] + south_own
    for c in back:
        st.apply((K_GIVE, c))
    assert st.phase == PLAY or st.phase != PASSING
    assert [h.bit_count() for h in st.hands] == [12] * 4
    # Passed cards are seen by the two partners only (section 17).
    assert faces(st.observation(0)["passing"]["received"]) == faces(north)
    assert faces(st.observation(2)["passing"]["received"]) == faces(back)
    for seat in (1, 3):
        p = st.observation(seat)["passing"]
        assert p["gave"] == [] and p["received"] == []


@pytest.mark.parametrize("count", [3, 0])
def test_example_x1_passing_count_option(count: int) -> None:
    """X1 with O4 = 3 (3 cards each way) or 0 (no passing)."""
    st = new4(Options(passing=count), dealer=3)
    bid(st, 250)
    for _ in range(3):
        bid(st, 0)
    st.apply((K_TRUMP, 1))
    if count == 0:
        assert st.phase != PASSING and st.melds is not None
        return
    for _ in range(2 * count):
        st.apply(st.legal_actions()[0])
    assert st.melds is not None and st.given[0].bit_count() == 3


def test_selection_hidden_until_complete() -> None:
    """The giver's selection is private; the bidder gets nothing until N are chosen."""
    st = new4(dealer=3)
    bid(st, 250)
    for _ in range(3):
        bid(st, 0)
    st.apply((K_TRUMP, 0))
    st.apply(st.legal_actions()[0])
    assert len(st.observation(2)["passing"]["selected"]) == 1
    assert st.observation(0)["passing"]["selected"] == []
    assert st.observation(0)["passing"]["pending_count"] == 1
    with pytest.raises(IllegalAction):
        st.apply((K_BID, 300))
