"""Live tables: the authoritative game states, seats, computer turns and per-seat messages.

Only :func:`seat_message` builds what is sent to a seat, from that seat's observation, its
legal actions and its illegal-card reasons; nothing else about the state leaves the server
(the deal seed never does: it is neither logged nor sent).

:class:`TableManager` owns the tables this process holds. A table is owned by one process
at a time (a lease row, see :mod:`cardplaza.web.store.storage`); an action is applied to a copy
of the state, appended to the log in a transaction that checks the lease, and only then
becomes the table's state and is sent to the seats (through each client's own queue:
nobody waits on a slow reader). Computer seats decide in worker processes
(:mod:`cardplaza.web.live.workers`) from their observation alone.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import logging
import re
import secrets
import sys
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import orjson

from cardplaza.ai.analysis import AnalysisCache
from cardplaza.core.cards import Deck
from cardplaza.core.fairness import LogChain, commitment, deal_number
from cardplaza.core.options import options_to_dict
from cardplaza.core.protocol import SPECTATOR, Action, GameState, IllegalAction
from cardplaza.core.registry import GameSpec, get_game
from cardplaza.web.errors import WebError
from cardplaza.web.live import collector, streaks
from cardplaza.web.live.budgets import Budgets, key_of
from cardplaza.web.live.client import CAP
from cardplaza.web.live.computer import decide, quick_level, runs_in_process
from cardplaza.web.live.extras import extras
from cardplaza.web.live.fixed import decide_fixed
from cardplaza.web.live.gameinfo import deck_of
from cardplaza.web.live.names import MAX_NAME, clean_name
from cardplaza.web.live.workers import WorkerFailed, WorkerPool, WorkerTimeout
from cardplaza.web.settings import PACES, Settings
from cardplaza.web.store.action_log import ActionLog
from cardplaza.web.store.storage import (
    OPEN_STATUSES,
    ActionConflict,
    Append,
    Finish,
    GameOver,
    LeaseLost,
    Owner,
    PlayerRow,
    SeatInfo,
    Storage,
    TableRow,
    TooManyTables,
    hash_token,
)

if TYPE_CHECKING:
    from cardplaza.web.live.client import Client

log = logging.getLogger("cardplaza.web")

__all__ = ["LiveTable", "TableManager", "WebError", "clean_name", "legal_entries",
           "seat_message"]

SEED_LIMIT = 2**128
"""Deal seeds are whole numbers below this; the server's own come from :mod:`secrets`."""

TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")

CARD_VERBS = ("play", "give", "discard")
LIST_KEYS = ("discard", "add", "cards")


def _card_id(value: Any, size: int) -> int | None:
    """``value`` if it is a card of a deck of ``size`` cards, else ``None``."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < size:
        return value
    return None


_CARD_TEXTS: dict[int, tuple[Deck, list[tuple[str, str]]]] = {}


def card_texts(deck: Deck) -> list[tuple[str, str]]:
    """Each card's text and ASCII text (made once per deck)."""
    found = _CARD_TEXTS.get(id(deck))
    if found is None or found[0] is not deck:
        texts = [(deck.text(c), deck.text(c, ascii_only=True)) for c in range(deck.size)]
        found = _CARD_TEXTS[id(deck)] = (deck, texts)
    return found[1]


def action_card(state: GameState, deck: Deck | None, action: Action,
                text: str | None = None, data: Any = None) -> int | None:
    """The single card an action puts down, if it is just a card (play, give, discard).

    Recognised forms: a card int whose text names that card (``A♠``, ``play A♠``), or a
    JSON form ``{"type"|"kind": "play"|"give"|"discard", "card": c}`` or ``{"play": c}``.
    ``text`` and ``data``, when given, are the action's text and JSON form (already made).
    """
    if deck is None or isinstance(action, bool):
        return None
    if isinstance(action, int):
        if not 0 <= action < deck.size:
            return None
        if text is None:
            text = state.action_text(action)
        face = text.removeprefix("play ").split("#")[0].strip()
        return action if face in card_texts(deck)[action] else None
    if data is None:
        data = state.action_to_json(action)
    if not isinstance(data, dict):
        return None
    if "card" in data and len(data) == 2:
        verb = data.get("type", data.get("kind"))
        return _card_id(data["card"], deck.size) if verb in CARD_VERBS else None
    if len(data) == 1:
        key, value = next(iter(data.items()))
        return _card_id(value, deck.size) if key in CARD_VERBS else None
    return None


def action_cards(data: Any, deck: Deck | None) -> list[int] | None:
    """The list of cards a multi-card action names (``discard``/``add``/``cards``)."""
    if deck is None or not isinstance(data, dict):
        return None
    size = deck.size
    for key in LIST_KEYS:
        value = data.get(key)
        if isinstance(value, list) and all(_card_id(v, size) is not None for v in value):
            return list(value)
    return None


INLINE_CHOICES = 64
"""A quick level's decision among at most this many actions runs on the event loop (it
takes tens of microseconds); a longer list (a Piquet exchange) goes to a thread."""


_NAMED: dict[tuple[int, Any, str, bytes], tuple[int | None, list[int] | None]] = {}
"""The cards a legal action names (:func:`action_card`, :func:`action_cards`), by deck,
action, text and JSON form: they are a function of those, and the same few actions come
up at every table."""
NAMED_LIMIT = 50_000
"""Entries :data:`_NAMED` keeps before it starts again (a bound on its memory)."""


def named_cards(state: GameState, deck: Deck | None, action: Action, text: str,
                data: Any) -> tuple[int | None, list[int] | None]:
    """:func:`action_card` and :func:`action_cards` of a legal action, made once (a
    card list is worked out each time: those are new at nearly every message, and a
    Piquet exchange offers hundreds of them)."""
    if type(data) is dict and len(data) == 1 and type(next(iter(data.values()))) is list:
        return action_card(state, deck, action, text, data), action_cards(data, deck)
    try:
        key = (id(deck), action if isinstance(action, int | str) else None, text,
               orjson.dumps(data, option=orjson.OPT_SORT_KEYS))
    except TypeError:  # a JSON form orjson refuses: worked out each time
        return action_card(state, deck, action, text, data), action_cards(data, deck)
    found = _NAMED.get(key)
    if found is None:
        if len(_NAMED) >= NAMED_LIMIT:
            _NAMED.clear()
        found = _NAMED[key] = (action_card(state, deck, action, text, data),
                               action_cards(data, deck))
    return found


