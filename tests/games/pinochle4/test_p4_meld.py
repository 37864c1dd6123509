"""Meld calculator: the worked examples M1–M11 of section 20.1 and property tests."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from p4_helpers import mask

from cardplaza.games.pinochle4.meld import meld_breakdown, meld_total, meld_totals
from cardplaza.games.pinochle4.rules import CLUBS, DIAMONDS, HEARTS, SPADES


def keys(result: object) -> list[tuple[str, int]]:
    return sorted((m.key, m.value) for m in result.melds)  # type: ignore[attr-defined]


def test_example_m1_seed000_run_and_pinochle() -> None:
    """M1: run 150 + pinochle 40 = 190 (Q♠ in two classes); same with O6 off; 1-point 19."""
    h = mask("A♠ 10♠ K♠ Q♠ J♠ J♦ A♥ 10♥ 10♣ J♣ 9♦ 9♥")
    r = meld_breakdown(h, SPADES)
    assert r.total == 190
    assert keys(r) == [("pinochle", 40), ("run", 150)]
    assert meld_total(h, SPADES, extra_kq=False) == 190
    assert meld_breakdown(h, SPADES, one_point=True).total == 19


def test_example_m2_seed003_run_jacks_pinochle() -> None:
    """M2: run 150 + jacks around 40 + pinochle 40 = 230; J♦ in three classes."""
    h = mask("A♦ 10♦ K♦ Q♦ J♦ Q♠ J♠ J♥ J♣ 9♠ 9♥ 9♣")
    r = meld_breakdown(h, DIAMONDS)
    assert r.total == 230
    assert keys(r) == [("jacks_around", 40), ("pinochle", 40), ("run", 150)]
    jd = next(c for c in range(48) if h >> c & 1 and c % 24 == 13)
    assert sum(jd in m.cards for m in r.melds) == 3


def test_example_m3_seed003_extra_king() -> None:
    """M3: O6 on, run with extra K = 190; O6 off, run only = 150."""
    h = mask("A♣ 10♣ K♣ K♣ Q♣ J♣ 10♥ J♥ 10♦ 9♦ 10♠ J♠")
    assert meld_total(h, CLUBS) == 190
    assert keys(meld_breakdown(h, CLUBS)) == [("run_extra_k", 190)]
    assert meld_total(h, CLUBS, extra_kq=False) == 150
    assert keys(meld_breakdown(h, CLUBS, extra_kq=False)) == [("run", 150)]


def test_example_m4_extra_king_and_queen_plus_aces() -> None:
    """M4: O6 on 230 + aces 100 = 330; O6 off run 150 + royal marriage 40 + aces = 290."""
    h = mask("A♣ 10♣ K♣ K♣ Q♣ Q♣ J♣ A♥ A♠ A♦ 9♥ 9♦")
    assert meld_total(h, CLUBS) == 330
    assert keys(meld_breakdown(h, CLUBS)) == [("aces_around", 100), ("run_extra_kq", 230)]
    assert meld_total(h, CLUBS, extra_kq=False) == 290
    assert keys(meld_breakdown(h, CLUBS, extra_kq=False)) == [
        ("aces_around", 100), ("royal_marriage", 40), ("run", 150)]


def test_example_m5_double_run() -> None:
    """M5: double run 1500 + dix 10 = 1510, no royal marriages; 1-point 151."""
    h = mask("A♥ A♥ 10♥ 10♥ K♥ K♥ Q♥ Q♥ J♥ J♥ 9♥ Q♠")
    r = meld_breakdown(h, HEARTS)
    assert r.total == 1510
    assert keys(r) == [("dix", 10), ("double_run", 1500)]
    assert meld_breakdown(h, HEARTS, one_point=True).total == 151


def test_example_m6_double_pinochle() -> None:
    """M6: double pinochle 300 + queens 60 + royal marriage 40 + marriage ♠ 20 = 420."""
    h = mask("Q♠ Q♠ J♦ J♦ Q♥ Q♣ Q♦ K♠ K♥ J♣ J♥ 9♠")
    r = meld_breakdown(h, HEARTS)
    assert r.total == 420
    assert keys(r) == [("double_pinochle", 300), ("marriage", 20), ("queens_around", 60),
                       ("royal_marriage", 40)]


def test_example_m7_thousand_aces() -> None:
    """M7: double aces 1000 + royal marriage 40 + two dix 20 = 1060."""
    h = mask("A♠ A♠ A♥ A♥ A♦ A♦ A♣ A♣ K♠ Q♠ 9♠ 9♠")
    r = meld_breakdown(h, SPADES)
    assert r.total == 1060
    assert keys(r) == [("dix", 10), ("dix", 10), ("double_aces", 1000), ("royal_marriage", 40)]


def test_example_m8_seven_aces_is_single() -> None:
    """M8: seven aces are a single around: 100 + marriage ♣ 20 + dix 10 = 130."""
    h = mask("A♠ A♠ A♥ A♥ A♦ A♦ A♣ K♣ Q♣ Q♣ J♠ 9♥")
    r = meld_breakdown(h, HEARTS)
    assert r.total == 130
    assert keys(r) == [("aces_around", 100), ("dix", 10), ("marriage", 20)]


def test_example_m9_marriage_in_every_suit_no_round_table_bonus() -> None:
    """M9: 80 + 60 + 40 + 3×20 + pinochle 40 + dix 10 = 290 (DECISION P-19)."""
    h = mask("K♠ Q♠ K♥ Q♥ K♦ Q♦ K♣ Q♣ J♦ 9♦ A♥ 10♣")
    r = meld_breakdown(h, DIAMONDS)
    assert r.total == 290
    assert sorted(m.key for m in r.melds).count("marriage") == 3


def test_example_m10_bidding_helper_values() -> None:
    """M10: helper for M1's hand: ♠ 190, ♥ 70, ♦ 70, ♣ 60; 1-point 19, 7, 7, 6."""
    from cardplaza.games.pinochle4.helper import suit_melds

    h = mask("A♠ 10♠ K♠ Q♠ J♠ J♦ A♥ 10♥ 10♣ J♣ 9♦ 9♥")
    assert meld_totals(h) == (190, 70, 70, 60)
    rows = suit_melds(h)
    assert [r["value"] for r in rows] == [190, 70, 70, 60]
    assert sorted(m["key"] for m in rows[1]["melds"]) == ["dix", "marriage", "pinochle"]
    assert [r["value"] for r in suit_melds(h, one_point=True)] == [19, 7, 7, 6]


