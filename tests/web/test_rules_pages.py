"""Rule pages: the Markdown renderer and the rules endpoint in both languages."""

from __future__ import annotations

from fastapi.testclient import TestClient

from cardplaza.web.markdown import render


def test_markdown_blocks_and_inline() -> None:
    md = ("# Title\n\nText with **bold**, *em*, `a<b` and [link](https://x.org).\n\n"
          "- one\n- two\n  - nested\n\n1. first\n2. second\n\n"
          "| A | B |\n|---|---|\n| 1 | 2 |\n\n> **DECISION** quoted\n\n---\n\n"
          "```\ncode <x>\n```\n")
    html = render(md)
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


def test_rules_for_every_game_in_both_languages(client: TestClient) -> None:
    for game in ("pinochle2", "pinochle4", "pinochle3", "piquet", "efudatori"):
        en = client.get(f"/api/rules/{game}?lang=en").json()
        ja = client.get(f"/api/rules/{game}?lang=ja").json()
        assert en["lang"] == "en" and "<h1" in en["html"] and "<table>" in en["html"]
        assert ja["lang"] == "ja" and "<h1" in ja["html"]
        assert any(term in ja["html"] for term in ("切り札", "台札", "メルド", "トリック"))
    assert client.get("/api/rules/no-such-game").status_code == 404
