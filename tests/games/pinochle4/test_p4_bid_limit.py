"""The bid limit: no bid above the most a side can ever score in a hand (largest meld + 250)."""

from __future__ import annotations

import functools
import itertools
import json

import pytest
from p4_helpers import mask, new4

from cardplaza.core.protocol import ActionParseError, IllegalAction
from cardplaza.games.pinochle4.engine import (
    BIDDING,
    K_BID,
    K_JUMP,
    K_PLAY,
    PASS,
    CutthroatOptions,
    CutthroatState,
    Options,
)
from cardplaza.games.pinochle4.meld import meld_total
from cardplaza.games.pinochle4.rules import (
    ACE,
    DIAMONDS,
    JACK,
    KING,
    MAX_CUTTHROAT_MELD,
    MAX_TEAM_MELD,
    NINE,
    QUEEN,
    SPADES,
    TEN,
    TRICK_POINTS,
    counter_table,
    face,
    max_side_score,
)


def _need(faces: list[int], copies: int) -> tuple[int, int]:
    """Faces needed at least once and twice, as 24-bit face masks."""
    m = sum(1 << f for f in faces) if copies else 0
    return m, m if copies == 2 else 0


@functools.cache
def _meld_hands(trump: int) -> frozenset[int]:
    """Every hand of at most 15 cards made only of the cards of its counted melds.

    Melds never lose value when cards are added, and every hand holds such a hand of the
    same meld (the cards of its counted melds), so these hands reach every meld total. A
    hand is the union of one choice per meld kind; the union of what two kinds need is the
    larger need per face, so it is an OR of "once" and "twice" face masks.
    """
    run = [face(trump, r) for r in (ACE, TEN, KING, QUEEN, JACK)]
    kq = [face(trump, KING), face(trump, QUEEN)]
    r1 = _need(run, 1)
    extra_k, extra_q = 1 << kq[0], 1 << kq[1]
    trump_parts = [(0, 0), _need(kq, 1), _need(kq, 2), r1, (r1[0], extra_k),
                   (r1[0], extra_q), (r1[0], extra_k | extra_q), _need(run, 2)]
    kinds = [trump_parts, [_need([face(trump, NINE)], n) for n in range(3)]]
    kinds += [[_need([face(s, KING), face(s, QUEEN)], n) for n in range(3)]
              for s in range(4) if s != trump]
    kinds += [[_need([face(s, r) for s in range(4)], n) for n in range(3)]
              for r in (ACE, KING, QUEEN, JACK)]
    kinds.append([_need([face(SPADES, QUEEN), face(DIAMONDS, JACK)], n) for n in range(3)])
    out = set()
    for combo in itertools.product(*kinds):
        once = twice = 0
        for a, b in combo:
            once |= a
            twice |= b
        if once.bit_count() + twice.bit_count() <= 15:
            out.add(once | twice << 24)
    return frozenset(out)


def _best_hand(limit: int, extra_kq: bool) -> int:
    return max(meld_total(h, t, extra_kq) for t in (SPADES, 1, DIAMONDS)
               for h in _meld_hands(t) if h.bit_count() <= limit)


def _best_team(extra_kq: bool) -> int:
    """Best sum of two 12-card hands whose copies of each face add up to at most two."""
    best = 0
    for t in (SPADES, 1, DIAMONDS):  # clubs as trump mirrors hearts
        ranked = sorted(((meld_total(h, t, extra_kq), h) for h in _meld_hands(t)
                         if h.bit_count() <= 12), reverse=True)
        top = ranked[0][0]
        for va, a in ranked:
            if va + top <= best:
                break
            a_any, a_two = (a | a >> 24) & 0xFFFFFF, a >> 24
            for vb, b in ranked:
                if va + vb <= best:
                    break
                if a_two & (b | b >> 24) or (b >> 24) & a_any:
                    continue
                best = va + vb
                break
    return best


@pytest.mark.parametrize("extra_kq", [True, False])
def test_largest_melds_are_derived_from_the_meld_rules(extra_kq: bool) -> None:
    """The named maxima are what an exhaustive search of section 9.4 finds."""
    assert _best_hand(15, extra_kq) == MAX_CUTTHROAT_MELD == 1900
    assert _best_team(extra_kq) == MAX_TEAM_MELD == 2220


