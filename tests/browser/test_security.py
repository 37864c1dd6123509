"""The front end works under the server's Content-Security-Policy (no script or style
refused anywhere), and each browser gets its own secret player key."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from cp_browser import new_page, play_to_end, start_from_lobby

pytestmark = pytest.mark.browser

WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
"""


def watched(browser: Any) -> tuple[Any, list[str]]:
    pg = new_page(browser)
    pg.add_init_script(WATCH)
    console: list[str] = []
    pg.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    return pg, console


def violations(pg: Any) -> list[str]:
    found: list[str] = pg.evaluate("() => window.__csp || []")
    return found


def test_pages_run_under_the_csp(browser: Any, server: str) -> None:
    headers = httpx.get(f"{server}/").headers
    assert "script-src 'self'" in headers["content-security-policy"]
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"
    pg, console = watched(browser)
    try:
        for route, selector in (("#/", ".game-list"), ("#/game/pinochle4", "#start-btn"),
                                ("#/rules/piquet", "article.rules"),
                                ("#/scores", "table.scores")):
            pg.goto(f"{server}/{route}")
            pg.wait_for_selector(selector)
        start_from_lobby(pg, server, "piquet", {"four_deals": True, "__level": "1"})
        play_to_end(pg)
        assert pg.locator(".dialog.end .verdict").is_visible()
        pg.goto(f"{server}/#/rules/efudatori")
        pg.wait_for_selector("article.rules")
        pg.click("#lang-btn")
        pg.wait_for_selector("article.rules[lang=ja]")
        assert violations(pg) == []
        assert not [c for c in console if "Content Security Policy" in c], console
        # The watch itself works: an inline style attribute is refused and reported.
        pg.evaluate("() => { const d = document.createElement('div');"
                    " d.setAttribute('style', 'color: red'); document.body.append(d); }")
        pg.wait_for_function("() => window.__csp.length > 0")
        assert any("style-src" in v for v in violations(pg))
    finally:
        pg.context.close()


def test_each_browser_gets_a_player_key(browser: Any, server: str) -> None:
    keys = []
    for _ in range(2):
        pg = new_page(browser)
        try:
            pg.goto(f"{server}/#/")
            pg.wait_for_function("() => localStorage.getItem('cardplaza.key')")
            key = pg.evaluate("() => localStorage.getItem('cardplaza.key')")
            pg.reload()
            pg.wait_for_selector(".game-list")
            assert pg.evaluate("() => localStorage.getItem('cardplaza.key')") == key
            keys.append(key)
            me = httpx.get(f"{server}/api/me", headers={"X-Player-Key": key})
            assert me.status_code == 200 and me.json()["tag"]
        finally:
            pg.context.close()
    assert keys[0] != keys[1] and all(len(k) >= 32 for k in keys)
