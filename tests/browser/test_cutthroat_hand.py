"""Cut-throat's bid winner holds eighteen cards (fifteen and the widow) when choosing what
to bury: on a phone each shows enough of itself to be touched, and a tap in the middle of
what shows of a card chooses that card and no neighbour, in both languages."""

from __future__ import annotations

import time
from typing import Any

import pytest
from cp_browser import my_move, new_page, set_language, shot, start_from_lobby, tap_every_card

pytestmark = pytest.mark.browser

WEAK = {"target": 500, "strength": "weak"}


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
            set_language(page, lang)
            assert tap_every_card(page, lang) == 18
            shot(page, f"cutthroat_bury_18_{lang}_360x740", full_page=False)
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()
