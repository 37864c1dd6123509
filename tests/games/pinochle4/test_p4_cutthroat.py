"""Three-hand cut-throat (section 19, examples C1–C3)."""

from __future__ import annotations

import random

import pytest
from p4_helpers import cards, new3

from cardplaza.core.protocol import IllegalAction
from cardplaza.core.registry import get_game
from cardplaza.games.pinochle4.engine import (
    DISCARD,
    K_BID,
    K_DISCARD,
    K_TRUMP,
    PASS,
    PLAY,
    TRUMP,
    CutthroatOptions,
    game_winner,
    hand_scores,
)
from cardplaza.games.pinochle4.rules import counter_table, mask_points


def test_deal_fifteen_each_and_widow() -> None:
    """DECISION C-2: 15 cards each and a 3-card face-down widow nobody sees."""
    st = new3()
    assert [h.bit_count() for h in st.hands] == [15, 15, 15]
    assert st.widow.bit_count() == 3
    for seat in range(3):
        assert st.observation(seat)["widow"] is None


def test_widow_exposed_taken_trump_discard_meld_and_lead() -> None:
    """C-3/C-4/C-5/C-6: two passes end the auction; the widow is shown to all and taken;
    trump, three discards seen only by the bid winner; meld from 15; bid winner leads."""
    st = new3(dealer=2)
    widow = st.widow
    st.apply((K_BID, 250))  # seat 0
    st.apply(PASS)  # seat 1
    assert st.phase != TRUMP
    st.apply(PASS)  # seat 2: two passes → seat 0 wins
    assert st.phase == TRUMP and st.bidder == 0 and st.hands[0].bit_count() == 18
    shown = sum(1 << c for c in st.observation(1)["widow"])
    assert shown == widow == sum(1 << c for c in st.observation(2)["widow"])
    st.apply((K_TRUMP, 2))
    assert st.phase == DISCARD
    hand = [c for c in range(48) if st.hands[0] >> c & 1]
    with pytest.raises(IllegalAction):
        st.apply((K_DISCARD, next(c for c in range(48) if st.hands[1] >> c & 1)))
    for c in hand[:3]:
        st.apply((K_DISCARD, c))
    assert st.observation(0)["discards"] == sorted(hand[:3], key=lambda c: (
        c % 24 // 6, -(c % 6), c // 24))
    assert st.observation(1)["discards"] is None and st.observation(1)["discard_count"] == 3
    assert st.melds is not None and [h.bit_count() for h in st.hands] == [15, 15, 15]
    if st.phase == PLAY:
        assert st.turn == 0


def test_stuck_dealer_after_two_passes() -> None:
    """C-3: the two players before the dealer pass: the dealer is stuck at the minimum."""
    st = new3(dealer=0)
    st.apply(PASS)
    st.apply(PASS)
    assert st.bidder == 0 and st.contract == 250 and st.stuck


def test_all_pass_redeal_three_hands() -> None:
    """O7 in cut-throat: three passes redeal, the next player deals."""
    st = new3(CutthroatOptions(all_pass_redeal=True), dealer=0)
    for _ in range(3):
        st.apply(PASS)
    assert st.dealer == 1 and st.hand_no == 2 and st.log[-1]["redeal"]


def test_example_c1_discards_count_for_bidder() -> None:
    """C1: P0 bids 300, discards 10♥ K♣ 9♦ (20 points); meld 150 + 160 → +310;
    P1 60 + 50 → +110; P2 40 + 40 → +80; 160 + 50 + 40 = 250."""
    (disc,) = cards("10♥ K♣ 9♦")
    assert mask_points(sum(1 << c for c in disc), counter_table("A", False)) == 20
    delta, made = hand_scores(300, 0, [150, 60, 40], [160, 50, 40])
    assert delta == [310, 110, 80] and made


def test_example_c2_opponent_without_trick_points() -> None:
    """C2: P1 bids 250: 120 + 230 → +350; P0 50 + 20 → +70; P2 80 + 0 → 0."""
    assert hand_scores(250, 1, [50, 120, 80], [20, 230, 0]) == ([70, 350, 0], True)


def test_example_c3_end_of_game() -> None:
    """C3: P0 (bidder) 1510, P2 1560: P0 wins; if P1 bid: P2 (higher) wins; a tie
    between two non-bidders plays on."""
    assert game_winner([1510, 900, 1560], 0, 1500) == 0
    assert game_winner([1510, 900, 1560], 1, 1500) == 2
    assert game_winner([1560, 900, 1560], 1, 1500) == -1


@pytest.mark.parametrize(("seed", "scores", "won"), [
    (68, (-440.0, 550.0, 630.0), (1,)), (248, (530.0, 580.0, -380.0), (0,))])
def test_example_c3_in_a_whole_game(seed: int, scores: tuple[float, ...],
                                    won: tuple[int, ...]) -> None:
    """C3 in whole games to 500: the bidder over the target wins over a higher player."""
    spec = get_game("pinochle3")
    st = spec.new_game(spec.options({"target": 500}), seed)
    rng = random.Random(seed)
    while not st.is_terminal:
        st.apply(rng.choice(list(st.legal_actions())))
    assert st.returns() == scores
    assert st.last_hand is not None and (st.last_hand["bidder"],) == won
    assert st.winners() == won


def test_throw_in_three_hands() -> None:
    """C-7: meld + 250 < bid: the bid winner scores −bid, opponents their meld."""
    st = new3(seed=3, dealer=2)
    st.apply((5, 2000))
    st.apply(PASS)
    st.apply(PASS)
    st.apply((K_TRUMP, 0))
    for _ in range(3):
        st.apply(st.legal_actions()[0])
    entry = st.log[-1]
    assert entry["throw_in"]
    assert entry["score_change"] == [-2000, entry["melds"][1], entry["melds"][2]]


def test_fifteen_tricks_and_250_points() -> None:
    """C-8: 15 tricks; trick points incl. discards and the last trick total 250."""
    for seed in range(5):
        st = new3(seed=seed, dealer=2)
        st.apply((K_BID, 250))
        st.apply(PASS)
        st.apply(PASS)
        st.apply((K_TRUMP, seed % 4))
        rng = random.Random(seed)
        while st.hand_no == 1:
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
            if st.hand_no == 1 and st.phase == PLAY:
                assert len(st.tricks) <= 15
        entry = st.log[-1]
        if not entry["throw_in"]:
            assert sum(entry["trick_points"]) == 250
            assert st.last_hand is not None and sum(st.last_hand["tricks_won"]) == 15
