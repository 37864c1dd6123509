"""An accessibility scan (axe-core, bundled with ``axe-playwright-python``) of the lobby,
each game's options, rules page and table, the statistics, high scores, the room page and
the replay viewer, in both languages: no serious or critical violation (the review is
scanned where it is made, in ``test_records.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cp_browser import axe_serious, goto_drawn, new_page, set_language, start_from_lobby

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


def _serious(page: Any) -> list[str]:
    return axe_serious(page)


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_pages_have_no_serious_violations(browser: Any, server: str, locale: str) -> None:
    page = new_page(browser, 1280, 800, locale=locale)
    found: dict[str, list[str]] = {}
    try:
        for where in PAGES:
            goto_drawn(page, f"{server}/{where}")  # (not the last page, still on screen)
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


def test_the_replay_viewer_has_no_serious_violations(browser: Any, server: str,
                                                     tmp_path: Path) -> None:
    """A saved record opened in the replay viewer, at the start and at the end."""
    import json
    import random

    from cardplaza.core.history import GameRecord
    from cardplaza.core.registry import get_game

    spec = get_game("pinochle2")
    state = spec.new_game(spec.options_type(), 5)
    rng = random.Random(5)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    path = tmp_path / "record.json"
    path.write_text(json.dumps(GameRecord.of(state).to_json()), encoding="utf-8")
    page = new_page(browser, 360, 740)
    found: dict[str, list[str]] = {}
    try:
        page.goto(f"{server}/#/")
        page.set_input_files("#record-file", str(path))
        page.wait_for_selector(".replay-view[data-replay-step='0']")
        for lang in ("en", "ja"):
            set_language(page, lang)
            problems = _serious(page)
            page.keyboard.press("End")
            problems += _serious(page)
            page.keyboard.press("Home")
            if problems:
                found[lang] = problems
        assert not found, found
    finally:
        page.context.close()

