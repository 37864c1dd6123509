"""Reading the players' rules pages in tests: tables, card tokens, numbers."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from cardplaza.core.cards import FULL_DECK, PINOCHLE, PIQUET, Deck
from cardplaza.games.pinochle_dd.rules import DECK as DOUBLE_DECK
from cardplaza.texts import markdown as md
from cardplaza.texts.rulepages import page_text

DECKS: dict[str, Deck] = {"pinochle2": PINOCHLE, "pinochle4": PINOCHLE, "pinochle3": PINOCHLE,
                          "pinochle_dd": DOUBLE_DECK, "piquet": PIQUET, "efudatori": FULL_DECK}
SUITS = "♠♥♦♣"


@dataclass(frozen=True)
class Table:
    """A table of a page: the Markdown of its heading cells and of each row's cells (a
    table without headings has as many empty heading cells as columns)."""

    head: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


def tables(game: str, lang: str) -> list[Table]:
    """Every table of a page (inside quotes too), from the reader's token stream."""
    out: list[Table] = []
    head: list[str] = []
    rows: list[list[str]] = []
    section = ""
    for t in md.parse(page_text(game, lang), lang):
        if t.type in ("thead_open", "tbody_open"):
            section = t.type
        elif t.type == "tr_open" and section == "tbody_open":
            rows.append([])
        elif t.type == "inline" and section:
            (head if section == "thead_open" else rows[-1]).append(t.content)
        elif t.type == "table_close":
            width = len(rows[0]) if rows else len(head)
            out.append(Table(tuple(head) or ("",) * width, tuple(map(tuple, rows))))
            head, rows, section = [], [], ""
    return out


def headings(game: str, lang: str) -> list[tuple[int, str]]:
    """Level and Markdown of every heading of a page."""
    tokens = md.parse(page_text(game, lang), lang)
    return [(int(t.tag[1:]), tokens[i + 1].content) for i, t in enumerate(tokens)
            if t.type == "heading_open"]


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
