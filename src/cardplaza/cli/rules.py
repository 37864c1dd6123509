"""``cardplaza rules GAME [--lang ja]``: the players' rules pages in the terminal.

The page is the one the browser shows (:mod:`cardplaza.texts.rulepages`), read into
markdown-it tokens by :mod:`cardplaza.texts.markdown` (the same reader and plugin as the
web page) and drawn with Rich from their tree: headings, wrapped paragraphs (Japanese
wraps between characters, which Rich alone does not do), lists, tables, and each card of
a ``{{cards: …}}`` token as a small light card face with a red (♥ ♦) or black (♠ ♣)
index; cards named in the text are coloured as in play (:mod:`cardplaza.cli.style`). On a
terminal the page opens in a pager.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, JustifyMethod, RenderableType, RenderResult
from rich.measure import Measurement
from rich.padding import Padding
from rich.rule import Rule
from rich.segment import Segment
from rich.style import Style
from rich.table import Table as RichTable
from rich.text import Text

from cardplaza.cli.style import cards_text, make_console
from cardplaza.core.cards import Face
from cardplaza.texts.rulepages import language, page_text

if TYPE_CHECKING:
    from markdown_it.tree import SyntaxTreeNode

# The Markdown reader (cardplaza.texts.markdown, markdown-it) is imported when a page is
# drawn, so that the other commands do not pay for loading it.

RED_CARD = Style(color="red3", bgcolor="grey93", bold=True)
BLACK_CARD = Style(color="black", bgcolor="grey93", bold=True)
JOKER_CARD = Style(color="dark_violet", bgcolor="grey93", bold=True)
HEADING_STYLES = {1: Style(bold=True, color="green"), 2: Style(bold=True, color="green"),
                  3: Style(bold=True)}


def card_text(faces: tuple[Face, ...], lang: str = "en", boxed: bool = True) -> Text:
    """Cards as coloured card text: `` A♠ `` on a light face, ♥ ♦ red."""
    from cardplaza.texts import markdown as md

    out = Text()
    for i, face in enumerate(faces):
        if i:
            out.append(" ")
        label = md.card_label(face, lang)
        if not boxed:
            out.append(label, style=Style(bold=True, color="red") if md.is_red(face)
                       else Style(bold=True))
            continue
        style = JOKER_CARD if face[0] is None else RED_CARD if md.is_red(face) else BLACK_CARD
        out.append(f"\u00a0{label}\u00a0", style=style)
    return out


_NO_LINE_START = set("、。，．,.)）」』】〉》!！?？:：;；・…"
                     "ー々ゝゞぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ")
_NO_LINE_END = set("（(「『【〈《")


def _wide(ch: str) -> bool:
    return cell_len(ch) == 2 or ch in _NO_LINE_START or ch in _NO_LINE_END


def break_before(plain: str) -> list[bool]:
    """Where a line may begin: after a space, or between characters where either side is
    Japanese — not before closing punctuation or small kana, not after an opening bracket."""
    ok = [False] * (len(plain) + 1)
    for i in range(1, len(plain)):
        a, b = plain[i - 1], plain[i]
        if b in _NO_LINE_START or a in _NO_LINE_END or b == " ":
            continue
        ok[i] = a == " " or _wide(a) or _wide(b)
    return ok


def wrap_offsets(plain: str, width: int) -> list[int]:
    """Offsets to split ``plain`` at so that no line is wider than ``width`` cells (a word
    wider than a line is cut); spaces may hang past the edge."""
    ok = break_before(plain)
    offsets: list[int] = []
    start, used, last = 0, 0, -1
    for i, ch in enumerate(plain):
        if i > start and ok[i]:
            last = i
        w = cell_len(ch)
        if ch != " " and used + w > width and i > start:
            cut = last if last > start else i
            offsets.append(cut)
            start, last = cut, -1
            used = cell_len(plain[cut:i])
        used += w
    return offsets


class Wrapped:
    """A Text that wraps Japanese as well as English (Rich breaks only at spaces)."""

    def __init__(self, text: Text) -> None:
        self.text = text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """The lines at the available width."""
        text = self.text
        for line in text.divide(wrap_offsets(text.plain, max(1, options.max_width))):
            line.rstrip()
            line.end = ""
            yield line
            yield Segment.line()

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        """Narrowest: the widest piece that cannot be broken; widest: one line."""
        plain = self.text.plain
        ok = break_before(plain)
        widest, start = 0, 0
        for i in range(1, len(plain) + 1):
            if i == len(plain) or ok[i]:
                widest = max(widest, cell_len(plain[start:i].rstrip()))
                start = i
        return Measurement(max(1, widest), max(1, cell_len(plain)))


class RichWriter:
    """Draws the token tree of a page (:func:`cardplaza.texts.markdown.parse`) with Rich."""

    def __init__(self, lang: str = "en", card_faces: bool = True) -> None:
        self.lang = lang
        self.card_faces = card_faces

    def inline(self, nodes: Sequence[SyntaxTreeNode], style: Style | None = None) -> Text:
        """A Text of inline nodes."""
        out = Text(style=style or "")
        for n in nodes:
            if n.type == "text":
                out.append_text(cards_text(n.content))
            elif n.type in ("softbreak", "hardbreak"):
                out.append(" ")
            elif n.type == "code_inline":
                out.append(n.content, style="cyan")
            elif n.type == "strong":
                out.append_text(self.inline(n.children, Style(bold=True)))
            elif n.type == "em":
                out.append_text(self.inline(n.children, Style(italic=True)))
            elif n.type == "link":
                label = self.inline(n.children, Style(underline=True))
                url = str(n.attrGet("href") or "")
                if url.startswith("http"):
                    label.stylize(Style(link=url))
                out.append_text(label)
            elif n.type == "cards":
                out.append_text(card_text(n.meta["faces"], self.lang, self.card_faces))
        return out

    def text(self, markup: str, style: Style | None = None) -> Text:
        """A Text of one line of inline markup."""
        from markdown_it.tree import SyntaxTreeNode

        from cardplaza.texts import markdown as md

        return self.inline(SyntaxTreeNode(md.inline_tokens(markup, self.lang)).children, style)

    def _inline_of(self, node: SyntaxTreeNode, style: Style | None = None) -> Text:
        """The Text of a heading, paragraph or cell (its one inline child)."""
        return self.inline([c for n in node.children for c in n.children], style)

    def blocks(self, nodes: Sequence[SyntaxTreeNode]) -> Iterator[RenderableType]:
        """Renderables of block nodes, with blank lines between them."""
        for i, b in enumerate(nodes):
            if i and b.type != "heading":
                yield Text()
            yield from self.block(b)

    def block(self, b: SyntaxTreeNode) -> Iterator[RenderableType]:
        """Renderables of one block node."""
        if b.type == "heading":
            level = int(b.tag[1:])
            title = self._inline_of(b, HEADING_STYLES.get(level, Style(bold=True)))
            if level == 1:
                yield Rule(title, style="green", characters="═")
            elif level == 2:
                yield Text()
                yield Rule(title, style="green", align="left")
            else:
                yield Text()
                yield title
        elif b.type == "paragraph":
            yield Wrapped(self._inline_of(b))
        elif b.type in ("bullet_list", "ordered_list"):
            yield self.list_block(b)
        elif b.type == "table":
            yield self.table(b)
        elif b.type == "blockquote":
            grid = RichTable.grid(padding=(0, 1))
            grid.add_column(style="green", no_wrap=True)
            grid.add_column(ratio=1)
            grid.add_row("┃", Group(*self.blocks(b.children)))
            yield grid
        elif b.type in ("fence", "code_block"):
            yield Padding(Text(b.content.rstrip("\n"), style="cyan"), (0, 0, 0, 4))
        elif b.type == "hr":
            yield Rule(style="dim")

    def list_block(self, b: SyntaxTreeNode) -> RichTable:
        """A list as a grid of markers and hanging-indented items."""
        grid = RichTable.grid(padding=(0, 1))
        grid.add_column(no_wrap=True, justify="right")
        grid.add_column(ratio=1)
        start = int(b.attrGet("start") or 1)
        for k, item in enumerate(b.children):
            marker = f"{start + k}." if b.type == "ordered_list" else "•"
            body = [r for child in item.children for r in self.block(child)]
            grid.add_row(Text(marker, style="green"), Group(*body))
        return grid

    def table(self, b: SyntaxTreeNode) -> RichTable:
        """A table with bold headings and light rules."""
        sections = {s.type: s.children for s in b.children}
        head = sections.get("thead", [])
        rows = sections.get("tbody", [])
        columns = (head or rows)[0].children if head or rows else []
        table = RichTable(box=box.SIMPLE_HEAVY, show_lines=False, header_style="bold",
                          pad_edge=False, expand=False, show_edge=False,
                          show_header=bool(head))
        for cell in columns:
            align = str(cell.attrGet("class") or "").removeprefix("align-")
            justify: JustifyMethod = "right" if align == "right" else (
                "center" if align == "center" else "left")
            table.add_column(self._inline_of(cell) if head else "", justify=justify,
                             overflow="fold")
        for row in rows:
            table.add_row(*(Wrapped(self._inline_of(c)) for c in row.children))
        return table

    def page(self, text: str) -> Group:
        """A whole page."""
        from markdown_it.tree import SyntaxTreeNode

        from cardplaza.texts import markdown as md

        return Group(*self.blocks(SyntaxTreeNode(md.parse(text, self.lang)).children))


def print_page(console: Console, game: str, lang: str = "en") -> None:
    """Print the rules page of ``game`` (``FileNotFoundError`` if it has none)."""
    text = page_text(game, lang)
    faces = console.color_system is not None
    console.print(RichWriter(language(lang), card_faces=faces).page(text))


def rules(
    game: Annotated[str, typer.Argument(help="Game name, e.g. pinochle4 (see `cardplaza "
                                        "games`).")],
    lang: Annotated[str, typer.Option("--lang", "-l",
                                      help="Language of the page: en or ja.")] = "en",
    pager: Annotated[bool | None, typer.Option(
        "--pager/--no-pager", help="Page the text (default: when printing to a terminal).")
    ] = None,
) -> None:
    """Show the rules of a game, as the browser's rules page does."""
    from cardplaza.core.registry import games, get_game

    try:
        get_game(game)
    except KeyError:
        raise typer.BadParameter(f"unknown game {game!r}; games: "
                                 f"{', '.join(games())}", param_hint="GAME") from None
    if lang not in ("en", "ja"):
        raise typer.BadParameter(f"language must be en or ja; got {lang!r}",
                                 param_hint="--lang")
    console = make_console()
    use_pager = sys.stdout.isatty() if pager is None else pager
    try:
        if use_pager:
            os.environ.setdefault("LESS", "-R")
            with console.pager(styles=True):
                print_page(console, game, lang)
        else:
            print_page(console, game, lang)
    except FileNotFoundError:
        raise typer.BadParameter(f"{game} has no rules page in {lang}",
                                 param_hint="GAME") from None
