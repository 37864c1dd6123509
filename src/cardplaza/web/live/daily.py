"""The daily deal and challenges: the same cards and the same computers for everyone.

Daily deal
    Each UTC day every game has one deal set: the seed is an HMAC of the day and the game
    under a secret kept in the database (nobody can work it out before the day), the
    player sits at seat 0 and the computers play at the game's fixed level
    (:data:`SETUPS`) with decisions that depend only on the deal and the play
    (:mod:`.fixed`). One attempt per player key, game and day. A result is the seat's
    margin (its points less the best other seat's); it is scored against the **par** — the
    expert playing the same seat on the same cards against the same computers, computed
    once per day and game in an analysis worker when the day's first attempt at the game
    starts, and stored — and in match points against
    everyone who played it (2 for each result beaten, 1 for each tie, as a percentage of
    the most possible). The board opens after one's own attempt; the seed, the records and
    the replays of a daily table are withheld until the day is over (:func:`withheld`).
Challenge
    After a game of one person against computers, the player may make a link (an
    unguessable token, only its hash stored) with which a friend plays the same deals at the
    same seat against the same computer levels. When both games are over both see a
    comparison decision by decision, with the review's verdicts (budgeted: at most
    :data:`COMPARE_DECISIONS` decisions per side, :data:`COMPARE_SECONDS` each).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import hmac
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cardplaza.ai.review import decisions_of, review_decision_json
from cardplaza.core.history import GameRecord
from cardplaza.core.registry import get_game
from cardplaza.web.errors import WebError
from cardplaza.web.live.fixed import decide_fixed
from cardplaza.web.live.tables import LiveTable, TableManager, derived_seed
from cardplaza.web.store.daily import Attempt, DailyStore
from cardplaza.web.store.storage import hash_token

log = logging.getLogger("cardplaza.web")

__all__ = ["SETUPS", "DailyService", "Setup", "margin", "match_points", "par_in_worker",
           "withheld"]


@dataclass(frozen=True)
class Setup:
    """How a game's daily deal is played."""

    options: dict[str, Any]
    level: str
    """The computers' level."""
    expert: str
    """The level that sets the par."""
    seat: int = 0


SETUPS: dict[str, Setup] = {
    "pinochle2": Setup({"level": "3", "dealer": 1}, "3", "5"),
    "pinochle4": Setup({"target": 500}, "normal", "expert"),
    "pinochle3": Setup({"target": 500, "strength": "normal"}, "normal", "expert"),
    "pinochle_dd": Setup({"target": 500}, "normal", "strong"),
    "piquet": Setup({"four_deals": True}, "2", "expert"),
    "efudatori": Setup({"players": 4}, "2", "expert"),
}
"""The daily deal of each game: short forms of the games, rule-based computers (quick and
deterministic) and the game's strongest level for the par."""

COMPARE_DECISIONS = 40
"""A comparison reviews at most this many decisions of each player."""
COMPARE_SECONDS = 0.4
"""Clock cap of one reviewed decision in a comparison."""


def margin(returns: list[float], seat: int) -> float:
    """A seat's points less the best other seat's (a partner's seat counts as the side's:
    partners have equal returns, so the other side's is the best other)."""
    mine = returns[seat]
    others = [r for i, r in enumerate(returns) if i != seat and r != mine] or [mine]
    return float(mine - max(others))


def match_points(scores: list[float]) -> list[float]:
    """Each score's match points against the others, as a percentage: 2 for each score it
    beats, 1 for each tie, out of 2 per other score (100 when alone)."""
    n = len(scores)
    if n <= 1:
        return [100.0] * n
    out = []
    for i, s in enumerate(scores):
        got = sum(2 if s > t else 1 if s == t else 0 for j, t in enumerate(scores) if j != i)
        out.append(round(100.0 * got / (2 * (n - 1)), 1))
    return out


