"""Computer work in worker processes, off the event loop.

:class:`WorkerPool` keeps a fixed number of worker processes (``python -m
cardplaza.web.live.workers``) and runs picklable module-level functions in them:
``await pool.run(fn, *args, deadline=seconds)``. Each process is driven by one thread of
this process that hands it one task at a time over its stdin/stdout (length-prefixed
pickles), so the event loop only waits on futures.

* A task not finished by its ``deadline`` (counted from the call, queueing included) raises
  :class:`WorkerTimeout` to the caller; if it has not started it is dropped, otherwise its
  result is thrown away when it comes.
* A worker busy with one task longer than ``kill_seconds`` is killed and replaced.
* A worker that dies (crash, kill) fails only the task it was running
  (:class:`WorkerFailed`); a fresh process takes its place and the other workers go on.
* An exception inside the function is :class:`WorkerFailed` too (the worker lives on).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import queue
import select
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

log = logging.getLogger("cardplaza.web")

_HEADER = struct.Struct("!I")
READY_SECONDS = 600.0
"""How long a new worker may take to start (its preloads compile search kernels)."""


class WorkerTimeout(Exception):
    """The task did not finish by its deadline."""


class WorkerFailed(Exception):
    """The task raised, or its worker process died while running it."""


@dataclass
class _Task:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]
    expires: float | None
    abandoned: bool = False
    started: float = 0.0


@dataclass
class PoolStats:
    """Counters of a pool's life (for logs, ``/healthz`` and tests)."""

    done: int = 0
    failed: int = 0
    timeouts: int = 0
    dropped: int = 0
    crashes: int = 0
    killed: int = 0
    started: int = 0
    ready: int = 0
    busy: int = 0
    queued: int = 0
    pids: list[int] = field(default_factory=list)


class _Expired(Exception):
    """A task's deadline passed while its caller waited (becomes :class:`WorkerTimeout`)."""


def _expire(fut: asyncio.Future[Any], task: _Task) -> None:
    if not fut.done():
        task.abandoned = True
        fut.set_exception(_Expired())


def _read_outcome(fut: asyncio.Future[Any]) -> None:
    if not fut.cancelled():
        fut.exception()


def _set_result(fut: asyncio.Future[Any], value: Any) -> None:
    if not fut.done():
        fut.set_result(value)


def _set_error(fut: asyncio.Future[Any], exc: BaseException) -> None:
    if not fut.done():
        fut.set_exception(exc)


