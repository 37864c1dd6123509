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
again.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from cardplaza.web.store.storage import Append, Storage


class ActionLog:
    """Appends of every table of a process, batched into shared transactions."""

    def __init__(self, storage: Storage, max_batch: int, gap: float = 0.0,
                 on_loop: bool = True) -> None:
        self.storage = storage
        self.max_batch = max(1, max_batch)
        self.gap = max(0.0, gap)
        """Least time between the starts of two transactions (``log_batch_seconds``)."""
        self._last = -1e9
        self.on_loop = on_loop
        """SQLite batches are tried on the event loop first (``log_on_loop``)."""
        self._pending: list[tuple[Append, asyncio.Future[None]]] = []
        self._drainer: asyncio.Task[None] | None = None
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardplaza-log")
        self.transactions = 0
        """Batches written so far (each one transaction unless an item failed)."""
        self.appended = 0
        """Actions written so far."""
        self.at_once = 0
        """Batches written on the event loop itself (SQLite, when that needed no wait)."""

    async def append(self, item: Append) -> None:
        """Append one action; returns once it is committed, or raises what
        :meth:`Storage.append_action` raises for it (nothing of it is then written)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._pending.append((item, done))
        if self._drainer is None or self._drainer.done():
            self._drainer = loop.create_task(self._drain())
        await done

    async def _drain(self) -> None:
        # Runs until nothing is pending; an append that finds it done starts it again.
        loop = asyncio.get_running_loop()
        while self._pending:
            wait = self._last + self.gap - loop.time()
            if wait > 0 and len(self._pending) < self.max_batch:
                await asyncio.sleep(wait)
            self._last = loop.time()
            batch = self._pending[:self.max_batch]
            del self._pending[:self.max_batch]
            items = [item for item, _ in batch]
            results: list[Exception | None]
            outcome = self.storage.append_actions_at_once(items) if self.on_loop else "no"
            if outcome == "written":
                results = [None] * len(items)
                self.at_once += 1
            else:
                try:
                    results = await loop.run_in_executor(
                        self._thread, self._write, items, outcome)
                except Exception as exc:  # the thread is gone (closing)
                    results = [exc] * len(batch)
            self.transactions += 1
            for (_, done), result in zip(batch, results, strict=True):
                if done.done():
                    continue
                if result is None:
                    self.appended += 1
                    done.set_result(None)
                else:
                    done.set_exception(result)

    def _write(self, items: list[Append], outcome: str) -> list[Exception | None]:
        """On the writing thread: the batch in one transaction, or (after a failed one)
        each item alone, without a second try together."""
        if outcome == "no":
            outcome = self.storage.append_actions_at_once(items)
            if outcome == "written":
                return [None] * len(items)
        return self.storage.append_actions(items, outcome == "busy")

    def close(self) -> None:
        """Stop the writing thread (appends still queued fail)."""
        self._thread.shutdown(wait=False, cancel_futures=True)


__all__ = ["ActionLog"]
