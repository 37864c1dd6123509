"""Browser play: a FastAPI server with a lobby, WebSocket tables and a static front end.

The package by concern, each layer using only those before it:

- :mod:`.settings` (every limit, named) and :mod:`.errors` (every error code);
- :mod:`.store` — schema, migrations, the action log;
- :mod:`.live` — live tables, sessions, the relay between processes, computer workers;
- :mod:`.learning` — hints, helpers, undo, reviews, records for a seat;
- :mod:`.front` — the FastAPI app (HTTP and the WebSocket endpoint) and ``serve``;
- :mod:`.loadtest` — load benchmarks against a running server;
- ``static/`` — the front end (plain ES modules).

Where to look: a WebSocket message is handled by the function registered for its ``type``
with :func:`.live.session.handler` (``join``/``act``/… in :mod:`.live.session`, ``hint``/
``undo``/… in :mod:`.learning.handlers`); an action is stored by
:meth:`.live.tables.TableManager.act` through :mod:`.store.action_log`; a computer decides
in :func:`.live.computer.decide`, run in a worker process by :mod:`.live.workers`.
"""

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
    """The web app (see :func:`cardplaza.web.front.app.create_app`)."""
    from cardplaza.web.front.app import create_app as _create

    return _create(db_url, computer_pause, workers, streak_seeds, settings)


def serve(*args: Any, **kwargs: Any) -> None:
    """Run the server until interrupted (see :func:`cardplaza.web.front.server.serve`)."""
    from cardplaza.web.front.server import serve as _serve

    _serve(*args, **kwargs)


def bind_port(host: str, port: int) -> socket.socket:
    """A listening socket (see :func:`cardplaza.web.front.server.bind_port`)."""
    from cardplaza.web.front.server import bind_port as _bind

    return _bind(host, port)
