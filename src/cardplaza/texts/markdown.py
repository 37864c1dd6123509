"""A small Markdown reader for the rules pages, with an HTML writer.

:func:`parse` turns a page into blocks — headings, paragraphs, ``-``/``*``/``1.`` lists
(nested by indent), pipe tables (``:--``, ``:-:``, ``--:`` align a column), block quotes,
fenced code and horizontal rules; :func:`parse_inline` turns one line of text into inline
nodes — ``code``, ``**strong**``, ``*em*``, ``[links](url)`` and card tokens
``{{cards: A♠ 10♥ K♦}}``. :func:`render` writes HTML (the terminal has its own writer in
``cardplaza.cli.rules``). Every text is escaped; only ``http(s):``, ``/`` and ``#`` links
become links.

A card token becomes ``<span class="cards" data-cards="AS 10H KD">`` holding the cards as
text (``♥ ♦`` in a red span), which the front end may draw as card faces:

>>> render("# Title\\n\\nSome **bold** `x<y`.")
'<h1 id="title">Title</h1>\\n<p>Some <strong>bold</strong> <code>x&lt;y</code>.</p>'
>>> print(render("{{cards: A♠ 10♥}}"))
<p><span class="cards" data-cards="AS 10H"><span class="card-text">A♠</span> \
<span class="card-text red">10♥</span></span></p>
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from cardplaza.core.cards import CardParseError, Face, face_text, parse_face

# -- card tokens ------------------------------------------------------------------------

CARD_TOKEN = re.compile(r"\{\{\s*cards\s*:([^{}]*)\}\}")
"""A card token ``{{cards: A♠ 10♥}}``; group 1 is the list of cards."""

JOKER_WORD = {"en": "Joker", "ja": "ジョーカー"}


def parse_cards(text: str) -> tuple[Face, ...]:
    """The faces of a card token's list (``"A♠ 10♥ Jo"``); ``CardParseError`` if any
    item is not a card or the list is empty.

    >>> [face_text(f, ascii_only=True) for f in parse_cards(" A♠ 10h  Jo ")]
    ['AS', '10H', 'Jo']
    """
    items = text.split()
    if not items:
        raise CardParseError("a card token needs at least one card")
    return tuple(parse_face(item) for item in items)


def card_tokens(md: str) -> list[tuple[Face, ...]]:
    """The faces of every card token of a page, in order (``CardParseError`` on a bad one)."""
    return [parse_cards(m.group(1)) for m in CARD_TOKEN.finditer(md)]


def is_red(face: Face) -> bool:
    """True for hearts and diamonds."""
    return face[0] is not None and face[0].is_red


# -- inline nodes -----------------------------------------------------------------------


@dataclass(frozen=True)
class Text:
    """Plain text."""

    text: str


@dataclass(frozen=True)
class Code:
    """Inline code."""

    text: str


@dataclass(frozen=True)
class Strong:
    """Strong emphasis."""

    children: tuple[Inline, ...]


@dataclass(frozen=True)
class Em:
    """Emphasis."""

    children: tuple[Inline, ...]


@dataclass(frozen=True)
class Link:
    """A link; ``url`` is ``None`` when the target is not allowed (the label stays)."""

    children: tuple[Inline, ...]
    url: str | None


@dataclass(frozen=True)
class Cards:
    """A card token: its faces, or ``None`` with the raw text if it does not parse."""

    faces: tuple[Face, ...] | None
    raw: str


Inline = Text | Code | Strong | Em | Link | Cards

_INLINE = re.compile(
    r"(?P<code>`(?P<code_body>[^`]+)`)"
    r"|(?P<cards>\{\{\s*cards\s*:(?P<cards_body>[^{}]*)\}\})"
    r"|(?P<link>\[(?P<label>[^\]]+)\]\((?P<url>[^)\s]+)\))"
    r"|(?P<strong>\*\*(?P<strong_body>.+?)\*\*)"
    r"|(?P<em>(?<![\w*])\*(?!\s)(?P<em_body>.+?)(?<!\s)\*(?![\w*]))")
_SAFE_URL = re.compile(r"^(https?:|#|/)")


def parse_inline(text: str) -> tuple[Inline, ...]:
    """Inline nodes of one line of text.

    >>> parse_inline("a **b** {{cards: 9♦}}")
    (Text(text='a '), Strong(children=(Text(text='b'),)), Text(text=' '), \
Cards(faces=((<Suit.DIAMONDS: 2>, <Rank.NINE: 9>),), raw='{{cards: 9♦}}'))
    """
    out: list[Inline] = []
    pos = 0
    for m in _INLINE.finditer(text):
        if m.start() > pos:
            out.append(Text(text[pos:m.start()]))
        pos = m.end()
        if m.group("code") is not None:
            out.append(Code(m.group("code_body")))
        elif m.group("cards") is not None:
            try:
                faces: tuple[Face, ...] | None = parse_cards(m.group("cards_body"))
            except CardParseError:
                faces = None
            out.append(Cards(faces, m.group("cards")))
        elif m.group("link") is not None:
            url = m.group("url")
            out.append(Link(parse_inline(m.group("label")),
                            url if _SAFE_URL.match(url) else None))
        elif m.group("strong") is not None:
            out.append(Strong(parse_inline(m.group("strong_body"))))
        else:
            out.append(Em(parse_inline(m.group("em_body"))))
    if pos < len(text):
        out.append(Text(text[pos:]))
    return tuple(out)


def plain_text(nodes: tuple[Inline, ...], lang: str = "en") -> str:
    """The text of inline nodes without markup (cards as ``A♠ 10♥``).

    >>> plain_text(parse_inline("**Run**: {{cards: A♠ Jo}}"))
    'Run: A♠ Joker'
    """
    parts: list[str] = []
    for n in nodes:
        if isinstance(n, Text | Code):
            parts.append(n.text)
        elif isinstance(n, Strong | Em | Link):
            parts.append(plain_text(n.children, lang))
        elif n.faces is None:
            parts.append(n.raw)
        else:
            parts.append(" ".join(card_label(f, lang) for f in n.faces))
    return "".join(parts)


def card_label(face: Face, lang: str = "en") -> str:
    """Display text of one card: ``A♠``, ``10♥``; the Joker as a word."""
    if face[0] is None:
        return JOKER_WORD.get(lang, JOKER_WORD["en"])
    return face_text(face)


# -- blocks -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Heading:
    """``#`` … ``######``; ``text`` is inline markup."""

    level: int
    text: str


