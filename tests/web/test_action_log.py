"""Group commit: appends of different tables that arrive together share one transaction of
a few statements; one table's lost lease or conflict fails its own action only."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from cardplaza.web.store.action_log import ActionLog
from cardplaza.web.store.latency import percentile
from cardplaza.web.store.storage import (
    ActionConflict,
    Append,
    Finish,
    LeaseLost,
    SeatInfo,
    Storage,
    TableRow,
)


def storage_with_tables(url: str, count: int, server: str = "s1") -> Storage:
    storage = Storage(url)
    storage.register_server("s1", "host-a:1")
    storage.register_server("s2", "host-b:1")
    for i in range(count):
        storage.insert_table(TableRow(id=f"t{i}", game="toy", options={}, seed=i, actions=[],
                                      seats=[SeatInfo("human", "Ann")]), server)
    return storage


def statements(storage: Storage) -> list[tuple[str, bool]]:
    sent: list[tuple[str, bool]] = []

    def record(conn: Any, cursor: Any, statement: str, params: Any, context: Any,
               many: bool) -> None:
        sent.append((statement.split()[0], many))

    event.listen(storage.engine, "before_cursor_execute", record)
    return sent


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'log.sqlite3'}"
    return str(request.getfixturevalue("pg_db"))


def test_a_batch_is_one_lease_check_and_one_insert(url: str) -> None:
    storage = storage_with_tables(url, 20)
    try:
        sent = statements(storage)
        items = [Append(f"t{i}", 0, 0, {"card": i}, "s1") for i in range(20)]
        assert storage.append_actions(items) == [None] * 20
        kind = "SELECT" if storage.engine.dialect.name == "postgresql" else "UPDATE"
        assert sent == [(kind, False), ("INSERT", False)]  # one multi-row statement
        for i in range(20):
            row = storage.load_table(f"t{i}")
            assert row is not None and [a["action"] for a in row.actions] == [{"card": i}]
    finally:
        storage.close()


def test_a_lost_lease_or_a_conflict_fails_only_its_own_action(url: str) -> None:
    storage = storage_with_tables(url, 4)
    try:
        storage.append_action("t3", 0, 0, "first", "s1")
        # t1 belongs to another process now.
        storage.release("t1", "s1")
        assert storage.acquire("t1", "s2", lease_seconds=5) is None
        results = storage.append_actions([
            Append("t0", 0, 0, "a", "s1"),
            Append("t1", 0, 0, "b", "s1"),
            Append("t2", 0, 0, "c", "s1", Finish("finished", {"returns": [1]}, "win")),
            Append("t3", 0, 0, "again", "s1"),
        ])
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], LeaseLost)
        assert isinstance(results[3], ActionConflict)
        assert [storage.count_actions(f"t{i}") for i in range(4)] == [1, 0, 1, 1]
        finished = storage.load_table("t2")
        assert finished is not None and finished.status == "finished"
        assert finished.result == "win" and finished.extra == {"returns": [1]}
        kept = storage.load_table("t3")
        assert kept is not None and kept.actions[0]["action"] == "first"
    finally:
        storage.close()


def test_appends_arriving_together_share_one_commit(tmp_path: Path) -> None:
    storage = storage_with_tables(f"sqlite:///{tmp_path / 'log.sqlite3'}", 50)

    async def run(max_batch: int, index: int) -> ActionLog:
        log = ActionLog(storage, max_batch)
        try:
            await asyncio.gather(*(log.append(Append(f"t{i}", index, 0, [index, i], "s1"))
                                   for i in range(50)))
        finally:
            log.close()
        return log

    try:
        together = asyncio.run(run(64, 0))
        assert (together.transactions, together.appended) == (1, 50)
        capped = asyncio.run(run(8, 1))
        assert (capped.transactions, capped.appended) == (7, 50)  # ceil(50 / 8)
        alone = asyncio.run(run(1, 2))
        assert (alone.transactions, alone.appended) == (50, 50)
        for i in range(50):
            row = storage.load_table(f"t{i}")
            assert row is not None
            assert [a["action"] for a in row.actions] == [[0, i], [1, i], [2, i]]
    finally:
        storage.close()


def test_every_append_written_is_timed_once(tmp_path: Path) -> None:
    storage = storage_with_tables(f"sqlite:///{tmp_path / 'log.sqlite3'}", 3)

    async def run() -> ActionLog:
        log = ActionLog(storage, 64)
        try:
            await asyncio.gather(*(log.append(Append(f"t{i}", 0, 0, [i], "s1"))
                                   for i in range(3)))
            await log.append(Append("t0", 1, 0, ["again"], "s1"))
            with pytest.raises(ActionConflict):  # not written: not timed
                await log.append(Append("t1", 0, 0, ["taken"], "s1"))
        finally:
            log.close()
        return log

    try:
        log = asyncio.run(run())
        assert log.appended == 4 and sum(log.latency.counts) == 4
        assert percentile(log.latency.counts, 100) < 10_000  # milliseconds, not seconds
    finally:
        storage.close()


def test_an_append_that_cannot_be_written_raises_for_its_table_only(tmp_path: Path) -> None:
    storage = storage_with_tables(f"sqlite:///{tmp_path / 'log.sqlite3'}", 3)

    async def run() -> list[Any]:
        log = ActionLog(storage, 64)
        try:
            return await asyncio.gather(  # type: ignore[return-value]
                log.append(Append("t0", 0, 0, "a", "s1")),
                log.append(Append("t1", 0, 0, "b", "s2")),  # not s2's table
                log.append(Append("t2", 0, 0, "c", "s1")),
                return_exceptions=True)
        finally:
            log.close()

    try:
        results = asyncio.run(run())
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], LeaseLost)
        assert [storage.count_actions(f"t{i}") for i in range(3)] == [1, 0, 1]
        assert json.loads(json.dumps(storage.load_table("t2").actions[0]))["action"] == "c"  # type: ignore[union-attr]
    finally:
        storage.close()


def test_sqlite_batches_are_written_on_the_loop_unless_that_would_wait(
        tmp_path: Path) -> None:
    """No other writer busy: the batch is written at once, on the loop. Another thread of
    the process writing, or another process holding the file's lock: the batch goes to the
    writing thread, which waits its turn — and every action is still written."""
    import sqlite3
    import threading
    import time

    path = tmp_path / "log.sqlite3"
    storage = storage_with_tables(f"sqlite:///{path}", 3)

    async def append(index: int) -> ActionLog:
        log = ActionLog(storage, 64)
        try:
            await asyncio.gather(*(log.append(Append(f"t{i}", index, 0, index, "s1"))
                                   for i in range(3)))
        finally:
            log.close()
        return log

    try:
        quiet = asyncio.run(append(0))
        assert (quiet.at_once, quiet.transactions) == (1, 1)
        # Another thread of this process is writing.
        assert storage._writer is not None
        done = threading.Event()
        writer = threading.Thread(target=lambda: (storage._writer.acquire(),  # type: ignore[union-attr]
                                                  done.wait(10), storage._writer.release()))  # type: ignore[union-attr]
        writer.start()
        time.sleep(0.1)
        threading.Timer(0.3, done.set).start()
        busy = asyncio.run(append(1))
        writer.join()
        assert (busy.at_once, busy.transactions) == (0, 1)
        # Another process (here: another connection) holds the database's write lock.
        other = sqlite3.connect(path, check_same_thread=False)
        other.execute("BEGIN IMMEDIATE")
        threading.Timer(0.3, other.rollback).start()
        started = time.perf_counter()
        locked = asyncio.run(append(2))
        assert time.perf_counter() - started >= 0.25  # it waited for the lock, in a thread
        assert (locked.at_once, locked.transactions) == (0, 1)
        other.close()
        for i in range(3):
            row = storage.load_table(f"t{i}")
            assert row is not None and [a["action"] for a in row.actions] == [0, 1, 2]
    finally:
        storage.close()


async def _append_three(log: ActionLog) -> tuple[ActionLog, list[Any]]:
    """One action each for tables t0, t1 and t2 at once; the log (closed) and each result
    (None or the exception)."""
    try:
        results = await asyncio.gather(
            *(log.append(Append(f"t{i}", 0, 0, f"x{i}", "s1")) for i in range(3)),
            return_exceptions=True)
    finally:
        log.close()
    return log, list(results)


def test_a_batch_that_failed_on_the_loop_is_not_tried_whole_again(tmp_path: Path) -> None:
    """A conflict in a batch written on the loop: the writing thread writes each item
    alone straight away — one shared INSERT tried, then one per item, not two shared."""
    storage = storage_with_tables(f"sqlite:///{tmp_path / 'log.sqlite3'}", 3)
    storage.append_action("t1", 0, 0, "first", "s1")
    sent = statements(storage)
    # Plain appends go through the driver's own connection: SQLite itself tells those.
    plain: list[str] = []
    storage._quick_connection().connection.driver_connection.set_trace_callback(  # type: ignore[union-attr]
        lambda sql: plain.append(sql.split()[0]))

    try:
        log, results = asyncio.run(_append_three(ActionLog(storage, 64)))
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], ActionConflict)
        assert (log.at_once, log.transactions, log.appended) == (0, 1, 2)
        inserts = [s for s, _ in sent if s == "INSERT"] + [s for s in plain if s == "INSERT"]
        assert len(inserts) == 1 + 3
        assert [storage.count_actions(f"t{i}") for i in range(3)] == [1, 1, 1]
    finally:
        storage.close()


def test_transactions_are_log_batch_seconds_apart_and_share_the_appends_between(
        tmp_path: Path) -> None:
    """The first append is written at once; the appends arriving within the gap after it
    wait for the gap's end and share one transaction."""
    import time

    storage = storage_with_tables(f"sqlite:///{tmp_path / 'log.sqlite3'}", 6)

    async def run(gap: float) -> tuple[ActionLog, float, float]:
        log = ActionLog(storage, 64, gap)
        index = int(gap > 0)
        try:
            started = time.perf_counter()
            await log.append(Append("t0", index, 0, "alone", "s1"))
            first = time.perf_counter() - started

            async def later(i: int) -> None:
                await asyncio.sleep(0.01 * i)
                await log.append(Append(f"t{i}", index, 0, "later", "s1"))

            await asyncio.gather(*(later(i) for i in range(1, 6)))
            return log, first, time.perf_counter() - started
        finally:
            log.close()

    try:
        spaced, first, total = asyncio.run(run(0.3))
        assert first < 0.2  # alone: at once
        assert total >= 0.3  # the others waited for the gap's end ...
        assert (spaced.transactions, spaced.appended) == (2, 6)  # ... and went together
        each, _, _ = asyncio.run(run(0.0))
        assert (each.transactions, each.appended) == (6, 6)
        for i in range(6):
            row = storage.load_table(f"t{i}")
            assert row is not None and len(row.actions) == 2
    finally:
        storage.close()


