"""The challenge link in two browsers, and the daily deal's board: the same deals for both,
then the comparison page; screenshots at both sizes and in both languages."""

from __future__ import annotations

from typing import Any

import pytest
from cp_browser import new_page, next_frame, play_to_end, shot, start_from_lobby
from ws_watch import states, watch_messages

pytestmark = pytest.mark.browser

GAME = "efudatori"
OPTIONS = {"players": 4, "__level": "1"}


def _close(pg: Any) -> None:
    errors = list(pg.js_errors)
    pg.context.close()
    assert not errors, errors


def _view_at(seen: list[dict[str, Any]], step: int) -> Any:
    return next(m["obs"] for m in states(seen) if m["step"] == step)


def _sideways(page: Any) -> bool:
    return bool(page.evaluate(
        "() => document.documentElement.scrollWidth > document.documentElement.clientWidth"))


def _both_sizes_and_languages(page: Any, name: str, ready: str) -> None:
    for lang in ("en", "ja"):
        if page.evaluate("document.documentElement.lang") != lang:
            page.click("#lang-btn")
            page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
            page.wait_for_selector(ready)
        for w, h in ((1280, 800), (360, 740)):
            page.set_viewport_size({"width": w, "height": h})
            next_frame(page)
            assert not _sideways(page), (name, lang, w)
            shot(page, f"{name}_{lang}_{w}x{h}")
    page.click("#lang-btn")
    page.wait_for_function("() => document.documentElement.lang === 'en'")


def test_a_friend_plays_the_challenge_and_both_see_the_comparison(browser: Any,
                                                                   server: str) -> None:
    first = new_page(browser)
    friend = new_page(browser)
    for pg, name in ((first, "Ann"), (friend, "Bob")):
        pg.context.add_init_script(f"localStorage.setItem('cardplaza.name', '{name}');")
    try:
        seen_first = watch_messages(first)
        start_from_lobby(first, server, GAME, OPTIONS, seed=11)
        play_to_end(first)
        first.click("#challenge-btn")
        link = first.locator("#challenge-link").input_value()
        shot(first, "challenge_link_en_1280x800", full_page=False)
        first.set_viewport_size({"width": 360, "height": 740})
        next_frame(first)
        assert not _sideways(first)
        shot(first, "challenge_link_en_360x740", full_page=False)
        first.set_viewport_size({"width": 1280, "height": 800})
        assert link.startswith(server) and "#/challenge/" in link

        seen_friend = watch_messages(friend)
        friend.goto(link)
        friend.wait_for_selector("#accept-btn")
        friend.click("#accept-btn")
        friend.wait_for_selector(".table-view[data-step]")
        play_to_end(friend)
        # The same deal, and — the same play against the same computers — the same game.
        a, b = states(seen_first), states(seen_friend)
        step = max(a[0]["step"], b[0]["step"])
        assert _view_at(seen_first, step) == _view_at(seen_friend, step)
        assert a[-1]["terminal"] and b[-1]["terminal"]
        assert a[-1]["returns"] == b[-1]["returns"]
        assert a[-1]["obs"] == b[-1]["obs"]
        # No message to the friend carries the challenger's seed.
        assert all("seed" not in m for m in seen_friend)

        friend.click("#compare-btn")
        friend.wait_for_selector(".compare-table", timeout=240_000)
        first.goto(link)
        first.wait_for_selector(".compare-table", timeout=60_000)
        rows_friend = friend.locator(".compare-table tbody tr").count()
        assert rows_friend == first.locator(".compare-table tbody tr").count() > 0
        assert friend.locator(".compare-table .mark").count() > 0
        _both_sizes_and_languages(friend, "challenge_comparison", ".compare-table")
    finally:
        _close(first)
        _close(friend)


def test_todays_deal_from_the_lobby_and_its_board(browser: Any, server: str) -> None:
    page = new_page(browser)
    try:
        page.goto(f"{server}/#/")
        page.wait_for_selector(f'#daily-panel button[data-game="{GAME}"]')
        page.click(f'#daily-panel button[data-game="{GAME}"]')
        page.wait_for_selector(".table-view[data-step]")
        play_to_end(page)
        page.click("#daily-board-btn")
        page.wait_for_selector(".daily-board tr.me")
        page.wait_for_function(
            "() => !document.querySelector('.daily-par').textContent.includes('…')",
            timeout=240_000)
        assert page.locator(".daily-board tbody tr").count() >= 1
        _both_sizes_and_languages(page, "daily_board", ".daily-board")
        page.set_viewport_size({"width": 1280, "height": 800})
        page.goto(f"{server}/#/")
        page.wait_for_selector(f'#daily-panel a[data-game="{GAME}"]')
        page.locator("#daily-panel").scroll_into_view_if_needed()
        shot(page, "daily_lobby_en_1280x800", full_page=False)
    finally:
        _close(page)
