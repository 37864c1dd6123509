"""Game records in the browser: the record downloaded from the result screen replays through
``cardplaza replay`` to the same final scores; the replay viewer shows every hand as the
record has it at each step; the review marks each of the player's decisions; the statistics
page counts the game; the texts are there in Japanese too."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cp_browser import (
    axe_serious,
    layout_problems,
    new_page,
    next_frame,
    play_to_end,
    set_language,
    shot,
    start_from_lobby,
)
from ws_watch import states, watch_messages

from cardplaza.core.history import GameRecord

pytestmark = pytest.mark.browser

GAME = "efudatori"
OPTIONS = {"players": 4, "__level": "1"}


def final_scores(output: str) -> list[float]:
    """The numbers of the "Final scores:" line of ``cardplaza replay``."""
    line = next(x for x in output.splitlines() if "Final scores:" in x)
    parts = line.split("Final scores:", 1)[1].split("·")
    return [float(p.split()[-1]) for p in parts]


def shown_cards(page: Any) -> dict[str, Any]:
    """The cards on the replay table: every seat's hand and the trick."""
    return page.evaluate("""() => {
      const ids = (els) => [...els].map(c => Number(c.dataset.id)).sort((a, b) => a - b);
      const out = { hand: ids(document.querySelectorAll('.hand .card')), seats: {},
                    trick: [...document.querySelectorAll('.trick .play')].map(p => p.dataset.key) };
      for (const s of document.querySelectorAll('.ring .seat'))
        out.seats[s.dataset.seat] = ids(s.querySelectorAll('.hand-lines [data-id]'));
      return out; }""")


def go_to(page: Any, step: int) -> None:
    page.locator(".rep-slider").fill(str(step))
    page.wait_for_selector(f".replay-view[data-replay-step='{step}']")


def expected(record: GameRecord, step: int) -> dict[str, Any]:
    state = record.new_state()
    for _seat, action in record.actions[:step]:
        state.apply(state.action_from_json(action))
    views = [state.observation(s) for s in range(state.num_players)]
    trick = views[0]["trick"] or (views[0]["tricks"][-1]["cards"] if views[0]["tricks"] else [])
    return {"hand": sorted(views[0]["hand"]),
            "seats": {str(s): sorted(v["hand"]) for s, v in enumerate(views) if s},
            "trick": [f"{s}:{c}" for s, c in trick]}