def play_out(game: str, options: dict[str, Any], seed: int, levels: list[str]) -> list[float]:
    """A whole game played by fixed computers at ``levels`` (one per seat): the returns."""
    spec = get_game(game)
    state = spec.new_game(spec.options(options), seed)
    while not state.is_terminal:
        seat = state.current_player
        legal = list(state.legal_actions())
        action = decide_fixed(game, levels[seat], derived_seed(seed, "player", seat),
                              state.observation(seat), legal,
                              derived_seed(seed, "choice", seat, len(state.history)))
        state.apply(action)
    return [float(r) for r in state.returns()]


def par_in_worker(game: str, options: dict[str, Any], seed: int, seat: int, expert: str,
                  level: str) -> dict[str, Any]:
    """The par of a deal (run in an analysis worker): the expert at ``seat``, the fixed
    computers elsewhere, each deciding exactly as at a live table of that seed."""
    started = time.process_time()
    spec = get_game(game)
    n = spec.new_game(spec.options(options), seed).num_players
    levels = [expert if s == seat else level for s in range(n)]
    returns = play_out(game, options, seed, levels)
    return {"par": margin(returns, seat), "returns": returns,
            "cpu": round(time.process_time() - started, 3)}


def compare_in_worker(record: dict[str, Any], seat: int, indices: list[int],
                      seconds: float) -> list[dict[str, Any]]:
    """The review's verdicts on some of a seat's decisions (run in an analysis worker)."""
    rec = GameRecord.from_json(record)
    out = []
    for index in indices:
        d = review_decision_json(rec, seat, index, seconds)
        if d is not None:
            out.append(d)
    return out


def withheld(table: LiveTable, today: str) -> bool:
    """True while a table's seed, record and replay must not be given out: a daily deal's
    until its day is over."""
    day = table.row.extra.get("daily")
    return isinstance(day, str) and day >= today


def _utc_today() -> str:
    return dt.datetime.now(dt.UTC).date().isoformat()


