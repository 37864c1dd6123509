"""Whole games clicked through from the lobby to the result screen, one per game."""

from __future__ import annotations

import time
from typing import Any

import pytest
from cp_browser import MISALIGNED_JS, play_to_end, shot, start_from_lobby

# Small targets and the quickest computers keep each whole game to seconds.
GAMES = [
    ("pinochle2", {}),
    ("pinochle4", {"target": 500, "strength": "weak"}),
    ("pinochle3", {"target": 500, "strength": "weak"}),
    ("pinochle_dd", {"target": 250, "__level": "weak"}),
    ("piquet", {"four_deals": True, "__level": "1"}),
    ("efudatori", {"players": 4, "__level": "1"}),
]

# The drawers each game's own view offers (besides the trick history and the settings).
DRAWERS = {
    "pinochle2": ["Melds"],
    "pinochle4": ["Bids", "Melds", "Score"],
    "pinochle3": ["Bids", "Melds", "Score"],
    "pinochle_dd": ["Bids", "Melds", "Score"],
    "piquet": ["Declared", "Talon", "Score"],
    "efudatori": ["Captured"],
}


def tabs(page: Any) -> list[str]:
    return [t.strip() for t in page.locator(".tabs .tab .tab-title").all_inner_texts()]


@pytest.mark.browser
@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_whole_game_from_lobby_to_result(page: Any, server: str, game: str,
                                         options: dict[str, Any]) -> None:
    started = time.perf_counter()
    start_from_lobby(page, server, game, options)
    shot(page, f"{game}_table_1280x800")
    summaries: list[str] = []

    def summary(page: Any) -> None:
        # Between hands: each side's result and the running score, dismissed with Continue.
        text = page.inner_text(".dialog.summary")
        assert "Score" in text or "Partie" in text
        assert page.locator(".dialog.summary table").count()
        assert not page.evaluate(MISALIGNED_JS), page.evaluate(MISALIGNED_JS)
        if not summaries:
            shot(page, f"{game}_summary_1280x800", full_page=False)
        summaries.append(text)

    play_to_end(page, on_summary=summary)
    dialog = page.locator(".dialog.end")
    assert dialog.is_visible()
    if game in ("pinochle4", "pinochle3", "pinochle_dd", "piquet"):
        assert summaries, "no summary between hands"
    verdict = dialog.locator(".verdict").inner_text()
    assert verdict in ("You win!", "You lose.", "Draw.")
    assert dialog.locator("table tr").count() >= 2
    # Each column's heading stands over its figures (or its names), in every result table
    # on the page (the end's; a score sheet too, while its drawer is the one open).
    assert not page.evaluate(MISALIGNED_JS), page.evaluate(MISALIGNED_JS)
    assert dialog.locator("svg.chart polyline").count() >= 2, "no chart of the score's course"
    for name in DRAWERS[game]:
        assert name in tabs(page), (name, tabs(page))
    assert "Table details" not in tabs(page)
    shot(page, f"{game}_end_1280x800", full_page=False)
    first = page.url
    page.click("#again-btn")
    page.wait_for_function("u => location.href !== u", arg=first)
    # The new table's view replaces the finished one: wait for it, not for any view.
    page.wait_for_selector('.table-view[data-step][data-terminal="0"]')
    assert page.locator('.table-view[data-terminal="1"]').count() == 0
    print(f"{game}: {time.perf_counter() - started:.1f}s")


@pytest.mark.browser
@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_generic_renderer_plays_every_game(page: Any, server: str, game: str,
                                           options: dict[str, Any]) -> None:
    """The fallback view (observation + legal actions only) can play each game to the end."""
    page.goto(f"{server}/?generic=1#/")
    start_from_lobby(page, f"{server}/?generic=1", game, options)
    assert "?generic=1" in page.url
    play_to_end(page)
    assert page.locator(".dialog.end .verdict").is_visible()
    assert "Table details" in tabs(page)
    if game == "piquet":
        shot(page, "generic_piquet_end_1280x800", full_page=False)
