"""Markdown of the rules pages, read by markdown-it-py (CommonMark and pipe tables) with
one plugin of ours, :func:`cardplaza_plugin`:

- card tokens ``{{cards: A♠ 10♥ K♦}}`` become ``cards`` tokens; in HTML a
  ``<span class="cards" data-cards="AS 10H KD">`` holding the cards as text (``♥ ♦`` in a
  red span), which the front end draws as card faces; a token whose list is not all
  cards stays as its text;
- headings get ids from their text, unique within a page (any script);
- table cells are aligned by a class (``align-right``), not a style attribute (the
  page's CSP allows no inline styles), a table sits in ``<div class="table-wrap"
  tabindex="0">`` (it scrolls sideways by keyboard too), and a table whose heading cells
  are all empty has no header row;
- links go only to ``http(s):``, ``/`` and ``#`` addresses; any other link keeps its
  label as plain text;
- emphasis may open or close next to Japanese text and full-width punctuation
  (``**レベル5（達人）**は``), where CommonMark's rules alone would leave the asterisks.

Raw HTML is never passed through: it is escaped like any text. Lines ``{{include: name}}``
are replaced before reading (:mod:`.rulepages`). The terminal draws the same tokens
(``cardplaza.cli.rules``).

>>> render("# Title\\n\\nSome **bold** `x<y`.")
'<h1 id="title">Title</h1>\\n<p>Some <strong>bold</strong> <code>x&lt;y</code>.</p>\\n'
>>> print(render("{{cards: A♠ 10♥}}"))
<p><span class="cards" data-cards="AS 10H"><span class="card-text">A♠</span> \
<span class="card-text red">10♥</span></span></p>
<BLANKLINE>
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Sequence

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.rules_inline.emphasis import tokenize as emphasis_tokenize
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

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


def card_label(face: Face, lang: str = "en") -> str:
    """Display text of one card: ``A♠``, ``10♥``; the Joker as a word."""
    if face[0] is None:
        return JOKER_WORD.get(lang, JOKER_WORD["en"])
    return face_text(face)


def token_faces(token: Token) -> tuple[Face, ...]:
    """The faces of a ``cards`` token."""
    faces: tuple[Face, ...] = token.meta["faces"]
    return faces


# -- the plugin -------------------------------------------------------------------------

_SAFE_URL = re.compile(r"^(https?:|#|/)")


def _cards_rule(state: StateInline, silent: bool) -> bool:
    """``{{cards: …}}`` → a ``cards`` token, or its text if the list is not all cards."""
    m = CARD_TOKEN.match(state.src, state.pos, state.posMax)
    if m is None:
        return False
    if not silent:
        try:
            faces = parse_cards(m.group(1))
        except CardParseError:
            state.push("text", "", 0).content = m.group(0)
        else:
            token = state.push("cards", "span", 0)
            token.content = m.group(0)
            token.meta = {"faces": faces}
    state.pos = m.end()
    return True


def _east_asian(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def _emphasis_rule(state: StateInline, silent: bool) -> bool:
    """CommonMark's ``*``/``_`` delimiters; a ``*`` run with Japanese text or full-width
    punctuation on either side may also open (unless a space follows) and close (unless a
    space precedes), as a ``*`` inside an English word may."""
    start, first = state.pos, len(state.delimiters)
    if not emphasis_tokenize(state, silent):
        return False
    if state.src[start] == "*":
        before = state.src[start - 1] if start > 0 else " "
        after = state.src[state.pos] if state.pos < state.posMax else " "
        if _east_asian(before) or _east_asian(after):
            for d in state.delimiters[first:]:
                d.open = d.open or not after.isspace()
                d.close = d.close or not before.isspace()
    return True


def slug(text: str) -> str:
    """An id for a heading: lower case, word characters and hyphens (any script)."""
    s = re.sub(r"[^\w\- ]", "", text.lower()).strip()
    s = re.sub(r"\s+", "-", s)
    return s or "section"


def plain_text(tokens: Sequence[Token] | None, lang: str = "en") -> str:
    """The text of inline tokens without markup (cards as ``A♠ 10♥``).

    >>> plain_text(inline_tokens("**Run**: {{cards: A♠ Jo}}"))
    'Run: A♠ Joker'
    """
    parts: list[str] = []
    for t in tokens or ():
        if t.type in ("text", "code_inline"):
            parts.append(t.content)
        elif t.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif t.type == "cards":
            parts.append(" ".join(card_label(f, lang) for f in token_faces(t)))
    return "".join(parts)


def _page_rule(state: StateCore) -> None:
    """Heading ids, table alignment classes, and links to allowed addresses only."""
    lang = state.env.get("lang", "en")
    ids: dict[str, int] = state.env.setdefault("heading_ids", {})
    state.tokens = _without_empty_heads(state.tokens)
    for i, token in enumerate(state.tokens):
        if token.type == "heading_open":
            base = slug(plain_text(state.tokens[i + 1].children, lang))
            ids[base] = ids.get(base, 0) + 1
            token.attrSet("id", base if ids[base] == 1 else f"{base}-{ids[base]}")
        elif token.type in ("th_open", "td_open"):
            style = str(token.attrs.pop("style", ""))
            align = style.removeprefix("text-align:")
            if align in ("center", "right"):
                token.attrSet("class", f"align-{align}")
        elif token.type == "inline" and token.children:
            token.children = _safe_links(token.children)


def _without_empty_heads(tokens: list[Token]) -> list[Token]:
    """The tokens less every table header row whose cells are all empty."""
    out: list[Token] = []
    skip_to = -1
    for i, token in enumerate(tokens):
        if token.type == "thead_open":
            end = next(k for k in range(i, len(tokens)) if tokens[k].type == "thead_close")
            if not any(t.content.strip() for t in tokens[i:end] if t.type == "inline"):
                skip_to = end
        if i > skip_to:
            out.append(token)
    return out


def _safe_links(children: list[Token]) -> list[Token]:
    out: list[Token] = []
    dropped = 0
    for t in children:
        if t.type == "link_open" and not _SAFE_URL.match(str(t.attrGet("href") or "")):
            dropped += 1
            continue
        if t.type == "link_close" and dropped:
            dropped -= 1
            continue
        out.append(t)
    return out


def _render_cards(self: RendererHTML, tokens: Sequence[Token], idx: int,
                  options: OptionsDict, env: EnvType) -> str:
    faces = token_faces(tokens[idx])
    lang = env.get("lang", "en")
    data = " ".join(face_text(f, ascii_only=True) for f in faces)
    inner = " ".join(
        f'<span class="card-text{" red" if is_red(f) else ""}">'
        f"{html.escape(card_label(f, lang), quote=False)}</span>" for f in faces)
    return f'<span class="cards" data-cards="{html.escape(data)}">{inner}</span>'


def _render_table_open(self: RendererHTML, tokens: Sequence[Token], idx: int,
                       options: OptionsDict, env: EnvType) -> str:
    return '<div class="table-wrap" tabindex="0">' + self.renderToken(tokens, idx, options, env)


def _render_table_close(self: RendererHTML, tokens: Sequence[Token], idx: int,
                        options: OptionsDict, env: EnvType) -> str:
    return self.renderToken(tokens, idx, options, env) + "</div>\n"


def cardplaza_plugin(md: MarkdownIt) -> None:
    """Card tokens, heading ids, CSP-safe table alignment, allowed links and emphasis
    next to Japanese text (see the module's doc)."""
    md.inline.ruler.before("text", "cards", _cards_rule)
    md.inline.ruler.at("emphasis", _emphasis_rule)
    md.core.ruler.after("inline", "cardplaza_page", _page_rule)
    md.add_render_rule("cards", _render_cards)
    md.add_render_rule("table_open", _render_table_open)
    md.add_render_rule("table_close", _render_table_close)


class _Reader(MarkdownIt):
    def validateLink(self, url: str) -> bool:  # noqa: N802 (the library's name)
        """Every link is read; :func:`_page_rule` unlinks the ones not allowed, keeping
        their labels (CommonMark would leave the whole ``[label](url)`` as text)."""
        return True


def make_reader() -> MarkdownIt:
    """CommonMark with pipe tables, no raw HTML, no images or autolinks, and our plugin."""
    md = _Reader("commonmark", {"html": False, "xhtmlOut": False})
    md.enable("table")
    md.disable(["html_inline", "html_block", "image", "autolink"])
    md.use(cardplaza_plugin)
    return md


READER = make_reader()


def parse(md: str, lang: str = "en") -> list[Token]:
    """The token stream of a page (``lang`` names the Joker in heading ids)."""
    return READER.parse(md, {"lang": lang})


def inline_tokens(text: str, lang: str = "en") -> list[Token]:
    """The inline tokens of one line of text."""
    tokens = READER.parseInline(text, {"lang": lang})
    return tokens[0].children or [] if tokens else []


def render(md: str, lang: str = "en") -> str:
    """Render a Markdown page to an HTML fragment (``lang`` names the Joker)."""
    out: str = READER.render(md, {"lang": lang})
    return out