class _Slot:
    """One worker process and the thread that feeds it."""

    def __init__(self, pool: WorkerPool, index: int) -> None:
        self.pool = pool
        self.index = index
        self.proc: subprocess.Popen[bytes] | None = None
        self.ready = False
        self.thread = threading.Thread(target=self._loop, name=f"cardplaza-ai-{index}",
                                       daemon=True)

    # -- process ---------------------------------------------------------------------------
    def ensure(self) -> subprocess.Popen[bytes]:
        if self.proc is not None and self.proc.poll() is None:
            return self.proc
        self.ready = False
        # The worker sees the modules this process sees (functions are sent by name).
        paths = [p for p in sys.path if p and os.path.isdir(p)]
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cardplaza.web.live.workers", str(self.pool.nice),
             *self.pool.preload],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None, env=env,
            start_new_session=True)
        self.pool.stats.started += 1
        return self.proc

    def kill(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        with contextlib.suppress(OSError):
            proc.kill()
        with contextlib.suppress(Exception):
            proc.wait(5)
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    # -- feeding ---------------------------------------------------------------------------
    def _wait_ready(self, proc: subprocess.Popen[bytes]) -> None:
        """The worker says it is ready once its preloads (kernel warm-up) are done."""
        assert proc.stdout is not None
        _read_frame(proc.stdout, time.monotonic() + READY_SECONDS)
        self.ready = True
        self.pool.stats.ready += 1

    def _loop(self) -> None:
        pool = self.pool
        if self.proc is not None:
            try:
                self._wait_ready(self.proc)
            except (TimeoutError, EOFError, OSError):
                log.error("computer worker %d did not start", self.index)
                self.kill()
        while True:
            task = pool.tasks.get()
            if task is None:
                break
            pool.stats.queued = pool.tasks.qsize()
            now = time.monotonic()
            if task.abandoned or task.future.done() or (
                    task.expires is not None and now >= task.expires):
                pool.stats.dropped += 1
                task.loop.call_soon_threadsafe(_set_error, task.future,
                                               WorkerTimeout("expired in the queue"))
                continue
            pool.stats.busy += 1
            try:
                self._run(task)
            finally:
                pool.stats.busy -= 1
        self.kill()

    def _run(self, task: _Task) -> None:
        pool = self.pool
        try:
            payload = pickle.dumps((task.fn, task.args), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:
            pool.stats.failed += 1
            task.loop.call_soon_threadsafe(_set_error, task.future,
                                           WorkerFailed(f"cannot send the task: {exc!r}"))
            return
        try:
            proc = self.ensure()
            assert proc.stdin is not None and proc.stdout is not None
            if not self.ready:
                self._wait_ready(proc)
            proc.stdin.write(_HEADER.pack(len(payload)) + payload)
            proc.stdin.flush()
        except (OSError, EOFError, TimeoutError):
            self._died(task, "could not be reached")
            return
        task.started = time.monotonic()
        kill_at = task.started + pool.kill_seconds
        try:
            reply = _read_frame(proc.stdout, kill_at)
        except TimeoutError:
            pool.stats.killed += 1
            log.warning("computer worker %d: a task ran over %.0f s; the worker is replaced",
                        self.index, pool.kill_seconds)
            self.kill()
            task.loop.call_soon_threadsafe(_set_error, task.future,
                                           WorkerTimeout("the worker was replaced"))
            return
        except (EOFError, OSError):
            self._died(task, "stopped")
            return
        try:
            ok, value = pickle.loads(reply)
        except Exception:
            self._died(task, "sent an unreadable reply")
            return
        if ok:
            pool.stats.done += 1
            task.loop.call_soon_threadsafe(_set_result, task.future, value)
        else:
            pool.stats.failed += 1
            task.loop.call_soon_threadsafe(_set_error, task.future, WorkerFailed(str(value)))

    def _died(self, task: _Task, how: str) -> None:
        pool = self.pool
        if pool.closed:
            self.kill()
            task.loop.call_soon_threadsafe(_set_error, task.future,
                                           WorkerFailed("the pool is closed"))
            return
        pool.stats.crashes += 1
        code = self.proc.poll() if self.proc is not None else None
        log.error("computer worker %d %s (exit %s); a new one takes its place",
                  self.index, how, code)
        self.kill()
        task.loop.call_soon_threadsafe(_set_error, task.future,
                                       WorkerFailed(f"the worker {how}"))


def _read_exact(stream: IO[bytes], n: int, until: float) -> bytes:
    fd = stream.fileno()
    chunks: list[bytes] = []
    need = n
    while need:
        left = until - time.monotonic()
        if left <= 0:
            raise TimeoutError
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            raise TimeoutError
        chunk = os.read(fd, need)
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        need -= len(chunk)
    return b"".join(chunks)


def _read_frame(stream: IO[bytes], until: float) -> bytes:
    (size,) = _HEADER.unpack(_read_exact(stream, _HEADER.size, until))
    return _read_exact(stream, size, until)


class WorkerPool:
    """A fixed set of worker processes running picklable functions with deadlines."""

    def __init__(self, size: int, kill_seconds: float = 30.0, nice: int = 5,
                 preload: tuple[str, ...] = ()) -> None:
        self.size = max(1, int(size))
        self.kill_seconds = kill_seconds
        self.nice = nice
        self.preload = preload
        self.tasks: queue.Queue[_Task | None] = queue.Queue()
        self.stats = PoolStats()
        self.slots: list[_Slot] = []
        self._lock = threading.Lock()
        self.closed = False

    def start(self, processes: bool = False) -> None:
        """Start the feeding threads (and, with ``processes``, the processes now)."""
        with self._lock:
            if self.slots or self.closed:
                return
            self.slots = [_Slot(self, i) for i in range(self.size)]
            for slot in self.slots:
                if processes:
                    slot.ensure()
                slot.thread.start()

    def wait_ready(self, seconds: float) -> bool:
        """Wait up to ``seconds`` until every started worker process has said it is ready;
        True when all have."""
        until = time.monotonic() + seconds
        while True:
            if self.slots and all(slot.ready for slot in self.slots):
                return True
            if time.monotonic() >= until:
                return False
            time.sleep(0.02)

    async def run(self, fn: Callable[..., Any], *args: Any,
                  deadline: float | None = None) -> Any:
        """``fn(*args)`` in a worker; :class:`WorkerTimeout` after ``deadline`` seconds,
        :class:`WorkerFailed` if it raised or its worker died."""
        if self.closed:
            raise WorkerFailed("the pool is closed")
        self.start()
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Any] = loop.create_future()
        expires = None if deadline is None else time.monotonic() + deadline
        task = _Task(fn, args, loop, fut, expires)
        self.tasks.put(task)
        self.stats.queued = self.tasks.qsize()
        # One timer on the future itself (``wait_for`` with ``shield`` costs two more
        # futures and their callbacks per task); the feeding thread only ever sets a
        # future that is not done yet.
        timer = None if deadline is None else loop.call_later(
            max(0.0, deadline), _expire, fut, task)
        try:
            return await fut
        except _Expired:
            self._abandon(task)
            self.stats.timeouts += 1
            raise WorkerTimeout(f"no answer within {deadline:.1f} s") from None
        except asyncio.CancelledError:
            self._abandon(task)
            raise
        finally:
            if timer is not None:
                timer.cancel()

    @staticmethod
    def _abandon(task: _Task) -> None:
        """Nobody waits for this task any more: it is dropped if it has not started, and the
        error it may still end with (an expiry, the pool closing) is read here, so it is
        never reported as an exception nobody retrieved."""
        task.abandoned = True
        task.future.add_done_callback(_read_outcome)

    def pids(self) -> list[int]:
        """Process ids of the running workers."""
        return [s.proc.pid for s in self.slots if s.proc is not None and s.proc.poll() is None]

    async def close(self) -> None:
        """Stop the threads and the processes."""
        with self._lock:
            self.closed = True
            slots = list(self.slots)
        for _ in slots:
            self.tasks.put(None)
        for slot in slots:
            slot.kill()
        for slot in slots:
            await asyncio.to_thread(slot.thread.join, 5)


# -- the worker process ---------------------------------------------------------------------
def die_with_parent(signal_number: int = 9, parent: int | None = None) -> None:
    """Linux: this process gets ``signal_number`` (default SIGKILL) when the process that
    started it dies, even by SIGKILL; elsewhere nothing happens. ``parent`` is the pid of
    that process when known: if it has already died (this process was handed to another
    parent before the call), the signal comes at once."""
    import ctypes

    if parent is None:
        parent = os.getppid()
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal_number, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before the call
        os.kill(os.getpid(), signal_number)


def _serve(nice: int, preload: list[str]) -> None:
    """Read tasks from stdin, answer on the original stdout; ``print`` goes to stderr."""
    import importlib
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)
    out_fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    inp = sys.stdin.buffer
    out = os.fdopen(out_fd, "wb")
    for name in preload:
        module, _, attr = name.partition(":")
        try:
            fn = getattr(importlib.import_module(module), attr)
            fn()
        except Exception as exc:
            print(f"computer worker: preload {name} failed: {exc!r}", file=sys.stderr)
    ready = pickle.dumps((True, "ready"))
    out.write(_HEADER.pack(len(ready)) + ready)
    out.flush()
    while True:
        head = inp.read(_HEADER.size)
        if len(head) < _HEADER.size:
            return
        (size,) = _HEADER.unpack(head)
        body = inp.read(size)
        if len(body) < size:
            return
        try:
            fn, args = pickle.loads(body)
            reply = (True, fn(*args))
        except Exception as exc:
            reply = (False, f"{type(exc).__name__}: {exc}")
        try:
            data = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:
            data = pickle.dumps((False, f"unpicklable result: {exc!r}"))
        out.write(_HEADER.pack(len(data)) + data)
        out.flush()


if __name__ == "__main__":
    _serve(int(sys.argv[1]) if len(sys.argv) > 1 else 0, sys.argv[2:])
