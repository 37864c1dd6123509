"""The sending side of a connection and the checks every incoming message passes.

:class:`Client` is the sending side: messages wait in a bounded queue drained by the
client's own writer task; a client whose queue fills up or whose send takes longer than
``send_timeout_seconds`` (found within half that again) is dropped, so no table ever waits
on a slow reader. State messages go out as deltas (:mod:`cardplaza.core.delta`).
:func:`parse_message` checks a message's size, nesting and numbers before anything reads
it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import orjson

from cardplaza.core import delta
from cardplaza.web.errors import WebError
from cardplaza.web.settings import Settings

log = logging.getLogger("cardplaza.web")

SendText = Callable[[str], Awaitable[None]]
CloseFn = Callable[[int], Awaitable[None]]

CLOSE_POLICY = 1008
CLOSE_TRY_AGAIN = 1013


class Receiver(Protocol):
    """The receiving side a client belongs to (:class:`.session.Session`)."""

    def table_lost(self, table: Any) -> None: ...

    async def close(self) -> None: ...


def encode(msg: dict[str, Any]) -> str:
    """Compact JSON text of a message, keys in their order, text not escaped.

    orjson makes it several times faster than the standard library's encoder; what orjson
    refuses (a whole number beyond 64 bits) goes through the standard library as before.
    """
    try:
        return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)


class Client:
    """The sending side of one connection: a bounded queue and a writer task."""

    def __init__(self, settings: Settings, send_text: SendText, close: CloseFn,
                 label: str = "") -> None:
        self.settings = settings
        self._send_text = send_text
        self._close = close
        self.label = label
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(settings.send_queue)
        self.last: dict[str, Any] | None = None
        """The last state message sent (whole), which the next one is sent against;
        dropped when the connection ends. (A closed connection's objects refer to each
        other, so they wait for a pass of the garbage collector: without its last
        message, a few hundred objects fewer wait with them, a finished game's whole
        observation.)"""
        self.closed = False
        self.session: Receiver | None = None
        self.sending_since: float | None = None
        """When the send under way began (loop time), ``None`` between sends."""
        loop = asyncio.get_running_loop()
        self.writer = loop.create_task(self._write())
        self._watch: asyncio.TimerHandle | None = None
        self._arm(loop)

    def _arm(self, loop: asyncio.AbstractEventLoop) -> None:
        """The next look at the send under way, half the send timeout from now."""
        self._watch = loop.call_later(self.settings.send_timeout_seconds / 2, self._check,
                                      loop)

    def _check(self, loop: asyncio.AbstractEventLoop) -> None:
        """Drop the client if one send has taken longer than the send timeout. One timer
        a client, looking every half timeout, in place of a timer around every send: a
        stuck send is found between one and one and a half timeouts after it began."""
        if self.closed:
            return
        since = self.sending_since
        if since is not None and loop.time() - since >= self.settings.send_timeout_seconds:
            self.drop(CLOSE_TRY_AGAIN)
            return
        self._arm(loop)

    def send(self, msg: dict[str, Any]) -> None:
        """Queue one message (never waits)."""
        self.send_text(encode(msg))

    def send_text(self, text: str) -> None:
        """Queue one message already encoded (never waits; drops a full client)."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            log.info("a client stopped reading (%d messages waiting); it is dropped",
                     self.queue.qsize())
            self.drop(CLOSE_TRY_AGAIN)

    def send_state(self, msg: dict[str, Any], wires: dict[int, str] | None = None) -> None:
        """Queue a whole state message (numbered: ``n``) as the change since the last one
        sent. ``wires``: the texts already made of this message, by the identity of the
        message each was made against — connections that were sent the same messages get
        the same text, made once."""
        if self.closed:
            return
        prev = self.last
        key = id(prev)
        text = wires.get(key) if wires is not None else None
        if text is None:
            text = encode(delta.encode(prev, msg, msg["n"]))
            if wires is not None:
                wires[key] = text
        self.last = msg
        self.send_text(text)

    def reset_state(self) -> None:
        """The next state message goes whole."""
        self.last = None

    def table_lost(self, table: Any) -> None:
        """This process lost the table the client is at."""
        if self.session is not None:
            self.session.table_lost(table)

    async def _write(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            text = await self.queue.get()
            if text is None:
                return
            self.sending_since = loop.time()
            try:
                await self._send_text(text)
            except Exception:
                self.drop(CLOSE_TRY_AGAIN)
                return
            finally:
                self.sending_since = None

    def drop(self, code: int = CLOSE_POLICY) -> None:
        """Stop sending and close the connection."""
        if self.closed:
            return
        self.closed = True
        self.last = None
        self.writer.cancel()
        if self._watch is not None:
            self._watch.cancel()
        task = asyncio.get_running_loop().create_task(self._closing(code))
        task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)

    async def _closing(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._close(code), 2.0)
        if self.session is not None:
            await self.session.close()

    async def aclose(self) -> None:
        """Flush what is queued (briefly), then stop the writer."""
        self.closed = True
        self.last = None
        if self._watch is not None:
            self._watch.cancel()
        if not self.writer.done():
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)
            await asyncio.wait({self.writer}, timeout=1.0)
            self.writer.cancel()