@dataclass(frozen=True)
class Paragraph:
    """Lines joined by spaces; ``text`` is inline markup."""

    text: str


@dataclass(frozen=True)
class ListItem:
    """One list item and the lists nested under it."""

    text: str
    children: tuple[ListBlock, ...] = ()


@dataclass(frozen=True)
class ListBlock:
    """A bulleted or numbered list (``start`` is the first number)."""

    ordered: bool
    items: tuple[ListItem, ...]
    start: int = 1


@dataclass(frozen=True)
class Table:
    """A pipe table; ``align`` per column is ``"left"``, ``"center"``, ``"right"`` or None."""

    head: tuple[str, ...]
    align: tuple[str | None, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Quote:
    """A block quote holding blocks."""

    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class CodeBlock:
    """Fenced code."""

    text: str


@dataclass(frozen=True)
class HorizontalRule:
    """``---``."""


Block = Heading | Paragraph | ListBlock | Table | Quote | CodeBlock | HorizontalRule

_LIST_ITEM = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+(.*)$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_HR = re.compile(r"(-{3,}|\*{3,}|_{3,})")


def _cells(line: str) -> tuple[str, ...]:
    line = line.strip().removeprefix("|").removesuffix("|")
    return tuple(c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line))


def _align(cell: str) -> str | None:
    left, right = cell.startswith(":"), cell.endswith(":")
    if left and right:
        return "center"
    if right:
        return "right"
    return "left" if left else None


def _starts_block(line: str) -> bool:
    s = line.strip()
    return bool(s.startswith(("#", ">", "```", "|")) or _LIST_ITEM.match(line)
                or _HR.fullmatch(s))


