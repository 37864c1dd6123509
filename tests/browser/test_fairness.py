"""Fair deals in the browser: the table shows the current deal's commitment (the one the
server sent) and links to the fairness page; after the game the replay viewer checks the
record and says so, with the hashes computed in the browser — or by the server when the page
has no ``crypto.subtle`` — and shows a failure for an altered record."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from cp_browser import new_page, play_to_end, shot, start_from_lobby
from ws_watch import states, watch_messages

from cardplaza.core import fairness
from cardplaza.core.history import GameRecord
from cardplaza.core.registry import get_game

pytestmark = pytest.mark.browser

NO_SUBTLE = "Object.defineProperty(Crypto.prototype, 'subtle', { get: () => undefined });"


def _game(choices: int) -> GameRecord:
    spec = get_game("efudatori")
    state = spec.new_game(spec.options({"players": 4}), 2**126 + 4242)
    rng = random.Random(choices)
    while not state.is_terminal:
        state.apply(rng.choice(list(state.legal_actions())))
    return GameRecord.of(state)


def _record_file(tmp_path: Path, name: str, alter: Any = None) -> Path:
    record = _game(5)
    data = record.to_json()
    data["fairness"] = fairness.fairness_block("tbl-File_1", record)
    if alter is not None:
        alter(data)
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _open_file(page: Any, server: str, path: Path) -> Any:
    page.goto(f"{server}/#/")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector(".replay-view[data-replay-step='0']")
    line = page.locator(".rep-fair:not([data-fair='running'])")
    line.wait_for()
    return line


def test_table_commitment_and_replay_check(browser: Any, server: str, tmp_path: Path) -> None:
    page = new_page(browser, 1280, 800)
    try:
        seen = watch_messages(page)
        start_from_lobby(page, server, "efudatori", {"players": 4, "__level": "1"}, seed=31)
        page.click('[data-drawer="tricks"]')
        summary = page.locator(".fair-commit summary")
        summary.wait_for()
        fair = states(seen)[-1]["fair"]
        assert fair["deal"] == 1
        assert fair["commitment"][:8] in summary.inner_text()
        summary.click()
        assert page.locator(".fair-commit .fair-hex").first.inner_text() == fair["commitment"]
        shot(page, "fair_table_en_1280x800", full_page=False)
        play_to_end(page)
        last = states(seen)[-1]
        page.click("#replay-btn")
        line = page.locator(".rep-fair[data-fair='ok']")
        line.wait_for()
        assert line.get_attribute("data-mode") == "browser"
        line.locator("summary").click()
        text = line.inner_text()
        assert "Deal checked: fair" in text and "this browser" in text
        assert "matches the commitments this browser was shown" in text
        assert last["terminal"] and last["fair"]["log"]
        shot(page, "fair_replay_en_1280x800", full_page=False)
        line.locator("a.fair-link").click()
        page.wait_for_selector(".fairness-page h1")
        page.click("#lang-btn")
        page.wait_for_function("() => document.querySelector('.fairness-page h1')"
                               "?.innerText.includes('公正な配札')")
        assert page.locator("#nav-fair").inner_text() == "公正な配札"
        shot(page, "fair_page_ja_1280x800", full_page=False)
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()


def test_record_files_checked_in_the_browser_or_by_the_server(browser: Any, server: str,
                                                               tmp_path: Path) -> None:
    good = _record_file(tmp_path, "good.json")

    def other_moves(data: dict[str, Any]) -> None:
        # Another legal game from the same deal under the genuine commitments and digest.
        other = _game(6).to_json()
        data["actions"], data["result"] = other["actions"], other["result"]

    def recommit(data: dict[str, Any]) -> None:
        # (A record whose seed was altered does not even replay: the viewer refuses it.)
        c = data["fairness"]["deals"][0]["commitment"]
        data["fairness"]["deals"][0]["commitment"] = ("0" if c[0] != "0" else "1") + c[1:]

    page = new_page(browser, 360, 740)
    try:
        line = _open_file(page, server, good)
        # On a phone the lobby's foot links the fairness page (the header has no room).
        page.goto(f"{server}/#/")
        page.locator("#fair-foot-link").wait_for()
        assert not page.locator("#nav-fair").is_visible()
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        shot(page, "fair_lobby_en_360x740", full_page=True)
        line = _open_file(page, server, good)
        assert line.get_attribute("data-fair") == "ok"
        assert line.get_attribute("data-mode") == "browser"
        line = _open_file(page, server, _record_file(tmp_path, "moves.json", other_moves))
        assert line.get_attribute("data-fair") == "bad"
        assert "Deal check failed" in line.inner_text()
        assert "changed, removed or reordered" in line.inner_text()
        shot(page, "fair_replay_bad_en_360x740", full_page=False)
        line = _open_file(page, server, _record_file(tmp_path, "commit.json", recommit))
        assert line.get_attribute("data-fair") == "bad"
        assert "does not match the revealed seed" in line.inner_text()
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()

    page = new_page(browser, 360, 740, locale="ja-JP")
    page.context.add_init_script(NO_SUBTLE)
    try:
        line = _open_file(page, server, good)
        page.goto(f"{server}/#/")
        page.locator("#fair-foot-link").click()
        page.wait_for_selector(".fairness-page h1")
        assert "公正な配札" in page.locator(".fairness-page h1").inner_text()
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        shot(page, "fair_page_ja_360x740", full_page=False)
        line = _open_file(page, server, good)
        assert line.get_attribute("data-fair") == "ok"
        assert line.get_attribute("data-mode") == "server"
        line.locator("summary").click()
        assert "サーバーで検証しました" in line.inner_text()
        shot(page, "fair_replay_server_ja_360x740", full_page=False)
        line = _open_file(page, server, _record_file(tmp_path, "commit2.json", recommit))
        assert line.get_attribute("data-fair") == "bad"
        assert line.get_attribute("data-mode") == "server"
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()
