"""Two rules the server relies on, checked over the WebSocket as a player meets them: the
two-hand meld step never tells whether the computer holds a meld, and a four-hand bid
above the most a side can score is refused with the reason."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from web_helpers import create


def test_two_hand_meld_step_tells_nothing(client: TestClient) -> None:
    """After every stock-phase trick the computer wins, the player sees it take a meld
    step (melding or not); both kinds happen in these games and look the same."""
    melded = declined = 0
    for seed in (3, 4, 5):
        t = create(client, game="pinochle2", seed=seed, options={"level": "3"}, level="3")
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": t["table"], "token": t["token"]})
            msgs = [ws.receive_json()]
            while not msgs[-1]["terminal"]:
                m = msgs[-1]
                if m["current"] == m["seat"]:
                    ws.send_json({"type": "act", "action": m["legal"][-1]["json"],
                                  "step": m["step"]})
                msgs.append(ws.receive_json())
                assert msgs[-1]["type"] == "state", msgs[-1]
        row = client.app.state.storage.load_table(t["table"])  # type: ignore[attr-defined]
        meld_steps = {i for i, a in enumerate(row.actions) if a["seat"] == 1
                      and isinstance(a["action"], dict)
                      and a["action"].get("type") in ("meld", "no_meld")}
        seen = set()
        for m in msgs:
            if m["current"] == 1 and m["obs"]["step"] == "meld":
                # The player sees the computer deciding, with nothing about its choices.
                assert m["legal"] == [] and m["illegal"] == {}
                seen.add(m["step"])
        assert seen == meld_steps  # every meld step of the computer, melding or not
        for i in meld_steps:
            if row.actions[i]["action"] == {"type": "no_meld"}:
                declined += 1
            else:
                melded += 1
    assert melded > 0 and declined > 0, (melded, declined)


def test_four_hand_bid_above_the_bound_is_refused(client: TestClient) -> None:
    t = create(client, game="pinochle4", seed=8, humans=[0, 1, 2, 3], level="random")
    views = []
    for seat in range(4):
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": t["table"], "token": t["tokens"][str(seat)]})
            views.append(ws.receive_json())
    top = views[0]["obs"]["max_bid"]
    assert 250 < top < 10_000
    actor = views[0]["current"]
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": t["table"], "token": t["tokens"][str(actor)]})
        ws.receive_json()
        for amount in (top + 10, 10 * top, 10**15):
            ws.send_json({"type": "act", "action": {"kind": "bid", "amount": amount}})
            msg: dict[str, Any] = ws.receive_json()
            assert msg["type"] == "error" and msg["code"] == "illegal", msg
            assert str(top) in msg["message"] and "most" in msg["message"]
            assert msg["params"]["reason"] == msg["message"]
        ws.send_json({"type": "state"})
        again = ws.receive_json()  # the same view (``n`` numbers the table's messages)
        assert {k: v for k, v in again.items() if k != "n"} == \
            {k: v for k, v in views[actor].items() if k != "n"}
        # The bound itself is a legal (jump) bid; after it only passing is left.
        ws.send_json({"type": "act", "action": {"kind": "bid", "amount": top}})
        after = ws.receive_json()
        assert after["type"] == "state" and after["obs"]["high_bid"] == top
    nxt = after["current"]
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": t["table"], "token": t["tokens"][str(nxt)]})
        view = ws.receive_json()
        assert [a["text"] for a in view["legal"]] == ["pass"]
        ws.send_json({"type": "act", "action": {"kind": "bid", "amount": top + 10}})
        msg = ws.receive_json()
        assert msg["code"] == "illegal" and "only pass" in msg["message"]
