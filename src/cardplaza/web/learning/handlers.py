"""Learning from the computer at the table: hints, undo, decision helpers, game records,
the replay viewer's frames, the post-game review and statistics.

WebSocket messages (registered with :func:`cardplaza.web.live.session.handler`):

* ``{"type": "hint"}`` → ``{"type": "hint", "step", "best", "best_text", "choices":
  [{"action", "text", "value", "share"?, "facts"?}], "reason": {"en", "ja"}, "unit",
  "kind", "worlds", "exact", "helps"}``: the expert's suggestion for the seat to act,
  computed from that seat's observation in a worker process with a deadline. Only at the
  seat's own turn (``not_your_turn``), never in a two-hand streak game
  (``no_help_in_streak``); a ``table``/``token`` riding along must be the joined seat's.
* ``{"type": "undo"}`` → the table goes back to the seat's previous decision (its log is
  cut in one transaction, every seat gets its view); the deal stays, the computers may then
  play differently. Refused in a streak game, when there is nothing to take back, once the
  game is over (``game_over``: a result and its statistics are never rewritten) and past a
  step that brought cards to light (``undo_revealed``: a deal, a draw, cards passed, melds
  shown). At a table with several people it is a request the others answer
  (:mod:`.undo_requests`).
* Hints and the helper are refused (``hints_off``) at a room's table whose host turned
  them off.
* ``{"type": "helper"}`` → ``{"type": "helper", "step", "table": {...} | null}``: the bid
  odds per trump suit during a Pinochle auction, the best discards at a Piquet exchange,
  the melds compared in two-hand Pinochle.
* ``{"type": "review"}`` (finished game) → ``{"type": "review_progress", "done", "total"}``
  as the decisions are analysed, then ``{"type": "review", "review": {...}}``.

HTTP (see :func:`add_routes`): ``GET /api/tables/{id}/download`` (``X-Seat-Token``) → once
the game is over, the whole game record that ``cardplaza replay`` reads; while it runs, only
what the seat has seen (``cardplaza-view/1``: no seed, no hidden card);
``GET /api/tables/{id}/replay`` → the replay viewer's frames: every hand face up once the
game is over, only the seat's own view while it runs; ``POST /api/replay`` ``{record}`` →
the frames of an uploaded record;
``GET /api/stats`` (``X-Player-Key``) → the player's statistics per game.

Hints and undos used are counted per table (``helps`` in the table's state message); the
result screen shows them.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from cardplaza.ai.advice import Effort, forms_state
from cardplaza.ai.analysis import (
    ANALYSIS_SECONDS,
    Analysis,
    AnalysisCache,
    analyse,
    position_key,
    position_seed,
    table_base,
)
from cardplaza.ai.review import Review, marks_text, review_decision_json, review_positions
from cardplaza.core.history import GameRecord
from cardplaza.core.protocol import Action, GameState
from cardplaza.core.registry import get_game
from cardplaza.texts.catalog import reason_texts
from cardplaza.web.errors import WebError
from cardplaza.web.learning import undo_requests
from cardplaza.web.learning.common import count_help, helps, my_seat
from cardplaza.web.live.session import Session, handler
from cardplaza.web.live.tables import LiveTable

if TYPE_CHECKING:
    pass

log = logging.getLogger("cardplaza.web")

HINT_DEADLINE = 5.0
"""Seconds a hint may take in its worker before the server gives up (the search itself
stops at :data:`~cardplaza.ai.analysis.ANALYSIS_SECONDS`)."""
HELPER_DEADLINE = 5.0
REVIEW_DEADLINE = 6.0
REVIEW_CACHE = 64
"""Finished reviews kept in memory (by table)."""

_reviews: OrderedDict[str, dict[str, Any]] = OrderedDict()
_running: dict[str, asyncio.Task[None]] = {}


# -- worker functions (module level, picklable arguments) ----------------------------------

def analysis_in_worker(game: str, observation: dict[str, Any], legal: list[Action],
                       base: str, seat: int, step: int, seconds: float) -> Analysis:
    """The analysis of a position (the hint's message made too), in a worker process: the
    same seeded function the review uses for the positions no hint looked at."""
    made = analyse(game, observation, legal, position_seed(base, seat, step, observation),
                   seat=seat, step=step, effort=Effort(1.0, seconds))
    if made.evaluation is not None:
        h = made.hint()
        out = h.to_json(forms_state(game, observation))
        out["reason"] = reason_texts(h.reason)
        made.forms["hint"] = out
    return made


def review_in_worker(record: dict[str, Any], seat: int, index: int, seconds: float,
                     base: str, analysis: Analysis | None) -> dict[str, Any] | None:
    """One reviewed decision (``None`` if it turned out not to be a real choice), graded by
    the position's analysis when a hint or helper made one."""
    return review_decision_json(GameRecord.from_json(record), seat, index, seconds, base,
                                analysis=analysis)


def analyses_of(session: Session, table: LiveTable) -> AnalysisCache:
    """The table's kept analyses (made on first use, ``analysis_cache_positions`` big)."""
    if table.analyses is None:
        table.analyses = AnalysisCache(session.manager.settings.analysis_cache_positions)
    return table.analyses


async def position_analysis(session: Session, table: LiveTable, seat: int,
                            legal: list[Action], deadline: float) -> Analysis:
    """The analysis of ``seat``'s position now: from the table's cache, else computed in the
    analysis workers and kept (a hint or helper asked twice shows the same numbers). Only
    that seat's observation goes in, and the key holds the seat."""
    state = table.state
    step = len(state.history)
    obs = state.observation(seat)
    cache = analyses_of(session, table)
    found = cache.get(position_key(seat, step, obs))
    if found is not None and (found.evaluation is not None or not legal):
        return found
    spend_analysis(session)
    try:
        made: Analysis = await session.manager.run_analysis(
            analysis_in_worker, table.row.game, obs, legal, table_base(table.id), seat, step,
            ANALYSIS_SECONDS, deadline=_limit(deadline))
    except WebError:
        raise
    except Exception as exc:
        log.info("table %s: an analysis failed (%s)", table.id, type(exc).__name__)
        raise WebError("hint_failed") from None
    if len(table.state.history) != step:
        raise WebError("stale")
    cache.put(made)
    return made


# -- helpers --------------------------------------------------------------------------------

def _limit(seconds: float) -> float:
    """A deadline read when it is needed (tests lengthen them)."""
    return seconds


def is_streak(table: LiveTable) -> bool:
    """True for a two-hand streak game (no hints, helpers or undo)."""
    return bool(table.row.extra.get("streak_player") or "streak" in table.row.extra)


def no_help(table: LiveTable) -> None:
    """Hints, helpers and undo are refused in a streak game and in a daily deal (whose
    results are compared with everyone else's)."""
    if is_streak(table):
        raise WebError("no_help_in_streak")
    if "daily" in table.row.extra:
        raise WebError("daily_no_help")


def hints_off(table: LiveTable) -> bool:
    """True at a room's table whose host turned hints and the helper off."""
    room = table.row.extra.get("room")
    return isinstance(room, dict) and room.get("hints") is False


def undo_point(state: GameState, seat: int) -> int:
    """How many actions stay when ``seat`` takes back its last decision: the index of that
    decision. ``nothing_to_undo`` without one; ``undo_revealed`` when a step since then
    brought cards to light (a deal, a draw, cards passed, melds shown: see
    :meth:`~cardplaza.core.protocol.GameState.brings_to_light`), which would then be known
    before the decision."""
    found = decisions_of(state, seat)
    if not found:
        raise WebError("nothing_to_undo")
    keep = found[-1]
    spec = get_game(state.game_name)
    replay = spec.new_game(state.options, state.seed)
    for i, (_s, a) in enumerate(state.history):
        if i < keep:
            replay.apply(a)
            continue
        before = replay.clone()
        replay.apply(a)
        if replay.brings_to_light(before):
            raise WebError("undo_revealed")
    return keep


def spend_analysis(session: Session) -> None:
    """A hint, helper or review out of the client's budgets (its address's and its
    player's: ``too_many_requests``) and the server's (``analysis_busy``)."""
    budgets = session.manager.budgets
    if not budgets.allow("hints", session.address_key, session.player_key()):
        raise WebError("too_many_requests")
    if not budgets.take("analysis", "server", "all"):
        raise WebError("analysis_busy")


def decisions_of(state: GameState, seat: int) -> list[int]:
    """Indices of ``seat``'s decisions in the history (actions with a real choice)."""
    spec = get_game(state.game_name)
    replay = spec.new_game(state.options, state.seed)
    out = []
    for i, (s, a) in enumerate(state.history):
        if s == seat and len(replay.legal_actions()) > 1:
            out.append(i)
        replay.apply(a)
    return out


# -- WebSocket handlers ------------------------------------------------------------------------

@handler("hint")
async def on_hint(session: Session, msg: dict[str, Any]) -> None:
    """The expert's suggestion for the joined seat, when it is to act."""
    table, seat = my_seat(session, msg)
    no_help(table)
    if hints_off(table):
        raise WebError("hints_off")
    state = table.state
    if state.is_terminal:
        raise WebError("game_over")
    if state.current_player != seat:
        raise WebError("not_your_turn")
    step = len(state.history)
    analysis = await position_analysis(session, table, seat, list(state.legal_actions()),
                                       HINT_DEADLINE)
    out = analysis.forms.get("hint")
    if out is None:
        raise WebError("hint_failed")
    used = await count_help(session, table, "hint")
    session.send({"type": "hint", "step": step, **out, "helps": used})


@handler("helper")
async def on_helper(session: Session, msg: dict[str, Any]) -> None:
    """The decision helper's table for the joined seat (``table: null`` where none)."""
    table, seat = my_seat(session, msg)
    no_help(table)
    if hints_off(table):
        raise WebError("hints_off")
    state = table.state
    step = len(state.history)
    obs = state.observation(seat)
    mine = not state.is_terminal and state.current_player == seat
    if not mine and obs.get("phase") != "bidding":
        session.send({"type": "helper", "step": step, "table": None})
        return
    legal = list(state.legal_actions()) if mine else []
    out = (await position_analysis(session, table, seat, legal, HELPER_DEADLINE)).helper
    if out is not None:
        await count_help(session, table, "helper")
    session.send({"type": "helper", "step": step, "table": out})


@handler("undo")
async def on_undo(session: Session, msg: dict[str, Any]) -> None:
    """Back to the joined seat's previous decision: only while the game runs and never past
    a step that brought cards to light; at a table with several people, a request the others
    must accept (another person's moves are never taken back without their yes)."""
    table, seat = my_seat(session, msg)
    no_help(table)
    if table.row.seats[seat].kind != "human":
        raise WebError("not_your_seat")
    if table.state.is_terminal or table.row.status != "playing":
        raise WebError("game_over")
    step = len(table.state.history)
    keep = await asyncio.to_thread(undo_point, table.state.clone(), seat)
    if undo_requests.several_people(table):
        if not isinstance(table.row.extra.get("room"), dict):
            # Several people at a table made without a room: nobody can answer a request.
            raise WebError("undo_not_alone")
        await undo_requests.ask(session, table, seat, keep, step, undo_point)
        return
    await count_help(session, table, "undo")
    await session.manager.rewind(table, keep, step)
    session.send({"type": "undone", "step": keep, "from": step, "helps": helps(table)})


@handler("review")
async def on_review(session: Session, msg: dict[str, Any]) -> None:
    """The review of the joined seat's decisions in a finished game, with progress."""
    table, seat = my_seat(session, msg)
    if not table.state.is_terminal:
        raise WebError("not_finished")
    record = GameRecord.of(table.state).to_json()
    # The review of exactly this game: a table whose history changed is reviewed anew.
    played = hashlib.sha256(json.dumps(record["actions"], separators=(",", ":"))
                            .encode()).hexdigest()[:32]
    key = f"{table.id}/{seat}/{played}"
    done = _reviews.get(key)
    if done is not None:
        session.send({"type": "review", "review": done})
        return
    running = _running.get(key)
    if running is not None and not running.done():
        return  # its progress and result go to every client of the seat
    spend_analysis(session)
    _running[key] = asyncio.get_running_loop().create_task(
        _review(session, table, seat, record, key))


async def _review(session: Session, table: LiveTable, seat: int, record: dict[str, Any],
                  key: str) -> None:
    """Analyse the decisions one by one in the workers, telling the seat's clients."""
    try:
        plan = await asyncio.to_thread(review_positions, GameRecord.from_json(record), seat)
        total = len(plan)
        decisions: list[dict[str, Any]] = []
        cache = analyses_of(session, table)
        _tell(table, seat, {"type": "review_progress", "done": 0, "total": total})
        for n, (index, position) in enumerate(plan, start=1):
            shown = cache.get(position)
            try:
                d = await _analyse_patiently(session, review_in_worker, record, seat, index,
                                             ANALYSIS_SECONDS, table_base(table.id), shown,
                                             deadline=_limit(REVIEW_DEADLINE))
            except Exception as exc:
                log.info("table %s: a review decision failed (%s)", table.id,
                         type(exc).__name__)
                d = None
            if d is not None:
                decisions.append(d)
            _tell(table, seat, {"type": "review_progress", "done": n, "total": total})
        out = Review.from_decisions(table.row.game, seat, decisions,
                                    len(record["actions"])).to_json()
        out["marks"] = marks_text(Review.thresholds_of(table.row.game, record), table.row.game)
        _reviews[key] = out
        while len(_reviews) > REVIEW_CACHE:
            _reviews.popitem(last=False)
        _tell(table, seat, {"type": "review", "review": out})
    finally:
        _running.pop(key, None)


async def _analyse_patiently(session: Session, fn: Any, *args: Any, deadline: float) -> Any:
    """A review's decision waits its turn while the analyses are all taken (a review is
    asked for once and runs on; a hint is refused instead)."""
    loop = asyncio.get_running_loop()
    until = loop.time() + deadline
    while True:
        try:
            return await session.manager.run_analysis(fn, *args, deadline=deadline)
        except WebError as exc:
            if exc.code != "analysis_busy" or loop.time() > until:
                raise
        await asyncio.sleep(0.25)


def _tell(table: LiveTable, seat: int, msg: dict[str, Any]) -> None:
    for client in list(table.sockets.get(seat, ())):
        client.send(msg)


__all__ = ["decisions_of", "helps"]
