"""Reaching a table owned by another server process: the relay.

Every server process listens on a relay address of its own (``relay_host``, any free port
unless ``relay_port`` is set) and announces it in its heartbeat row. When a client joins a
table whose lease a live process holds, the process the client reached opens a WebSocket to
the owner's relay (``/relay``, authenticated by a secret every process reads from the
shared database), forwards the client's messages there and the owner's answers back,
unchanged. The owner treats the relayed connection like any client (it never relays it
further). If the owner dies, the relay breaks; the client's process then takes the table
over once the owner's heartbeat is older than ``lease_seconds`` and seats the client again.

So no sticky load balancer is needed: any process on the database can answer any client.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Protocol

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from cardplaza.web.settings import Settings
from cardplaza.web.store.storage import Owner

log = logging.getLogger("cardplaza.web")

HEADER = "X-Cardplaza-Relay"
PATH = "/relay"


class Sink(Protocol):
    """What a relayed client's text is delivered to."""

    def send_text(self, text: str) -> None: ...


class RelayedSession(Protocol):
    """The side of a session a relay link talks to (:class:`.session.Session`)."""

    settings: Settings
    held: list[str]

    @property
    def client(self) -> Sink: ...

    def relay_lost(self, link: RelayLink) -> None: ...


class RelayLink:
    """A client's messages forwarded to the process that owns its table."""

    def __init__(self, session: RelayedSession, owner: Owner, secret: str) -> None:
        self.session = session
        self.owner = owner
        self.secret = secret
        self.ws: ClientConnection | None = None
        self.reader: asyncio.Task[None] | None = None
        self.closing = False

    async def open(self, first: str) -> None:
        """Connect to the owner and send the first message (the join)."""
        settings = self.session.settings
        self.ws = await connect(f"ws://{self.owner.address}{PATH}",
                                additional_headers={HEADER: self.secret},
                                open_timeout=3, max_size=4 * settings.ws_max_size + 2**20,
                                compression=None, proxy=None)
        await self.ws.send(first)
        self.reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for text in self.ws:
                if isinstance(text, str):
                    self.session.client.send_text(text)
        except (ConnectionClosed, OSError):
            pass
        if not self.closing:
            log.info("relay to %s closed; looking for the table again", self.owner.address)
            self.session.relay_lost(self)

    async def forward(self, text: str) -> None:
        """One client message to the owner."""
        try:
            assert self.ws is not None
            await self.ws.send(text)
        except (ConnectionClosed, OSError, AssertionError):
            self.session.held.append(text)
            if not self.closing:
                self.session.relay_lost(self)

    async def close(self) -> None:
        """Stop relaying."""
        self.closing = True
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 2.0)
        if self.reader is not None:
            self.reader.cancel()


__all__ = ["HEADER", "PATH", "RelayLink", "RelayedSession"]
