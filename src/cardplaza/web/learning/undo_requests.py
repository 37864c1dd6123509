"""Undo at a table with several people: a request every other person answers.

* ``{"type": "undo"}`` (see :mod:`.handlers`) at such a table asks to go back to the asking
  seat's previous decision. Refused when the game is over (a finished game is never taken
  back) or another request waits. The asker gets ``{"type": "undo_asked"}``; every seat's
  state then carries the request (``room.undo``: who asks, who has yet to answer, seconds
  left), and nobody acts until it ends — so the table never passes back over a decision
  whose maker did not accept.
* ``{"type": "undo_answer", "accept": true|false}`` from each other person. The last yes
  takes the table back (the asker's clients get ``{"type": "undone"}``); a no ends it. The
  asker may withdraw with ``accept: false``. Every connection is told how a request ended:
  ``{"type": "undo_ended", "reason": "accepted"|"refused"|"withdrawn"|"lapsed"|"expired",
  "by", "seat"}``. A request not answered within ``undo_request_seconds`` lapses.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from cardplaza.core.protocol import GameState
from cardplaza.web.errors import WebError
from cardplaza.web.learning.common import count_help, helps, my_seat
from cardplaza.web.live.session import Session, handler
from cardplaza.web.live.tables import LiveTable
from cardplaza.web.live.together import attach_addon

__all__ = ["ask", "several_people"]


def several_people(table: LiveTable) -> bool:
    """True when more than one seat of the table is a person's."""
    return sum(1 for s in table.row.seats if s.kind == "human") > 1


async def ask(session: Session, table: LiveTable, seat: int, keep: int, step: int,
              point: Callable[[GameState, int], int]) -> None:
    """Start the request of ``seat`` to go back to action ``keep``, worked out by ``point``
    at step ``step``. Under the table's lock, so an action already on its way to the log is
    on the table before the request starts (and every later one waits for its end); when
    such an action moved the table past ``step``, the point is worked out again."""
    async with table.lock:
        if table.state.is_terminal:
            raise WebError("game_over")
        addon = attach_addon(session.manager, table)
        if addon is None:
            raise WebError("not_your_seat")
        if addon.undo is not None:
            raise WebError("undo_pending")
        if len(table.state.history) != step:
            keep = await asyncio.to_thread(point, table.state.clone(), seat)
        addon.ask_undo(seat, keep)
    session.send({"type": "undo_asked", "keep": keep})


@handler("undo_answer")
async def on_undo_answer(session: Session, msg: dict[str, Any]) -> None:
    """An answer to the waiting undo request (the asker's ``false`` withdraws it)."""
    table, seat = my_seat(session, msg)
    addon = attach_addon(session.manager, table)
    req = addon.undo if addon is not None else None
    if addon is None or req is None or req.done:
        raise WebError("no_undo_request")
    accept = msg.get("accept")
    if not isinstance(accept, bool):
        raise WebError("missing_field", field="accept")
    if seat == req.by:
        if accept:
            raise WebError("no_undo_request")
        addon.end_undo("withdrawn", seat)
        return
    if seat not in req.waiting:
        raise WebError("no_undo_request")
    if not accept:
        addon.end_undo("refused", seat)
        return
    req.waiting.discard(seat)
    req.accepted.add(seat)
    if req.waiting:
        session.manager.broadcast(table)
        return
    # Every answer is yes. The table stays paused while it is taken back.
    req.done = True
    step = len(table.state.history)
    try:
        await count_help(session, table, "undo")
        await session.manager.rewind(table, req.keep)
    finally:
        addon.end_undo("accepted", seat)
    addon.tell(req.by, {"type": "undone", "step": req.keep, "from": step,
                        "helps": helps(table)})
