"""A computer at a room's table is called by the number of its seat on the room page."""

from __future__ import annotations

from fastapi.testclient import TestClient

from cardplaza.web import create_app
from cardplaza.web.settings import Settings


def test_computers_are_numbered_as_their_seats(db_url: str) -> None:
    with TestClient(create_app(db_url, settings=Settings(computer_pause=0.0))) as c:
        key = c.post("/api/players", json={"name": "Hana"}).json()["key"]
        headers = {"X-Player-Key": key}
        r = c.post("/api/rooms", headers=headers, json={
            "game": "efudatori", "options": {"players": 4}, "name": "Hana",
            "seats": ["me", "computer", "open", "computer"], "config": {"level": "1"}})
        assert r.status_code == 200, r.text
        room = r.json()["room"]
        r = c.post(f"/api/rooms/{room}/start", headers=headers, json={"fill": True})
        assert r.status_code == 200, r.text
        live = c.app.state.manager.tables[r.json()["table"]]  # type: ignore[attr-defined]
        # The room page shows "Seat 2", "Seat 3", "Seat 4": so are they called.
        assert live.row.options["names"] == ["Hana", "Computer 2", "Computer 3",
                                             "Computer 4"]
        assert [s.name for s in live.row.seats] == ["Hana", "CPU 2", "CPU 3", "CPU 4"]
