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


def test_address_limit_holds_for_concurrent_inserts_on_postgres(pg_db: str) -> None:
    """Two servers' concurrent inserts from one address: the count in the transaction
    (under an advisory lock of the address) lets exactly the limit through."""
    import threading

    from cardplaza.web.store.storage import SeatInfo, TableRow, TooManyTables

    storage = Storage(pg_db)
    stored: list[str] = []
    refused: list[str] = []
    start = threading.Barrier(12)

    def one(i: int) -> None:
        row = TableRow(id=f"t{i}", game="toy", options={}, seed=i, actions=[],
                       seats=[SeatInfo("human", "A")])
        start.wait()
        try:
            storage.insert_table(row, None, "addr", 4, 0.0)
            stored.append(row.id)
        except TooManyTables:
            refused.append(row.id)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(stored) == 4 and len(refused) == 8
    assert storage.count_open(0.0, address="addr", statuses=("playing", "abandoned")) == 4
    storage.close()
