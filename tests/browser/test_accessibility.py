"""An accessibility scan (axe-core, bundled with ``axe-playwright-python``) of the lobby,
each game's options, rules page and table, the statistics, high scores and the room page,
in both languages: no serious or critical violation."""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from cp_browser import new_page, next_frame, set_language, start_from_lobby

pytestmark = pytest.mark.browser

GAMES = ["pinochle4", "pinochle3", "pinochle_dd", "pinochle2", "piquet", "efudatori"]
TABLE_OPTIONS: dict[str, dict[str, Any]] = {
    "pinochle4": {"target": 500, "strength": "weak"},
    "pinochle3": {"target": 500, "strength": "weak"},
    "pinochle_dd": {"__level": "weak"},
    "pinochle2": {"#mode-practice": True, "#opt-practice-level": "1"},
    "piquet": {"__level": "1"},
    "efudatori": {"__level": "1"},
}
PAGES = ["#/", "#/stats", "#/scores",
         *(f"#/game/{g}" for g in GAMES), *(f"#/rules/{g}" for g in GAMES),
         "#/friends/pinochle4"]
SERIOUS = {"serious", "critical"}
AXE = Axe()


def _serious(page: Any) -> list[str]:
    next_frame(page)
    results = AXE.run(page)
    return [f"{v['id']} ({v['impact']}): " + "; ".join(n["target"][0] if n["target"] else "?"
                                                     for n in v["nodes"][:4])
            for v in results.response["violations"] if v.get("impact") in SERIOUS]


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_pages_have_no_serious_violations(browser: Any, server: str, locale: str) -> None:
    page = new_page(browser, 1280, 800, locale=locale)
    found: dict[str, list[str]] = {}
    try:
        for where in PAGES:
            page.goto(f"{server}/{where}")
            page.wait_for_selector("main h2, main h1")
            page.wait_for_load_state("networkidle")
            problems = _serious(page)
            if problems:
                found[where] = problems
        assert not found, found
    finally:
        page.context.close()


@pytest.mark.parametrize("game", GAMES)
def test_each_table_has_no_serious_violations(browser: Any, server: str, game: str) -> None:
    page = new_page(browser, 360, 740)
    found: dict[str, list[str]] = {}
    try:
        start_from_lobby(page, server, game, TABLE_OPTIONS[game], seed=1)
        page.wait_for_selector(".table-view[data-my-turn='1'], #continue-btn")
        for lang in ("en", "ja"):
            set_language(page, lang)
            problems = _serious(page)
            if problems:
                found[lang] = problems
        assert not found, found
    finally:
        page.context.close()
