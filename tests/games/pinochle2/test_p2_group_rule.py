"""Section 6.5: every consequence of the group rule, plus 6.4 and the dix rules of 6.6."""

from __future__ import annotations

from p2_helpers import legal_meld_texts, position

from cardplaza.core.cards import PINOCHLE
from cardplaza.games.pinochle2.engine import (
    ACES,
    KINGS,
    PIN,
    QUEENS,
    SEQ,
    Options,
)

HEARTS, SPADES, DIAMONDS, CLUBS = 1, 0, 2, 3


def c(text: str) -> int:
    face, _, copy = text.partition("#")
    return PINOCHLE.parse_face(face) + 24 * (int(copy) - 1 if copy else 0)


def m(text: str) -> int:
    return sum(1 << c(t) for t in text.split())


def test_royal_marriage_cards_never_count_in_a_run() -> None:
    """6.5 bullet 1: the K and Q of a royal marriage never later count in a run; a run with
    the other K and Q is still possible."""
    st = position(HEARTS, "A♥ 10♥ J♥", melded="K♥#1 Q♥#1", used={SEQ: "K♥#1 Q♥#1"})
    assert not any(t.startswith("meld run") for t in legal_meld_texts(st))
    reason = st.meld_reason(0, m("A♥ 10♥ K♥#1 Q♥#1 J♥"))
    assert reason is not None and "K♥ Q♥ already used in a sequence meld" in reason
    st2 = position(HEARTS, "A♥ 10♥ J♥ K♥#2 Q♥#2", melded="K♥#1 Q♥#1",
                   used={SEQ: "K♥#1 Q♥#1"})
    assert "meld run A♥ 10♥ K♥ Q♥ J♥" in legal_meld_texts(st2)
    assert st2.meld_reason(0, m("A♥ 10♥ K♥#2 Q♥#2 J♥")) is None


def test_run_cards_never_form_a_royal_marriage() -> None:
    """6.5 bullet 2: a run's K or Q never later forms a royal marriage; after a run a royal
    marriage needs both other K and Q; no 'run plus an extra K' score exists."""
    run = "A♥#1 10♥#1 K♥#1 Q♥#1 J♥#1"
    extra_k = position(HEARTS, "K♥#2 9♣", melded=run, used={SEQ: run})
    assert legal_meld_texts(extra_k) == []
    assert "already used in a sequence" in (extra_k.meld_reason(1, m("K♥#2 Q♥#1")) or "")
    both = position(HEARTS, "K♥#2 Q♥#2", melded=run, used={SEQ: run})
    assert legal_meld_texts(both) == ["meld royal marriage K♥ Q♥"]
    assert both.meld_reason(1, m("K♥#2 Q♥#2")) is None


def test_card_serves_several_groups_one_meld_per_trick() -> None:
    """6.5 bullet 3: K♠ of kings around may later marry Q♠; Q♠ may be in a marriage, a
    pinochle and queens around."""
    kings = "K♠#1 K♥#1 K♦#1 K♣#1"
    st = position(DIAMONDS, "Q♠", melded=kings, used={KINGS: kings})
    assert "meld marriage K♠ Q♠" in legal_meld_texts(st)
    q_used = {KINGS: kings, SEQ: "K♠#1 Q♠#1"}
    st2 = position(DIAMONDS, "J♦ Q♥ Q♦ Q♣", melded=kings + " Q♠#1", used=q_used)
    texts = legal_meld_texts(st2)
    assert "meld pinochle Q♠ J♦" in texts
    assert "meld queens around Q♠ Q♥ Q♦ Q♣" in texts
    assert "meld marriage K♠ Q♠" not in texts  # same group, already used


def test_single_pinochle_cards_cannot_join_double_pinochle() -> None:
    """6.5 bullet 4: after a pinochle its Q♠ J♦ cannot join a double pinochle; a second
    single pinochle with the other pair is possible; double needs all four at once."""
    st = position(CLUBS, "Q♠#2 J♦#2", melded="Q♠#1 J♦#1", used={PIN: "Q♠#1 J♦#1"})
    assert legal_meld_texts(st) == ["meld pinochle Q♠ J♦"]
    reason = st.meld_reason(5, m("Q♠#1 Q♠#2 J♦#1 J♦#2"))
    assert reason is not None and "already used in a pinochle meld" in reason
    fresh = position(CLUBS, "Q♠#1 Q♠#2 J♦#1 J♦#2")
    assert legal_meld_texts(fresh) == ["meld pinochle Q♠ J♦",
                                       "meld double pinochle Q♠ Q♠ J♦ J♦"]


