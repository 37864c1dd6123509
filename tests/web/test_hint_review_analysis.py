"""Hints, the decision helper and the review of a table read one analysis per position:
asked again, a hint shows the same numbers; the helper shows the hint's chances; the review
grades a move that followed the hint as good, with the hint's own values; the analyses
kept per table are bounded by ``analysis_cache_positions``."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import FAST, create, next_of, until_my_turn
from web_slowwork import quick_hint

from cardplaza.web import create_app
from cardplaza.web.learning import handlers
from cardplaza.web.settings import Settings


@pytest.fixture(autouse=True)
def patient(monkeypatch: pytest.MonkeyPatch) -> None:
    """Test workers may compile the search kernels on first use: long deadlines here, and
    the expert's budget of deals decides rather than the clock."""
    for name in ("HINT_DEADLINE", "HELPER_DEADLINE", "REVIEW_DEADLINE"):
        monkeypatch.setattr(handlers, name, 300.0)
    monkeypatch.setattr(handlers, "ANALYSIS_SECONDS", 300.0)


def _join(ws: Any, t: dict[str, Any]) -> dict[str, Any]:
    ws.send_json({"type": "join", "table": t["table"], "token": t["token"]})
    msg: dict[str, Any] = ws.receive_json()
    assert msg["type"] == "state", msg
    return msg


def test_analysis_cache_positions_is_a_setting_with_a_default() -> None:
    assert Settings().analysis_cache_positions == 96


def test_a_hint_asked_again_is_read_from_the_tables_bounded_analyses(
        db_url: str, toy: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(handlers, "analysis_in_worker", quick_hint)
    calls: list[tuple[Any, ...]] = []
    with TestClient(create_app(db_url, settings=FAST.replace(analysis_cache_positions=1))) \
            as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        original = manager.run_analysis

        async def spy(fn: Any, *args: Any, deadline: float | None = None) -> Any:
            calls.append(args)
            return await original(fn, *args, deadline=deadline)

        monkeypatch.setattr(manager, "run_analysis", spy)
        t = create(client, game="toy", seed=1, humans=[0])
        with client.websocket_connect("/ws") as ws:
            msg = until_my_turn(ws, _join(ws, t))
            answers = []
            for _ in range(2):
                ws.send_json({"type": "hint"})
                answers.append(next_of(ws, "hint"))
        assert [a["type"] for a in answers] == ["hint", "hint"]
        assert answers[0]["best"] == answers[1]["best"]
        assert len(calls) == 1  # analysed once
        # What went to the worker: the seat's observation, keyed by the seat and step.
        assert calls[0][1] == msg["obs"] and calls[0][4:6] == (msg["seat"], msg["step"])
        cache = manager.tables[t["table"]].analyses
        assert cache is not None and cache.size == 1 and len(cache) == 1


def test_the_bid_helper_shows_the_hints_chances(client: TestClient) -> None:
    t = create(client, game="pinochle4", seed=7, level="normal")
    with client.websocket_connect("/ws") as ws:
        msg = until_my_turn(ws, _join(ws, t))
        assert msg["obs"]["phase"] == "bidding"
        ws.send_json({"type": "hint"})
        hint = next_of(ws, "hint")
        ws.send_json({"type": "helper"})
        helper = next_of(ws, "helper")
    assert hint["type"] == "hint" and helper["type"] == "helper", (hint, helper)
    table = helper["table"]
    assert table["worlds"] == hint["worlds"]
    compared = 0
    for c in hint["choices"]:
        facts = c.get("facts", {})
        if c["value"] is None or "suit" not in facts:
            continue
        amount = c["action"]["amount"]
        if amount in table["amounts"]:
            i = table["amounts"].index(amount)
            assert table["suits"][int(facts["suit"])]["chances"][i] == pytest.approx(
                c["value"], abs=0.006)
            compared += 1
    assert compared >= 1


def test_the_review_grades_by_the_analysis_the_hint_showed() -> None:
    """A table's review reads the kept analysis of a hint shown (even one a clock cut
    short, whose numbers a new computation would not repeat): the move that followed it
    is good, with the hint's own value."""
    from cardplaza.ai.advice import Effort
    from cardplaza.ai.analysis import analyse, position_seed, table_base
    from cardplaza.core.history import GameRecord
    from cardplaza.core.registry import get_game

    game, base = "efudatori", table_base("T1")
    state = get_game(game).new_game(None, 2)
    while not (state.current_player == 0 and len(state.legal_actions()) > 1):
        state.apply(state.legal_actions()[0])
    obs, legal, step = state.observation(0), state.legal_actions(), len(state.history)
    shown = analyse(game, obs, legal, position_seed(base, 0, step, obs), seat=0, step=step,
                    effort=Effort(0.05))
    assert shown.evaluation is not None
    best = shown.evaluation.best_choice()
    best.value = 123.0  # as if the clock had stopped the hint's search at another count
    state.apply(shown.evaluation.best)
    record = GameRecord.of(state).to_json()
    d = handlers.review_in_worker(record, 0, step, 0.5, base, shown)
    assert d is not None and d["followed"] and d["mark"] == "good" and d["loss"] == 0
    assert d["value"] == d["best_value"] == 123.0
