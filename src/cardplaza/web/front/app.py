"""The FastAPI application: lobby over HTTP, play over a WebSocket, static front end.

HTTP (JSON; errors are ``{"error", "code", "params"?}``, codes in :mod:`.errors`)
    ``GET /healthz``; ``GET /api/games`` (options schema, defaults, levels, deck texts);
    ``POST /api/players`` ``{name?}`` → ``{key, id, name, tag}``: a new secret player key
    (the browser keeps it and sends it as the ``X-Player-Key`` header or as ``key``);
    ``GET /api/me`` (``X-Player-Key``) → ``{id, name, tag, streak, stats}``;
    ``POST /api/tables`` ``{game, options, level?, seed?, name?, humans?, streak?, key?,
    again?}`` → ``{table, seat, token, tokens, player, key?}`` (``key`` only when a new one
    was issued; a streak game takes no ``seed`` and has exactly one human seat; ``again:
    {table, token}`` starts the next game of a finished table with the same seats and the
    game's rematch options);
    ``GET /api/streak`` (``X-Player-Key``) → the key's streak; ``GET /api/highscores``;
    ``GET /api/tables/{id}/record`` (``X-Seat-Token``) → the whole record of a *finished*
    game, seed included, for one of its seats, with every deal's commitment and the log
    digest (``fairness``, :mod:`cardplaza.core.fairness`);
    ``GET /api/rules/{game}?lang=en|ja`` → ``{html}``; ``GET /api/pages/{name}?lang=…`` →
    a page of the site (:mod:`.pages`: ``fairness``); ``GET /api/catalog/{lang}`` → the
    front end's texts in that language (:mod:`cardplaza.texts.catalog`; an ``ETag`` to
    revalidate, ``304`` when unchanged); hints, undo, records, the replay viewer, review and
    statistics: :mod:`.learning`; playing with friends (rooms, invites, room codes):
    :mod:`.rooms`; the daily deal and challenges: :mod:`.daily`.
WebSocket ``/ws`` (JSON text messages; see :mod:`.session` to add types)
    client → ``{"type": "join", "table", "token", "pace"?}``, ``{"type": "act", "action":
    <JSON form>, "step"?: n}`` (``table``/``token`` may ride along and must then be the
    joined seat's), ``{"type": "state"}`` (whole state again), ``{"type": "settings",
    "pace": "slow"|"normal"|"fast"|"instant"}``, ``{"type": "ping", "t"?}``.
    server → ``{"type": "state", "n", "step", "obs", "legal": [{"json", "text", "card",
    "cards"?}], "illegal": {card: reason}, "current", "terminal", "returns"?, "winners"?,
    "extra", "players": [{"name", "kind", "level"}], "options", "pace", "streak"?}`` after
    every change — whole after ``join``/``state``, else as a delta that only carries what
    changed and the new entries of growing lists (:mod:`.delta`; ``net.js`` rebuilds the
    whole message); ``{"type": "settings", "pace"}``; ``{"type": "pong", "t"}``;
    ``{"type": "error", "code", "message", "params"?}`` to the sender only (the table is
    then unchanged).
Limits (:class:`~cardplaza.web.settings.Settings`): frame and body sizes, JSON depth and
number size, messages per second, open tables per address and per player, idle eviction,
per-client send queues. Every response carries security headers (a CSP allowing only this
app's scripts and styles); a WebSocket from another site's page is refused.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson
from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from cardplaza import __version__
from cardplaza.core.fairness import stored_fairness
from cardplaza.core.registry import games, get_game
from cardplaza.texts.catalog import LANGUAGES, browser_catalog
from cardplaza.texts.markdown import render
from cardplaza.texts.rulepages import language, page_text
from cardplaza.web.errors import WebError, error_message, http_body
from cardplaza.web.front import bodies, daily, pages, ratings, records, rooms
from cardplaza.web.front.bodies import BodyTooLarge
from cardplaza.web.learning import handlers as _handlers  # noqa: F401  (registers the WebSocket handlers)
from cardplaza.web.live import streaks
from cardplaza.web.live.client import Client, log_unexpected
from cardplaza.web.live.gameinfo import game_info
from cardplaza.web.live.names import clean_name
from cardplaza.web.live.relay_server import start_listener
from cardplaza.web.live.session import Session
from cardplaza.web.live.tables import TableManager
from cardplaza.web.settings import Settings
from cardplaza.web.store.storage import Storage, StreakRow

log = logging.getLogger("cardplaza.web")

HERE = Path(__file__).resolve().parent.parent
STATIC = HERE / "static"

RENDERERS = {"pinochle3": "pinochle4"}

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def cross_site_refusal(method: str, headers: dict[str, str],
                       allowed: tuple[str, ...]) -> WebError | None:
    """Why a state-changing request (any method but GET, HEAD, OPTIONS) is refused, or
    ``None``: its body must be declared JSON (a form or ``text/plain``, which another site's
    page may send without asking, is ``bad_content_type``), and a browser's request must
    come from this site's own pages (``Origin``, ``Sec-Fetch-Site``: ``cross_site``)."""
    if method in SAFE_METHODS:
        return None
    kind = headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        return WebError("bad_content_type")
    origin = headers.get("origin")
    if origin and not origin_allowed(origin, headers.get("host"), allowed):
        return WebError("cross_site")
    fetch_site = headers.get("sec-fetch-site", "").lower()
    if fetch_site in ("cross-site", "same-site") and not (
            origin and origin_allowed(origin, headers.get("host"), allowed)):
        return WebError("cross_site")
    return None


