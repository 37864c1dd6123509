"""The pace chosen in the browser reaches the server: the computer's pause follows it.

The server here pauses 1 s before a computer's move at the normal pace (``--pause``); the
page starts at the instant pace, then the player picks "slow" in the settings drawer. The
WebSocket frames the page receives are timed, so the client's own motion does not count.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from cp_browser import my_move, new_page, start_from_lobby
from ws_watch import watch_messages

from conftest import running_server

pytestmark = pytest.mark.browser

PAUSE = 1.0


@pytest.fixture(scope="module")
def paused_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose computers pause :data:`PAUSE` seconds at the normal pace."""
    with running_server(tmp_path_factory.mktemp("paused"), PAUSE) as base:
        yield base


class Frames:
    """Every WebSocket frame of the page, timed: state messages rebuilt whole."""

    def __init__(self, page: Any) -> None:
        self.sent: list[dict[str, Any]] = []
        self._times: list[float] = []
        self._seen = watch_messages(page, self._times, self.sent)

    @property
    def states(self) -> list[tuple[float, dict[str, Any]]]:
        """The state messages so far with the moment each arrived."""
        return [(t, m) for t, m in zip(self._times, self._seen, strict=True)
                if m.get("type") == "state"]

    def computer_delay(self, page: Any, after_step: int) -> float | None:
        """Seconds from the state of the player's move at ``after_step`` to the computer's
        move, or None when the player is to act again."""
        deadline = time.time() + 10
        while time.time() < deadline:
            for i, (t, msg) in enumerate(self.states):
                if msg["step"] == after_step + 1:
                    if msg["current"] == msg["seat"]:
                        return None
                    if i + 1 < len(self.states):
                        return self.states[i + 1][0] - t
            page.wait_for_timeout(50)
        raise AssertionError("the computer's move never came")


def delay_after_my_move(page: Any, frames: Frames) -> float:
    """Play until a move of the player's is answered by a computer; that answer's delay."""
    for _ in range(12):
        page.wait_for_function("() => document.querySelector('.table-view')"
                               "?.dataset.myTurn === '1'", timeout=30_000)
        step = int(page.get_attribute(".table-view", "data-step") or -1)
        assert my_move(page)
        delay = frames.computer_delay(page, step)
        if delay is not None:
            return delay
    raise AssertionError("no computer move followed the player's")


def test_the_pace_picked_in_the_browser_sets_the_computers_pause(
        browser: Any, paused_server: str) -> None:
    page = new_page(browser, 1280, 800, pace="instant")
    frames = Frames(page)
    try:
        # Two-hand Pinochle, the human leads the first trick: the computer answers each lead.
        start_from_lobby(page, paused_server, "pinochle2",
                         {"#mode-practice": True, "practice_level": "1"}, seed=5)
        joins = [m for m in frames.sent if m.get("type") == "join"]
        assert joins and joins[0].get("pace") == "instant"
        fast = delay_after_my_move(page, frames)

        page.click(".tab[data-drawer='settings']")
        page.wait_for_selector(".drawer-body .settings")
        page.check("#pace-slow")
        deadline = time.time() + 5
        while not any(m == {"type": "settings", "pace": "slow"} for m in frames.sent):
            assert time.time() < deadline, f"no pace sent: {frames.sent[-3:]}"
            page.wait_for_timeout(50)
        deadline = time.time() + 5
        while frames.states[-1][1].get("pace") != "slow":
            assert time.time() < deadline, "the server did not take the new pace"
            page.wait_for_timeout(50)
        if page.locator(".drawer-close").is_visible():
            page.click(".drawer-close")
        slow = delay_after_my_move(page, frames)
        # Instant: no pause, only the computer's (quick) thinking; normal would be PAUSE.
        assert fast < 0.75 * PAUSE, fast
        # Slow: twice the normal pause.
        assert 2 * PAUSE * 0.9 < slow < 2 * PAUSE + 1.5, slow
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()
