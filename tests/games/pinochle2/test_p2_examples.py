"""Worked examples E1–E19 of rules/pinochle-two-hand.md section 13, one test each."""

from __future__ import annotations

import pytest
from p2_helpers import act, deal, decline_if_meld, meld_texts, trick

from cardplaza.core.cards import PINOCHLE
from cardplaza.core.protocol import IllegalAction
from cardplaza.games.pinochle2.engine import (
    MELD_GROUP,
    NO_MELD,
    RANK_OF,
    SEQ,
    STEP_END,
    STEP_MELD,
    STEP_PLAY,
    SUIT_OF,
    TERMINAL,
    Options,
    Pinochle2State,
    playoff_follow_mask,
    trick_winner,
)
from cardplaza.games.pinochle2.streak import Streak
from cardplaza.games.pinochle2.world import check_invariants


def c(text: str) -> int:
    """Physical card from ``K♥`` (copy 1) or ``K♥#2``."""
    face, _, copy = text.partition("#")
    return PINOCHLE.parse_face(face) + 24 * (int(copy) - 1 if copy else 0)


def test_example_01_deal_with_nine_turned_up() -> None:
    """E1: 9♦ turned up: trump ♦, dealer (computer) scores 10 at once, stock 23 + 9♦ at the
    bottom, the human leads trick 1."""
    nine_diamonds = PINOCHLE.parse_face("9♦")
    seed = next(s for s in range(5000)
                if Pinochle2State(Options(), s).stock[0] % 24 == nine_diamonds)
    st = Pinochle2State(Options(), seed)
    assert st.trump == 2
    assert st.meld_points == [0, 10]
    assert st.hands[0].bit_count() == st.hands[1].bit_count() == 12
    assert len(st.stock) == 24 and st.stock[0] % 24 == nine_diamonds
    assert st.current_player == 0
    for seat in (0, 1):
        obs = st.observation(seat)
        assert obs["nine_turned_up"] == {"seat": 1, "points": 10}
        assert obs["meld_points"] == [0, 10]
        assert obs["turn_up"] == st.stock[0] and obs["stock_count"] == 24
        assert obs["trump_symbol"] == "♦"
    assert not any(m for m in st.melded), "the turned-up 9 is not a melded card"
    check_invariants(st)


E2_ROWS = [
    ("10♥", "A♥", True), ("10♥", "K♥", False), ("10♥", "9♠", True), ("10♥", "A♣", False),
    ("A♠", "A♠#2", False), ("9♠", "A♥", False), ("K♠", "10♠", True),
]


@pytest.mark.parametrize(("lead", "reply", "follower_wins"), E2_ROWS)
def test_example_02_stock_phase_trick_winners(lead: str, reply: str,
                                              follower_wins: bool) -> None:
    """E2: trick winners with trump ♠ (identical cards: the leader wins)."""
    assert trick_winner(c(lead), c(reply), 0) is follower_wins


def test_example_02_no_duty_to_follow_in_stock_phase() -> None:
    """E2: on a 10♥ lead a follower holding A♥ may still play A♣, 9♦ or any card."""
    st = deal("10♥ A♠ A♠ A♦ K♦ Q♦ J♦ 9♦ 9♣ 9♣ J♣ J♣",
              "A♥ A♣ 9♦ K♥ Q♥ J♥ 9♥ 9♥ K♣ Q♣ Q♣ 10♣", "J♠")
    act(st, "10♥")
    assert sorted(st.legal_actions()) == [i for i in range(48) if (st.hands[1] >> i) & 1]
    assert st.illegal_reason(c("A♣")) is None and st.illegal_reason(c("9♦#2")) is None


def _e3_deal() -> Pinochle2State:
    return deal("A♥ A♥ A♦ A♦ K♣ Q♣ 9♥ 9♦ J♥ J♦ 10♥ 10♦",
                "9♣ 9♣ J♣ 10♣ 10♣ A♣ 9♥ 9♦ J♥ J♦ 10♥ 10♦", "J♠",
                draws="Q♥ Q♦ Q♥ Q♦ J♣ A♣ K♥ K♦")