def test_off_the_loop_every_batch_is_written_by_the_writing_thread(tmp_path: Path) -> None:
    import threading

    storage = storage_with_tables(f"sqlite:///{tmp_path / 'log.sqlite3'}", 3)
    storage.append_action("t1", 0, 0, "first", "s1")  # t1's step 0 is taken
    threads: list[str] = []
    at_once = storage.append_actions_at_once

    def spy(items: Any) -> Any:
        threads.append(threading.current_thread().name)
        return at_once(items)

    storage.append_actions_at_once = spy  # type: ignore[method-assign]

    try:
        log, results = asyncio.run(_append_three(ActionLog(storage, 64, on_loop=False)))
        assert threads and all(name.startswith("cardplaza-log") for name in threads)
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], ActionConflict)
        assert (log.at_once, log.transactions, log.appended) == (0, 1, 2)
        assert [storage.count_actions(f"t{i}") for i in range(3)] == [1, 1, 1]
    finally:
        storage.close()


def test_plain_appends_check_the_lease_and_keep_the_log_whole(tmp_path: Path) -> None:
    """The driver-level path for plain actions: written with their JSON; a batch with a
    table of another server writes nothing ("failed"); a taken index writes nothing."""
    storage = storage_with_tables(f"sqlite:///{tmp_path / 'log.sqlite3'}", 3)
    try:
        ok = [Append("t0", 0, 0, {"play": 3}, "s1"), Append("t1", 0, 1, [1, 2], "s1")]
        assert storage.append_actions_at_once(ok) == "written"
        lost = [Append("t0", 1, 0, "a", "s1"), Append("t2", 0, 0, "b", "s2")]
        assert storage.append_actions_at_once(lost) == "failed"
        taken = [Append("t2", 0, 0, "c", "s1"), Append("t0", 0, 0, "again", "s1")]
        assert storage.append_actions_at_once(taken) == "failed"
        assert storage.count_actions("t2") == 0 and storage.count_actions("t0") == 1
        # A single action: one statement, written only while its server holds the lease.
        assert storage.append_actions_at_once([Append("t2", 0, 0, "d", "s2")]) == "failed"
        assert storage.append_actions_at_once([Append("t0", 0, 0, "again", "s1")]) == "failed"
        assert storage.count_actions("t2") == 0 and storage.count_actions("t0") == 1
        assert storage.append_actions_at_once([Append("t2", 0, 1, {"play": 5}, "s1")]) == \
            "written"
        t2 = storage.load_table("t2")
        assert t2 is not None and t2.actions == [{"seat": 1, "action": {"play": 5}}]
        t0, t1 = storage.load_table("t0"), storage.load_table("t1")
        assert t0 is not None and t0.actions == [{"seat": 0, "action": {"play": 3}}]
        assert t1 is not None and t1.actions == [{"seat": 1, "action": [1, 2]}]
    finally:
        storage.close()


