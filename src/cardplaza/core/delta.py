"""State messages as changes: what a client needs now, the append-only parts appended.

A connection's first state message (after ``join`` or a ``state`` request) is whole. Every
later one is a *delta* against the previous message on that connection::

    {"type": "state", "delta": 1, "n": 8, "base": 7, "step": 31,
     <top-level fields that changed>, "drop": [<top-level fields now absent>],
     "obs": {"set": {<observation keys that changed>}, "add": {<key>: [<new entries>]},
             "drop": [<observation keys now absent>]}}

A list in the observation that only grew (the hand's tricks, the auction, the history of
hands) is sent as its new entries under ``add``; anything else that changed is sent whole
under ``set``; what did not change is not sent. :func:`rebuild` (used by the server's
tests and the terminal's network client; ``net.js`` in the browser does the same) turns a
delta back into the whole message, so message handlers always see whole observations.
``n`` counts the state messages of a connection; a delta whose ``base`` is not the last
``n`` seen is ignored by the client, which then asks for ``{"type": "state"}``.
"""

from __future__ import annotations

from typing import Any

ALWAYS = ("type", "step", "n")
"""Top-level fields every state message carries."""
_NOT_COMPARED = frozenset((*ALWAYS, "obs"))
_OWN = frozenset(("n", "delta", "base"))
"""A delta's own fields (never dropped)."""
_ABSENT: Any = object()
"""Stands for a field a message does not have (never equal to any value)."""


def encode(prev: dict[str, Any] | None, msg: dict[str, Any], n: int) -> dict[str, Any]:
    """The message to send for ``msg`` (a whole state message) after ``prev``."""
    if prev is None:
        return {**msg, "n": n}
    out: dict[str, Any] = {"type": "state", "delta": 1, "n": n, "base": prev["n"],
                           "step": msg["step"]}
    before = prev.get
    for key, value in msg.items():
        if key in _NOT_COMPARED:
            continue
        old = before(key, _ABSENT)
        if old is not value and old != value:
            out[key] = value
    dropped = [k for k in prev if k not in msg and k not in _OWN]
    if dropped:
        out["drop"] = dropped
    out["obs"] = _obs_delta(prev.get("obs") or {}, msg.get("obs") or {})
    return out


def _obs_delta(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    sets: dict[str, Any] = {}
    adds: dict[str, list[Any]] = {}
    was = old.get
    for key, value in new.items():
        before = was(key, _ABSENT)
        if before is value or before == value:
            continue
        if (type(value) is list and type(before) is list and before
                and len(value) > len(before) and value[:len(before)] == before):
            adds[key] = value[len(before):]
        else:
            sets[key] = value
    out: dict[str, Any] = {}
    if sets:
        out["set"] = sets
    if adds:
        out["add"] = adds
    dropped = [k for k in old if k not in new]
    if dropped:
        out["drop"] = dropped
    return out


def rebuild(prev: dict[str, Any] | None, msg: dict[str, Any]) -> dict[str, Any]:
    """The whole state message a received one stands for (``prev``: the last rebuilt)."""
    if not msg.get("delta"):
        return dict(msg)
    if prev is None or prev.get("n") != msg.get("base"):
        raise ValueError("a state delta arrived without the message it builds on")
    out = {k: v for k, v in prev.items() if k not in msg.get("drop", ())}
    for key, value in msg.items():
        if key in ("delta", "base", "drop", "obs"):
            continue
        out[key] = value
    obs = dict(prev.get("obs") or {})
    change = msg.get("obs") or {}
    for key in change.get("drop", ()):
        obs.pop(key, None)
    obs.update(change.get("set", {}))
    for key, entries in change.get("add", {}).items():
        obs[key] = list(obs.get(key) or []) + list(entries)
    out["obs"] = obs
    return out
