"""Two-hand Pinochle streak, level ladder, margin sum and best saved score (spec section 10),
owned by a secret player key: a streak game has exactly one person at the table, and no
other key (whatever name it uses) can end or feed someone's streak."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from web_helpers import create

from cardplaza.web.live import streaks
from cardplaza.web.store.storage import StreakRow


def new_key(client: TestClient, name: str) -> tuple[str, str]:
    r = client.post("/api/players", json={"name": name})
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["name"] == name and len(data["key"]) >= 32 and data["tag"] == data["id"][:4]
    return data["key"], data["id"]


def streak_of(client: TestClient, key: str) -> dict[str, Any]:
    out: dict[str, Any] = client.get("/api/streak", headers={"X-Player-Key": key}).json()
    return out


def test_ladder_and_results() -> None:
    """10.2 level min(s+1, 4); 10.3 win adds the margin (cap 9,999), loss resets."""
    assert [streaks.ladder_level(s) for s in range(6)] == [1, 2, 3, 4, 4, 4]
    row = StreakRow("Ann")
    row = streaks.record_result(row, 300, 200)
    assert (row.streak, row.margin, row.best) == (1, 100, 10_100)
    row = streaks.record_result(row, 9_950, 10)
    assert (row.streak, row.margin, row.best) == (2, 9_999, 29_999)
    row = streaks.record_result(row, 200, 200)
    assert (row.streak, row.margin, row.best) == (0, 0, 29_999)
    row = streaks.record_result(StreakRow("Ann", 3, 50, 30_050), 100, 400)
    assert (row.streak, row.margin, row.best) == (0, 0, 30_050)
    assert streaks.end_streak(StreakRow("Ann", 3, 50, 30_050)).best == 30_050


def finish(client: TestClient, t: dict[str, Any]) -> dict[str, Any]:
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": t["table"], "token": t["token"]})
        msg = ws.receive_json()
        while not msg["terminal"]:
            if msg["current"] == msg["seat"]:
                ws.send_json({"type": "act", "action": msg["legal"][0]["json"],
                              "step": msg["step"]})
            msg = ws.receive_json()
        return dict(msg)


def test_streak_games_update_the_saved_score(client: TestClient) -> None:
    key, player = new_key(client, "Streaker")
    wins = 0
    for seed in range(1, 30):
        t = create(client, game="pinochle2", seed=seed, name="Streaker", streak="next",
                   key=key)
        assert "key" not in t and t["player"]["id"] == player
        start = streak_of(client, key)
        end = finish(client, t)
        after = streak_of(client, key)
        human, computer = end["returns"]
        assert end["streak"]["level"] == streaks.ladder_level(start["streak"])
        if human > computer:
            wins += 1
            assert after["streak"] == start["streak"] + 1
            assert after["margin"] == min(9_999, start["margin"] + int(human - computer))
            assert after["best"] >= after["streak"] * 10_000 + after["margin"]
        else:
            assert (after["streak"], after["margin"]) == (0, 0)
            assert after["best"] == start["best"]
        if wins >= 2 and after["streak"] >= 1:
            break
    assert wins >= 1
    scores = client.get("/api/highscores").json()["scores"]
    assert scores[0]["player"] == "Streaker" and scores[0]["best"] >= 10_000
    assert scores[0]["tag"] == player[:4]
    me = client.get("/api/me", headers={"X-Player-Key": key}).json()
    assert me["name"] == "Streaker" and me["streak"]["best"] == scores[0]["best"]
    played = me["stats"]["pinochle2"]
    assert played["played"] == seed and played["won"] == wins
    assert played["won"] + played["lost"] + played["drawn"] == played["played"]


def test_new_abandon_and_practice_end_or_keep_the_streak(client: TestClient) -> None:
    storage = client.app.state.storage  # type: ignore[attr-defined]
    key, kim = new_key(client, "Kim")
    storage.save_streak(StreakRow(kim, 2, 500, 20_500))
    # Practice games at a fixed level change nothing (T-27).
    t = create(client, game="pinochle2", seed=3, name="Kim", options={"level": "2"}, key=key)
    finish(client, t)
    assert streak_of(client, key)["streak"] == 2
    # "Next game" continues: level 3 for a streak of 2.
    t = create(client, game="pinochle2", seed=3, name="Kim", streak="next", key=key)
    assert t["table"] and streak_of(client, key)["streak"] == 2
    # Leaving that game unfinished and asking for "next" again counts as New (T-24).
    t2 = create(client, game="pinochle2", seed=4, name="Kim", streak="next", key=key)
    assert t2["table"] != t["table"]
    s = streak_of(client, key)
    assert (s["streak"], s["margin"], s["best"]) == (0, 0, 20_500)
    # "New" always ends the streak (T-23).
    storage.save_streak(StreakRow(kim, 1, 40, 20_500))
    create(client, game="pinochle2", seed=5, name="Kim", streak="new", key=key)
    assert streak_of(client, key)["streak"] == 0


def test_another_key_cannot_touch_a_streak(client: TestClient) -> None:
    """Starting games under someone's name (without their key) leaves their streak alone."""
    storage = client.app.state.storage  # type: ignore[attr-defined]
    key, kim = new_key(client, "Kim")
    storage.save_streak(StreakRow(kim, 3, 700, 30_700))
    other, _ = new_key(client, "Kim")
    for mode in ("new", "next"):
        t = create(client, game="pinochle2", seed=6, name="Kim", streak=mode, key=other)
        assert t["player"]["id"] != kim
        finish(client, t)
    # No key, or a made-up one: a new player each time, never Kim's streak.
    for guess in (None, "x" * 32):
        body: dict[str, Any] = {"game": "pinochle2", "seed": 7, "name": "Kim",
                                "streak": "new"}
        if guess:
            body["key"] = guess
        t = create(client, **body)
        assert t["player"]["id"] != kim and len(t["key"]) >= 32
    assert streak_of(client, key)["streak"] == 3
    assert storage.load_streak(kim) == StreakRow(kim, 3, 700, 30_700)
    assert streak_of(client, other)["player"] == "Kim"


