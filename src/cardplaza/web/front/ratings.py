"""HTTP routes of ratings: leaderboards and player pages (:mod:`cardplaza.web.store.ratings`).

``GET /api/ratings/{game}?page=N`` → one page (0-based) of the game's leaderboard: rated
players with at least ``leaderboard_min_games`` games, best first, each by name, short tag
and public page id — never a player key;
``GET /api/ratings/{game}/players/{id}`` → a player's page: the rated rating with its place,
the "vs computers" rating with the computer level it plays about as well as, the chart's
points and the latest rated games;
``GET /api/ratings/{game}/me`` (``X-Player-Key``) → the page id of this browser's player.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from cardplaza.core.computers import computer_ratings, nearest_level
from cardplaza.core.registry import get_game
from cardplaza.web.errors import WebError
from cardplaza.web.live.ratings import install
from cardplaza.web.live.tables import TableManager
from cardplaza.web.store.ratings import RatingRow, RatingStore

__all__ = ["add_routes"]

NO_STORE = {"Cache-Control": "no-store"}
PLAYER_ID_CHARS = frozenset("0123456789abcdef")


def _game(game: str) -> str:
    try:
        return get_game(game[:40]).name
    except KeyError:
        raise WebError("unknown_game", game=repr(game[:40])) from None


def _rating(row: RatingRow | None, provisional: int) -> dict[str, Any] | None:
    if row is None:
        return None
    return {"rating": row.shown, "games": row.games,
            "provisional": row.games < provisional,
            "mu": round(row.rating.mu, 2), "sigma": round(row.rating.sigma, 2)}


def add_routes(app: FastAPI, manager: TableManager) -> RatingStore:
    """The rating routes on the web app (and the rating of finished games)."""
    install(manager)
    settings = manager.settings
    store = RatingStore(manager.storage, settings.leaderboard_total_seconds)

    def reply(data: dict[str, Any]) -> JSONResponse:
        return JSONResponse(data, headers=NO_STORE)

    @app.get("/api/ratings/{game}")
    async def board(game: str, page: int = 0) -> Response:
        name = _game(game)
        size = settings.leaderboard_page_size
        page = max(0, min(page, 100_000))
        rows, total = await asyncio.to_thread(store.board, name, settings.leaderboard_min_games,
                                              page, size)
        return reply({
            "game": name, "page": page, "size": size, "total": total,
            "pages": max(1, -(-total // size)), "min_games": settings.leaderboard_min_games,
            "provisional_games": settings.rating_provisional_games,
            "rows": [{"place": r.place, "name": r.name, "tag": r.player[:4], "id": r.player,
                      "rating": r.shown, "games": r.games,
                      "provisional": r.games < settings.rating_provisional_games}
                     for r in rows],
        })

    @app.get("/api/ratings/{game}/players/{player}")
    async def player_page(game: str, player: str) -> Response:
        name = _game(game)
        if not 0 < len(player) <= 40 or not set(player) <= PLAYER_ID_CHARS:
            raise WebError("unknown_player")
        shown_name, rated, place, history = await asyncio.to_thread(
            store.player, player, name, settings.leaderboard_min_games,
            settings.rating_history)
        _n, versus, _p, _h = await asyncio.to_thread(
            store.player, player, name, settings.leaderboard_min_games, 0, "computers")
        if rated is None and versus is None and not shown_name:
            raise WebError("unknown_player")
        vs = _rating(versus, settings.rating_provisional_games)
        if vs is not None and versus is not None:
            near = nearest_level(name, versus.rating.mu)
            if near is not None:
                vs["level"], vs["where"] = near
        recent = history[-settings.rating_recent_games:]
        return reply({
            "game": name, "name": shown_name, "tag": player[:4], "id": player,
            "rated": _rating(rated, settings.rating_provisional_games), "place": place,
            "min_games": settings.leaderboard_min_games,
            "versus": vs, "levels": {lv: r.mu for lv, r in computer_ratings(name).items()},
            "chart": [h.shown for h in history],
            "chart_start": history[0].shown - history[0].change if history else None,
            "recent": [{"at": h.at, "rating": h.shown, "change": h.change, "place": h.place,
                        "weight": round(h.weight, 2)} for h in reversed(recent)],
        })

    @app.get("/api/ratings/{game}/me")
    async def me(game: str, request: Request) -> Response:
        name = _game(game)
        key = request.headers.get("x-player-key") or ""
        row = None
        if 0 < len(key) <= 200:
            row = await asyncio.to_thread(manager.storage.player_by_key, key)
        return reply({"game": name, "id": None if row is None else row.id})

    return store