def test_example_03_order_after_a_trick() -> None:
    """E3: the winner of trick 4 melds the ♣ marriage (+20), then draws the top card, the
    computer draws the next, the human leads trick 5; drawing before melding is illegal."""
    st = _e3_deal()
    for lead, follow in (("A♥", "9♣"), ("A♥", "9♣"), ("A♦", "J♣"), ("A♦", "10♣")):
        assert trick(st, lead, follow) == 0
        if len(st.tricks) < 4:
            decline_if_meld(st)
    assert st.step == STEP_MELD and st.current_player == 0 and st.trick_number == 4
    with pytest.raises(IllegalAction, match="meld or decline"):
        st.apply(c("K♣"))
    assert "meld marriage K♣ Q♣" in meld_texts(st)
    stock_before = list(st.stock)
    act(st, "meld marriage K♣ Q♣")
    assert st.meld_points == [20, 0]
    assert (st.hands[0] >> stock_before[-1]) & 1, "winner drew the top card"
    assert (st.hands[1] >> stock_before[-2]) & 1, "loser drew the next card"
    assert stock_before[-1] % 24 == PINOCHLE.parse_face("K♥")
    assert st.step == STEP_PLAY and st.current_player == 0 and st.trick_number == 5
    assert st.melded[0] == (1 << c("K♣")) | (1 << c("Q♣"))
    check_invariants(st)


def test_example_04_dix_exchange() -> None:
    """E4: trump ♣, turn-up K♣: the dix scores 10, 9♣ goes under the stock, K♣ into the
    human's concealed hand (known to the computer); the loser of trick 12 takes 9♣."""
    st = deal("9♣ A♥ A♥ A♦ A♦ A♠ 10♥ 10♦ 10♠ J♥ J♦ 9♥",
              "9♠ 9♠ 9♦ 9♦ J♠ J♠ J♣ Q♥ Q♥ Q♦ Q♦ 10♣", "K♣")
    king = st.stock[0]
    nine = c("9♣")
    for lead, follow in (("A♥", "9♠"), ("A♥", "9♠"), ("A♦", "9♦"), ("A♦", "9♦"),
                         ("A♠", "J♠")):
        assert trick(st, lead, follow) == 0
        if len(st.tricks) < 5:
            decline_if_meld(st)
    assert "meld dix 9♣" in meld_texts(st)
    stock_before = list(st.stock)
    act(st, "meld dix 9♣")
    assert st.meld_points == [10, 0]
    assert st.stock[0] == nine
    assert (st.hands[0] >> king) & 1 and not (st.melded[0] >> king) & 1
    assert not (st.hands[0] >> nine) & 1
    assert (st.hands[0] >> stock_before[-1]) & 1 and (st.hands[1] >> stock_before[-2]) & 1
    comp_view = st.observation(1)
    assert comp_view["known_held"][0] == [king]
    assert comp_view["turn_up"] == nine
    assert comp_view["melds"][-1]["received"] == king
    while len(st.tricks) < 12 or st.step == STEP_MELD:
        if st.step == STEP_MELD:
            act(st, "no meld")
        else:
            st.apply(st.legal_actions()[0])
    loser = 1 - st.tricks[11][3]
    assert (st.hands[loser] >> nine) & 1
    assert nine in st.observation(1 - loser)["known_held"][loser]
    check_invariants(st)