def test_a_streak_game_has_one_person(client: TestClient) -> None:
    """Two people at a streak table could throw one side to record a win: refused."""
    manager = client.app.state.manager  # type: ignore[attr-defined]
    for body in ({"streak": "new"}, {"streak": "next"}, {}):
        r = client.post("/api/tables", json={"game": "pinochle2", "humans": [0, 1], **body})
        assert r.status_code == 400, r.text
        assert r.json()["code"] == "streak_humans"
    assert not manager.tables
    two = create(client, game="pinochle2", humans=[0, 1], options={"level": "2"})
    assert "streak_player" not in manager.tables[two["table"]].row.extra


def test_practice_level_option_sets_the_computer(client: TestClient) -> None:
    """TO3: a fixed practice level plays that level; it cannot be a streak game."""
    t = create(client, game="pinochle2", seed=1, options={"level": "3"})
    manager = client.app.state.manager  # type: ignore[attr-defined]
    assert manager.tables[t["table"]].row.seats[1].level == "3"
    r = client.post("/api/tables", json={"game": "pinochle2", "options": {"level": "2"},
                                         "streak": "next"})
    assert r.status_code == 400 and r.json()["code"] == "streak_level"
    assert "ladder" in r.json()["error"]


def test_streak_games_are_dealt_by_the_server(db_url: str) -> None:
    """A chosen seed is a known deal, so a streak game refuses one unless the server allows it."""
    from cardplaza.web import create_app

    with TestClient(create_app(db_url, computer_pause=0.0)) as plain:
        r = plain.post("/api/tables", json={"game": "pinochle2", "seed": 5, "name": "Kim"})
        assert r.status_code == 400 and "dealt by the server" in r.json()["error"]
        r = plain.post("/api/tables", json={"game": "pinochle2", "seed": 5, "name": "Kim",
                                            "streak": "next"})
        assert r.status_code == 400 and r.json()["code"] == "streak_seed"
        manager = plain.app.state.manager  # type: ignore[attr-defined]
        assert not manager.tables
        unseeded = create(plain, game="pinochle2", name="Kim")
        row = manager.tables[unseeded["table"]].row
        assert row.extra["streak_player"] == unseeded["player"]["id"]
        assert 2**64 < row.seed < 2**128 or row.seed.bit_length() > 100
        practice = create(plain, game="pinochle2", options={"level": "2"}, seed=5)
        assert manager.tables[practice["table"]].row.seed == 5
