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