def test_plain_appends_are_one_statement_that_commits_itself(tmp_path: Path) -> None:
    """A batch of plain actions reaches SQLite as a single INSERT (no BEGIN, no lease
    update, no COMMIT): the writing thread gives up the interpreter lock once for it. The
    lease check is part of that statement: a lost lease writes none of the rows."""
    storage = storage_with_tables(f"sqlite:///{tmp_path / 'log.sqlite3'}", 3)
    try:
        raw = storage._quick_connection().connection.driver_connection
        seen: list[str] = []
        raw.set_trace_callback(seen.append)
        batch = [Append("t0", 0, 0, {"play": 3}, "s1"), Append("t1", 0, 1, "x", "s1"),
                 Append("t2", 0, 0, "y", None)]
        assert storage.append_actions_at_once(batch) == "written"
        assert [t.split()[0] for t in seen] == ["INSERT"]
        assert not raw.in_transaction
        seen.clear()
        lost = [Append("t0", 1, 0, "a", "s1"), Append("t1", 1, 0, "b", "s2")]
        assert storage.append_actions_at_once(lost) == "failed"
        assert [t.split()[0] for t in seen] == ["INSERT"]
        raw.set_trace_callback(None)
        assert [storage.count_actions(f"t{i}") for i in range(3)] == [1, 1, 1]
    finally:
        storage.close()


