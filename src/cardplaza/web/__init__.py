"""Browser play: a FastAPI server with a lobby, WebSocket tables and a static front end."""

from __future__ import annotations

import logging
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
    url = db or default_db_url()
    app = create_app(url, computer_pause, streak_seeds=streak_seeds)
    shown = f"[{host}]" if ":" in host else host
    print(f"Card Plaza on http://{shown}:{port}/  (database: {_safe_url(url)})", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", ws="websockets-sansio")


def _safe_url(url: str) -> str:
    """The URL without a password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