def test_record_download_replay_review_and_statistics(browser: Any, server: str,
                                                       tmp_path: Path) -> None:
    page = new_page(browser, 1280, 800)
    try:
        seen = watch_messages(page)
        start_from_lobby(page, server, GAME, OPTIONS, seed=8)
        play_to_end(page)
        end = states(seen)[-1]
        assert end["terminal"]

        # The record from the result screen, through the command line.
        with page.expect_download() as info:
            page.click(".dialog.end .dl-btn")
        path = tmp_path / info.value.suggested_filename
        info.value.save_as(path)
        record = GameRecord.from_json(json.loads(path.read_text(encoding="utf-8")))
        cli = Path(sys.executable).with_name("cardplaza")
        run = subprocess.run([str(cli), "replay", str(path)], capture_output=True, text=True,
                             env={**os.environ, "COLUMNS": "250"}, timeout=120, check=True)
        assert final_scores(run.stdout) == [float(x) for x in end["returns"]]
        assert list(record.final_state().returns()) == end["returns"]

        # The replay viewer: the same cards as the record at each step looked at.
        page.click("#replay-btn")
        page.wait_for_selector(".replay-view[data-replay-step='0']")
        last = len(record.actions)
        assert page.locator(".rep-slider").get_attribute("max") == str(last)
        assert shown_cards(page) == expected(record, 0)
        for step in (1, 2, 3):
            page.keyboard.press("ArrowRight")
            page.wait_for_selector(f".replay-view[data-replay-step='{step}']")
            assert shown_cards(page) == expected(record, step), step
        page.keyboard.press("ArrowLeft")
        page.wait_for_selector(".replay-view[data-replay-step='2']")
        assert shown_cards(page) == expected(record, 2)
        for step in (last // 3, last // 2 + 1, last - 5, last):
            go_to(page, step)
            assert shown_cards(page) == expected(record, step), step
        status = page.inner_text(".status .turn")
        assert f"Step {last} of {last}" in status

        # The review: progress while it runs, then a mark beside each decision.
        # (The bar may come and go between two polls of a waiting test: an observer notes it.)
        page.evaluate("""() => { window.__bar = 0; new MutationObserver(() => {
            if (document.querySelector('.rev-progress progress')) window.__bar++; })
            .observe(document.body, { childList: true, subtree: true }); }""")
        page.click("#review-btn")
        page.wait_for_selector(".move .mark", timeout=180_000)
        assert page.evaluate("window.__bar") > 0, "no progress bar while the review ran"
        progress = [m for m in seen if m["type"] == "review_progress"]
        assert progress and progress[-1]["done"] == progress[-1]["total"] > 0
        review = next(m["review"] for m in seen if m["type"] == "review")
        decisions = review["decisions"]
        assert decisions
        marks = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
            '.move-list .move')].filter(li => li.querySelector('.mark')).map(li =>
            [li.dataset.step, li.querySelector('.mark').dataset.mark]))""")
        assert marks == {str(d["index"] + 1): d["mark"] for d in decisions if d["mark"]}
        assert review["seat"] == end["seat"]
        assert all(record.actions[d["index"]][0] == end["seat"] for d in decisions)
        legend = page.inner_text(".legend")
        th = review["thresholds"]
        for word in ("Good", "Inaccuracy", "Mistake", "Blunder"):
            assert word in legend
        for n in (th["inaccuracy"], th["mistake"], th["blunder"]):
            assert f"{n:g}" in legend
        rows = page.locator(".rev-hand-list li").all_inner_texts()
        assert len(rows) == len(review["hands"])
        for row, hand in zip(rows, review["hands"], strict=True):
            assert f"{hand['decisions']} decisions" in row
        worst = max(decisions, key=lambda d: d["loss"] or 0)
        go_to(page, worst["index"] + 1)
        detail = page.locator(".move.current .decision")
        assert detail.count() == 1
        assert len(detail.locator("table.alts tbody tr").all()) == len(worst["choices"])
        # The played move's value is always shown, with what the values measure.
        line = detail.locator(".rev-value").inner_text()
        assert line.startswith(("Your move scores", "The hint's own")), line
        assert detail.locator("table.alts tbody tr.played").count() == 1
        assert "to the end of the hand" in detail.locator(".rev-meaning").inner_text() \
            or "chance" in detail.locator(".rev-meaning").inner_text()
        assert page.locator(".rep-line .mark").get_attribute("data-mark") == worst["mark"]
        shot(page, "replay_en_1280x800", full_page=False)
        page.set_viewport_size({"width": 360, "height": 740})
        next_frame(page)
        shot(page, "replay_en_360x740", full_page=False)
        page.click(".tab[data-drawer='moves']")
        page.wait_for_selector(".drawer-body:not([hidden]) .move.current .decision")
        shot(page, "replay_moves_en_360x740", full_page=False)
        # The replay with its review: no serious accessibility violation (both languages).
        assert axe_serious(page) == []
        page.click(".lang-toggle")
        page.wait_for_selector("html[lang='ja']")
        text = page.inner_text("body")
        assert "手順と検討" in text and "損失" in text
        assert not re.search(r"\b(Moves|Review|Inaccuracy|Blunder|Points lost|Step)\b", text), text
        shot(page, "replay_moves_ja_360x740", full_page=False)
        page.click(".drawer-close")
        shot(page, "replay_ja_360x740", full_page=False)
        page.set_viewport_size({"width": 1280, "height": 800})
        next_frame(page)
        shot(page, "replay_ja_1280x800", full_page=False)
        assert axe_serious(page) == []

        # Statistics of this browser's player: the game just played.
        page.goto(f"{server}/#/stats")
        card = page.locator(".stats-game[data-game='efudatori']")
        card.wait_for()
        me = end["seat"]
        margin = end["returns"][me] - max(r for s, r in enumerate(end["returns"]) if s != me)
        values = dict(zip(card.locator("dt").all_inner_texts(),
                          card.locator("dd").all_inner_texts(), strict=True))
        assert values["対局数"] == "1"
        won = me in end["winners"] and len(end["winners"]) < len(end["returns"])
        assert values["勝ち"] == ("1" if won else "0")
        assert values["平均得点差"].replace("+", "") == f"{margin:g}"
        shot(page, "stats_ja_1280x800", full_page=False)
        page.set_viewport_size({"width": 360, "height": 740})
        next_frame(page)
        shot(page, "stats_ja_360x740", full_page=True)
        page.click("#lang-btn")
        page.wait_for_selector("html[lang='en']")
        # The page is drawn again in English once its data is fetched again.
        page.wait_for_function("() => document.querySelector('.stats-game')"
                               "?.innerText.includes('Average margin')")
        shot(page, "stats_en_360x740", full_page=True)
        page.set_viewport_size({"width": 1280, "height": 800})
        next_frame(page)
        shot(page, "stats_en_1280x800", full_page=False)
        page.reload()  # the page opened straight from its address
        card.wait_for()
        assert page.locator(".game-list").count() == 0

        # A record file opened in the lobby goes to the viewer.
        page.goto(f"{server}/#/")
        page.set_input_files("#record-file", str(path))
        page.wait_for_selector(".replay-view[data-replay-step='0']")
        assert page.evaluate("location.hash") == "#/replay/file"
        go_to(page, last // 2)
        assert shown_cards(page) == expected(record, last // 2)
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()


@pytest.mark.parametrize("seed_as", ["text", "number"])
def test_a_record_with_a_server_sized_seed_opens_in_the_viewer(browser: Any, server: str,
                                                               tmp_path: Path,
                                                               seed_as: str) -> None:
    """Deal seeds are 128-bit numbers: a record file holding one (written as text, as
    records are now, or as a number, as older ones were) opens in the replay viewer with
    every deal as it was."""
    import random

    from cardplaza.core.registry import get_game

    spec = get_game(GAME)
    state = spec.new_game(spec.options({"players": 4}), 2**127 + 987_654_321)
    rng = random.Random(3)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    record = GameRecord.of(state)
    text = json.dumps(record.to_json())
    assert f'"seed": "{record.seed}"' in text
    if seed_as == "number":
        text = text.replace(f'"seed": "{record.seed}"', f'"seed": {record.seed}')
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8")
    last = len(record.actions)
    page = new_page(browser, 360, 740)
    try:
        page.goto(f"{server}/#/")
        page.set_input_files("#record-file", str(path))
        page.wait_for_selector(".replay-view[data-replay-step='0']")
        go_to(page, last)
        assert shown_cards(page) == expected(record, last)
        go_to(page, 1)
        assert shown_cards(page) == expected(record, 1)
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()


def test_the_replay_trick_stays_between_the_seats(open_page: Any, server: str) -> None:
    """The replay's seats are tall (face-up hands, captured cards): the trick drawn in the
    middle shrinks to lie between them, on a wide screen and a phone, in both languages."""
    page = open_page(1280, 800)
    start_from_lobby(page, server, GAME, OPTIONS, seed=8)
    play_to_end(page)
    page.click("#replay-btn")
    page.wait_for_selector(".replay-view[data-replay-step='0']")
    last = int(page.locator(".rep-slider").get_attribute("max") or 0)
    for step in range(last // 2, last // 2 + 4):
        go_to(page, step)
        for size in ((1280, 800), (360, 740)):
            page.set_viewport_size(dict(zip(("width", "height"), size, strict=True)))
            next_frame(page)
            assert page.locator(".trick .card").count() > 0
            for lang in ("en", "ja"):
                set_language(page, lang)
                problems = layout_problems(page)
                assert not problems, (step, size, lang, problems)
            shot(page, f"replay_trick_{step}_{size[0]}x{size[1]}", full_page=False)
            set_language(page, "en")
        page.set_viewport_size({"width": 1280, "height": 800})
