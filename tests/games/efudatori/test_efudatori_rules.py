"""Table-driven checks of the following rules F1-F4, the winner rules W1-W5 and the lead."""

from __future__ import annotations

import pytest
from efudatori_helpers import c, cs, play, position

from cardplaza.core.protocol import IllegalAction
from cardplaza.games.efudatori import rules

# (id, trick number, cards already in the trick, hand, expected legal cards)
FOLLOW_CASES = [
    ("lead_trick1_no_club_no_spade", 1, "", "KC 5S 9H 4D", "9H 4D"),
    ("lead_trick1_joker_allowed", 1, "", "KC 7C 5S Jo", "Jo"),
    ("lead_trick1_waived", 1, "", "KC 7C 5S AS", "KC 7C 5S AS"),
    ("lead_trick2_anything", 2, "", "KC 5S 3S Jo", "KC 5S 3S Jo"),
    ("F1_spade3_led_joker_forced", 6, "3S", "Jo 7S 9H 8D", "Jo"),
    ("F1_spade3_before_joker_holder_forced", 5, "4S 3S", "Jo 7S 2D 8D", "Jo"),
    ("F1_overrides_trump_obligation", 6, "5H 3S", "Jo 7H 9H 8D", "Jo"),
    ("F1_no_joker_follow_spades", 6, "3S", "JS 4D QH 9C", "JS"),
    ("F1_no_effect_after_joker_played", 7, "9S Jo 3S", "6C 8S 9H", "6C"),
    ("F2_joker_played_trump_forced", 4, "10H Jo", "JH QC 6D 4S", "QC"),
    ("F2_joker_led_trump_forced", 8, "Jo", "JD 8H 9H 10H", "JD"),
    ("F2_no_trump_follow_suit", 4, "10H Jo", "8H KD 9S 2D", "8H"),
    ("F2_no_trump_joker_led_any", 8, "Jo", "3S 2S 4C 5S", "3S 2S 4C 5S"),
    ("F2_no_trump_void_any", 4, "10H Jo", "KD 9S 2D", "KD 9S 2D"),
    ("F3_follow_or_joker", 4, "10H", "5H 8C 3D Jo", "5H Jo"),
    ("F3_follow_suit", 2, "KS", "9S 8S 2H 3C", "9S 8S"),
    ("F3_spade_ace_follows_suit", 3, "AH", "AS 5H 2C", "5H"),
    ("F3_spade_three_follows_suit", 7, "9H", "3S 5H 2C", "5H"),
    ("F4_void_any", 2, "KS", "AH 5H 6H 7H", "AH 5H 6H 7H"),
    ("F4_void_spade_three_allowed", 7, "9D", "3S 5H 2C", "3S 5H 2C"),
]


@pytest.mark.parametrize(("trick_number", "before", "hand", "expected"),
                         [case[1:] for case in FOLLOW_CASES],
                         ids=[case[0] for case in FOLLOW_CASES])
def test_legal_cards(trick_number: int, before: str, hand: str, expected: str) -> None:
    """Each row of section 9: the legal cards of a hand after the cards already played."""
    trick = [c(t) for t in before.split()]
    got = rules.legal_mask(rules.mask_of_list([c(t) for t in hand.split()]), trick,
                           trick_number)
    assert got == rules.mask_of_list([c(t) for t in expected.split()])


# (id, trick number, cards in playing order, index of the winning card)
WIN_CASES = [
    ("W1_spade3_then_joker", 6, "3S JS Jo 4H", 0),
    ("W1_joker_then_spade3", 7, "9S Jo 3S 6C", 2),
    ("W1_joker_led_spade3_later", 8, "Jo JD 3S 6D", 2),
    ("W1_beats_almighty_and_trumps", 1, "AS Jo AC 3S", 3),
    ("W2_joker_beats_almighty", 5, "4S AS Jo 2D", 2),
    ("W2_joker_led", 2, "Jo AD KD 2H", 0),
    ("W2_joker_beats_trump", 4, "10H Jo QC 8H", 1),
    ("W3_almighty_beats_trump_ace", 3, "AH AS KH 5H", 1),
    ("W3_almighty_led", 1, "AS AC KC QC", 0),
    ("W4_low_trump_beats_led_ace", 1, "9D QD 4C AD", 2),
    ("W4_highest_trump", 2, "5S 3D 9D 4D", 2),
    ("W4_spades_never_trump", 9, "8S 3S 10S 2H", 3),
    ("W5_highest_led", 2, "KS 9S AH 2S", 0),
    ("W5_spade3_ordinary", 10, "3S 5S 4S AD", 1),
    ("W5_off_suit_never_wins", 4, "5H AD KD 3H", 0),
]


