"""Rooms: playing with friends. A room is a table being set up.

The host chooses the game and its options, then each seat: *me*, *open* (for a friend) or
*computer* at a level, and the table's settings (computer level, hints on or off, how long
a person may be away before a computer stands in, an optional turn timer). The host gets an
invite — an unguessable token for a link (``/#/join/<token>``) — and a short room code to
type on another device; both run out after ``invite_seconds`` unless the game is being
played, and the host can revoke them (and make new ones). Only their hashes are stored.

A friend who has the link or the code sees the room (:meth:`Rooms.public_view`: the game,
its options, who sits where — never a token) and takes an open seat with a name; the
browser's player key says who they are, and they get their own seat token. The host starts
the game once every person's seat is taken (or has the open seats filled with computers);
the table is then an ordinary table whose person seats hold the room's seat tokens.

Rooms live in the database (:mod:`cardplaza.web.store.rooms`), so any server process
answers for any room; a change is written only if nobody changed the room meanwhile, so
two friends taking one seat at the same moment cannot both get it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import secrets
import time
from typing import Any

from sqlalchemy.exc import IntegrityError

from cardplaza.core.computers import computer_ratings
from cardplaza.core.options import options_to_dict
from cardplaza.core.registry import GameSpec, get_game
from cardplaza.web.errors import WebError
from cardplaza.web.live.names import clean_name
from cardplaza.web.live.tables import LiveTable, TableManager, fields_of, new_token
from cardplaza.web.live.together import attach_addon, together_of, watch_room, watch_token
from cardplaza.web.store.rooms import RoomRow, RoomSeat, RoomStore
from cardplaza.web.store.storage import PlayerRow, SeatInfo, TableRow, hash_token

__all__ = ["CODE_ALPHABET", "Rooms", "normal_code"]

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Room-code characters: no 0/O, 1/I/L (read alike) and no U (so no word is spelt)."""

SEAT_KINDS = ("me", "open", "computer")

ROOM_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def normal_code(text: str) -> str:
    """A typed room code as stored: capitals, without spaces or dashes."""
    return "".join(ch for ch in text.upper() if ch not in " -_\t")


