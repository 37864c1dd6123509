"""The leaderboard and a player's page in a real browser, at desktop and phone sizes, in
English and Japanese: players by name and tag (no key in the page), the provisional mark,
the pages of the board, the rating chart and the "vs computers" sentence. Screenshots go to
``artifacts/ratings/``."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from cp_browser import new_page, shot

from cardplaza.core import computers
from cardplaza.core.ratings import Rating, SeatResult, Update, rate_game
from cardplaza.texts.catalog import catalog
from cardplaza.web.store.ratings import write_updates
from cardplaza.web.store.storage import Storage
from conftest import ROOT, running_server

pytestmark = pytest.mark.browser

SHOTS = ROOT / "artifacts" / "ratings"
VERSUS = Rating(27.5, 2.5)
"""The first player's vs-computers rating."""
NAMES = ["Hanako", "Sam", "さくら", "Kenji", "Maria", "Olu", "Ines", "Taro", "Lena", "Yuki"]


def _seed(db: str) -> tuple[str, list[str]]:
    """Sixty rated players of four-hand Pinochle (one with 24 games and a vs-computers
    rating); the first player's id and every key."""
    storage = Storage(db)
    rng = random.Random(3)
    keys, first = [], ""
    now = time.time() - 30 * 86400
    for n in range(60):
        key, player = storage.new_player(f"{NAMES[n % len(NAMES)]}{'' if n < 10 else n}")
        keys.append(key)
        first = first or player.id
        r = Rating()
        games = 24 if n == 0 else rng.randint(3, 14)
        for g in range(games):
            won = rng.random() < (0.7 if n == 0 else 0.5)
            seats = [SeatResult(player.id, 0, 1 if won else 2,
                                standin_share=0.0 if g % 5 else 0.2),
                     SeatResult(None, 1, 2 if won else 1, fixed=Rating(25.0, 2.0))]
            [up] = rate_game(seats, {player.id: r})
            with storage._tx() as conn:
                write_updates(conn, "pinochle4", "rated", f"t{n}-{g}", [up], {player.id: g},
                              now + g * 3600 * 20)
            r = up.after
        if n == 0:
            with storage._tx() as conn:
                write_updates(conn, "pinochle4", "computers", "solo",
                              [Update(0, player.id, Rating(), VERSUS, 1.0, 1)], {}, now)
    storage.close()
    return first, keys


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, list[str]]]:
    tmp = tmp_path_factory.mktemp("ratings")
    first, keys = _seed(f"sqlite:///{tmp / 'browser.sqlite3'}")
    with running_server(tmp, 0.0) as base:
        yield base, first, keys


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", [(1280, 800), (360, 740)])
def test_leaderboard_and_player_page(browser: Any, seeded: tuple[str, str, list[str]],
                                     lang: str, size: tuple[int, int]) -> None:
    base, first, keys = seeded
    page = new_page(browser, *size, locale="ja-JP" if lang == "ja" else "en-US")
    page.context.add_init_script(f"localStorage.setItem('cardplaza.lang', '{lang}');")
    try:
        page.goto(f"{base}/#/")
        page.click("#nav-ratings")
        page.wait_for_selector("#ratings-game", timeout=45_000)
        page.select_option("#ratings-game", "pinochle4")
        page.wait_for_selector("table.ratings-board tbody tr", timeout=45_000)
        rows = page.locator("table.ratings-board tbody tr")
        assert rows.count() == 25  # a full first page
        assert page.locator("nav.pager").is_visible()
        text = page.inner_text("main")
        assert ("provisional" if lang == "en" else "暫定") in text
        assert "#" + first[:4] in text
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= size[0] + 1, f"the board is {wide}px wide in a {size[0]}px window"
        tag = f"{size[0]}x{size[1]}_{lang}"
        shot(page, f"leaderboard_{tag}", folder=SHOTS)
        html = page.content()
        page.click(f"a[href='#/ratings/pinochle4/p/{first}']")
        page.wait_for_selector(".ratings-chart svg polyline", timeout=45_000)
        text = page.inner_text("main")
        # The sentence names the level nearest the player's vs-computers rating.
        computers.load_table.cache_clear()
        level, where = computers.nearest_level("pinochle4", VERSUS.mu) or ("", 9)
        name = catalog(lang).get(f"level.pinochle4.{level}") or catalog(lang)[f"level.{level}"]
        if where == 0:
            assert (f"Plays about as well as {name}." if lang == "en"
                    else f"「{name}」のコンピュータと同じくらいの強さです。") in text
        assert page.locator("main table tbody tr").count() == 10
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= size[0] + 1, f"the page is {wide}px wide in a {size[0]}px window"
        shot(page, f"player_{tag}", folder=SHOTS)
        html += page.content()
        for key in keys:
            assert key not in html
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()

