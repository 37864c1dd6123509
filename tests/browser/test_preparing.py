"""While the server's computer players are still being prepared (search kernels compiling
in the background), the lobby says so, in both languages; otherwise it says nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from cp_browser import new_page, set_language

pytestmark = pytest.mark.browser


def _health(preparing: bool) -> Any:
    def answer(route: Any) -> None:
        body = {"ok": True, "computers": {"workers": 2, "ready": 2, "preparing": preparing}}
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))
    return answer


def test_the_lobby_says_when_the_computers_are_being_prepared(browser: Any,
                                                               server: str) -> None:
    page = new_page(browser, 360, 740)
    try:
        page.goto(f"{server}/#/")
        page.wait_for_selector(".game-list")
        assert page.locator(".notice.preparing").count() == 0  # a ready server
        page.route("**/healthz", _health(True))
        page.goto(f"{server}/#/game/pinochle4")
        page.wait_for_selector(".notice.preparing")
        assert "Preparing the computer players" in page.inner_text(".notice.preparing")
        set_language(page, "ja")
        page.goto(f"{server}/#/")
        page.wait_for_selector(".notice.preparing")
        assert "コンピュータの準備中" in page.inner_text(".notice.preparing")
        page.route("**/healthz", _health(False))
        page.goto(f"{server}/#/game/piquet")
        page.wait_for_selector(".game-list")
        assert page.locator(".notice.preparing").count() == 0
    finally:
        page.context.close()


def test_a_late_health_answer_never_covers_the_next_page(browser: Any, server: str) -> None:
    """The lobby is drawn without waiting for the server's health; when that answer comes
    after the person has moved on (here to the ratings), it neither redraws the lobby over
    the new page nor adds its note there."""
    held: list[Any] = []
    page = new_page(browser, 360, 740)
    try:
        page.route("**/healthz", lambda route: held.append(route))
        page.goto(f"{server}/#/")
        page.wait_for_selector(".game-list")  # drawn while the health answer is held
        for _ in range(50):
            if held:
                break
            page.wait_for_timeout(100)
        assert held, "the lobby asked for the server's health"
        page.click("#nav-ratings")
        page.wait_for_selector("#ratings-game")
        for route in held:
            _health(True)(route)
        page.wait_for_timeout(300)
        assert page.locator("#ratings-game").count() == 1
        assert page.locator(".game-list").count() == 0
        assert page.locator(".notice.preparing").count() == 0
    finally:
        page.context.close()