class TokenBucket:
    """``rate`` tokens a second up to ``burst``; one per message."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.at = time.monotonic()

    def take(self) -> bool:
        """Spend a token if there is one."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


def check_shape(value: Any, max_depth: int, max_int: int) -> str | None:
    """``too_deep`` or ``number_too_large`` if a parsed message breaks a limit, else None."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            if depth > max_depth:
                return "too_deep"
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            if depth > max_depth:
                return "too_deep"
            stack.extend((v, depth + 1) for v in item)
        elif isinstance(item, int) and not isinstance(item, bool):
            if abs(item) > max_int:
                return "number_too_large"
        elif isinstance(item, float) and not abs(item) <= max_int:
            return "number_too_large"
    return None


def raise_shape(value: Any, settings: Settings) -> None:
    """:class:`WebError` if a parsed message is nested too deeply or holds a huge number."""
    problem = check_shape(value, settings.json_max_depth, settings.json_max_int)
    if problem == "too_deep":
        raise WebError("too_deep", limit=settings.json_max_depth)
    if problem is not None:
        raise WebError("number_too_large")


def parse_message(text: str, settings: Settings) -> dict[str, Any]:
    """A client message as a JSON object with a ``type``, within the limits."""
    if len(text) > settings.ws_max_size or len(text.encode("utf-8")) > settings.ws_max_size:
        raise WebError("too_large", limit=settings.ws_max_size)
    try:
        msg = orjson.loads(text)
    except orjson.JSONDecodeError:
        msg = _slow_loads(text, settings)  # what orjson refuses, the standard library may read
    raise_shape(msg, settings)
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise WebError("bad_message")
    return msg


def _slow_loads(text: str, settings: Settings) -> Any:
    """The standard library's reading of a message orjson refused (whole numbers beyond 64
    bits, ``NaN``, nesting deeper than orjson's limit): its own errors are ours."""
    try:
        return json.loads(text)
    except RecursionError:
        raise WebError("too_deep", limit=settings.json_max_depth) from None
    except ValueError:
        raise WebError("bad_json") from None


class LogCap:
    """At most ``per_minute`` log lines of one kind a minute; the lines held back are
    counted and told in one line when the minute is over (a flood of refused messages or
    relay attempts cannot fill the log)."""

    def __init__(self, per_minute: int = 10, max_kinds: int = 1_000) -> None:
        self.per_minute = per_minute
        self.max_kinds = max_kinds
        self._kinds: dict[str, list[float]] = {}  # kind -> [minute start, lines, held back]

    def log(self, kind: str, level: int, fmt: str, *args: Any) -> None:
        """Log ``fmt % args`` unless this kind's lines for the minute are used up."""
        now = time.monotonic()
        entry = self._kinds.get(kind)
        if entry is None or now - entry[0] >= 60.0:
            if entry is not None and entry[2]:
                log.log(level, "%d more log lines like %r were held back in a minute",
                        int(entry[2]), kind)
            if len(self._kinds) >= self.max_kinds:
                self._kinds.clear()
            entry = [now, 0.0, 0.0]
            self._kinds[kind] = entry
        if entry[1] < self.per_minute:
            entry[1] += 1
            log.log(level, fmt, *args)
        else:
            entry[2] += 1

    def reset(self) -> None:
        """Forget every kind's count (a new minute for all of them)."""
        self._kinds.clear()


CAP = LogCap()
"""The server's cap on repeated log lines."""

_last_logged: dict[tuple[str, str], float] = {}


def log_unexpected(kind: str, exc: BaseException) -> None:
    """One line per kind of failure and minute (a traceback only the first time)."""
    key = (kind[:40], type(exc).__name__)
    now = time.monotonic()
    seen = _last_logged.get(key)
    if seen is not None and now - seen < 60:
        return
    _last_logged[key] = now
    if len(_last_logged) > 1000:
        _last_logged.clear()
    if seen is None:
        log.error("unexpected error handling a %r message", kind[:40], exc_info=exc)
    else:
        log.error("unexpected error handling a %r message (%s), again",
                  kind[:40], type(exc).__name__)
