"""A small Markdown-to-HTML renderer for the rule pages.

Supports headings, paragraphs, ``-``/``*``/``1.`` lists (one nesting level by indent),
pipe tables, block quotes, fenced code, horizontal rules and inline ``code``,
``**strong**``, ``*em*`` and ``[links](url)``. All text is HTML-escaped first.

>>> render("# Title\\n\\nSome **bold** `x<y`.")
'<h1 id="title">Title</h1>\\n<p>Some <strong>bold</strong> <code>x&lt;y</code>.</p>'
"""

from __future__ import annotations

import html
import re

_INLINE_CODE = re.compile(r"`([^`]+)`")
_STRONG = re.compile(r"\*\*(.+?)\*\*")
_EM = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_LIST_ITEM = re.compile(r"^(\s*)([-*+]|\d+[.)])\s+(.*)$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")


def _slug(text: str) -> str:
    slug = re.sub(r"[^\w\- ]", "", text.lower()).strip().replace(" ", "-")
    return slug or "section"


def inline(text: str) -> str:
    """Render inline markup of one line of text (escaping everything else)."""
    codes: list[str] = []

    def keep(m: re.Match[str]) -> str:
        codes.append(f"<code>{html.escape(m.group(1), quote=False)}</code>")
        return f"\x00{len(codes) - 1}\x00"

    text = _INLINE_CODE.sub(keep, text)
    text = html.escape(text, quote=False)
    text = _STRONG.sub(r"<strong>\1</strong>", text)
    text = _EM.sub(r"<em>\1</em>", text)

    def link(m: re.Match[str]) -> str:
        url = m.group(2)
        if not re.match(r"^(https?:|#|/)", url):
            return m.group(1)
        return f'<a href="{html.escape(url)}">{m.group(1)}</a>'

    text = _LINK.sub(link, text)
    return re.sub("\x00(\\d+)\x00", lambda m: codes[int(m.group(1))], text)


def _cells(line: str) -> list[str]:
    line = line.strip()
    line = line.removeprefix("|")
    line = line.removesuffix("|")
    return [c.strip() for c in re.split(r"(?<!\\)\|", line)]


def render(md: str) -> str:
    """Render a Markdown document to an HTML fragment."""
    lines = md.replace("\r\n", "\n").split("\n")
    out: list[str] = []
    i = 0
    n = len(lines)
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
            i += 1
            out.append("<pre><code>" + html.escape("\n".join(body), quote=False)
                       + "</code></pre>")
            continue
        m = _HEADING.match(stripped)
        if m:
            level = len(m.group(1))
            out.append(f'<h{level} id="{_slug(m.group(2))}">{inline(m.group(2))}</h{level}>')
            i += 1
            continue
        if re.fullmatch(r"(-{3,}|\*{3,}|_{3,})", stripped):
            out.append("<hr>")
            i += 1
            continue
        if stripped.startswith(">"):
            quote: list[str] = []
            while i < n and lines[i].strip().startswith(">"):
                quote.append(lines[i].strip()[1:].removeprefix(" "))
                i += 1
            out.append("<blockquote>" + render("\n".join(quote)) + "</blockquote>")
            continue
        if stripped.startswith("|") and i + 1 < n and _TABLE_RULE.match(lines[i + 1]):
            head = _cells(stripped)
            i += 2
            rows: list[list[str]] = []
            while i < n and lines[i].strip().startswith("|"):
                rows.append(_cells(lines[i]))
                i += 1
            parts = ["<table><thead><tr>"]
            parts += [f"<th>{inline(c)}</th>" for c in head]
            parts.append("</tr></thead><tbody>")
            for r in rows:
                parts.append("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in r) + "</tr>")
            parts.append("</tbody></table>")
            out.append('<div class="table-wrap">' + "".join(parts) + "</div>")
            continue
        if _LIST_ITEM.match(line):
            i = _render_list(lines, i, out)
            continue
        para: list[str] = []
        while i < n and lines[i].strip() and not _starts_block(lines, i):
            para.append(lines[i].strip())
            i += 1
        out.append("<p>" + inline(" ".join(para)) + "</p>")
    return "\n".join(out)


def _starts_block(lines: list[str], i: int) -> bool:
    s = lines[i].strip()
    return bool(s.startswith(("#", ">", "```", "|")) or _LIST_ITEM.match(lines[i])
                or re.fullmatch(r"(-{3,}|\*{3,}|_{3,})", s))


def _render_list(lines: list[str], i: int, out: list[str]) -> int:
    first = _LIST_ITEM.match(lines[i])
    assert first is not None
    base = len(first.group(1))
    ordered = first.group(2)[0].isdigit()
    tag = "ol" if ordered else "ul"
    items: list[str] = []
    n = len(lines)
    while i < n:
        m = _LIST_ITEM.match(lines[i])
        if not m or len(m.group(1)) < base:
            break
        if len(m.group(1)) > base:
            sub: list[str] = []
            i = _render_list(lines, i, sub)
            if items:
                items[-1] += "".join(sub)
            continue
        text = [m.group(3).strip()]
        i += 1
        while (i < n and lines[i].strip() and not _LIST_ITEM.match(lines[i])
               and not _starts_block(lines, i)):
            text.append(lines[i].strip())
            i += 1
        items.append(inline(" ".join(text)))
        if i < n and not lines[i].strip():
            j = i
            while j < n and not lines[j].strip():
                j += 1
            nxt = _LIST_ITEM.match(lines[j]) if j < n else None
            if nxt and len(nxt.group(1)) >= base:
                i = j
            else:
                break
    out.append(f"<{tag}>" + "".join(f"<li>{it}</li>" for it in items) + f"</{tag}>")
    return i