def parse(md: str) -> tuple[Block, ...]:
    """The blocks of a Markdown document."""
    lines = md.replace("\r\n", "\n").split("\n")
    out: list[Block] = []
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        stripped = line.strip()
        if not stripped:
            i += 1
            continue
        if stripped.startswith("```"):
            i += 1
            body: list[str] = []
            while i < n and not lines[i].strip().startswith("```"):
                body.append(lines[i])
                i += 1
            out.append(CodeBlock("\n".join(body)))
            i += 1
            continue
        m = _HEADING.match(stripped)
        if m:
            out.append(Heading(len(m.group(1)), m.group(2)))
            i += 1
            continue
        if _HR.fullmatch(stripped):
            out.append(HorizontalRule())
            i += 1
            continue
        if stripped.startswith(">"):
            quote: list[str] = []
            while i < n and lines[i].strip().startswith(">"):
                quote.append(lines[i].strip()[1:].removeprefix(" "))
                i += 1
            out.append(Quote(parse("\n".join(quote))))
            continue
        if stripped.startswith("|") and i + 1 < n and _TABLE_RULE.match(lines[i + 1]):
            head = _cells(stripped)
            align = tuple(_align(c) for c in _cells(lines[i + 1]))
            align = (align + (None,) * len(head))[:len(head)]
            i += 2
            rows: list[tuple[str, ...]] = []
            while i < n and lines[i].strip().startswith("|"):
                cells = _cells(lines[i])
                rows.append((cells + ("",) * len(head))[:max(len(head), len(cells))])
                i += 1
            out.append(Table(head, align, tuple(rows)))
            continue
        if _LIST_ITEM.match(line):
            block, i = _parse_list(lines, i)
            out.append(block)
            continue
        para: list[str] = []
        while i < n and lines[i].strip() and not _starts_block(lines[i]):
            para.append(lines[i].strip())
            i += 1
        out.append(Paragraph(" ".join(para)))
    return tuple(out)


@dataclass
class _Item:
    text: list[str]
    children: list[ListBlock] = field(default_factory=list)


def _parse_list(lines: list[str], i: int) -> tuple[ListBlock, int]:
    first = _LIST_ITEM.match(lines[i])
    assert first is not None
    base = len(first.group(1))
    marker = first.group(2)
    ordered = marker[0].isdigit()
    start = int(marker[:-1]) if ordered else 1
    items: list[_Item] = []
    n = len(lines)
    while i < n:
        m = _LIST_ITEM.match(lines[i])
        if not m or len(m.group(1)) < base:
            break
        if len(m.group(1)) > base:
            sub, i = _parse_list(lines, i)
            if items:
                items[-1].children.append(sub)
            continue
        item = _Item([m.group(3).strip()])
        items.append(item)
        i += 1
        while (i < n and lines[i].strip() and not _LIST_ITEM.match(lines[i])
               and not _starts_block(lines[i])):
            item.text.append(lines[i].strip())
            i += 1
        if i < n and not lines[i].strip():
            j = i
            while j < n and not lines[j].strip():
                j += 1
            nxt = _LIST_ITEM.match(lines[j]) if j < n else None
            if nxt and len(nxt.group(1)) >= base:
                i = j
            else:
                break
    return (ListBlock(ordered, tuple(ListItem(" ".join(it.text), tuple(it.children))
                                     for it in items), start), i)


# -- HTML -------------------------------------------------------------------------------


def slug(text: str) -> str:
    """An id for a heading: lower case, word characters and hyphens (any script)."""
    s = re.sub(r"[^\w\- ]", "", text.lower()).strip()
    s = re.sub(r"\s+", "-", s)
    return s or "section"


