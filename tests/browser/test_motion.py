"""Motion: each card played slides in, a finished trick stays on the table with its winner
marked before it is gathered, and with reduced motion nothing animates at all."""

from __future__ import annotations

import time
from typing import Any

import pytest
from cp_browser import click, new_page, shot, start_from_lobby, step_of, wait_change

pytestmark = pytest.mark.browser

EFUDATORI = {"players": 4, "__level": "1"}

# Counts every animation the page starts: Web Animations, CSS animations and transitions.
COUNT_ANIMATIONS = """
window.__moves = { animate: 0, css: 0, most: 0 };
const _animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  window.__moves.animate++;
  return _animate.apply(this, args);
};
for (const ev of ['animationstart', 'transitionstart', 'transitionrun'])
  document.addEventListener(ev, () => { window.__moves.css++; }, true);
setInterval(() => {
  const n = document.getAnimations ? document.getAnimations().length : 0;
  if (n > window.__moves.most) window.__moves.most = n;
}, 20);
"""


def play_cards(page: Any, n: int) -> None:
    """Play ``n`` cards of one's own (the first legal one each time)."""
    for _ in range(n):
        page.wait_for_selector(".table-view[data-my-turn='1']")
        step = step_of(page)
        click(page.locator(".hand .card.legal").first)
        wait_change(page, step)


def test_finished_trick_is_held_with_its_winner_marked(browser: Any, server: str) -> None:
    page = new_page(browser, 360, 740, pace="slow")
    try:
        start_from_lobby(page, server, "efudatori", EFUDATORI, seed=1)
        page.wait_for_selector(".table-view[data-my-turn='1']")
        click(page.locator(".hand .card.legal").first)
        # The trick is complete once the last seat has played: it stays, winner marked.
        page.wait_for_selector(".trick.done .play.winner .win-tag", timeout=8000)
        seen = time.perf_counter()
        held = page.evaluate("""() => {
          const plays = [...document.querySelectorAll('.trick.done .play')];
          const win = document.querySelector('.trick.done .play.winner');
          return { n: plays.length, winner: win.dataset.seat,
                   card: win.querySelector('.card').dataset.id,
                   status: document.querySelector('.status .event').textContent };
        }""")
        assert held["n"] == 4
        assert "trick" in held["status"]
        shot(page, "motion_trick_held_360x740", full_page=False)
        page.wait_for_selector(".trick.done", state="detached", timeout=8000)
        assert time.perf_counter() - seen > 1.0, "the finished trick vanished at once"
        # The trick history names the same winner.
        page.click(".tab[data-drawer='tricks']")
        won = page.locator(".trick-history li").first.locator(".th-play.won .card")
        assert won.get_attribute("data-id") == held["card"]
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()


@pytest.mark.parametrize("reduced", [True, False], ids=["reduced-motion", "motion"])
def test_reduced_motion_moves_nothing(browser: Any, server: str, reduced: bool) -> None:
    page = new_page(browser, 360, 740, pace="fast", reduced_motion=reduced)
    try:
        page.context.add_init_script(COUNT_ANIMATIONS)
        start_from_lobby(page, server, "efudatori", EFUDATORI, seed=1)
        play_cards(page, 3)
        moves = page.evaluate("() => window.__moves")
        if reduced:
            assert moves == {"animate": 0, "css": 0, "most": 0}, moves
        else:  # the same play with motion allowed does animate: the counters see it
            assert moves["animate"] > 4, moves
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()


COUNT_SOUNDS = """
window.__sounds = 0;
for (const name of ['createOscillator', 'createBufferSource']) {
  const orig = AudioContext.prototype[name];
  AudioContext.prototype[name] = function (...args) {
    window.__sounds++;
    return orig.apply(this, args);
  };
}
"""


@pytest.mark.parametrize("on", [True, False], ids=["sound-on", "sound-off"])
def test_sounds_follow_the_remembered_toggle(browser: Any, server: str, on: bool) -> None:
    page = new_page(browser, 360, 740, pace="fast")
    try:
        page.context.add_init_script(COUNT_SOUNDS)
        page.context.add_init_script(
            f"localStorage.setItem('cardplaza.sound', '{str(on).lower()}')")
        start_from_lobby(page, server, "efudatori", EFUDATORI, seed=1)
        play_cards(page, 2)
        sounds = page.evaluate("() => window.__sounds")
        assert (sounds > 2) if on else (sounds == 0), sounds
    finally:
        page.context.close()