def legal_entries(state: GameState, deck: Deck | None) -> list[dict[str, Any]]:
    """The acting seat's legal actions with their text and JSON forms (and cards named)."""
    out = []
    for a in state.legal_actions():
        data = state.action_to_json(a)
        text = state.action_text(a)
        card, cards = named_cards(state, deck, a, text, data)
        entry: dict[str, Any] = {"json": data, "text": text, "card": card}
        if cards is not None:
            entry["cards"] = list(cards)
        out.append(entry)
    return out


def seat_message(state: GameState, seat: int) -> dict[str, Any]:
    """Everything about the game sent to ``seat``: a function of that seat's view only
    (:data:`~cardplaza.core.protocol.SPECTATOR`: of the public view)."""
    current = state.current_player
    watching = seat == SPECTATOR
    obs = state.public_observation() if watching else state.observation(seat)
    msg: dict[str, Any] = {
        "obs": obs,
        "current": current,
        "terminal": state.is_terminal,
        "extra": None if watching else extras(state.game_name, obs),
    }
    if current == seat:
        deck = deck_of(state)
        msg["legal"] = legal_entries(state, deck)
        msg["illegal"] = {str(c): r for c, r in state.illegal_card_reasons().items()}
    else:
        msg["legal"] = []
        msg["illegal"] = {}
    if state.is_terminal:
        msg["returns"] = list(state.returns())
        msg["winners"] = list(state.winners())
    return msg


def new_token() -> str:
    """An unguessable seat token."""
    return secrets.token_urlsafe(24)


