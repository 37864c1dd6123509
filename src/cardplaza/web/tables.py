"""Live tables: the authoritative game states, seats, computer turns and per-seat messages.

Only :func:`seat_message` builds what is sent to a seat, from that seat's observation, its
legal actions and its illegal-card reasons; nothing else about the state leaves the server.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import secrets
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from cardplaza.ai.player import Player, computer_player
from cardplaza.core.cards import Deck
from cardplaza.core.options import options_to_dict
from cardplaza.core.protocol import Action, GameState, IllegalAction
from cardplaza.core.registry import GameSpec, get_game
from cardplaza.web import streaks
from cardplaza.web.extras import extras
from cardplaza.web.schema import deck_of
from cardplaza.web.storage import SeatInfo, Storage, TableRow, hash_token

log = logging.getLogger("cardplaza.web")

Send = Callable[[dict[str, Any]], Awaitable[None]]
"""Sends one JSON message to one connected client."""

MAX_NAME = 20


class WebError(Exception):
    """A request the server refuses; ``code`` is machine-readable, the message is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def clean_name(name: Any, default: str = "Player") -> str:
    """A player name: trimmed text of 1–20 characters (the default when empty)."""
    if name is None:
        return default
    if not isinstance(name, str):
        raise WebError("bad_name", "the player name must be text")
    cleaned = " ".join(str(name).split())
    if not cleaned:
        return default
    if len(cleaned) > MAX_NAME:
        raise WebError("bad_name", f"the player name may have at most {MAX_NAME} characters")
    return cleaned


CARD_VERBS = ("play", "give", "discard")
LIST_KEYS = ("discard", "add", "cards")


def _card_id(value: Any, deck: Deck) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < deck.size:
        return value
    return None


def action_card(state: GameState, deck: Deck | None, action: Action) -> int | None:
    """The single card an action puts down, if it is just a card (play, give, discard).

    Recognised forms: a card int whose text names that card (``A♠``, ``play A♠``), or a
    JSON form ``{"type"|"kind": "play"|"give"|"discard", "card": c}`` or ``{"play": c}``.
    """
    if deck is None or isinstance(action, bool):
        return None
    if isinstance(action, int):
        if not 0 <= action < deck.size:
            return None
        text = state.action_text(action).removeprefix("play ").split("#")[0].strip()
        if text in (deck.text(action), deck.text(action, ascii_only=True)):
            return action
        return None
    data = state.action_to_json(action)
    if not isinstance(data, dict):
        return None
    if "card" in data and len(data) == 2:
        verb = data.get("type", data.get("kind"))
        return _card_id(data["card"], deck) if verb in CARD_VERBS else None
    if len(data) == 1:
        key, value = next(iter(data.items()))
        return _card_id(value, deck) if key in CARD_VERBS else None
    return None


def action_cards(data: Any, deck: Deck | None) -> list[int] | None:
    """The list of cards a multi-card action names (``discard``/``add``/``cards``)."""
    if deck is None or not isinstance(data, dict):
        return None
    for key in LIST_KEYS:
        value = data.get(key)
        if isinstance(value, list) and all(_card_id(v, deck) is not None for v in value):
            return list(value)
    return None


def legal_entries(state: GameState, deck: Deck | None) -> list[dict[str, Any]]:
    """The acting seat's legal actions with their text and JSON forms (and cards named)."""
    out = []
    for a in state.legal_actions():
        data = state.action_to_json(a)
        entry: dict[str, Any] = {"json": data, "text": state.action_text(a),
                                 "card": action_card(state, deck, a)}
        cards = action_cards(data, deck)
        if cards is not None:
            entry["cards"] = cards
        out.append(entry)
    return out


