"""The tables' action log, written by group commit.

Every table appends its actions through one :class:`ActionLog`. An append waits for its
own row to be committed; the appends arriving while a transaction is being written are
written together in the next one (up to ``log_batch_max``). Transactions are at least
``log_batch_seconds`` apart: an append arriving sooner after the last one waits for the
rest of that time, and the appends arriving meanwhile share its transaction. Under load
that is one commit for many tables' actions instead of one each (a transaction's own
cost is most of an append's); alone, an append is written at once.

Batches are written by one writing thread, so the event loop never waits for the
database (with ``log_on_loop``, SQLite batches are written on the loop itself when that
needs no wait — no other writer of the process busy, the file not locked by another
process — which saves the hop to the thread but stops the loop for the write, and on a
busy machine a write's system calls can keep it off the processor for milliseconds). A
batch with a lost lease or a conflict is written item by item without being tried whole
again. Without ``log_on_loop`` and ``log_batch_seconds`` (the defaults) the log is
*pipelined*: an append goes to the writing thread at once, without waiting for the loop's
round to end, and the thread writes what waits for it together, one transaction after
another — neither waits for a busy event loop.

An append may name what follows it (``then``): a function the loop calls as soon as the
row is committed, before the append returns. Under load each round of the event loop
takes milliseconds, and waking the task that waits for the append costs one more round;
a table's new state is sent from ``then`` instead, a round sooner.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
import time
from collections.abc import Callable

from cardplaza.web.store.latency import LatencyHistogram
from cardplaza.web.store.storage import Append, Storage

Then = Callable[[], None] | None
"""What follows an append once its row is committed (on the loop), or ``None``."""
_Batch = list[tuple[Append, "asyncio.Future[None]", Then, float]]
"""Appends waiting together: each with its future, what follows it and when it was made
(loop time)."""


class LogClosed(RuntimeError):
    """The action log was closed before the action was written."""


class ActionLog:
    """Appends of every table of a process, batched into shared transactions.

    The loop side is callbacks, not a task per append. Pipelined, an append goes to the
    writing thread through a queue at once; otherwise it waits with the others and, if no
    batch is being written, schedules :meth:`_flush` for the end of the loop's current
    round (so the appends made in that round share a batch). The thread hands the results
    back with one ``call_soon_threadsafe`` per transaction — a fraction of the processor
    time of a hop through ``run_in_executor`` and a task per append."""

    def __init__(self, storage: Storage, max_batch: int, gap: float = 0.0,
                 on_loop: bool = True) -> None:
        self.storage = storage
        self.max_batch = max(1, max_batch)
        self.gap = max(0.0, gap)
        """Least time between the starts of two transactions (``log_batch_seconds``)."""
        self._last = -1e9
        self.on_loop = on_loop
        """SQLite batches are tried on the event loop first (``log_on_loop``)."""
        self._pending: _Batch = []
        self._busy = False
        """A flush is scheduled, or a batch is with the writing thread."""
        self._closed = False
        self._jobs: queue.SimpleQueue[
            tuple[asyncio.AbstractEventLoop, _Batch, str] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self.transactions = 0
        """Batches written so far (each one transaction unless an item failed)."""
        self.appended = 0
        """Actions written so far."""
        self.at_once = 0
        """Batches written on the event loop itself (SQLite, when that needed no wait)."""
        self.latency = LatencyHistogram()
        """The time of every append written, from the call until the loop hears of its
        commit (``/healthz`` shows the counts; a load benchmark takes its percentiles over
        its measured time)."""

    async def append(self, item: Append, then: Then = None) -> None:
        """Append one action; returns once it is committed, or raises what
        :meth:`Storage.append_action` raises for it (nothing of it is then written).

        ``then`` is called on the loop as soon as the row is committed, before this
        returns (not if the append was cancelled meanwhile); what it raises, the append
        raises."""
        if self._closed:
            raise LogClosed("the action log is closed")
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        entry = (item, done, then, loop.time())
        if self.pipelined:
            self._hand(loop, [entry], "no")
        else:
            self._pending.append(entry)
            if not self._busy:
                self._busy = True
                self._schedule(loop)
        await done

    def _hand(self, loop: asyncio.AbstractEventLoop, batch: _Batch, outcome: str) -> None:
        """A batch to the writing thread (started the first time)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._writer, name="cardplaza-log",
                                            daemon=True)
            self._thread.start()
        self._jobs.put((loop, batch, outcome))

    def _schedule(self, loop: asyncio.AbstractEventLoop) -> None:
        """:meth:`_flush` at the end of this round of the loop, or once the gap since the
        last transaction is over (sooner when a whole batch is waiting)."""
        wait = self._last + self.gap - loop.time()
        if wait > 0 and len(self._pending) < self.max_batch:
            loop.call_later(wait, self._flush, loop)
        else:
            loop.call_soon(self._flush, loop)

    @property
    def pipelined(self) -> bool:
        """Appends go to the writing thread as soon as their loop round ends, without
        waiting for the batch before them to come back (no ``log_on_loop``, no
        ``log_batch_seconds``): the thread writes what waits for it one transaction after
        another, up to ``log_batch_max`` actions each, and the busy loop is not a step
        between two transactions."""
        return not self.on_loop and self.gap == 0.0

    def _flush(self, loop: asyncio.AbstractEventLoop) -> None:
        """On the loop (not pipelined): the next batch written here (SQLite, no wait
        needed) or handed to the writing thread."""
        if not self._pending:
            self._busy = False
            return
        self._last = loop.time()
        batch = self._pending[:self.max_batch]
        del self._pending[:self.max_batch]
        if self._closed:
            self._finish(loop, batch, [LogClosed("the action log is closed")] * len(batch))
            return
        items = [entry[0] for entry in batch]
        outcome = self.storage.append_actions_at_once(items) if self.on_loop else "no"
        if outcome == "written":
            self.at_once += 1
            self._finish(loop, batch, [None] * len(items))
            return
        self._hand(loop, batch, outcome)

    def _finish(self, loop: asyncio.AbstractEventLoop, batch: _Batch,
                results: list[Exception | None]) -> None:
        """On the loop: a transaction's results to its appends (what follows each one
        written is called first); the next batch after it unless pipelined."""
        self.transactions += 1
        now = loop.time()
        for (_, done, then, start), result in zip(batch, results, strict=True):
            if done.done():  # the append was cancelled
                continue
            if result is None:
                self.appended += 1
                self.latency.record(now - start)
                if then is not None:
                    try:
                        then()
                    except Exception as exc:
                        done.set_exception(exc)
                        continue
                done.set_result(None)
            else:
                done.set_exception(result)
        if self.pipelined:
            return
        if self._pending:
            self._schedule(loop)
        else:
            self._busy = False

    def _writer(self) -> None:
        """The writing thread: batches in, results back to their loop. Pipelined, the
        batches waiting together are written in one transaction (up to ``max_batch``
        actions), each told of its own results."""
        carried: tuple[asyncio.AbstractEventLoop, _Batch, str] | None = None
        while True:
            job = carried if carried is not None else self._jobs.get()
            carried = None
            if job is None:
                return
            loop, _, outcome = job
            jobs = [job]
            size = len(job[1])
            while self.pipelined:
                try:
                    more = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._jobs.put(None)  # the end, once this transaction is written
                    break
                if more[0] is not loop or size + len(more[1]) > self.max_batch:
                    carried = more  # the next transaction's
                    break
                jobs.append(more)
                size += len(more[1])
            batch = job[1] if len(jobs) == 1 else [e for _, b, _ in jobs for e in b]
            items = [entry[0] for entry in batch]
            try:
                results = self._write(items, outcome)
            except Exception as exc:  # every append of the batch hears of it
                results = [exc] * len(items)
            # A closed loop: nobody waits any more.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._finish, loop, batch, results)

    def _write(self, items: list[Append], outcome: str) -> list[Exception | None]:
        """On the writing thread: the batch in one transaction, or (after a failed one)
        each item alone, without a second try together."""
        if outcome == "no":
            outcome = self.storage.append_actions_at_once(items)
            if outcome == "written":
                return [None] * len(items)
        return self.storage.append_actions(items, outcome == "busy")

    def writer_cpu(self) -> float:
        """Processor seconds the writing thread has used so far (0.0 before it starts or
        after it ends, or where the platform cannot read one thread's clock)."""
        thread = self._thread
        if thread is None or thread.ident is None or not thread.is_alive():
            return 0.0
        try:
            return time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
        except (AttributeError, OSError):
            return 0.0

    def close(self) -> None:
        """Stop the writing thread once the batch it is writing is done (appends still
        queued fail with :class:`LogClosed`)."""
        self._closed = True
        self._jobs.put(None)


__all__ = ["ActionLog", "LogClosed"]
