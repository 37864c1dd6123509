"""Information hiding over the wire: every message a seat receives during whole seeded games
of every registered game is exactly that seat's view.

All seats are people here, so every seat gets a message after every action. Each message
must equal what the server builds from the game's own observation for that seat at that
moment; it must not change when the cards the seat cannot see are re-dealt
(``permute_unseen``); and the cards named by its legal actions and illegal-card reasons
must be in the seat's own hand.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import create

from cardplaza.core.registry import games
from cardplaza.web.live.gameinfo import deck_of
from cardplaza.web.live.tables import legal_entries, seat_message

SMALL = {
    "pinochle2": {"level": "1"},
    "pinochle4": {"target": 500},
    "pinochle3": {"target": 500},
    "piquet": {"four_deals": True},
    "pinochle_dd": {"target": 250},
}
MAX_STEPS = 6000


def _cases() -> list[tuple[str, dict[str, Any]]]:
    out = [(name, SMALL.get(name, {})) for name in games()]
    out.append(("toy", {}))
    return out


def _check(state: Any, seat: int, msg: dict[str, Any], spec: Any, rng: random.Random) -> None:
    expected = seat_message(state, seat)
    got = {k: msg[k] for k in expected}
    assert got == expected
    assert msg["obs"] == state.observation(seat)
    if state.current_player == seat:
        assert msg["legal"] == legal_entries(state, deck_of(state))
    else:
        assert msg["legal"] == [] and msg["illegal"] == {}
    hand = msg["obs"].get("hand")
    if isinstance(hand, list):
        mine = set(hand)
        for entry in msg["legal"]:
            if entry["card"] is not None:
                assert entry["card"] in mine
            assert set(entry.get("cards", [])) <= mine
        assert {int(c) for c in msg["illegal"]} <= mine
    if spec is not None and spec.permute_unseen is not None and not state.is_terminal:
        permuted = spec.permute_unseen(state, seat, rng)
        assert seat_message(permuted, seat) == expected


@pytest.mark.parametrize(("game", "options"), _cases(), ids=[c[0] for c in _cases()])
def test_every_message_is_the_seats_own_view(client: TestClient, game: str,
                                             options: dict[str, Any]) -> None:
    from cardplaza.core.registry import get_game

    spec = get_game(game)
    seed = 20261130
    n = spec.new_game(spec.options(options), seed).num_players
    t = create(client, game=game, options=options, seed=seed, humans=list(range(n)),
               level="random")
    rng = random.Random(7)
    sockets = [client.websocket_connect("/ws").__enter__() for _ in range(n)]
    started = time.perf_counter()
    try:
        msgs: list[dict[str, Any]] = []
        for s, ws in enumerate(sockets):
            ws.send_json({"type": "join", "table": t["table"], "token": t["tokens"][str(s)]})
            msgs.append(ws.receive_json())
        # The table's options as stored (the server fills in e.g. player names).
        mirror = spec.new_game(spec.options(msgs[0]["options"]), seed)
        steps = 0
        while True:
            for s in range(n):
                _check(mirror, s, msgs[s], spec, rng)
            if mirror.is_terminal or steps >= MAX_STEPS:
                break
            cur = mirror.current_player
            legal = msgs[cur]["legal"]
            passes = [a for a in legal if a["text"] == "pass"]
            choice = passes[0] if passes and rng.random() < 0.8 else \
                legal[rng.randrange(len(legal))]
            sockets[cur].send_json({"type": "act", "action": choice["json"],
                                    "step": msgs[cur]["step"]})
            mirror.apply(mirror.action_from_json(choice["json"]))
            steps += 1
            msgs = [ws.receive_json() for ws in sockets]
            assert all(m["type"] == "state" and m["step"] == steps for m in msgs), msgs[0]
        assert mirror.is_terminal, f"{game} did not finish in {MAX_STEPS} steps"
        assert all(m["terminal"] for m in msgs)
        assert msgs[0]["returns"] == list(mirror.returns())
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)
    print(f"{game}: {steps} actions, {time.perf_counter() - started:.1f}s")
