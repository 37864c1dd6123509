"""Double-deck Pinochle on a phone (360×740), in English and Japanese: every phase fits
without scrolling, each of a 20-card hand's cards shows at least 28 px and is chosen by a
tap in the middle of what shows, identical cards are chosen one by one, meld bids and the
bid steps send what they say, and the throw-in asks before it concedes."""

from __future__ import annotations

import re
import time
from collections import Counter
from typing import Any

import pytest
from cp_browser import (
    SPOTS_JS,
    layout_problems,
    my_move,
    set_language,
    shot,
    start_from_lobby,
    step_of,
    tap_every_card,
    wait_change,
)

pytestmark = pytest.mark.browser

PHONE = (360, 740)
WEAK = {"__level": "weak", "target": 1500}



def hand_ids(page: Any) -> list[int]:
    ids = page.eval_on_selector_all(".hand .card", "els => els.map(e => e.dataset.id)")
    return [int(x) for x in ids]


def phase_of(page: Any) -> str:
    """The phase asked of the player, with the passing told apart by hand size and the
    first lead (melds on the table) told apart from the rest of the play."""
    ask = page.get_attribute(".table-view", "data-ask") or ""
    if ask == "pass":
        return f"pass{page.locator('.hand .card').count()}"
    if ask == "play" and page.locator(".meld-board").count():
        return "meld"
    return ask


def bid_or_pass(page: Any, bid_below: int) -> None:
    """Bid the amount shown while it is under ``bid_below``, else pass."""
    step = step_of(page)
    if int(page.inner_text("#bid-amount")) < bid_below:
        page.click("#bid-btn")
    else:
        page.click("#pass-btn")
    wait_change(page, step)


def play_until(page: Any, wanted: set[str], check: Any, limit: float = 240.0) -> set[str]:
    """Play (bidding to win until the player has named trump once, then passing) until every
    phase in ``wanted`` has been checked by ``check(page, phase)``; the phases seen."""
    seen: set[str] = set()
    deadline = time.time() + limit
    while wanted - seen and time.time() < deadline:
        page.wait_for_selector(".table-view[data-my-turn='1'], #continue-btn, .dialog.end")
        assert not page.query_selector(".dialog.end"), f"the game ended before {wanted - seen}"
        if page.query_selector("#continue-btn"):
            if "summary" in wanted - seen:
                check(page, "summary")
                seen.add("summary")
            page.click("#continue-btn")
            continue
        phase = phase_of(page)
        if phase in wanted - seen:
            check(page, phase)
            seen.add(phase)
            if not wanted - seen:
                break
        if phase == "bid":
            bid_or_pass(page, 70 if "trump" not in seen else 0)
        else:
            assert my_move(page), f"no move in phase {phase}"
    return seen


def test_every_phase_fits_a_phone_in_both_languages(open_page: Any, server: str) -> None:
    page = open_page(*PHONE)
    wanted = {"bid", "trump", "pass20", "pass24", "meld", "play", "summary"}

    def check(page: Any, phase: str) -> None:
        for lang in ("en", "ja"):
            set_language(page, lang)
            if phase == "summary":
                box = page.locator(".dialog.summary").bounding_box()
                assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE[1], box
                assert page.locator("#continue-btn").is_visible()
                text = page.inner_text(".dialog.summary")
                assert ("Counters" if lang == "en" else "カウンター") in text, text
            else:
                problems = layout_problems(page)
                assert not problems, f"{phase} {lang}: {problems}"
            if phase == "bid":
                # The meld for each trump: all four suits in view (layout_problems finds
                # one hidden, cut off or covered) beside bubbles of the seats that bid.
                assert page.locator(".helper-suit").count() == 4
                assert page.locator(".felt .seat .bubble").count() >= 1
            shot(page, f"dd_{phase}_{lang}_360x740", full_page=False)
        set_language(page, "en")

    start_from_lobby(page, server, "pinochle_dd", WEAK, seed=1)
    seen = play_until(page, wanted, check)
    assert seen == wanted, f"phases never reached: {wanted - seen}"


BID_LOOK_JS = """() => {
  const box = (e) => { const r = e.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; };
  const seen = (e) => { const r = e.getBoundingClientRect();
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!at && e.contains(at); };
  return {
    suits: [...document.querySelectorAll('.helper-suit')].map(e => ({ text: e.textContent,
      box: box(e), seen: seen(e) })),
    high: [...document.querySelectorAll('.bidding-info .big')].map(box),
    bubbles: [...document.querySelectorAll('.felt .seat .bubble')].map(e => ({
      text: e.textContent, box: box(e) })),
  }; }"""


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (min(a["right"], b["right"]) - max(a["left"], b["left"]) > 1
            and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 1)


