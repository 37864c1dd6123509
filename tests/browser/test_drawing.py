"""The table is brought up to date, not rebuilt: drawing it again with nothing new changes no
node of the felt, the hand, the bar or the drawers' tabs; the cards still in the hand after a
trick are the same elements, and a card kept that way plays with the table's current state."""

from __future__ import annotations

from typing import Any

import pytest
from cp_browser import SHOWS_JS, click, my_move, start_from_lobby, step_of, wait_change

pytestmark = pytest.mark.browser

P4 = {"target": 500, "strength": "weak"}
PARTS = [".felt", ".hand", ".table-bar", ".status", ".side .tabs"]
REDRAW_WATCHED = """async (parts) => {
  const m = await import('/static/table.js');
  const seen = [];
  const watch = new MutationObserver((list) => { for (const r of list) seen.push(r); });
  for (const sel of parts) {
    const el = document.querySelector(sel);
    const all = { subtree: true, childList: true, attributes: true, characterData: true };
    if (el) watch.observe(el, all);
  }
  const before = parts.map((sel) => document.querySelector(sel));
  m.currentTable().redraw();
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const changes = seen.concat(watch.takeRecords());
  watch.disconnect();
  const after = parts.map((sel) => document.querySelector(sel));
  return {
    missing: parts.filter((sel, i) => !before[i]),
    replaced: parts.filter((sel, i) => before[i] !== after[i]),
    changes: changes.map((r) => `${r.type} ${r.target.nodeName}.${r.target.className || ''}`
                                 + (r.attributeName ? ` @${r.attributeName}` : '')),
  };
}"""
CARD = ".hand .card.legal:not(.selectable)"


def to_card_play(page: Any) -> None:
    """Make the moves asked of the player (bids, passes, choices) until a card is to be played."""
    for _ in range(40):
        page.wait_for_function(f"() => ({SHOWS_JS})() === 'turn'")
        if page.locator(CARD).count():
            return
        assert my_move(page)
    raise AssertionError("no card to play came")


def test_drawing_again_with_nothing_new_touches_nothing(page: Any, server: str) -> None:
    start_from_lobby(page, server, "pinochle4", P4)
    # In the auction (a bid asked) and in the play (a card asked): drawn again, nothing moves.
    page.wait_for_function(f"() => ({SHOWS_JS})() === 'turn'")
    for phase in ("auction", "play"):
        got = page.evaluate(REDRAW_WATCHED, PARTS)
        assert got["missing"] == [] and got["replaced"] == [], (phase, got)
        assert got["changes"] == [], (phase, got["changes"][:10])
        if phase == "auction":
            to_card_play(page)


def test_cards_kept_in_the_hand_are_the_same_elements_and_play_now(page: Any, server: str) -> None:
    start_from_lobby(page, server, "pinochle4", P4)
    to_card_play(page)
    page.evaluate("() => { window.__cards = new Set(document.querySelectorAll('.hand .card'));"
                  " window.__felt = document.querySelector('.felt'); }")
    held = page.locator(".hand .card").count()
    step = step_of(page)
    click(page.locator(CARD).first)
    wait_change(page, step)
    to_card_play(page)
    kept, now, same_felt = page.evaluate(
        "() => { const cards = [...document.querySelectorAll('.hand .card')];"
        " return [cards.filter((c) => window.__cards.has(c)).length, cards.length,"
        " document.querySelector('.felt') === window.__felt]; }")
    # One card played: every other card of the hand is the element it was.
    assert now == held - 1
    assert kept == now
    assert same_felt
    # A kept card plays with the table's state of now (its click handler is this drawing's):
    # the server takes it (a handler of the last drawing would send a past step, refused).
    step = step_of(page)
    card = page.locator(CARD).first
    card_id = card.get_attribute("data-id")
    click(card)
    wait_change(page, step)
    assert page.text_content(".status .err") == ""
    assert step_of(page) > step
    hand = page.eval_on_selector_all(".hand .card", "els => els.map(e => e.dataset.id)")
    assert card_id not in hand