def test_example_05_dix_with_turned_up_nine() -> None:
    """E5: trump ♥, turn-up 9♥: dealer scored 10; the non-dealer melds the other 9♥ as a
    dix: +10, no exchange, the 9♥ stays in the meld area."""
    st = deal("9♥ A♠ A♠ A♦ A♦ 10♠ 10♦ K♠ J♦ 9♦ 9♣ 9♣",
              "9♠ 9♠ J♠ J♠ J♣ J♣ Q♣ Q♣ 10♣ 10♣ A♣ A♣", "9♥")
    turned = st.stock[0]
    assert st.meld_points == [0, 10]
    assert trick(st, "A♠", "9♠") == 0
    act(st, "no meld")
    assert trick(st, "A♠", "9♠") == 0
    act(st, "meld dix 9♥")
    assert st.meld_points == [10, 10]
    assert st.melded[0] == 1 << c("9♥")
    assert st.stock[0] == turned
    assert st.reveals == [] and st.melds[-1][5] == -1


def _e6_deal() -> Pinochle2State:
    return deal("K♥ Q♥ A♥ 10♥ J♥ A♠ A♠ A♦ A♦ A♣ 9♠ 9♦",
                "9♠ J♠ J♠ J♣ J♣ Q♣ Q♣ 10♣ 10♣ 9♣ 9♣ 9♦", "10♥",
                draws="K♥ 9♥ 10♠ 10♠ Q♥ 9♥ K♠ K♠")


def test_example_06_royal_marriage_first() -> None:
    """E6: royal marriage K♥ Q♥ (+40); the run with the same K♥ Q♥ is illegal; with the
    second K♥ and Q♥ the run is legal (+150); ♥ sequence melds total 190."""
    st = _e6_deal()
    run_old = (0, sum(1 << c(t) for t in ("A♥", "10♥", "K♥", "Q♥", "J♥")))
    assert trick(st, "A♠", "9♠") == 0
    act(st, "no meld")  # draws K♥#2
    assert trick(st, "A♠", "J♠") == 0
    act(st, "no meld")
    assert trick(st, "A♦", "J♠") == 0
    act(st, "meld royal marriage K♥#1 Q♥#1")
    assert st.meld_points == [40, 0]
    assert (st.hands[0] >> c("Q♥#2")) & 1, "drew the second Q♥"
    assert trick(st, "A♦", "J♣") == 0
    reason = st.illegal_reason(run_old)
    assert reason is not None and "already used in a sequence" in reason
    runs = [a for a in st.legal_actions() if isinstance(a, tuple) and a[0] == 0]
    assert runs == [(0, sum(1 << c(t) for t in ("A♥", "10♥", "K♥#2", "Q♥#2", "J♥")))]
    act(st, "meld run A♥ 10♥ K♥ Q♥ J♥")
    seq = sum(p for s, t, _, p, _, _ in st.melds if s == 0 and MELD_GROUP[t] == SEQ)
    assert seq == 190 and st.meld_points[0] == 190


def test_example_07_run_first() -> None:
    """E7: run first (+150); the second K♥ with the run's Q♥ is illegal as a royal
    marriage; the second K♥ with the second Q♥ is legal (+40): 190 in all."""
    st = _e6_deal()
    assert trick(st, "A♠", "9♠") == 0
    act(st, "meld run A♥ 10♥ K♥ Q♥ J♥")  # draws K♥#2
    assert st.meld_points == [150, 0]
    assert trick(st, "A♠", "J♠") == 0
    # Holding K♥#2 with the run's Q♥: no meld can be made, "no meld" is the only choice.
    assert st.step == STEP_MELD and st.legal_actions() == [NO_MELD]
    assert (st.hands[0] >> c("K♥#2")) & 1
    mixed = (1, (1 << c("K♥#2")) | (1 << c("Q♥#1")))
    reason = st.illegal_reason(mixed)
    assert reason is not None and "Q♥ already used in a sequence" in reason
    act(st, "no meld")
    assert trick(st, "A♦", "J♠") == 0
    decline_if_meld(st)  # draws Q♥#2 after trick 3
    assert trick(st, "A♦", "J♣") == 0
    royal = (1, (1 << c("K♥#2")) | (1 << c("Q♥#2")))
    assert royal in st.legal_actions()
    st.apply(royal)
    assert st.meld_points[0] == 190


