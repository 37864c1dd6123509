"""Several people at one table (a room's table): who is here, stand-ins, the turn timer,
undo requests, and the public facts every seat is sent about them.

* **Presence.** A person's seat is *here* while a connection of theirs is attached.
* **Stand-ins.** When a person's last connection drops while someone else is at the table,
  the others see a countdown at that seat (the room's ``standin_seconds``); when it runs
  out, a computer at the table's level plays the seat until its owner comes back. The owner
  takes the seat back between two decisions: a decision the computer was still thinking
  about is dropped and the owner makes it. Everyone is told (``notice`` messages). Nobody
  at the table at all: no countdown runs and no computer stands in, the game waits.
* **Turn timer** (optional, the room's ``turn_seconds``): a person's decision not made in
  time is made by the computer for them. Every action a computer makes for a person is
  marked in the table's log (``standin``).
* **Undo requests** (see :mod:`cardplaza.web.learning.undo_requests`): while one waits for
  its answers nobody acts, so no decision is ever passed back over without its maker's
  acceptance.
* **The last move** (``room.move``): who made the table's latest action and what of it
  every other seat may see (the game's :meth:`~cardplaza.core.protocol.GameState.public_action`:
  a card played is shown whole, a discard or a passed card only as words such as "passes a
  card"), so a front end that draws a table move by move (the terminal's ``cardplaza
  join``) can say what each seat did.

The facts sent (:meth:`Together.facts`, the ``room`` field of every state message) are
public: presence, countdowns, stand-ins, the request, how many actions each seat made and
how many of them a stand-in made, and the last move as the other seats see it. No card
that is not public.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
import math
import secrets
import time
import weakref
from dataclasses import dataclass, field
from typing import Any

from cardplaza.core.protocol import SPECTATOR, GameState
from cardplaza.web.errors import WebError
from cardplaza.web.live.client import TokenBucket
from cardplaza.web.live.tables import LiveTable, TableManager

log = logging.getLogger("cardplaza.web")

__all__ = ["Together", "UndoAsk", "attach_addon", "install", "together_of", "watch_token",
           "watcher_seat"]


TALK_WORDS: tuple[str, ...] = (
    "hello", "good_luck", "good_game", "well_played", "nice_play", "thanks_partner",
    "thanks", "please_hurry", "sorry", "oops", "one_moment", "bye",
)
"""Preset phrases of table talk (their texts are ``talk.say.<id>`` in every catalog)."""

TALK_EMOTES: tuple[str, ...] = ("smile", "laugh", "wow", "sad", "heart", "star")
"""Preset emotes (an emoji each, ``talk.say.<id>`` in every catalog)."""

PHRASES: frozenset[str] = frozenset(TALK_WORDS + TALK_EMOTES)
"""Every id a seat may say: nothing else is ever accepted (no free text)."""


def watch_token(cluster_secret: str, room_id: str) -> str:
    """A room's watch token: ``<room id>.<MAC>``, unguessable without the cluster's secret
    (so every server process checks it without storing it), distinct from the invite."""
    mac = hmac.new(cluster_secret.encode(), f"watch/{room_id}".encode(), hashlib.sha256)
    return f"{room_id}.{base64.urlsafe_b64encode(mac.digest()[:18]).decode()}"


def watch_room(cluster_secret: str, token: object) -> str | None:
    """The room id of a valid watch token, else ``None``."""
    if not isinstance(token, str) or not 0 < len(token) <= 100 or "." not in token:
        return None
    room_id = token.rsplit(".", 1)[0]
    return room_id if secrets.compare_digest(watch_token(cluster_secret, room_id),
                                             token) else None


def watcher_seat(table: LiveTable, token: object, cluster_secret: str,
                 limit: int) -> int:
    """:data:`SPECTATOR` for a valid watch token of this table's room (``bad_watch``,
    ``spectators_off`` or ``server_busy`` otherwise)."""
    room = table.row.extra.get("room")
    if not isinstance(room, dict) or watch_room(cluster_secret, token) != room.get("id"):
        raise WebError("bad_watch")
    if room.get("spectators", True) is False:
        raise WebError("spectators_off")
    watching = [c for c in table.sockets.get(SPECTATOR, ()) if not c.closed]
    if len(watching) >= limit:
        raise WebError("server_busy")
    return SPECTATOR


@dataclass
class UndoAsk:
    """An undo request waiting for the other people's answers."""

    by: int
    keep: int
    step: int
    rewinds: int
    waiting: set[int]
    accepted: set[int] = field(default_factory=set)
    until: float = 0.0
    done: bool = False
    """Every answer was yes: the table is being taken back."""


