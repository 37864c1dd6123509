"""Computer work in worker processes, off the event loop.

:class:`WorkerPool` keeps a fixed number of worker processes (``python -m
cardplaza.web.live.workers``) and runs picklable module-level functions in them:
``await pool.run(fn, *args, deadline=seconds)``. The event loop drives every process
itself, one task at a time over its stdin/stdout (length-prefixed pickles): a task is
written to the pipe when a process is free, and the reply read when the pipe is readable.
No thread stands between the loop and a worker (a hop through a thread and back cost the
loop several times the work of sending the task, in handing the interpreter lock to and
fro); only a new process's first word, that it is ready (its preloads may compile search
kernels for minutes), is waited for by a thread of its own.

* A task not finished by its ``deadline`` (counted from the call, queueing included) raises
  :class:`WorkerTimeout` to the caller; if it has not started it is dropped, otherwise its
  result is thrown away when it comes.
* A worker busy with one task longer than ``kill_seconds`` is killed and replaced.
* A worker that dies (crash, kill) fails only the task it was running
  (:class:`WorkerFailed`); a fresh process takes its place and the other workers go on.
* An exception inside the function is :class:`WorkerFailed` too (the worker lives on).

A pool serves one event loop at a time (the loop of its latest :meth:`WorkerPool.run`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import os
import pickle
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
READ_CHUNK = 1 << 16
"""Bytes read from a worker's pipe at a time."""


class WorkerTimeout(Exception):
    """The task did not finish by its deadline."""


class WorkerFailed(Exception):
    """The task raised, or its worker process died while running it."""


@dataclass
class _Task:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]
    expires: float | None
    abandoned: bool = False


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


