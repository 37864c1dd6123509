"""Every phase that asks something of the player fits a phone (360×740) and a desktop
(1280×800) in both languages: status line, trick area and the whole hand in view without
scrolling, seats apart, touch targets 40 px tall. Screenshots of each are saved."""

from __future__ import annotations

import time
from typing import Any

import pytest
from cp_browser import (
    layout_problems,
    my_move,
    new_page,
    next_frame,
    shot,
    start_from_lobby,
    switch_language,
)

pytestmark = pytest.mark.browser

SIZES = [(360, 740), (1280, 800)]
WEAK = {"target": 500, "strength": "weak"}
PRACTICE = {"#mode-practice": True, "#opt-practice-level": "1"}

# (label, game, lobby options, seed, the phases this known deal brings to the player)
DEALS = [
    ("pinochle4", "pinochle4", WEAK, 1, {"bid"}),
    ("pinochle4", "pinochle4", WEAK, 2, {"trump", "pass", "play"}),
    ("pinochle3", "pinochle3", WEAK, 1, {"trump", "discard", "play"}),
    ("pinochle3", "pinochle3", WEAK, 2, {"bid"}),
    ("pinochle_dd", "pinochle_dd", {"__level": "weak"}, 1, {"bid", "pass", "play"}),
    ("pinochle2", "pinochle2", PRACTICE, 1, {"play", "meld"}),
    ("piquet", "piquet", {"four_deals": True, "__level": "1"}, 1, {"exchange", "declare", "play"}),
    ("efudatori4", "efudatori", {"players": 4, "__level": "1"}, 1, {"play"}),
    ("efudatori7", "efudatori", {"players": 7, "__level": "1"}, 2, {"play"}),
]


@pytest.mark.parametrize(("label", "game", "options", "seed", "phases"), DEALS,
                         ids=[f"{d[0]}-{'-'.join(sorted(d[4]))}" for d in DEALS])
def test_every_phase_fits_without_scrolling(browser: Any, server: str, label: str, game: str,
                                            options: dict[str, Any], seed: int,
                                            phases: set[str]) -> None:
    page = new_page(browser, *SIZES[0])
    try:
        start_from_lobby(page, server, game, options, seed=seed)
        todo = set(phases)
        deadline = time.time() + 90
        while todo and time.time() < deadline:
            page.wait_for_selector(".table-view[data-my-turn='1'], #continue-btn, .dialog.end")
            if page.query_selector("#continue-btn"):
                page.click("#continue-btn")
                continue
            assert not page.query_selector(".dialog.end"), f"the game ended before {todo}"
            ask = page.get_attribute(".table-view", "data-ask")
            if ask in todo:
                for lang in ("en", "ja"):
                    if lang == "ja":
                        switch_language(page, "ja")
                    for w, h in SIZES:
                        page.set_viewport_size({"width": w, "height": h})
                        next_frame(page)
                        problems = layout_problems(page)
                        assert not problems, f"{label} {ask} {lang} {w}x{h}: {problems}"
                        shot(page, f"phase_{label}_{ask}_{lang}_{w}x{h}", full_page=False)
                    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
                    if lang == "ja":
                        switch_language(page, "en")
                todo.discard(ask)
                if not todo:
                    break
            assert my_move(page), f"no move found in phase {ask}"
        assert not todo, f"phases never reached: {todo}"
        assert not page.js_errors, page.js_errors
    except Exception:
        shot(page, f"FAILED_phase_{label}", full_page=False)
        raise
    finally:
        page.context.close()