def _e8_play(options: Options) -> Pinochle2State:
    st = deal("K♠ K♥ K♦ K♣ Q♠ Q♥ Q♦ Q♣ J♦ A♠ A♥ A♣",
              "9♠ 9♠ J♠ J♠ 9♥ 9♥ J♥ J♥ 9♣ 9♣ J♣ J♣", "10♦",
              draws="A♠ 10♣ A♥ 10♣ A♣ 10♥ 10♠ 10♠", options=options)
    steps = [("A♠#1", "9♠", "meld kings around K♠ K♥ K♦ K♣", 80),
             ("A♥#1", "9♥", "meld marriage K♠ Q♠", 20),
             ("A♣#1", "9♣", "meld pinochle Q♠ J♦", 40),
             ("A♠#2", "J♠", "meld queens around Q♠ Q♥ Q♦ Q♣", 60)]
    total = 0
    for lead, follow, meld, pts in steps:
        assert trick(st, lead, follow) == 0
        assert meld in meld_texts(st), (meld, meld_texts(st))
        act(st, meld)
        total += pts
        assert st.meld_points[0] == total
    assert total == 200
    assert trick(st, "A♥#2", "9♥") == 0
    return st


def test_example_08_reuse_across_groups() -> None:
    """E8: kings around, ♠ marriage, pinochle, queens around re-use K♠/Q♠ across groups
    (200); the royal marriage K♦ Q♦ from the meld area only is illegal with TO2 on and legal
    (+40) with TO2 off."""
    royal = (1, (1 << c("K♦")) | (1 << c("Q♦")))
    st = _e8_play(Options())
    assert st.step != STEP_MELD or royal not in st.legal_actions()
    st.step, st.turn = STEP_MELD, 0  # ask the validator directly
    assert st.meld_reason(*royal) == \
        "At least one card must come from your concealed hand (new-card rule)"
    off = _e8_play(Options(new_card_rule=False))
    assert royal in off.legal_actions()
    off.apply(royal)
    assert off.meld_points[0] == 240


def _e9_deal() -> Pinochle2State:
    return deal("Q♠ J♦ A♥ A♥ A♦ A♦ 10♥ 10♦ 9♥ 9♦ 9♠ J♠",
                "9♠ J♠ Q♥ Q♥ J♥ J♥ K♠ K♠ 10♠ 10♠ Q♦ Q♦", "10♣",
                draws="Q♠ 9♣ J♦ 9♣")


def test_example_09_pinochle_then_second_pair() -> None:
    """E9: pinochle (+40); with the other Q♠ J♦ a double pinochle is illegal, a second
    pinochle legal (total 80); all four at once before any pinochle score 300."""
    st = _e9_deal()
    assert trick(st, "A♥", "9♠") == 0
    act(st, "meld pinochle Q♠ J♦")  # draws Q♠#2
    assert trick(st, "A♥", "J♠") == 0
    decline_if_meld(st)  # draws J♦#2
    assert trick(st, "A♦", "Q♥") == 0
    assert (st.hands[0] >> c("Q♠#2")) & 1 and (st.hands[0] >> c("J♦#2")) & 1
    double = (5, sum(1 << c(t) for t in ("Q♠#1", "Q♠#2", "J♦#1", "J♦#2")))
    assert double not in st.legal_actions()
    reason = st.illegal_reason(double)
    assert reason is not None and "already used in a pinochle" in reason
    assert meld_texts(st) == ["meld pinochle Q♠ J♦"]
    act(st, "meld pinochle Q♠ J♦")
    assert st.meld_points[0] == 80
    fresh = deal("Q♠ Q♠ J♦ J♦ A♥ A♥ A♦ A♦ 10♥ 10♦ 9♥ 9♦",
                 "9♠ J♠ Q♥ Q♥ J♥ J♥ K♠ K♠ 10♠ 10♠ Q♦ Q♦", "10♣")
    assert trick(fresh, "A♥", "9♠") == 0
    assert "meld double pinochle Q♠ Q♠ J♦ J♦" in meld_texts(fresh)
    act(fresh, "meld double pinochle")
    assert fresh.meld_points[0] == 300


