"""The worked examples of the E-fuda-tori specification, section 17, one test each.

P1 … P4 are seats 0 … 3 (clockwise); P4 deals, so P1 leads trick 1.
"""

from __future__ import annotations

import random

from efudatori_helpers import c, cs, play, position

from cardplaza.core.cards import FULL_DECK, bits
from cardplaza.games.efudatori import EfudatoriState, Options, rules
from cardplaza.games.efudatori.worlds import check_invariants

P1, P2, P3, P4 = 0, 1, 2, 3


def test_example_01_deck_arithmetic() -> None:
    """Example 1: deck sizes, tricks, stock and draw rounds per player count (spec 3.1)."""
    table = {2: (52, 26, 44, 22), 3: (51, 17, 39, 13), 4: (52, 13, 36, 9),
             5: (50, 10, 30, 6), 6: (48, 8, 24, 4), 7: (49, 7, 21, 3)}
    for n, (deck, tricks, stock, rounds) in table.items():
        s = EfudatoriState(Options(players=n), 1)
        assert s.deck.bit_count() == deck
        assert s.tricks_total == tricks
        assert len(s.stock) == stock
        rng = random.Random(n)
        while not s.is_terminal:
            legal = s.legal_actions()
            s.apply(legal[rng.randrange(len(legal))])
        assert len(s.draws_log) == rounds
        assert [k for k, *_ in s.draws_log] == list(range(1, rounds + 1))
    six = rules.deck_mask(6)
    assert not six & rules.mask_of_list([rules.card(x, 2) for x in range(4)])
    assert not six >> rules.card(rules.CLUBS, 3) & 1
    seven = rules.deck_mask(7)
    assert not seven & rules.mask_of_list([rules.card(x, 2) for x in range(4)])
    assert seven >> rules.card(rules.CLUBS, 3) & 1


def test_example_02_first_lead() -> None:
    """Example 2: trick 1 forbids leading clubs (trump) and spades; the Joker may lead;
    with no ♦, ♥ or Joker the restriction is waived."""
    s = position(["KC 5S 9H 4D", "", "", ""], 1, P1)
    assert set(s.legal_actions()) == cs("9H 4D")
    assert "trump" in (s.illegal_reason(c("KC")) or "")
    assert "spade" in (s.illegal_reason(c("5S")) or "")
    s = position(["KC 7C 5S Jo", "", "", ""], 1, P1)
    assert set(s.legal_actions()) == {rules.JOKER}
    s = position(["KC 7C 5S AS", "", "", ""], 1, P1)
    assert set(s.legal_actions()) == cs("KC 7C 5S AS")


def test_example_03_low_trump_beats_led_ace() -> None:
    """Example 3: trick 1 (♣): ♦9, ♦Q, ♣4 (void in ♦), ♦A — P3 wins with the trump (W4)."""
    s = position(["9D 5H 6H 7H", "QD 3S 4S 5S", "4C 8H 9S 10S", "AD 2S 3H 4H"], 1, P1)
    play(s, "9D QD")
    assert c("4C") in s.legal_actions()
    play(s, "4C AD")
    assert s.tricks_log[-1][2] == P3
    assert set(bits(s.captured[P3])) == cs("9D QD 4C AD")
    assert s.scores() == [0, 0, 10, 0]
    assert s.current_player == P3


def test_example_04_off_suit_ace_cannot_win() -> None:
    """Example 4: trick 2 (♦): ♠K, ♠9, ♥A (void), ♠2 — P3 wins with ♠K (W5)."""
    s = position(["AH 5H 6H 7H", "2S 3H 4H 5C", "KS 8H 9H 10H", "9S 2H 3C 4C"], 2, P3)
    play(s, "KS 9S AH 2S")
    assert s.tricks_log[-1][2] == P3


def test_example_05_almighty_beats_trump_ace() -> None:
    """Example 5: trick 3 (♥): ♥A, ♠A (void in ♥), ♥K, ♥5 — P4 wins (W3), ♥K = 20."""
    s = position(["KH 5D 6D 7D", "5H 3D 4D 8D", "AH 8S 9S 10S", "AS 2S 3C 4C"], 3, P3)
    play(s, "AH")
    assert c("AS") in s.legal_actions()
    play(s, "AS KH 5H")
    assert s.tricks_log[-1][2] == P4
    assert s.scores()[P4] == 20