def test_a_closed_log_fails_its_appends_and_stops_its_thread(tmp_path: Path) -> None:
    from cardplaza.web.store.action_log import LogClosed

    storage = storage_with_tables(f"sqlite:///{tmp_path / 'log.sqlite3'}", 2)

    async def run() -> list[Any]:
        log = ActionLog(storage, 64, on_loop=False)
        await log.append(Append("t0", 0, 0, "a", "s1"))
        thread = log._thread
        assert thread is not None and thread.is_alive()
        log.close()
        results = await asyncio.gather(log.append(Append("t1", 0, 0, "b", "s1")),
                                       return_exceptions=True)
        thread.join(5)
        assert not thread.is_alive()
        return list(results)

    try:
        results = asyncio.run(run())
        assert len(results) == 1 and isinstance(results[0], LogClosed)
        assert [storage.count_actions(f"t{i}") for i in range(2)] == [1, 0]
    finally:
        storage.close()


def test_the_managers_log_follows_its_settings(tmp_path: Path) -> None:
    from cardplaza.web.live.tables import TableManager
    from cardplaza.web.settings import Settings

    defaults = Settings()
    assert defaults.log_batch_seconds == 0.0 and defaults.log_on_loop is False
    storage = Storage(f"sqlite:///{tmp_path / 'log.sqlite3'}")
    try:
        manager = TableManager(storage, Settings(log_batch_seconds=0.05, log_on_loop=True,
                                                 log_batch_max=9))
        log = manager.action_log
        assert (log.gap, log.on_loop, log.max_batch) == (0.05, True, 9)
        log.close()
    finally:
        storage.close()


