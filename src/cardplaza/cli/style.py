"""How cards look in the terminal: one console setup shared by play, replay and rules.

Card texts such as ``10♥``, ``Q♠`` or ``Jo`` are coloured wherever they appear in printed
text: hearts and diamonds red, spades and clubs bold, the Joker magenta. Nothing else is
highlighted (Rich's own number and keyword highlighting is off).
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.highlighter import Highlighter
from rich.text import Text

RANK = r"(?:10|[2-9TJQKA])"
RED = "bold red"
BLACK = "bold"
JOKER = "bold magenta"

_RULES = (
    (rf"{RANK}[♥♦♡♢](?:#[12])?", RED),
    (rf"{RANK}[♠♣♤♧](?:#[12])?", BLACK),
    (r"\bJo(?:ker)?\b", JOKER),
)


class CardHighlighter(Highlighter):
    """Colours card texts by suit (plain style strings: works with any console)."""

    def highlight(self, text: Text) -> None:
        """Add the card styles to ``text``."""
        for pattern, style in _RULES:
            text.highlight_regex(pattern, style=style)


HIGHLIGHTER = CardHighlighter()


def make_console(**kwargs: Any) -> Console:
    """A console that colours cards and highlights nothing else."""
    return Console(highlighter=HIGHLIGHTER, **kwargs)


def cards_text(text: str) -> Text:
    """``text`` (no markup) as Rich text with its cards coloured."""
    out = Text(text)
    HIGHLIGHTER.highlight(out)
    return out


def markup(text: str) -> Text:
    """``text`` with Rich markup, its cards coloured (for table cells and rules)."""
    out = Text.from_markup(text)
    HIGHLIGHTER.highlight(out)
    return out
