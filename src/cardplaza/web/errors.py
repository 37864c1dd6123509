"""Every error the server sends, by stable code, with its English text.

An error reaches a client as ``{"type": "error", "code", "message", "params"?}`` over the
WebSocket, or as ``{"error": message, "code", "params"?}`` with an HTTP status. ``message`` is
the English text below with ``params`` filled in; the front end maps each code to its own
English and Japanese text and may use ``params``. No error carries internal exception text:
the only free text a client sees is a rules reason written for players (``reason``).
"""

from __future__ import annotations

from typing import Any

ERRORS: dict[str, str] = {
    # -- messages and frames ------------------------------------------------------------
    "bad_json": "the message is not valid JSON",
    "bad_message": "a message is a JSON object with a known 'type'",
    "unknown_type": "unknown message type {type}",
    "missing_field": "this message needs a '{field}'",
    "too_large": "message too large (at most {limit} bytes)",
    "too_deep": "the message is nested too deeply (at most {limit} levels)",
    "number_too_large": "a number in the message is too large",
    "binary_frame": "binary messages are not accepted; send JSON text",
    "rate_limited": "too many messages; slow down",
    "internal": "something went wrong on the server; please try again",
    # -- tables and seats ---------------------------------------------------------------
    "unknown_table": "no such table",
    "bad_token": "that seat token is not valid for this table",
    "not_your_seat": "that seat token is not yours",
    "not_joined": "join a table first",
    "broken_table": "this table cannot be restored",
    "table_moved": "this table is being moved to another server; reconnect to continue",
    "storage_failed": "the move could not be saved; please try again",
    "server_busy": "the server is full right now; please try again later",
    "too_many_tables": "too many open tables from here (at most {limit})",
    "too_many_requests": "too many requests from here; please wait a moment",
    # -- play -----------------------------------------------------------------------------
    "game_over": "the game is over",
    "not_your_turn": "it is not your turn",
    "stale": "the table has moved on; your view is being refreshed",
    "bad_action": "that is not an action of this game",
    "illegal": "{reason}",
    "bad_pace": "pace is one of {choices}",
    "no_record": "the record of a game can be read only by its seats after it ends",
    "no_help_in_streak": "no hints, helpers or undo in a streak game: its saved score must "
                         "stay honest",
    "nothing_to_undo": "nothing to undo: you have not made a decision yet",
    "undo_revealed": "cards have come to light since your last decision: it cannot be "
                     "taken back",
    "undo_not_alone": "undo is only for a table where you play alone: it would take back "
                      "other people's moves",
    "hint_failed": "the expert could not finish in time; please try again",
    "analysis_busy": "the expert is busy with other questions right now; please try again "
                     "in a moment",
    "bad_record": "that is not a Card Plaza game record that replays",
    # -- creating a table -------------------------------------------------------------------
    "bad_request": "the request must be a JSON object",
    "bad_content_type": "send the request as JSON (Content-Type: application/json)",
    "cross_site": "requests that change something must come from this site's own pages",
    "body_too_large": "the request body is too large (at most {limit} bytes)",
    "unknown_game": "unknown game {game}",
    "bad_options": "{reason}",
    "bad_level": "unknown level {level}; levels: {levels}",
    "bad_humans": "humans must list distinct seats 0–{last}",
    "bad_seed": "seed must be a whole number from 0 to 2^128 − 1",
    "bad_name": "the player name must be text of at most {limit} letters, without "
                "control or invisible characters",
    "bad_streak": "streak must be 'new' or 'next'",
    "no_streak": "{game} has no winning streak",
    "streak_seed": "a streak game is dealt by the server: no seed may be chosen",
    "streak_level": "a streak game uses the level ladder (option level=streak), not a fixed "
                    "practice level",
    "streak_humans": "a streak game has exactly one player at the table",
    "bad_key": "that player key is not known here",
    "bad_again": "again must be {{\"table\": id, \"token\": token}}",
    "not_finished": "that game is not finished yet",
    "streak_again": "a streak game goes on with streak: next",
    "no_rules": "no rules page for {game}",
    # -- playing with friends --------------------------------------------------------------
    "unknown_room": "no such room",
    "bad_invite": "that invite link or room code is not valid (it may have expired or been "
                  "revoked)",
    "not_in_room": "only the people seated in a room can see it",
    "not_host": "only the host can do that",
    "bad_seat": "seats are numbered 0–{last}",
    "seat_taken": "that seat is taken; choose another",
    "room_changed": "the room changed at the same moment; please try again",
    "room_started": "the game of this room has started",
    "room_closed": "this room is closed",
    "seats_open": "seats {seats} wait for a friend: fill them with computers or wait",
    "bad_room": "{reason}",
    "too_many_rooms": "too many rooms made from here (at most {limit})",
    "too_many_lookups": "too many invite or code look-ups; wait a minute",
    "room_again": "a game with friends goes on from its room",
    "hints_off": "hints and the bid helper are off at this table (the host's choice)",
    "undo_pending": "an undo request waits for the others' answers",
    "no_undo_request": "there is no undo request to answer",
    "not_found": "not found",
}
"""Code → English text (``str.format`` fields are the error's ``params``)."""

HTTP_STATUS: dict[str, int] = {
    "unknown_game": 404, "no_rules": 404, "not_found": 404, "unknown_table": 404,
    "body_too_large": 413, "rate_limited": 429, "too_many_tables": 429,
    "too_many_requests": 429, "analysis_busy": 503, "bad_content_type": 415,
    "cross_site": 403,
    "server_busy": 503, "no_record": 403, "bad_token": 403, "bad_key": 403,
    "internal": 500, "broken_table": 500, "storage_failed": 503,
    "unknown_room": 404, "bad_invite": 404, "not_in_room": 403, "not_host": 403,
    "seat_taken": 409, "room_changed": 409, "room_started": 409, "room_closed": 409,
    "too_many_rooms": 429, "too_many_lookups": 429,
}
"""HTTP status of codes that are not a plain 400."""


class WebError(Exception):
    """A request the server refuses: a code of :data:`ERRORS` and its parameters."""

    def __init__(self, code: str, **params: Any) -> None:
        if code not in ERRORS:
            raise KeyError(f"error code {code!r} is not listed in cardplaza.web.errors")
        self.code = code
        self.params = params
        self.message = text(code, params)
        super().__init__(self.message)

    def to_message(self) -> dict[str, Any]:
        """The WebSocket message."""
        return error_message(self.code, **self.params)

    @property
    def status(self) -> int:
        """The HTTP status for this error."""
        return HTTP_STATUS.get(self.code, 400)


def text(code: str, params: dict[str, Any] | None = None) -> str:
    """The English text of a code with its parameters filled in."""
    template = ERRORS[code]
    try:
        return template.format(**(params or {}))
    except (KeyError, IndexError):
        return template


def error_message(code: str, **params: Any) -> dict[str, Any]:
    """``{"type": "error", "code", "message", "params"?}`` for a code of :data:`ERRORS`."""
    if code not in ERRORS:
        raise KeyError(f"error code {code!r} is not listed in cardplaza.web.errors")
    msg: dict[str, Any] = {"type": "error", "code": code, "message": text(code, params)}
    if params:
        msg["params"] = params
    return msg


def http_body(code: str, **params: Any) -> dict[str, Any]:
    """The JSON body of an HTTP error response."""
    body: dict[str, Any] = {"error": text(code, params), "code": code}
    if params:
        body["params"] = params
    return body