def default_level(spec: GameSpec) -> str:
    """The middle level of a game (as the lobby suggests)."""
    levels = [lv for lv in spec.levels if lv != "random"] or list(spec.levels) or ["random"]
    return levels[len(levels) // 2] if len(levels) > 2 else levels[-1]


class Lookups:
    """Invite and code look-ups per client address: a token bucket each (bounded memory)."""

    def __init__(self, per_minute: float, size: int = 10_000) -> None:
        self.rate = per_minute / 60.0
        self.burst = max(1.0, per_minute)
        self.size = size
        self.buckets: dict[str, tuple[float, float]] = {}

    def take(self, address: str | None) -> bool:
        """Spend one look-up of an address; ``False`` when it has none left."""
        key = address or "?"
        now = time.monotonic()
        tokens, at = self.buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if tokens < 1.0:
            self.buckets[key] = (tokens, now)
            return False
        if len(self.buckets) >= self.size and key not in self.buckets:
            self.buckets.clear()
        self.buckets[key] = (tokens - 1.0, now)
        return True


class Rooms:
    """Creating, finding, joining, setting up and starting rooms."""

    def __init__(self, manager: TableManager) -> None:
        self.manager = manager
        self.settings = manager.settings
        self.store = RoomStore(manager.storage)
        self.lookups = Lookups(self.settings.room_lookups_per_minute)

    async def _db(self, fn: Any, *args: Any) -> Any:
        return await self.manager._db(fn, *args)

    # -- secrets -------------------------------------------------------------------------
    def _new_code(self) -> str:
        n = max(6, min(8, self.settings.room_code_length))
        return "".join(secrets.choice(CODE_ALPHABET) for _ in range(n))

    @staticmethod
    def secret_hash(secret: str) -> str:
        """The stored hash of an invite token or a (normalised) room code."""
        return hash_token(secret if len(secret) > 12 else normal_code(secret))

    def _fresh_invite(self, room: RoomRow) -> tuple[str, str]:
        invite = secrets.token_urlsafe(18)
        code = self._new_code()
        room.invite_hash = hash_token(invite)
        room.code_hash = hash_token(code)
        room.expires = time.time() + self.settings.invite_seconds
        return invite, code

    @staticmethod
    def invite_valid(room: RoomRow, now: float | None = None) -> bool:
        """Whether a room's invite (and code) still work."""
        if room.invite_hash is None or room.status == "closed":
            return False
        return room.status == "playing" or (now or time.time()) < room.expires

    # -- reading ----------------------------------------------------------------------------
    async def load(self, room_id: Any) -> RoomRow:
        """A room by id (``unknown_room`` otherwise)."""
        if not isinstance(room_id, str) or not 0 < len(room_id) <= 40 or \
                not set(room_id) <= ROOM_ID_CHARS:
            raise WebError("unknown_room")
        room: RoomRow | None = await self._db(self.store.load, room_id)
        if room is None:
            raise WebError("unknown_room")
        return room

    async def find(self, secret: Any, address: str | None) -> RoomRow:
        """The room of a valid invite token or room code (look-ups are rate-limited per
        client address)."""
        if not self.lookups.take(address):
            raise WebError("too_many_lookups")
        if not isinstance(secret, str) or not 4 <= len(secret) <= 80:
            raise WebError("bad_invite")
        room: RoomRow | None = await self._db(self.store.by_hash, self.secret_hash(secret))
        if room is None or not self.invite_valid(room):
            raise WebError("bad_invite")
        if room.status == "playing" and room.table_id and time.time() >= room.expires:
            # Past its day, an invite lasts only while the game is still being played.
            table = await self._db(self.manager.storage.load_table, room.table_id)
            if table is None or table.status != "playing":
                raise WebError("bad_invite")
        return room

    async def player_of(self, key: Any) -> PlayerRow | None:
        """The player of a key, or ``None``."""
        if not isinstance(key, str) or not 0 < len(key) <= 200:
            return None
        row: PlayerRow | None = await self._db(self.manager.storage.player_by_key, key)
        return row

    async def member(self, room_id: Any, key: Any) -> tuple[RoomRow, PlayerRow, int | None]:
        """A room as seen by one of its people: the room, the player and their seat (the
        host may have none)."""
        room = await self.load(room_id)
        player = await self.player_of(key)
        if player is None:
            raise WebError("not_in_room")
        seat = self.seat_of(room, player.id)
        if seat is None and player.id != room.host:
            raise WebError("not_in_room")
        return room, player, seat

    @staticmethod
    def seat_of(room: RoomRow, player: str) -> int | None:
        """The seat a player holds in a room."""
        for i, s in enumerate(room.seats):
            if s.kind == "human" and s.player == player:
                return i
        return None

    def public_view(self, room: RoomRow, player: str | None = None) -> dict[str, Any]:
        """What anyone with the invite (or a member) may see: the game, its options and
        settings, who sits where. No token, no hash, no player key."""
        now = time.time()
        seats = []
        for i, s in enumerate(room.seats):
            seat: dict[str, Any] = {"seat": i, "kind": s.kind}
            if s.kind == "human":
                seat["name"] = s.name
                seat["host"] = s.player == room.host
                seat["you"] = player is not None and s.player == player
            elif s.kind == "computer":
                seat["level"] = s.level
            seats.append(seat)
        out: dict[str, Any] = {
            "room": room.id, "game": room.game, "options": room.options,
            "config": room.config, "seats": seats, "status": room.status,
            "version": room.version, "host": player is not None and player == room.host,
            "invite": {"valid": self.invite_valid(room, now),
                       "seconds": max(0, round(room.expires - now))
                       if room.status != "playing" else None},
            "limits": {"standin": [self.settings.standin_min_seconds,
                                   self.settings.standin_max_seconds],
                       "turn": [int(x) for x in self.settings.turn_choices]},
        }
        if room.table_id is not None and player is not None and (
                self.seat_of(room, player) is not None):
            out["table"] = room.table_id
        if player is not None and (player == room.host or self.seat_of(room, player)
                                   is not None) and room.config.get("spectators", True):
            out["watch"] = watch_token(self.manager.cluster_secret, room.id)
        return out

    # -- watching ---------------------------------------------------------------------------
    async def watched(self, token: Any) -> dict[str, Any]:
        """The room of a watch token as a spectator sees it: the game, its options, who
        sits where and, once started, its table (to watch with the token). ``bad_watch``
        for a token that is not a room's, ``spectators_off`` when the host said no."""
        room_id = watch_room(self.manager.cluster_secret, token)
        if room_id is None:
            raise WebError("bad_watch")
        room = await self.load(room_id)
        if room.config.get("spectators", True) is False or room.status == "closed":
            raise WebError("spectators_off" if room.status != "closed" else "room_closed")
        out = self.public_view(room, None)
        out["spectator"] = True
        if room.table_id is not None:
            out["table"] = room.table_id
        return out

    # -- making a room ----------------------------------------------------------------------
    def _config(self, spec: GameSpec, data: Any, base: dict[str, Any]) -> dict[str, Any]:
        """The table's settings: ``level``, ``hints``, ``rated`` (ratings change; no
        hints then), ``standin_seconds``, ``turn_seconds`` (0 = no turn timer), checked."""
        if data is None:
            data = {}
        if not isinstance(data, dict):
            raise WebError("bad_room", reason="config must be an object")
        out = dict(base)
        if "level" in data:
            level = data["level"]
            if not isinstance(level, str) or level not in spec.levels:
                raise WebError("bad_level", level=repr(level)[:40],
                               levels=", ".join(spec.levels))
            out["level"] = level
        for flag in ("hints", "spectators", "rated"):
            if flag in data:
                if not isinstance(data[flag], bool):
                    raise WebError("bad_room", reason=f"{flag} is true or false")
                out[flag] = data[flag]
        if out.get("rated"):
            # A rated game is played without the expert's hints.
            out["hints"] = False
        if "standin_seconds" in data:
            secs = data["standin_seconds"]
            lo, hi = self.settings.standin_min_seconds, self.settings.standin_max_seconds
            if isinstance(secs, bool) or not isinstance(secs, int) or not lo <= secs <= hi:
                raise WebError("bad_room", reason=f"standin_seconds is {lo}–{hi}")
            out["standin_seconds"] = secs
        if "turn_seconds" in data:
            secs = data["turn_seconds"]
            choices = [0, *(int(x) for x in self.settings.turn_choices)]
            if isinstance(secs, bool) or secs not in choices:
                raise WebError("bad_room", reason="turn_seconds is one of "
                               + ", ".join(map(str, choices)))
            out["turn_seconds"] = secs
        return out

    async def create(self, data: Any, key: Any, address: str | None) -> dict[str, Any]:
        """Make a room: ``{game, options?, name?, seats?: ["me"|"open"|"computer", …],
        level?, config?}`` → the room's member view, its invite and code (shown once: only
        their hashes are kept), the host's seat and seat token, and ``key`` when a new
        player key was issued."""
        if not isinstance(data, dict):
            raise WebError("bad_request")
        try:
            spec = get_game(str(data.get("game"))[:40])
        except KeyError:
            raise WebError("unknown_game", game=repr(str(data.get("game"))[:40])) from None
        raw = data.get("options") or {}
        if not isinstance(raw, dict):
            raise WebError("bad_options", reason="options must be an object of name: value "
                           "pairs")
        try:
            options = spec.options(raw)
            n = (await asyncio.to_thread(spec.new_game, options, 0)).num_players
        except ValueError as exc:
            raise WebError("bad_options", reason=str(exc)[:300]) from None
        except Exception:
            raise WebError("bad_options", reason="those options do not fit this game") \
                from None
        name = clean_name(data.get("name"))
        base = {"level": default_level(spec), "hints": True, "spectators": True,
                "standin_seconds": self.settings.standin_seconds, "turn_seconds": 0}
        config = self._config(spec, data.get("config"), base)
        if data.get("level") is not None:
            config = self._config(spec, {"level": data["level"]}, config)
        kinds = data.get("seats")
        if kinds is None:
            kinds = ["me"] + ["open"] * (n - 1)
        if (not isinstance(kinds, list) or len(kinds) != n
                or not all(k in SEAT_KINDS for k in kinds) or kinds.count("me") != 1):
            raise WebError("bad_room", reason=f"seats lists {n} seats, each me, open or "
                           "computer, and exactly one me")
        since = time.time() - self.settings.open_window_seconds
        where = self.manager._address_key(address)
        if where is not None:
            count = await self._db(self.store.count_recent, since, None, where)
            if count >= self.settings.max_rooms_per_address:
                raise WebError("too_many_rooms", limit=self.settings.max_rooms_per_address)
        player, new_key = await self.manager.player(key, name)
        count = await self._db(self.store.count_recent, since, player.id, None)
        if count >= self.settings.max_rooms_per_player:
            raise WebError("too_many_rooms", limit=self.settings.max_rooms_per_player)
        token = new_token()
        seats: list[RoomSeat] = []
        for k in kinds:
            if k == "me":
                seats.append(RoomSeat("human", name, "", player.id, hash_token(token)))
            elif k == "open":
                seats.append(RoomSeat("open"))
            else:
                seats.append(RoomSeat("computer", level=config["level"]))
        room = RoomRow(id=secrets.token_urlsafe(9), host=player.id, game=spec.name,
                       options=options_to_dict(options), config=config, seats=seats,
                       address=where)
        for _ in range(5):
            invite, code = self._fresh_invite(room)
            try:
                await self._db(self.store.insert, room)
                break
            except IntegrityError:  # a code already in use: another
                continue
        else:
            raise WebError("server_busy")
        out = {**self.public_view(room, player.id), "invite_token": invite, "code": code,
               "seat": kinds.index("me"), "token": token,
               "player": {"id": player.id, "name": player.name, "tag": player.tag}}
        if new_key is not None:
            out["key"] = new_key
        return out

    # -- changing a room -----------------------------------------------------------------
    async def _change(self, room_id: Any, key: Any, change: Any,
                      host_only: bool = True) -> tuple[RoomRow, PlayerRow, Any]:
        """Apply ``change(room, player)`` to a fresh copy of the room and write it if
        nobody changed the room meanwhile (else read it again and retry)."""
        for _ in range(8):
            room, player, _seat = await self.member(room_id, key)
            if host_only and player.id != room.host:
                raise WebError("not_host")
            result = change(room, player)
            if await self._db(self.store.save, room):
                return room, player, result
        raise WebError("room_changed")

    @staticmethod
    def _setting_up(room: RoomRow) -> None:
        if room.status == "playing":
            raise WebError("room_started")
        if room.status != "open":
            raise WebError("room_closed")

    async def set_seat(self, room_id: Any, key: Any, data: Any) -> dict[str, Any]:
        """The host makes a seat ``open`` or a ``computer`` (at ``level``); a seat a
        person holds stays theirs."""
        if not isinstance(data, dict):
            raise WebError("bad_request")

        def change(room: RoomRow, player: PlayerRow) -> None:
            self._setting_up(room)
            index = data.get("seat")
            n = len(room.seats)
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < n:
                raise WebError("bad_seat", last=n - 1)
            if room.seats[index].kind == "human":
                raise WebError("seat_taken")
            kind = data.get("kind")
            spec = get_game(room.game)
            if kind == "open":
                room.seats[index] = RoomSeat("open")
            elif kind == "computer":
                level = data.get("level", room.config.get("level"))
                if not isinstance(level, str) or level not in spec.levels:
                    raise WebError("bad_level", level=repr(level)[:40],
                                   levels=", ".join(spec.levels))
                room.seats[index] = RoomSeat("computer", level=level)
            else:
                raise WebError("bad_room", reason="kind is open or computer")

        room, player, _ = await self._change(room_id, key, change)
        return self.public_view(room, player.id)

    async def set_config(self, room_id: Any, key: Any, data: Any) -> dict[str, Any]:
        """The host changes the table's settings (before the game starts)."""

        def change(room: RoomRow, player: PlayerRow) -> None:
            self._setting_up(room)
            room.config = self._config(get_game(room.game), data, room.config)

        room, player, _ = await self._change(room_id, key, change)
        return self.public_view(room, player.id)

    async def new_invite(self, room_id: Any, key: Any) -> dict[str, Any]:
        """A new invite and code for the host (the old ones stop working)."""

        def change(room: RoomRow, player: PlayerRow) -> tuple[str, str]:
            if room.status == "closed":
                raise WebError("room_closed")
            return self._fresh_invite(room)

        for _ in range(5):
            try:
                room, player, (invite, code) = await self._change(room_id, key, change)
                break
            except IntegrityError:
                continue
        else:
            raise WebError("server_busy")
        return {**self.public_view(room, player.id), "invite_token": invite, "code": code}

    async def revoke(self, room_id: Any, key: Any) -> dict[str, Any]:
        """The host revokes the invite and the code (nobody new can join)."""

        def change(room: RoomRow, player: PlayerRow) -> None:
            room.invite_hash = None
            room.code_hash = None

        room, player, _ = await self._change(room_id, key, change)
        return self.public_view(room, player.id)

    async def claim(self, data: Any, key: Any, address: str | None) -> dict[str, Any]:
        """A friend takes an open seat: ``{secret, seat, name?}`` (the invite token or the
        room code) → the member view, their seat and seat token (and ``key`` when a new
        player key was issued). A person already seated in the room gets their seat again
        with a new token (the old one stops working)."""
        if not isinstance(data, dict):
            raise WebError("bad_request")
        found = await self.find(data.get("secret"), address)
        name = clean_name(data.get("name"))
        player, new_key = await self.manager.player(key, name)
        index = data.get("seat")
        token = new_token()
        room = found
        for attempt in range(8):
            if attempt:
                room = await self.load(found.id)
            if not self.invite_valid(room):
                raise WebError("bad_invite")
            if not await self._between_games(room):
                self._setting_up(room)
            n = len(room.seats)
            mine = self.seat_of(room, player.id)
            if mine is not None:
                index = mine
            if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < n:
                raise WebError("bad_seat", last=n - 1)
            if mine is None and room.seats[index].kind != "open":
                raise WebError("seat_taken")
            room.seats[index] = RoomSeat("human", name, "", player.id, hash_token(token))
            if await self._db(self.store.save, room):
                break
        else:
            raise WebError("room_changed")
        out = {**self.public_view(room, player.id), "seat": index, "token": token,
               "player": {"id": player.id, "name": player.name, "tag": player.tag}}
        if new_key is not None:
            out["key"] = new_key
        return out

    async def _between_games(self, room: RoomRow) -> bool:
        """Whether the room's game is over (its seats may change for the next one)."""
        if room.status != "playing" or room.table_id is None:
            return False
        table = await self.manager.finished(room.table_id)
        return table.state.is_terminal

    async def leave(self, room_id: Any, key: Any) -> dict[str, Any]:
        """A person leaves the room: their seat is open for the next game (the host fills
        it with a computer when starting it, or a friend takes it with the invite). A game
        being played goes on: a computer stands in for them meanwhile."""

        def change(room: RoomRow, player: PlayerRow) -> None:
            seat = self.seat_of(room, player.id)
            if seat is None:
                raise WebError("not_in_room")
            room.seats[seat] = RoomSeat("open")

        room, player, _ = await self._change(room_id, key, change, host_only=False)
        return self.public_view(room, player.id)

    async def again(self, room_id: Any, key: Any, data: Any) -> dict[str, Any]:
        """The next game with the same people, in one click, by any person seated in the
        room once the game is over: seats kept (each person's seat token works at the new
        table, so everyone lands in it without joining again), the same settings, the
        options the game's rematch rule gives (the deal passes on); ``fill: true`` seats
        computers where a person left (else ``seats_open``). Everyone at the old table is
        sent the new table's id."""
        fill = isinstance(data, dict) and data.get("fill") is True
        for _ in range(8):
            room, player, seat = await self.member(room_id, key)
            if seat is None and player.id != room.host:
                raise WebError("not_in_room")
            if room.status != "playing" or room.table_id is None:
                raise WebError("not_finished" if room.status == "open" else "room_closed")
            prev = await self.manager.finished(room.table_id)
            if not prev.state.is_terminal:
                raise WebError("not_finished")
            open_seats = [i for i, s in enumerate(room.seats) if s.kind == "open"]
            if open_seats and not fill:
                raise WebError("seats_open", seats=", ".join(str(i + 1) for i in open_seats))
            spec = get_game(room.game)
            options = spec.options(prev.row.options)
            rematch = getattr(spec, "rematch_options", None)
            if rematch is not None:
                options = rematch(options, prev.state)
            room.options = options_to_dict(options)
            old = prev
            table = await self._new_table(room, options)
            if await self._db(self.store.start, room, table.row, self.manager.server_id):
                self.manager.tables[table.id] = table
                attach_addon(self.manager, table)
                self.manager.kick(table)
                here = together_of(old) if self.manager.tables.get(old.id) is old else None
                if here is not None:
                    here.next_table = table.id
                    here.tell_all({"type": "next_game", "table": table.id})
                    self.manager.broadcast(old)
                return self.public_view(room, player.id)
        raise WebError("room_changed")

    # -- starting the game -----------------------------------------------------------------
    async def start(self, room_id: Any, key: Any, data: Any) -> dict[str, Any]:
        """The host starts the game: every open seat must be taken, or ``fill: true``
        seats computers there. The table is stored in the transaction that marks the room
        started."""
        fill = isinstance(data, dict) and data.get("fill") is True
        for _ in range(8):
            room, player, _seat = await self.member(room_id, key)
            if player.id != room.host:
                raise WebError("not_host")
            self._setting_up(room)
            open_seats = [i for i, s in enumerate(room.seats) if s.kind == "open"]
            if open_seats and not fill:
                raise WebError("seats_open", seats=", ".join(str(i + 1) for i in open_seats))
            table = await self._new_table(room)
            self._check_rated(room)
            if await self._db(self.store.start, room, table.row, self.manager.server_id):
                self.manager.tables[table.id] = table
                attach_addon(self.manager, table)
                self.manager.kick(table)
                return self.public_view(room, player.id)
        raise WebError("room_changed")

    @staticmethod
    def _check_rated(room: RoomRow) -> None:
        """A rated room seats only people and computers with fixed ratings."""
        if not room.config.get("rated"):
            return
        fixed = computer_ratings(room.game)
        missing = sorted({s.level for s in room.seats
                          if s.kind == "computer" and s.level not in fixed})
        if missing:
            raise WebError("bad_room", reason="a rated room seats computers only at levels "
                           "with a fixed rating; without one: " + ", ".join(missing))

    async def _new_table(self, room: RoomRow, options: Any = None) -> LiveTable:
        """The table of a room about to start (the room row is changed to match)."""
        spec = get_game(room.game)
        if options is None:
            options = spec.options(room.options)
        level = str(room.config.get("level") or default_level(spec))
        fields = fields_of(options)
        if "strength" in fields and level in spec.levels and level != "random":
            options = dataclasses.replace(options, strength=level)
        if spec.name == "pinochle2" and level in ("1", "2", "3", "4"):
            options = dataclasses.replace(options, level=level)
        seats: list[SeatInfo] = []
        for i, s in enumerate(room.seats):
            if s.kind == "open":
                room.seats[i] = s = RoomSeat("computer", level=level)
            if s.kind == "human":
                # A person's seat carries the table's level: a computer standing in for
                # them while they are away plays at it.
                seats.append(SeatInfo("human", s.name, level, s.token_hash))
            else:
                seats.append(SeatInfo("computer", f"CPU {i + 1}", s.level or level))
        if getattr(options, "names", None) == () and "players" in fields:
            # A computer is numbered as the room page numbers its seat ("Seat 6").
            names = [s.name if s.kind == "human" else f"Computer {i + 1}"
                     for i, s in enumerate(seats)]
            options = dataclasses.replace(options, names=tuple(names))
        seed = secrets.randbits(128)
        state = await asyncio.to_thread(spec.new_game, options, seed)
        table_id = secrets.token_urlsafe(9)
        players = [s.player if s.kind == "human" else None for s in room.seats]
        extra = {"room": {"id": room.id, **room.config, "level": level,
                          "players": players}}
        row = TableRow(id=table_id, game=spec.name, options=options_to_dict(options),
                       seed=seed, actions=[], seats=seats, extra=extra, owner=room.host)
        room.status = "playing"
        room.table_id = table_id
        return LiveTable(row=row, spec=spec, state=state)

