"""Language switch, keyboard play, reload resume, rules pages and screenshots at two sizes."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from cp_browser import (
    my_move,
    new_page,
    play_to_end,
    shot,
    start_from_lobby,
    step_of,
    wait_change,
)

from cardplaza.core.registry import games

pytestmark = pytest.mark.browser


def test_language_switch_is_remembered(page: Any, server: str) -> None:
    page.goto(f"{server}/#/game/piquet")
    page.wait_for_selector("#start-btn")
    assert page.inner_text("#brand") == "Card Plaza"
    assert page.inner_text("#start-btn") == "Play against the computer"
    page.click("#lang-btn")
    page.wait_for_function(
        "() => document.querySelector('#start-btn')?.textContent === 'コンピューターと対戦'")
    assert page.inner_text("#brand") == "カードプラザ"
    assert page.get_attribute("html", "lang") == "ja"
    assert "ヤンガーは交換しなくてもOK" in page.inner_text(".options")
    page.reload()
    page.wait_for_selector("#start-btn")
    assert page.inner_text("#start-btn") == "コンピューターと対戦"
    shot(page, "lobby_piquet_ja_1280x800")
    page.click("#lang-btn")
    page.wait_for_function(
        "() => document.querySelector('#start-btn')?.textContent === 'Play against the computer'")


def test_japanese_browser_gets_japanese(browser: Any, server: str) -> None:
    pg = new_page(browser, locale="ja-JP")
    try:
        pg.goto(f"{server}/#/game/pinochle4")
        pg.wait_for_selector("#start-btn")
        assert pg.inner_text("#start-btn") == "コンピューターと対戦"
        text = pg.inner_text(".options")
        for label in ("コンピュータの強さ", "目標点", "全員パスなら配り直し",
                      "切り札がリードされたときだけ勝つカードを出す"):
            assert label in text
        # Deal 1: a computer bids before the human's turn, so the human is asked to bid.
        start_from_lobby(pg, server, "pinochle4", {}, seed=1)
        pg.wait_for_selector(".bidding")
        assert "ビッド" in pg.inner_text(".bidding")
        assert pg.inner_text(".status .turn") == "あなたのビッドです"
        shot(pg, "pinochle4_bidding_ja_1280x800")
        # Deal 2: the three computers pass and the dealer (the human) must name trump.
        start_from_lobby(pg, server, "pinochle4", {}, seed=2)
        pg.wait_for_selector(".trump-btn")
        assert pg.inner_text(".status .turn") == "切り札を決める"
        assert "全員パスのため、ディーラーのあなたが250で引き受けます" in pg.inner_text(".felt")
    finally:
        pg.context.close()


# Piquet's engine words that must not reach a Japanese page untranslated.
PIQUET_ENGLISH = re.compile(
    r"\b(Point|Sequences?|Sets?|Lead|Capture|Last trick|Cards|Capot|Pique|Repique|Tierce|Quart|"
    r"Quint|Quatorze|Trio|major|minor|To the|Making|No set|No sequence|None|Carte)\b")


def test_japanese_piquet_declarations_and_points(browser: Any, server: str) -> None:
    """Declarations, shown combinations and the deal's points all read in Japanese."""
    pg = new_page(browser, locale="ja-JP")
    try:
        start_from_lobby(pg, server, "piquet", {}, seed=1)
        for _ in range(12):
            pg.wait_for_selector(".table-view[data-my-turn='1']")
            my_move(pg)
        pg.click(".tab[data-drawer='declarations']")
        pg.wait_for_selector(".drawer-body .dialogue-list li")
        board = pg.inner_text(".table-view")
        for word in ("シークエンス", "リード", "トリックの勝ち"):
            assert word in board
        assert not PIQUET_ENGLISH.search(board), PIQUET_ENGLISH.search(board)
        assert pg.query_selector(".tab[data-drawer='details']") is None  # no raw field list
        shot(pg, "piquet_declared_ja_1280x800")
    finally:
        pg.context.close()


def test_keyboard_only_trick(page: Any, server: str) -> None:
    start_from_lobby(page, server, "efudatori", {"players": 2})
    page.wait_for_selector(".table-view[data-my-turn='1']")
    hand_before = page.locator(".hand .card").count()
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement?.classList.contains('legal')"):
            break
    else:
        pytest.fail("Tab never reached a playable card")
    legal = page.locator(".hand .card.legal").count()
    first = page.evaluate("() => document.activeElement.dataset.id")
    page.keyboard.press("ArrowRight")
    moved = page.evaluate("() => document.activeElement.dataset.id")
    if legal > 1:
        assert moved != first
    assert page.evaluate("() => document.activeElement.classList.contains('legal')")
    focus_style = page.evaluate(
        "() => getComputedStyle(document.activeElement).outlineStyle")
    assert focus_style != "none"
    label = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert label and " of " in label
    step = step_of(page)
    page.keyboard.press("Enter")
    wait_change(page, step)
    page.wait_for_function(
        "n => document.querySelectorAll('.hand .card').length < n", arg=hand_before + 1)
    assert page.locator(f".hand .card[data-id='{moved}']").count() == 0
    # The trick completes and the turn comes back: focus is on a playable card again,
    # so Enter alone plays on.
    page.wait_for_selector(".table-view[data-my-turn='1']")
    page.wait_for_function("() => document.activeElement?.classList.contains('legal')")
    step = step_of(page)
    page.keyboard.press("Enter")
    wait_change(page, step)
    assert step_of(page) > step


