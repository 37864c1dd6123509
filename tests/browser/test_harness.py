"""The browser the tests drive builds the pages under test and nothing of its own: no
address-bar popup page comes with each new window (``conftest.OMNIBOX_WEBUI``), and the
features Playwright's own launch turns off stay off."""

from __future__ import annotations

from typing import Any

import pytest
from cp_browser import new_page

from conftest import MARK, OMNIBOX_WEBUI, argv_of, disabled_by_playwright, features_off

pytestmark = pytest.mark.browser


def test_a_new_window_opens_no_page_of_the_browsers_own(browser: Any) -> None:
    page = new_page(browser)
    try:
        page.goto("about:blank")
        cdp = browser.new_browser_cdp_session()
        targets = cdp.send("Target.getTargets")["targetInfos"]
        cdp.detach()
        own = [t["url"] for t in targets if t["url"].startswith("chrome://")]
        assert own == [], own
        assert any(t["type"] == "page" and t["url"] == "about:blank" for t in targets), targets
    finally:
        page.context.close()


def test_playwrights_own_disabled_features_stay_off(browser: Any) -> None:
    """The browser's command line as it runs: its last ``--disable-features`` (the one
    Chromium keeps) holds every feature Playwright's launch turns off, and ours."""
    mark = next(a for a in browser.launched_with if a.startswith(MARK))
    running = set(features_off(argv_of(mark)))
    theirs = set(disabled_by_playwright(browser.browser_type))
    assert set(OMNIBOX_WEBUI) <= running, running
    assert len(theirs) >= 5, theirs  # Playwright turns off a list of its own
    assert theirs <= running, theirs - running
