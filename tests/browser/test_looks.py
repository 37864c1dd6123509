"""How the tables and the lobby look: every seat has a face (computer players a name and a
drawn portrait wearing their level's sign, a person their initial), the lobby shows each
game with its drawn card fan, player count and description and a Continue entry for a table
of this browser still in play, seven seats on a phone stand apart and clear of the trick with
the end screen's buttons in view, and the replay viewer writes a face-up hand out by suit
readably on a phone. At 1280×800 and 360×740, in English and Japanese; screenshots saved."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from cp_browser import (
    layout_problems,
    my_move,
    new_page,
    next_frame,
    play_to_end,
    set_language,
    shot,
    start_from_lobby,
)

from cardplaza.core.history import GameRecord
from cardplaza.core.registry import get_game
from cardplaza.games.pinochle4.rules import card_text
from cardplaza.texts.catalog import catalog

pytestmark = pytest.mark.browser

SIZES = [(1280, 800), (360, 740)]
LANGS = ["en", "ja"]
APART_JS = (Path(__file__).resolve().parent / "seats_apart.js").read_text(encoding="utf-8")

TILES_JS = """() => [...document.querySelectorAll('.game-list .game-tile')].map(a => ({
  game: a.getAttribute('href').split('/').pop(),
  name: a.querySelector('.game-name')?.textContent ?? '',
  cards: a.querySelectorAll('svg.emblem > g').length,
  emblem: a.querySelector('svg.emblem')?.innerHTML ?? '',
  players: a.querySelector('.game-players')?.textContent ?? '',
  desc: a.querySelector('.game-desc')?.textContent ?? '',
  emblemBox: (() => { const r = a.querySelector('.game-suits').getBoundingClientRect();
                      return [r.width, r.height]; })() }))"""

SEATS_JS = """() => [...document.querySelectorAll('.seat')].map(s => ({
  seat: Number(s.dataset.seat), name: s.querySelector('.seat-name').textContent,
  kind: s.querySelector('.avatar')?.dataset.kind ?? null,
  tier: s.querySelector('.avatar')?.dataset.tier ?? null,
  art: s.querySelector('.avatar svg')?.innerHTML ?? '',
  letter: s.querySelector('.avatar svg text')?.textContent ?? null,
  size: s.querySelector('.avatar')?.getBoundingClientRect().width ?? 0 }))"""


def players_text(game: str, lang: str) -> str:
    texts = catalog(lang)
    if game == "efudatori":
        return texts["lobby.players.range"].format(lo=2, hi=7)
    n = {"pinochle2": 2, "piquet": 2, "pinochle3": 3}.get(game, 4)
    return texts["lobby.players"].format(n=n)


def test_the_lobby_shows_each_games_look_and_continues_a_table(browser: Any, server: str) -> None:
    for w, h in SIZES:
        for lang in LANGS:
            page = new_page(browser, w, h)
            try:
                page.goto(f"{server}/#/")
                page.wait_for_selector(".game-list")
                set_language(page, lang)
                tiles = page.evaluate(TILES_JS)
                assert len(tiles) == 6
                texts = catalog(lang)
                for tile in tiles:
                    assert tile["cards"] >= 2, tile
                    assert tile["players"] == players_text(tile["game"], lang), tile
                    assert tile["desc"] == texts[f"desc.{tile['game']}"], tile
                    assert tile["emblemBox"][0] >= 48 and tile["emblemBox"][1] >= 48, tile
                assert len({tile["emblem"] for tile in tiles}) == 6, "two games share a look"
                assert page.evaluate("document.documentElement.scrollWidth") <= w
                assert not page.query_selector(".resume"), "nothing is in play yet"
                shot(page, f"looks_lobby_{lang}_{w}x{h}")
                if (w, lang) != (360, "ja"):
                    continue
                # A table started here and left: the lobby offers to continue it.
                start_from_lobby(page, server, "efudatori", {"players": 4, "__level": "1"})
                table = page.url.split("#/play/")[1]
                page.goto(f"{server}/#/")
                entry = page.wait_for_selector(".resume-list li")
                assert entry.query_selector("svg.emblem")
                title = next(tile["name"] for tile in tiles if tile["game"] == "efudatori")
                assert title in entry.inner_text()
                shot(page, f"looks_lobby_continue_{lang}_{w}x{h}")
                page.click(f'.resume-list a[href="#/play/{table}"]')
                page.wait_for_selector(".table-view[data-step]")
                assert page.url.endswith(f"#/play/{table}")
                assert page.locator(".hand .card").count() > 0
                assert not page.js_errors, page.js_errors
            finally:
                page.context.close()


def test_every_seat_has_a_face_and_the_end_screen_shows_them(browser: Any, server: str) -> None:
    page = new_page(browser, *SIZES[0])
    try:
        start_from_lobby(page, server, "efudatori",
                         {"players": 5, "__level": "1", "#opt-player": "Ren"}, seed=4)
        for w, h in SIZES:
            page.set_viewport_size({"width": w, "height": h})
            for lang in LANGS:
                set_language(page, lang)
                seats = sorted(page.evaluate(SEATS_JS), key=lambda s: s["seat"])
                assert [s["seat"] for s in seats] == list(range(5))
                me, others = seats[0], seats[1:]
                assert me["kind"] == "person" and me["letter"] == "R", me
                texts = catalog(lang)
                assert [s["name"] for s in others] == [texts[f"look.cpu.{s}"] for s in range(1, 5)]
                assert all(s["kind"] == "computer" and s["tier"] == "0" for s in others), others
                assert len({s["art"] for s in others}) == 4, "two computers look alike"
                assert all(s["size"] >= 16 for s in seats), seats
                assert not layout_problems(page)
                shot(page, f"looks_faces_efudatori5_{lang}_{w}x{h}", full_page=False)
        page.set_viewport_size({"width": 360, "height": 740})
        set_language(page, "en")
        deadline = time.time() + 120
        while not page.query_selector(".dialog.end") and time.time() < deadline:
            page.wait_for_selector(".table-view[data-my-turn='1'], #continue-btn, .dialog.end")
            if page.query_selector("#continue-btn"):
                page.click("#continue-btn")
            elif not page.query_selector(".dialog.end"):
                assert my_move(page)
        page.wait_for_selector(".dialog.end")
        for lang in LANGS:
            set_language(page, lang)
            rows = page.eval_on_selector_all(
                ".dialog.end table.result tbody td.name",
                "tds => tds.map(td => [td.querySelector('.name-face').lastChild.textContent,"
                " td.querySelector('.avatar svg') !== null])")
            assert len(rows) == 5 and all(has for _name, has in rows), rows
            texts = catalog(lang)
            names = {name for name, _ in rows}
            assert names == {texts["table.you"], *(texts[f"look.cpu.{s}"] for s in range(1, 5))}
            shot(page, f"looks_end_efudatori5_{lang}_360x740", full_page=False)
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()


def test_a_stronger_computer_wears_another_sign_and_a_person_a_chosen_face(
        browser: Any, server: str) -> None:
    page = new_page(browser, 360, 740)
    try:
        # The player chose the third portrait in the lobby; the computers play at expert.
        start_from_lobby(page, server, "pinochle4", {"strength": "expert", "#face-2": True})
        seats = page.evaluate(SEATS_JS)
        computers = [s for s in seats if s["kind"] == "computer"]
        assert len(computers) == 3 and {s["tier"] for s in computers} == {"3"}, computers
        me = next(s for s in seats if s["seat"] == 0)
        assert me["kind"] == "person" and me["letter"] is None and me["art"], me
        assert me["art"] not in {s["art"] for s in computers}
        page.goto(f"{server}/#/game/pinochle4")
        assert page.wait_for_selector("#face-2").is_checked()  # remembered
        page.go_back()
        page.wait_for_selector(".table-view[data-step]")
        shot(page, "looks_faces_pinochle4_en_360x740", full_page=False)
        page.set_viewport_size({"width": 1280, "height": 800})
        next_frame(page)
        shot(page, "looks_faces_pinochle4_en_1280x800", full_page=False)
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()


END_BUTTONS_JS = """() => [...document.querySelectorAll('.dialog.end .end-bar .btn')].map(b => {
  const r = b.getBoundingClientRect();
  const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  const words = document.createRange();
  words.selectNodeContents(b);
  const tops = new Set([...words.getClientRects()].filter(q => q.width > 0)
    .map(q => Math.round(q.top)));
  return { text: b.textContent, inView: r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight
           && r.right <= innerWidth && r.height > 0, free: !!at && b.contains(at),
           lines: tops.size, height: r.height }; })"""


def test_seven_seats_stand_apart_on_a_phone(open_page: Any, server: str) -> None:
    page = open_page(360, 740)
    start_from_lobby(page, server, "efudatori", {"players": 7, "__level": "1"}, seed=2)
    turns = 0
    deadline = time.time() + 150
    while time.time() < deadline:
        page.wait_for_selector(".table-view[data-my-turn='1'], #continue-btn, .dialog.end")
        if page.query_selector(".dialog.end"):
            break
        if page.query_selector("#continue-btn"):
            page.click("#continue-btn")
            continue
        for lang in LANGS:
            set_language(page, lang)
            for w, h in ((360, 740), (1280, 800)):
                page.set_viewport_size({"width": w, "height": h})
                next_frame(page)
                problems = page.evaluate(APART_JS) + layout_problems(page)
                assert not problems, f"turn {turns} {lang} {w}x{h}: {problems}"
                if turns == 3:
                    shot(page, f"looks_efudatori7_{lang}_{w}x{h}", full_page=False)
            page.set_viewport_size({"width": 360, "height": 740})
        set_language(page, "en")
        assert my_move(page)
        turns += 1
    assert turns >= 5
    page.wait_for_selector(".dialog.end")
    for lang in LANGS:
        set_language(page, lang)
        for w, h in ((360, 740), (1280, 800)):
            page.set_viewport_size({"width": w, "height": h})
            next_frame(page)
            buttons = page.evaluate(END_BUTTONS_JS)
            assert len(buttons) >= 3, buttons
            assert all(b["inView"] and b["free"] for b in buttons), (lang, w, buttons)
            # Each button's words on one line: no two-line "Back to the games".
            one_line = [b["lines"] == 1 and b["height"] < 50 for b in buttons]
            assert all(one_line), (lang, w, buttons)
            shot(page, f"looks_efudatori7_end_{lang}_{w}x{h}", full_page=False)
    page.set_viewport_size({"width": 360, "height": 740})
    next_frame(page)
    page.click("#again-btn")  # reachable without scrolling inside the dialog
    page.wait_for_function("() => !document.querySelector('.dialog.end')")


HAND_LINES_JS = """() => [...document.querySelectorAll('.ring .seat')].map(s => {
  const box = s.querySelector('.hand-lines');
  if (!box) return { seat: s.dataset.seat, ids: null };
  const r = box.getBoundingClientRect();
  const ranks = [...box.querySelectorAll('[data-id]')];
  return { seat: s.dataset.seat, ids: ranks.map(x => Number(x.dataset.id)).sort((a, b) => a - b),
           lines: [...box.querySelectorAll('.hl-line .hl-suit')].map(x => x.textContent),
           font: Math.min(...ranks.map(x => parseFloat(getComputedStyle(x).fontSize))),
           overlaps: ranks.filter((x, i) => ranks.some((y, j) => {
             if (i === j) return false;
             const a = x.getBoundingClientRect(), b = y.getBoundingClientRect();
             return Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
               && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5; })).length,
           inView: r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight,
           thumbs: s.querySelectorAll('.card').length }; })"""


def test_the_replay_writes_a_face_up_hand_out_by_suit(browser: Any, server: str,
                                                      tmp_path: Path) -> None:
    spec = get_game("pinochle4")
    state = spec.new_game(spec.options({}), 31)
    rng = random.Random(5)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    record = GameRecord.of(state)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record.to_json()), encoding="utf-8")
    step = 20
    at = record.new_state()
    for _seat, action in record.actions[:step]:
        at.apply(at.action_from_json(action))
    hands = {str(s): sorted(at.observation(s)["hand"]) for s in range(1, 4)}
    suit_of = {c: card_text(c)[-1] for h in hands.values() for c in h}
    for w, h in SIZES:
        for lang in LANGS:
            page = new_page(browser, w, h)
            try:
                page.goto(f"{server}/#/")
                page.set_input_files("#record-file", str(path))
                page.wait_for_selector(".replay-view[data-replay-step='0']")
                page.locator(".rep-slider").fill(str(step))
                page.wait_for_selector(f".replay-view[data-replay-step='{step}']")
                set_language(page, lang)
                seats = {s["seat"]: s for s in page.evaluate(HAND_LINES_JS)}
                for seat, cards in hands.items():
                    got = seats[seat]
                    assert got["ids"] == cards, (seat, got)
                    assert got["thumbs"] == 0, "thumbnails of the hand are back"
                    assert got["font"] >= 12 and got["overlaps"] == 0, got
                    assert got["inView"], got
                    assert len(got["lines"]) == len(set(got["lines"])), got  # one line a suit
                    assert sorted(got["lines"]) == sorted({suit_of[c] for c in cards}), got
                assert not page.evaluate(APART_JS.replace(
                    "for (const c of document.querySelectorAll('.trick .play .card'))",
                    "for (const c of [])"))
                shot(page, f"looks_replay_{lang}_{w}x{h}", full_page=False)
                assert not page.js_errors, page.js_errors
            finally:
                page.context.close()


def test_the_end_screen_shows_both_faces_with_the_winner_marked(browser: Any,
                                                                server: str) -> None:
    page = new_page(browser, 360, 740)
    try:
        start_from_lobby(page, server, "piquet", {"four_deals": True, "__level": "1"})
        play_to_end(page, 300)
        for lang in LANGS:
            set_language(page, lang)
            faces = page.eval_on_selector_all(
                ".dialog.end .end-faces li",
                "lis => lis.map(li => ({ name: li.querySelector('.end-face-name').textContent,"
                " face: !!li.querySelector('.avatar svg'), won: li.classList.contains('won'),"
                " badge: li.querySelector('.badge.won')?.textContent ?? null }))")
            texts = catalog(lang)
            assert [f["name"] for f in faces] == [texts["table.you"], texts["look.cpu.1"]], faces
            assert all(f["face"] for f in faces), faces
            msg = page.evaluate("() => import('/static/table.js').then(m => {"
                                " const x = m.currentTable().view.msg;"
                                " return { returns: x.returns, winners: x.winners ?? null }; })")
            winners = msg["winners"] if msg["winners"] is not None else [
                s for s, r in enumerate(msg["returns"]) if r == max(msg["returns"])]
            assert [f["won"] for f in faces] == [s in winners for s in range(2)], (faces, msg)
            assert all((f["badge"] == texts["look.end.winner"]) == f["won"] for f in faces)
            buttons = page.evaluate(END_BUTTONS_JS)
            assert buttons and all(b["inView"] and b["free"] for b in buttons), buttons
            shot(page, f"looks_end_piquet_{lang}_360x740", full_page=False)
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()
