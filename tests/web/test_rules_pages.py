"""Rule pages: the Markdown renderer and the rules endpoint in both languages."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from cardplaza.core.registry import games
from cardplaza.texts.markdown import render


def test_markdown_blocks_and_inline() -> None:
    md = ("# Title\n\nText with **bold**, *em*, `a<b` and [link](https://x.org).\n\n"
          "- one\n- two\n  - nested\n\n1. first\n2. second\n\n"
          "| A | B |\n|---|---|\n| 1 | 2 |\n\n> **DECISION** quoted\n\n---\n\n"
          "```\ncode <x>\n```\n")
    # Line breaks the writer puts between tags are not part of what is checked.
    html = re.sub(r"\s*\n\s*", "", render(md))
    assert '<h1 id="title">Title</h1>' in html
    assert "<strong>bold</strong>" in html and "<em>em</em>" in html
    assert "<code>a&lt;b</code>" in html
    assert '<a href="https://x.org">link</a>' in html
    assert "<ul><li>one</li><li>two<ul><li>nested</li></ul></li></ul>" in html
    assert "<ol><li>first</li><li>second</li></ol>" in html
    assert "<th>A</th>" in html and "<td>2</td>" in html
    assert "<blockquote><p><strong>DECISION</strong> quoted</p></blockquote>" in html
    assert "<hr>" in html
    assert "<pre><code>code &lt;x&gt;</code></pre>" in html


def test_markdown_escapes_html_and_unsafe_links() -> None:
    html = render("<script>alert(1)</script> [x](javascript:alert(1))")
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "javascript:" not in html


def test_no_raw_html_images_autolinks_or_unsafe_reference_links() -> None:
    html = render("[a](JavaScript:x) [b][r] ![pic](/x.png) <https://e.org>\n\n"
                  "[r]: vbscript:y\n\n<div onclick=x>hi</div>\n")
    assert "javascript" not in html.lower() and "vbscript" not in html
    assert "<img" not in html and "<div" not in html
    assert html.count("href") == 1 and '!<a href="/x.png">pic</a>' in html  # no images
    assert "&lt;div onclick=x&gt;hi&lt;/div&gt;" in html and "&lt;https://e.org&gt;" in html
    assert html.startswith("<p>a b !")  # the labels stay as text
    assert '<a href="#/rules/piquet">Piquet</a>' in render("[Piquet](#/rules/piquet)")


def test_emphasis_next_to_japanese_punctuation() -> None:
    html = render("**レベル5（達人）**は強い。ヤンガーが**「何点？」**と聞く。\n\n"
                  "**引き方の例。**4人で遊ぶ。")
    assert "**" not in html
    assert ("<strong>レベル5（達人）</strong>は" in html and "<strong>「何点？」</strong>と" in html
            and "<strong>引き方の例。</strong>4人" in html)
    # Between English words CommonMark's rules still apply.
    assert "<strong>" not in render("2 ** 3 ** 4")


def test_numbers_in_a_paragraph_and_tables_without_headings() -> None:
    html = render("You may not bid 260 or\n265. With 1-point counting\n\n"
                  "| | |\n|---|---|\n| a | b |\n")
    assert "<ol" not in html and "260 or\n265. With" in html
    assert "<thead>" not in html and "<td>a</td>" in html


def test_card_tokens_become_card_spans_with_readable_text() -> None:
    html = render("Lead {{cards: A♠ 10♥ Jo}} now", "ja")
    assert ('<span class="cards" data-cards="AS 10H Jo"><span class="card-text">A♠</span> '
            '<span class="card-text red">10♥</span> <span class="card-text">ジョーカー</span>'
            "</span>") in html
    assert render("{{cards: Jo}}", "en").count("Joker") == 1
    # Not a card: left as escaped text, never markup.
    bad = render("{{cards: <b>X</b>}} {{cards: }}")
    assert "<b>" not in bad and "&lt;b&gt;" in bad and "data-cards" not in bad


def test_table_alignment_and_escaped_pipes() -> None:
    html = render("| Meld | Points |\n|:---|---:|\n| a \\| b | 150 |\n")
    assert '<th class="align-right">Points</th>' in html
    assert '<td class="align-right">150</td>' in html
    assert "<td>a | b</td>" in html


def test_heading_ids_are_unique_and_keep_japanese() -> None:
    html = render("## 得点\n\n## 得点\n")
    assert '<h2 id="得点">' in html and '<h2 id="得点-2">' in html


def test_rules_for_every_game_in_both_languages(client: TestClient) -> None:
    for game in games():
        if game == "toy":
            continue
        en = client.get(f"/api/rules/{game}?lang=en").json()
        ja = client.get(f"/api/rules/{game}?lang=ja-JP").json()
        assert en["lang"] == "en" and "<h1" in en["html"]
        assert ja["lang"] == "ja" and "<h1" in ja["html"]
        assert any(term in ja["html"] for term in ("切り札", "台札", "メルド", "トリック"))
    assert client.get("/api/rules/no-such-game").status_code == 404
    assert client.get("/api/rules/toy").json()["code"] == "no_rules"


def test_player_pages_are_served(client: TestClient) -> None:
    for game in [g for g in games() if g != "toy"]:
        for lang in ("en", "ja"):
            html = client.get(f"/api/rules/{game}?lang={lang}").json()["html"]
            assert "DECISION" not in html and "specification" not in html.lower()
            assert "<table>" in html and 'class="cards"' in html and "{{" not in html