@pytest.mark.parametrize("pipelined", [True, False])
def test_a_pipelined_log_writes_the_next_batch_while_the_loop_is_busy(
        tmp_path: Path, pipelined: bool) -> None:
    """The next batch is written as soon as the one before it is, with the event loop
    busy meanwhile (pipelined); with a gap between transactions it waits for the loop.
    The appends that waited together share one transaction either way."""
    import threading
    import time

    storage = storage_with_tables(f"sqlite:///{tmp_path / 'log.sqlite3'}", 5)
    first_writing, release_first = threading.Event(), threading.Event()
    started: list[tuple[int, float]] = []
    at_once = storage.append_actions_at_once

    def spy(items: Any) -> Any:
        started.append((len(items), time.monotonic()))
        if len(started) == 1:
            first_writing.set()
            release_first.wait(10)
        return at_once(items)

    storage.append_actions_at_once = spy  # type: ignore[method-assign]

    async def run() -> tuple[ActionLog, float]:
        log = ActionLog(storage, 64, gap=0.0 if pipelined else 1e-6, on_loop=False)
        try:
            first = asyncio.ensure_future(log.append(Append("t0", 0, 0, "a", "s1")))
            while not first_writing.is_set():
                await asyncio.sleep(0.001)
            rest = [asyncio.ensure_future(log.append(Append(f"t{i}", 0, 0, "b", "s1")))
                    for i in range(1, 3)]
            await asyncio.sleep(0)  # their round ends: the flush is made
            rest += [asyncio.ensure_future(log.append(Append(f"t{i}", 0, 0, "c", "s1")))
                     for i in range(3, 5)]
            await asyncio.sleep(0)
            await asyncio.sleep(0)
            release_first.set()
            time.sleep(0.5)  # the loop is busy
            busy_until = time.monotonic()
            await asyncio.gather(first, *rest)
            return log, busy_until
        finally:
            log.close()

    try:
        log, busy_until = asyncio.run(run())
        assert [n for n, _ in started] == [1, 4], started  # the four waited together
        assert log.transactions == 2 and log.appended == 5
        assert [storage.count_actions(f"t{i}") for i in range(5)] == [1] * 5
        second_began = started[1][1]
        if pipelined:
            assert second_began < busy_until, (second_began, busy_until)
        else:
            assert second_began >= busy_until, (second_began, busy_until)
    finally:
        storage.close()


def test_a_pipelined_append_goes_to_the_writing_thread_before_the_loop_round_ends(
        tmp_path: Path) -> None:
    """Pipelined, an append is handed to the writing thread at once: it is written while
    the event loop is still busy with the round in which it was made."""
    import time

    storage = storage_with_tables(f"sqlite:///{tmp_path / 'log.sqlite3'}", 1)
    began: list[float] = []
    at_once = storage.append_actions_at_once

    def spy(items: Any) -> Any:
        began.append(time.monotonic())
        return at_once(items)

    storage.append_actions_at_once = spy  # type: ignore[method-assign]

    async def run() -> float:
        log = ActionLog(storage, 64, on_loop=False)
        assert log.pipelined
        try:
            task = asyncio.ensure_future(log.append(Append("t0", 0, 0, "a", "s1")))
            await asyncio.sleep(0)  # the append runs up to its wait
            time.sleep(0.3)  # the loop stays busy in this round
            busy_until = time.monotonic()
            await task
            return busy_until
        finally:
            log.close()

    try:
        busy_until = asyncio.run(run())
        assert began and began[0] < busy_until, (began, busy_until)
        assert storage.count_actions("t0") == 1
    finally:
        storage.close()


