"""The append-only action log: one row per action, the same work at any length of game;
undo cuts the log; a process that lost a table's lease can never write to it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event
from web_helpers import create

from cardplaza.web.store.storage import (
    ActionConflict,
    Finish,
    GameOver,
    LeaseLost,
    SeatInfo,
    Storage,
    TableRow,
)


def new_table(storage: Storage, table_id: str = "t1", server: str | None = "s1") -> None:
    storage.insert_table(TableRow(id=table_id, game="toy", options={}, seed=2**100 + 7,
                                  actions=[], seats=[SeatInfo("human", "Ann")]), server)


def test_append_costs_the_same_at_any_length(tmp_path: Path) -> None:
    """Saving the 1,000th action sends the database what saving the 10th does."""
    storage = Storage(f"sqlite:///{tmp_path / 'log.sqlite3'}")
    storage.register_server("s1", "127.0.0.1:1")
    new_table(storage)
    sent: list[tuple[str, int]] = []

    def record(conn: Any, cursor: Any, statement: str, params: Any, context: Any,
               many: bool) -> None:
        sent.append((statement.split()[0], len(json.dumps(params, default=str))))

    event.listen(storage.engine, "before_cursor_execute", record)
    work = {}
    for i in range(1_000):
        sent.clear()
        storage.append_action("t1", i, 0, {"type": "play", "card": i % 48}, "s1")
        if i + 1 in (10, 1_000):
            work[i + 1] = list(sent)
    assert [s for s, _ in work[10]] == [s for s, _ in work[1_000]] == ["UPDATE", "INSERT"]
    # The same few bytes (longer index digits aside): nothing grows with the game.
    assert all(abs(a[1] - b[1]) <= 8 for a, b in zip(work[10], work[1_000], strict=True))
    assert storage.count_actions("t1") == 1_000
    row = storage.load_table("t1")
    assert row is not None and row.seed == 2**100 + 7
    assert [a["action"]["card"] for a in row.actions[:3]] == [0, 1, 2]


def test_finish_is_written_with_the_last_action(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'log.sqlite3'}")
    storage.register_server("s1", "a")
    new_table(storage)
    storage.append_action("t1", 0, 0, 5, "s1", Finish("finished", {"returns": [1, 0]}, "win"))
    row = storage.load_table("t1")
    assert row is not None and row.status == "finished" and row.result == "win"
    assert row.extra == {"returns": [1, 0]}


def test_truncate_actions_for_undo(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'log.sqlite3'}")
    storage.register_server("s1", "a")
    new_table(storage)
    for i in range(10):
        storage.append_action("t1", i, 0, i, "s1")
    assert storage.truncate_actions("t1", 4, "s1") == 6
    row = storage.load_table("t1")
    assert row is not None and [a["action"] for a in row.actions] == [0, 1, 2, 3]
    storage.append_action("t1", 4, 0, 40, "s1")
    assert storage.count_actions("t1") == 5
    with pytest.raises(LeaseLost):
        storage.truncate_actions("t1", 0, "s2")
    assert storage.count_actions("t1") == 5
    storage.append_action("t1", 5, 0, 50, "s1", Finish("finished", {"returns": [1, 0]}, "win"))
    with pytest.raises(GameOver):  # a finished game's log (and result) is never cut
        storage.truncate_actions("t1", 2, "s1")
    row = storage.load_table("t1")
    assert row is not None and row.status == "finished" and len(row.actions) == 6


def test_a_table_stored_with_its_first_actions_keeps_them_in_order(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'log.sqlite3'}")
    storage.insert_table(TableRow(id="t1", game="toy", options={}, seed=3, seats=[
        SeatInfo("human", "Ann"), SeatInfo("computer", "CPU 1", "random")], actions=[
        {"seat": 0, "action": {"card": 4}}, {"seat": 1, "action": [2, 3]},
        {"seat": 0, "action": "pass"}]), "s1")
    row = storage.load_table("t1")
    assert row is not None and row.actions == [
        {"seat": 0, "action": {"card": 4}}, {"seat": 1, "action": [2, 3]},
        {"seat": 0, "action": "pass"}]
    assert storage.owner_of("t1") == "s1" and storage.leases_of("s1") == {"t1"}
    with pytest.raises(ActionConflict):  # the stored steps are taken
        storage.append_action("t1", 2, 0, "again", "s1")
    storage.close()


def test_only_the_lease_holder_writes(tmp_path: Path) -> None:
    storage = Storage(f"sqlite:///{tmp_path / 'log.sqlite3'}")
    storage.register_server("s1", "host-a:1")
    storage.register_server("s2", "host-b:1")
    new_table(storage)
    storage.append_action("t1", 0, 0, 1, "s1")
    with pytest.raises(LeaseLost):
        storage.append_action("t1", 1, 0, 2, "s2")
    with pytest.raises(ActionConflict):
        storage.append_action("t1", 0, 0, 9, "s1")
    assert storage.count_actions("t1") == 1
    # s1 is alive: s2 is told where the table is.
    owner = storage.acquire("t1", "s2", lease_seconds=5)
    assert owner is not None and owner.server == "s1" and owner.address == "host-a:1"
    # s1's heartbeat stops: after the lease time s2 takes the table, and s1 cannot write.
    with storage.engine.begin() as conn:
        from cardplaza.web.store.storage import servers_t

        conn.execute(servers_t.update().where(servers_t.c.id == "s1").values(heartbeat=0.0))
    assert storage.acquire("t1", "s2", lease_seconds=5) is None
    assert storage.owner_of("t1") == "s2"
    with pytest.raises(LeaseLost):
        storage.append_action("t1", 1, 0, 2, "s1")
    storage.append_action("t1", 1, 0, 2, "s2")
    storage.release("t1", "s2")
    assert storage.owner_of("t1") is None


def test_a_server_lets_go_of_the_tables_another_took_over_in_one_query(
        tmp_path: Path) -> None:
    """The periodic lease check asks the database once for every table this process holds
    (not once per table), and lets go of exactly those whose lease another process took;
    a table that comes into memory while the query runs is not let go."""
    import asyncio

    from cardplaza.web.live.tables import LiveTable, TableManager
    from cardplaza.web.settings import Settings
    from cardplaza.web.store.storage import servers_t

    storage = Storage(f"sqlite:///{tmp_path / 'log.sqlite3'}")
    storage.register_server("s2", "host-b:1")
    manager = TableManager(storage, Settings(ai_workers=1))
    storage.register_server(manager.server_id, "host-a:1")
    for name in ("t1", "t2", "t3"):
        new_table(storage, name, manager.server_id)
    storage.insert_table(TableRow(id="t9", game="toy", options={}, seed=1, actions=[],
                                  seats=[SeatInfo("human", "Ann")]), None)
    live = {name: LiveTable(row=row, spec=None, state=None)  # type: ignore[arg-type]
            for name in ("t1", "t2", "t3", "t9") if (row := storage.load_table(name))}
    manager.tables.update(live)
    # s2 takes t2 over (this process's heartbeat looked stopped), and t3 is given up.
    with storage.engine.begin() as conn:
        conn.execute(servers_t.update().where(servers_t.c.id == manager.server_id)
                     .values(heartbeat=0.0))
    assert storage.acquire("t2", "s2", lease_seconds=5) is None
    storage.release("t3", manager.server_id)
    asked: list[str] = []
    leases_of = storage.leases_of

    def spy(server: str) -> set[str]:
        asked.append(server)
        held = leases_of(server)
        # A table stored and brought into memory while the query runs.
        new_table(storage, "t4", manager.server_id)
        manager.tables["t4"] = LiveTable(row=storage.load_table("t4"),  # type: ignore[arg-type]
                                         spec=None, state=None)  # type: ignore[arg-type]
        return held

    storage.leases_of = spy  # type: ignore[method-assign]
    owner_of = storage.owner_of
    storage.owner_of = lambda table_id: asked.append(table_id) or owner_of(table_id)  # type: ignore[assignment, method-assign]
    try:
        asyncio.run(manager._check_leases())
        assert asked == [manager.server_id]  # one query, not one per table
        assert sorted(manager.tables) == ["t1", "t4"]
        assert live["t2"].gone and live["t3"].gone and live["t9"].gone
        assert not live["t1"].gone and not manager.tables["t4"].gone
    finally:
        manager.action_log.close()
        manager.db_pool.shutdown(wait=True)
        storage.close()


def test_tables_of_the_earlier_layout_are_carried_over(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE cp_tables (id TEXT PRIMARY KEY, game TEXT, options TEXT, "
                "seed BIGINT, actions TEXT, seats TEXT, extra TEXT, status TEXT, "
                "created FLOAT, updated FLOAT)")
    seats = json.dumps([{"kind": "human", "name": "Ann", "level": "", "token_hash": "ab"}])
    con.execute("INSERT INTO cp_tables VALUES (?,?,?,?,?,?,?,?,?,?)",
                ("old1", "toy", "{}", 77, json.dumps([{"seat": 0, "action": 3},
                                                      {"seat": 1, "action": 4}]),
                 seats, "{}", "playing", 1.0, 2.0))
    con.commit()
    con.close()
    for _ in range(2):  # once only
        storage = Storage(f"sqlite:///{path}")
        row = storage.load_table("old1")
        assert row is not None and row.seed == 77 and row.seats[0].name == "Ann"
        assert [a["action"] for a in row.actions] == [3, 4]
        storage.close()


def test_rewind_takes_a_table_back(client: TestClient) -> None:
    """The undo hook: the log is cut and every seat sees the earlier position."""
    t = create(client, game="toy", seed=5, humans=[0, 1])
    manager = client.app.state.manager  # type: ignore[attr-defined]
    storage = client.app.state.storage  # type: ignore[attr-defined]
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "join", "table": t["table"], "token": t["tokens"]["0"]})
        first = ws.receive_json()
        ws.send_json({"type": "act", "action": first["legal"][0]["json"]})
        assert ws.receive_json()["step"] == 1
        table = manager.tables[t["table"]]
        client.portal.call(manager.rewind, table, 0)  # type: ignore[attr-defined]
        back = ws.receive_json()
        assert back["step"] == 0 and back["obs"] == first["obs"]
    assert storage.count_actions(t["table"]) == 0