def test_example_06_joker_and_trump_obligation() -> None:
    """Example 6: trick 4 (♣): P1 may play the Joker though he holds a heart; P2 must play
    his club; P3 without clubs follows hearts; the Joker wins (W2)."""
    s = position(["5H 8C 3D Jo", "JH QC 6D 4S", "8H KD 9S 2D", "10H 2S 3S 4D"], 4, P4)
    play(s, "10H")
    assert set(s.legal_actions()) == cs("5H Jo")
    play(s, "Jo")
    assert s.legal_actions() == [c("QC")]
    assert s.illegal_reason(c("JH")) == "You hold a trump: the Joker forces you to play one"
    play(s, "QC")
    assert s.legal_actions() == [c("8H")]
    play(s, "8H")
    assert s.tricks_log[-1][2] == P1
    assert set(bits(s.captured[P1])) == cs("10H Jo QC 8H")
    assert s.scores()[P1] == 10


def test_example_07_joker_beats_almighty() -> None:
    """Example 7: trick 5 (♦): ♠4, ♠A, Joker, ♦2 (forced trump) — P3 wins (W2)."""
    s = position(["4S 5H 6H 7H", "AS 3H 4H 5C", "Jo 8H 9H 10H", "2D 2S 3C 4C"], 5, P1)
    play(s, "4S AS Jo")
    assert s.legal_actions() == [c("2D")]
    play(s, "2D")
    assert s.tricks_log[-1][2] == P3


def test_example_08_spade_three_forces_joker() -> None:
    """Example 8: trick 6 (♥): ♠3 led; P3 follows ♠J; P4 must play the Joker (F1) though he
    holds ♠7; P1 must play his only heart (F2); P2 wins (W1)."""
    s = position(["4H 6S 7D 5C", "3S 2H 3H 5D", "JS 4D QH 9C", "Jo 7S 9H 8D"], 6, P2)
    play(s, "3S")
    assert s.legal_actions() == [c("JS")]
    play(s, "JS")
    assert s.legal_actions() == [rules.JOKER]
    assert "must play the Joker" in (s.illegal_reason(c("7S")) or "")
    play(s, "Jo")
    assert s.legal_actions() == [c("4H")]
    play(s, "4H")
    assert s.tricks_log[-1][2] == P2
    assert set(bits(s.captured[P2])) == cs("3S JS Jo 4H")
    assert s.scores()[P2] == 5


def test_example_09_spade_three_after_joker() -> None:
    """Example 9: trick 7 (♣): ♠9, Joker, ♠3 (P3 has no club), ♣6 — P3 wins (W1, E-17);
    with a club in P3's hand F2 forces it and the Joker wins."""
    hands = ["9S 5H 6H 2H", "Jo 3H 4H 6D", "3S QS 5D 7H", "6C 8S 9H 10H"]
    s = position(hands, 7, P1)
    play(s, "9S Jo")
    assert set(s.legal_actions()) == cs("3S QS")
    play(s, "3S")
    assert s.legal_actions() == [c("6C")]
    play(s, "6C")
    assert s.tricks_log[-1][2] == P3
    # Variation: P3 holds a club.
    hands[P3] = "3S QS 7C 7H"
    s = position(hands, 7, P1)
    play(s, "9S Jo")
    assert s.legal_actions() == [c("7C")]
    play(s, "7C 6C")
    assert s.tricks_log[-1][2] == P2


def test_example_10_joker_led_stolen_by_spade_three() -> None:
    """Example 10: trick 8 (♦): Joker led; ♦J forced; P4 (no ♦) plays ♠3; ♦6 forced —
    P4 wins (W1)."""
    s = position(["6D 5H 6H 7H", "Jo 3H 4H 5C", "JD 8H 9H 10H", "3S 2S 4C 5S"], 8, P2)
    play(s, "Jo")
    assert s.legal_actions() == [c("JD")]
    play(s, "JD")
    assert set(s.legal_actions()) == cs("3S 2S 4C 5S")
    play(s, "3S")
    assert s.legal_actions() == [c("6D")]
    play(s, "6D")
    assert s.tricks_log[-1][2] == P4
    assert set(bits(s.captured[P4])) == cs("Jo JD 3S 6D")
    assert s.scores()[P4] == 5


def test_example_11_joker_holder_plays_spade_three() -> None:
    """Example 11: trick 9 (♥): P4 holds Joker, ♠3, ♠K and plays ♠3: no effect (E-16), the
    Joker stays in his hand; ♥2 is the only trump — P2 wins (W4)."""
    s = position(["10S 5D 6D 7D", "2H 3D 4D 5C", "8S 9C 9D 10D", "Jo 3S KS 8D"], 9, P3)
    play(s, "8S")
    assert set(s.legal_actions()) == cs("3S KS Jo")
    play(s, "3S")
    assert s.hands[P4] >> rules.JOKER & 1
    assert s.legal_actions() == [c("10S")]
    play(s, "10S")
    assert c("2H") in s.legal_actions()
    play(s, "2H")
    assert s.tricks_log[-1][2] == P2
    assert s.hands[P4] >> rules.JOKER & 1


