"""Storage on a real PostgreSQL server started for the test (``pg_url`` in conftest)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from cardplaza.web import create_app
from cardplaza.web.store.storage import Storage, StreakRow


def test_tables_and_streaks_on_postgres(pg_db: str) -> None:
    pg_url = pg_db
    storage = Storage(pg_url)
    _key, ann = storage.new_player("Ann")
    storage.save_streak(StreakRow(ann.id, 2, 150, 20_150))
    storage.save_streak(StreakRow(ann.id, 3, 300, 30_300))
    assert storage.load_streak(ann.id).best == 30_300
    assert [(r.best, p.name) for r, p in storage.high_scores()] == [(30_300, "Ann")]
    storage.close()

    app = create_app(pg_url, computer_pause=0.0)
    with TestClient(app) as client:
        r = client.post("/api/tables", json={"game": "pinochle2", "seed": 2**40 + 5,
                                             "options": {"level": "1"}})
        assert r.status_code == 200, r.text
        t = r.json()
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "join", "table": t["table"], "token": t["token"]})
            msg = ws.receive_json()
            for _ in range(4):
                while msg["current"] != msg["seat"]:
                    msg = ws.receive_json()
                ws.send_json({"type": "act", "action": msg["legal"][0]["json"],
                              "step": msg["step"]})
                msg = ws.receive_json()
            while msg["current"] != msg["seat"]:
                msg = ws.receive_json()
        before = msg
    # A new app on the same database resumes the table by replaying its record.
    app = create_app(pg_url, computer_pause=0.0)
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": t["table"], "token": t["token"]})
        after = ws.receive_json()
        assert after["step"] == before["step"] and after["obs"] == before["obs"]
