"""Reading the players' rules pages in tests: tables, card tokens, numbers."""

from __future__ import annotations

import html
import re

from cardplaza.core.cards import FULL_DECK, PINOCHLE, PIQUET, Deck
from cardplaza.texts import markdown as md
from cardplaza.texts.rulepages import page_text

DECKS: dict[str, Deck] = {"pinochle2": PINOCHLE, "pinochle4": PINOCHLE, "pinochle3": PINOCHLE,
                          "piquet": PIQUET, "efudatori": FULL_DECK}
SUITS = "♠♥♦♣"


def tables(game: str, lang: str) -> list[md.Table]:
    """Every table of a page (inside quotes too)."""
    out: list[md.Table] = []

    def walk(blocks: tuple[md.Block, ...]) -> None:
        for b in blocks:
            if isinstance(b, md.Table):
                out.append(b)
            elif isinstance(b, md.Quote):
                walk(b.blocks)

    walk(md.parse(page_text(game, lang)))
    return out


def token_texts(cell: str) -> list[str]:
    """The card lists of every card token in a text."""
    return [m.group(1) for m in md.CARD_TOKEN.finditer(cell)]


def cards(deck: Deck, cell: str) -> list[int]:
    """The physical cards of every token in a cell together (repeats take further copies)."""
    return deck.parse_cards(" ".join(token_texts(cell)))


def number(cell: str) -> int:
    """The whole number of a cell (``1,500``, ``−400``, ``-300`` and ``**330**`` allowed)."""
    text = cell.replace("**", "").replace(",", "").replace("−", "-").replace("＋", "+")
    m = re.search(r"[-+]?\d+", text)
    assert m, f"no number in {cell!r}"
    return int(m.group())


def suit_in(cell: str) -> int | None:
    """Index (♠ 0, ♥ 1, ♦ 2, ♣ 3) of the first suit symbol outside card tokens."""
    text = md.CARD_TOKEN.sub("", cell)
    for ch in text:
        if ch in SUITS:
            return SUITS.index(ch)
    return None


def visible_text(game: str, lang: str) -> str:
    """The text a reader sees on the served page (HTML without tags)."""
    rendered = md.render(page_text(game, lang), lang)
    return html.unescape(re.sub(r"<[^>]+>", "", rendered))
