"""Table talk without abuse: preset phrases and emotes only, never free text.

A seat sends ``{"type": "talk", "say": <preset id>}``; everyone at the table (spectators
too) gets ``{"type": "talk", "seat", "say"}`` and shows it as a short-lived bubble at that
seat, in their own language (the catalog's ``talk.say.<id>``). Each person may mute another
seat in their browser. Spectators cannot talk; a seat talks at most ``talk_per_minute``
times a minute (:meth:`cardplaza.web.live.together.Together.talk`).
"""

from __future__ import annotations

from typing import Any

from cardplaza.web.errors import WebError
from cardplaza.web.live.session import Session, handler
from cardplaza.web.live.together import PHRASES, TALK_EMOTES, TALK_WORDS, together_of

__all__ = ["PHRASES", "TALK_EMOTES", "TALK_WORDS", "on_talk"]


@handler("talk")
async def on_talk(session: Session, msg: dict[str, Any]) -> None:
    """``{"type": "talk", "say"}`` → ``{"type": "talk", "seat", "say"}`` to everyone at a
    room's table."""
    table, seat = session.place()
    addon = together_of(table)
    if addon is None:
        raise WebError("not_in_room")
    addon.talk(seat, msg.get("say"))
