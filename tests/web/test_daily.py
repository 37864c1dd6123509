"""The daily deal and challenges: same cards and same computers for everyone, the seed
withheld until the day is over, the par computed once, one attempt per key."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import FAST

from cardplaza.web import create_app
from cardplaza.web.live import daily
from cardplaza.web.live.daily import SETUPS, DailyService, Setup, margin, match_points
from cardplaza.web.live.fixed import decide_fixed, untimed
from cardplaza.web.live.tables import derived_seed

GAME = "pinochle2"
TODAY = "2026-12-04"


@pytest.fixture
def app_client(db_url: str) -> Iterator[TestClient]:
    app = create_app(db_url, settings=FAST)
    service: DailyService = app.state.daily
    service.clock = lambda: TODAY
    calls: list[tuple[str, int]] = []

    async def par_here(game: str, setup: Setup, seed: int) -> dict[str, Any]:
        calls.append((game, seed))
        if game != GAME:  # the other games' pars are another test's (and the figure's)
            return {"par": 0.0, "returns": [], "cpu": 0.0}
        return await asyncio.to_thread(daily.par_in_worker, game, setup.options, seed,
                                       setup.seat, setup.expert, setup.level)

    service.compute_par = par_here  # type: ignore[method-assign]
    app.state.par_calls = calls
    with TestClient(app) as c:
        yield c


def new_key(client: TestClient, name: str) -> str:
    r = client.post("/api/players", json={"name": name})
    assert r.status_code == 200
    key: str = r.json()["key"]
    return key


def play(client: TestClient, table: str, token: str,
         choose: Callable[[dict[str, Any]], Any]) -> list[dict[str, Any]]:
    """Play one seat to the end; every message the seat received."""
    msgs: list[dict[str, Any]] = []
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": table, "token": token})
        while True:
            msg = ws.receive_json()
            msgs.append(msg)
            if msg.get("type") != "state":
                continue
            if msg["terminal"]:
                return msgs
            if msg["current"] == msg["seat"] and msg["legal"]:
                ws.send_json({"type": "act", "action": choose(msg), "step": msg["step"]})


def by_step(msg: dict[str, Any]) -> Any:
    """A fixed policy of the person: the same actions for the same view."""
    return msg["legal"][msg["step"] % len(msg["legal"])]["json"]


def same_view(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> bool:
    """The seat saw the same at the first step both clients saw (the computers may have
    acted before a client joined)."""
    step = max(a[0]["step"], b[0]["step"])
    va = next(m["obs"] for m in a if m.get("type") == "state" and m["step"] == step)
    vb = next(m["obs"] for m in b if m.get("type") == "state" and m["step"] == step)
    return bool(va == vb)


def start(client: TestClient, key: str, game: str = GAME) -> dict[str, Any]:
    r = client.post(f"/api/daily/{game}", json={}, headers={"X-Player-Key": key})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def actions_of(client: TestClient, table: str) -> list[dict[str, Any]]:
    storage = client.app.state.storage  # type: ignore[attr-defined]
    row = storage.load_table(table)
    assert row is not None
    return list(row.actions)


def seed_of(client: TestClient, day: str = TODAY, game: str = GAME) -> int:
    service: DailyService = client.app.state.daily  # type: ignore[attr-defined]
    return client.portal.call(service.seed, day, game)  # type: ignore[union-attr]


def test_two_keys_get_the_same_deal_and_the_same_computers(app_client: TestClient) -> None:
    c = app_client
    a, b = new_key(c, "Ann"), new_key(c, "Bob")
    ta, tb = start(c, a), start(c, b)
    ma = play(c, ta["table"], ta["token"], by_step)
    mb = play(c, tb["table"], tb["token"], by_step)
    assert same_view(ma, mb)  # the same cards
    # The same play by the person: every computer action the same, the same result.
    assert actions_of(c, ta["table"]) == actions_of(c, tb["table"])
    assert ma[-1]["returns"] == mb[-1]["returns"]
    # A different play gets its own computer answers, still from the same deal.
    other = new_key(c, "Cy")
    tc = start(c, other)
    mc = play(c, tc["table"], tc["token"], lambda m: m["legal"][-1]["json"])
    assert same_view(mc, ma)


def test_one_attempt_per_key_and_the_board_after_it(app_client: TestClient) -> None:
    c = app_client
    a = new_key(c, "Ann")
    head = {"X-Player-Key": a}
    r = c.get(f"/api/daily/{GAME}/board", headers=head)
    assert r.status_code == 403 and r.json()["code"] == "daily_locked"
    t = start(c, a)
    again = c.post(f"/api/daily/{GAME}", json={}, headers=head)
    assert again.status_code == 409 and again.json()["code"] == "daily_played"
    assert c.get(f"/api/daily/{GAME}/board", headers=head).status_code == 403
    play(c, t["table"], t["token"], by_step)
    again = c.post(f"/api/daily/{GAME}", json={}, headers=head)
    assert again.json()["code"] == "daily_played"
    b = new_key(c, "Bob")
    tb = start(c, b)
    play(c, tb["table"], tb["token"], lambda m: m["legal"][0]["json"])
    board = c.get(f"/api/daily/{GAME}/board", headers=head).json()
    assert {r["name"] for r in board["results"]} == {"Ann", "Bob"}
    assert a not in json.dumps(board) and b not in json.dumps(board)
    assert sorted(r["match_points"] for r in board["results"]) in ([0.0, 100.0], [50.0, 50.0])
    overview = c.get("/api/daily", headers=head).json()
    mine = next(g for g in overview["games"] if g["game"] == GAME)
    assert mine["played"] and mine["finished"] and mine["players"] == 2


def test_the_seed_is_in_no_message_or_record_before_the_day_is_over(
        app_client: TestClient) -> None:
    c = app_client
    a = new_key(c, "Ann")
    seed = str(seed_of(c))
    seen: list[str] = []
    r = c.post(f"/api/daily/{GAME}", json={}, headers={"X-Player-Key": a})
    seen.append(r.text)
    t = r.json()
    with c.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": t["table"], "token": t["token"]})
        first = ws.receive_json()
        seen.append(json.dumps(first))
        ws.send_json({"type": "hint"})
        refusal = ws.receive_json()
        assert refusal["code"] == "daily_no_help"
    msgs = play(c, t["table"], t["token"], by_step)
    seen += [json.dumps(m) for m in msgs]
    seat = {"X-Seat-Token": t["token"]}
    for what in ("record", "download", "replay"):
        got = c.get(f"/api/tables/{t['table']}/{what}", headers=seat)
        assert got.status_code == 403 and got.json()["code"] == "daily_withheld"
        seen.append(got.text)
    head = {"X-Player-Key": a}
    for url in ("/api/daily", f"/api/daily/{GAME}/board"):
        seen.append(c.get(url, headers=head).text)
    challenge = c.post("/api/challenges", json={"table": t["table"], "token": t["token"]})
    assert challenge.status_code == 404
    seen.append(challenge.text)
    assert msgs[-1]["terminal"] and all(seed not in text for text in seen)
    # The next day: the board gives the seed, the records are open.
    service: DailyService = c.app.state.daily  # type: ignore[attr-defined]
    service.clock = lambda: "2026-12-05"
    past = c.get(f"/api/daily/{GAME}/board", params={"day": TODAY}, headers=head).json()
    assert past["seed"] == seed and past["over"]
    record = c.get(f"/api/tables/{t['table']}/record", headers=seat)
    assert record.status_code == 200 and record.json()["seed"] == seed


def test_the_par_is_computed_once_and_is_the_experts_result(app_client: TestClient) -> None:
    c = app_client
    keys = [new_key(c, n) for n in ("Ann", "Bob")]
    for k in keys:
        c.get("/api/daily", headers={"X-Player-Key": k})
    t = start(c, keys[0])
    start(c, keys[1])
    seed = seed_of(c)
    setup = SETUPS[GAME]

    def expert(msg: dict[str, Any]) -> Any:
        spec_legal = [e["json"] for e in msg["legal"]]
        from cardplaza.core.registry import get_game

        spec = get_game(GAME)
        state = spec.new_game(spec.options(setup.options), seed)
        actions = [state.action_from_json(j) for j in spec_legal]
        chosen = decide_fixed(GAME, setup.expert, derived_seed(seed, "player", msg["seat"]),
                              msg["obs"], actions, derived_seed(seed, "choice", msg["seat"],
                                                                msg["step"]))
        return spec_legal[actions.index(chosen)]

    msgs = play(c, t["table"], t["token"], expert)
    board = c.get(f"/api/daily/{GAME}/board", headers={"X-Player-Key": keys[0]}).json()
    deadline = time.monotonic() + 60  # the expert's whole game, on a busy machine too
    while board["par"] is None and time.monotonic() < deadline:
        time.sleep(0.05)
        board = c.get(f"/api/daily/{GAME}/board", headers={"X-Player-Key": keys[0]}).json()
    calls = c.app.state.par_calls  # type: ignore[attr-defined]
    assert calls == [(GAME, seed)]
    assert board["par"] == margin(msgs[-1]["returns"], msgs[-1]["seat"])
    assert board["results"][0]["vs_par"] == 0.0


def test_match_points_and_margins() -> None:
    assert match_points([10.0, 5.0, 5.0]) == [100.0, 25.0, 25.0]
    assert match_points([3.0]) == [100.0]
    assert margin([880.0, 320.0, 880.0, 320.0], 0) == 560.0
    assert margin([90.0, 0.0, 0.0, 80.0], 3) == -10.0


def test_untimed_players_have_no_clock_and_decide_alike() -> None:
    """Every search level of every game loses its clock budget; a level decides the same
    in a fresh player whatever the same player decided before."""
    from cardplaza.ai.player import computer_player
    from cardplaza.core.registry import get_game

    for game in SETUPS:
        spec = get_game(game)
        for level in spec.levels:
            player = untimed(computer_player(game, level, 1))
            stack: list[Any] = [player]
            while stack:
                obj = stack.pop()
                for name in ("seconds", "cpu_seconds", "time_cap"):
                    value = getattr(obj, "__dict__", {}).get(name)
                    assert value is None or value == float("inf"), (game, level, name)
                stack += [v for v in getattr(obj, "__dict__", {}).values()
                          if type(v).__module__.startswith("cardplaza.")]
    spec = get_game("piquet")
    state = spec.new_game(spec.options({}), 3)
    obs, legal = state.observation(state.current_player), list(state.legal_actions())
    first = decide_fixed("piquet", "3", 5, obs, legal, 9)
    assert all(decide_fixed("piquet", "3", 5, obs, legal, 9) == first for _ in range(2))


def test_a_challenge_gives_the_friend_the_same_deal_and_a_comparison(
        app_client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(daily, "COMPARE_DECISIONS", 2)
    monkeypatch.setattr(daily, "COMPARE_SECONDS", 0.05)
    c = app_client
    a, b = new_key(c, "Ann"), new_key(c, "Bob")
    t = c.post("/api/tables", json={"game": "piquet", "options": {"four_deals": True},
                                    "level": "2"}, headers={"X-Player-Key": a}).json()
    ma = play(c, t["table"], t["token"], by_step)
    made = c.post("/api/challenges", json={"table": t["table"], "token": t["token"]})
    assert made.status_code == 200, made.text
    token = made.json()["challenge"]
    again = c.post("/api/challenges", json={"table": t["table"], "token": t["token"]})
    assert again.json()["challenge"] == token
    info = c.post("/api/challenges/find", json={"challenge": token},
                  headers={"X-Player-Key": b})
    storage = c.app.state.storage  # type: ignore[attr-defined]
    seed = str(storage.load_table(t["table"]).seed)
    assert info.status_code == 200 and seed not in info.text
    assert info.json()["challenger"] == "Ann"
    own = c.post("/api/challenges/play", json={"challenge": token},
                 headers={"X-Player-Key": a})
    assert own.json()["code"] == "challenge_own"
    early = c.post("/api/challenges/compare", json={"challenge": token},
                   headers={"X-Player-Key": a})
    assert early.json()["status"] == "waiting"
    f = c.post("/api/challenges/play", json={"challenge": token},
               headers={"X-Player-Key": b})
    assert f.status_code == 200 and seed not in f.text
    taken = c.post("/api/challenges/play", json={"challenge": token},
                   headers={"X-Player-Key": new_key(c, "Cy")})
    assert taken.json()["code"] == "challenge_taken"
    mb = play(c, f.json()["table"], f.json()["token"], by_step)
    assert same_view(ma, mb)
    assert actions_of(c, t["table"]) == actions_of(c, f.json()["table"])
    stranger = c.post("/api/challenges/compare", json={"challenge": token},
                      headers={"X-Player-Key": new_key(c, "Dee")})
    assert stranger.json()["code"] == "challenge_not_yours"
    got: dict[str, Any] = {}
    for _ in range(600):
        got = c.post("/api/challenges/compare", json={"challenge": token},
                     headers={"X-Player-Key": b}).json()
        if got["status"] == "ready":
            break
        time.sleep(0.05)
    assert got["status"] == "ready"
    names = [s["name"] for s in got["sides"]]
    assert names == ["Ann", "Bob"]
    for side, table in zip(got["sides"], (t["table"], f.json()["table"]), strict=True):
        mine = [a for a in actions_of(c, table) if a["seat"] == side["seat"]]
        assert len(side["steps"]) == len(mine) and all(s["text"] for s in side["steps"])
        marked = [s for s in side["steps"] if s["mark"]]
        assert 1 <= len(marked) <= 2 and all(s["best"] for s in marked)
    assert got == c.post("/api/challenges/compare", json={"challenge": token},
                         headers={"X-Player-Key": a}).json()


def test_the_daily_seed_changes_with_the_day_and_the_game(app_client: TestClient) -> None:
    seeds = {seed_of(app_client, day, game) for day in (TODAY, "2026-12-05")
             for game in ("pinochle2", "piquet")}
    assert len(seeds) == 4 and all(0 <= s < 2**128 for s in seeds)
    assert dt.date.fromisoformat(TODAY)


def test_a_search_level_decides_alike_in_a_worker_after_other_work() -> None:
    """A searching level (Piquet level 3: a time cap in ordinary play) gives the same
    action in a worker process, busy with other positions before, as in this process."""
    import random as _random

    from cardplaza.core.registry import get_game
    from cardplaza.web.live.workers import WorkerPool

    spec = get_game("piquet")
    positions = []
    for seed in (3, 4, 5):
        state = spec.new_game(spec.options({}), seed)
        rng = _random.Random(seed)
        while len(state.legal_actions()) < 2 or state.current_player != 0:
            state.apply(rng.choice(state.legal_actions()))
        positions.append((state.observation(0), list(state.legal_actions())))
    here = [decide_fixed("piquet", "3", 5, obs, legal, 9) for obs, legal in positions]

    async def main() -> list[Any]:
        pool = WorkerPool(1, kill_seconds=120.0, nice=0)
        try:
            await pool.run(decide_fixed, "piquet", "3", 1, *positions[2], 2, deadline=120.0)
            return [await pool.run(decide_fixed, "piquet", "3", 5, obs, legal, 9,
                                   deadline=120.0) for obs, legal in positions]
        finally:
            await pool.close()

    assert asyncio.run(main()) == here
