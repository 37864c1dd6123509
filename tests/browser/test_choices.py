"""Choices the player makes are kept: pace and lobby options survive a reload; the
cut-throat discard is picked, can be un-picked, and goes only on confirmation."""

from __future__ import annotations

from typing import Any

import pytest
from cp_browser import click, my_move, new_page, shot, start_from_lobby, step_of

pytestmark = pytest.mark.browser


def open_settings(page: Any) -> None:
    page.click(".tab[data-drawer='settings']")
    page.wait_for_selector(".drawer-body .settings")


def test_pace_and_lobby_options_survive_a_reload(browser: Any, server: str) -> None:
    page = new_page(browser, 360, 740)
    try:
        start_from_lobby(page, server, "pinochle4",
                         {"target": 1000, "strength": "weak", "__pace": "fast"}, seed=3)
        open_settings(page)
        assert page.is_checked("#pace-fast")
        page.check("#pace-slow")
        page.uncheck("#set-sound")
        page.check("#set-fourColour")
        page.reload()
        page.wait_for_selector(".table-view[data-step]")
        open_settings(page)
        assert page.is_checked("#pace-slow")
        assert not page.is_checked("#set-sound")
        assert page.is_checked("#set-fourColour")
        assert "four-colour" in (page.get_attribute("body", "class") or "")
        page.goto(f"{server}/#/game/pinochle4")
        page.wait_for_selector("#start-btn")
        assert page.input_value("[name='target']") == "1000"
        assert page.input_value("[name='strength']") == "weak"
        assert page.input_value("#opt-pace") == "slow"
        page.goto(f"{server}/#/game/piquet")
        page.wait_for_selector("#start-btn")
        assert page.input_value("#opt-level") != ""  # another game keeps its own defaults
        page.goto(f"{server}/#/")
        page.wait_for_selector(".resume-list a")
        assert "Partnership Pinochle" in page.inner_text(".resume-list")
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()


def test_cut_throat_discard_is_confirmed_and_can_be_unpicked(browser: Any, server: str) -> None:
    page = new_page(browser, 360, 740)
    try:
        # Deal 1: both computers pass, the human (dealer) takes the bid, names trump, buries 3.
        start_from_lobby(page, server, "pinochle3", {"target": 500, "strength": "weak"}, seed=1)
        page.wait_for_selector(".table-view[data-ask='trump']")
        my_move(page)
        page.wait_for_selector(".table-view[data-ask='discard']")
        assert "Discard 3 cards" in page.inner_text(".status")
        step = step_of(page)
        cards = page.locator(".hand .card")
        assert cards.count() == 18
        confirm = page.locator("#pick-confirm")
        assert confirm.is_disabled()
        pick = page.locator(".hand .card.selectable")
        first, second, third, fourth = (pick.nth(i).get_attribute("data-id") for i in range(4))

        def card(cid: str) -> Any:
            return page.locator(f".hand .card[data-id='{cid}']")

        click(card(first))
        click(card(second))
        assert page.inner_text(".pick-count") == "2 of 3 chosen"
        assert confirm.is_disabled()
        click(card(first))  # un-pick
        assert page.inner_text(".pick-count") == "1 of 3 chosen"
        assert card(first).get_attribute("aria-pressed") == "false"
        click(card(third))
        click(card(fourth))
        assert page.inner_text(".pick-count") == "3 of 3 chosen"
        assert step_of(page) == step and cards.count() == 18  # nothing sent before confirming
        shot(page, "cutthroat_discard_chosen_360x740", full_page=False)
        assert not confirm.is_disabled()
        assert confirm.inner_text() == "Discard these 3"
        confirm.click()
        page.wait_for_selector(".table-view[data-phase='play']")
        page.wait_for_function("() => document.querySelectorAll('.hand .card').length <= 15")
        left = page.eval_on_selector_all(".hand .card", "els => els.map(e => e.dataset.id)")
        assert not {second, third, fourth} & set(left)
        assert first in left
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()


def test_rules_page_draws_its_cards(browser: Any, server: str) -> None:
    page = new_page(browser, 360, 740)
    try:
        page.goto(f"{server}/#/rules/pinochle4")
        page.wait_for_selector(".rules .cards .card img")
        first = page.locator(".rules .cards").first
        texts = (first.get_attribute("data-cards") or "").split()
        assert texts and first.locator(".card").count() == len(texts)
        assert first.get_attribute("aria-label")
        shot(page, "rules_pinochle4_cards_360x740", full_page=False)
    finally:
        page.context.close()