def test_illegal_card_shows_reason(page: Any, server: str) -> None:
    start_from_lobby(page, server, "efudatori", {"players": 4})
    deadline = time.time() + 60
    while time.time() < deadline:
        page.wait_for_selector(".table-view[data-my-turn='1'], .dialog.end")
        if page.query_selector(".dialog.end"):
            break
        bad = page.query_selector(".hand .card[aria-disabled='true'][title]")
        if bad:
            reason = bad.get_attribute("title")
            assert reason
            assert "not playable" in (bad.get_attribute("aria-label") or "")
            bad.click(force=True)  # a tap on a disabled card explains why
            assert page.inner_text(".status .err") == reason
            return
        step = step_of(page)
        page.click(".hand .card.legal")
        wait_change(page, step)
    pytest.fail("no unplayable card came up in this deal")


def test_reload_mid_game_resumes(page: Any, server: str) -> None:
    start_from_lobby(page, server, "pinochle2", {})
    for _ in range(3):
        page.wait_for_selector(".table-view[data-my-turn='1']")
        my_move(page)
    page.wait_for_selector(".table-view[data-my-turn='1']")
    step = step_of(page)
    hand = page.eval_on_selector_all(".hand .card", "els => els.map(e => e.dataset.id)")
    url = page.url
    page.reload()
    page.wait_for_selector(".table-view[data-my-turn='1']")
    assert page.url == url
    assert step_of(page) == step
    assert page.eval_on_selector_all(".hand .card", "els => els.map(e => e.dataset.id)") == hand
    page.goto(f"{server}/#/")
    page.wait_for_selector(".resume-list a")
    page.click(".resume-list a")
    page.wait_for_selector(".table-view[data-my-turn='1']")
    assert step_of(page) == step


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (360, 740)])
def test_screenshots(browser: Any, server: str, width: int, height: int) -> None:
    """The lobby, rules, high scores and the end of a game at both sizes in both languages
    (the table in every phase is in test_layout)."""
    size = f"{width}x{height}"
    for lang, locale in (("en", "en-US"), ("ja", "ja-JP")):
        pg = new_page(browser, width, height, locale)
        try:
            pg.goto(f"{server}/#/")
            pg.wait_for_selector(".game-tile")
            # A line about each game, in the page's language (no text left as its key).
            descriptions = pg.locator(".game-desc").all_inner_texts()
            assert len(descriptions) == len(games())
            assert not any(d.startswith("desc.") for d in descriptions), descriptions
            shot(pg, f"lobby_{lang}_{size}")
            pg.goto(f"{server}/#/game/pinochle2")
            pg.wait_for_selector("#start-btn")
            shot(pg, f"lobby_pinochle2_{lang}_{size}")
            pg.goto(f"{server}/#/game/pinochle_dd")
            pg.wait_for_selector("#start-btn")
            if lang == "ja":
                # Every option and choice is named in Japanese (tests/web checks the keys).
                texts = pg.evaluate("""() => [...document.querySelectorAll(
                  '.options label, .options select option')].map(e => e.textContent)""")
                english = [x for x in texts if x.isascii() and not x.replace("×", "").isdigit()]
                assert english == [], english
            shot(pg, f"lobby_pinochle_dd_{lang}_{size}")
            pg.goto(f"{server}/#/rules/pinochle2")
            pg.wait_for_selector(".rules h1, .rules h2")
            shot(pg, f"rules_pinochle2_{lang}_{size}")
            pg.goto(f"{server}/#/scores")
            pg.wait_for_selector("table.scores")
            assert "Hanako" in pg.inner_text("table.scores")
            shot(pg, f"scores_{lang}_{size}")
            start_from_lobby(pg, server, "efudatori", {"players": 2})
            play_to_end(pg)
            shot(pg, f"end_efudatori_{lang}_{size}", full_page=False)
            overflow = pg.evaluate(
                "() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 1, f"horizontal scrolling at {size}: {overflow}px"
            assert not pg.js_errors, pg.js_errors
        finally:
            pg.context.close()
