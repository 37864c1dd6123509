"""One client connection: its send queue, its limits and the dispatch of its messages.

:class:`Session` is the receiving side of a connection (its sending side is
:class:`.client.Client`): size, nesting, number and rate limits, then the
handler of the message's ``type`` from :data:`HANDLERS`. More message types are added with
:func:`handler`::

    @handler("hint")
    async def on_hint(session: Session, msg: dict[str, Any]) -> None:
        table, seat = session.seat()          # WebError("not_joined") if none
        ...
        session.send({"type": "hint", ...})

A session whose table is owned by another server process forwards the client's messages
to that process's relay (:mod:`cardplaza.web.live.relay`) and its answers back, unchanged.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from cardplaza.core.protocol import SPECTATOR
from cardplaza.web.errors import WebError, error_message
from cardplaza.web.live.budgets import key_of
from cardplaza.web.live.client import (
    CAP,
    CLOSE_POLICY,
    CLOSE_TRY_AGAIN,
    Client,
    TokenBucket,
    encode,
    log_unexpected,
    parse_message,
)
from cardplaza.web.live.relay import RelayLink
from cardplaza.web.live.tables import LiveTable, TableManager
from cardplaza.web.live.together import watcher_seat
from cardplaza.web.store.storage import Owner

log = logging.getLogger("cardplaza.web")

RATE_LIMITED = encode(error_message("rate_limited"))
"""The answer to a message over a budget, encoded once (a flood gets many)."""

Handler = Callable[["Session", dict[str, Any]], Awaitable[None]]
HANDLERS: dict[str, Handler] = {}
"""Message type → handler. A handler raises :class:`WebError` to refuse a message."""


def handler(kind: str) -> Callable[[Handler], Handler]:
    """Register the handler of a client message type."""
    def register(fn: Handler) -> Handler:
        HANDLERS[kind] = fn
        return fn
    return register


class Session:
    """The receiving side of one connection (a browser's, or one relayed to us)."""

    def __init__(self, manager: TableManager, client: Client, trusted: bool = False,
                 secret: str = "", address: str | None = None) -> None:
        self.manager = manager
        self.client = client
        self.settings = manager.settings
        self.trusted = trusted
        """A relay connection from another process of ours (it never relays further)."""
        self.address_key = key_of(address) if address and not trusted else None
        """The client address's budget key (a relayed connection was counted where the
        client is connected)."""
        self.secret = secret
        self.joined: tuple[LiveTable, int] | None = None
        self._player_key: tuple[str, str] | None = None
        """The owner of the joined table and its budget key (worked out once)."""
        self.join_msg: dict[str, Any] | None = None
        self.relay: RelayLink | None = None
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
        """The table and seat this client joined (``not_joined`` otherwise; ``spectator``
        for someone who only watches: they never act or ask anything of a seat)."""
        table, seat = self.place()
        if seat == SPECTATOR:
            raise WebError("spectator")
        return table, seat

    def place(self) -> tuple[LiveTable, int]:
        """The table and seat this client joined, a spectator's
        (:data:`~cardplaza.core.protocol.SPECTATOR`) included."""
        if self.joined is None:
            raise WebError("not_joined")
        table, seat = self.joined
        if table.gone:
            raise WebError("table_moved")
        return table, seat

    def player_key(self) -> str | None:
        """The budget key of the player whose table this client joined (the key that
        opened it), if any."""
        if self.joined is None or not self.joined[0].row.owner:
            return None
        owner = self.joined[0].row.owner
        if self._player_key is None or self._player_key[0] != owner:
            self._player_key = (owner, key_of(owner))
        return self._player_key[1]

    def _within_budgets(self) -> bool:
        """This connection's own bucket, then its address's and its player's."""
        if not self.bucket.take():
            return False
        return self.manager.budgets.allow("messages", self.address_key, self.player_key())

    # -- receiving -------------------------------------------------------------------------
    async def receive(self, text: str) -> bool:
        """Handle one text message; ``False`` when the connection must close."""
        if self.closed:
            return False
        if not self._within_budgets():
            self.strikes += 1
            self.client.send_text(RATE_LIMITED)
            if self.strikes >= self.settings.rate_strikes:
                CAP.log("too fast", logging.INFO,
                        "a client sent messages too fast; it is disconnected")
                self.client.drop(CLOSE_POLICY)
                return False
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
                CAP.log(f"refused {exc.code}", logging.INFO, "table %s: seat %d refused: %s",
                        self.joined[0].id, self.joined[1], exc.code)
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
        if seat is None and "watch" in msg and "token" not in msg:
            seat = watcher_seat(found, msg.get("watch"), self.manager.cluster_secret,
                                self.settings.max_spectators)
        if seat is None:
            raise WebError("bad_token")
        pace = msg.get("pace")
        if pace is not None and seat != SPECTATOR:
            self.manager.set_pace(found, pace)
        await self._leave()
        self.joined = (found, seat)
        self.join_msg = msg
        self.client.reset_state()
        self.manager.attach(found, seat, self.client)
        self.client.send_state(found.message(seat))

    async def _relay_to(self, owner: Owner, msg: dict[str, Any]) -> None:
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

    def relay_lost(self, link: RelayLink) -> None:
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
    """``{"type": "join", "table", "token", "pace"?}`` → the seat's whole state;
    ``{"type": "join", "table", "watch"}`` (a room's watch token) → the public view."""
    await session.join(msg)


@handler("act")
async def on_act(session: Session, msg: dict[str, Any]) -> None:
    """``{"type": "act", "action", "step"?}`` (``table``/``token`` may ride along and must
    then be the joined seat's)."""
    manager = session.manager
    if session.joined is not None and session.joined[1] == SPECTATOR:
        raise WebError("spectator")
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
    table, seat = session.place()
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
