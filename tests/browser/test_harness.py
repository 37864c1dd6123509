"""The browser the tests drive builds the pages under test and nothing of its own: no
address-bar popup page comes with each new window (see ``conftest.OMNIBOX_WEBUI``)."""

from __future__ import annotations

from typing import Any

import pytest
from cp_browser import new_page

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