def test_two_marriages_in_one_suit_need_both_pairs() -> None:
    """6.5 bullet 5: two marriages (or royal marriages) in one suit need both copies of K
    and Q, one pair per meld."""
    st = position(HEARTS, "K♣#2", melded="K♣#1 Q♣#1", used={SEQ: "K♣#1 Q♣#1"})
    assert legal_meld_texts(st) == []
    st2 = position(HEARTS, "K♣#2 Q♣#2", melded="K♣#1 Q♣#1", used={SEQ: "K♣#1 Q♣#1"})
    assert legal_meld_texts(st2) == ["meld marriage K♣ Q♣"]
    assert st2.pending == [(2, m("K♣#2 Q♣#2"))]
    both = position(HEARTS, "K♥#1 K♥#2 Q♥#1 Q♥#2")
    assert legal_meld_texts(both) == ["meld royal marriage K♥ Q♥"]  # one pair per meld
    assert both.meld_reason(1, m("K♥#1 K♥#2 Q♥#1 Q♥#2")) is not None


def test_eight_aces_without_double_melds_are_two_aces_arounds() -> None:
    """6.5 bullet 6: without TO1 the eight aces score only as two aces-around melds, each
    with four aces not yet used in the group."""
    eight = "A♠#1 A♠#2 A♥#1 A♥#2 A♦#1 A♦#2 A♣#1 A♣#2"
    st = position(HEARTS, eight)
    assert legal_meld_texts(st) == ["meld aces around A♠ A♥ A♦ A♣"]
    assert "double-melds option" in (st.meld_reason(11, m(eight)) or "")
    first = "A♠#1 A♥#1 A♦#1 A♣#1"
    after = position(HEARTS, "A♠#2 A♥#2 A♦#2 A♣#2", melded=first, used={ACES: first})
    assert after.pending == [(6, m("A♠#2 A♥#2 A♦#2 A♣#2"))]
    assert "already used" in (after.meld_reason(6, m("A♠#1 A♥#2 A♦#2 A♣#2")) or "")


def test_each_nine_of_trump_is_a_dix_once() -> None:
    """6.5 bullet 7 / 6.6: each 9 of trump once as a dix; with a non-9 turn-up the exchange
    is automatic; with a 9 turned up (or after an exchange) no exchange happens."""
    st = position(HEARTS, "9♥#1 9♥#2 A♠", turn_up="K♥")
    assert legal_meld_texts(st) == ["meld dix 9♥"]
    king = st.stock[0]
    st.apply(st.parse_action("meld dix"))
    assert st.stock[0] == c("9♥#1")  # exchanged (T-13)
    assert (st.hands[0] >> king) & 1 and (st.known[0] >> king) & 1
    assert st.used[SEQ] == 1 << c("9♥#1")
    # The other 9: the turn-up is now a 9, so no exchange (T-14); it stays in the meld area.
    st2 = position(HEARTS, "9♥#2 A♠", turn_up="9♥#1", used={SEQ: "9♥#1"})
    st2.apply(st2.parse_action("meld dix 9♥"))
    assert st2.stock[0] == c("9♥#1") and st2.melded[0] == 1 << c("9♥#2")
    used_twice = position(HEARTS, "A♠", melded="9♥#2", used={SEQ: "9♥#2"},
                          options=Options(new_card_rule=False), turn_up="9♥#1")
    assert legal_meld_texts(used_twice) == []


def test_new_card_rule_option() -> None:
    """6.4 item 4 / TO2: a meld from meld-area cards only needs TO2 off."""
    kq = "K♣#1 Q♣#1"
    on = position(HEARTS, "9♠", melded=kq, used={KINGS: "K♣#1", QUEENS: "Q♣#1"})
    assert legal_meld_texts(on) == []
    off = position(HEARTS, "9♠", melded=kq, used={KINGS: "K♣#1", QUEENS: "Q♣#1"},
                   options=Options(new_card_rule=False))
    assert legal_meld_texts(off) == ["meld marriage K♣ Q♣"]


def test_copies_with_different_histories_are_distinct_melds() -> None:
    """T-10/T-28: identical copies with identical histories collapse; differing histories
    give distinct melds, told apart by #copy in the text form."""
    st = position(HEARTS, "Q♠#1", melded="K♠#1", used={KINGS: "K♠#1"})
    st_same = position(HEARTS, "Q♠#1 K♠#1 K♠#2")
    assert legal_meld_texts(st_same) == ["meld marriage K♠ Q♠"]
    assert legal_meld_texts(st) == ["meld marriage K♠ Q♠"]
    mixed = position(HEARTS, "Q♠#1 K♠#2", melded="K♠#1", used={KINGS: "K♠#1"})
    texts = legal_meld_texts(mixed)
    assert texts == ["meld marriage K♠ Q♠", "meld marriage K♠#2 Q♠"]
    for a in mixed.pending:
        assert mixed.parse_action(mixed.action_text(a)) == a
    # The first (fewer concealed cards put down) uses the meld-area K♠.
    assert mixed.pending[0] == (2, m("K♠#1 Q♠#1"))