def test_example_m11_no_combining_across_partners() -> None:
    """M11: K♠ with one partner and Q♠ with the other give no royal marriage."""
    p1, p3 = mask("K♠ 9♥"), mask("Q♠ 9♣")
    assert meld_total(p1, SPADES) == 0 and meld_total(p3, SPADES) == 0
    assert meld_total(p1 | p3, SPADES) == 40  # only a single hand would have it


hands = st.sets(st.integers(0, 47), min_size=0, max_size=20).map(
    lambda s: sum(1 << c for c in s))


@settings(max_examples=300, deadline=None)
@given(hand=hands, card=st.integers(0, 47), trump=st.integers(0, 3), extra=st.booleans())
def test_property_adding_a_card_never_lowers_meld(hand: int, card: int, trump: int,
                                                  extra: bool) -> None:
    assert meld_total(hand | 1 << card, trump, extra) >= meld_total(hand, trump, extra)


@settings(max_examples=300, deadline=None)
@given(hand=hands, trump=st.integers(0, 3), extra=st.booleans(), one=st.booleans())
def test_property_total_is_sum_of_breakdown(hand: int, trump: int, extra: bool,
                                            one: bool) -> None:
    r = meld_breakdown(hand, trump, extra, one)
    assert r.total == sum(m.value for m in r.melds)
    assert r.total * (10 if one else 1) == meld_total(hand, trump, extra)
    assert meld_totals(hand, extra)[trump] == meld_total(hand, trump, extra)


@settings(max_examples=300, deadline=None)
@given(hand=hands, trump=st.integers(0, 3), extra=st.booleans())
def test_property_no_card_twice_in_one_class(hand: int, trump: int, extra: bool) -> None:
    r = meld_breakdown(hand, trump, extra)
    shown = 0
    for cls in ("sequence", "around", "pinochle"):
        used: list[int] = [c for m in r.melds if m.cls == cls for c in m.cards]
        assert len(used) == len(set(used)), cls
        for c in used:
            assert hand >> c & 1
            shown |= 1 << c
    assert shown == r.cards