def test_example_12_spade_three_joker_gone() -> None:
    """Example 12: trick 10 (♣), the Joker already played: ♠3, ♠5, ♠4, ♦A — P2 wins (W5)."""
    s = position(["3S 5H 6H", "5S 3H 4H", "4S 8H 9H", "AD 2H 3D"], 10, P1)
    play(s, "3S 5S 4S AD")
    assert s.tricks_log[-1][2] == P2


def test_example_13_draw_round() -> None:
    """Example 13: after trick 1 won by P3, P3 draws the face-down S1 (seen by P3 alone),
    P4, P1, P2 draw S2, S3, S4 face up (seen by all); 32 cards remain; P3 leads trick 2."""
    hands = ["9D 5H 6H 7H", "QD 3S 4S 5S", "4C 8H 9S 10S", "AD 2S 3H 4H"]
    dealt = 0
    for h in hands:
        dealt |= FULL_DECK.parse_mask(h)
    rest = list(bits(rules.deck_mask(4) & ~dealt))
    random.Random(13).shuffle(rest)
    s = position(hands, 1, P1, stock=rest)
    order = rest[::-1]  # S1, S2, … (S1 is the top: the last element)
    play(s, "9D QD 4C AD")
    check_invariants(s)
    assert s.hands[P3] >> order[0] & 1
    assert s.hands[P4] >> order[1] & 1
    assert s.hands[P1] >> order[2] & 1
    assert s.hands[P2] >> order[3] & 1
    assert len(s.stock) == 32
    assert [m.bit_count() for m in s.hands] == [4, 4, 4, 4]
    assert s.current_player == P3 and s.trick_number == 2 and s.trump == rules.DIAMONDS
    for seat in range(4):
        obs = s.observation(seat)
        draw = obs["draws"][0]
        assert draw["winner"] == P3
        assert draw["face_down"] == (order[0] if seat == P3 else None)
        assert draw["face_up"] == [[P4, order[1]], [P1, order[2]], [P2, order[3]]]
        assert obs["known_cards"] == [[order[2]], [order[3]], [], [order[1]]]
        assert obs["stock_size"] == 32
        assert order[4] not in obs["hand"]


def test_example_14_running_out_of_stock() -> None:
    """Example 14: four players draw after tricks 1-9; tricks 10-13 are played from hands of
    4, 3, 2, 1 cards with trumps ♣, ♦, ♥, ♣."""
    s = EfudatoriState(Options(), 14)
    rng = random.Random(14)
    sizes: dict[int, int] = {}
    trumps: dict[int, int] = {}
    while not s.is_terminal:
        if not s.trick:
            sizes[s.trick_number] = s.hands[s.current_player].bit_count()
            trumps[s.trick_number] = s.trump
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
        if not s.trick and s.trick_number <= 10 and len(s.tricks_log) <= 9:
            assert len(s.stock) == 36 - 4 * len(s.tricks_log)
    assert [sizes[k] for k in range(1, 14)] == [4] * 10 + [3, 2, 1]
    assert [trumps[k] for k in (10, 11, 12, 13)] == [rules.CLUBS, rules.DIAMONDS,
                                                      rules.HEARTS, rules.CLUBS]
    assert len(s.draws_log) == 9 and not s.stock


def test_example_15_scoring_with_sets() -> None:
    """Example 15: heart set 50 + ♠K + ♦J = 75; club set 50 + ♠Q ♠J ♦K ♦Q = 95; total 170."""
    p1 = FULL_DECK.parse_mask("KH QH JH KS JD AC")
    p2 = FULL_DECK.parse_mask("QS JS KD QD KC QC JC")
    assert rules.score(p1) == 75
    assert rules.score(p2) == 95
    assert rules.score(p1) + rules.score(p2) == 170 == rules.FACE_TOTAL + 15 * 2
    assert rules.ranking([75, 95, 0, 0]) == [2, 1, 3, 3]
    assert rules.score(p1, simple_scoring=True) == 60
    assert rules.score(p2, simple_scoring=True) == 80


def test_example_16_split_suit_no_set() -> None:
    """Example 16: ♥K, ♥Q with P1 and ♥J with P2: 30 and 5, no set."""
    assert rules.score(FULL_DECK.parse_mask("KH QH")) == 30
    assert rules.score(FULL_DECK.parse_mask("JH")) == 5


def test_example_17_tie() -> None:
    """Example 17: 60, 60, 45, 5 — joint winners, competition ranks 1, 1, 3, 4."""
    assert rules.ranking([60, 60, 45, 5]) == [1, 1, 3, 4]