def test_the_documented_maximum_hands() -> None:
    aces = mask("A♠ A♠ A♥ A♥ A♦ A♦ A♣ A♣ Q♠ Q♠ J♦ J♦")
    kings = mask("K♠ K♠ K♥ K♥ K♦ K♦ K♣ K♣ Q♥ Q♥ Q♣ Q♣")
    assert aces & kings == 0
    assert meld_total(aces, 1) + meld_total(kings, 1) == MAX_TEAM_MELD
    run = mask("A♠ A♠ 10♠ 10♠ K♠ K♠ Q♠ Q♠ J♠ J♠ A♥ A♦ A♣ J♦ J♦")
    assert meld_total(run, SPADES) == MAX_CUTTHROAT_MELD


def test_trick_points_are_250_in_every_scheme() -> None:
    for scheme in ("A", "B", "C"):
        assert sum(counter_table(scheme, False)) + 10 == TRICK_POINTS
    assert sum(counter_table("A", True)) + 1 == TRICK_POINTS // 10


def test_max_side_score() -> None:
    assert max_side_score(4, False) == 2470 and max_side_score(4, True) == 247
    assert max_side_score(3, False) == 2150 and max_side_score(3, True) == 215


@pytest.mark.parametrize(("state", "top", "step"), [
    (new4(), 2470, 10),
    (new4(Options(one_point=True)), 247, 1),
    (CutthroatState(CutthroatOptions(), 1), 2150, 10),
    (CutthroatState(CutthroatOptions(one_point=True), 1), 215, 1),
])
def test_bids_above_the_limit_are_illegal(state: object, top: int, step: int) -> None:
    st = state
    assert st.max_bid == top and st.observation(0)["max_bid"] == top  # type: ignore[attr-defined]
    assert st.illegal_reason((K_JUMP, top)) is None  # type: ignore[attr-defined]
    for action in ((K_JUMP, top + step), (K_BID, top + step), (K_JUMP, 10 ** 6)):
        reason = st.illegal_reason(action)  # type: ignore[attr-defined]
        assert reason is not None and f"No bid above {top}" in reason
        assert f"largest possible meld ({top - 250 * step // 10})" in reason
        with pytest.raises(IllegalAction, match=f"No bid above {top}"):
            st.apply(action)  # type: ignore[attr-defined]
    assert st.history == []  # type: ignore[attr-defined]


def test_after_the_top_bid_only_pass_is_left() -> None:
    st = new4()
    st.apply((K_JUMP, 2470))
    assert st.legal_actions() == [PASS] and st.choices() == [PASS]
    reason = st.illegal_reason((K_BID, 2480))
    assert reason is not None and "you can only pass" in reason
    st.apply(PASS)
    st.apply(PASS)
    st.apply(PASS)
    assert st.phase != BIDDING and st.contract == 2470


def test_menu_stops_at_the_limit() -> None:
    st = new4()
    st.apply((K_JUMP, 2440))
    assert [a[1] for a in st.choices()] == [0, 2450, 2460, 2470]


def test_absurd_numbers_are_refused_cleanly() -> None:
    """A number of thousands of digits, typed or sent as JSON, is refused with the limit's
    reason; the state is unchanged and still renders."""
    st = new4()
    before = json.dumps(st.observation(0))
    for text in ("9" * 4300, "bid " + "9" * 4300, "9" * 5000, "bid " + "9" * 5000):
        with pytest.raises(ActionParseError, match="No bid above 2470"):
            st.parse_action(text)
    with pytest.raises(ActionParseError, match="not on the menu"):
        st.parse_action("#" + "9" * 5000)
    huge = json.loads('{"kind": "bid", "amount": ' + "9" * 4300 + "}")
    action = st.action_from_json(huge)
    reason = st.illegal_reason(action)
    assert reason is not None and "No bid above 2470" in reason
    with pytest.raises(IllegalAction):
        st.apply(action)
    assert isinstance(st.describe((K_JUMP, 10 ** 5000)), str)
    assert st.illegal_reason((K_JUMP, 10 ** 5000)) == reason
    assert json.dumps(st.observation(0)) == before and st.history == []
    card = st.action_from_json({"kind": "play", "card": 10 ** 4000})
    assert card == (K_PLAY, 10 ** 4000)
    assert len(str(st.illegal_reason(card))) < 200
    assert st.illegal_reason((K_PLAY, -(10 ** 5000))) is not None
    assert "cannot be shown" in str(st.illegal_reason(10 ** 5000))
