"""The tables' action log, written by group commit.

Every table appends its actions through one :class:`ActionLog`. An append waits for its
own row to be committed; the appends arriving while a transaction is being written are
written together in the next one (up to ``log_batch_max``). Under load that is one commit
for many tables' actions instead of one each; alone, an append is written at once.

With SQLite a batch is written on the event loop itself when that needs no wait (a
fraction of a millisecond: no other writer of the process busy, the file not locked by
another process): a hop to a thread would cost more, because under load the thread waits
behind the loop for the interpreter lock at every step of its statements. Otherwise
(PostgreSQL, a busy SQLite file) the batch goes to one writing thread; a batch with a lost
lease or a conflict goes there too, to be written item by item without being tried whole
again.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from cardplaza.web.store.storage import Append, Storage


class ActionLog:
    """Appends of every table of a process, batched into shared transactions."""

    def __init__(self, storage: Storage, max_batch: int) -> None:
        self.storage = storage
        self.max_batch = max(1, max_batch)
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
            batch = self._pending[:self.max_batch]
            del self._pending[:self.max_batch]
            items = [item for item, _ in batch]
            results: list[Exception | None]
            outcome = self.storage.append_actions_at_once(items)
            if outcome == "written":
                results = [None] * len(items)
                self.at_once += 1
            else:
                # After a failed batch each item goes alone, without a second try together.
                try:
                    results = await loop.run_in_executor(
                        self._thread, self.storage.append_actions, items, outcome == "busy")
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

    def close(self) -> None:
        """Stop the writing thread (appends still queued fail)."""
        self._thread.shutdown(wait=False, cancel_futures=True)


__all__ = ["ActionLog"]
