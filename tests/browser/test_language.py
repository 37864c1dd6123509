"""A language switch in the middle of a game re-draws every text of the table: nothing of
the other language is left (checked against both languages of the message catalog), meld
names included."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from cp_browser import my_move, new_page, shot, start_from_lobby

pytestmark = pytest.mark.browser

JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff60]")

TABLE_TEXT = """async () => {
  const parts = [];
  const text = () => {
    const root = document.querySelector('.table-view').cloneNode(true);
    for (const e of root.querySelectorAll('.lang-toggle')) e.remove();
    return root.innerText;
  };
  parts.push(text());
  for (const tab of document.querySelectorAll('.tabs .tab')) {
    tab.click();
    await new Promise(r => requestAnimationFrame(r));
    parts.push(document.querySelector('.drawer-body')?.innerText ?? '');
  }
  return parts.join('\\n');
}"""

DICTIONARIES = """async () => {
  const m = await import('/static/i18n.js');
  return m.dictionaries();
}"""


def english_phrases(dicts: dict[str, Any]) -> set[str]:
    """Words and phrases of the English texts that the Japanese texts say differently."""
    out: set[str] = set()
    en, ja = dicts["en"], dicts["ja"]
    for key, value in en.items():
        if ja.get(key) == value:
            continue
        for part in re.split(r"\{[^}]*\}", value):
            part = part.strip(" :·—–-()/.,?!…+")
            if sum(ch.isalpha() for ch in part) >= 3 and re.search(r"[A-Za-z]{3}", part):
                out.add(part)
    return out


def melds(texts: dict[str, str]) -> set[str]:
    return {v for k, v in texts.items() if k.startswith("meld.")}


def test_language_switch_mid_game_leaves_no_other_language(browser: Any, server: str) -> None:
    page = new_page(browser, 1280, 800)
    try:
        # Deal 2: the human names trump, passes to the partner, and the melds are shown.
        start_from_lobby(page, server, "pinochle4", {"target": 500, "strength": "weak"}, seed=2)
        for _ in range(8):
            page.wait_for_selector(".table-view[data-my-turn='1']")
            if page.get_attribute(".table-view", "data-ask") == "play":
                break
            my_move(page)
        page.wait_for_selector(".table-view[data-ask='play']")
        my_move(page)
        page.wait_for_selector(".table-view[data-my-turn='1']")
        dicts = page.evaluate(DICTIONARIES)
        english = english_phrases(dicts)
        assert len(english) > 300
        before = page.evaluate(TABLE_TEXT)
        assert not JAPANESE.search(before), JAPANESE.search(before)
        page.click(".table-bar .lang-toggle")
        page.wait_for_function("() => document.documentElement.lang === 'ja'")
        text = page.evaluate(TABLE_TEXT)
        left = sorted(p for p in english
                      if re.search(rf"(?<![A-Za-z]){re.escape(p)}(?![A-Za-z])", text))
        assert not left, f"English left on the Japanese table: {left}"
        melds_en = melds(dicts["en"])
        assert not [m for m in melds_en if re.search(rf"\b{re.escape(m)}\b", text)]
        assert any(v in text for v in melds(dicts["ja"])), "no meld named on the table"
        shot(page, "language_switched_ja_1280x800", full_page=False)
        page.click(".table-bar .lang-toggle")
        page.wait_for_function("() => document.documentElement.lang === 'en'")
        back = page.evaluate(TABLE_TEXT)
        assert not JAPANESE.search(back), JAPANESE.search(back)
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()


def test_server_errors_reach_the_lobby_in_japanese(browser: Any, server: str) -> None:
    page = new_page(browser, 360, 740, locale="ja-JP")
    try:
        def bad_level(route: Any) -> None:
            body = json.loads(route.request.post_data or "{}")
            body["level"] = "grandmaster"
            route.continue_(post_data=json.dumps(body))

        page.route("**/api/tables", bad_level)
        page.goto(f"{server}/#/game/piquet")
        page.click("#start-btn")
        page.wait_for_selector(".options .error:not(:empty)")
        text = page.inner_text(".options .error")
        assert "そのコンピュータのレベルはありません" in text
        assert not re.search(r"[A-Za-z]{4}", text), text
        shot(page, "lobby_error_ja_360x740", full_page=False)
    finally:
        page.context.close()


SINGULAR = """async () => {
  const m = await import('/static/i18n.js');
  const out = {};
  for (const l of ['en', 'ja']) {
    await m.setLang(l);
    out[l] = [m.t('seat.tricks', { n: 1 }), m.t('seat.tricks', { n: 2 }),
              m.t('ef.sets', { n: 1 }), m.t('eng.pq.ev.pique')];
  }
  return out;
}"""


def test_a_count_of_one_is_singular_in_the_page(browser: Any, server: str) -> None:
    """The page's ``t`` picks the singular form for a count of one, as the server does:
    "1 trick" (never "1 tricks"); a Piquet deal's bonus has its name in both languages."""
    page = new_page(browser, 360, 740)
    try:
        page.goto(f"{server}/")
        got = page.evaluate(SINGULAR)
        assert got["en"] == ["1 trick", "2 tricks", "1 K-Q-J set", "Pique"]
        assert got["ja"][0] == "1トリック" and got["ja"][1] == "2トリック"
        assert all(JAPANESE.search(x) for x in got["ja"]), got["ja"]
    finally:
        page.context.close()
