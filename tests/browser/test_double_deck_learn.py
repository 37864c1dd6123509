"""Double-deck hint and bid helper on a phone (360×740), in English and Japanese: the hint's
reason is the server's catalog sentence in the page's language, the bid helper says what
partner's meld bid showed (or that it showed none), its limit line and note are the
double-deck ones, and a 20-card hand with the helper open is kept as a screenshot."""

from __future__ import annotations

from typing import Any

import pytest
from cp_browser import new_page, phone_drawer, set_language, shot, start_from_lobby
from ws_watch import states, watch_messages

from cardplaza.texts.catalog import text

pytestmark = pytest.mark.browser

NORMAL = {"__level": "normal", "target": 1500}
ANSWER_MS = 120_000
"""The first hint and helper of a game load the search kernels in a worker: slow on a
busy machine."""


STAGE_WHOLE = """() => {
  const p = document.querySelector('.center > .stage-panel');
  const big = p && p.querySelector('.big');
  return big !== null && p.scrollHeight <= p.clientHeight + 1 && big.offsetHeight > 0
    && parseFloat(getComputedStyle(big).fontSize) >= 10;
}"""


def last_of(seen: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return [m for m in seen if m.get("type") == kind][-1]


@pytest.mark.parametrize("seed", [1, 2])
def test_hint_and_bid_helper_on_a_double_deck_table(browser: Any, ready: str,
                                                    seed: int) -> None:
    page = new_page(browser, 360, 740)
    try:
        seen = watch_messages(page)
        start_from_lobby(page, ready, "pinochle_dd", NORMAL, seed=seed)
        page.wait_for_selector(".table-view[data-my-turn='1']")
        obs = states(seen)[-1]["obs"]
        assert obs["phase"] == "bidding" and page.locator(".hand .card").count() == 20
        page.click("#hint-btn")
        page.wait_for_selector(".learn-hint .lh-reason", timeout=ANSWER_MS)
        hint = last_of(seen, "hint")
        assert hint["kind"] == "bid"
        for lang in ("en", "ja"):
            assert hint["reason"][lang] and "{" not in hint["reason"][lang]
        phone_drawer(page, ".learn-helper", "#helper-btn")
        page.wait_for_selector(".drawer-body:not([hidden]) .learn-helper td.chance",
                               timeout=ANSWER_MS)
        table = last_of(seen, "helper")["table"]
        signal = table["partner_signal"]
        for lang in ("en", "ja"):
            set_language(page, lang)
            page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
            helper = page.inner_text(".learn-helper")
            partner = (text("dd.partner_shown", lang, meld=signal) if signal
                       else text("dd.partner_none", lang))
            assert page.inner_text(".learn-helper .lh-partner") == partner
            assert text("dd.helper.note", lang, n=table["worlds"]) in helper
            best = table["suits"][table["best_suit"]]["symbol"]
            limit = (text("learn.helper.limit", lang, v=table["limit"], suit=best)
                     if table["limit"] is not None and table["limit"] >= table["min_bid"]
                     else text("learn.helper.pass", lang))
            assert limit in helper
            assert text("learn.helper.tricks", lang) in helper
            assert page.inner_text(".learn-hint .lh-reason") == hint["reason"][lang]
            shot(page, f"dd_learn_{lang}_{seed}_360x740", full_page=False)
        # The sheet closed, the 20-card hand with the hint's summary, in both languages.
        page.click(".drawer-close")
        page.wait_for_selector(".drawer-body", state="hidden")
        for lang in ("en", "ja"):
            set_language(page, lang)
            page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
            assert page.locator(".hand .card").count() == 20
            assert page.inner_text(".learn-hint .lh-reason") == hint["reason"][lang]
            # The felt is lower with the hint's card open: the high bid in its middle is
            # read whole (written smaller, or alone), not cut off in a scrolled panel.
            assert page.evaluate(STAGE_WHOLE), lang
            shot(page, f"dd_hand20_{lang}_{seed}_360x740", full_page=False)
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()
