"""The scoring tables of the Pinochle pages agree with the engines, read off mechanically:
meld values (single melds and whole example hands), counter schemes, hand scores and the
two-hand streak ladder, in English and Japanese alike."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from rules_helpers import cards, number, suit_in, tables

from cardplaza.core.cards import PINOCHLE, mask_of
from cardplaza.games.pinochle2 import engine as p2
from cardplaza.games.pinochle2.streak import Streak
from cardplaza.games.pinochle4.engine import hand_scores
from cardplaza.games.pinochle4.meld import meld_total
from cardplaza.games.pinochle4.rules import COUNTER_VALUES, counter_table
from cardplaza.texts.rulepages import LANGUAGES

TRUMP_WORDS = ("trump", "切り札")


def _trump_column(head: tuple[str, ...]) -> int | None:
    for i, h in enumerate(head):
        if any(w in h for w in TRUMP_WORDS) and suit_in(h) is not None:
            return i
    return None


def meld_tables(game: str, lang: str) -> list[tuple[int, list[tuple[str, ...]]]]:
    """(trump, rows) of each meld table: a header cell names the trump suit."""
    out = []
    for t in tables(game, lang):
        col = _trump_column(t.head)
        if col is not None:
            trump = suit_in(t.head[col])
            assert trump is not None
            out.append((trump, list(t.rows)))
    return out


@pytest.mark.parametrize("game", ["pinochle4", "pinochle3"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_meld_table_values_are_the_engines(game: str, lang: str) -> None:
    found = meld_tables(game, lang)
    assert len(found) == 1
    trump, rows = found[0]
    assert len(rows) == 17
    for row in rows:
        hand = mask_of(cards(PINOCHLE, row[1]))
        assert meld_total(hand, trump) == number(row[-1]), row


@pytest.mark.parametrize("game", ["pinochle4", "pinochle3"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_meld_examples_total_as_the_engine_counts(game: str, lang: str) -> None:
    examples = [t for t in tables(game, lang)
                if t.head[0] in ("Trump", "切り札") and t.head[-1] in ("Total", "合計")]
    assert len(examples) == 1
    for row in examples[0].rows:
        trump = suit_in(row[0])
        assert trump is not None
        hand = mask_of(cards(PINOCHLE, row[1]))
        assert len(cards(PINOCHLE, row[1])) == 12
        assert meld_total(hand, trump) == number(row[-1]), row
        # The option "run + extra K/Q counts" off: the figure in brackets, where given.
        off = re.search(r"(\d+)[^\d(（]*(?:with the option off|オプションなし)", row[2])
        if off:
            assert meld_total(hand, trump, extra_kq=False) == int(off.group(1)), row


@pytest.mark.parametrize("lang", LANGUAGES)
def test_two_hand_melds_are_the_engines(lang: str) -> None:
    found = meld_tables("pinochle2", lang)
    assert [len(rows) for _, rows in found] == [10, 5]
    for trump, rows in found:
        for row in rows:
            faces = Counter(c % 24 for c in cards(PINOCHLE, row[1]))
            match = [t for t, _, fs, need in p2.INSTANCES[trump]
                     if set(fs) == set(faces) and all(faces[f] == need for f in fs)]
            assert len(match) == 1, row
            assert p2.MELD_POINTS[match[0]] == number(row[-1]), row
            if lang == "en":
                assert row[0].lower().startswith(p2.MELD_NAMES[match[0]]), row


def test_two_hand_card_points_are_the_engines() -> None:
    ranks = {"A": p2.ACE, "10": p2.TEN, "K": p2.KING}
    for lang in LANGUAGES:
        table = next(t for t in tables("pinochle2", lang) if t.head[0] in ("Card", "カード"))
        (a, ten, k, low, last) = table.rows
        for row in (a, ten, k):
            assert number(row[1]) == p2.POINTS[ranks[row[0]]], row
        assert number(low[1]) == p2.POINTS[p2.QUEEN] == p2.POINTS[p2.JACK] == 0
        assert sum(p2.POINTS) + number(last[1]) == 250


@pytest.mark.parametrize("game", ["pinochle4", "pinochle3"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_counter_schemes_are_the_engines(game: str, lang: str) -> None:
    table = next(t for t in tables(game, lang) if len(t.head) == 5 and t.rows[0][0] == "A")
    schemes = ("A", "A1", "B", "C")
    ranks = {"9": 0, "J": 1, "Q": 2, "K": 3, "10": 4, "A": 5}
    for row in table.rows[:6]:
        for k, scheme in enumerate(schemes):
            assert number(row[k + 1]) == COUNTER_VALUES[scheme][ranks[row[0]]], row
    last, total = table.rows[6], table.rows[7]
    for k, scheme in enumerate(schemes):
        cards_total = sum(counter_table("A" if scheme == "A1" else scheme, scheme == "A1"))
        assert cards_total + number(last[k + 1]) == number(total[k + 1]) == (
            25 if scheme == "A1" else 250)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_partnership_hand_scores_are_the_engines(lang: str) -> None:
    table = next(t for t in tables("pinochle4", lang)
                 if t.head[0] in ("Bid", "ビッド") and len(t.head) == 7)
    assert len(table.rows) >= 5
    for row in table.rows:
        bid, mb, tb, md_, td, bs, ds = (number(c) for c in row)
        assert tb + td == 250, row
        delta, _ = hand_scores(bid, 0, [mb, md_], [tb, td])
        assert delta == [bs, ds], row


@pytest.mark.parametrize("lang", LANGUAGES)
def test_two_hand_streak_ladder_is_the_engines(lang: str) -> None:
    table = next(t for t in tables("pinochle2", lang) if len(t.head) == 6)
    streak = Streak()
    for row in table.rows:
        assert streak.level() == number(row[1]), row
        human, computer = (int(x) for x in re.search(r"(\d+)–(\d+)", row[2]).groups())
        streak.record_result(human, computer)
        assert streak.streak == number(row[3]) and streak.margin_sum == number(row[4]), row
        if streak.streak:
            assert streak.saved_score == number(row[5]), row
        else:
            assert streak.best == number(row[5]), row


@pytest.mark.parametrize("game", ["pinochle4", "pinochle3"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_highest_bid_is_the_engines(game: str, lang: str) -> None:
    from cardplaza.games.pinochle4.rules import (
        MAX_CUTTHROAT_MELD,
        MAX_TEAM_MELD,
        max_side_score,
    )
    from cardplaza.texts.rulepages import page_text

    players = 4 if game == "pinochle4" else 3
    text = page_text(game, lang).replace(",", "")
    meld = MAX_TEAM_MELD if players == 4 else MAX_CUTTHROAT_MELD
    for figure in (max_side_score(players, False), meld, max_side_score(players, True)):
        assert re.search(rf"(?<!\d){figure}(?!\d)", text), figure


# -- double-deck Pinochle ---------------------------------------------------------------

def _dd_faces(cell: str) -> list[int]:
    """The faces (0..19) of every card token in a cell of the double-deck page."""
    from cardplaza.games.pinochle_dd.rules import DECK, FACES

    return [c % FACES for c in cards(DECK, cell)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_double_deck_meld_table_is_the_engines(lang: str) -> None:
    from cardplaza.games.pinochle_dd.meld import meld_total as dd_meld
    from cardplaza.games.pinochle_dd.rules import mask_of_faces

    found = meld_tables("pinochle_dd", lang)
    assert len(found) == 1
    trump, rows = found[0]
    assert len(rows) == 8
    for row in rows:
        single = _dd_faces(row[1])
        for k in range(1, 5):
            assert dd_meld(mask_of_faces(single * k), trump) == number(row[1 + k]), (row, k)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_double_deck_meld_examples_total_as_the_engine_counts(lang: str) -> None:
    from cardplaza.games.pinochle_dd.meld import meld_total as dd_meld
    from cardplaza.games.pinochle_dd.rules import mask_of_faces

    examples = [t for t in tables("pinochle_dd", lang)
                if t.head[0] in ("Trump", "切り札") and t.head[-1] in ("Total", "合計")]
    assert len(examples) == 1 and len(examples[0].rows) >= 8
    for row in examples[0].rows:
        trump = suit_in(row[0])
        assert trump is not None
        hand = _dd_faces(row[1])
        assert len(hand) == 20, row
        assert dd_meld(mask_of_faces(hand), trump) == number(row[-1]), row


@pytest.mark.parametrize("lang", LANGUAGES)
def test_double_deck_counters_are_the_engines(lang: str) -> None:
    from cardplaza.games.pinochle_dd.rules import COUNTER_FACES, LAST_TRICK, counter_total

    table = next(t for t in tables("pinochle_dd", lang)
                 if len(t.head) == 3 and t.rows and t.rows[0][0] == "A")
    schemes = ("aces-tens-kings", "aces-tens")
    ranks = {"J": 0, "Q": 1, "K": 2, "10": 3, "A": 4}
    assert [row[0] for row in table.rows[:5]] == ["A", "10", "K", "Q", "J"]
    for row in table.rows[:5]:
        for k, scheme in enumerate(schemes):
            # Every suit alike: the spade face of the rank tells the value.
            assert number(row[k + 1]) == COUNTER_FACES[scheme] >> ranks[row[0]] & 1, row
    last, total = table.rows[5], table.rows[6]
    for k, scheme in enumerate(schemes):
        assert number(last[k + 1]) == LAST_TRICK
        assert number(total[k + 1]) == counter_total(scheme)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_double_deck_bid_steps_are_the_engines(lang: str) -> None:
    from cardplaza.games.pinochle_dd.engine import next_allowed

    table = next(t for t in tables("pinochle_dd", lang)
                 if len(t.head) == 4 and "58" in t.head[2] and "100" in t.head[3])
    steps = ("1-then-5", "1", "5", "10-from-100")
    assert len(table.rows) == len(steps)
    for row, step in zip(table.rows, steps, strict=True):
        assert number(row[2]) == next_allowed(58, step), row
        assert number(row[3]) == next_allowed(100, step), row


@pytest.mark.parametrize("lang", LANGUAGES)
def test_double_deck_hand_scores_are_the_engines(lang: str) -> None:
    from cardplaza.games.pinochle_dd.engine import Options as DDOptions
    from cardplaza.games.pinochle_dd.engine import hand_scores as dd_scores

    table = next(t for t in tables("pinochle_dd", lang)
                 if t.head[0] in ("Bid", "ビッド") and len(t.head) == 7)
    assert len(table.rows) >= 5
    for row in table.rows:
        bid, mb, cb, md_, cd, bs, ds = (number(c) for c in row)
        assert cb + cd == 50, row
        delta, _ = dd_scores(bid, 0, [mb, md_], [cb, cd], [1, 1], DDOptions())
        assert delta == [bs, ds], row


@pytest.mark.parametrize("lang", LANGUAGES)
def test_double_deck_legal_cards_are_the_engines(lang: str) -> None:
    from cardplaza.games.pinochle_dd.rules import LOW20, legal_faces, mask_of_faces

    table = next(t for t in tables("pinochle_dd", lang)
                 if t.head[0] in ("Trick so far", "ここまでのトリック"))
    assert len(table.rows) >= 8 and len(table.head) == 4
    spades = 0
    for row in table.rows:
        trick = _dd_faces(row[0])
        hand = mask_of_faces(_dd_faces(row[1]))
        for col, must_head in ((2, True), (3, False)):
            allowed = legal_faces(hand, trick, spades, must_head) & LOW20
            assert allowed == sum(1 << f for f in set(_dd_faces(row[col]))), (row, col)


ORDINALS = {"first": 0, "second": 1, "third": 2, "fourth": 3,
            "1番目": 0, "2番目": 1, "3番目": 2, "4番目": 3}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_double_deck_trick_winners_are_the_engines(lang: str) -> None:
    from cardplaza.games.pinochle_dd.rules import winning_index

    table = next(t for t in tables("pinochle_dd", lang)
                 if t.head[0] in ("Cards played", "出されたカード"))
    assert len(table.rows) >= 4
    for row in table.rows:
        said = [i for word, i in ORDINALS.items() if row[1].startswith(word)]
        assert len(said) == 1, row
        assert winning_index(_dd_faces(row[0]), 0) == said[0], row


@pytest.mark.parametrize("lang", LANGUAGES)
def test_double_deck_highest_bid_is_the_engines(lang: str) -> None:
    from cardplaza.games.pinochle_dd.engine import MAX_SIDE_MELD, DoubleDeckState
    from cardplaza.games.pinochle_dd.engine import Options as DDOptions
    from cardplaza.texts.rulepages import page_text

    text = page_text("pinochle_dd", lang).replace(",", "")
    usual = DoubleDeckState(DDOptions(), 0).max_bid
    aces_tens = DoubleDeckState(DDOptions(counters="aces-tens"), 0).max_bid
    for figure in (MAX_SIDE_MELD, usual, aces_tens):
        assert re.search(rf"(?<!\d){figure}(?!\d)", text), figure