def _reap(proc: subprocess.Popen[bytes]) -> None:
    """Kill a worker process and collect it, closing its pipes (off the loop: the wait)."""
    with contextlib.suppress(OSError):
        proc.kill()
    with contextlib.suppress(Exception):
        proc.wait(5)
    for stream in (proc.stdin, proc.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()


class _Slot:
    """One worker process, driven by the pool's event loop."""

    def __init__(self, pool: WorkerPool, index: int) -> None:
        self.pool = pool
        self.index = index
        self.proc: subprocess.Popen[bytes] | None = None
        self.ready = False
        """The process has said it is ready (its preloads are done)."""
        self.task: _Task | None = None
        """The task the process is running."""
        self.loop: asyncio.AbstractEventLoop | None = None
        """The loop watching the process's pipes (once ready)."""
        self._in = self._out = -1
        self._buffer = bytearray()
        self._unsent = memoryview(b"")
        """The part of a task the pipe has not taken yet (written when it is writable)."""
        self._kill_timer: asyncio.TimerHandle | None = None

    # -- process ---------------------------------------------------------------------------
    def spawn(self) -> None:
        """Start the process; a thread of its own waits for its word that it is ready.
        Call with the pool's lock held."""
        self.ready = False
        # The worker sees the modules this process sees (functions are sent by name).
        paths = [p for p in sys.path if p and os.path.isdir(p)]
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths))
        proc = self.proc = subprocess.Popen(
            [sys.executable, "-m", "cardplaza.web.live.workers", str(self.pool.nice),
             *self.pool.preload],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None, env=env,
            start_new_session=True)
        self.pool.stats.started += 1
        threading.Thread(target=self._await_ready, args=(proc,), daemon=True,
                         name=f"cardplaza-ai-{self.index}-start").start()

    def _await_ready(self, proc: subprocess.Popen[bytes]) -> None:
        """The start thread: the worker's ready frame, then the loop takes over."""
        assert proc.stdout is not None
        try:
            _read_frame(proc.stdout, time.monotonic() + READY_SECONDS)
            ok = True
        except (TimeoutError, EOFError, OSError):
            ok = False
        pool = self.pool
        with pool.lock:
            if proc is not self.proc:  # replaced or closed meanwhile
                return
            if ok:
                self.ready = True
                pool.stats.ready += 1
            loop = pool.loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # a closed loop: the next run() sees it
                loop.call_soon_threadsafe(pool.settle, self, proc, ok)
                return
        if not ok:
            log.error("computer worker %d did not start", self.index)
            with pool.lock:
                if proc is self.proc:
                    self.proc = None
            _reap(proc)

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """On ``loop``: watch the ready process's replies there."""
        proc = self.proc
        if proc is None or not self.ready or self.loop is loop:
            return
        assert proc.stdin is not None and proc.stdout is not None
        self._in, self._out = proc.stdin.fileno(), proc.stdout.fileno()
        os.set_blocking(self._in, False)
        os.set_blocking(self._out, False)
        self._buffer.clear()
        self._unsent = memoryview(b"")
        self.loop = loop
        loop.add_reader(self._out, self._readable)

    def discard(self) -> asyncio.Future[None] | None:
        """On the loop: stop watching the process and kill it (its reaping runs in a
        thread; the future of that, or ``None`` when there was no process)."""
        if self._kill_timer is not None:
            self._kill_timer.cancel()
            self._kill_timer = None
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.remove_reader(self._out)
            if self._unsent:
                loop.remove_writer(self._in)
        self.loop = None
        self._unsent = memoryview(b"")
        self.ready = False
        proc, self.proc = self.proc, None
        if proc is None:
            return None
        running = asyncio.get_running_loop()
        return running.run_in_executor(None, _reap, proc)

    # -- one task --------------------------------------------------------------------------
    def send(self, task: _Task) -> None:
        """On the loop: hand ``task`` to the idle, ready process."""
        pool = self.pool
        try:
            payload = pickle.dumps((task.fn, task.args), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:
            pool.stats.failed += 1
            _set_error(task.future, WorkerFailed(f"cannot send the task: {exc!r}"))
            return
        self.task = task
        pool.stats.busy += 1
        assert self.loop is not None
        self._kill_timer = self.loop.call_later(pool.kill_seconds, self._overran, task)
        self._write(memoryview(_HEADER.pack(len(payload)) + payload))

    def _write(self, data: memoryview) -> None:
        try:
            sent = os.write(self._in, data)
        except BlockingIOError:
            sent = 0
        except OSError:
            self._died("could not be reached")
            return
        rest = data[sent:]
        if rest and not self._unsent:
            assert self.loop is not None
            self.loop.add_writer(self._in, self._writable)
        elif not rest and self._unsent:
            assert self.loop is not None
            self.loop.remove_writer(self._in)
        self._unsent = rest

    def _writable(self) -> None:
        self._write(self._unsent)

    def _readable(self) -> None:
        try:
            chunk = os.read(self._out, READ_CHUNK)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self._died("stopped")
            return
        buffer = self._buffer
        buffer += chunk
        while len(buffer) >= _HEADER.size:
            (size,) = _HEADER.unpack_from(buffer)
            end = _HEADER.size + size
            if len(buffer) < end:
                return
            frame = bytes(buffer[_HEADER.size:end])
            del buffer[:end]
            self._reply(frame)
            if self.loop is None:  # the reply ended the process
                return

    def _reply(self, frame: bytes) -> None:
        pool = self.pool
        task = self._finish()
        if task is None:
            log.error("computer worker %d answered a task it was not given", self.index)
            self._died("answered out of turn")
            return
        try:
            ok, value = pickle.loads(frame)
        except Exception:
            self._died("sent an unreadable reply", task)
            return
        if ok:
            pool.stats.done += 1
            _set_result(task.future, value)
        else:
            pool.stats.failed += 1
            _set_error(task.future, WorkerFailed(str(value)))
        pool.dispatch()

    def _finish(self) -> _Task | None:
        """The running task, no longer running."""
        task, self.task = self.task, None
        if task is not None:
            self.pool.stats.busy -= 1
        if self._kill_timer is not None:
            self._kill_timer.cancel()
            self._kill_timer = None
        return task

    def _overran(self, task: _Task) -> None:
        if self.task is not task:
            return
        pool = self.pool
        self._finish()
        pool.stats.killed += 1
        log.warning("computer worker %d: a task ran over %.0f s; the worker is replaced",
                    self.index, pool.kill_seconds)
        self.discard()
        _set_error(task.future, WorkerTimeout("the worker was replaced"))
        pool.dispatch()

    def _died(self, how: str, task: _Task | None = None) -> None:
        """On the loop: the process stopped or misbehaved; its task (if any) fails."""
        pool = self.pool
        task = task or self._finish()
        code = self.proc.poll() if self.proc is not None else None
        self.discard()
        if task is None:  # an idle worker went away: the next task starts another
            log.warning("computer worker %d %s while idle (exit %s)", self.index, how, code)
        elif pool.closed:
            _set_error(task.future, WorkerFailed("the pool is closed"))
        else:
            pool.stats.crashes += 1
            log.error("computer worker %d %s (exit %s); a new one takes its place",
                      self.index, how, code)
            _set_error(task.future, WorkerFailed(f"the worker {how}"))
        pool.dispatch()


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
        self.waiting: collections.deque[_Task] = collections.deque()
        """Tasks no worker has taken yet, oldest first."""
        self.stats = PoolStats()
        self.slots: list[_Slot] = []
        self.lock = threading.Lock()
        """Guards the processes' start (a thread may start them, and each start thread
        reports to the loop)."""
        self.loop: asyncio.AbstractEventLoop | None = None
        self.closed = False

    def start(self, processes: bool = False) -> None:
        """Make the slots (and, with ``processes``, start every process now). Any thread."""
        with self.lock:
            if self.closed:
                return
            if not self.slots:
                self.slots = [_Slot(self, i) for i in range(self.size)]
            if processes:
                for slot in self.slots:
                    if slot.proc is None:
                        slot.spawn()

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
        loop = asyncio.get_running_loop()
        if self.loop is not loop:
            self._bind(loop)
        fut: asyncio.Future[Any] = loop.create_future()
        expires = None if deadline is None else time.monotonic() + deadline
        task = _Task(fn, args, fut, expires)
        self.waiting.append(task)
        self.dispatch()
        # One timer on the future itself (``wait_for`` with ``shield`` costs two more
        # futures and their callbacks per task); the loop only ever sets a future that is
        # not done yet.
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

    def _bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Serve ``loop`` from now on: it watches every ready process."""
        self.start()
        with self.lock:
            self.loop = loop
            ready = [slot for slot in self.slots if slot.ready]
        for slot in ready:
            if slot.task is not None:  # a former loop's task, its answer owed to nobody
                slot._finish()
                slot.discard()
                continue
            slot.loop = None  # a former loop's watch ended with it
            slot.attach(loop)

    def settle(self, slot: _Slot, proc: subprocess.Popen[bytes], ok: bool) -> None:
        """On the loop: a start thread's news of ``proc``."""
        if proc is not slot.proc or self.loop is None:
            return
        if ok:
            slot.attach(self.loop)
        else:
            log.error("computer worker %d did not start", slot.index)
            slot.discard()
            if self.waiting:  # a worker that cannot start fails a task, not every one
                self.stats.crashes += 1
                _set_error(self.waiting.popleft().future,
                           WorkerFailed("the worker could not be reached"))
        self.dispatch()

    def dispatch(self) -> None:
        """On the loop: waiting tasks to idle workers; processes started where needed."""
        waiting = self.waiting
        if not waiting or self.loop is None:
            self.stats.queued = len(waiting)
            return
        now = time.monotonic()
        for slot in self.slots:
            # A task that cannot be sent (unpicklable) leaves its worker free for the next.
            while waiting and slot.task is None and slot.loop is self.loop:
                task = waiting.popleft()
                if task.abandoned or task.future.done() or (
                        task.expires is not None and now >= task.expires):
                    self.stats.dropped += 1
                    _set_error(task.future, WorkerTimeout("expired in the queue"))
                    continue
                slot.send(task)
        if waiting and not self.closed:
            with self.lock:
                for slot in self.slots:
                    if slot.proc is None:
                        slot.spawn()
        self.stats.queued = len(waiting)

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
        """Fail what waits or runs, and stop the processes."""
        with self.lock:
            self.closed = True
            slots = list(self.slots)
        while self.waiting:
            _set_error(self.waiting.popleft().future, WorkerFailed("the pool is closed"))
        reaping = []
        for slot in slots:
            task = slot._finish()
            if task is not None:
                _set_error(task.future, WorkerFailed("the pool is closed"))
            with self.lock:
                done = slot.discard()
            if done is not None:
                reaping.append(done)
        await asyncio.gather(*reaping)


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