@dataclass
class DailyService:
    """The daily deals and challenges of one server process."""

    manager: TableManager
    store: DailyStore
    clock: Callable[[], str] = _utc_today
    """Today's date (``YYYY-MM-DD``, UTC); tests move it."""
    secret: str = ""
    par_runs: int = 0
    """Pars this process computed (a test counts them)."""
    _pars: dict[tuple[str, str], asyncio.Task[None]] = field(default_factory=dict)
    _compares: dict[str, asyncio.Task[None]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.manager.on_change.append(self._changed)

    # -- the deal -------------------------------------------------------------------------
    async def _secret(self) -> str:
        if not self.secret:
            self.secret = await self.manager._db(self.store.secret)
        return self.secret

    async def seed(self, day: str, game: str) -> int:
        """The seed of a day's deal of a game (below 2**128)."""
        key = (await self._secret()).encode()
        digest = hmac.new(key, f"daily/{day}/{game}".encode(), hashlib.sha256).digest()
        return int.from_bytes(digest[:16], "big")

    @staticmethod
    def setup(game: Any) -> Setup:
        """The daily setup of a game (``unknown_game`` if it has none)."""
        setup = SETUPS.get(str(game)[:40])
        if setup is None:
            raise WebError("unknown_game", game=repr(str(game)[:40]))
        return setup

    async def overview(self, key: str | None) -> dict[str, Any]:
        """Today's deal of every game: whether the player has played it, how many have."""
        day = self.clock()
        player = await self._player(key) if key else None
        out = []
        for game, setup in SETUPS.items():
            attempts = await self.manager._db(self.store.attempts, day, game)
            mine = next((a for a in attempts if player and a.player == player), None)
            out.append({"game": game, "level": setup.level, "players": len(attempts),
                        "played": mine is not None,
                        "finished": mine is not None and mine.finished is not None,
                        "table": mine.table_id if mine is not None else None})
        return {"day": day, "games": out}

    async def _player(self, key: str) -> str | None:
        row = await self.manager._db(self.manager.storage.player_by_key, key)
        return None if row is None else str(row.id)

    async def start(self, game: Any, key: str | None, address: str | None,
                    name: Any = None) -> dict[str, Any]:
        """Start the player's attempt at today's deal of ``game`` (one per key and day)."""
        setup = self.setup(game)
        game = str(game)
        day = self.clock()
        if key:
            player = await self._player(key)
            if player is not None and await self.manager._db(
                    self.store.attempt, day, game, player) is not None:
                raise WebError("daily_played")
        seed = await self.seed(day, game)
        data: dict[str, Any] = {"game": game, "options": dict(setup.options),
                                "level": setup.level, "seed": seed, "humans": [setup.seat]}
        if name is not None:
            data["name"] = name
        out = await self.manager.create(data, address, key,
                                        marks={"daily": day, "fixed": True})
        player_id = out["player"]["id"]
        ok = await self.manager._db(self.store.add_attempt, day, game, player_id,
                                    out["player"]["name"], out["table"])
        if not ok:
            # Two requests of one key at once: the second table is given up.
            await self.manager._db(self.manager.storage.update_header, out["table"],
                                   "abandoned")
            raise WebError("daily_played")
        self.ensure_par(day, game)
        out["day"] = day
        return out

    # -- par --------------------------------------------------------------------------------
    def ensure_par(self, day: str, game: str) -> None:
        """Compute the par of a day and game in the background unless it is (being)
        computed: once per day and game across every process on the database."""
        running = self._pars.get((day, game))
        if running is not None:
            return
        task = asyncio.get_running_loop().create_task(self._par(day, game))
        self._pars[(day, game)] = task

    async def _par(self, day: str, game: str) -> None:
        try:
            if not await self.manager._db(self.store.claim_par, day, game):
                return
            setup = SETUPS[game]
            seed = await self.seed(day, game)
            try:
                self.par_runs += 1
                got = await self.compute_par(game, setup, seed)
            except Exception as exc:
                log.error("daily %s %s: the par failed (%s)", day, game, type(exc).__name__)
                await self.manager._db(self.store.release_par, day, game)
                self._pars.pop((day, game), None)
                return
            await self.manager._db(self.store.save_par, day, game, got["par"], got)
            log.info("daily %s %s: par %s (%.1f s of CPU)", day, game, got["par"], got["cpu"])
        except Exception as exc:
            log.error("daily %s %s: could not store the par (%s)", day, game,
                      type(exc).__name__)
            self._pars.pop((day, game), None)

    async def compute_par(self, game: str, setup: Setup, seed: int) -> dict[str, Any]:
        """The par, in an analysis worker (never on the event loop)."""
        result: dict[str, Any] = await self.manager.analysis.run(
            par_in_worker, game, setup.options, seed, setup.seat, setup.expert, setup.level,
            deadline=None)
        return result

    # -- results and the board --------------------------------------------------------------
    def _changed(self, table: LiveTable) -> None:
        if not table.state.is_terminal:
            return
        extra = table.row.extra
        if "daily" in extra and not extra.get("daily_scored"):
            extra["daily_scored"] = True
            humans = [i for i, s in enumerate(table.row.seats) if s.kind == "human"]
            returns = [float(r) for r in table.state.returns()]
            score = margin(returns, humans[0])
            asyncio.get_running_loop().create_task(self._db_quietly(
                self.store.finish_attempt, table.id, score, returns))

    async def _db_quietly(self, fn: Callable[..., Any], *args: Any) -> None:
        try:
            await self.manager._db(fn, *args)
        except Exception as exc:
            log.error("daily: could not store a result (%s)", type(exc).__name__)

    async def board(self, game: Any, key: str | None, day: str | None = None) -> dict[str, Any]:
        """The board of a day's deal: every finished result with its match points and its
        difference from the par. Today's opens only after the player's own attempt is over;
        a past day's shows its seed too."""
        self.setup(game)
        game = str(game)
        today = self.clock()
        day = today if day is None else day
        if not _is_day(day) or day > today:
            raise WebError("bad_request")
        player = await self._player(key) if key else None
        attempts = await self.manager._db(self.store.attempts, day, game)
        mine = next((a for a in attempts if player and a.player == player), None)
        if day == today and (mine is None or mine.finished is None):
            raise WebError("daily_locked")
        par_row = await self.manager._db(self.store.par, day, game)
        if par_row is None:
            self.ensure_par(day, game)
        par = par_row.par if par_row is not None and par_row.status == "done" else None
        done = [a for a in attempts if a.finished is not None and a.score is not None]
        points = match_points([float(a.score or 0.0) for a in done])
        rows = []
        for a, mp in sorted(zip(done, points, strict=True),
                            key=lambda p: (-(p[0].score or 0.0), p[0].finished or 0.0)):
            rows.append(_board_row(a, mp, par, mine))
        out: dict[str, Any] = {"day": day, "game": game, "par": par, "results": rows,
                               "level": SETUPS[game].level, "expert": SETUPS[game].expert,
                               "over": day < today}
        if day < today:
            out["seed"] = str(await self.seed(day, game))
        return out

    # -- challenges -------------------------------------------------------------------------
    async def challenge(self, table_id: Any, token: Any) -> dict[str, Any]:
        """A challenge link for a finished game of one person against computers (the same
        link when asked again)."""
        table = await self.manager.finished(table_id)
        seat = table.seat_of_token(token)
        if seat is None:
            raise WebError("bad_token")
        if not table.state.is_terminal:
            raise WebError("not_finished")
        humans = [i for i, s in enumerate(table.row.seats) if s.kind == "human"]
        extra = table.row.extra
        if len(humans) != 1 or not extra.get("fixed") or "room" in extra:
            raise WebError("challenge_none")
        if withheld(table, self.clock()):
            raise WebError("challenge_none")
        # The token is derived (not stored): asking again gives the same link.
        secret = (await self._secret()).encode()
        made = hmac.new(secret, f"challenge/{table.id}".encode(), hashlib.sha256).digest()
        challenge = _b64(made[:18])
        existing = await self.manager._db(self.store.challenge_for_table, table.id)
        if existing is None:
            await self.manager._db(self.store.add_challenge, table.id, table.row.owner or "",
                                   hash_token(challenge))
        return {"challenge": challenge}

    async def _challenge_row(self, token: Any) -> Any:
        if not isinstance(token, str) or not 0 < len(token) <= 100:
            raise WebError("challenge_none")
        row = await self.manager._db(self.store.challenge, hash_token(token))
        if row is None:
            raise WebError("challenge_none")
        return row

    async def challenge_info(self, token: Any, key: str | None) -> dict[str, Any]:
        """What the link shows before playing: the game, the challenger, who is who."""
        row = await self._challenge_row(token)
        table = await self.manager.finished(row.table_id)
        player = await self._player(key) if key else None
        me = "challenger" if player and player == row.challenger else \
            "friend" if player and player == row.friend else None
        friend_done = False
        if row.friend_table:
            friend_done = (await self.manager.finished(row.friend_table)).state.is_terminal
        human = next(i for i, s in enumerate(table.row.seats) if s.kind == "human")
        return {"game": table.row.game, "challenger": table.row.seats[human].name,
                "level": next((s.level for s in table.row.seats if s.kind == "computer"), ""),
                "started": row.friend_table is not None, "done": friend_done, "me": me,
                "friend_table": row.friend_table if me == "friend" else None}

    async def accept(self, token: Any, key: str | None, address: str | None,
                     name: Any = None) -> dict[str, Any]:
        """The friend starts the challenge: the same deals at the same seat against the
        same levels (the seed never leaves the server)."""
        row = await self._challenge_row(token)
        if row.friend_table is not None:
            raise WebError("challenge_taken")
        table = await self.manager.finished(row.table_id)
        if key and await self._player(key) == row.challenger:
            raise WebError("challenge_own")
        human = next(i for i, s in enumerate(table.row.seats) if s.kind == "human")
        levels = {s.level for s in table.row.seats if s.kind == "computer"}
        options = dict(table.row.options)
        if options.get("level") == "streak" and levels:
            # A streak game is offered as a practice game at the level it was played at.
            options["level"] = next(iter(levels))
        data: dict[str, Any] = {"game": table.row.game, "options": options,
                                "seed": table.row.seed, "humans": [human],
                                "level": next(iter(levels)) if levels else "random"}
        if name is not None:
            data["name"] = name
        out = await self.manager.create(data, address, key,
                                        marks={"challenge": row.id, "fixed": True})
        if not await self.manager._db(self.store.set_friend, row.id, out["player"]["id"],
                                      out["table"]):
            await self.manager._db(self.manager.storage.update_header, out["table"],
                                   "abandoned")
            raise WebError("challenge_taken")
        return out

    async def comparison(self, token: Any, key: str | None) -> dict[str, Any]:
        """Both games side by side, decision by decision, once both are over (to the
        challenger and the friend only); ``pending`` while the review runs."""
        row = await self._challenge_row(token)
        player = await self._player(key) if key else None
        if player is None or player not in (row.challenger, row.friend):
            raise WebError("challenge_not_yours")
        if row.comparison is not None:
            return {"status": "ready", **row.comparison}
        if row.friend_table is None:
            return {"status": "waiting"}
        mine = await self.manager.finished(row.table_id)
        theirs = await self.manager.finished(row.friend_table)
        if not (mine.state.is_terminal and theirs.state.is_terminal):
            return {"status": "waiting"}
        running = self._compares.get(row.id)
        if running is None or running.done():
            self._compares[row.id] = asyncio.get_running_loop().create_task(
                self._compare(row.id, mine, theirs))
        return {"status": "pending"}

    async def _compare(self, cid: str, first: LiveTable, second: LiveTable) -> None:
        try:
            sides = []
            for table in (first, second):
                seat = next(i for i, s in enumerate(table.row.seats) if s.kind == "human")
                record = GameRecord.of(table.state)
                plan = decisions_of(record, seat)[:COMPARE_DECISIONS]
                verdicts = await self.manager.analysis.run(
                    compare_in_worker, record.to_json(), seat, plan, COMPARE_SECONDS,
                    deadline=max(30.0, 2 * COMPARE_SECONDS * len(plan) + 10))
                by_index = {d["index"]: d for d in verdicts if "index" in d}
                steps = []
                for i, (state, s, action) in enumerate(record.replay()):
                    if s != seat:
                        continue
                    d = by_index.get(i)
                    steps.append({"index": i, "text": state.action_text(action),
                                  "mark": d.get("mark") if d else None,
                                  "best": d.get("best_text") if d else None,
                                  "loss": d.get("loss") if d else None})
                returns = [float(r) for r in table.state.returns()]
                sides.append({"name": table.row.seats[seat].name, "seat": seat,
                              "returns": returns, "margin": margin(returns, seat),
                              "steps": steps})
            comparison = {"game": first.row.game, "sides": sides,
                          "reviewed": COMPARE_DECISIONS}
            await self.manager._db(self.store.save_comparison, cid, comparison)
        except Exception as exc:
            log.error("challenge %s: the comparison failed (%s)", cid, type(exc).__name__)


def _board_row(a: Attempt, mp: float, par: float | None, mine: Attempt | None) -> dict[str, Any]:
    return {"name": a.name, "tag": a.player[:4], "score": a.score, "match_points": mp,
            "vs_par": None if par is None else (a.score or 0.0) - par,
            "me": mine is not None and a.player == mine.player}


def _is_day(day: str) -> bool:
    try:
        dt.date.fromisoformat(day)
    except ValueError:
        return False
    return len(day) == 10


def _b64(raw: bytes) -> str:
    import base64

    return base64.urlsafe_b64encode(raw).decode().rstrip("=")
