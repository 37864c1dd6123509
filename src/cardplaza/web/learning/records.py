"""Game records for a seat: the download, the replay viewer's frames.

Once the game is over a record holds everything (seed included); while it runs, a seat's
record holds only what that seat has seen (``cardplaza-view/1``: no seed, no hidden card).
"""

from __future__ import annotations

from typing import Any

from cardplaza.core import delta
from cardplaza.core.fairness import fairness_block
from cardplaza.core.history import GameRecord
from cardplaza.core.options import options_to_dict
from cardplaza.core.protocol import GameState
from cardplaza.core.registry import get_game
from cardplaza.web.live.tables import LiveTable

MAX_REPLAY_ACTIONS = 5000
"""Actions of an uploaded record the replay viewer accepts."""


def download(table: LiveTable, seat: int) -> dict[str, Any]:
    """The game record for one seat: whole once the game is over; while it runs, only the
    seat's view (see :func:`view_record`). ``standins`` lists the actions a computer made
    for a person who was away; ``fairness`` holds each deal's commitment and the action
    log's digest (:mod:`cardplaza.core.fairness`), the seed itself only once it is over."""
    players = [{"name": s.name, "kind": s.kind, "level": s.level} for s in table.row.seats]
    record = GameRecord.of(table.state)
    if table.state.is_terminal:
        out = record.to_json()
        out["players"] = players
        out["seat"] = seat
    else:
        out = view_record(table.state, seat, players)
    out["fairness"] = fairness_block(table.id, record)
    if table.row.standins:
        # The actions a computer made for a person who was away (public at the table).
        out["standins"] = list(table.row.standins)
    return out


def view_record(state: GameState, seat: int, players: list[dict[str, str]]
                ) -> dict[str, Any]:
    """What a seat has seen of a running game: every action it could see, in order (its own
    in full, the others' as far as they were shown), and its observation now. No seed, no
    hidden card."""
    spec = get_game(state.game_name)
    replay = spec.new_game(state.options, state.seed)
    steps: list[dict[str, Any]] = []
    for s, a in state.history:
        text = replay.action_text(a)
        data = replay.action_to_json(a)
        hidden = replay.public_action(a, seat)
        replay.apply(a)
        if hidden is not None:
            steps.append({"seat": s, "action": None, "text": hidden, "hidden": True})
        else:
            steps.append({"seat": s, "action": data, "text": text})
    return {"format": VIEW_FORMAT, "game": state.game_name,
            "options": options_to_dict(state.options), "seat": seat, "players": players,
            "steps": steps, "observation": state.observation(seat)}


VIEW_FORMAT = "cardplaza-view/1"
"""The record of a running game as one seat saw it."""


def replay_frames(record: GameRecord, limit: int = 2000,
                  seat: int | None = None) -> dict[str, Any]:
    """The replay viewer's frames of a record: before the first action and after each one,
    every seat's observation (a finished game hides nothing), who acted and what. With
    ``seat``, only that seat's observations (the others are ``None``) and the others'
    hidden actions as that seat saw them: a running game reveals nothing."""
    state = record.new_state()
    n = state.num_players

    def views() -> list[dict[str, Any] | None]:
        return [state.observation(s) if seat is None or s == seat else None
                for s in range(n)]

    frames: list[dict[str, Any]] = [{"step": 0, "seat": None, "text": None,
                                     "views": views()}]
    for i, (actor, data) in enumerate(record.actions[:limit]):
        action = state.action_from_json(data)
        text = state.action_text(action)
        shown: Any = data
        if seat is not None:
            hidden = state.public_action(action, seat)
            if hidden is not None:
                text, shown = hidden, None
        state.apply(action)
        frames.append({"step": i + 1, "seat": actor, "text": text, "action": shown,
                       "views": views()})
    return {"game": record.game, "players": n, "frames": frames,
            "result": list(state.returns()) if state.is_terminal else None}


def frames_delta(frames: dict[str, Any]) -> dict[str, Any]:
    """The frames with each view sent as the change since the frame before (the state
    delta format of :mod:`cardplaza.core.delta`, which ``net.js`` rebuilds)."""
    out = []
    prev: list[dict[str, Any] | None] = [None] * frames["players"]
    for i, f in enumerate(frames["frames"]):
        views: list[dict[str, Any] | None] = []
        for s, obs in enumerate(f["views"]):
            if obs is None:
                views.append(None)
                continue
            msg = {"type": "state", "step": f["step"], "obs": obs}
            views.append(delta.encode(prev[s], msg, i + 1))
            prev[s] = {**msg, "n": i + 1}
        out.append({**f, "views": views})
    return {**frames, "frames": out, "delta": True}


__all__ = ["MAX_REPLAY_ACTIONS", "VIEW_FORMAT", "download", "frames_delta", "replay_frames",
           "view_record"]
