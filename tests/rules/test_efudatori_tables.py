"""The E-fuda-tori page's tables agree with the engine: the deck for each number of players,
the trump of each trick, the picture-card points, every example trick's winner and every
example of legal cards, in English and Japanese."""

from __future__ import annotations

import re

import pytest
from rules_helpers import cards, number, tables

from cardplaza.core.cards import FULL_DECK, mask_of
from cardplaza.games.efudatori import rules as er
from cardplaza.texts.rulepages import LANGUAGES

SUIT_OF_SYMBOL = {"♠": 0, "♥": 1, "♦": 2, "♣": 3}


def _find(lang: str, columns: int, rows: int) -> list[tuple[str, ...]]:
    found = [t for t in tables("efudatori", lang) if len(t.head) == columns
             and len(t.rows) == rows]
    assert len(found) == 1, (columns, rows)
    return list(found[0].rows)


def _trick_number(cell: str) -> int:
    m = re.match(r"\s*(\d+)", cell)
    assert m, cell
    return int(m.group(1))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_decks_for_each_number_of_players_are_the_engines(lang: str) -> None:
    rows = _find(lang, 6, 6)
    assert [number(r[0]) for r in rows] == list(range(er.MIN_PLAYERS, er.MAX_PLAYERS + 1))
    for row in rows:
        players = number(row[0])
        deck = er.deck_mask(players)
        assert deck == FULL_DECK.full_mask & ~mask_of(cards(FULL_DECK, row[1])), row
        size = deck.bit_count()
        stock = size - er.HAND_SIZE * players
        assert (number(row[2]), number(row[3]), number(row[4])) == (
            size, size // players, stock), row
        assert row[5].replace("〜", "–") .endswith(f"1–{stock // players}"), row


@pytest.mark.parametrize("lang", LANGUAGES)
def test_trump_of_each_trick_is_the_engines(lang: str) -> None:
    t = next(t for t in tables("efudatori", lang) if len(t.head) == 14)
    for k, symbol in zip(t.head[1:], t.rows[0][1:], strict=True):
        assert er.trump_of(number(k)) == SUIT_OF_SYMBOL[symbol.strip()]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_picture_points_are_the_engines(lang: str) -> None:
    rows = _find(lang, 2, 5)
    king, queen, jack, suit_set, other = (number(r[1]) for r in rows)
    assert (king, queen, jack) == (er.FACE_POINTS[11], er.FACE_POINTS[10], er.FACE_POINTS[9])
    hearts = FULL_DECK.parse_mask("K♥ Q♥ J♥")
    assert er.score(hearts) == suit_set and er.score(hearts, simple_scoring=True) == 35
    assert other == 0 == er.score(FULL_DECK.parse_mask("A♥ 10♥ Jo"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_example_tricks_are_won_as_the_engine_decides(lang: str) -> None:
    rows = _find(lang, 4, 10)
    for row in rows:
        trick = cards(FULL_DECK, row[1])
        winner = cards(FULL_DECK, row[2])
        assert len(trick) == 4 and len(winner) == 1, row
        assert trick[er.trick_winner_index(trick, _trick_number(row[0]))] == winner[0], row


@pytest.mark.parametrize("lang", LANGUAGES)
def test_example_legal_cards_are_the_engines(lang: str) -> None:
    rows = _find(lang, 4, 11)
    for row in rows:
        played = cards(FULL_DECK, row[1]) if "{{" in row[1] else []
        hand = mask_of(cards(FULL_DECK, row[2]))
        allowed = mask_of(cards(FULL_DECK, row[3]))
        assert er.legal_mask(hand, played, _trick_number(row[0])) == allowed, row


@pytest.mark.parametrize("lang", LANGUAGES)
def test_final_count_is_the_engines(lang: str) -> None:
    rows = _find(lang, 4, 2)
    for row in rows:
        captured = mask_of(cards(FULL_DECK, row[1]))
        assert er.score(captured) == number(row[2]), row
        assert er.score(captured, simple_scoring=True) == number(row[3]), row
