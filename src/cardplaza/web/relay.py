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
import secrets
import socket
from typing import TYPE_CHECKING

from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from cardplaza.web.storage import Owner

if TYPE_CHECKING:
    from cardplaza.web.session import Session
    from cardplaza.web.tables import TableManager

log = logging.getLogger("cardplaza.web")

HEADER = "X-Cardplaza-Relay"
PATH = "/relay"


class RelayLink:
    """A client's messages forwarded to the process that owns its table."""

    def __init__(self, session: Session, owner: Owner, secret: str) -> None:
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


def _bind(host: str, first_port: int) -> socket.socket:
    ports = [0] if first_port == 0 else list(range(first_port, first_port + 64))
    last: OSError | None = None
    for port in ports:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, port))
            sock.listen(128)
            sock.setblocking(False)
            return sock
        except OSError as exc:
            sock.close()
            last = exc
    raise OSError(f"no free relay port from {first_port}") from last


async def start_listener(manager: TableManager) -> tuple[Server, str]:
    """Start this process's relay listener; returns it and its address (``host:port``)."""
    from cardplaza.web.session import Client, Session

    settings = manager.settings
    secret = manager.cluster_secret

    def check(conn: ServerConnection, request: Request) -> Response | None:
        given = request.headers.get(HEADER, "")
        if request.path != PATH or not secrets.compare_digest(str(given), secret):
            return conn.respond(403, "forbidden\n")
        return None

    async def relayed(conn: ServerConnection) -> None:
        async def send(text: str) -> None:
            await conn.send(text)

        async def close(code: int) -> None:
            await conn.close(code)

        client = Client(settings, send, close, label="relay")
        session = Session(manager, client, trusted=True)
        try:
            async for text in conn:
                if isinstance(text, str):
                    if not await session.receive(text):
                        break
                else:
                    session.binary()
        except ConnectionClosed:
            pass
        finally:
            await session.close()
            await client.aclose()

    sock = _bind(settings.relay_host, settings.relay_port)
    server = await serve(relayed, sock=sock, process_request=check,
                         max_size=settings.ws_max_size, compression=None,
                         ping_interval=20, ping_timeout=20)
    port = sock.getsockname()[1]
    host = settings.advertise or settings.relay_host
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return server, f"{host}:{port}"


__all__ = ["HEADER", "PATH", "RelayLink", "start_listener"]
