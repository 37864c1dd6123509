"""The FastAPI application: lobby over HTTP, play over a WebSocket, static front end.

HTTP
    ``GET /healthz``; ``GET /api/games`` (options schema, defaults, levels, deck texts);
    ``POST /api/tables`` ``{game, options, level?, seed?, name?, humans?, streak?, again?}`` →
    ``{table, seat, token, tokens}`` (a streak game takes no ``seed``: the server deals it);
    ``GET /api/streak/{name}``; ``GET /api/highscores``;
    ``GET /api/rules/{game}?lang=en|ja`` → ``{html}``.
WebSocket ``/ws`` (JSON messages)
    client → ``{"type": "join", "table", "token"}``, ``{"type": "act", "action": <JSON
    form>, "step"?: n}`` (``table``/``token`` may ride along and must then be the joined
    seat's), ``{"type": "state"}``, ``{"type": "ping"}``.
    server → ``{"type": "state", "obs", "legal": [{"json", "text", "card", "cards"?}],
    "illegal": {card: reason}, "current", "step", "terminal", "returns"?, "winners"?,
    "extra", "players", "options", "streak"?}`` after every change, or ``{"type": "error",
    "code", "message"}`` to the sender only (the table is then unchanged).
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from cardplaza import __version__
from cardplaza.core.registry import games, get_game
from cardplaza.web import streaks
from cardplaza.web.markdown import render
from cardplaza.web.rulepages import language, page_text
from cardplaza.web.schema import game_info
from cardplaza.web.storage import Storage
from cardplaza.web.tables import LiveTable, TableManager, WebError, clean_name

log = logging.getLogger("cardplaza.web")

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
MAX_MESSAGE = 65_536

RENDERERS = {"pinochle3": "pinochle4"}


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": message, "code": code}, status_code=status)


def create_app(db_url: str | None = None, computer_pause: float = 0.6,
               workers: int = 4, streak_seeds: bool = False) -> FastAPI:
    """The web app on a database URL (default: SQLite in the user's data directory).

    ``streak_seeds`` lets requests choose the deal of streak games too (for tests).
    """
    storage = Storage(db_url)
    manager = TableManager(storage, computer_pause=computer_pause, workers=workers,
                           streak_seeds=streak_seeds)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        await manager.close()
        storage.close()

    app = FastAPI(title="Card Plaza", version=__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None)
    app.state.manager = manager
    app.state.storage = storage

    @app.get("/healthz")
    def healthz() -> dict[str, Any]:
        return {"ok": True, "version": __version__, "tables": len(manager.tables)}

    @app.get("/api/games")
    def list_games() -> dict[str, Any]:
        out = []
        for spec in games().values():
            info = game_info(spec)
            module = RENDERERS.get(spec.name, spec.name)
            info["renderer"] = module if (STATIC / "games" / f"{module}.js").exists() else None
            out.append(info)
        return {"games": out}

    @app.post("/api/tables")
    async def create_table(request: Request) -> Response:
        try:
            data = json.loads(await request.body())
        except ValueError:
            return _error(400, "bad_json", "the request body is not valid JSON")
        try:
            return JSONResponse(await manager.create(data))
        except WebError as exc:
            status = 404 if exc.code == "unknown_game" else 400
            return _error(status, exc.code, exc.message)

    @app.get("/api/streak/{name}")
    async def get_streak(name: str) -> Response:
        try:
            player = clean_name(name)
        except WebError as exc:
            return _error(400, exc.code, exc.message)
        row = storage.load_streak(player)
        return JSONResponse(streaks.streak_json(row))

    @app.get("/api/highscores")
    def high_scores() -> dict[str, Any]:
        return {"scores": [{"player": r.player, "best": r.best, "streak": r.streak}
                           for r in storage.high_scores()]}

    @app.get("/api/rules/{game}")
    def rules(game: str, lang: str = "en") -> Response:
        try:
            get_game(game)
        except KeyError:
            return _error(404, "unknown_game", f"unknown game {game!r}")
        lang = language(lang)
        try:
            text = page_text(game, lang)
        except FileNotFoundError:
            return _error(404, "no_rules", f"no rules page for {game}")
        return JSONResponse({"game": game, "lang": lang, "html": render(text, lang)})

    @app.websocket("/ws")
    async def play(ws: WebSocket) -> None:
        await ws.accept()
        joined: tuple[LiveTable, int] | None = None

        async def send(msg: dict[str, Any]) -> None:
            await ws.send_json(msg)

        async def error(code: str, message: str) -> None:
            await ws.send_json({"type": "error", "code": code, "message": message})

        try:
            while True:
                text = await ws.receive_text()
                if len(text) > MAX_MESSAGE:
                    await error("too_large", "message too large")
                    continue
                try:
                    msg = json.loads(text)
                except ValueError:
                    await error("bad_json", "the message is not valid JSON")
                    continue
                if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
                    await error("bad_message", "a message is a JSON object with a 'type'")
                    continue
                kind = msg["type"]
                try:
                    if kind == "ping":
                        await ws.send_json({"type": "pong", "t": msg.get("t")})
                    elif kind == "join":
                        table = await manager.get(msg.get("table"))
                        seat = table.seat_of_token(msg.get("token"))
                        if seat is None:
                            raise WebError("bad_token", "that seat token is not valid "
                                           "for this table")
                        if joined is not None:
                            manager.detach(joined[0], joined[1], send)
                        joined = (table, seat)
                        manager.attach(table, seat, send)
                        await ws.send_json(table.message(seat))
                    elif kind == "act":
                        if "table" in msg or "token" in msg:
                            table = await manager.get(msg.get("table", joined and joined[0].id))
                            seat_or_none = table.seat_of_token(msg.get("token"))
                            if seat_or_none is None or (joined is not None and (
                                    joined[0] is not table or joined[1] != seat_or_none)):
                                raise WebError("bad_token", "that seat token is not yours")
                            seat = seat_or_none
                        elif joined is None:
                            raise WebError("not_joined", "join a table first")
                        else:
                            table, seat = joined
                        if "action" not in msg:
                            raise WebError("bad_message", "an 'act' message needs an 'action'")
                        await manager.act(table, seat, msg["action"], msg.get("step"))
                    elif kind == "state":
                        if joined is None:
                            raise WebError("not_joined", "join a table first")
                        await ws.send_json(joined[0].message(joined[1]))
                    else:
                        raise WebError("bad_message", f"unknown message type {kind!r}")
                except WebError as exc:
                    if joined is not None:
                        log.info("table %s: seat %d refused: %s", joined[0].id, joined[1],
                                 exc.message)
                    await error(exc.code, exc.message)
        except WebSocketDisconnect:
            pass
        finally:
            if joined is not None:
                manager.detach(joined[0], joined[1], send)

    @app.get("/")
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