def derived_seed(seed: int, *parts: Any) -> int:
    """A 64-bit seed derived one way from the deal seed (the computers' RNGs)."""
    text = "/".join([str(seed), *map(str, parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def result_for(state: GameState, seat: int) -> str:
    """``win``, ``loss`` or ``draw`` of one seat in a finished game."""
    winners = set(state.winners())
    if seat not in winners:
        return "loss"
    return "draw" if len(winners) == state.num_players else "win"


class TableAddon(Protocol):
    """What a table with several people keeps besides its game (:mod:`.together`)."""

    standins: set[int]
    """Human seats a computer plays now (their owners are away)."""
    paused: bool
    """Nobody acts while set (an undo request waits for its answers)."""

    def facts(self) -> dict[str, Any]:
        """Public facts sent to every seat (who is here, countdowns, requests)."""
        ...


@dataclass
class LiveTable:
    """One table in memory (owned by this process)."""

    row: TableRow
    spec: GameSpec
    state: GameState
    sockets: dict[int, set[Client]] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    task: asyncio.Task[None] | None = None
    pace: str = "normal"
    last_action: float = field(default_factory=time.monotonic)
    last_active: float = field(default_factory=time.monotonic)
    gone: bool = False
    """Set when this process lost the table (its clients then look for the new owner)."""
    rewinds: int = 0
    """How often the table was taken back (a computer's decision for an older position is
    then dropped even if the history has the same length again)."""
    addon: TableAddon | None = None
    """Presence, stand-ins and requests of a table with several people (else ``None``)."""
    chain: tuple[int, LogChain] | None = None
    """The running log digest (:mod:`cardplaza.core.fairness`) and the rewind it is for."""
    fair_facts: tuple[tuple[int, int], dict[str, Any]] | None = None
    """:meth:`fair` of the last (rewind, step) asked, sent to every seat alike."""
    analyses: AnalysisCache | None = None
    """The expert's analyses of this table's positions (per seat and step), made for hints
    and helpers and read again by the review (:mod:`cardplaza.web.learning.handlers`)."""
    deal_commitment: tuple[int, str] | None = None
    """The commitment of the deal :meth:`fair` last gave (a function of id, seed, deal)."""
    views: tuple[GameState, dict[int, dict[str, Any]]] | None = None
    """:func:`seat_message` of each seat asked for :attr:`state` (the state it was made
    for: a new state, after an action or a rewind, makes every view again)."""
    sent: int = 0
    """Number of the last state message made for a seat of this table (``n``: the same
    message goes to every connection of a seat, encoded once)."""

    player_seeds: dict[int, int] = field(default_factory=dict)
    """:meth:`player_seed` of each seat asked."""

    @property
    def id(self) -> str:
        """Table id."""
        return self.row.id

    def player_seed(self, seat: int) -> int:
        """The seed of the computer player at ``seat`` (one per table and seat, derived
        one way from the deal seed)."""
        found = self.player_seeds.get(seat)
        if found is None:
            found = self.player_seeds[seat] = derived_seed(self.row.seed, "player", seat)
        return found

    def seat_of_token(self, token: Any) -> int | None:
        """The human seat a token belongs to, or ``None``."""
        if not isinstance(token, str) or not token or len(token) > 200:
            return None
        h = hash_token(token)
        for i, s in enumerate(self.row.seats):
            if s.kind == "human" and secrets.compare_digest(s.token_hash, h):
                return i
        return None

    def is_computer(self, seat: int) -> bool:
        """True when a computer plays ``seat`` (a computer seat, or a person's seat a
        computer plays while they are away)."""
        if not 0 <= seat < len(self.row.seats):
            return False
        return self.row.seats[seat].kind == "computer" or (
            self.addon is not None and seat in self.addon.standins)

    def paused(self) -> bool:
        """True while nobody may act (an undo request waits for its answers)."""
        return self.addon is not None and self.addon.paused

    def connected(self) -> bool:
        """True while any client is attached."""
        return any(self.sockets.values())

    def fair(self) -> dict[str, Any]:
        """Public facts that make the deal checkable later, sent to every connection: the
        current deal's number and commitment (the seed stays secret), and the digest of the
        action log so far. Both are functions of the stored table (id, seed, log), so every
        process and every reload sends the same ones."""
        key = (self.rewinds, len(self.row.actions))
        if self.fair_facts is not None and self.fair_facts[0] == key:
            return dict(self.fair_facts[1])
        seed = self.row.seed
        if self.chain is None or self.chain[0] != self.rewinds:
            self.chain = (self.rewinds, LogChain(self.id, commitment(self.id, 1, seed)))
        deal = deal_number(self.state)
        if self.deal_commitment is None or self.deal_commitment[0] != deal:
            self.deal_commitment = (deal, commitment(self.id, deal, seed))
        facts = {"deal": deal, "commitment": self.deal_commitment[1],
                 "log": self.chain[1].extend(self.row.actions)}
        self.fair_facts = (key, facts)
        return dict(facts)

    def view(self, seat: int) -> dict[str, Any]:
        """:func:`seat_message` of the current state for ``seat``, made once per state
        (shared: callers copy it before they add anything)."""
        state = self.state
        if self.views is None or self.views[0] is not state:
            self.views = (state, {})
        views = self.views[1]
        found = views.get(seat)
        if found is None:
            found = views[seat] = seat_message(state, seat)
        return found

    def message(self, seat: int) -> dict[str, Any]:
        """The whole state message for one seat, with the table's public facts; ``n``
        numbers it among the table's state messages."""
        msg = dict(self.view(seat))
        self.sent += 1
        msg.update({
            "n": self.sent,
            "type": "state",
            "table": self.id,
            "game": self.row.game,
            "seat": seat,
            "step": len(self.state.history),
            "players": [{"name": s.name, "kind": s.kind, "level": s.level}
                        for s in self.row.seats],
            "options": self.row.options,
            "pace": self.pace,
            "fair": self.fair(),
        })
        if "streak" in self.row.extra:
            msg["streak"] = self.row.extra["streak"]
        if "helps" in self.row.extra:
            msg["helps"] = self.row.extra["helps"]
        if "rating" in self.row.extra:  # each person's shown rating before and after
            msg["rating"] = self.row.extra["rating"]
        for mark in ("daily", "fixed"):
            if mark in self.row.extra:
                msg[mark] = self.row.extra[mark]
        if "challenge" in self.row.extra:
            msg["challenge"] = True
        if self.addon is not None:
            msg.update(self.addon.facts())
        return msg


class TableManager:
    """Creates, loads, drives and persists the tables of this process."""

    def __init__(self, storage: Storage, settings: Settings | None = None,
                 computer_pause: float | None = None, workers: int | None = None,
                 streak_seeds: bool | None = None) -> None:
        settings = settings or Settings()
        changes: dict[str, Any] = {}
        if computer_pause is not None:
            changes["computer_pause"] = computer_pause
        if workers is not None:
            changes["ai_workers"] = workers
        if streak_seeds is not None:
            changes["streak_seeds"] = streak_seeds
        self.settings = settings.replace(**changes) if changes else settings
        self.storage = storage
        self.server_id = secrets.token_hex(8)
        self.relay_address = ""
        self.pool = WorkerPool(self.settings.ai_workers, self.settings.ai_kill_seconds,
                               self.settings.ai_nice, self.settings.ai_preload)
        self.analysis = WorkerPool(self.settings.analysis_workers,
                                   self.settings.ai_kill_seconds, self.settings.analysis_nice,
                                   self.settings.ai_preload)
        self.analyses = 0
        """Analyses waiting or running now (at most ``analysis_queue``)."""
        self.db_pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="cardplaza-db")
        self.beat_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardplaza-hb")
        self.action_log = ActionLog(storage, self.settings.log_batch_max,
                                    self.settings.log_batch_seconds,
                                    self.settings.log_on_loop)
        self.tables: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Future[LiveTable | Owner]] = {}
        self._background: list[asyncio.Task[None]] = []
        self._releases: set[asyncio.Task[None]] = set()
        self._registered = False
        self._switch_before: float | None = None
        """Python's thread switch interval before :meth:`start` set the server's."""
        self.cluster_secret = ""
        self.on_lost: list[Callable[[LiveTable], None]] = []
        self.on_seat: list[Callable[[LiveTable, int], None]] = []
        """Called when a seat's connections change (one attached or detached)."""
        self.on_change: list[Callable[[LiveTable], None]] = []
        """Called before every seat is sent the table's new state."""
        self.on_finish: list[Callable[[LiveTable, GameState, Finish], Awaitable[None]]] = []
        """Awaited when an action ends a game, before it is stored: may add writes to the
        :class:`Finish` (made in the action's own transaction)."""
        self.fallbacks = 0
        self.preparing = False
        """True while the computer processes still compile search kernels in the background
        (they play with the Python search meanwhile): the lobby says so."""
        self.budgets = Budgets(self.settings)
        self.withholds: list[Callable[[LiveTable], bool]] = []
        """Tests of tables whose seed, record and replay are not given out yet (a daily
        deal's until its day is over)."""

    # -- life -----------------------------------------------------------------------------
    @property
    def streak_seeds(self) -> bool:
        """Whether streak games may be dealt from a chosen seed (tests only)."""
        return self.settings.streak_seeds

    @property
    def computer_pause(self) -> float:
        """The "normal" pace's computer pause."""
        return self.settings.computer_pause

    async def start(self, relay_address: str = "") -> None:
        """Announce this process, start its heartbeat and sweeps (and the workers if
        ``ai_prestart``). Idempotent."""
        if self._registered:
            return
        self.relay_address = relay_address
        self.cluster_secret = await self._db(self.storage.cluster_secret)
        await self._db(self.storage.register_server, self.server_id, relay_address)
        self._registered = True
        if self.settings.ai_prestart:
            await asyncio.to_thread(self.pool.start, True)
            await asyncio.to_thread(self.analysis.start, True)
            until = time.monotonic() + self.settings.ai_ready_seconds
            for pool in (self.pool, self.analysis):  # computers, then hints and reviews
                if not await asyncio.to_thread(pool.wait_ready,
                                               max(0.0, until - time.monotonic())):
                    log.warning("the computer players were not ready after %.0f s; "
                                "serving anyway", self.settings.ai_ready_seconds)
                    break
        loop = asyncio.get_running_loop()
        self._background = [loop.create_task(self._heartbeats()),
                            loop.create_task(self._sweeps())]
        if self.settings.ai_prestart and self.settings.ai_warm_up:
            self._background.append(loop.create_task(self.watch_kernels()))
        if self.settings.gc_schedule:
            collector.take_over()
            self._background.append(loop.create_task(
                collector.full_passes(self.settings.gc_full_seconds)))
        if self.settings.switch_interval > 0:
            self._switch_before = sys.getswitchinterval()
            sys.setswitchinterval(self.settings.switch_interval)

    async def watch_kernels(self, cached: Callable[[], bool] | None = None) -> None:
        """Keep :attr:`preparing` true while some search kernels are still being compiled
        (not all in the disk cache yet), looking every ``kernel_watch_seconds``."""
        from cardplaza.ai.compiled import all_cached

        check = cached or all_cached
        while True:
            try:
                done = await asyncio.to_thread(check)
            except Exception:  # a cache that cannot be read: nothing to tell the players
                done = True
            self.preparing = not done
            if done:
                log.info("the computer players' search kernels are all compiled")
                return
            await asyncio.sleep(self.settings.kernel_watch_seconds)

    async def close(self) -> None:
        """Stop the computer tasks and the workers; give up this process's tables."""
        for task in self._background:
            task.cancel()
        if self.settings.gc_schedule:
            collector.give_back()
        if self._switch_before is not None:
            sys.setswitchinterval(self._switch_before)
            self._switch_before = None
        for t in self.tables.values():
            if t.task is not None:
                t.task.cancel()
        await self.pool.close()
        await self.analysis.close()
        if self._registered:
            try:
                await self._db(self.storage.unregister_server, self.server_id)
            except Exception:
                log.warning("could not unregister this server from the database")
            self._registered = False
        self.db_pool.shutdown(wait=False, cancel_futures=True)
        self.beat_pool.shutdown(wait=False, cancel_futures=True)
        self.action_log.close()

    async def _db(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.db_pool, fn, *args)

    async def _heartbeats(self) -> None:
        loop = asyncio.get_running_loop()
        beats = 0
        while True:
            await asyncio.sleep(self.settings.heartbeat_seconds)
            beats += 1
            try:
                alive = await loop.run_in_executor(self.beat_pool, self.storage.heartbeat,
                                                   self.server_id)
                if not alive:
                    log.warning("this server's heartbeat row was gone; registering again")
                    await loop.run_in_executor(self.beat_pool, self.storage.register_server,
                                               self.server_id, self.relay_address)
                if beats % 5 == 0:
                    await self._check_leases()
                if beats % 60 == 0:
                    await self._db(self.storage.forget_dead_servers,
                                   time.time() - 100 * self.settings.lease_seconds)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("heartbeat failed: %s", type(exc).__name__)

    async def _check_leases(self) -> None:
        """Tables whose lease another process took are let go here: one query for all.
        Only the tables in memory before it are checked (a table comes into memory after
        its lease is stored, so the query sees the lease of each of them unless it was
        taken or given up)."""
        tables = list(self.tables.values())
        if not tables:
            return
        held = await self._db(self.storage.leases_of, self.server_id)
        for table in tables:
            if table.id not in held and self.tables.get(table.id) is table:
                log.warning("table %s: taken over by another server", table.id)
                self._lose(table)

    async def _sweeps(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_seconds)
            try:
                await self.evict_idle()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("idle sweep failed: %s", type(exc).__name__)

    def _idle(self, table: LiveTable, now: float, seconds: float) -> bool:
        busy = table.task is not None and not table.task.done()
        return (not table.connected() and not busy and not table.lock.locked()
                and now - table.last_active >= seconds)

    async def evict_idle(self, seconds: float | None = None, keep: int | None = None) -> int:
        """Let tables nobody uses leave memory (and give up their leases): those idle for
        ``seconds`` (default ``idle_seconds``), or the least recently used idle ones until
        at most ``keep`` remain. Returns how many left."""
        now = time.monotonic()
        limit = self.settings.idle_seconds if seconds is None else seconds
        idle = sorted((t for t in self.tables.values() if self._idle(t, now, 0.0)),
                      key=lambda t: t.last_active)
        chosen = [t for t in idle if now - t.last_active >= limit]
        if keep is not None:
            extra = len(self.tables) - len(chosen) - keep
            rest = [t for t in idle if t not in chosen]
            chosen += rest[:max(0, extra)]
        for table in chosen:
            if self.tables.get(table.id) is table:
                del self.tables[table.id]
                table.gone = True
                await self._db(self.storage.release, table.id, self.server_id)
        if chosen:
            log.info("%d idle tables left memory", len(chosen))
        return len(chosen)

    def _lose(self, table: LiveTable) -> None:
        """This process no longer owns ``table``: forget it, tell its clients."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        table.gone = True
        if table.task is not None:
            table.task.cancel()
        for conns in table.sockets.values():
            for client in list(conns):
                client.table_lost(table)
        for hook in self.on_lost:
            hook(table)

    # -- computer work ------------------------------------------------------------------------
    async def run_in_worker(self, fn: Callable[..., Any], *args: Any,
                            deadline: float | None = None) -> Any:
        """Run a picklable module-level function in a worker process (never on the event
        loop). Raises :class:`~cardplaza.web.live.workers.WorkerTimeout` after ``deadline``
        seconds (default ``ai_deadline_seconds``) and
        :class:`~cardplaza.web.live.workers.WorkerFailed` if it raised or its worker died."""
        limit = self.settings.ai_deadline_seconds if deadline is None else deadline
        return await self.pool.run(fn, *args, deadline=limit)

    async def run_analysis(self, fn: Callable[..., Any], *args: Any,
                           deadline: float | None = None) -> Any:
        """Run a hint, helper or review function in the analysis workers: a pool apart from
        the computers' (at a higher niceness), so no amount of analysis delays a computer's
        move. ``analysis_busy`` when ``analysis_queue`` analyses are already waiting or
        running; otherwise as :meth:`run_in_worker`."""
        if self.analyses >= self.settings.analysis_queue:
            raise WebError("analysis_busy")
        limit = self.settings.ai_deadline_seconds if deadline is None else deadline
        self.analyses += 1
        try:
            return await self.analysis.run(fn, *args, deadline=limit)
        finally:
            self.analyses -= 1

    # -- creation and loading ------------------------------------------------------------
    def _address_key(self, address: str | None) -> str | None:
        if not address:
            return None
        return hashlib.sha256(f"{self.cluster_secret}/{address}".encode()).hexdigest()[:32]

    def admit_connection(self, address: str | None) -> bool:
        """Whether a WebSocket from ``address`` may open now: its connection budget holds a
        token (spent here) and its message budget is not spent (a flooding address cannot
        open connection after connection). Refusals are logged, capped."""
        where = key_of(address) if address else None
        if self.budgets.has("messages", "address", where) and \
                self.budgets.take("connections", "address", where):
            return True
        CAP.log("connection refused", logging.INFO,
                "a WebSocket was refused: its address is over its budget")
        return False

    def spend_creation(self, address: str | None, key: str | None) -> None:
        """One table (or new player key) from this address and key: ``too_many_requests``
        when either's budget is spent."""
        where = key_of(address) if address else None
        who = key_of(key) if key and len(key) <= 200 else None
        if not self.budgets.allow("tables", where, who):
            raise WebError("too_many_requests")

    async def player(self, key: Any, name: str | None = None) -> tuple[PlayerRow, str | None]:
        """The player of a key; a new player (and its new key) when there is none."""
        if isinstance(key, str) and 0 < len(key) <= 200:
            row = await self._db(self.storage.player_by_key, key)
            if row is not None:
                if name is not None and row.name != name:
                    await self._db(self.storage.rename_player, row.id, name)
                    row.name = name
                return row, None
        new_key, row = await self._db(self.storage.new_player, name or "Player")
        return row, new_key

    async def create(self, data: Any, address: str | None = None,
                     key: str | None = None,
                     marks: dict[str, Any] | None = None) -> dict[str, Any]:
        """Create a table from a lobby request; returns the id and the human seats' tokens
        (and ``key`` when a new player key was issued). ``marks`` go into the table's
        header as they are (a daily deal's or a challenge's, set by the server only)."""
        if not isinstance(data, dict):
            raise WebError("bad_request")
        raw_key = key or data.get("key")
        self.spend_creation(address, raw_key if isinstance(raw_key, str) else None)
        if data.get("again") is not None:
            data = await self._again(data)
        name = data.get("game")
        try:
            spec = get_game(str(name)[:40])
        except KeyError:
            raise WebError("unknown_game", game=repr(str(name)[:40])) from None
        raw_options = data.get("options") or {}
        if not isinstance(raw_options, dict):
            raise WebError("bad_options", reason="options must be an object of name: value "
                           "pairs")
        try:
            options = spec.options(raw_options)
        except ValueError as exc:
            raise WebError("bad_options", reason=str(exc)[:300]) from None
        except Exception:
            raise WebError("bad_options", reason="those options do not fit this game") \
                from None
        # A name given renames the player; without one, the player's own name is used.
        given = clean_name(data.get("name")) if data.get("name") is not None else None
        known = None
        if given is None and isinstance(raw_key, str) and 0 < len(raw_key) <= 200:
            known = await self._db(self.storage.player_by_key, raw_key)
        player_name = given or (known.name if known is not None else clean_name(None))
        seed = data.get("seed")
        seed_chosen = seed is not None
        if seed is None:
            seed = secrets.randbits(128)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
            raise WebError("bad_seed")
        extra: dict[str, Any] = dict(marks or {})
        streak_mode = data.get("streak")
        level = data.get("level")
        if (streak_mode is None and spec.name == streaks.STREAK_GAME
                and getattr(options, "level", None) == "streak"):
            streak_mode = "new"
        if streak_mode not in (None, False, "new", "next"):
            raise WebError("bad_streak")
        humans = data.get("humans", [0])
        if streak_mode:
            if spec.name != streaks.STREAK_GAME:
                raise WebError("no_streak", game=spec.name)
            if seed_chosen and not self.streak_seeds:
                raise WebError("streak_seed")
            if getattr(options, "level", "streak") != "streak":
                raise WebError("streak_level")
            if not isinstance(humans, list) or len(humans) != 1:
                raise WebError("streak_humans")
        fixed = getattr(options, "level", None)
        if level is None and isinstance(fixed, str) and fixed.isdigit():
            level = streaks.level_name(spec.levels, int(fixed))
        strength = getattr(options, "strength", None)
        if level is None and strength is not None:
            level = strength if strength in spec.levels else spec.levels[-1]
        if level is None:
            level = _default_level(spec)
        if not isinstance(level, str) or (level != "random" and level not in spec.levels):
            raise WebError("bad_level", level=repr(level)[:40], levels=", ".join(spec.levels))
        chosen_names = getattr(options, "names", None)
        if isinstance(chosen_names, tuple) and chosen_names:
            # Names in the options are player names: the same rules (no control, invisible
            # or direction-changing characters, no markup, nothing blank).
            checked = []
            for raw in chosen_names:
                cleaned = clean_name(raw, default="")
                if not cleaned:
                    raise WebError("bad_name", limit=MAX_NAME)
                checked.append(cleaned)
            options = dataclasses.replace(options, names=tuple(checked))
        if getattr(options, "names", None) == () and "players" in fields_of(options):
            names = [player_name] + [f"Computer {i}" for i in range(1, options.players)]
            options = dataclasses.replace(options, names=tuple(names))
        state = await asyncio.to_thread(spec.new_game, options, seed)
        n = state.num_players
        if (not isinstance(humans, list) or not humans
                or not all(isinstance(h, int) and not isinstance(h, bool) for h in humans)
                or not all(0 <= h < n for h in humans) or len(set(humans)) != len(humans)):
            raise WebError("bad_humans", last=n - 1)
        # Limits: tables from one address that are not finished (abandoned ones count:
        # a player opening table after table abandons its oldest); checked again in the
        # transaction that stores the table. A player's oldest open tables are abandoned.
        since = time.time() - self.settings.open_window_seconds
        where = self._address_key(address)
        limit = self.settings.max_open_tables_per_address
        if where is not None:
            count = await self._db(self.storage.count_open, since, where, None,
                                   OPEN_STATUSES)
            if count >= limit:
                raise WebError("too_many_tables", limit=limit)
        if len(self.tables) >= self.settings.max_live_tables:
            await self.evict_idle(keep=self.settings.max_live_tables - 1)
            if len(self.tables) >= self.settings.max_live_tables:
                raise WebError("server_busy")
        player, new_key = await self.player(raw_key, given or player_name)
        await self._abandon_oldest(player.id, since)
        if streak_mode:
            srow = await self._db(self.storage.load_streak, player.id)
            if streak_mode == "new" or srow.open_table:
                srow = streaks.end_streak(srow)
            number = streaks.ladder_level(srow.streak)
            level = streaks.level_name(spec.levels, number)
            extra["streak_player"] = player.id
            extra["streak"] = {**streaks.streak_json(srow, player.name), "level": number}
        tokens: dict[int, str] = {}
        seats: list[SeatInfo] = []
        for s in range(state.num_players):
            if s in humans:
                tok = new_token()
                tokens[s] = tok
                label = player_name if s == humans[0] else f"{player_name} {s + 1}"
                seats.append(SeatInfo("human", label, "", hash_token(tok)))
            else:
                seats.append(SeatInfo("computer", f"CPU {s}", level))
        if self.settings.fixed_computers and len(humans) == 1 and "room" not in extra:
            extra["fixed"] = True
        table_id = secrets.token_urlsafe(9)
        row = TableRow(id=table_id, game=spec.name, options=options_to_dict(options),
                       seed=seed, actions=[], seats=seats, extra=extra, owner=player.id)
        try:
            await self._db(self.storage.insert_table, row, self.server_id, where,
                           limit if where is not None else None, since)
        except TooManyTables:
            raise WebError("too_many_tables", limit=limit) from None
        if streak_mode:
            srow.open_table = table_id
            await self._db(self.storage.save_streak, srow)
        table = LiveTable(row=row, spec=spec, state=state)
        self.tables[table_id] = table
        log.info("table %s: created %s level=%s humans=%s", table_id, spec.name, level, humans)
        self.kick(table)
        out: dict[str, Any] = {"table": table_id,
                               "tokens": {str(s): t for s, t in tokens.items()},
                               "seat": humans[0], "token": tokens[humans[0]],
                               "player": {"id": player.id, "name": player.name,
                                          "tag": player.tag}}
        if new_key is not None:
            out["key"] = new_key
        return out

    async def _again(self, data: dict[str, Any]) -> dict[str, Any]:
        """The request for the next game of a finished table ("play again"): the same seats,
        names and computer level, the options the game's rematch hook gives (E-fuda-tori
        passes the deal to the left)."""
        again = data["again"]
        if not isinstance(again, dict):
            raise WebError("bad_again")
        prev = await self.finished(again.get("table"))
        if prev.seat_of_token(again.get("token")) is None:
            raise WebError("bad_token")
        if not prev.state.is_terminal:
            raise WebError("not_finished")
        if "streak" in prev.row.extra:
            raise WebError("streak_again")
        if "room" in prev.row.extra:
            raise WebError("room_again")
        spec = prev.spec
        options = spec.options(prev.row.options)
        rematch = getattr(spec, "rematch_options", None)
        if rematch is not None:
            options = rematch(options, prev.state)
        humans = [i for i, s in enumerate(prev.row.seats) if s.kind == "human"]
        levels = [s.level for s in prev.row.seats if s.kind == "computer"]
        out: dict[str, Any] = {"game": spec.name, "options": options_to_dict(options),
                               "name": prev.row.seats[humans[0]].name, "humans": humans}
        if levels:
            out["level"] = levels[0]
        if data.get("seed") is not None:
            out["seed"] = data["seed"]
        if data.get("key") is not None:
            out["key"] = data["key"]
        return out

    def withheld(self, table: LiveTable) -> bool:
        """True while a table's seed, record and replay must not be given out."""
        return any(test(table) for test in self.withholds)

    async def finished(self, table_id: Any) -> LiveTable:
        """A table read from memory or from its log without taking it over (for looking at
        a game, e.g. a finished one; it is not driven or held)."""
        if not isinstance(table_id, str) or not TABLE_ID.match(table_id):
            raise WebError("unknown_table")
        live = self.tables.get(table_id)
        if live is not None:
            return live
        row = await self._db(self.storage.load_table, table_id)
        if row is None:
            raise WebError("unknown_table")
        try:
            table: LiveTable = await asyncio.to_thread(self._replay, row)
        except Exception:
            raise WebError("broken_table") from None
        return table

    async def _abandon_oldest(self, player: str, since: float) -> None:
        limit = self.settings.max_open_tables_per_player
        count = await self._db(self.storage.count_open, since, None, player)
        if count < limit:
            return
        for table_id in await self._db(self.storage.oldest_open, player, since,
                                       count - limit + 1):
            await self._db(self.storage.update_header, table_id, "abandoned")
            live = self.tables.get(table_id)
            if live is not None:
                live.row.status = "abandoned"
            log.info("table %s: abandoned (its player opened a newer one)", table_id)

    async def locate(self, table_id: Any) -> LiveTable | Owner:
        """The table if this process owns it (taking it over or loading it from the log if
        needed), else the live process that owns it."""
        if not isinstance(table_id, str) or not TABLE_ID.match(table_id):
            raise WebError("unknown_table")
        table = self.tables.get(table_id)
        if table is not None:
            return table
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[LiveTable | Owner] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            found = await self._locate(table_id)
            fut.set_result(found)
            return found
        except Exception as exc:
            fut.set_exception(exc)
            fut.exception()
            raise
        finally:
            self._loading.pop(table_id, None)
            if not fut.done():
                fut.cancel()

    async def _locate(self, table_id: str) -> LiveTable | Owner:
        if not await self._db(self.storage.table_exists, table_id):
            raise WebError("unknown_table")
        try:
            owner: Owner | None = await self._db(self.storage.acquire, table_id,
                                                 self.server_id, self.settings.lease_seconds)
        except LeaseLost:
            raise WebError("table_moved") from None
        if owner is not None:
            return owner
        row = await self._db(self.storage.load_table, table_id)
        if row is None:
            await self._db(self.storage.release, table_id, self.server_id)
            raise WebError("unknown_table")
        try:
            table = await asyncio.to_thread(self._replay, row)
        except Exception as exc:
            log.error("table %s: cannot be restored (%s)", table_id, type(exc).__name__)
            await self._db(self.storage.release, table_id, self.server_id)
            raise WebError("broken_table") from None
        if len(self.tables) >= self.settings.max_live_tables:
            await self.evict_idle(keep=self.settings.max_live_tables - 1)
        self.tables[table_id] = table
        log.info("table %s: resumed %s after %d actions", table_id, row.game, len(row.actions))
        self.kick(table)
        return table

    async def get(self, table_id: Any) -> LiveTable:
        """A table this process owns (``table_moved`` if another live process does)."""
        found = await self.locate(table_id)
        if isinstance(found, Owner):
            raise WebError("table_moved")
        return found

    def _replay(self, row: TableRow) -> LiveTable:
        spec = get_game(row.game)
        state = spec.new_game(spec.options(row.options), row.seed)
        for step in row.actions:
            state.apply(state.action_from_json(step["action"]))
        return LiveTable(row=row, spec=spec, state=state)

    # -- play ------------------------------------------------------------------------------
    async def act(self, table: LiveTable, seat: int, data: Any, step: Any = None) -> None:
        """A person's action at ``seat``; raises :class:`WebError` and changes nothing if bad."""
        async with table.lock:
            if table.gone:
                raise WebError("table_moved")
            state = table.state
            if state.is_terminal:
                raise WebError("game_over")
            if table.row.status == "abandoned":
                raise WebError("game_over")
            if state.current_player != seat:
                raise WebError("not_your_turn")
            if step is not None and step != len(state.history):
                raise WebError("stale")
            if table.paused():
                raise WebError("undo_pending")
            try:
                action = state.action_from_json(data)
            except Exception:
                raise WebError("bad_action") from None
            await self._apply(table, seat, action)
        self.kick(table)

    async def _apply(self, table: LiveTable, seat: int, action: Action,
                     standin: bool = False) -> None:
        """Under the table lock: apply to a copy, append to the log (checking the lease),
        then make it the table's state and send it. Nothing changes on any error.
        ``standin``: a computer made the action for a person who is away (marked)."""
        # The engine validates before any change (``IllegalAction``); this also admits legal
        # actions a game does not enumerate, such as four-hand Pinochle's jump bids.
        state = table.state.clone()
        try:
            text = state.action_text(action) if log.isEnabledFor(logging.DEBUG) else ""
            state.apply(action)
        except IllegalAction as exc:
            raise WebError("illegal", reason=str(exc)[:300]) from None
        except Exception:
            log.error("table %s: the engine refused an action with an error", table.id)
            raise WebError("illegal", reason="that action cannot be played now") from None
        index = len(state.history) - 1
        encoded = state.action_to_json(action)
        finish = await self._finish(table, state) if state.is_terminal else None
        committed = False

        def commit() -> None:
            """The action is stored: it becomes the table's and is sent (called by the
            log as soon as it hears of the commit, a round of the loop before this task
            would be woken)."""
            nonlocal committed
            committed = True
            table.state = state
            table.row.actions.append({"seat": seat, "action": encoded})
            if standin:
                table.row.standins.append(index)
            table.last_action = table.last_active = time.monotonic()
            log.debug("table %s: step %d seat %d (%s) %s", table.id, index + 1, seat,
                      table.row.seats[seat].name, text)
            if finish is not None:
                table.row.status = finish.status
                table.row.extra = finish.extra
                table.row.result = finish.result
                log.info("table %s: finished, result %s", table.id, finish.extra["returns"])
            self.broadcast(table)

        try:
            await self.action_log.append(Append(table.id, index, seat, encoded,
                                                self.server_id, finish, standin), commit)
        except (LeaseLost, ActionConflict):
            log.warning("table %s: another server owns it now", table.id)
            self._lose(table)
            raise WebError("table_moved") from None
        except Exception as exc:
            if committed:  # stored; sending it failed
                raise
            log.error("table %s: could not save step %d (%s)", table.id, index + 1,
                      type(exc).__name__)
            raise WebError("storage_failed") from None

    async def _finish(self, table: LiveTable, state: GameState) -> Finish:
        """The header (and streak) changes of a game that has just ended."""
        returns = list(state.returns())
        extra = {**table.row.extra, "returns": returns}
        humans = [i for i, s in enumerate(table.row.seats) if s.kind == "human"]
        result = result_for(state, humans[0]) if humans else None
        finish = Finish(status="finished", extra=extra, result=result)
        player = table.row.extra.get("streak_player")
        if player and len(humans) == 1:
            srow = await self._db(self.storage.load_streak, player)
            if srow.open_table == table.id:
                human = humans[0]
                others = [r for i, r in enumerate(returns) if i != human]
                srow = streaks.record_result(srow, returns[human], max(others))
                name = table.row.seats[human].name
                after = streaks.streak_json(srow, name)
                extra["streak_after"] = after
                extra["streak"] = {**extra.get("streak", {}), "after": after}
                finish.streak = srow
        for hook in self.on_finish:
            await hook(table, state, finish)
        return finish

    async def rewind(self, table: LiveTable, keep: int, step: int | None = None) -> None:
        """Take a running table back to its first ``keep`` actions (undo): the log is cut in
        one transaction, the state replayed, every seat sent its view. A finished or
        abandoned game is never taken back (``game_over``: its result and statistics
        stand); with ``step``, the table must still be at that step (``stale``)."""
        async with table.lock:
            if table.gone:
                raise WebError("table_moved")
            if table.state.is_terminal or table.row.status != "playing":
                raise WebError("game_over")
            if step is not None and step != len(table.state.history):
                raise WebError("stale")
            if not 0 <= keep <= len(table.state.history):
                raise WebError("bad_request")
            try:
                await self._db(self.storage.truncate_actions, table.id, keep, self.server_id)
            except GameOver:
                raise WebError("game_over") from None
            except LeaseLost:
                self._lose(table)
                raise WebError("table_moved") from None
            row = dataclasses.replace(table.row, actions=table.row.actions[:keep],
                                      standins=[i for i in table.row.standins if i < keep])
            fresh = await asyncio.to_thread(self._replay, row)
            table.row, table.state = fresh.row, fresh.state
            table.rewinds += 1
            table.last_action = table.last_active = time.monotonic()
            self.broadcast(table)
        self.kick(table)

    def set_pace(self, table: LiveTable, pace: Any) -> str:
        """Set a table's pace (``slow``, ``normal``, ``fast`` or ``instant``)."""
        if not isinstance(pace, str) or pace not in PACES:
            raise WebError("bad_pace", choices=", ".join(PACES))
        if table.pace != pace:
            table.pace = pace
            self.broadcast(table)
        return str(pace)

    def kick(self, table: LiveTable) -> None:
        """Start the computer-turn task of a table if a computer is to act."""
        if table.task is not None and not table.task.done():
            return
        if table.gone or table.state.is_terminal or table.row.status == "abandoned":
            return
        if not table.is_computer(table.state.current_player) or table.paused():
            return
        table.task = asyncio.get_running_loop().create_task(self._computers(table))

    async def _computers(self, table: LiveTable) -> None:
        failures = 0
        while not table.gone and failures < 5:
            async with table.lock:
                state = table.state
                seat = state.current_player
                if state.is_terminal or not table.is_computer(seat) or table.paused():
                    return
                step = len(state.history)
                legal = list(state.legal_actions())
                # A forced action needs no decision, so no observation either.
                obs = state.observation(seat) if len(legal) != 1 else {}
                since = table.last_action
                rewinds = table.rewinds
            action = await self.computer_choice(table, seat, obs, legal, step)
            # Not kept through the pause: a waiting computer at every table would keep an
            # observation each alive for the garbage collector's passes to walk.
            del obs, legal
            wait = since + self.settings.pause_for(table.pace) - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            async with table.lock:
                # A person back at their seat makes this decision themselves.
                if (table.gone or len(table.state.history) != step
                        or table.rewinds != rewinds or not table.is_computer(seat)
                        or table.paused()):
                    continue
                try:
                    await self._apply(table, seat, action,
                                      standin=table.row.seats[seat].kind == "human")
                except WebError as exc:
                    log.error("table %s: the computer's action was refused (%s)", table.id,
                              exc.code)
                    if exc.code == "table_moved":
                        return
                    failures += 1
                    await asyncio.sleep(1.0)

    async def computer_choice(self, table: LiveTable, seat: int, obs: dict[str, Any],
                              legal: list[Action], step: int) -> Action:
        """The computer's decision at ``seat``, from its observation: in a worker, or by
        the level's quick policy if the worker misses the deadline or fails."""
        if len(legal) == 1:
            return legal[0]
        spec = table.spec
        level = table.row.seats[seat].level or "random"
        player_seed = table.player_seed(seat)
        rng_seed = derived_seed(table.row.seed, "choice", seat, step)
        args = (spec.name, level, player_seed, obs, legal, rng_seed)
        if table.row.extra.get("fixed"):
            return await self._fixed_choice(table, args)
        if not runs_in_process(spec, level):
            try:
                action: Action = await self.run_in_worker(decide, *args)
                if action in legal or self._playable(table, action):
                    return action
                log.error("table %s: level %s chose an action that is not legal", table.id,
                          level)
            except WorkerTimeout:
                log.warning("table %s: seat %d level %s missed its %.1f s deadline; "
                            "its quick level plays", table.id, seat, level,
                            self.settings.ai_deadline_seconds)
            except WorkerFailed as exc:
                log.error("table %s: seat %d level %s failed (%s); its quick level plays",
                          table.id, seat, level, str(exc)[:200])
            self.fallbacks += 1
            level = quick_level(spec, level)
        try:
            if len(legal) <= INLINE_CHOICES:
                # Tens of microseconds: cheaper than a hop to a thread and back.
                return decide(spec.name, level, player_seed, obs, legal, rng_seed)
            return await asyncio.to_thread(decide, spec.name, level, player_seed, obs, legal,
                                           rng_seed)
        except Exception as exc:
            log.error("table %s: level %s failed in process (%s); a random legal action "
                      "is played", table.id, level, type(exc).__name__)
            return legal[rng_seed % len(legal)]

    async def _fixed_choice(self, table: LiveTable, args: tuple[Any, ...]) -> Action:
        """A decision that is the same for everyone given the same play: no quick stand-in
        when a worker is slow or fails (the same function then runs in a thread here)."""
        spec, level = table.spec, args[1]
        if runs_in_process(spec, level):
            if len(args[4]) <= INLINE_CHOICES:
                return decide_fixed(*args)
            return await asyncio.to_thread(decide_fixed, *args)
        try:
            action: Action = await self.run_in_worker(
                decide_fixed, *args, deadline=self.settings.ai_kill_seconds)
            return action
        except (WorkerTimeout, WorkerFailed) as exc:
            log.warning("table %s: level %s in a worker failed (%s); deciding here", table.id,
                        level, type(exc).__name__)
        return await asyncio.to_thread(decide_fixed, *args)

    @staticmethod
    def _playable(table: LiveTable, action: Any) -> bool:
        try:
            table.state.clone().apply(action)
        except Exception:
            return False
        return True

    # -- connections -----------------------------------------------------------------------
    def attach(self, table: LiveTable, seat: int, client: Client) -> None:
        """Register a client connection for a seat."""
        table.sockets.setdefault(seat, set()).add(client)
        table.last_active = time.monotonic()
        log.info("table %s: seat %d connected", table.id, seat)
        for hook in self.on_seat:
            hook(table, seat)

    def detach(self, table: LiveTable, seat: int, client: Client) -> None:
        """Forget a client connection; a finished table nobody watches leaves memory."""
        table.sockets.get(seat, set()).discard(client)
        table.last_active = time.monotonic()
        for hook in self.on_seat:
            hook(table, seat)
        if table.state.is_terminal and not table.connected() and \
                self.tables.get(table.id) is table:
            del self.tables[table.id]
            table.gone = True
            task = asyncio.get_running_loop().create_task(self._release(table.id))
            self._releases.add(task)
            task.add_done_callback(self._releases.discard)

    async def _release(self, table_id: str) -> None:
        try:
            await self._db(self.storage.release, table_id, self.server_id)
        except Exception:
            log.warning("table %s: could not release its lease", table_id)

    def broadcast(self, table: LiveTable) -> None:
        """Queue every connected seat its own view (never waits on a client)."""
        for hook in self.on_change:
            hook(table)
        for seat, conns in list(table.sockets.items()):
            if not conns:
                continue
            for client in [c for c in conns if c.closed]:
                conns.discard(client)
            if not conns:
                continue
            msg = table.message(seat)
            wires: dict[int, str] = {}
            for client in list(conns):
                client.send_state(msg, wires)


def fields_of(options: Any) -> set[str]:
    """Names of an options dataclass's fields."""
    return {f.name for f in dataclasses.fields(options)}


def _default_level(spec: GameSpec) -> str:
    levels = list(spec.levels)
    if not levels:
        return "random"
    return levels[len(levels) // 2] if len(levels) > 2 else levels[-1]
