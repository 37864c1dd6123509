"""Whole games clicked through from the lobby to the result screen, one per game."""

from __future__ import annotations

import time
from typing import Any

import pytest
from cp_browser import play_to_end, shot, start_from_lobby

# Small targets and the quickest computers keep each whole game to seconds.
GAMES = [
    ("pinochle2", {}),
    ("pinochle4", {"target": 500, "strength": "weak"}),
    ("pinochle3", {"target": 500, "strength": "weak"}),
    ("piquet", {"four_deals": True, "__level": "1"}),
    ("efudatori", {"players": 4, "__level": "1"}),
]


@pytest.mark.browser
@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_whole_game_from_lobby_to_result(page: Any, server: str, game: str,
                                         options: dict[str, Any]) -> None:
    started = time.perf_counter()
    start_from_lobby(page, server, game, options)
    shot(page, f"{game}_table_1280x800")
    play_to_end(page)
    dialog = page.locator(".dialog.end")
    assert dialog.is_visible()
    verdict = dialog.locator(".verdict").inner_text()
    assert verdict in ("You win!", "You lose.", "Draw.")
    assert dialog.locator("table tr").count() >= 2
    # A game's own view keeps no raw field list; Pinochle folds its score sheet there.
    folded = page.locator("details.info summary").all_inner_texts()
    assert folded == (["Score sheet"] if game in ("pinochle4", "pinochle3") else [])
    shot(page, f"{game}_end_1280x800", full_page=False)
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
    assert page.locator("details.info summary").all_inner_texts() == ["Table details"]
    if game == "piquet":
        shot(page, "generic_piquet_end_1280x800", full_page=False)
