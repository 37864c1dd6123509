"""A person closes the tab mid-trick: the other person sees the countdown at that seat, a
computer stands in when it runs out and plays the seat, the person comes back and takes the
seat back (everyone is told), and the game's record marks the stand-in's actions.

(The turn timer — an idle person's decision made by the stand-in — and the stand-in marks
of a whole game are covered at the server in ``tests/web/test_rooms.py``.)"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from cp_browser import my_move, new_page, next_frame, shot, switch_language
from rooms_helpers import DESKTOP, PHONE, host_sees, join_by_link, make_room, start

from cardplaza.texts.catalog import text
from conftest import running_server

STANDIN = 4


@pytest.fixture(scope="module")
def quick_standin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose stand-ins come after a few seconds."""
    with running_server(tmp_path_factory.mktemp("standin"), 0.0,
                        f"standin_seconds={STANDIN}", f"standin_min_seconds={STANDIN}") as base:
        yield base


def _seat_token(page: Any, table: str) -> str:
    token: str = page.evaluate(
        "t => JSON.parse(localStorage.getItem('cardplaza.tables'))"
        ".find(e => e.table === t).token", table)
    return token


def _play_host(host: Any) -> None:
    if host.query_selector("#continue-btn"):
        host.click("#continue-btn")
    if host.get_attribute(".table-view", "data-my-turn") == "1":
        with contextlib.suppress(Exception):  # the table moved on under the pointer
            my_move(host)


@pytest.mark.browser
def test_a_person_leaves_mid_trick_a_computer_stands_in_and_hands_back(
        browser: Any, quick_standin: str) -> None:
    base = quick_standin
    host = new_page(browser, *PHONE)
    friend = new_page(browser, *PHONE)
    try:
        room = make_room(host, base, "pinochle4", {"target": 500}, {1: "random", 3: "random"},
                         "random")
        join_by_link(friend, room["link"], 2, "Ken")
        host_sees(host, "Ken")
        start(host, [host, friend])
        table = host.evaluate("() => location.hash.split('/').pop()")
        # Both play until a trick is under way.
        deadline = time.time() + 120
        while not host.locator(".trick .card").count() or \
                friend.get_attribute(".table-view", "data-my-turn") == "1":
            assert time.time() < deadline, "no trick began"
            _play_host(host)
            if friend.get_attribute(".table-view", "data-my-turn") == "1":
                my_move(friend)
            if friend.query_selector("#continue-btn"):
                friend.click("#continue-btn")
            time.sleep(0.05)
        # Ken closes the tab mid-trick: Hana sees the countdown at his seat.
        ken = friend.context
        friend.close()
        away = host.locator('.seat[data-seat="2"] .presence.away .countdown')
        away.wait_for(timeout=10_000)
        assert "s" in away.inner_text()
        shot(host, "rooms_en_360_5_countdown", full_page=False)
        # Then a computer plays his seat (Hana keeps playing hers).
        host.wait_for_selector('.seat[data-seat="2"] .presence.standin',
                                timeout=(STANDIN + 10) * 1000)
        shot(host, "rooms_en_360_5_standin", full_page=False)
        # The same on a wide screen and in Japanese.
        host.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
        next_frame(host)
        shot(host, "rooms_en_1280_5_standin", full_page=False)
        switch_language(host, "ja")
        host.wait_for_selector('.seat[data-seat="2"] .presence.standin')
        # The notice shown at the moment follows the language switch.
        assert host.inner_text(".room-notice") == text("room.notice.standin", "ja",
                                                        name="Ken")
        shot(host, "rooms_ja_1280_5_standin", full_page=False)
        host.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
        next_frame(host)
        shot(host, "rooms_ja_360_5_standin", full_page=False)
        # On a phone the seat's state reads on one line.
        lines = host.eval_on_selector(
            '.seat[data-seat="2"] .presence-text',
            "e => e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight)")
        assert lines < 1.5, lines
        token = _seat_token(host, table)
        played: list[int] = []
        deadline = time.time() + 90
        while time.time() < deadline:
            record = httpx.get(f"{base}/api/tables/{table}/download",
                               headers={"X-Seat-Token": token}).json()
            played = record.get("standins", [])
            if len(played) >= 2:
                break
            _play_host(host)
            time.sleep(0.1)
        assert len(played) >= 2, "the stand-in did not play"
        # Every action marked as a stand-in's is one of Ken's seat (the running game's
        # record as Hana's seat saw it).
        seats = [a["seat"] for a in httpx.get(
            f"{base}/api/tables/{table}/download",
            headers={"X-Seat-Token": token}).json()["steps"]]
        assert all(seats[i] == 2 for i in played if i < len(seats)), (played, seats)
        # Ken comes back (same browser): the seat is his again, Hana is told.
        back = ken.new_page()
        back.set_default_timeout(15_000)
        back.goto(f"{base}/#/play/{table}")
        back.wait_for_selector(".table-view[data-step]")
        host.wait_for_selector('.seat[data-seat="2"] .presence.here', timeout=15_000)
        host.wait_for_selector(".room-notice")
        assert "Ken" in host.inner_text(".room-notice")
        shot(host, "rooms_ja_360_5_back", full_page=False)
        # His next decision is his own: no stand-in mark is added while he is here.
        marked = len(played)
        deadline = time.time() + 60
        mine = 0
        while mine < 2 and time.time() < deadline:
            _play_host(host)
            if back.query_selector("#continue-btn"):
                back.click("#continue-btn")
            if back.get_attribute(".table-view", "data-my-turn") == "1" and my_move(back):
                mine += 1
            time.sleep(0.05)
        assert mine == 2
        record = httpx.get(f"{base}/api/tables/{table}/download",
                           headers={"X-Seat-Token": token}).json()
        assert len(record["standins"]) <= marked + 1  # (one may have been under way)
        back.close()
        ken.close()
    finally:
        errors = host.js_errors
        host.context.close()
        assert not errors, errors