@pytest.mark.parametrize("pipelined", [True, False])
def test_what_follows_an_append_runs_when_the_loop_hears_of_the_commit(
        tmp_path: Path, pipelined: bool) -> None:
    """``then`` is called once for an append written, on the loop, before the waiting task
    is woken (so before the append returns); an append that fails does not call it and
    raises as before; what ``then`` raises, the append raises."""
    storage = storage_with_tables(f"sqlite:///{tmp_path / 'log.sqlite3'}", 3)
    storage.append_action("t1", 0, 0, "first", "s1")  # t1's step 0 is taken
    events: list[str] = []

    def then(name: str) -> Any:
        def call() -> None:
            events.append(f"then {name}")
        return call

    def broken() -> None:
        events.append("then broken")
        raise RuntimeError("sending failed")

    async def one(name: str, table: str, index: int, follow: Any) -> None:
        await log.append(Append(table, index, 0, name, "s1"), follow)
        events.append(f"returned {name}")

    async def run() -> list[Any]:
        try:
            return await asyncio.gather(  # type: ignore[no-any-return]
                one("a", "t0", 0, then("a")), one("b", "t1", 0, then("b")),
                one("c", "t2", 0, then("c")), return_exceptions=True)
        finally:
            log.close()

    log = ActionLog(storage, 64, gap=0.0 if pipelined else 1e-6, on_loop=False)
    try:
        results = asyncio.run(run())
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], ActionConflict)
        assert sorted(events) == ["returned a", "returned c", "then a", "then c"]
        # Each append's then comes before any append returns that was written with it.
        assert max(events.index("then a"), events.index("then c")) < min(
            events.index("returned a"), events.index("returned c"))
        events.clear()
        log = ActionLog(storage, 64, gap=0.0 if pipelined else 1e-6, on_loop=False)

        async def failing() -> None:
            try:
                await log.append(Append("t0", 1, 0, "d", "s1"), broken)
            finally:
                log.close()

        with pytest.raises(RuntimeError, match="sending failed"):
            asyncio.run(failing())
        assert events == ["then broken"] and storage.count_actions("t0") == 2  # it is stored
    finally:
        storage.close()


def test_the_writing_threads_processor_time_is_read_while_it_runs(tmp_path: Path) -> None:
    """:meth:`ActionLog.writer_cpu` is the writing thread's own clock: nothing before the
    thread starts, growing with its work (not with the loop's), nothing once it ended."""
    import time

    storage = storage_with_tables(f"sqlite:///{tmp_path / 'log.sqlite3'}", 1)
    write = storage.append_actions_at_once

    def busy(items: Any) -> Any:
        t0 = time.thread_time()
        while time.thread_time() - t0 < 0.2:  # the writing thread's own work
            pass
        return write(items)

    storage.append_actions_at_once = busy  # type: ignore[method-assign]

    async def run() -> tuple[float, float, float]:
        log = ActionLog(storage, 64, on_loop=False)
        try:
            before = log.writer_cpu()
            await log.append(Append("t0", 0, 0, "a", "s1"))
            after = log.writer_cpu()
            t0 = time.thread_time()
            while time.thread_time() - t0 < 0.3:  # the loop's work is not the thread's
                pass
            later = log.writer_cpu()
        finally:
            log.close()
        assert log._thread is not None
        log._thread.join(5)
        assert log.writer_cpu() == 0.0  # ended
        return before, after, later - after

    try:
        before, after, grown = asyncio.run(run())
        assert before == 0.0
        assert after >= 0.2, after
        assert grown < 0.1, grown
    finally:
        storage.close()