def test_the_meld_by_trump_row_and_the_bid_bubbles_stay_clear(open_page: Any,
                                                                  server: str) -> None:
    """A turn to bid after a meld bid and a pass (this deal): the meld for each trump shows
    its four suits whole and uncovered, and no seat's bid bubble lies over the high-bid
    line, on a phone and a wide screen, in both languages."""
    page = open_page(*PHONE)
    start_from_lobby(page, server, "pinochle_dd", WEAK, seed=2)
    page.wait_for_selector(".table-view[data-my-turn='1']")
    assert page.get_attribute(".table-view", "data-ask") == "bid"
    assert page.locator(".bidding-info .signals").count() == 1, "a meld bid came first"
    for width, height in (PHONE, (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        for lang in ("en", "ja"):
            set_language(page, lang)
            problems = layout_problems(page)
            assert not problems, (width, lang, problems)
            look = page.evaluate(BID_LOOK_JS)
            assert len(look["suits"]) == 4, look
            for suit in look["suits"]:
                b = suit["box"]
                inside = (b["left"] >= 0 and b["top"] >= 0 and b["right"] <= width
                          and b["bottom"] <= height)
                assert inside and suit["seen"], (width, lang, suit)
            assert len(look["high"]) == 1 and len(look["bubbles"]) >= 2, look
            for bubble in look["bubbles"]:
                assert not overlap(bubble["box"], look["high"][0]), (width, lang, bubble)
            shot(page, f"dd_bid_after_meld_bid_{lang}_{width}x{height}", full_page=False)


def test_twenty_cards_each_show_28_px_and_a_tap_chooses_that_card(open_page: Any,
                                                                  server: str) -> None:
    """The partner's passing: twenty cards to choose from, each chosen by a tap in the
    middle of what shows of it, identical copies one at a time; then two identical cards
    passed together leave the hand together."""
    page = open_page(*PHONE)

    def check(page: Any, phase: str) -> None:
        assert page.locator(".hand").get_attribute("data-rows") == "2"
        for lang in ("en", "ja"):
            set_language(page, lang)
            assert tap_every_card(page, lang) == 20
        set_language(page, "en")
        ids = hand_ids(page)
        twins = [c for c, n in Counter(ids).items() if n >= 2]
        assert twins, "this deal was chosen for a pair of identical cards"
        face = twins[0]
        first, second = [i for i, c in enumerate(ids) if c == face][:2]
        spots = page.evaluate(SPOTS_JS)
        page.mouse.click(spots[second]["x"], spots[second]["y"])
        page.wait_for_selector(".hand .card.selected")
        assert page.locator(".hand .card.selected").count() == 1
        assert page.locator(".hand .card").nth(second).get_attribute("aria-pressed") == "true"
        spots = page.evaluate(SPOTS_JS)
        page.mouse.click(spots[first]["x"], spots[first]["y"])
        page.wait_for_function(
            "() => document.querySelectorAll('.hand .card.selected').length === 2")
        others = [i for i, c in enumerate(ids) if c != face][:2]
        for i in others:
            spots = page.evaluate(SPOTS_JS)
            page.mouse.click(spots[i]["x"], spots[i]["y"])
        page.wait_for_selector("#pick-confirm:not([disabled])")
        page.click("#pick-confirm")
        # The four cards go out one at a time; the hand summary says which went.
        page.wait_for_function("() => document.querySelector('.table-view').dataset.ask !== 'pass'")
        while not page.query_selector("#continue-btn"):
            page.wait_for_selector(".table-view[data-my-turn='1'], #continue-btn")
            if page.query_selector(".table-view[data-my-turn='1']") and not page.query_selector(
                    "#continue-btn"):
                assert my_move(page)
        gave = page.eval_on_selector_all(
            ".pass-line .card-row", "rows => [...rows[0].children].map(e => Number(e.dataset.id))")
        assert Counter(gave) == Counter([face, face, ids[others[0]], ids[others[1]]])
        shot(page, "dd_pass20_summary_360x740", full_page=False)

    start_from_lobby(page, server, "pinochle_dd", WEAK, seed=2)
    deadline = time.time() + 240
    done = False
    while not done and time.time() < deadline:
        page.wait_for_selector(".table-view[data-my-turn='1'], #continue-btn")
        if page.query_selector("#continue-btn"):
            page.click("#continue-btn")
            continue
        phase = phase_of(page)
        if phase == "pass20" and len(set(hand_ids(page))) < 20:
            check(page, phase)
            done = True
        elif phase == "bid":
            bid_or_pass(page, 0)
        else:
            assert my_move(page), f"no move in phase {phase}"
    assert done, "the partner never passed to a hand with identical cards"


def test_meld_bids_bid_steps_and_the_throw_in(open_page: Any, server: str) -> None:
    """A meld bid sends its amount; the stepper walks the allowed amounts (1 up to 60,
    then 5); the throw-in asks first, "No" keeps playing, "Yes" concedes the hand."""
    page = open_page(*PHONE)
    start_from_lobby(page, server, "pinochle_dd", WEAK, seed=1)
    page.wait_for_selector(".table-view[data-my-turn='1']")
    assert page.get_attribute(".table-view", "data-ask") == "bid"
    low = int(page.inner_text("#bid-amount"))
    shown = []
    for _ in range(14):
        page.click(".bid-row .btn.step >> nth=1")
        shown.append(int(page.inner_text("#bid-amount")))
    expected = [a for a in range(low + 1, 200) if a <= 60 or a % 5 == 0][:14]
    assert shown == expected
    page.click(".bid-row .btn.step >> nth=0")
    assert int(page.inner_text("#bid-amount")) == expected[-2]
    meld = page.locator(".meld-bid")
    assert meld.count() >= 1
    amount = int(meld.last.get_attribute("data-amount") or 0)
    tells = meld.last.inner_text()
    assert re.search(r"≈\s*(\d+)", tells)
    step = step_of(page)
    meld.last.click()
    wait_change(page, step)
    page.click('.tab[data-drawer="bids"]')
    assert str(amount) in page.inner_text(".bid-history")
    page.click(".drawer-close")

    def check(page: Any, phase: str) -> None:
        page.click("#throw-btn")
        page.wait_for_selector("#throw-yes")
        assert layout_problems(page) == []
        page.click("#throw-no")
        page.wait_for_selector("#throw-btn")
        step = step_of(page)
        page.click("#throw-btn")
        page.click("#throw-yes")
        wait_change(page, step)
        page.wait_for_selector("#continue-btn")
        assert "thrown in" in page.inner_text(".dialog.summary .verdict-line")
        change = page.inner_text(".dialog.summary tr.change td >> nth=0")
        assert change.startswith("-"), change

    seen = play_until(page, {"meld"}, check)
    assert seen == {"meld"}