def test_example_10_one_meld_per_trick() -> None:
    """E10: holding a ♠ run and aces around, only one meld per won trick; the aces around
    waits for the next won trick and may reuse A♠ from the run."""
    st = deal("A♠ 10♠ K♠ Q♠ J♠ A♥ A♦ A♣ A♥ A♦ 9♥ 9♦",
              "9♣ 9♣ J♣ J♣ 9♥ J♥ J♥ 9♦ J♦ J♦ Q♣ Q♣", "10♠")
    assert trick(st, "A♥#1", "9♣") == 0
    texts = meld_texts(st)
    assert "meld run A♠ 10♠ K♠ Q♠ J♠" in texts and "meld aces around A♠ A♥ A♦ A♣" in texts
    act(st, "meld run")
    assert st.step == STEP_PLAY and st.meld_points[0] == 150
    with pytest.raises(IllegalAction, match="Only the winner"):
        st.apply(st.parse_action("meld aces around A♠ A♥ A♦ A♣"))
    assert trick(st, "A♦#1", "9♣") == 0
    aces = [a for a in st.legal_actions() if isinstance(a, tuple) and a[0] == 6]
    assert aces and all((m >> c("A♠")) & 1 for _, m in aces)
    st.apply(aces[0])
    assert st.meld_points[0] == 250


def test_example_11_trick_twelve() -> None:
    """E11: trump ♣, turn-up A♣, last face-down card 10♠: the computer wins trick 12, may
    meld, takes 10♠ (shown to the human); the human takes A♣; the computer leads trick 13."""
    st = deal("9♠ 9♠ J♠ J♠ 9♥ 9♥ J♥ J♥ 9♦ 9♦ J♦ J♦",
              "A♠ A♠ A♥ A♥ A♦ A♦ 10♥ 10♥ 10♦ 10♦ K♥ K♦", "A♣",
              options=Options(dealer=0))
    ten = next(x for x in st.stock[1:] if x % 24 == PINOCHLE.parse_face("10♠"))
    i = st.stock.index(ten)
    st.stock[1], st.stock[i] = st.stock[i], st.stock[1]
    ace = st.stock[0]
    assert st.current_player == 1
    while len(st.tricks) < 12:
        if st.step == STEP_MELD:
            act(st, "no meld")
            continue
        seat = st.current_player
        legal = st.legal_actions()
        if seat == 1:
            st.apply(max(legal, key=lambda x: (SUIT_OF[x] == st.trump, RANK_OF[x])))
        else:
            lead = st.lead
            losing = [x for x in legal if not trick_winner(lead, x, st.trump)]
            assert losing
            st.apply(min(losing, key=lambda x: (SUIT_OF[x] == st.trump, RANK_OF[x])))
    assert st.tricks[11][3] == 1
    decline_if_meld(st)
    assert st.playoff and st.current_player == 1 and st.trick_number == 13
    assert (st.hands[1] >> ten) & 1 and (st.hands[0] >> ace) & 1
    human = st.observation(0)
    assert ten in human["known_held"][1]
    assert {"seat": 1, "card": ten, "how": "trick 12 face-down card"} in human["reveals"]
    assert ace in st.observation(1)["known_held"][0]
    assert human["turn_up"] is None and human["stock_count"] == 0 and human["phase"] == "playoff"
    check_invariants(st)


