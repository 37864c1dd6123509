"""One client connection: its send queue, its limits and the dispatch of its messages.

:class:`Client` is the sending side: messages wait in a bounded queue drained by the
client's own writer task; a client whose queue fills up or whose send takes longer than
``send_timeout_seconds`` is dropped, so no table ever waits on a slow reader. State
messages go out as deltas (:mod:`cardplaza.web.delta`).

:class:`Session` is the receiving side: size, nesting, number and rate limits, then the
handler of the message's ``type`` from :data:`HANDLERS`. More message types are added with
:func:`handler`::

    @handler("hint")
    async def on_hint(session: Session, msg: dict[str, Any]) -> None:
        table, seat = session.seat()          # WebError("not_joined") if none
        ...
        session.send({"type": "hint", ...})

A session whose table is owned by another server process forwards the client's messages
to that process's relay (:mod:`cardplaza.web.relay`) and its answers back, unchanged.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from cardplaza.web import delta
from cardplaza.web.errors import WebError, error_message
from cardplaza.web.settings import Settings
from cardplaza.web.storage import Owner
from cardplaza.web.tables import LiveTable, TableManager

log = logging.getLogger("cardplaza.web")

SendText = Callable[[str], Awaitable[None]]
CloseFn = Callable[[int], Awaitable[None]]

Handler = Callable[["Session", dict[str, Any]], Awaitable[None]]
HANDLERS: dict[str, Handler] = {}
"""Message type → handler. A handler raises :class:`WebError` to refuse a message."""

CLOSE_POLICY = 1008
CLOSE_TRY_AGAIN = 1013


def handler(kind: str) -> Callable[[Handler], Handler]:
    """Register the handler of a client message type."""
    def register(fn: Handler) -> Handler:
        HANDLERS[kind] = fn
        return fn
    return register


def encode(msg: dict[str, Any]) -> str:
    """Compact JSON text of a message."""
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
        self.n = 0
        self.closed = False
        self.session: Session | None = None
        self.writer = asyncio.get_running_loop().create_task(self._write())

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

    def send_state(self, msg: dict[str, Any]) -> None:
        """Queue a whole state message as the change since the last one sent."""
        if self.closed:
            return
        self.n += 1
        wire = delta.encode(self.last, msg, self.n)
        self.last = {**msg, "n": self.n}
        self.send(wire)

    def reset_state(self) -> None:
        """The next state message goes whole."""
        self.last = None

    def table_lost(self, table: LiveTable) -> None:
        """This process lost the table the client is at."""
        if self.session is not None:
            self.session.table_lost(table)

    async def _write(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                return
            try:
                await asyncio.wait_for(self._send_text(text),
                                       self.settings.send_timeout_seconds)
            except Exception:
                self.drop(CLOSE_TRY_AGAIN)
                return

    def drop(self, code: int = CLOSE_POLICY) -> None:
        """Stop sending and close the connection."""
        if self.closed:
            return
        self.closed = True
        self.writer.cancel()
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
        msg = json.loads(text)
    except RecursionError:
        raise WebError("too_deep", limit=settings.json_max_depth) from None
    except ValueError:
        raise WebError("bad_json") from None
    raise_shape(msg, settings)
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise WebError("bad_message")
    return msg


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


class Session:
    """The receiving side of one connection (a browser's, or one relayed to us)."""

    def __init__(self, manager: TableManager, client: Client, trusted: bool = False,
                 secret: str = "") -> None:
        self.manager = manager
        self.client = client
        self.settings = manager.settings
        self.trusted = trusted
        """A relay connection from another process of ours (it never relays further)."""
        self.secret = secret
        self.joined: tuple[LiveTable, int] | None = None
        self.join_msg: dict[str, Any] | None = None
        self.relay: Any = None
        self.bucket = TokenBucket(self.settings.rate_per_second, self.settings.rate_burst)
        self.strikes = 0
        self.recovering: asyncio.Task[None] | None = None
        self.held: list[str] = []
        self.closed = False
        client.session = self

    # -- helpers for handlers --------------------------------------------------------------
    def send(self, msg: dict[str, Any]) -> None:
        """Queue a message to this client."""
        self.client.send(msg)

    def seat(self) -> tuple[LiveTable, int]:
        """The table and seat this client joined (``not_joined`` otherwise)."""
        if self.joined is None:
            raise WebError("not_joined")
        table, seat = self.joined
        if table.gone:
            raise WebError("table_moved")
        return table, seat

    # -- receiving -------------------------------------------------------------------------
    async def receive(self, text: str) -> bool:
        """Handle one text message; ``False`` when the connection must close."""
        if self.closed:
            return False
        if not self.bucket.take():
            self.strikes += 1
            if self.strikes >= self.settings.rate_strikes:
                log.info("a client sent messages too fast; it is disconnected")
                self.client.send(error_message("rate_limited"))
                self.client.drop(CLOSE_POLICY)
                return False
            self.client.send(error_message("rate_limited"))
            return True
        if self.recovering is not None and not self.recovering.done():
            if len(self.held) < self.settings.send_queue:
                self.held.append(text)
            else:
                self.client.send(error_message("table_moved"))
            return True
        await self._dispatch(text)
        return not self.closed

    def binary(self) -> None:
        """A binary frame arrived: answered with an error, nothing else happens."""
        if not self.bucket.take():
            self.strikes += 1
        self.client.send(error_message("binary_frame"))

    async def _dispatch(self, text: str) -> None:
        kind = "?"
        try:
            msg = parse_message(text, self.settings)
            kind = msg["type"]
            if self.relay is not None and kind != "ping":
                if kind == "join" and self.join_msg is not None and \
                        msg.get("table") != self.join_msg.get("table"):
                    await self._leave()
                else:
                    if kind == "join":
                        self.join_msg = msg
                    await self.relay.forward(text)
                    return
            fn = HANDLERS.get(kind)
            if fn is None:
                raise WebError("unknown_type", type=repr(kind[:40]))
            await fn(self, msg)
        except WebError as exc:
            if self.joined is not None and exc.code not in ("stale",):
                log.info("table %s: seat %d refused: %s", self.joined[0].id, self.joined[1],
                         exc.code)
            self.client.send(exc.to_message())
        except Exception as exc:
            log_unexpected(kind, exc)
            self.client.send(error_message("internal"))

    # -- joining, leaving, relaying --------------------------------------------------------
    async def join(self, msg: dict[str, Any]) -> None:
        """Seat this client at a table (here, or through the process that owns it)."""
        until = time.monotonic() + 2 * self.settings.lease_seconds + 3
        while True:
            found = await self.manager.locate(msg.get("table"))
            if not isinstance(found, Owner):
                break
            if self.trusted:
                raise WebError("table_moved")
            try:
                await self._relay_to(found, msg)
                return
            except Exception as exc:
                # The owner may have died: its lease runs out, then the table is ours.
                if time.monotonic() > until:
                    log.warning("the server owning table %s cannot be reached (%s)",
                                msg.get("table"), type(exc).__name__)
                    raise WebError("table_moved") from None
                await asyncio.sleep(0.3)
        seat = found.seat_of_token(msg.get("token"))
        if seat is None:
            raise WebError("bad_token")
        pace = msg.get("pace")
        if pace is not None:
            self.manager.set_pace(found, pace)
        await self._leave()
        self.joined = (found, seat)
        self.join_msg = msg
        self.client.reset_state()
        self.manager.attach(found, seat, self.client)
        self.client.send_state(found.message(seat))

    async def _relay_to(self, owner: Owner, msg: dict[str, Any]) -> None:
        from cardplaza.web.relay import RelayLink

        await self._leave()
        link = RelayLink(self, owner, self.secret or self.manager.cluster_secret)
        await link.open(encode(msg))
        self.relay = link
        self.join_msg = msg

    async def _leave(self) -> None:
        if self.joined is not None:
            table, seat = self.joined
            self.manager.detach(table, seat, self.client)
            self.joined = None
        if self.relay is not None:
            link, self.relay = self.relay, None
            await link.close()

    def table_lost(self, table: LiveTable) -> None:
        """The table went to another process: find it again and re-join there."""
        if self.joined is not None and self.joined[0] is table:
            self.joined = None
            self._recover()

    def relay_lost(self, link: Any) -> None:
        """The owner's relay connection broke (it may have died): find the table again."""
        if self.relay is link:
            self.relay = None
            self._recover()

    def _recover(self) -> None:
        if self.closed or self.join_msg is None:
            return
        if self.recovering is not None and not self.recovering.done():
            return
        self.recovering = asyncio.get_running_loop().create_task(self._recovery())

    async def _recovery(self) -> None:
        msg = self.join_msg
        assert msg is not None
        until = time.monotonic() + 3 * self.settings.lease_seconds + 10
        while not self.closed:
            try:
                await self.join(msg)
                break
            except WebError as exc:
                if exc.code != "table_moved" or time.monotonic() > until:
                    self.client.send(exc.to_message())
                    break
            except Exception as exc:
                if time.monotonic() > until:
                    log.warning("a client's table could not be found again (%s)",
                                type(exc).__name__)
                    self.client.send(error_message("table_moved"))
                    self.client.drop(CLOSE_TRY_AGAIN)
                    return
            await asyncio.sleep(0.3)
        held, self.held = self.held, []
        for text in held:
            await self._dispatch(text)

    async def close(self) -> None:
        """The connection ended: leave the table, close any relay."""
        if self.closed:
            return
        self.closed = True
        if self.recovering is not None:
            self.recovering.cancel()
        await self._leave()


# -- the message types ---------------------------------------------------------------------
@handler("ping")
async def on_ping(session: Session, msg: dict[str, Any]) -> None:
    """``{"type": "ping", "t"?}`` → ``{"type": "pong", "t"}``."""
    t = msg.get("t")
    session.send({"type": "pong", "t": t if isinstance(t, (int, float, str)) else None})


@handler("join")
async def on_join(session: Session, msg: dict[str, Any]) -> None:
    """``{"type": "join", "table", "token", "pace"?}`` → the seat's whole state."""
    await session.join(msg)


@handler("act")
async def on_act(session: Session, msg: dict[str, Any]) -> None:
    """``{"type": "act", "action", "step"?}`` (``table``/``token`` may ride along and must
    then be the joined seat's)."""
    manager = session.manager
    if "table" in msg or "token" in msg:
        table_id = msg.get("table", session.joined[0].id if session.joined else None)
        found = await manager.locate(table_id)
        if isinstance(found, Owner):
            raise WebError("not_joined")
        seat_or_none = found.seat_of_token(msg.get("token"))
        if seat_or_none is None:
            raise WebError("bad_token")
        if session.joined is not None and (session.joined[0] is not found
                                           or session.joined[1] != seat_or_none):
            raise WebError("not_your_seat")
        table, seat = found, seat_or_none
    else:
        table, seat = session.seat()
    if "action" not in msg:
        raise WebError("missing_field", field="action")
    await manager.act(table, seat, msg["action"], msg.get("step"))


@handler("state")
async def on_state(session: Session, msg: dict[str, Any]) -> None:
    """``{"type": "state"}`` → the seat's whole state again."""
    table, seat = session.seat()
    session.client.reset_state()
    session.client.send_state(table.message(seat))


@handler("settings")
async def on_settings(session: Session, msg: dict[str, Any]) -> None:
    """``{"type": "settings", "pace"}`` → ``{"type": "settings", "pace"}``; every seat then
    gets the new pace in its state."""
    table, _seat = session.seat()
    if "pace" not in msg:
        raise WebError("missing_field", field="pace")
    pace = session.manager.set_pace(table, msg["pace"])
    session.send({"type": "settings", "pace": pace})
