"""Every error the server sends, by stable code; its texts are in the message catalog.

An error reaches a client as ``{"type": "error", "code", "message", "params"?}`` over the
WebSocket, or as ``{"error": message, "code", "params"?}`` with an HTTP status. ``message`` is
the catalog's English text of ``err.<code>`` (:mod:`cardplaza.texts.catalog`) with
``params`` filled in; the front end shows the same key in the player's language and may use
``params``. The codes of :data:`REASON_CODES` carry a rules reason written for players
(``reason``, the engine's English), which is then the message itself. No error carries
internal exception text.
"""

from __future__ import annotations

from typing import Any

from cardplaza.texts.catalog import catalog
from cardplaza.texts.catalog import text as catalog_text

CODES: tuple[str, ...] = (
    # -- messages and frames ------------------------------------------------------------
    "bad_json", "bad_message", "unknown_type", "missing_field", "too_large", "too_deep",
    "number_too_large", "binary_frame", "rate_limited", "internal",
    # -- tables and seats ---------------------------------------------------------------
    "unknown_table", "bad_token", "not_your_seat", "not_joined", "broken_table",
    "table_moved", "storage_failed", "server_busy", "too_many_tables",
    # -- play -----------------------------------------------------------------------------
    "game_over", "not_your_turn", "stale", "bad_action", "illegal", "bad_pace", "no_record",
    "no_help_in_streak", "nothing_to_undo", "hint_failed", "bad_record",
    # -- creating a table -------------------------------------------------------------------
    "bad_request", "body_too_large", "unknown_game", "bad_options", "bad_level",
    "bad_humans", "bad_seed", "bad_name", "bad_streak", "no_streak", "streak_seed",
    "streak_level", "streak_humans", "bad_key", "bad_again", "not_finished", "streak_again",
    "no_rules", "not_found",
    # -- budgets, undo and requests from elsewhere ------------------------------------------
    "too_many_requests", "undo_revealed", "undo_not_alone", "analysis_busy",
    "bad_content_type", "cross_site",
    # -- rooms ------------------------------------------------------------------------------
    "unknown_room", "bad_invite", "not_in_room", "not_host", "bad_seat", "seat_taken",
    "room_changed", "room_started", "room_closed", "seats_open", "bad_room",
    "too_many_rooms", "too_many_lookups", "room_again", "hints_off", "undo_pending",
    "no_undo_request",
    # -- ratings ----------------------------------------------------------------------------
    "unknown_player",
    # -- the daily deal and challenges --------------------------------------------------------
    "daily_played", "daily_locked", "daily_withheld", "daily_no_help", "challenge_none",
    "challenge_taken", "challenge_own", "challenge_not_yours",
    # -- watching, table talk, the next game ---------------------------------------------
    "spectator", "spectator_record", "bad_watch", "spectators_off", "bad_talk",
    "talk_limited",
)
"""Every code the server may send (each has ``err.<code>`` in every catalog)."""

REASON_CODES = frozenset({"illegal", "bad_options"})
"""Codes whose ``message`` is the rules reason they carry (``params["reason"]``)."""

ERRORS: dict[str, str] = {code: catalog("en")[f"err.{code}"] for code in CODES}
"""Code → English text (``{name}`` placeholders are the error's ``params``)."""

HTTP_STATUS: dict[str, int] = {
    "unknown_game": 404, "no_rules": 404, "not_found": 404, "unknown_table": 404,
    "body_too_large": 413, "rate_limited": 429, "too_many_tables": 429,
    "server_busy": 503, "no_record": 403, "bad_token": 403, "bad_key": 403,
    "internal": 500, "broken_table": 500, "storage_failed": 503,
    "too_many_requests": 429, "analysis_busy": 503, "bad_content_type": 415,
    "cross_site": 403, "unknown_room": 404, "bad_invite": 404, "not_in_room": 403, "not_host": 403,
    "seat_taken": 409, "room_changed": 409, "room_started": 409, "room_closed": 409,
    "too_many_rooms": 429, "too_many_lookups": 429, "unknown_player": 404,
    "daily_played": 409, "daily_locked": 403, "daily_withheld": 403, "challenge_none": 404,
    "challenge_taken": 409, "challenge_own": 409, "challenge_not_yours": 403,
    "spectator": 403, "spectator_record": 403, "bad_watch": 404, "spectators_off": 403,
    "talk_limited": 429,
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
    """The English text of a code with its parameters filled in (for the codes of
    :data:`REASON_CODES`, the reason)."""
    if code not in ERRORS:
        raise KeyError(f"error code {code!r} is not listed in cardplaza.web.errors")
    params = params or {}
    reason = params.get("reason")
    if code in REASON_CODES and isinstance(reason, str) and reason:
        return reason
    return catalog_text(f"err.{code}", "en", **params)


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