@pytest.mark.parametrize(("trick_number", "cards", "winner"),
                         [case[1:] for case in WIN_CASES],
                         ids=[case[0] for case in WIN_CASES])
def test_trick_winner(trick_number: int, cards: str, winner: int) -> None:
    """Each row of section 10: the index of the winning card."""
    assert rules.trick_winner_index([c(t) for t in cards.split()], trick_number) == winner


def test_trumps_rotate() -> None:
    """7.1: ♣, ♦, ♥, ♣ … by trick number; spades never."""
    assert [rules.trump_of(k) for k in range(1, 14)] == [3, 2, 1] * 4 + [3]


def test_illegal_reasons_are_precise() -> None:
    """Rejected cards say which rule forbids them, and leave the state unchanged."""
    s = position(["5H 8C 3D Jo", "JH QC 6D 4S", "8H KD 9S 2D", "10H 2S 3S 4D"], 4, 3)
    play(s, "10H")
    assert s.illegal_reason(c("8C")) == ("You must follow suit: you hold ♥ "
                                         "(play a ♥ or the Joker)")
    assert s.illegal_reason(c("AS")) == "You do not hold A♠"
    play(s, "Jo")
    reasons = s.illegal_card_reasons()
    assert set(reasons) == cs("JH 6D 4S")
    assert all(r == "You hold a trump: the Joker forces you to play one"
               for r in reasons.values())
    before = [s.observation(p) for p in range(4)]
    with pytest.raises(IllegalAction, match="Joker forces"):
        s.apply(c("JH"))
    assert [s.observation(p) for p in range(4)] == before
    first = position(["KC 5S 9H 4D", "", "", ""], 1, 0)
    assert "may not lead a trump" in (first.illegal_reason(c("KC")) or "")
    assert "may not lead a spade" in (first.illegal_reason(c("5S")) or "")
    s8 = position(["4H 6S 7D 5C", "3S 2H 3H 5D", "JS 4D QH 9C", "Jo 7S 9H 8D"], 6, 1)
    play(s8, "3S JS")
    assert s8.illegal_reason(c("7S")) == ("The ♠3 has been played and you hold the Joker: "
                                          "you must play the Joker")
    assert s.illegal_reason("QC") is not None
    assert s.illegal_reason(99) is not None


def test_joker_trump_obligation_binds_only_later_players() -> None:
    """E-11: a player who played before the Joker keeps his card (Example 6's P4)."""
    s = position(["5H 8C 3D Jo", "JH QC 6D 4S", "8H KD 9S 2D", "10H 2C 3S 4D"], 4, 3)
    play(s, "10H Jo QC 8H")
    assert s.tricks_log[-1] == (3, (c("10H"), rules.JOKER, c("QC"), c("8H")), 0)


def test_stock_invariant_refused() -> None:
    """E-21: a deck whose stock is not a multiple of the players is refused."""
    with pytest.raises(ValueError, match="multiple"):
        rules.check_deck((1 << 53) - 1, 4)
    with pytest.raises(ValueError, match="cannot deal"):
        rules.check_deck((1 << 7) - 1 | rules.JOKER_BIT, 3)
    with pytest.raises(ValueError, match="every K, Q, J"):
        rules.check_deck(rules.deck_mask(4) & ~rules.JOKER_BIT & ~(1 << 0), 2)
    with pytest.raises(ValueError, match="2 to 7"):
        rules.deck_mask(8)
