"""Playing with friends on phones: the host makes a four-hand room, a friend joins through
the invite link, the other two seats are computers, and both people play the first hand
through to its summary, each from their own browser."""

from __future__ import annotations

import time
from typing import Any

import pytest
from cp_browser import layout_problems, my_move, new_page, shot

PHONE = {"width": 360, "height": 740}


def _close(pg: Any) -> None:
    assert not pg.js_errors, pg.js_errors
    pg.context.close()


def _no_sideways_scroll(page: Any) -> None:
    """A form page may scroll down on a phone, never sideways."""
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= PHONE["width"], wide


@pytest.mark.browser
def test_two_friends_play_a_hand_of_four_hand_pinochle(browser: Any, server: str) -> None:
    host = new_page(browser, **PHONE)
    friend = new_page(browser, **PHONE)
    try:
        # The host: the game, "Play with friends", two seats for computers.
        host.goto(f"{server}/#/game/pinochle4")
        host.fill("#opt-player", "Hana")
        host.click("#friends-btn")
        host.wait_for_selector(".room[data-room] #room-code")
        code = host.inner_text("#room-code")
        assert len(code.replace("-", "")) == 7
        link = host.input_value("#room-link")
        assert "/#/join/" in link
        host.wait_for_selector("#room-qr[src^='data:image/svg+xml']")
        for seat in (1, 3):
            before = host.get_attribute(".room", "data-version")
            host.select_option(f"#seat-kind-{seat}", "computer:random")
            host.wait_for_function(
                "v => document.querySelector('.room')?.dataset.version !== v", arg=before)
        assert host.is_disabled("#room-start")
        _no_sideways_scroll(host)
        shot(host, "rooms_host_360x740")

        # The friend opens the link, gives a name and takes the partner's seat: the taps
        # a person makes are counted.
        taps = 0
        friend.goto(link)
        taps += 1  # opening the link
        friend.wait_for_selector("#sit-2")
        assert friend.locator("#sit-0, #sit-1, #sit-3").count() == 0
        friend.click("#join-name")
        friend.fill("#join-name", "Ken")
        taps += 1  # the name field (then typing)
        friend.click("#sit-2")
        taps += 1
        friend.wait_for_selector(".room .room-wait")
        assert "Hana" in friend.inner_text(".room-wait")
        _no_sideways_scroll(friend)
        shot(friend, "rooms_friend_waiting_360x740")

        # The host sees Ken arrive without reloading, and starts.
        host.wait_for_function(
            "() => [...document.querySelectorAll('.room-seat .occupant')]"
            ".some(e => e.textContent.includes('Ken'))", timeout=10_000)
        assert host.inner_text('.room-seat[data-seat="2"] .occupant').startswith("Ken")
        host.click("#room-start")
        for pg in (host, friend):
            pg.wait_for_selector(".table-view[data-step]", timeout=15_000)
        assert taps == 3

        # Both see each other at the table, the other person as connected.
        host.wait_for_selector('.seat[data-seat="2"] .presence.here')
        friend.wait_for_selector('.seat[data-seat="0"] .presence.here')
        assert "Ken" in host.inner_text('.seat[data-seat="2"] .seat-name')
        assert "Hana" in friend.inner_text('.seat[data-seat="0"] .seat-name')
        assert layout_problems(host) == []
        shot(host, "rooms_table_host_360x740", full_page=False)

        # Both play until the first hand's summary.
        deadline = time.time() + 300
        moves = {"host": 0, "friend": 0}
        done: set[str] = set()
        while len(done) < 2 and time.time() < deadline:
            moved = False
            for name, pg in (("host", host), ("friend", friend)):
                if name in done:
                    continue
                if pg.query_selector("#continue-btn") or pg.query_selector(".dialog.end"):
                    done.add(name)
                    continue
                if pg.get_attribute(".table-view", "data-my-turn") == "1" and my_move(pg):
                    moves[name] += 1
                    moved = True
            if not moved:
                time.sleep(0.05)
        assert done == {"host", "friend"}, (moves, done)
        assert moves["host"] > 5 and moves["friend"] > 5
        shot(friend, "rooms_summary_friend_360x740", full_page=False)
    finally:
        _close(host)
        _close(friend)
