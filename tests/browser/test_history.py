"""The history drawer: every trick of the hand with its leader and winner, and the auction,
exactly as the server's observation has them, in English and Japanese."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from cp_browser import my_move, new_page, phone_drawer, shot, start_from_lobby
from ws_watch import states, watch_messages

pytestmark = pytest.mark.browser


def drawer_tricks(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("""() => [...document.querySelectorAll(
        '.history .trick-history > li')].map(li => ({
        leader: Number(li.dataset.leader), winner: Number(li.dataset.winner),
        cards: [...li.querySelectorAll('.th-play .card')].map(c => Number(c.dataset.id)),
        led: li.querySelector('.th-play.led .th-who').textContent,
        ledTag: li.querySelectorAll('.th-led').length,
        won: [...li.querySelectorAll('.th-play.won .card')].map(c => Number(c.dataset.id)),
        taker: li.querySelector('.th-win').textContent }))""")


def test_history_drawer_lists_the_tricks_with_leader_and_winner(browser: Any, server: str) -> None:
    page = new_page(browser, 1280, 800)
    try:
        seen = watch_messages(page)
        start_from_lobby(page, server, "pinochle4", {"target": 500, "strength": "weak"}, seed=21)
        for _ in range(60):
            last = states(seen)[-1]
            if len(last["obs"]["tricks"]) >= 3 and last["current"] == last["seat"]:
                break
            page.wait_for_selector(".table-view[data-my-turn='1']")
            assert my_move(page)
        obs = states(seen)[-1]["obs"]
        assert len(obs["tricks"]) >= 3
        page.click(".tab[data-drawer='tricks']")
        page.wait_for_selector(".history .trick-history li")
        got = drawer_tricks(page)
        names = {0: "You", 1: "West", 2: "North", 3: "East"}
        assert len(got) == len(obs["tricks"])
        for tr, row in zip(obs["tricks"], got, strict=True):
            assert row["leader"] == tr["leader"] == tr["cards"][0][0]
            assert row["winner"] == tr["winner"]
            assert row["cards"] == [c for _s, c in tr["cards"]]
            assert row["led"] == names[tr["leader"]] and row["ledTag"] == 1
            winning = [c for s, c in tr["cards"] if s == tr["winner"]]
            assert row["won"] == winning
            assert names[tr["winner"]] in row["taker"]
        # Each trick is led by the winner of the one before.
        assert all(b["leader"] == a["winner"] for a, b in itertools.pairwise(got))
        # The auction: every bid and pass in order, and the contract.
        bids = page.locator(".history .hist-bids li")
        assert bids.count() == len(obs["bids"])
        for (seat, amount), text in zip(obs["bids"], bids.all_inner_texts(), strict=True):
            assert names[seat] in text
            assert ("Pass" in text) if amount == 0 else (str(amount) in text)
        contract = page.inner_text(".history .hist-contract")
        assert str(obs["contract"]) in contract and names[obs["bidder"]] in contract
        shot(page, "history_en_1280x800", full_page=False)
        page.click(".lang-toggle")
        page.wait_for_selector("html[lang='ja']")
        text = page.inner_text(".drawer-body")
        assert "このハンドの経過" in text and "打ち出し" in text and "ビッド" in text
        assert "led" not in text and "Bidding" not in text
        shot(page, "history_ja_1280x800", full_page=False)
        phone_drawer(page, ".history", ".tab[data-drawer='tricks']")
        page.wait_for_selector(".drawer-body:not([hidden]) .history")
        shot(page, "history_ja_360x740", full_page=False)
        page.click(".lang-toggle")
        page.wait_for_selector("html[lang='en']")
        page.wait_for_selector(".drawer-body:not([hidden]) .history")
        shot(page, "history_en_360x740", full_page=False)
        assert not page.js_errors, page.js_errors
    finally:
        page.context.close()
