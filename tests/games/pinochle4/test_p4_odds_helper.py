"""Meld odds (exact vs simulated) and the bidding helper's exact probabilities."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
from p4_helpers import mask

from cardplaza.games.pinochle4.helper import bidding_helper, completions, holder_probability
from cardplaza.games.pinochle4.odds import count_hands, odds_table, probability_all
from cardplaza.games.pinochle4.rules import CLUBS, SPADES

NAMES = {"run", "double_run", "marriage", "double_marriage", "pinochle", "double_pinochle",
         "around", "double_around", "round_table", *(f"rank_count_{k}" for k in range(9))}


def test_odds_table_shape() -> None:
    """The JSON shape: hand/deck size, rows with meld, scope, probability, exact."""
    t = odds_table()
    assert t["hand_size"] == 12 and t["deck_size"] == 48
    assert {r["meld"] for r in t["rows"]} == NAMES
    for r in t["rows"]:
        assert r["scope"] in ("one suit", "any suit", "one rank", "any rank")
        assert r["exact"] is True and 0 < r["probability"] < 1
        assert "simulated" not in r
    for name in ("run", "double_run", "marriage", "double_marriage"):
        assert sorted(r["scope"] for r in t["rows"] if r["meld"] == name) == [
            "any suit", "one suit"]


def test_odds_exact_values_by_hand_counting() -> None:
    """Spot checks against direct combinatorics."""
    rows = {(r["meld"], r["scope"]): r["probability"] for r in odds_table()["rows"]}
    total = comb(48, 12)
    # Exactly k aces: hypergeometric.
    for k in range(9):
        assert rows[(f"rank_count_{k}", "one rank")] == pytest.approx(
            comb(8, k) * comb(40, 12 - k) / total, rel=1e-12)
    # Pinochle: at least one Q♠ and one J♦ by inclusion–exclusion.
    miss_one = comb(46, 12)
    miss_both = comb(44, 12)
    p = 1 - (2 * miss_one - miss_both) / total
    assert rows[("pinochle", "one suit")] == pytest.approx(p, rel=1e-12)
    # Double run in one suit: 10 fixed cards plus 2 of the other 38.
    assert rows[("double_run", "one suit")] == pytest.approx(comb(38, 2) / total, rel=1e-12)
    # Sum over k of exact rank counts is one.
    assert sum(rows[(f"rank_count_{k}", "one rank")] for k in range(9)) == pytest.approx(1)
    assert probability_all([]) == 1
    assert count_hands([(2, (0, 0, 1))]) == comb(46, 10)


def test_odds_match_simulation_quick() -> None:
    """20000 hands dealt by the engine: every row within 4 standard errors."""
    t = odds_table(simulate=20000, seed=7)
    assert t["simulated_hands"] == 20000
    for r in t["rows"]:
        assert abs(r["deviation_se"]) < 4, r


@pytest.mark.slow
def test_odds_match_simulation_long() -> None:
    """200000 hands dealt by the engine: every row within 4 standard errors."""
    t = odds_table(simulate=200000, seed=11)
    for r in t["rows"]:
        assert abs(r["deviation_se"]) < 4, r


def test_helper_probability_is_hypergeometric() -> None:
    """P(partner holds ≥ 1 of k unseen copies) = 1 − C(u−k, h)/C(u, h), exactly."""
    assert holder_probability(36, 12, 2) == 1 - Fraction(comb(34, 12), comb(36, 12))
    assert holder_probability(36, 12, 1) == Fraction(12, 36)
    assert holder_probability(33, 3, 1) == Fraction(3, 33)
    assert holder_probability(36, 12, 0) == 0


def test_helper_completions_for_m1_hand() -> None:
    """M1's hand with ♠ trump: the second J♦ would make... nothing new beyond the single
    pinochle unless a second Q♠ also came; A♦ (with A♠ A♥ but no A♣) adds nothing; A♣
    does not complete aces (no A♦). K♠ adds an extra K to the run (+40)."""
    h = mask("A♠ 10♠ K♠ Q♠ J♠ J♦ A♥ 10♥ 10♣ J♣ 9♦ 9♥")
    rows = {r["card"]: r for r in completions(h, SPADES)}
    assert rows["K♠"]["gain"] == 40 and rows["Q♠"]["gain"] == 40
    assert rows["9♠"]["gain"] == 10
    assert rows["J♥"]["gain"] == 40  # jacks around
    assert "A♣" not in rows
    assert rows["K♠"]["copies_unseen"] == 1
    assert rows["K♠"]["fraction"] == "1/3"  # one unseen copy: 12 of 36 cards
    assert rows["J♥"]["copies_unseen"] == 2


def test_helper_uses_seen_cards() -> None:
    """Cards the player has seen elsewhere are not unseen: fewer copies, other odds."""
    h = mask("A♣ 10♣ K♣ Q♣ 9♥")
    seen = mask("J♣")  # one J♣ seen elsewhere
    row = next(r for r in completions(h, CLUBS, seen, 12) if r["card"] == "J♣")
    assert row["copies_unseen"] == 1
    assert row["probability"] == pytest.approx(12 / 42)


def test_bidding_helper_summary() -> None:
    """The helper lists four suits with completions and the best suit."""
    h = mask("A♠ 10♠ K♠ Q♠ J♠ J♦ A♥ 10♥ 10♣ J♣ 9♦ 9♥")
    data = bidding_helper(h)
    assert [s["value"] for s in data["suits"]] == [190, 70, 70, 60]
    assert data["best_suit"] == SPADES and data["unseen"] == 36
    assert all("completions" in s for s in data["suits"])
