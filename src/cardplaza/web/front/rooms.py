"""HTTP routes of rooms: playing with friends (:mod:`cardplaza.web.live.rooms`).

The browser says who it is with its player key (``X-Player-Key``). Invite tokens and room
codes travel only in request bodies, never in a URL the server sees (the invite link's
token sits after the ``#``).

``POST /api/rooms`` ``{game, options?, name?, seats?, level?, config?}`` → the room, its
``invite_token`` and ``code`` (given once), the host's ``seat`` and ``token`` (and ``key``
when a new player key was issued);
``POST /api/rooms/find`` ``{secret}`` (an invite token or a room code) → the room as anyone
with the invite sees it (rate-limited per client address);
``POST /api/rooms/join`` ``{secret, seat, name?}`` → the room, the friend's ``seat`` and
``token``;
``GET /api/rooms/{id}`` → the room for one of its people (``table`` once started);
``POST /api/rooms/{id}/seat`` ``{seat, kind: open|computer, level?}``,
``POST /api/rooms/{id}/config`` ``{level?, hints?, standin_seconds?, turn_seconds?}``,
``POST /api/rooms/{id}/invite`` (a new invite and code; the old ones stop working),
``POST /api/rooms/{id}/revoke``, ``POST /api/rooms/{id}/start`` ``{fill?}`` — the host's;
``POST /api/rooms/watch`` ``{watch}`` → the room as a spectator sees it (``table`` once
started; watched over the WebSocket with ``{"type": "join", "table", "watch"}``);
``POST /api/rooms/{id}/again`` ``{fill?}`` (the next game with the same people, by any of
them once the game is over), ``POST /api/rooms/{id}/leave`` (a person's seat opens for the
next game);
``POST /api/rooms/qr`` ``{secret, origin}`` → the invite link as a QR code (SVG), for a
valid invite and this server's own origin only.
"""

from __future__ import annotations

import io
import json
from typing import Any
from urllib.parse import urlsplit

import segno
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from cardplaza.web.errors import WebError
from cardplaza.web.live.client import raise_shape
from cardplaza.web.live.rooms import Rooms
from cardplaza.web.live.tables import TableManager
from cardplaza.web.live.talk import on_talk
from cardplaza.web.live.together import install

__all__ = ["add_routes", "invite_svg"]

NO_STORE = {"Cache-Control": "no-store"}


def invite_svg(link: str) -> bytes:
    """A QR code of an invite link as SVG (dark modules on a white ground)."""
    qr = segno.make(link, error="m")
    out = io.BytesIO()
    qr.save(out, kind="svg", scale=4, border=3, dark="#111", light="#fff", xmldecl=False,
            svgclass="qr", title="QR code of the invite link")
    return out.getvalue()


def add_routes(app: FastAPI, manager: TableManager) -> Rooms:
    """The room routes on the web app (and the table hooks of several people)."""
    rooms = Rooms(manager)
    install(manager)
    assert on_talk is not None  # the table-talk message type is registered on import
    app.state.rooms = rooms

    async def body(request: Request) -> Any:
        try:
            data = json.loads(await request.body() or b"{}")
        except RecursionError:
            raise WebError("too_deep", limit=manager.settings.json_max_depth) from None
        except ValueError:
            raise WebError("bad_json") from None
        raise_shape(data, manager.settings)
        return data

    def key_of(request: Request) -> str | None:
        return request.headers.get("x-player-key") or None

    def address(request: Request) -> str | None:
        return request.client.host if request.client else None

    def reply(data: dict[str, Any]) -> JSONResponse:
        return JSONResponse(data, headers=NO_STORE)

    @app.post("/api/rooms")
    async def create_room(request: Request) -> Response:
        return reply(await rooms.create(await body(request), key_of(request),
                                        address(request)))

    @app.post("/api/rooms/find")
    async def find_room(request: Request) -> Response:
        data = await body(request)
        room = await rooms.find(data.get("secret") if isinstance(data, dict) else None,
                                address(request))
        player = await rooms.player_of(key_of(request))
        return reply(rooms.public_view(room, player.id if player else None))

    @app.post("/api/rooms/watch")
    async def watch_room(request: Request) -> Response:
        data = await body(request)
        return reply(await rooms.watched(data.get("watch") if isinstance(data, dict)
                                         else None))

    @app.post("/api/rooms/join")
    async def join_room(request: Request) -> Response:
        return reply(await rooms.claim(await body(request), key_of(request),
                                       address(request)))

    @app.post("/api/rooms/qr")
    async def room_qr(request: Request) -> Response:
        data = await body(request)
        if not isinstance(data, dict):
            raise WebError("bad_request")
        secret = data.get("secret")
        await rooms.find(secret, address(request))
        origin = data.get("origin")
        parts = urlsplit(origin if isinstance(origin, str) else "")
        host = request.headers.get("host", "")
        if parts.scheme not in ("http", "https") or not host or parts.netloc != host \
                or parts.path not in ("", "/") or parts.query or parts.fragment:
            raise WebError("bad_room", reason="origin must be this server's address")
        link = f"{parts.scheme}://{parts.netloc}/#/join/{secret}"
        return Response(invite_svg(link), media_type="image/svg+xml", headers=NO_STORE)

    @app.get("/api/rooms/{room_id}")
    async def room_view(room_id: str, request: Request) -> Response:
        room, player, _seat = await rooms.member(room_id, key_of(request))
        return reply(rooms.public_view(room, player.id))

    @app.post("/api/rooms/{room_id}/seat")
    async def room_seat(room_id: str, request: Request) -> Response:
        return reply(await rooms.set_seat(room_id, key_of(request), await body(request)))

    @app.post("/api/rooms/{room_id}/config")
    async def room_config(room_id: str, request: Request) -> Response:
        return reply(await rooms.set_config(room_id, key_of(request), await body(request)))

    @app.post("/api/rooms/{room_id}/invite")
    async def room_invite(room_id: str, request: Request) -> Response:
        return reply(await rooms.new_invite(room_id, key_of(request)))

    @app.post("/api/rooms/{room_id}/revoke")
    async def room_revoke(room_id: str, request: Request) -> Response:
        return reply(await rooms.revoke(room_id, key_of(request)))

    @app.post("/api/rooms/{room_id}/start")
    async def room_start(room_id: str, request: Request) -> Response:
        return reply(await rooms.start(room_id, key_of(request), await body(request)))

    @app.post("/api/rooms/{room_id}/again")
    async def room_again(room_id: str, request: Request) -> Response:
        return reply(await rooms.again(room_id, key_of(request), await body(request)))

    @app.post("/api/rooms/{room_id}/leave")
    async def room_leave(room_id: str, request: Request) -> Response:
        return reply(await rooms.leave(room_id, key_of(request)))

    return rooms