E12_ROWS = {
    "a": ("K♦", "A♦ 9♦ 10♠ Q♣", "A♦"),
    "b": ("A♦", "A♦#2 10♦ 9♠", "A♦#2 10♦"),
    "c": ("K♦", "9♠ A♠ A♣", "9♠ A♠"),
    "d": ("J♠", "9♠ Q♠ A♥", "Q♠"),
    "e": ("10♠", "J♠ 9♠ A♥", "J♠ 9♠"),
    "f": ("K♦", "A♣ 10♥", "A♣ 10♥"),
    "g": ("Q♥", "K♥ A♥ 9♠", "K♥ A♥"),
}


@pytest.mark.parametrize("case", sorted(E12_ROWS))
def test_example_12_playoff_legality(case: str) -> None:
    """E12: playoff follower legality (trump ♠), each row of the table."""
    lead, hand, legal = E12_ROWS[case]
    hand_mask = sum(1 << c(t) for t in hand.split())
    expected = sum(1 << c(t) for t in legal.split())
    assert playoff_follow_mask(hand_mask, c(lead), 0) == expected
    # Through the engine: a playoff position with these hands.
    st = Pinochle2State(Options(), 0)
    st.trump = 0
    st.stock = []
    st.hands = [1 << c(lead), hand_mask]
    st.turn = 0
    st.apply(c(lead))
    assert sorted(st.legal_actions()) == sorted(x for x in range(48) if (expected >> x) & 1)
    reasons = st.illegal_card_reasons()
    assert set(reasons) == {x for x in range(48) if ((hand_mask & ~expected) >> x) & 1}


def test_example_12_reason_texts() -> None:
    """E12 a/c: the reasons name the duty and the legal cards."""
    st = Pinochle2State(Options(), 0)
    st.trump, st.stock, st.turn = 0, [], 0
    st.hands = [1 << c("K♦"), sum(1 << c(t) for t in ("A♦", "9♦", "10♠", "Q♣"))]
    st.apply(c("K♦"))
    assert st.illegal_reason(c("9♦")) == "You must follow ♦ and win the trick: play A♦"
    with pytest.raises(IllegalAction, match="You must follow ♦ and win the trick: play A♦"):
        st.apply(c("Q♣"))
    st2 = Pinochle2State(Options(), 0)
    st2.trump, st2.stock, st2.turn = 0, [], 0
    st2.hands = [1 << c("K♦"), sum(1 << c(t) for t in ("9♠", "A♠", "A♣"))]
    st2.apply(c("K♦"))
    assert st2.illegal_reason(c("A♣")) == \
        "You have no ♦, so you must play a trump (♠): play A♠ or 9♠"


def test_example_13_result() -> None:
    """E13: human 140 + 230 + 10 = 380, computer 100 + 130 = 230: human wins by 150;
    140 + 100 + 10 = 250."""
    st = Pinochle2State(Options(), 0)
    st.counters = [140, 100]
    st.meld_points = [150 + 40 + 40, 100 + 20 + 10]
    st.last_trick = 0
    st.step, st.turn = STEP_END, TERMINAL
    assert st.totals() == (380, 230)
    assert st.returns() == (380.0, 230.0)
    assert st.result() == "win"
    assert sum(st.counters) + 10 == 250
    obs = st.observation(0)["result"]
    assert obs["totals"] == [380, 230] and obs["winner"] == 0 and obs["outcome_seat0"] == "win"


def test_example_14_draw() -> None:
    """E14: totals 300 and 300 are a draw; the streak ends."""
    st = Pinochle2State(Options(), 0)
    st.counters, st.meld_points, st.last_trick = [120, 120], [180, 170], 1
    st.step, st.turn = STEP_END, TERMINAL
    assert st.totals() == (300, 300) and st.result() == "draw"
    assert st.observation(1)["result"]["winner"] is None
    streak = Streak(streak=2, margin_sum=235, best=20_235)
    assert streak.record_result(300, 300) == "draw"
    assert (streak.streak, streak.margin_sum, streak.best) == (0, 0, 20_235)


