"""Cut-throat's bid winner holds eighteen cards (fifteen and the widow) when choosing what
to bury: on a phone each shows enough of itself to be touched, and a tap in the middle of
what shows of a card chooses that card and no neighbour, in both languages."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from cp_browser import my_move, new_page, next_frame, shot, start_from_lobby

pytestmark = pytest.mark.browser

SPOTS_JS = (Path(__file__).resolve().parent / "card_spots.js").read_text(encoding="utf-8")
TOUCH = 28
"""Pixels of a card's face a fingertip needs, across and down."""
WEAK = {"target": 500, "strength": "weak"}


def _set_language(page: Any, lang: str) -> None:
    page.evaluate("l => import('/static/i18n.js').then(m => m.setLang(l))", lang)
    page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
    next_frame(page)


def _tap_every_card(page: Any, lang: str) -> int:
    count = page.locator(".hand .card").count()
    spots = page.evaluate(SPOTS_JS)
    narrow = [(i, s["width"], s["height"]) for i, s in enumerate(spots)
              if s["width"] < TOUCH or s["height"] < TOUCH]
    assert not narrow, f"{lang}: cards showing less than {TOUCH} px: {narrow}"
    for i, s in enumerate(spots):
        page.mouse.click(s["x"], s["y"])
        page.wait_for_function("i => document.querySelectorAll('.hand .card')[i]"
                               "?.getAttribute('aria-pressed') === 'true'", arg=i)
        pressed = page.eval_on_selector_all(
            ".hand .card", "els => els.map(e => e.getAttribute('aria-pressed'))")
        assert pressed == ["true" if k == i else "false" for k in range(count)], (lang, i)
        page.click("#pick-clear")
        page.wait_for_selector(".hand .card.selected", state="detached")
    return count


def test_eighteen_cards_each_chosen_by_a_tap_in_its_middle(browser: Any, server: str) -> None:
    page = new_page(browser, 360, 740)
    try:
        start_from_lobby(page, server, "pinochle3", WEAK, seed=1)
        deadline = time.time() + 120
        while time.time() < deadline:
            page.wait_for_selector(".table-view[data-my-turn='1'], #continue-btn, .dialog.end")
            assert not page.query_selector(".dialog.end"), "the game ended before a bury"
            if page.query_selector("#continue-btn"):
                page.click("#continue-btn")
                continue
            if page.get_attribute(".table-view", "data-ask") == "discard":
                break
            assert my_move(page)
        assert page.get_attribute(".table-view", "data-ask") == "discard"
        for lang in ("en", "ja"):
            _set_language(page, lang)
            assert _tap_every_card(page, lang) == 18
            shot(page, f"cutthroat_bury_18_{lang}_360x740", full_page=False)
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()
