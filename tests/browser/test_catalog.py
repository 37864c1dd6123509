"""The front end's texts come from the message catalog: no screen (lobby, options, table and
its drawers, rules, high scores, statistics, a record's replay) shows a catalog key or an
unfilled {placeholder} in either language, and while the catalog is still on its way the
page draws nothing in place of it."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from cp_browser import my_move, new_page, start_from_lobby

from cardplaza.core.history import GameRecord
from cardplaza.core.registry import new_game
from cardplaza.texts.catalog import catalog

pytestmark = pytest.mark.browser

JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
PLACEHOLDER = re.compile(r"\{[A-Za-z_]\w*\}")
# Dotted keys only: a bare word such as "yes" may well be part of a text.
KEYS = sorted((k for k in catalog("en") if "." in k), key=len, reverse=True)
RAW_KEY = re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, KEYS)) + r")(?![\w.])")

SCREEN_TEXT = """async () => {
  const parts = [document.body.innerText];
  for (const e of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]'))
    for (const a of ['aria-label', 'title', 'placeholder', 'alt'])
      if (e.getAttribute(a)) parts.push(e.getAttribute(a));
  for (const tab of document.querySelectorAll('.tabs .tab')) {
    tab.click();
    await new Promise(r => requestAnimationFrame(r));
    parts.push(document.querySelector('.drawer-body')?.innerText ?? '');
  }
  parts.push(document.title);
  return parts.join('\\n');
}"""


def problems(text: str) -> list[str]:
    """Catalog keys and unfilled placeholders in a screen's text."""
    return sorted({m.group(0) for m in RAW_KEY.finditer(text)}
                  | {m.group(0) for m in PLACEHOLDER.finditer(text)})


def record_file(tmp: Path) -> Path:
    """A finished E-fuda-tori game, saved as a record file."""
    state = new_game("efudatori", seed=3)
    rng = random.Random(3)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    path = tmp / "efudatori.json"
    GameRecord.of(state).save(path)
    return path


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_no_screen_shows_a_key(browser: Any, server: str, locale: str, tmp_path: Path) -> None:
    page = new_page(browser, 1280, 800, locale=locale)
    seen: dict[str, str] = {}

    def look(name: str) -> None:
        text = page.evaluate(SCREEN_TEXT)
        seen[name] = text
        assert not problems(text), (name, problems(text))
        if locale == "ja-JP":
            assert JAPANESE.search(text), (name, text[:300])

    try:
        page.goto(f"{server}/#/")
        page.wait_for_selector(".game-list")
        look("lobby")
        page.goto(f"{server}/#/game/pinochle4")
        page.wait_for_selector("#start-btn")
        page.click("details.more summary")
        look("options")
        page.goto(f"{server}/#/rules/piquet")
        page.wait_for_selector("article.rules")
        look("rules")
        # (each page is looked at once it is drawn: a page still loading would draw over
        # the next one)
        page.goto(f"{server}/#/scores")
        page.wait_for_selector("main table.scores")
        look("scores")
        page.goto(f"{server}/#/stats")
        page.wait_for_selector("#stats-h")
        look("stats")
        page.goto(f"{server}/#/")
        page.set_input_files("#record-file", str(record_file(tmp_path)))
        page.wait_for_selector(".replay-view[data-replay-step='0']")
        page.keyboard.press("End")
        look("replay")
        start_from_lobby(page, server, "pinochle4", {"target": 500, "strength": "weak"}, seed=2)
        for _ in range(3):
            page.wait_for_selector(".table-view[data-my-turn='1']")
            look(f"table step {page.get_attribute('.table-view', 'data-step')}")
            my_move(page)
        page.click("#hint-btn")
        page.wait_for_selector(".learn-hint")
        look("hint")
        assert len(seen) >= 10
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()


WATCH = """
window.__texts = [];
new MutationObserver(() => { if (document.body) window.__texts.push(document.body.innerText); })
  .observe(document, { childList: true, subtree: true, characterData: true });
"""


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_nothing_is_drawn_before_the_texts_arrive(browser: Any, server: str,
                                                  locale: str) -> None:
    """The catalog is held back for a while: every state of the page meanwhile and after
    shows texts, never keys (the modules wait for the catalog before drawing)."""
    page = new_page(browser, 1280, 800, locale=locale)
    asked: list[str] = []

    def slow(route: Any) -> None:
        asked.append(route.request.url)
        time.sleep(0.6)
        route.continue_()

    try:
        page.context.add_init_script(WATCH)
        page.route("**/api/catalog/*", slow)
        page.goto(f"{server}/#/")
        page.wait_for_selector(".game-list")
        texts: list[str] = page.evaluate("window.__texts")
        assert texts, "the page was never drawn"
        bad = sorted({p for text in texts for p in problems(text)})
        assert not bad, bad
        lang = "ja" if locale == "ja-JP" else "en"
        assert [u.rsplit("/", 1)[1] for u in asked] == [lang]
        assert catalog(lang)["lobby.choose"] in texts[-1]
        # Switching loads the other language once, then draws in it.
        page.click("#lang-btn")
        other = "en" if lang == "ja" else "ja"
        page.wait_for_function("l => document.documentElement.lang === l", arg=other)
        page.wait_for_function("t => document.body.innerText.includes(t)",
                               arg=catalog(other)["lobby.choose"])
        assert [u.rsplit("/", 1)[1] for u in asked] == [lang, other]
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()