class Together:
    """The add-on of a table with people from a room (``LiveTable.addon``)."""

    def __init__(self, manager: TableManager, table: LiveTable) -> None:
        self.manager = manager
        self.table = table
        self.standins: set[int] = set()
        self.paused = False
        self.away: dict[int, float] = {}
        """Seat → the moment (monotonic) a computer stands in for its absent owner."""
        self.timers: dict[int, asyncio.Task[None]] = {}
        self.turn: tuple[int, int, int, float] | None = None
        """The running turn timer: seat, step, rewinds, deadline (monotonic)."""
        self.turn_task: asyncio.Task[None] | None = None
        self.undo: UndoAsk | None = None
        self.undo_task: asyncio.Task[None] | None = None
        self.seen: GameState = table.state
        """The state of the last broadcast (the table's states are replaced, never changed
        in place, so it is the position before the next action)."""
        self.move: dict[str, Any] | None = None
        """The latest action as every seat but its maker sees it (see :meth:`_last_move`)."""
        self.talk_buckets: dict[int, TokenBucket] = {}
        self.next_table: str | None = None
        """The room's next game, once someone started it (sent to everyone here)."""

    # -- settings ---------------------------------------------------------------------------
    @property
    def config(self) -> dict[str, Any]:
        """The room's settings kept with the table."""
        room = self.table.row.extra.get("room")
        return room if isinstance(room, dict) else {}

    @property
    def standin_seconds(self) -> float:
        """How long a person may be away before a computer plays for them."""
        secs = self.config.get("standin_seconds")
        return float(secs) if isinstance(secs, int) else float(
            self.manager.settings.standin_seconds)

    @property
    def turn_seconds(self) -> int:
        """Seconds for each decision of a person (0: no turn timer)."""
        secs = self.config.get("turn_seconds")
        return secs if isinstance(secs, int) and not isinstance(secs, bool) else 0

    def humans(self) -> list[int]:
        """The seats people hold."""
        return [i for i, s in enumerate(self.table.row.seats) if s.kind == "human"]

    def here(self) -> set[int]:
        """The person seats with a connection attached now."""
        return {s for s in self.humans()
                if any(not c.closed for c in self.table.sockets.get(s, ()))}

    # -- the facts sent to every seat -------------------------------------------------------
    def facts(self) -> dict[str, Any]:
        """Public facts: presence, countdowns, stand-ins, the turn timer, an undo request,
        and each seat's actions and stand-in actions so far."""
        now = time.monotonic()
        table = self.table
        here = self.here()
        seats: list[dict[str, Any] | None] = []
        for i, s in enumerate(table.row.seats):
            if s.kind != "human":
                seats.append(None)
                continue
            entry: dict[str, Any] = {"here": i in here}
            if i in self.standins:
                entry["standin"] = True
            if i in self.away:
                entry["left"] = max(0, math.ceil(self.away[i] - now))
            seats.append(entry)
        actions = [0] * len(table.row.seats)
        for a in table.row.actions:
            actions[int(a["seat"])] += 1
        standins = [0] * len(table.row.seats)
        for index in table.row.standins:
            if index < len(table.row.actions):
                standins[int(table.row.actions[index]["seat"])] += 1
        watching = sum(1 for c in table.sockets.get(SPECTATOR, ()) if not c.closed)
        out: dict[str, Any] = {
            "id": self.config.get("id"), "hints": self.config.get("hints", True) is not False,
            "spectators": self.config.get("spectators", True) is not False,
            "watching": watching,
            "standin_seconds": int(self.standin_seconds), "turn_seconds": self.turn_seconds,
            "seats": seats, "actions": actions, "standins": standins,
        }
        if self.turn is not None:
            out["turn"] = {"seat": self.turn[0],
                           "left": max(0, math.ceil(self.turn[3] - now))}
        if self.move is not None:
            out["move"] = self.move
        if self.next_table is not None:
            out["next"] = self.next_table
        if self.undo is not None:
            ask = self.undo
            out["undo"] = {"by": ask.by, "waiting": sorted(ask.waiting),
                           "accepted": sorted(ask.accepted),
                           "left": max(0, math.ceil(ask.until - now))}
        return {"room": out}

    # -- messages -------------------------------------------------------------------------------
    def tell_all(self, msg: dict[str, Any]) -> None:
        """Send a public message to every connection at the table."""
        for conns in list(self.table.sockets.values()):
            for client in list(conns):
                client.send(msg)

    def tell(self, seat: int, msg: dict[str, Any]) -> None:
        """Send a message to the connections of one seat."""
        for client in list(self.table.sockets.get(seat, ())):
            client.send(msg)

    # -- table talk --------------------------------------------------------------------------
    def talk(self, seat: int, say: Any) -> None:
        """A seat says one of the preset phrases (:data:`PHRASES`): everyone at the
        table, spectators too, is sent ``{"type": "talk", "seat", "say"}``. Anything but a
        preset id is refused (``bad_talk``), and so is a seat talking faster than
        ``talk_per_minute`` (``talk_limited``)."""
        if seat == SPECTATOR:
            raise WebError("spectator")
        if not isinstance(say, str) or say not in PHRASES:
            raise WebError("bad_talk")
        rate = self.manager.settings.talk_per_minute
        bucket = self.talk_buckets.get(seat)
        if bucket is None:
            bucket = self.talk_buckets[seat] = TokenBucket(rate / 60.0, max(1, int(rate)))
        if not bucket.take():
            raise WebError("talk_limited")
        self.tell_all({"type": "talk", "seat": seat, "say": say})

    # -- presence and stand-ins -----------------------------------------------------------------
    def presence_changed(self) -> None:
        """A connection came or went: countdowns start or stop, stand-ins hand back."""
        table = self.table
        if table.gone:
            return
        here = self.here()
        if not here or table.state.is_terminal:
            self._stop_standins()
        else:
            now = time.monotonic()
            for seat in self.humans():
                if seat in here:
                    self._cancel_timer(seat)
                    self.away.pop(seat, None)
                    if seat in self.standins:
                        self.standins.discard(seat)
                        log.info("table %s: seat %d is back; its stand-in stops",
                                 table.id, seat)
                        self.tell_all({"type": "notice", "kind": "back", "seat": seat})
                elif seat not in self.away and seat not in self.standins:
                    self.away[seat] = now + self.standin_seconds
                    self.timers[seat] = asyncio.get_running_loop().create_task(
                        self._stand_in(seat))
        self.manager.broadcast(table)
        self.manager.kick(table)

    def _cancel_timer(self, seat: int) -> None:
        task = self.timers.pop(seat, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def _stop_standins(self) -> None:
        """Nobody is here, or the game is over: no countdown, no stand-in."""
        for seat in list(self.timers):
            self._cancel_timer(seat)
        self.away.clear()
        self.standins.clear()

    async def _stand_in(self, seat: int) -> None:
        deadline = self.away.get(seat)
        if deadline is None:
            return
        await asyncio.sleep(max(0.0, deadline - time.monotonic()))
        table = self.table
        self.timers.pop(seat, None)
        if table.gone or self.away.pop(seat, None) is None:
            return
        here = self.here()
        if not here or seat in here or table.state.is_terminal:
            return
        self.standins.add(seat)
        log.info("table %s: seat %d is away; a computer plays for it", table.id, seat)
        self.tell_all({"type": "notice", "kind": "standin", "seat": seat})
        self.manager.broadcast(table)
        self.manager.kick(table)

    # -- after every change ----------------------------------------------------------------
    def changed(self) -> None:
        """Before every broadcast: a request the table moved past lapses; the turn timer
        follows the turn; a finished game needs no stand-in."""
        table = self.table
        ask = self.undo
        if ask is not None and not ask.done and (
                len(table.state.history) != ask.step or table.rewinds != ask.rewinds):
            self.end_undo("lapsed", None, broadcast=False)
        if table.state.is_terminal:
            self._stop_standins()
        self._last_move()
        self._arm_turn()

    def _last_move(self) -> None:
        """Note the table's latest action in its public form: ``{step, seat, standin, text,
        json}``, the ``json`` form only when no seat is kept from seeing it whole (else
        ``text`` is what the others see, e.g. "passes a card"). After an undo, none."""
        table = self.table
        before, now = self.seen, table.state
        self.seen = now
        if now is before:
            return
        history = now.history
        if len(history) != len(before.history) + 1:
            self.move = None
            return
        seat, action = history[-1]
        index = len(history) - 1
        hidden = None
        for viewer in range(now.num_players):
            if viewer != seat:
                hidden = hidden or before.public_action(action, viewer)
        move: dict[str, Any] = {"step": index, "seat": int(seat),
                                "standin": index in table.row.standins}
        if hidden is None:
            move["text"] = before.action_text(action)
            move["json"] = before.action_to_json(action)
        else:
            move["text"] = hidden
        self.move = move

    def _cancel_turn(self) -> None:
        self.turn = None
        task, self.turn_task = self.turn_task, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def _arm_turn(self) -> None:
        table = self.table
        secs = self.turn_seconds
        seat = table.state.current_player
        if (not secs or self.paused or table.gone or table.state.is_terminal
                or not 0 <= seat < len(table.row.seats)
                or table.row.seats[seat].kind != "human" or seat in self.standins):
            self._cancel_turn()
            return
        key = (seat, len(table.state.history), table.rewinds)
        if self.turn is not None and self.turn[:3] == key:
            return
        self._cancel_turn()
        self.turn = (*key, time.monotonic() + secs)
        self.turn_task = asyncio.get_running_loop().create_task(self._turn_out(key, secs))

    async def _turn_out(self, key: tuple[int, int, int], secs: float) -> None:
        """The turn timer ran out: the computer makes this decision for the person."""
        await asyncio.sleep(secs)
        seat, step, rewinds = key
        table = self.table
        manager = self.manager

        def same() -> bool:
            return (not table.gone and not self.paused and table.rewinds == rewinds
                    and len(table.state.history) == step
                    and table.state.current_player == seat and seat not in self.standins)

        async with table.lock:
            if not same():
                return
            state = table.state
            obs = state.observation(seat)
            legal = list(state.legal_actions())
        action = await manager.computer_choice(table, seat, obs, legal, step)
        async with table.lock:
            if not same():
                return
            self.turn_task = None
            log.info("table %s: seat %d ran out of time; the computer decided", table.id,
                     seat)
            try:
                await manager._apply(table, seat, action, standin=True)
            except WebError as exc:
                log.error("table %s: the timed-out decision was refused (%s)", table.id,
                          exc.code)
                return
        manager.kick(table)

    # -- undo requests ------------------------------------------------------------------------
    def ask_undo(self, seat: int, keep: int) -> UndoAsk:
        """Start an undo request of ``seat`` back to the action ``keep``: the table waits
        until every other person has answered (or ``undo_request_seconds`` pass)."""
        table = self.table
        others = {s for s in self.humans() if s != seat}
        secs = self.manager.settings.undo_request_seconds
        ask = UndoAsk(by=seat, keep=keep, step=len(table.state.history),
                      rewinds=table.rewinds, waiting=others, until=time.monotonic() + secs)
        self.undo = ask
        self.paused = True
        self._cancel_turn()
        self.undo_task = asyncio.get_running_loop().create_task(self._undo_expires(ask, secs))
        log.info("table %s: seat %d asks to undo back to step %d", table.id, seat, keep)
        self.manager.broadcast(table)
        return ask

    async def _undo_expires(self, ask: UndoAsk, secs: float) -> None:
        await asyncio.sleep(secs)
        if self.undo is ask and not ask.done:
            self.undo_task = None
            self.end_undo("expired", None)

    def end_undo(self, reason: str, seat: int | None, broadcast: bool = True) -> None:
        """The request ends (``accepted``, ``refused``, ``withdrawn``, ``lapsed`` or
        ``expired``): everyone is told, the table goes on."""
        ask = self.undo
        if ask is None:
            return
        self.undo = None
        self.paused = False
        task, self.undo_task = self.undo_task, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        log.info("table %s: the undo request of seat %d ended: %s", self.table.id, ask.by,
                 reason)
        self.tell_all({"type": "undo_ended", "reason": reason, "by": ask.by, "seat": seat})
        if broadcast:
            self.manager.broadcast(self.table)
            self.manager.kick(self.table)

    def cancel_all(self) -> None:
        """The table left this process: stop every timer."""
        self._stop_standins()
        self._cancel_turn()
        task, self.undo_task = self.undo_task, None
        if task is not None:
            task.cancel()


# -- the hooks -------------------------------------------------------------------------------

_installed: weakref.WeakSet[TableManager] = weakref.WeakSet()

def together_of(table: LiveTable) -> Together | None:
    """The add-on of a room's table, if it has one."""
    addon = table.addon
    return addon if isinstance(addon, Together) else None


def attach_addon(manager: TableManager, table: LiveTable) -> Together | None:
    """Give a room's table its add-on (once); other tables get none."""
    found = together_of(table)
    if found is not None:
        return found
    if not isinstance(table.row.extra.get("room"), dict):
        return None
    addon = Together(manager, table)
    table.addon = addon
    return addon


def install(manager: TableManager) -> None:
    """Hook the add-on into a table manager's connections and changes (once)."""
    if manager in _installed:
        return
    _installed.add(manager)

    def seat_changed(table: LiveTable, seat: int) -> None:
        addon = attach_addon(manager, table)
        if addon is not None:
            addon.presence_changed()

    def changed(table: LiveTable) -> None:
        addon = attach_addon(manager, table)
        if addon is not None:
            addon.changed()

    def lost(table: LiveTable) -> None:
        addon = together_of(table)
        if addon is not None:
            addon.cancel_all()

    manager.on_seat.append(seat_changed)
    manager.on_change.append(changed)
    manager.on_lost.append(lost)
