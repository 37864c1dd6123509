"""HTTP routes for records, replays and statistics.

``GET /api/tables/{id}/download`` (``X-Seat-Token``) → once the game is over, the whole game
record that ``cardplaza replay`` reads; while it runs, only what the seat has seen;
``GET /api/tables/{id}/replay`` → the replay viewer's frames: every hand face up once the
game is over, only the seat's own view while it runs; ``POST /api/replay`` ``{record}`` →
the frames of an uploaded record; ``POST /api/verify`` ``{record}`` → the check of a
finished game's record (:func:`cardplaza.core.fairness.verify`: commitments, every action,
deals, log digest, result), for browsers that cannot hash themselves; ``GET /api/stats``
(``X-Player-Key``) → the player's statistics per game.
"""

from __future__ import annotations

import asyncio

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from cardplaza.core.fairness import verify
from cardplaza.core.history import GameRecord
from cardplaza.core.registry import get_game
from cardplaza.core.results import summarize
from cardplaza.web.errors import WebError
from cardplaza.web.front.bodies import read_json
from cardplaza.web.learning.records import (
    MAX_REPLAY_ACTIONS,
    download,
    frames_delta,
    replay_frames,
)
from cardplaza.web.live.tables import LiveTable, TableManager
from cardplaza.web.live.together import watcher_seat
from cardplaza.web.store.results import browser_results


def add_routes(app: FastAPI, manager: TableManager) -> None:
    """The HTTP routes of this module on the web app."""

    async def seat_table(table_id: str, request: Request) -> tuple[LiveTable, int]:
        table = await manager.finished(table_id[:40])
        seat = table.seat_of_token(request.headers.get("x-seat-token", ""))
        watch = request.headers.get("x-watch-token")
        if seat is None and watch:
            # A spectator (a room's watch link) reads the record once the game is over,
            # as its first seat's record, which then hides nothing; never before.
            watcher_seat(table, watch, manager.cluster_secret, 1 << 30)
            if not table.state.is_terminal:
                raise WebError("spectator_record")
            return table, 0
        if seat is None:
            raise WebError("bad_token")
        if manager.withheld(table):
            raise WebError("daily_withheld")
        return table, seat

    @app.get("/api/tables/{table_id}/download")
    async def download_record(table_id: str, request: Request) -> Response:
        table, seat = await seat_table(table_id, request)
        body = download(table, seat)
        name = f"cardplaza-{table.row.game}-{table.id}.json"
        return JSONResponse(body, headers={"Cache-Control": "no-store",
                                           "Content-Disposition":
                                           f'attachment; filename="{name}"'})

    @app.get("/api/tables/{table_id}/replay")
    async def table_replay(table_id: str, request: Request) -> Response:
        table, seat = await seat_table(table_id, request)
        record = GameRecord.of(table.state)
        mine = None if table.state.is_terminal else seat
        frames = await asyncio.to_thread(replay_frames, record, 2000, mine)
        out = frames_delta(frames)
        out["seat"] = seat
        out["table"] = table.id
        out["names"] = [s.name for s in table.row.seats]
        return JSONResponse(out, headers={"Cache-Control": "no-store"})

    @app.post("/api/replay")
    async def upload_replay(request: Request) -> Response:
        data = await read_json(request, manager.settings)
        record_json = data.get("record") if isinstance(data, dict) else None
        if not isinstance(record_json, dict):
            raise WebError("missing_field", field="record")
        try:
            record = GameRecord.from_json(record_json)
            if len(record.actions) > MAX_REPLAY_ACTIONS:
                raise ValueError("too long")
            get_game(record.game)
            frames = await asyncio.to_thread(replay_frames, record)
        except Exception:
            raise WebError("bad_record") from None
        out = frames_delta(frames)
        names = record_json.get("players")
        if isinstance(names, list):
            out["names"] = [str(p.get("name", "")) if isinstance(p, dict) else "" for p in
                            names][:frames["players"]]
        seat = record_json.get("seat")
        out["seat"] = seat if isinstance(seat, int) and 0 <= seat < frames["players"] else 0
        return JSONResponse(out)

    @app.post("/api/verify")
    async def verify_record(request: Request) -> Response:
        data = await read_json(request, manager.settings)
        record_json = data.get("record") if isinstance(data, dict) else None
        if not isinstance(record_json, dict):
            raise WebError("missing_field", field="record")
        actions = record_json.get("actions")
        if isinstance(actions, list) and len(actions) > MAX_REPLAY_ACTIONS:
            raise WebError("bad_record")
        outcome = await asyncio.to_thread(verify, record_json)
        return JSONResponse({"ok": outcome.ok, "code": outcome.code,
                             "params": outcome.params, "deals": outcome.deals,
                             "steps": outcome.steps})

    @app.get("/api/stats")
    async def player_stats(request: Request) -> Response:
        key = request.headers.get("x-player-key")
        storage = manager.storage
        row = await manager._db(storage.player_by_key, key) if key else None
        if row is None:
            raise WebError("bad_key")
        results = await manager._db(browser_results, storage, row.id)
        return JSONResponse({"player": row.id, "name": row.name,
                             "stats": summarize(results)},
                            headers={"Cache-Control": "no-store"})