class Guard:
    """ASGI middleware: security headers on every HTTP response, request bodies capped at
    ``limit`` bytes while they are read (``413`` beyond it), and state-changing requests
    only as JSON from this site's own pages (:func:`cross_site_refusal`)."""

    def __init__(self, app: ASGIApp, limit: int, allowed: tuple[str, ...] = (),
                 admit: Callable[[str | None], bool] | None = None) -> None:
        self.app = app
        self.limit = limit
        self.allowed = allowed
        self.admit = admit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and self.admit is not None:
            # An address over its budget is turned away here, before any routing: a flood
            # of reconnections costs the event loop as little as possible.
            client = scope.get("client")
            if not self.admit(client[0] if client else None):
                await send({"type": "websocket.close", "code": 1008})
                return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_secured(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers", []))
                have = {k.lower() for k, _ in headers}
                headers += [(k, v) for k, v in SECURITY_HEADERS if k not in have]
                message["headers"] = headers
            await send(message)

        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        refusal = cross_site_refusal(scope.get("method", "GET"), headers, self.allowed)
        if refusal is not None:
            await _refuse(send_secured, refusal)
            return
        for key, value in scope.get("headers", []):
            if key == b"content-length":
                try:
                    size = int(value)
                except ValueError:
                    size = self.limit + 1
                if size > self.limit:
                    await _too_large(send_secured, self.limit)
                    return
        seen = 0

        async def receive_capped() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise BodyTooLarge
            return message

        try:
            await self.app(scope, receive_capped, send_secured)
        except BodyTooLarge:
            if not started:
                await _too_large(send_secured, self.limit)
        except Exception as exc:
            log_unexpected(f"{scope.get('method', '')} {scope.get('path', '')}", exc)
            if not started:
                body = json.dumps(http_body("internal")).encode()
                await send_secured({"type": "http.response.start", "status": 500,
                                    "headers": [(b"content-type", b"application/json"),
                                                (b"content-length",
                                                 str(len(body)).encode())]})
                await send_secured({"type": "http.response.body", "body": body})


async def _refuse(send: Send, exc: WebError) -> None:
    body = json.dumps(http_body(exc.code, **exc.params)).encode()
    await send({"type": "http.response.start", "status": exc.status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


async def _too_large(send: Send, limit: int) -> None:
    body = json.dumps(http_body("body_too_large", limit=limit)).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def _error(exc: WebError) -> JSONResponse:
    return JSONResponse(http_body(exc.code, **exc.params), status_code=exc.status)


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """A WebSocket's ``Origin`` is this server's own host, or allowed by the settings.
    Clients that are not browsers send no ``Origin`` and are let in."""
    if not origin:
        return True
    if "*" in allowed or origin in allowed:
        return True
    parts = urlsplit(origin)
    return bool(host) and parts.scheme in ("http", "https") and parts.netloc == host


@functools.lru_cache(maxsize=64)
def _rules_html(game: str, lang: str) -> str:
    """A rules page drawn as HTML (the pages ship with the package: drawn once each)."""
    return render(page_text(game, lang), lang)


def _load_engines() -> None:
    """Import every game's engine and deal one game of each, so the first table does not
    wait for a module to load."""
    for spec in games().values():
        state = spec.new_game(spec.options(), 0)
        state.legal_actions()
        state.observation(0)


def create_app(db_url: str | None = None, computer_pause: float | None = None,
               workers: int | None = None, streak_seeds: bool | None = None,
               settings: Settings | None = None,
               on_ready: Callable[[], None] | None = None) -> FastAPI:
    """The web app on a database URL (default: SQLite in the user's data directory).

    ``settings`` holds every limit; ``computer_pause``, ``workers`` (computer-player
    processes) and ``streak_seeds`` override single settings. ``on_ready`` is called once
    the app has started (tables, relay listener, and with ``ai_prestart`` its computer
    players ready), just before it serves.
    """
    storage = Storage(db_url)
    manager = TableManager(storage, settings, computer_pause=computer_pause, workers=workers,
                           streak_seeds=streak_seeds)
    settings = manager.settings

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:

        manager.cluster_secret = await manager._db(storage.cluster_secret)
        listener, address = await start_listener(manager)
        await manager.start(address)
        if on_ready is not None:
            # Every game's engine is loaded (tables built) before the address is given.
            await asyncio.to_thread(_load_engines)
            on_ready()
        try:
            yield
        finally:
            listener.close()
            await manager.close()
            storage.close()

    app = FastAPI(title="Card Plaza", version=__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None, openapi_url=None)
    app.state.manager = manager
    app.state.storage = storage
    app.state.settings = settings

    async def read_json(request: Request) -> Any:
        # Seeds may be as large as 2^128; every other number is bounded.
        return await bodies.read_json(request, settings, big_seed=True)

    def client_address(request: Request) -> str | None:
        return request.client.host if request.client else None

    def player_key(request: Request) -> str | None:
        key = request.headers.get("x-player-key")
        return key if key else None

    @app.exception_handler(WebError)
    async def web_error(request: Request, exc: WebError) -> Response:
        return _error(exc)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        body = http_body("not_found") if exc.status_code == 404 else http_body("bad_request")
        return JSONResponse(body, status_code=exc.status_code)

    peaks: list[Any] = [-1e9, {}]  # when the processes' peak memory was last read, and it

    @app.get("/healthz")
    async def healthz() -> Response:
        # On the event loop (no hop to a thread: a probe also shows the loop answers); the
        # peak memory of the processes, read from /proc, at most once per
        # health_peak_seconds; the answer encoded straight away.
        now = time.monotonic()
        if now - peaks[0] >= settings.health_peak_seconds:
            peaks[0], peaks[1] = now, {"web": peak_rss_kb([os.getpid()]),
                                       "computers": peak_rss_kb(manager.pool.pids()),
                                       "analysis": peak_rss_kb(manager.analysis.pids())}
        s = manager.pool.stats
        a = manager.analysis.stats
        body = {"ok": True, "version": __version__, "tables": len(manager.tables),
                "computers": {"workers": manager.pool.size, "ready": s.ready,
                              "busy": s.busy, "queued": s.queued, "done": s.done,
                              "timeouts": s.timeouts, "crashes": s.crashes,
                              "fallbacks": manager.fallbacks,
                              "preparing": manager.preparing},
                "analysis": {"workers": manager.analysis.size, "ready": a.ready,
                             "busy": a.busy, "queued": a.queued, "done": a.done,
                             "timeouts": a.timeouts, "waiting": manager.analyses},
                "log": {"appends": manager.action_log.appended,
                        "transactions": manager.action_log.transactions,
                        "append_ms_counts": manager.action_log.latency.counts},
                "peak_kb": peaks[1]}
        return Response(orjson.dumps(body), media_type="application/json")

    @app.get("/api/games")
    def list_games() -> dict[str, Any]:
        out = []
        for spec in games().values():
            info = game_info(spec)
            module = RENDERERS.get(spec.name, spec.name)
            info["renderer"] = module if (STATIC / "games" / f"{module}.js").exists() else None
            out.append(info)
        return {"games": out}

    @app.post("/api/players")
    async def new_player(request: Request) -> Response:
        data = await read_json(request)
        name = clean_name(data.get("name") if isinstance(data, dict) else None)
        manager.spend_creation(client_address(request), None)
        key, row = await manager._db(storage.new_player, name)
        return JSONResponse({"key": key, "id": row.id, "name": row.name, "tag": row.tag})

    @app.get("/api/me")
    async def me(request: Request) -> Response:
        key = player_key(request)
        row = await manager._db(storage.player_by_key, key) if key else None
        if row is None:
            raise WebError("bad_key")
        srow = await manager._db(storage.load_streak, row.id)
        stats = await manager._db(storage.player_stats, row.id)
        return JSONResponse({"id": row.id, "name": row.name, "tag": row.tag,
                             "streak": streaks.streak_json(srow, row.name), "stats": stats})

    @app.post("/api/tables")
    async def create_table(request: Request) -> Response:
        data = await read_json(request)
        return JSONResponse(await manager.create(data, client_address(request),
                                                 player_key(request)))

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str, request: Request) -> Response:
        token = request.headers.get("x-seat-token", "")
        if manager.withholds:
            try:
                table = await manager.finished(table_id[:40])
            except WebError:
                raise WebError("no_record") from None
            if manager.withheld(table):
                raise WebError("daily_withheld")
        found = await manager._db(storage.load_record, table_id[:40], token)
        if found is None:
            raise WebError("no_record")
        found["fairness"] = await asyncio.to_thread(stored_fairness, found)
        return JSONResponse(found, headers={"Cache-Control": "no-store"})

    @app.get("/api/streak")
    async def get_streak(request: Request) -> Response:
        key = player_key(request)
        row = await manager._db(storage.player_by_key, key) if key else None
        if row is None:
            return JSONResponse(streaks.streak_json(StreakRow(player=""), None))
        srow = await manager._db(storage.load_streak, row.id)
        return JSONResponse(streaks.streak_json(srow, row.name))

    @app.get("/api/highscores")
    async def high_scores() -> dict[str, Any]:
        rows = await manager._db(storage.high_scores)
        return {"scores": [{"player": p.name, "tag": p.tag, "best": r.best,
                            "streak": r.streak} for r, p in rows]}

    @app.get("/api/rules/{game}")
    def rules(game: str, lang: str = "en") -> Response:
        try:
            get_game(game)
        except KeyError:
            raise WebError("unknown_game", game=repr(game[:40])) from None
        lang = language(lang)
        try:
            html = _rules_html(game, lang)
        except FileNotFoundError:
            raise WebError("no_rules", game=game) from None
        return JSONResponse({"game": game, "lang": lang, "html": html})

    @app.get("/api/catalog/{lang}")
    def text_catalog(lang: str, request: Request) -> Response:
        if lang not in LANGUAGES:
            raise WebError("not_found")
        body, etag = browser_catalog(lang)
        headers = {"ETag": etag, "Cache-Control": "no-cache"}
        if etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="application/json", headers=headers)

    @app.websocket("/ws")
    async def play(ws: WebSocket) -> None:
        if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"),
                              settings.allowed_origins):
            log.info("a WebSocket from another site (%s) was refused",
                     ws.headers.get("origin", "")[:100])
            await ws.close(code=1008)
            return
        address = ws.client.host if ws.client else None
        await ws.accept()

        async def close(code: int) -> None:
            await ws.close(code)

        client = Client(settings, ws.send_text, close)
        session = Session(manager, client, address=address)
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    session.binary()
                    continue
                if not await session.receive(text):
                    break
        except Exception as exc:
            if type(exc).__name__ not in ("WebSocketDisconnect", "ClientDisconnected"):
                log.info("a WebSocket ended with %s", type(exc).__name__)
        finally:
            await session.close()
            await client.aclose()

    @app.get("/")
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    records.add_routes(app, manager)
    pages.add_routes(app)
    rooms.add_routes(app, manager)
    ratings.add_routes(app, manager)
    daily.add_routes(app, manager)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(Guard, limit=settings.http_max_body, allowed=settings.allowed_origins,
                       admit=manager.admit_connection)
    return app


def peak_rss_kb(pids: list[int]) -> int:
    """Sum of the peak resident memory (``VmHWM``) of some processes, in KiB."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status", encoding="ascii") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        total += int(line.split()[1])
                        break
        except (OSError, ValueError):
            continue
    return total


__all__ = ["create_app", "error_message", "origin_allowed"]
