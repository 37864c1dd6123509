"""The terminal's network client for rooms: take a seat over HTTP as the browser does, then
follow the table over the WebSocket protocol.

:func:`read_invite` reads what a friend was given (an invite link ``…/#/join/<token>`` or a
room code); :func:`claim_seat` finds the room, takes an open seat with a name (a player key
is issued on the way) and waits until the host starts the game; :class:`TableLink` keeps
the table's WebSocket in a thread of its own and hands every message, state messages
rebuilt whole from their deltas, to the play loop through a queue. A lost connection is
opened again and the seat joined again with its token.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx

from cardplaza.core.delta import rebuild

__all__ = ["JoinError", "Seated", "TableLink", "claim_seat", "read_invite", "rebuild"]

DEFAULT_URL = "http://127.0.0.1:8000"


class JoinError(Exception):
    """The seat could not be taken (``code``: the server's error code, or ``network``)."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(detail or code)
        self.code = code
        self.detail = detail


@dataclass
class Seated:
    """A seat taken in a room whose game has started."""

    base: str
    room: str
    seat: int
    token: str
    key: str
    table: str
    game: str


def read_invite(text: str, url: str | None) -> tuple[str, str]:
    """``(server address, secret)`` of an invite link or a room code. A link names its
    server; a code is looked up on ``url`` (default: a server on this machine)."""
    text = text.strip()
    parts = urlsplit(text)
    if parts.scheme in ("http", "https") and parts.netloc:
        secret = parts.fragment.rsplit("/", 1)[-1] if "join/" in parts.fragment else ""
        if not secret:
            raise JoinError("bad_invite", text)
        return f"{parts.scheme}://{parts.netloc}", secret
    return (url or DEFAULT_URL).rstrip("/"), text


def _reply(r: httpx.Response) -> dict[str, Any]:
    try:
        data = r.json()
    except ValueError:
        raise JoinError("network", f"HTTP {r.status_code}") from None
    if r.status_code != 200 or not isinstance(data, dict):
        code = data.get("code", "network") if isinstance(data, dict) else "network"
        raise JoinError(str(code), str(data.get("message", "")) if isinstance(data, dict)
                        else "")
    return data


def claim_seat(base: str, secret: str, name: str, seat: int | None = None,
               wait_seconds: float = 3600.0, on_wait: Any = None,
               client: httpx.Client | None = None) -> Seated:
    """Take a seat of the room of ``secret`` (``seat``, else the first open one) and wait
    until its game starts. ``on_wait(view)`` is called once while waiting for the host."""
    own = client is None
    http = client or httpx.Client(timeout=20.0)
    try:
        try:
            view = _reply(http.post(f"{base}/api/rooms/find", json={"secret": secret}))
            if seat is None:
                free = [s["seat"] for s in view["seats"] if s["kind"] == "open"]
                mine = [s["seat"] for s in view["seats"] if s.get("you")]
                if not free and not mine:
                    raise JoinError("seat_taken")
                seat = (mine or free)[0]
            body = {"secret": secret, "seat": seat, "name": name}
            got = _reply(http.post(f"{base}/api/rooms/join", json=body))
            key = str(got.get("key") or "")
            headers = {"X-Player-Key": key}
            until = time.monotonic() + wait_seconds
            told = False
            room = got
            while "table" not in room:
                if room.get("status") == "closed":
                    raise JoinError("room_closed")
                if not told and on_wait is not None:
                    on_wait(room)
                    told = True
                if time.monotonic() > until:
                    raise JoinError("not_started")
                time.sleep(0.5)
                room = _reply(http.get(f"{base}/api/rooms/{got['room']}", headers=headers))
        except httpx.HTTPError as exc:
            raise JoinError("network", str(exc)) from None
        return Seated(base=base, room=str(got["room"]), seat=int(got["seat"]),
                      token=str(got["token"]), key=key, table=str(room["table"]),
                      game=str(got["game"]))
    finally:
        if own:
            http.close()


class TableLink:
    """The table's WebSocket, in a thread of its own.

    :meth:`get` returns the next message (``None`` when none came in ``timeout``); a
    ``{"type": "closed"}`` message says the connection is gone for good. :meth:`send`
    queues a message from any thread.
    """

    def __init__(self, seated: Seated, retries: int = 30) -> None:
        self.seated = seated
        self.retries = retries
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.state: dict[str, Any] | None = None
        self.loop = asyncio.new_event_loop()
        self.outbox: asyncio.Queue[str] | None = None
        self.ready = threading.Event()
        self.stopping = False
        self.thread = threading.Thread(target=self._thread, name="cardplaza-table",
                                       daemon=True)
        self.thread.start()
        self.ready.wait(10)

    @property
    def url(self) -> str:
        """The WebSocket address of the server."""
        base = self.seated.base
        return ("wss://" + base[8:] if base.startswith("https://")
                else "ws://" + base.removeprefix("http://")) + "/ws"

    def get(self, timeout: float | None = None) -> dict[str, Any] | None:
        """The next message, or ``None`` after ``timeout`` seconds."""
        try:
            return self.inbox.get(timeout=timeout)
        except queue.Empty:
            return None

    def pending(self) -> bool:
        """Whether a message waits to be read."""
        return not self.inbox.empty()

    def send(self, msg: dict[str, Any]) -> None:
        """Send a message (from any thread)."""
        text = json.dumps(msg)
        outbox = self.outbox
        if outbox is not None and not self.stopping:
            self.loop.call_soon_threadsafe(outbox.put_nowait, text)

    def close(self) -> None:
        """Close the connection and stop the thread."""
        self.stopping = True
        outbox = self.outbox
        if outbox is not None and self.loop.is_running():
            with contextlib.suppress(RuntimeError):
                self.loop.call_soon_threadsafe(outbox.put_nowait, "")
        self.thread.join(5)

    def _thread(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self._main())
        finally:
            self.loop.close()

    async def _main(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        self.outbox = asyncio.Queue()
        self.ready.set()
        failures = 0
        join = {"type": "join", "table": self.seated.table, "token": self.seated.token}
        while not self.stopping:
            try:
                async with connect(self.url, open_timeout=10, max_size=2**22,
                                   proxy=None) as ws:
                    await ws.send(json.dumps(join))
                    self.state = None
                    failures = 0
                    await self._pump(ws)
            except (OSError, ConnectionClosed, TimeoutError):
                pass
            if self.stopping:
                break
            failures += 1
            if failures > self.retries:
                break
            self.inbox.put({"type": "reconnecting", "attempt": failures})
            await asyncio.sleep(min(0.3 * failures, 3.0))
        self.inbox.put({"type": "closed"})

    async def _pump(self, ws: Any) -> None:
        assert self.outbox is not None
        outbox = self.outbox

        async def writer() -> None:
            while True:
                text = await outbox.get()
                if not text:
                    await ws.close()
                    return
                await ws.send(text)

        task = asyncio.create_task(writer())
        try:
            async for text in ws:
                msg = json.loads(text)
                if not isinstance(msg, dict):
                    continue
                if msg.get("type") == "state":
                    try:
                        msg = rebuild(self.state, msg)
                    except ValueError:
                        await ws.send(json.dumps({"type": "state"}))
                        continue
                    self.state = msg
                self.inbox.put(msg)
                if task.done():
                    break
        finally:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
