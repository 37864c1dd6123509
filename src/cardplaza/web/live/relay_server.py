"""This process's relay listener: connections other server processes relay to us.

A process whose client joins a table we own forwards that client's messages here
(:class:`.relay.RelayLink` is the other end). The connection proves it knows the
cluster secret (an HMAC over a time and a nonce, :class:`.relay.ProofChecker`) and is then
treated like any client of ours (it is never relayed further).
"""

from __future__ import annotations

import logging
import socket

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from cardplaza.web.live.client import CAP, Client
from cardplaza.web.live.relay import HEADER, PATH, ProofChecker
from cardplaza.web.live.session import Session
from cardplaza.web.live.tables import TableManager

QUIET = logging.getLogger("cardplaza.web.relay.connections")
"""The relay listener's connection-level log (every connection opened, refused, closed):
warnings only; refusals are told, capped, in the server's log."""
QUIET.setLevel(logging.WARNING)


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
    settings = manager.settings
    sock = _bind(settings.relay_host, settings.relay_port)
    port = sock.getsockname()[1]
    host = settings.advertise or settings.relay_host
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    address = f"{host}:{port}"
    proofs = ProofChecker(manager.cluster_secret, address, settings.relay_auth_seconds)

    def check(conn: ServerConnection, request: Request) -> Response | None:
        given = request.headers.get(HEADER, "")
        if request.path != PATH or not proofs.check(str(given)):
            CAP.log("relay refused", logging.WARNING,
                    "a relay connection without a valid proof of the cluster's secret "
                    "was refused")
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

    server = await serve(relayed, sock=sock, process_request=check,
                         max_size=settings.ws_max_size, compression=None,
                         ping_interval=20, ping_timeout=20, logger=QUIET)
    return server, address


__all__ = ["start_listener"]
