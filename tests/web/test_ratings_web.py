"""Ratings through the server: a rated room of two people and two computers updates both
people's ratings when the game ends (in the action's own transaction), a game alone
against computers gives a "vs computers" rating, and the leaderboard and player pages name
players by name and tag — never by key."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce
from sqlalchemy import select
from test_rooms import ROOMS, _h, _join, _key, _play_out, _room, _ws_join
from web_toy4 import SPEC

from cardplaza.core import computers, registry
from cardplaza.core.ratings import display
from cardplaza.web import create_app
from cardplaza.web.live import ratings as live_ratings
from cardplaza.web.store.ratings import rating_games_t, ratings_t

CPU = {"mu": 21.0, "sigma": 1.5}


@pytest.fixture
def toy4(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The four-seat toy game, a partnership game whose ``random`` level has a fixed
    rating."""
    registry.register(SPEC)
    table = tmp_path / "computers.json"
    table.write_text(json.dumps({"format": "cardplaza-computers/1", "games": {
        "toy4": {"ratings": {"random": {**CPU, "display": 0}}}}}), encoding="utf-8")
    monkeypatch.setattr(computers, "TABLE_PATH", table)
    monkeypatch.setattr(live_ratings, "PARTNERSHIPS", frozenset({"toy4"}))
    computers.load_table.cache_clear()
    yield
    computers.load_table.cache_clear()
    registry._GAMES.pop("toy4", None)


@pytest.fixture
def app(db_url: str, toy4: None) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, settings=ROOMS.replace(leaderboard_min_games=1))) as c:
        yield c


def _rows(app: TestClient, table: Any) -> list[Any]:
    storage = app.app.state.storage  # type: ignore[attr-defined]
    with storage.engine.connect() as conn:
        return list(conn.execute(select(table)).all())


def test_a_rated_room_of_two_people_and_two_computers_rates_both_people(
        app: TestClient) -> None:
    hana, ken = _key(app, "Hana"), _key(app, "Ken")
    room = _room(app, hana, game="toy4", seats=["me", "open", "computer", "computer"],
                 config={"level": "random", "rated": True})
    assert room["config"]["rated"] is True and room["config"]["hints"] is False
    friend = _join(app, ken, room["invite_token"], 1)
    r = app.post(f"/api/rooms/{room['room']}/start", json={}, headers=_h(hana))
    assert r.status_code == 200, r.text
    table = r.json()["table"]
    with app.websocket_connect("/ws") as w0, app.websocket_connect("/ws") as w1:
        _ws_join(w0, table, room["token"])
        _ws_join(w1, table, friend["token"])
        live = app.app.state.manager.tables[table]  # type: ignore[attr-defined]
        last = _play_out(live, {0: w0, 1: w1})
        returns = live.state.returns()
    # Both people's end messages carry their shown rating before and after.
    assert last["rating"]["kind"] == "rated"
    assert set(last["rating"]["seats"]) == {"0", "1"}
    assert last["rating"]["seats"]["0"]["before"] == 1000
    assert live_ratings.TIMINGS  # the update was timed inside the finishing action
    rows = {r.player: r for r in _rows(app, ratings_t)}
    assert len(rows) == 2 and all(r.kind == "rated" and r.games == 1 for r in rows.values())
    hana_id, ken_id = room["player"]["id"], friend["player"]["id"]
    # The expected values straight from openskill: seats 0 + 2 against 1 + 3, the computers
    # at their fixed rating, ranked by the sides' points (toy4 has no other winner rule).
    lib = PlackettLuce()
    new = lib.rating
    side0, side1 = returns[0], returns[1]
    ranks = [1, 1] if side0 == side1 else ([1, 2] if side0 > side1 else [2, 1])
    [[h2, _c2], [k2, _c3]] = lib.rate(
        [[new(), new(mu=CPU["mu"], sigma=CPU["sigma"])],
         [new(), new(mu=CPU["mu"], sigma=CPU["sigma"])]], ranks=ranks)  # type: ignore[list-item]
    assert rows[hana_id].mu == pytest.approx(h2.mu) and rows[ken_id].mu == pytest.approx(k2.mu)
    assert rows[hana_id].sigma == pytest.approx(h2.sigma)
    history = _rows(app, rating_games_t)
    assert sorted(h.player for h in history) == sorted([hana_id, ken_id])
    assert all(h.table_id == table and h.weight == 1.0 for h in history)
    # The leaderboard and both player pages show them, by name and tag.
    board = app.get("/api/ratings/toy4").json()
    assert {(x["name"], x["tag"]) for x in board["rows"]} == {("Hana", hana_id[:4]),
                                                             ("Ken", ken_id[:4])}
    page = app.get(f"/api/ratings/toy4/players/{ken_id}").json()
    assert page["rated"]["games"] == 1 and page["rated"]["provisional"] is True
    assert len(page["chart"]) == 1 and page["place"] in (1, 2)
    me = app.get("/api/ratings/toy4/me", headers=_h(hana)).json()
    assert me["id"] == hana_id
    # No key anywhere in what the rating pages send (JSON and the page that draws them).
    texts = [app.get("/api/ratings/toy4").text, app.get("/api/ratings/toy4?page=1").text,
             app.get(f"/api/ratings/toy4/players/{hana_id}").text,
             app.get(f"/api/ratings/toy4/players/{ken_id}").text, app.get("/").text,
             app.get("/static/ratings/main.js").text]
    for key in (hana, ken):
        assert all(key not in t for t in texts)
        assert all(key not in repr(tuple(r)) for r in _rows(app, ratings_t))


