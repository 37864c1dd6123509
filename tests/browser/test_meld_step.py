"""The two-hand meld step on a phone: with three or more melds to choose from, every
choice is a button a tap in its middle reaches (nothing of the table lies over it), and no
two buttons read the same, in both languages."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest
from cp_browser import new_page, shot
from websockets.sync.client import connect

from cardplaza.core.delta import rebuild

pytestmark = pytest.mark.browser

TAP_CHECK = """() => [...document.querySelectorAll('.meld-choice button')].map((b) => {
  const r = b.getBoundingClientRect();
  const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  const inView = r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;
  return { label: b.textContent, reached: !!at && at.closest('button') === b, inView };
})"""


def _meld_step(base: str, seed: int) -> tuple[dict[str, Any], int] | None:
    """A practice table of ``seed`` played (the highest listed card each trick, the first
    meld offered) up to a meld step of the person's with three melds or more, or None."""
    r = httpx.post(f"{base}/api/tables", headers={"Origin": base},
                   json={"game": "pinochle2", "seed": seed, "level": "1",
                         "options": {"dealer": 1, "level": "1"}})
    assert r.status_code == 200, r.text
    table = r.json()
    state: dict[str, Any] | None = None
    with connect(base.replace("http", "ws", 1) + "/ws", origin=base) as ws:
        ws.send(json.dumps({"type": "join", "table": table["table"],
                            "token": table["token"]}))
        deadline = time.time() + 60
        while time.time() < deadline:
            msg = json.loads(ws.recv(timeout=30))
            if msg.get("type") != "state":
                continue
            state = rebuild(state, msg)
            if state.get("terminal"):
                return None
            if state.get("current") != state.get("seat"):
                continue
            legal = state["legal"]
            melds = [a for a in legal if (a.get("json") or {}).get("type") == "meld"]
            if state["obs"].get("step") == "meld":
                if len(melds) >= 3:
                    return table, len(legal)
                choice = melds[0] if melds else legal[0]
            else:
                choice = legal[-1]
            ws.send(json.dumps({"type": "act", "action": choice["json"]}))
    return None


def test_every_meld_button_is_tappable_and_says_something_of_its_own(
        browser: Any, server: str) -> None:
    found = next((f for f in (_meld_step(server, seed) for seed in range(1, 40)) if f), None)
    assert found is not None, "no deal brought a meld step with three melds"
    table, choices = found
    entry = {"table": table["table"], "token": table["token"], "seat": 0,
             "game": "pinochle2", "created": 0, "body": {}}
    for locale in ("en-US", "ja-JP"):
        page = new_page(browser, 360, 740, locale=locale)
        try:
            page.context.add_init_script(
                f"localStorage.setItem('cardplaza.tables', JSON.stringify([{json.dumps(entry)}]));")
            page.goto(f"{server}/#/play/{table['table']}")
            page.wait_for_selector(".meld-choice button")
            page.wait_for_timeout(300)
            buttons = page.evaluate(TAP_CHECK)
            shot(page, f"meld_step_{locale}_360x740", full_page=False)
            labels = [b["label"] for b in buttons]
            assert len(buttons) >= 4 and len(buttons) <= choices, buttons
            assert len(set(labels)) == len(labels), labels
            assert all(b["reached"] and b["inView"] for b in buttons), buttons
        finally:
            page.context.close()
