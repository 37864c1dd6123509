"""The players' rules pages: present for every game in both languages, written for players,
Japanese as complete as English, every card token a real card of the game's deck."""

from __future__ import annotations

import re

import pytest
from rules_helpers import DECKS, headings, tables, token_texts, visible_text

from cardplaza.core.registry import games
from cardplaza.texts import markdown as md
from cardplaza.texts.rulepages import LANGUAGES, games_with_pages, has_page, page_text

PAGES = tuple(games())
"""Every registered game."""


def test_every_registered_game_has_a_page_in_both_languages() -> None:
    for game in games():
        for lang in LANGUAGES:
            assert has_page(game, lang), f"{game} has no {lang} rules page"


def test_no_page_without_a_game() -> None:
    registered = set(games())
    for lang in LANGUAGES:
        assert set(games_with_pages(lang)) <= registered


@pytest.mark.parametrize("game", PAGES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_page_is_written_for_players(game: str, lang: str) -> None:
    text = visible_text(game, lang)
    for word in ("DECISION", "specification", "Reason:", "normative", "seed 00", "仕様"):
        assert word.lower() not in text.lower(), f"{game}/{lang} mentions {word!r}"
    assert "{{" not in text and "}}" not in text


@pytest.mark.parametrize("game", PAGES)
def test_japanese_is_at_least_half_as_long_as_english(game: str) -> None:
    en = len(visible_text(game, "en"))
    ja = len(visible_text(game, "ja"))
    assert ja >= en / 2, f"{game}: ja {ja} characters against en {en}"


@pytest.mark.parametrize("game", PAGES)
def test_both_languages_have_the_same_sections_tables_and_cards(game: str) -> None:
    shape = {}
    for lang in LANGUAGES:
        shape[lang] = (
            [level for level, _ in headings(game, lang)],
            [(len(t.head), len(t.rows)) for t in tables(game, lang)],
            md.card_tokens(page_text(game, lang)),
        )
    assert shape["en"] == shape["ja"]


@pytest.mark.parametrize("game", PAGES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_card_token_is_a_real_card_of_the_game(game: str, lang: str) -> None:
    text = page_text(game, lang)
    deck = DECKS[game]
    found = token_texts(text)
    assert len(found) >= 20, f"{game}/{lang}: only {len(found)} card pictures"
    for cards in found:
        deck.parse_cards(cards)  # raises on a card the deck lacks or too many copies
    rendered = md.render(text, lang)
    assert rendered.count('<span class="cards" data-cards="') == len(found)
    for data in re.findall(r'data-cards="([^"]*)"', rendered):
        assert all(re.fullmatch(r"(10|[2-9JQKA])[SHDC]|Jo", c) for c in data.split())


def test_cut_throat_has_its_own_page() -> None:
    for lang in LANGUAGES:
        title = headings("pinochle3", lang)[0][1]
        assert ("Cut-throat" in title) if lang == "en" else ("3人" in title)
        assert "15" in page_text("pinochle3", lang)
