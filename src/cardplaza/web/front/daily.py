"""HTTP routes of the daily deal and challenges (:mod:`cardplaza.web.live.daily`).

The browser says who it is with its player key (``X-Player-Key``). Challenge tokens travel
only in request bodies, never in a URL the server sees (the link's token sits after the
``#``).

``GET /api/daily`` → today's date and, per game, whether the key has played its deal;
``POST /api/daily/{game}`` ``{name?}`` → the key's one attempt at today's deal: a table as
``POST /api/tables`` gives it (``daily_played`` the second time);
``GET /api/daily/{game}/board`` ``?day=YYYY-MM-DD`` → the day's results with the par and
match points (today's after one's own attempt only, ``daily_locked`` before; a past day's
with its seed);
``POST /api/challenges`` ``{table, token}`` → ``{challenge}``: a link token for a finished
game of one person against computers;
``POST /api/challenges/find`` ``{challenge}`` → the game, the challenger, the state;
``POST /api/challenges/play`` ``{challenge, name?}`` → the friend's table;
``POST /api/challenges/compare`` ``{challenge}`` → ``{status: waiting|pending|ready, …}``:
both games side by side with the review's verdicts, for the two players only.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from cardplaza.web.errors import WebError
from cardplaza.web.front.bodies import read_json
from cardplaza.web.live.daily import DailyService, withheld
from cardplaza.web.live.tables import LiveTable, TableManager
from cardplaza.web.store.daily import DailyStore

__all__ = ["add_routes"]

NO_STORE = {"Cache-Control": "no-store"}


def add_routes(app: FastAPI, manager: TableManager) -> DailyService:
    """The routes of this module on the web app; returns the service (``app.state.daily``)."""
    service = DailyService(manager, DailyStore(manager.storage))
    app.state.daily = service

    def secret_until_over(table: LiveTable) -> bool:
        return withheld(table, service.clock())

    manager.withholds.append(secret_until_over)

    def key_of(request: Request) -> str | None:
        key = request.headers.get("x-player-key")
        return key if key and len(key) <= 200 else None

    def address(request: Request) -> str | None:
        return request.client.host if request.client else None

    async def body(request: Request) -> dict[str, Any]:
        data = await read_json(request, manager.settings)
        if not isinstance(data, dict):
            raise WebError("bad_request")
        return data

    @app.get("/api/daily")
    async def daily_overview(request: Request) -> Response:
        return JSONResponse(await service.overview(key_of(request)), headers=NO_STORE)

    @app.post("/api/daily/{game}")
    async def daily_start(game: str, request: Request) -> Response:
        data = await body(request)
        out = await service.start(game, key_of(request) or _text(data.get("key")), address(request),
                                  data.get("name"))
        return JSONResponse(out, headers=NO_STORE)

    @app.get("/api/daily/{game}/board")
    async def daily_board(game: str, request: Request, day: str | None = None) -> Response:
        return JSONResponse(await service.board(game, key_of(request), day), headers=NO_STORE)

    @app.post("/api/challenges")
    async def challenge_make(request: Request) -> Response:
        data = await body(request)
        return JSONResponse(await service.challenge(data.get("table"), data.get("token")),
                            headers=NO_STORE)

    @app.post("/api/challenges/find")
    async def challenge_find(request: Request) -> Response:
        data = await body(request)
        return JSONResponse(await service.challenge_info(data.get("challenge"),
                                                         key_of(request)), headers=NO_STORE)

    @app.post("/api/challenges/play")
    async def challenge_play(request: Request) -> Response:
        data = await body(request)
        out = await service.accept(data.get("challenge"), key_of(request) or _text(data.get("key")),
                                   address(request), data.get("name"))
        return JSONResponse(out, headers=NO_STORE)

    @app.post("/api/challenges/compare")
    async def challenge_compare(request: Request) -> Response:
        data = await body(request)
        return JSONResponse(await service.comparison(data.get("challenge"), key_of(request)),
                            headers=NO_STORE)

    return service


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and 0 < len(value) <= 200 else None