def inline_html(nodes: tuple[Inline, ...], lang: str = "en") -> str:
    """HTML of inline nodes (every text escaped)."""
    parts: list[str] = []
    for n in nodes:
        if isinstance(n, Text):
            parts.append(html.escape(n.text, quote=False))
        elif isinstance(n, Code):
            parts.append(f"<code>{html.escape(n.text, quote=False)}</code>")
        elif isinstance(n, Strong):
            parts.append(f"<strong>{inline_html(n.children, lang)}</strong>")
        elif isinstance(n, Em):
            parts.append(f"<em>{inline_html(n.children, lang)}</em>")
        elif isinstance(n, Link):
            label = inline_html(n.children, lang)
            parts.append(label if n.url is None
                         else f'<a href="{html.escape(n.url)}">{label}</a>')
        else:
            parts.append(cards_html(n, lang))
    return "".join(parts)


def cards_html(node: Cards, lang: str = "en") -> str:
    """``<span class="cards" data-cards="AS 10H">`` with each card's text inside."""
    if node.faces is None:
        return html.escape(node.raw, quote=False)
    data = " ".join(face_text(f, ascii_only=True) for f in node.faces)
    inner = " ".join(
        f'<span class="card-text{" red" if is_red(f) else ""}">'
        f"{html.escape(card_label(f, lang), quote=False)}</span>" for f in node.faces)
    return f'<span class="cards" data-cards="{html.escape(data)}">{inner}</span>'


def inline(text: str, lang: str = "en") -> str:
    """HTML of one line of inline markup."""
    return inline_html(parse_inline(text), lang)


def blocks_html(blocks: tuple[Block, ...], lang: str = "en",
                ids: dict[str, int] | None = None) -> str:
    """HTML of parsed blocks; heading ids are unique within one call."""
    ids = {} if ids is None else ids
    out: list[str] = []
    for b in blocks:
        if isinstance(b, Heading):
            nodes = parse_inline(b.text)
            base = slug(plain_text(nodes, lang))
            ids[base] = ids.get(base, 0) + 1
            hid = base if ids[base] == 1 else f"{base}-{ids[base]}"
            out.append(f'<h{b.level} id="{html.escape(hid)}">{inline_html(nodes, lang)}'
                       f"</h{b.level}>")
        elif isinstance(b, Paragraph):
            out.append(f"<p>{inline(b.text, lang)}</p>")
        elif isinstance(b, ListBlock):
            out.append(_list_html(b, lang))
        elif isinstance(b, Table):
            out.append(_table_html(b, lang))
        elif isinstance(b, Quote):
            out.append(f"<blockquote>{blocks_html(b.blocks, lang, ids)}</blockquote>")
        elif isinstance(b, CodeBlock):
            out.append(f"<pre><code>{html.escape(b.text, quote=False)}</code></pre>")
        else:
            out.append("<hr>")
    return "\n".join(out)


def _list_html(b: ListBlock, lang: str) -> str:
    tag = "ol" if b.ordered else "ul"
    start = f' start="{b.start}"' if b.ordered and b.start != 1 else ""
    items = "".join(f"<li>{inline(it.text, lang)}"
                    + "".join(_list_html(c, lang) for c in it.children) + "</li>"
                    for it in b.items)
    return f"<{tag}{start}>{items}</{tag}>"


def _cell(tag: str, text: str, align: str | None, lang: str) -> str:
    # A class, not a style attribute: the page's CSP allows no inline styles.
    cls = f' class="align-{align}"' if align in ("center", "right") else ""
    return f"<{tag}{cls}>{inline(text, lang)}</{tag}>"


def _table_html(b: Table, lang: str) -> str:
    parts = ["<table>"]
    if any(b.head):
        parts.append("<thead><tr>")
        parts += [_cell("th", c, a, lang) for c, a in zip(b.head, b.align, strict=True)]
        parts.append("</tr></thead>")
    parts.append("<tbody>")
    for row in b.rows:
        aligns = b.align + (None,) * (len(row) - len(b.align))
        parts.append("<tr>" + "".join(_cell("td", c, a, lang)
                                      for c, a in zip(row, aligns, strict=False)) + "</tr>")
    parts.append("</tbody></table>")
    return '<div class="table-wrap">' + "".join(parts) + "</div>"


def render(md: str, lang: str = "en") -> str:
    """Render a Markdown document to an HTML fragment (``lang`` names the Joker)."""
    return blocks_html(parse(md), lang)
