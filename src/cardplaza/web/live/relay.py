"""Reaching a table owned by another server process: the relay.

Every server process listens on a relay address of its own (``relay_host``, any free port
unless ``relay_port`` is set) and announces it in its heartbeat row. When a client joins a
table whose lease a live process holds, the process the client reached opens a WebSocket to
the owner's relay (``/relay``), forwards the client's messages there and the owner's answers back,
unchanged. The owner treats the relayed connection like any client (it never relays it
further). If the owner dies, the relay breaks; the client's process then takes the table
over once the owner's heartbeat is older than ``lease_seconds`` and seats the client again.

So no sticky load balancer is needed: any process on the database can answer any client.

A relay connection proves it comes from a process of the cluster without sending the
cluster's secret (which every process reads from the shared database): its header carries a
time, a fresh nonce and an HMAC-SHA256 of both and of the listener's address under the
secret (:func:`relay_proof`). The listener accepts a proof once, within
``relay_auth_seconds`` of its own clock (:class:`ProofChecker`). The relayed messages
themselves are not encrypted: relay ports belong on a private network (or a tunnel).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
import time
from typing import Protocol

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from cardplaza.web.settings import Settings
from cardplaza.web.store.storage import Owner

log = logging.getLogger("cardplaza.web")

HEADER = "X-Cardplaza-Relay"
"""The header of a relay connection's proof: ``time.nonce.mac``."""
PATH = "/relay"


def relay_mac(secret: str, stamp: str, nonce: str, address: str) -> str:
    """HMAC-SHA256 of a relay connection's time, nonce and the listener's address under
    the cluster secret (the secret itself never travels)."""
    text = f"cardplaza-relay/1\n{stamp}\n{nonce}\n{address}"
    return hmac.new(secret.encode(), text.encode(), hashlib.sha256).hexdigest()


def relay_proof(secret: str, address: str, now: float | None = None) -> str:
    """The header value that opens a relay connection to ``address`` now."""
    stamp = str(int(time.time() if now is None else now))
    nonce = secrets.token_hex(16)
    return f"{stamp}.{nonce}.{relay_mac(secret, stamp, nonce, address)}"


class ProofChecker:
    """Checks relay proofs at a listener: the MAC under the secret for this address, a time
    within ``window`` seconds of this clock, a nonce never seen before (while its time is
    within the window)."""

    def __init__(self, secret: str, address: str, window: float) -> None:
        self.secret = secret
        self.address = address
        self.window = window
        self._seen: dict[str, float] = {}

    def check(self, value: str, now: float | None = None) -> bool:
        """Whether ``value`` opens a relay connection (a nonce is spent by a good proof)."""
        now = time.time() if now is None else now
        parts = value.split(".")
        if len(parts) != 3 or not parts[0].isdigit() or len(parts[1]) != 32:
            return False
        stamp, nonce, mac = parts
        if abs(now - int(stamp)) > self.window:
            return False
        want = relay_mac(self.secret, stamp, nonce, self.address)
        if not hmac.compare_digest(want, mac):
            return False
        if len(self._seen) > 10_000:
            self._seen = {n: t for n, t in self._seen.items() if now - t <= self.window}
        if nonce in self._seen:
            return False
        self._seen[nonce] = int(stamp)
        return True


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
        proof = relay_proof(self.secret, self.owner.address)
        self.ws = await connect(f"ws://{self.owner.address}{PATH}",
                                additional_headers={HEADER: proof},
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


__all__ = ["HEADER", "PATH", "ProofChecker", "RelayLink", "RelayedSession", "relay_mac",
           "relay_proof"]
