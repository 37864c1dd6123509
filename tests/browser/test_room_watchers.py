"""Three people around a room's table on phones: the host, a friend and a spectator who
opened the watch link. The spectator sees no hand and cannot talk; a phrase said by the
host shows as a bubble at the host's seat for the others; the friend mutes the host and
no longer sees it; when the game ends, "Play again" brings both people to the new game."""

from __future__ import annotations

import time
from typing import Any

import pytest
from cp_browser import my_move, new_page, shot, switch_language

PHONE = {"width": 360, "height": 740}


def _close(pg: Any) -> None:
    assert not pg.js_errors, pg.js_errors
    pg.context.close()


def _play_both(pages: dict[str, Any], limit: float = 240.0) -> None:
    deadline = time.time() + limit
    done: set[str] = set()
    while len(done) < len(pages) and time.time() < deadline:
        moved = False
        for name, pg in pages.items():
            if name in done:
                continue
            if pg.query_selector(".dialog.end"):
                done.add(name)
                continue
            if pg.query_selector("#continue-btn"):
                pg.click("#continue-btn")
                moved = True
                continue
            if pg.get_attribute(".table-view", "data-my-turn") == "1" and my_move(pg):
                moved = True
        if not moved:
            time.sleep(0.05)
    assert done == set(pages), done


@pytest.mark.browser
def test_spectator_talk_mute_and_play_again(browser: Any, server: str) -> None:
    host = new_page(browser, **PHONE)
    friend = new_page(browser, **PHONE)
    watcher = new_page(browser, **PHONE)
    try:
        host.goto(f"{server}/#/game/efudatori")
        host.fill("#opt-player", "Hana")
        host.click("#friends-btn")
        host.wait_for_selector(".room[data-room] #room-code")
        link = host.input_value("#room-link")
        watch = host.input_value("#room-watch-link")
        assert "/#/watch/" in watch and watch.split("/")[-1] not in link
        before = host.get_attribute(".room", "data-version")
        host.click("details.settings-box summary")
        host.select_option("#room-level", "1")
        host.wait_for_function(
            "v => document.querySelector('.room')?.dataset.version !== v", arg=before)
        friend.goto(link)
        friend.fill("#join-name", "Ken")
        friend.click("#sit-1")
        friend.wait_for_selector(".room .room-wait")
        watcher.goto(watch)
        watcher.wait_for_selector("#watch-h")
        host.wait_for_function(
            "() => [...document.querySelectorAll('.room-seat .occupant')]"
            ".some(e => e.textContent.includes('Ken'))", timeout=10_000)
        host.click("#room-fill")
        for pg in (host, friend, watcher):
            pg.wait_for_selector(".table-view[data-step]", timeout=20_000)

        # The spectator: the public view, no hand, nothing to do, a "watching" badge; the
        # seats see that someone watches.
        watcher.wait_for_selector("#watch-line .badge.watching")
        assert watcher.locator(".hand .card").count() == 0
        assert watcher.locator("#talk-btn").count() == 0
        assert watcher.get_attribute(".table-view", "data-my-turn") != "1"
        host.wait_for_selector("#watch-line")
        assert "1" in host.inner_text("#watch-line")
        assert host.locator(".hand .card").count() > 0

        # Talk: the host says "Good game"; a bubble shows at the host's seat for the others.
        host.click("#talk-btn")
        host.click('.talk-say[data-say="good_game"]')
        for pg in (friend, watcher):
            pg.wait_for_selector('.seat[data-seat="0"] .talk-bubble[data-say="good_game"]',
                                 timeout=5_000)
        assert "Good game" in friend.inner_text('.seat[data-seat="0"] .talk-bubble')
        shot(watcher, "social_spectator_360x740", full_page=False)
        shot(friend, "social_talk_bubble_360x740", full_page=False)

        # The friend mutes the host: the next phrase reaches the spectator, not the friend.
        friend.click("#talk-btn")
        friend.click('.talk-mute[data-seat="0"]')
        friend.wait_for_selector('.talk-mute[data-seat="0"][aria-pressed="true"]')
        friend.click(".talk-close")
        host.click("#talk-btn")
        host.click('.talk-say[data-say="heart"]')
        watcher.wait_for_selector('.seat[data-seat="0"] .talk-bubble[data-say="heart"]',
                                  timeout=5_000)
        time.sleep(0.5)
        assert friend.locator('.seat[data-seat="0"] .talk-bubble').count() == 0
        # The mute is kept across a reload.
        friend.reload()
        friend.wait_for_selector(".table-view[data-step]")
        friend.click("#talk-btn")
        friend.wait_for_selector('.talk-mute[data-seat="0"][aria-pressed="true"]')
        friend.click(".talk-close")

        # Both play to the end; the spectator watches it end.
        _play_both({"host": host, "friend": friend})
        watcher.wait_for_selector(".dialog.end", timeout=20_000)
        # Play again: the friend's click brings both people into the new game.
        old = host.url
        friend.click("#room-again")
        for pg in (host, friend):
            pg.wait_for_function("u => location.href !== u", arg=old, timeout=15_000)
            pg.wait_for_selector('.table-view[data-step][data-terminal="0"]', timeout=15_000)
        assert host.url == friend.url
        assert host.locator(".hand .card").count() > 0
    finally:
        for pg in (host, friend, watcher):
            _close(pg)


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", [(1280, 800), (360, 740)], ids=["1280x800", "360x740"])
def test_screenshots_of_the_spectator_view_and_a_bubble(browser: Any, server: str,
                                                        lang: str,
                                                        size: tuple[int, int]) -> None:
    width, height = size
    host = new_page(browser, width=width, height=height)
    watcher = new_page(browser, width=width, height=height)
    try:
        host.goto(f"{server}/#/game/efudatori")
        host.fill("#opt-player", "Hana")
        host.click("#friends-btn")
        host.wait_for_selector(".room[data-room] #room-code")
        watch = host.input_value("#room-watch-link")
        host.click("#room-fill")
        host.wait_for_selector(".table-view[data-step]", timeout=20_000)
        watcher.goto(watch)
        watcher.wait_for_selector(".table-view[data-step]", timeout=20_000)
        if lang == "ja":
            switch_language(watcher, "ja")
            switch_language(host, "ja")
        host.click("#talk-btn")
        shot(host, f"social_talk_board_{lang}_{width}x{height}", full_page=False)
        host.click('.talk-say[data-say="thanks_partner"]')
        watcher.wait_for_selector('.seat[data-seat="0"] .talk-bubble', timeout=5_000)
        shot(watcher, f"social_spectator_{lang}_{width}x{height}", full_page=False)
    finally:
        _close(host)
        _close(watcher)
