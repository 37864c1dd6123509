"""Hint, undo and the decision helper at the table, in English and Japanese: the hint names
a legal card and highlights it, undo gives the hand back, the bid helper's chances fall as
the bid rises, streak games offer none of them, the result screen counts what was used."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from cp_browser import (
    my_move,
    new_page,
    next_frame,
    phone_drawer,
    play_to_end,
    shot,
    start_from_lobby,
    step_of,
    switch_language,
)
from playwright.sync_api import expect
from ws_watch import states, watch_messages

pytestmark = pytest.mark.browser

EFUDATORI = {"players": 4, "__level": "1"}
WEAK = {"target": 500, "strength": "weak"}


def my_turn(page: Any) -> None:
    page.wait_for_selector(".table-view[data-my-turn='1']")


def hand(page: Any) -> list[int]:
    return [int(x) for x in page.eval_on_selector_all(
        ".hand .card", "els => els.map(e => e.dataset.id)")]


def last_of(seen: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return [m for m in seen if m.get("type") == kind][-1]


def tag_clear_of_my_seat(page: Any) -> None:
    """The hint's tag is drawn whole on screen above its card, over no part of the seat's
    name plate (the hand keeps room for it)."""
    tag = page.locator(".hand .card.hinted .hint-tag").bounding_box()
    card = page.locator(".hand .card.hinted").bounding_box()
    plate = page.locator(".seat.me").bounding_box()
    assert tag and card and plate
    assert tag["y"] + tag["height"] <= card["y"] + 1, (tag, card)
    assert tag["y"] >= 0 and tag["x"] >= 0, tag
    assert tag["x"] + tag["width"] <= page.viewport_size["width"], tag
    apart = (tag["y"] >= plate["y"] + plate["height"] - 0.5
             or tag["y"] + tag["height"] <= plate["y"] + 0.5
             or tag["x"] >= plate["x"] + plate["width"] - 0.5
             or tag["x"] + tag["width"] <= plate["x"] + 0.5)
    assert apart, (tag, plate)


def test_hint_names_a_legal_card_and_is_counted(browser: Any, ready: str) -> None:
    page = new_page(browser, 1280, 800)
    try:
        seen = watch_messages(page)
        start_from_lobby(page, ready, "efudatori", EFUDATORI, seed=3)
        my_turn(page)
        while len(states(seen)[-1]["legal"]) < 2:  # a real choice
            assert my_move(page)
            my_turn(page)
        page.click("#hint-btn")
        page.wait_for_selector(".hand .card.hinted")
        hint = last_of(seen, "hint")
        state = states(seen)[-1]
        assert hint["step"] == state["step"]
        (entry,) = [a for a in state["legal"] if a["json"] == hint["best"]]
        marked = page.eval_on_selector_all(".hand .card.hinted",
                                           "els => els.map(e => e.dataset.id)")
        assert marked == [str(entry["card"])]
        assert page.locator(".hand .card.hinted.legal").count() == 1
        assert page.inner_text(".learn-hint .lh-reason") == hint["reason"]["en"]
        assert page.inner_text(".learn-hint .lh-best") == hint["best_text"]
        # The drawer lists the choices with their values, best first.
        page.wait_for_selector(".learn-drawer .lh-choices tbody tr")
        rows = page.locator(".learn-drawer .lh-choices tbody tr")
        assert rows.count() == len(hint["choices"])
        assert rows.first.inner_text().startswith(hint["choices"][0]["text"])
        # Every number says what it measures: the value's unit and meaning, and each
        # choice against the best (which scores 0).
        assert page.locator(".learn-drawer .lh-choices tbody tr").first.locator(
            ".lh-gap").inner_text() == "0"
        assert "Against the best" in page.inner_text(".learn-drawer .lh-choices thead")
        meaning = page.inner_text(".learn-drawer .lh-meaning")
        assert "your side scores minus what the other side scores" in meaning, meaning
        tag_clear_of_my_seat(page)
        shot(page, "hint_en_1280x800", full_page=False)
        switch_language(page, "ja")
        assert page.inner_text(".learn-hint .lh-reason") == hint["reason"]["ja"]
        assert "おすすめ" in page.inner_text(".learn-hint")
        assert "最善との差" in page.inner_text(".learn-drawer .lh-choices thead")
        assert "相手側の得点を引いた値" in page.inner_text(".learn-drawer .lh-meaning")
        assert page.inner_text("#hint-btn") == "ヒント" and "待った" in page.inner_text("#undo-btn")
        shot(page, "hint_ja_1280x800", full_page=False)
        page.set_viewport_size({"width": 360, "height": 740})
        next_frame(page)
        assert page.locator(".hand .card.hinted").count() == 1
        tag_clear_of_my_seat(page)
        shot(page, "hint_ja_360x740", full_page=False)
        switch_language(page, "en")
        tag_clear_of_my_seat(page)
        shot(page, "hint_en_360x740", full_page=False)
        page.set_viewport_size({"width": 1280, "height": 800})
        # Play the game out: the result screen says how many hints and undos were used.
        play_to_end(page)
        assert page.inner_text("#learn-used") == "Hints used: 1 · Undos used: 0"
        # The end screen covers the bar: switch the language as its button would.
        page.evaluate("() => import('/static/i18n.js').then((m) => m.setLang('ja'))")
        page.wait_for_function("() => document.documentElement.lang === 'ja'")
        assert page.inner_text("#learn-used") == "ヒント 1回 ・ 待った 0回"
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()


def test_undo_past_a_draw_is_refused_and_the_hand_stays(browser: Any, ready: str) -> None:
    """E-fuda-tori draws from the stock after every trick: once the trick is over the drawn
    cards are known, so the undo is refused and nothing on the table changes."""
    page = new_page(browser, 1280, 800)
    try:
        seen = watch_messages(page)
        start_from_lobby(page, ready, "efudatori", EFUDATORI, seed=4)
        my_turn(page)
        before = hand(page)
        assert my_move(page)
        step = step_of(page)
        page.wait_for_function(
            "s => { const v = document.querySelector('.table-view');"
            " return Number(v.dataset.step) >= s && v.dataset.myTurn === '1'; }", arg=step)
        after, step = hand(page), step_of(page)
        assert after != before  # a card left the hand (E-fuda-tori draws another)
        page.click("#undo-btn")
        page.wait_for_timeout(1500)
        refused = [m for m in seen if m.get("code") == "undo_revealed"]
        assert refused, [m.get("type") for m in seen[-5:]]
        assert step_of(page) == step and hand(page) == after
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()


def chances(page: Any) -> dict[int, list[float]]:
    cells = page.eval_on_selector_all(
        ".learn-helper td.chance", "els => els.map(e => [Number(e.dataset.suit),"
        " Number(e.dataset.chance)])")
    out: dict[int, list[float]] = {}
    for suit, x in cells:
        out.setdefault(suit, []).append(x)
    return out


def test_bid_helper_shows_falling_chances(browser: Any, ready: str) -> None:
    page = new_page(browser, 1280, 800)
    try:
        seen = watch_messages(page)
        start_from_lobby(page, ready, "pinochle4", WEAK, seed=1)
        my_turn(page)
        obs = states(seen)[-1]["obs"]
        assert obs["phase"] == "bidding"
        # On a wide screen the odds open by themselves at the first bid.
        page.wait_for_selector(".learn-helper .lb-table td.chance")
        helper = last_of(seen, "helper")["table"]
        amounts = [int(x) for x in page.eval_on_selector_all(
            ".learn-helper tbody tr", "els => els.map(e => e.dataset.amount)")]
        low = obs["high_bid"] or obs["min_bid"]  # from the current high bid (or the minimum)
        assert amounts == helper["amounts"] and amounts[0] == low and len(amounts) > 2
        got = chances(page)
        assert sorted(got) == [0, 1, 2, 3]
        for col in got.values():
            assert len(col) == len(amounts)
            assert all(a >= b for a, b in itertools.pairwise(col)), col
        assert col[0] > col[-1]
        # Listed up to where every suit's chance falls under 5 % (that amount included).
        assert max(c[-2] for c in got.values()) >= 0.05
        assert max(c[-1] for c in got.values()) < 0.05 or amounts[-1] == obs["max_bid"]
        assert "Chance of making each bid" in page.inner_text(".learn-helper")
        # The simulation passes cards: its meld row says so, and the felt's line is the
        # meld held now (the two numbers differ, and neither is just "your meld").
        assert obs["options"]["passing"] > 0
        assert "Your meld after the pass (average)" in page.inner_text(".learn-helper")
        assert "Your meld now if trump is" in page.inner_text("body")
        page.click("#hint-btn")
        page.wait_for_selector(".learn-hint")
        shot(page, "helper_en_1280x800", full_page=False)
        switch_language(page, "ja")
        text = page.inner_text(".learn-helper")
        assert "各ビッドの達成率" in text and "自分のメルド" in text
        assert "パートナーのメルド" in text
        assert "Chance of making" not in text
        shot(page, "helper_ja_1280x800", full_page=False)
        phone_drawer(page, ".learn-helper", "#helper-btn")
        page.wait_for_selector(".drawer-body:not([hidden]) .learn-helper td.chance")
        shot(page, "helper_ja_360x740", full_page=False)
        switch_language(page, "en")
        page.wait_for_selector(".drawer-body:not([hidden]) .learn-helper td.chance")
        shot(page, "helper_en_360x740", full_page=False)
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()


def test_streak_game_has_no_hints_or_undo(browser: Any, ready: str) -> None:
    page = new_page(browser, 360, 740)
    try:
        page.goto(f"{ready}/#/game/pinochle2")
        page.wait_for_selector("#streak-nohelp")
        assert "off in a streak game" in page.inner_text("#streak-nohelp")
        page.click("#lang-btn")
        # The lobby is drawn again in Japanese after the switch: wait for that drawing.
        expect(page.locator("#streak-nohelp")).to_contain_text("連勝モードではヒント")
        page.click("#lang-btn")
        page.wait_for_function("() => document.documentElement.lang === 'en'")
        start_from_lobby(page, ready, "pinochle2", {"#mode-streak": True}, seed=8)
        page.wait_for_selector("#hint-btn")
        assert page.locator("#hint-btn[disabled]").count() == 1
        assert page.locator("#undo-btn[disabled]").count() == 1
        reason = ("Hints, helpers and undo are off in a streak game: its saved score must stay"
                  " honest.")
        assert page.inner_text(".learn-off") == reason
        assert page.get_attribute("#undo-btn", "title") == reason
        switch_language(page, "ja")
        assert "連勝記録のゲームではヒント" in page.inner_text(".learn-off")
        shot(page, "streak_off_ja_360x740", full_page=False)
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()


def test_piquet_exchange_helper_lists_the_best_discards(browser: Any, ready: str) -> None:
    page = new_page(browser, 1280, 800)
    try:
        seen = watch_messages(page)
        start_from_lobby(page, ready, "piquet", {"four_deals": True, "__level": "1"}, seed=1)
        my_turn(page)
        assert str(states(seen)[-1]["obs"]["phase"]).startswith("exchange")
        page.click("#helper-btn")
        page.wait_for_selector(".learn-helper .lh-choices tbody tr")
        table = last_of(seen, "helper")["table"]
        assert table["kind"] == "exchange"
        rows = page.locator(".learn-helper .lh-choices tbody tr")
        assert rows.count() == min(6, len(table["rows"]))
        assert rows.first.inner_text().startswith(table["rows"][0]["text"])
        assert "Best discards" in page.inner_text(".learn-helper")
        shot(page, "exchange_en_1280x800", full_page=False)
        switch_language(page, "ja")
        assert "よい捨て札" in page.inner_text(".learn-helper")
        shot(page, "exchange_ja_1280x800", full_page=False)
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()


def test_a_two_hand_suggestion_reads_on_one_line_on_a_phone(browser: Any, ready: str) -> None:
    """"play J♣" is not broken in two beside its figure and link; the close button keeps the
    panel's corner, over none of them."""
    page = new_page(browser, 360, 740)
    try:
        seen = watch_messages(page)
        start_from_lobby(page, ready, "pinochle2", {"#mode-practice": True}, seed=5)
        for _ in range(40):
            my_turn(page)
            state = states(seen)[-1]
            if state["obs"].get("step") == "play" and len(state["legal"]) >= 2:
                break
            assert my_move(page)
        page.click("#hint-btn")
        page.wait_for_selector(".hand .card.hinted")
        next_frame(page)
        best = page.locator(".learn-hint .lh-best")
        assert best.inner_text().startswith("play ")
        lines = best.evaluate(
            "e => { const r = document.createRange(); r.selectNodeContents(e);"
            " return new Set([...r.getClientRects()].map(b => Math.round(b.top))).size; }")
        assert lines == 1, best.inner_text()
        close = page.locator(".learn-hint .lh-close").bounding_box()
        panel = page.locator(".learn-hint").bounding_box()
        assert close and panel
        assert close["x"] + close["width"] <= panel["x"] + panel["width"] + 0.5
        assert close["y"] <= panel["y"] + 2
        for part in (".lh-best", ".lh-value", ".lh-more"):
            box = page.locator(f".learn-hint {part}").bounding_box()
            assert box and (box["x"] + box["width"] <= close["x"] + 0.5
                            or box["y"] >= close["y"] + close["height"] - 0.5), part
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()