def seat_message(state: GameState, seat: int) -> dict[str, Any]:
    """Everything about the game sent to ``seat``: a function of that seat's view only."""
    current = state.current_player
    obs = state.observation(seat)
    msg: dict[str, Any] = {
        "obs": obs,
        "current": current,
        "terminal": state.is_terminal,
        "extra": extras(state.game_name, obs),
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


@dataclass
class LiveTable:
    """One table in memory."""

    row: TableRow
    spec: GameSpec
    state: GameState
    players: dict[int, Player] = field(default_factory=dict)
    sockets: dict[int, set[Send]] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    task: asyncio.Task[None] | None = None

    @property
    def id(self) -> str:
        """Table id."""
        return self.row.id

    def seat_of_token(self, token: Any) -> int | None:
        """The human seat a token belongs to, or ``None``."""
        if not isinstance(token, str) or not token:
            return None
        h = hash_token(token)
        for i, s in enumerate(self.row.seats):
            if s.kind == "human" and secrets.compare_digest(s.token_hash, h):
                return i
        return None

    def is_computer(self, seat: int) -> bool:
        """True when a computer plays ``seat``."""
        return 0 <= seat < len(self.row.seats) and self.row.seats[seat].kind == "computer"

    def message(self, seat: int) -> dict[str, Any]:
        """The state message for one seat, with the table's public facts."""
        msg = seat_message(self.state, seat)
        msg.update({
            "type": "state",
            "table": self.id,
            "game": self.row.game,
            "seat": seat,
            "step": len(self.state.history),
            "players": [{"name": s.name, "kind": s.kind, "level": s.level}
                        for s in self.row.seats],
            "options": self.row.options,
        })
        if "streak" in self.row.extra:
            msg["streak"] = self.row.extra["streak"]
        return msg


class TableManager:
    """Creates, loads, drives and persists tables."""

    def __init__(self, storage: Storage, computer_pause: float = 0.6,
                 workers: int = 4, streak_seeds: bool = False) -> None:
        self.storage = storage
        self.computer_pause = computer_pause
        # A chosen seed is a known deal: the chooser could look up the computer's cards.
        # Streak games feed the public high-score list, so they only take the server's
        # own random seed unless this is switched on (tests and bug reproduction).
        self.streak_seeds = streak_seeds
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="cardplaza-ai")
        self.tables: dict[str, LiveTable] = {}
        self._load_lock = asyncio.Lock()

    async def close(self) -> None:
        """Stop the computer tasks and the worker pool."""
        for t in self.tables.values():
            if t.task is not None:
                t.task.cancel()
        self.pool.shutdown(wait=False, cancel_futures=True)

    async def _db(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(None, fn, *args)

    # -- creation and loading ------------------------------------------------------------
    async def create(self, data: dict[str, Any]) -> dict[str, Any]:
        """Create a table from a lobby request; returns the id and the human seats' tokens."""
        if not isinstance(data, dict):
            raise WebError("bad_request", "the request must be a JSON object")
        if data.get("again") is not None:
            data = await self._again(data)
        name = data.get("game")
        try:
            spec = get_game(str(name))
        except KeyError:
            raise WebError("unknown_game", f"unknown game {name!r}") from None
        try:
            options = spec.options(data.get("options") or {})
        except (ValueError, TypeError) as exc:
            raise WebError("bad_options", str(exc)) from None
        player = clean_name(data.get("name"))
        seed = data.get("seed")
        seed_chosen = seed is not None
        if seed is None:
            seed = secrets.randbelow(2**31)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**62:
            raise WebError("bad_request", "seed must be a non-negative whole number")
        extra: dict[str, Any] = {}
        streak_mode = data.get("streak")
        level = data.get("level")
        if (streak_mode is None and spec.name == streaks.STREAK_GAME
                and getattr(options, "level", None) == "streak"):
            streak_mode = "new"
        if streak_mode not in (None, False, "new", "next"):
            raise WebError("bad_request", "streak must be 'new' or 'next'")
        if streak_mode:
            if spec.name != streaks.STREAK_GAME:
                raise WebError("bad_request", f"{spec.name} has no winning streak")
            if seed_chosen and not self.streak_seeds:
                raise WebError("bad_request", "a streak game is dealt by the server: "
                               "no seed may be chosen")
            if getattr(options, "level", "streak") != "streak":
                raise WebError("bad_request", "a streak game uses the level ladder "
                               "(option level=streak), not a fixed practice level")
            srow = await self._db(self.storage.load_streak, player)
            if streak_mode == "new" or srow.open_table:
                srow = streaks.end_streak(srow)
            number = streaks.ladder_level(srow.streak)
            level = streaks.level_name(spec.levels, number)
            extra["streak_player"] = player
            extra["streak"] = {**streaks.streak_json(srow), "level": number}
        fixed = getattr(options, "level", None)
        if level is None and isinstance(fixed, str) and fixed.isdigit():
            level = streaks.level_name(spec.levels, int(fixed))
        strength = getattr(options, "strength", None)
        if level is None and strength is not None:
            level = strength if strength in spec.levels else spec.levels[-1]
        if level is None:
            level = _default_level(spec)
        if not isinstance(level, str) or (level != "random" and level not in spec.levels):
            raise WebError("bad_level", f"unknown level {level!r}; levels: "
                           f"{', '.join(spec.levels)}")
        if getattr(options, "names", None) == () and "players" in fields_of(options):
            names = [player] + [f"Computer {i}" for i in range(1, options.players)]
            options = dataclasses.replace(options, names=tuple(names))
        state = spec.new_game(options, seed)
        n = state.num_players
        humans = data.get("humans", [0])
        if (not isinstance(humans, list) or not humans
                or not all(isinstance(h, int) and not isinstance(h, bool) for h in humans)
                or not all(0 <= h < n for h in humans) or len(set(humans)) != len(humans)):
            raise WebError("bad_request", f"humans must list distinct seats 0–{n - 1}")
        tokens: dict[int, str] = {}
        seats: list[SeatInfo] = []
        for s in range(n):
            if s in humans:
                tok = new_token()
                tokens[s] = tok
                label = player if s == humans[0] else f"{player} {s + 1}"
                seats.append(SeatInfo("human", label, "", hash_token(tok)))
            else:
                seats.append(SeatInfo("computer", f"CPU {s}", level))
        table_id = secrets.token_urlsafe(9)
        row = TableRow(id=table_id, game=spec.name, options=options_to_dict(options),
                       seed=seed, actions=[], seats=seats, extra=extra)
        await self._db(self.storage.insert_table, row)
        if streak_mode:
            srow.open_table = table_id
            await self._db(self.storage.save_streak, srow)
        table = self._live(row, spec, state)
        self.tables[table_id] = table
        log.info("table %s: created %s seed=%d level=%s humans=%s", table_id, spec.name,
                 seed, level, humans)
        self.kick(table)
        return {"table": table_id, "tokens": {str(s): t for s, t in tokens.items()},
                "seat": humans[0], "token": tokens[humans[0]]}

    async def _again(self, data: dict[str, Any]) -> dict[str, Any]:
        """The request for the next game of a finished table ("play again"): the same seats,
        names and computer level, the options the game's rematch hook gives (E-fuda-tori
        passes the deal to the left)."""
        again = data["again"]
        if not isinstance(again, dict):
            raise WebError("bad_request", "again must be {\"table\": id, \"token\": token}")
        prev = await self.get(again.get("table"))
        if prev.seat_of_token(again.get("token")) is None:
            raise WebError("bad_token", "that seat token is not valid for this table")
        if not prev.state.is_terminal:
            raise WebError("not_finished", "that game is not finished yet")
        if "streak" in prev.row.extra:
            raise WebError("bad_request", "a streak game goes on with streak: next")
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
        return out

    def _live(self, row: TableRow, spec: GameSpec, state: GameState) -> LiveTable:
        table = LiveTable(row=row, spec=spec, state=state)
        for s, info in enumerate(row.seats):
            if info.kind == "computer":
                table.players[s] = computer_player(spec.name, info.level or "random",
                                                   row.seed * 7919 + s)
        return table

    async def get(self, table_id: Any) -> LiveTable:
        """A live table, loaded from storage (and replayed) if needed."""
        if not isinstance(table_id, str) or not table_id:
            raise WebError("unknown_table", "no such table")
        table = self.tables.get(table_id)
        if table is not None:
            return table
        async with self._load_lock:
            table = self.tables.get(table_id)
            if table is not None:
                return table
            row = await self._db(self.storage.load_table, table_id)
            if row is None:
                raise WebError("unknown_table", "no such table")
            try:
                table = await asyncio.get_running_loop().run_in_executor(None, self._replay,
                                                                         row)
            except Exception as exc:
                log.error("table %s: cannot be restored: %s", table_id, exc)
                raise WebError("broken_table",
                               f"this table cannot be restored: {exc}") from None
            self.tables[table_id] = table
        log.info("table %s: resumed %s after %d actions", table_id, row.game, len(row.actions))
        self.kick(table)
        return table

    def _replay(self, row: TableRow) -> LiveTable:
        spec = get_game(row.game)
        state = spec.new_game(spec.options(row.options), row.seed)
        for step in row.actions:
            state.apply(state.action_from_json(step["action"]))
        return self._live(row, spec, state)

    # -- play ------------------------------------------------------------------------------
    async def act(self, table: LiveTable, seat: int, data: Any, step: Any = None) -> None:
        """A person's action at ``seat``; raises :class:`WebError` and changes nothing if bad."""
        async with table.lock:
            state = table.state
            if state.is_terminal:
                raise WebError("game_over", "the game is over")
            if state.current_player != seat:
                raise WebError("not_your_turn", "it is not your turn")
            if step is not None and step != len(state.history):
                raise WebError("stale", "the table has moved on; your view is being refreshed")
            try:
                action = state.action_from_json(data)
            except IllegalAction as exc:
                raise WebError("bad_action", str(exc)) from None
            except Exception:
                raise WebError("bad_action", "that is not an action of this game") from None
            await self._apply(table, seat, action, human=True)
        self.kick(table)

    async def _apply(self, table: LiveTable, seat: int, action: Action, human: bool) -> None:
        """Apply under the table lock, persist, notify; the state is restored on any error."""
        state = table.state
        # The engine validates before any change (``IllegalAction``); this also admits legal
        # actions a game does not enumerate, such as four-hand Pinochle's jump bids.
        backup = state.clone()
        try:
            text = state.action_text(action)
            state.apply(action)
        except IllegalAction as exc:
            table.state = backup
            raise WebError("illegal", str(exc)) from None
        except Exception:
            table.state = backup
            log.exception("table %s: engine error", table.id)
            raise WebError("illegal", "that action cannot be played now") from None
        table.row.actions.append({"seat": seat, "action": state.action_to_json(action)})
        who = table.row.seats[seat].name
        log.info("table %s: step %d seat %d (%s) %s", table.id, len(state.history), seat,
                 who, text)
        if state.is_terminal:
            table.row.status = "finished"
            table.row.extra["returns"] = list(state.returns())
            await self._finish(table)
            log.info("table %s: finished, result %s", table.id, table.row.extra["returns"])
        await self._db(self.storage.save_progress, table.id, table.row.actions,
                       table.row.status, table.row.extra)
        await self.broadcast(table)

    async def _finish(self, table: LiveTable) -> None:
        player = table.row.extra.get("streak_player")
        if not player:
            return
        returns = table.state.returns()
        human = next(i for i, s in enumerate(table.row.seats) if s.kind == "human")
        others = [r for i, r in enumerate(returns) if i != human]
        srow = await self._db(self.storage.load_streak, player)
        if srow.open_table != table.id:
            return
        srow = streaks.record_result(srow, returns[human], max(others))
        await self._db(self.storage.save_streak, srow)
        table.row.extra["streak_after"] = streaks.streak_json(srow)
        table.row.extra["streak"] = {**table.row.extra["streak"],
                                     "after": streaks.streak_json(srow)}

    def kick(self, table: LiveTable) -> None:
        """Start the computer-turn task of a table if a computer is to act."""
        if table.task is not None and not table.task.done():
            return
        if table.state.is_terminal or not table.is_computer(table.state.current_player):
            return
        table.task = asyncio.get_running_loop().create_task(self._computers(table))

    async def _computers(self, table: LiveTable) -> None:
        loop = asyncio.get_running_loop()
        while True:
            async with table.lock:
                state = table.state
                seat = state.current_player
                if state.is_terminal or not table.is_computer(seat):
                    return
                step = len(state.history)
                obs = state.observation(seat)
                legal = list(state.legal_actions())
            if self.computer_pause > 0:
                await asyncio.sleep(self.computer_pause)
            rng = random.Random(f"{table.row.seed}/{step}")
            try:
                action = await loop.run_in_executor(self.pool, table.players[seat].choose,
                                                    obs, legal, rng)
            except Exception:
                log.exception("table %s: computer at seat %d failed; playing at random",
                              table.id, seat)
                action = legal[rng.randrange(len(legal))]
            async with table.lock:
                if len(table.state.history) != step:
                    continue
                try:
                    await self._apply(table, seat, action, human=False)
                except WebError as exc:
                    log.error("table %s: computer chose an illegal action: %s", table.id,
                              exc.message)
                    return

    # -- connections -----------------------------------------------------------------------
    def attach(self, table: LiveTable, seat: int, send: Send) -> None:
        """Register a client connection for a seat."""
        table.sockets.setdefault(seat, set()).add(send)
        log.info("table %s: seat %d connected", table.id, seat)

    def detach(self, table: LiveTable, seat: int, send: Send) -> None:
        """Forget a client connection; a finished table nobody watches leaves memory."""
        table.sockets.get(seat, set()).discard(send)
        if table.state.is_terminal and not any(table.sockets.values()):
            self.tables.pop(table.id, None)

    async def broadcast(self, table: LiveTable) -> None:
        """Send every connected seat its own view."""
        for seat, conns in list(table.sockets.items()):
            if not conns:
                continue
            msg = table.message(seat)
            for send in list(conns):
                try:
                    await send(msg)
                except Exception:
                    conns.discard(send)


def fields_of(options: Any) -> set[str]:
    """Names of an options dataclass's fields."""
    return {f.name for f in dataclasses.fields(options)}


def _default_level(spec: GameSpec) -> str:
    levels = list(spec.levels)
    if not levels:
        return "random"
    return levels[len(levels) // 2] if len(levels) > 2 else levels[-1]
