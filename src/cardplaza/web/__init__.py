"""Browser play: a FastAPI server with a lobby, WebSocket tables and a static front end."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import socket

    from fastapi import FastAPI

    from cardplaza.web.settings import Settings

__all__ = ["bind_port", "create_app", "serve"]


def create_app(db_url: str | None = None, computer_pause: float | None = None,
               workers: int | None = None, streak_seeds: bool | None = None,
               settings: Settings | None = None) -> FastAPI:
    """The web app (see :func:`cardplaza.web.app.create_app`)."""
    from cardplaza.web.app import create_app as _create

    return _create(db_url, computer_pause, workers, streak_seeds, settings)


def serve(*args: Any, **kwargs: Any) -> None:
    """Run the server until interrupted (see :func:`cardplaza.web.server.serve`)."""
    from cardplaza.web.server import serve as _serve

    _serve(*args, **kwargs)


def bind_port(host: str, port: int) -> socket.socket:
    """A listening socket (see :func:`cardplaza.web.server.bind_port`)."""
    from cardplaza.web.server import bind_port as _bind

    return _bind(host, port)