def test_a_rated_room_refuses_a_computer_level_without_a_fixed_rating(
        app: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text('{"games": {}}', encoding="utf-8")
    monkeypatch.setattr(computers, "TABLE_PATH", empty)
    computers.load_table.cache_clear()
    hana = _key(app, "Hana")
    room = _room(app, hana, game="toy4", seats=["me", "computer", "computer", "computer"],
                 config={"level": "random", "rated": True})
    r = app.post(f"/api/rooms/{room['room']}/start", json={}, headers=_h(hana))
    assert r.status_code == 400 and r.json()["code"] == "bad_room"


def test_one_person_against_computers_gets_a_vs_computers_rating(app: TestClient) -> None:
    hana = _key(app, "Hana")
    room = _room(app, hana, game="toy4", seats=["me", "computer", "computer", "computer"],
                 config={"level": "random"})
    r = app.post(f"/api/rooms/{room['room']}/start", json={}, headers=_h(hana))
    table = r.json()["table"]
    with app.websocket_connect("/ws") as w0:
        _ws_join(w0, table, room["token"])
        live = app.app.state.manager.tables[table]  # type: ignore[attr-defined]
        _play_out(live, {0: w0})
    [row] = _rows(app, ratings_t)
    assert row.kind == "computers" and row.games == 1
    page = app.get(f"/api/ratings/toy4/players/{room['player']['id']}").json()
    assert page["rated"] is None and page["versus"]["games"] == 1
    assert page["versus"]["level"] == "random" and page["versus"]["where"] in (-1, 0, 1)
    assert app.get("/api/ratings/toy4").json()["rows"] == []


def test_unknown_player_and_game_are_refused(app: TestClient) -> None:
    assert app.get("/api/ratings/toy4/players/0123abcd").status_code == 404
    assert app.get("/api/ratings/toy4/players/NOT-AN-ID").status_code == 404
    assert app.get("/api/ratings/nogame").status_code == 404


class _Away:
    """A table add-on whose stand-in is playing seat 0 (its person left for good)."""

    def __init__(self) -> None:
        self.standins = {0}
        self.paused = False

    def facts(self) -> dict[str, Any]:
        return {}


def test_the_seat_a_stand_in_plays_at_the_end_has_left_and_loses(toy4: None) -> None:
    """``plan`` reads who left (a stand-in still playing when the game ended) and each
    seat's stand-in share from the table's log marks."""
    from web_toy4 import Options, Toy4

    from cardplaza.web.live.tables import LiveTable
    from cardplaza.web.store.storage import SeatInfo, TableRow

    state = Toy4(Options(), 5)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    seats = [SeatInfo("human", n, "random", "h") for n in ("A", "B")] + [
        SeatInfo("computer", "C", "random"), SeatInfo("computer", "D", "random")]
    actions = [{"seat": s, "action": 0} for s in (0, 1, 2, 3, 0, 1, 2, 3)]
    row = TableRow(id="t", game="toy4", options={}, seed=0, actions=actions, seats=seats,
                   extra={"room": {"id": "r", "rated": True, "players": ["pa", "pb", None,
                                                                        None]}},
                   standins=[4, 5])
    table = LiveTable(row=row, spec=SPEC, state=state)
    table.addon = _Away()
    planned = live_ratings.plan(table, state)
    assert planned is not None
    kind, result = planned
    assert kind == "rated"
    assert [s.left for s in result] == [True, False, False, False]
    assert [s.standin_share for s in result[:2]] == [0.5, 0.5]
    assert result[2].fixed is not None and result[2].fixed.mu == CPU["mu"]
    from cardplaza.core.ratings import rate_game

    ups = {u.player: u for u in rate_game(result, {})}
    assert ups["pa"].after.mu < 25.0 and ups["pa"].weight == 1.0
    assert ups["pb"].after.mu > 25.0 and ups["pb"].weight == 0.5


def test_a_second_game_updates_the_rating_row_and_adds_history(db_url: str) -> None:
    from cardplaza.core.ratings import Rating, Update
    from cardplaza.web.store.ratings import RatingStore, write_updates
    from cardplaza.web.store.storage import Storage

    storage = Storage(db_url)
    store = RatingStore(storage, total_seconds=0.0)
    pa, pb = storage.new_player("Ann")[1].id, storage.new_player("Bo")[1].id
    first = [Update(0, pa, Rating(), Rating(27.0, 7.0), 1.0, 1),
             Update(1, pb, Rating(), Rating(23.0, 7.0), 1.0, 2)]
    with storage._tx() as conn:
        write_updates(conn, "toy4", "rated", "t1", first, {}, 1.0)
    second = [Update(0, pa, Rating(27.0, 7.0), Rating(28.0, 6.0), 0.5, 1),
              Update(1, pb, Rating(23.0, 7.0), Rating(22.0, 6.0), 1.0, 2)]
    with storage._tx() as conn:
        write_updates(conn, "toy4", "rated", "t2", second, {pa: 1, pb: 1}, 2.0)
    rows = store.current("toy4", "rated", [pa, pb])
    assert rows[pa].games == 2 and rows[pa].rating == Rating(28.0, 6.0)
    assert rows[pb].games == 2 and rows[pb].rating == Rating(22.0, 6.0)
    _name, row, place, history = store.player(pa, "toy4", 1, 10)
    assert row is not None and place == 1
    assert [h.shown for h in history] == [display(Rating(27.0, 7.0)), display(Rating(28.0, 6.0))]
    assert history[-1].weight == 0.5
    board, total = store.board("toy4", 1, 0, 25)
    assert total == 2 and [(b.player, b.name) for b in board] == [(pa, "Ann"), (pb, "Bo")]
    storage.close()


def test_board_pages_and_places_follow_the_full_order(db_url: str) -> None:
    """Every page (found from the counts per value) and every player's place agree with
    one plain sort of the board, with many equal values."""
    import random

    from cardplaza.core.ratings import Rating, Update
    from cardplaza.web.store.ratings import RatingStore, write_updates
    from cardplaza.web.store.storage import Storage

    storage = Storage(db_url)
    store = RatingStore(storage, total_seconds=60.0)
    rng = random.Random(4)
    ids = [storage.new_player(f"P{i}")[1].id for i in range(60)]
    ups = [Update(0, p, Rating(), Rating(rng.choice([24.0, 25.0, 26.5, 30.0]),
                                         rng.choice([5.0, 6.0])), 1.0, 1) for p in ids]
    with storage._tx() as conn:
        write_updates(conn, "toy4", "rated", "t", ups, {}, 1.0)
    expected = sorted(((display(u.after), u.player) for u in ups), key=lambda x: (-x[0], x[1]))
    got: list[tuple[int, str]] = []
    for page in range(10):
        rows, total = store.board("toy4", 1, page, 7)
        assert total == 60
        got += [(r.shown, r.player) for r in rows]
        assert [r.place for r in rows] == list(range(page * 7 + 1, page * 7 + 1 + len(rows)))
    assert got == expected
    for place, (_shown, player) in enumerate(expected, 1):
        assert store.player(player, "toy4", 1, 0)[2] == place
    storage.close()
