"""Browser play: a FastAPI server with a lobby, WebSocket tables and a static front end."""

from __future__ import annotations

import logging
import socket
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = ["create_app", "serve"]


def create_app(db_url: str | None = None, computer_pause: float = 0.6,
               workers: int = 4, streak_seeds: bool = False) -> FastAPI:
    """The web app (see :func:`cardplaza.web.app.create_app`)."""
    from cardplaza.web.app import create_app as _create

    return _create(db_url, computer_pause, workers, streak_seeds)


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None,
          computer_pause: float = 0.6, streak_seeds: bool = False) -> None:
    """Run the server until interrupted; prints the address and logs table events."""
    import uvicorn

    from cardplaza.web.storage import default_db_url

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("cardplaza.web").setLevel(logging.INFO)
    logging.getLogger("cardplaza.kernels").setLevel(logging.INFO)
    url = db or default_db_url()
    sock = bind_port(host, port)  # before the address is printed: a busy port fails here
    from cardplaza.ai.compiled import warm_up_in_background

    warm_up_in_background()  # compiled search kernels load while the server starts
    app = create_app(url, computer_pause, streak_seeds=streak_seeds)
    shown = f"[{host}]" if ":" in host else host
    print(f"Card Plaza on http://{shown}:{port}/  (database: {_safe_url(url)})", flush=True)
    config = uvicorn.Config(app, log_level="warning", ws="websockets-sansio")
    uvicorn.Server(config).run(sockets=[sock])


def bind_port(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; ``SystemExit`` with a clear reason if busy."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise SystemExit(f"Cannot listen on {host}:{port}: {exc.strerror or exc}. Is another "
                         f"server using the port? Choose another one: make play PORT="
                         f"{port + 1} (or cardplaza serve --port {port + 1}).") from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def _safe_url(url: str) -> str:
    """The URL without a password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
