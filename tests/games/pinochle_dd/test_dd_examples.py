"""Every worked example of the double-deck rules (section 11), one test each."""

from __future__ import annotations

import random

import pytest
from dd_helpers import faces, hand, new_dd, random_hand_play, set_hands, win_auction

from cardplaza.games.pinochle_dd.engine import (
    K_PLAY,
    K_TRUMP,
    OVER,
    PLAY,
    Options,
    game_winner,
    hand_scores,
)
from cardplaza.games.pinochle_dd.meld import meld_breakdown, meld_total
from cardplaza.games.pinochle_dd.rules import ACE, SPADES, face, winning_index

HEARTS, SPADE_TRUMP = 1, 0


def test_11_1_meld_double_run_royal_marriage_marriage_aces_pinochle() -> None:
    h = hand("A♥ A♥ 10♥ 10♥ K♥ K♥ K♥ Q♥ Q♥ Q♥ J♥ J♥ A♠ A♦ A♣ Q♠ J♦ K♣ Q♣ J♠")
    result = meld_breakdown(h, HEARTS)
    got = sorted((m.key, m.value) for m in result.melds)
    assert got == sorted([("double_run", 150), ("royal_marriage", 4), ("marriage", 2),
                          ("aces_around", 10), ("pinochle", 4)])
    assert result.total == meld_total(h, HEARTS) == 170
    # No kings around (no K♠); the run uses two of each heart, the marriage K♣ Q♣.
    assert not any(m.key.endswith("kings_around") for m in result.melds)
    run = next(m for m in result.melds if m.key == "double_run")
    assert sorted(run.cards) == sorted(faces("A♥ A♥ 10♥ 10♥ K♥ K♥ Q♥ Q♥ J♥ J♥"))


def test_11_2_triple_aces_and_triple_pinochle() -> None:
    h = hand("A♠ A♠ A♠ A♥ A♥ A♥ A♦ A♦ A♦ A♣ A♣ A♣ Q♠ Q♠ Q♠ Q♠ J♦ J♦ J♦ J♣")
    result = meld_breakdown(h, SPADE_TRUMP)
    values = {m.key: m.value for m in result.melds}
    assert values["triple_aces_around"] == 150
    assert values["triple_pinochle"] == 60
    # Whatever else the hand holds: here nothing (no K♠, no other queens or jacks around).
    assert result.total == 210 == meld_total(h, SPADE_TRUMP)


@pytest.mark.parametrize(("counters", "total"), [("aces-tens-kings", 50), ("aces-tens", 34)])
def test_11_3_counters_add_to_the_total_whatever_the_play(counters: str, total: int) -> None:
    st = new_dd(Options(counters=counters, target=1500), seed=3)  # type: ignore[arg-type]
    rng = random.Random(3)
    played = 0
    while played < 30 and not st.is_terminal:
        random_hand_play(st, rng)
        entry = st.log[-1]
        if entry.get("counters") is not None:
            assert sum(entry["counters"]) == total
            played += 1
    assert played == 30


def test_11_4_saving_meld_needs_20_counters() -> None:
    opts = Options()
    # Declarers (side 0) bid 50 and make it with 40 meld + 32 counters.
    delta, made = hand_scores(50, 0, [40, 24], [32, 18], [12, 8], opts)
    assert made and delta[1] == 18  # 24 meld not saved: counters only
    delta, made = hand_scores(50, 0, [40, 24], [30, 20], [12, 8], opts)
    assert made and delta[1] == 44  # saved: 24 + 20


def test_11_5_set_declarers_lose_the_contract() -> None:
    delta, made = hand_scores(62, 0, [34, 22], [26, 24], [11, 9], Options())
    assert not made  # 34 + 26 = 60 < 62
    assert delta[0] == -62
    assert delta[1] >= 24 and delta[1] == 22 + 24


def test_11_6_identical_cards_the_first_played_wins() -> None:
    a = face(SPADES, ACE)
    assert winning_index([a, a], 1) == 0
    # Through the engine: West leads A♠, North plays the second A♠, the trick stays West's.
    st = new_dd(Options(pass_count=0), seed=5, dealer=0)
    set_hands(st, {1: "A♠ A♠ A♥ A♥ A♥ A♥ 10♥ 10♥ 10♥ 10♥ K♥ K♥ K♥ K♥ Q♥ Q♥ Q♥ Q♥ J♥ J♥",
                   2: "A♠ A♠ J♠ J♠ J♠ J♠ J♣ J♣ J♣ J♣ Q♣ Q♣ Q♣ Q♣ J♦ J♦ J♦ J♦ Q♦ Q♦"})
    win_auction(st, 1)
    st.apply((K_TRUMP, 3))
    assert st.phase == PLAY and st.turn == 1
    st.apply((K_PLAY, a))
    st.apply((K_PLAY, a))
    assert st.observation(0)["trick"] == [[1, a], [2, a]]
    assert winning_index(st.trick, st.trump) == 0


def test_11_7_both_pass_the_target_the_declarers_win() -> None:
    assert game_winner([505, 540], 0, 500) == 0
    assert game_winner([505, 540], 1, 500) == 1
    assert game_winner([505, 480], 1, 500) == 0
    assert game_winner([499, 480], 1, 500) == -1
    # Through the engine: the declarers' side starts the hand further from 500, both
    # sides pass it, and the declarers win with the lower total.
    for seed in range(200):
        st = new_dd(Options(), seed=seed)
        rng = random.Random(seed)
        while st.phase == 0:
            st.apply(rng.choice(st.legal_actions()))
        bside = st.bidder % 2
        st.scores = [0, 0]
        st.scores[bside], st.scores[1 - bside] = 455, 490
        random_hand_play(st, rng)
        if min(st.scores) >= 500 and st.scores[bside] < st.scores[1 - bside]:
            assert st.phase == OVER and st.winner == bside
            assert st.winners() == (bside, bside + 2)
            return
    pytest.fail("no hand where both sides passed 500 in 200 seeds")