def test_example_15_streak_ladder() -> None:
    """E15: the streak ladder over five games."""
    s = Streak()
    rows = [(1, 380, 230, 1, 150, 10_150, 10_150), (2, 310, 225, 2, 235, 20_235, 20_235),
            (3, 420, 180, 3, 475, 30_475, 30_475), (4, 290, 290, 0, 0, None, 30_475),
            (1, 200, 260, 0, 0, None, 30_475)]
    for level, h, comp, s_after, m_after, saved, best in rows:
        assert s.level() == level
        s.record_result(h, comp)
        assert (s.streak, s.margin_sum, s.best) == (s_after, m_after, best)
        if saved is not None:
            assert s.saved_score == saved


def test_example_16_margin_cap() -> None:
    """E16: margins summing to 10,430 over 25 wins cap at 9,999: 259,999; the 26th win
    adds exactly 10,000."""
    s = Streak()
    margins = [417] * 24 + [10_430 - 417 * 24]
    for m in margins:
        s.record_result(300 + m, 300)
    assert s.streak == 25 and s.margin_sum == 9_999 and s.saved_score == 259_999
    s.record_result(400, 300)
    assert s.saved_score == 269_999 and s.best == 269_999


def test_example_17_level_mapping() -> None:
    """E17: s = 0 → 1; 1 → 2; 2 → 3; 3 → 4; 9 → 4."""
    for streak, level in ((0, 1), (1, 2), (2, 3), (3, 4), (9, 4)):
        assert Streak(streak=streak).level() == level


def test_example_18_new_during_a_game() -> None:
    """E18: New during game 3 (s = 2, m = 235) ends the streak; best stays ≥ 20,235."""
    s = Streak()
    s.record_result(380, 230)
    s.record_result(310, 225)
    assert s.saved_score == 20_235
    s.new()
    assert (s.streak, s.margin_sum) == (0, 0) and s.level() == 1 and s.best >= 20_235
    assert Streak.from_dict(s.to_dict()) == s


def _e19_deal(options: Options) -> Pinochle2State:
    return deal("A♠ A♠ A♥ A♥ A♦ A♦ A♣ A♣ 9♥ 9♥ J♥ J♥",
                "9♠ 9♦ 9♣ 9♠ 9♦ 9♣ J♠ J♠ J♦ J♦ J♣ J♣", "Q♥",
                options=options)


def _e19_trick(st: Pinochle2State) -> None:
    lead, follow = ("9♠", "9♥") if st.current_player == 1 else ("J♥", "9♦")
    assert trick(st, lead, follow) == 0


def test_example_19_double_melds_option() -> None:
    """E19: all eight aces: without TO1 two aces-around melds (200); with TO1 one 1000-aces
    meld; after one aces around the 1000 aces is impossible, a second aces around possible."""
    off = _e19_deal(Options(dealer=0))
    _e19_trick(off)
    texts = meld_texts(off)
    assert texts.count("meld aces around A♠ A♥ A♦ A♣") == 1
    assert not any("1000 aces" in t for t in texts)
    act(off, "meld aces around")
    _e19_trick(off)
    act(off, "meld aces around")
    assert off.meld_points[0] == 200

    on = _e19_deal(Options(dealer=0, double_melds=True))
    _e19_trick(on)
    assert "meld 1000 aces A♠ A♠ A♥ A♥ A♦ A♦ A♣ A♣" in meld_texts(on)
    act(on, "meld 1000 aces")
    assert on.meld_points[0] == 1000

    later = _e19_deal(Options(dealer=0, double_melds=True))
    _e19_trick(later)
    act(later, "meld aces around")
    _e19_trick(later)
    texts = meld_texts(later)
    assert not any("1000 aces" in t for t in texts)
    assert "meld aces around A♠ A♥ A♦ A♣" in texts
    act(later, "meld aces around")
    assert later.meld_points[0] == 200
