"""Provably fair deals: commitments to the deal seed, a digest of the action log, and the
check of a finished game's record.

How a server uses it: a game's seed is drawn once, before the first deal, from the
operating system's random source. Before a seat (or anyone watching) sees a deal, the
server sends that deal's **commitment**, and with every acknowledged action the **log
digest** so far. When the game is over the record reveals the seed; :func:`verify` then
recomputes every commitment, replays the engine through every action (each must be legal),
checks that the engine starts each deal at the step the record says, that the log digest
and the result come out as recorded.

Canonical encodings (UTF-8 bytes of compact JSON: no spaces, object keys sorted, text not
escaped beyond what JSON requires — ``json.dumps(value, separators=(",", ":"),
sort_keys=True, ensure_ascii=False)``):

* commitment of deal ``k`` (from 1) at table ``T`` with game seed ``S``:
  ``SHA-256(["cardplaza-deal/1", T, k, "S"])`` as lowercase hex, the seed written as a
  decimal string. One seed deals the whole game (a game of several deals draws each deal
  from the same seeded generator), so every commitment binds that same seed: from the
  first on, no later deal can change. The seed has 128 bits, so a commitment cannot be
  turned back into it before it is revealed.
* log digest: ``D0 = SHA-256(["cardplaza-log/1", T, C1])`` (``C1`` the first deal's
  commitment), then for each action ``D = SHA-256(["cardplaza-log/1", D_prev, seat,
  action])`` with the action in its JSON form; all as lowercase hex. A record whose
  actions were changed, removed or reordered no longer gives the digest the players were
  shown at the table.

Pure: no I/O; used by the terminal (``cardplaza verify``), the web server and its check
endpoint alike.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import orjson

from cardplaza.core.history import FORMAT, GameRecord
from cardplaza.core.protocol import JSON, GameState
from cardplaza.core.registry import get_game

SCHEME = "cardplaza-fair/1"
FAIL_CODES = ("not_record", "no_commitments", "commitment", "after_end", "wrong_seat",
              "illegal", "uncommitted", "deal_step", "extra_deal", "unfinished", "log",
              "result")
"""Every ``code`` a failed :func:`verify` gives (catalog keys ``fair.fail.<code>``)."""
DEAL_TAG = "cardplaza-deal/1"
LOG_TAG = "cardplaza-log/1"


_CANONICAL = json.JSONEncoder(separators=(",", ":"), sort_keys=True, ensure_ascii=False)
"""The encoder that defines :func:`canonical`, made once (``json.dumps`` with these options
builds a new one on every call)."""


def _no_floats(value: Any) -> bool:
    """True when ``value`` holds only text, whole numbers, booleans, ``None``, lists and
    objects — the values orjson writes byte for byte as :data:`_CANONICAL` does (numbers
    with a fraction or exponent it writes in another form, so they take the slower way)."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return True
    if kind is list or kind is tuple:
        return all(_no_floats(v) for v in value)
    if kind is dict:
        return all(_no_floats(v) for v in value.values())
    return False


def canonical(value: JSON) -> bytes:
    """The canonical bytes of a JSON value (see the module's text).

    >>> canonical(["cardplaza-log/1", {"b": 1, "a": "é"}, 2.5])
    b'["cardplaza-log/1",{"a":"\xc3\xa9","b":1},2.5]'
    """
    if _no_floats(value):
        # The same bytes at a tenth of the time; what orjson refuses (keys that are not
        # text, numbers beyond 64 bits) is left to the defining encoder, which decides.
        try:
            return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
        except TypeError:
            pass
    return _CANONICAL.encode(value).encode("utf-8")


def _sha(value: JSON) -> str:
    return hashlib.sha256(canonical(value)).hexdigest()


def commitment(table_id: str, deal: int, seed: int) -> str:
    """The commitment of deal ``deal`` (from 1) of a game dealt from ``seed``."""
    return _sha([DEAL_TAG, table_id, deal, str(seed)])


def log_start(table_id: str, first_commitment: str) -> str:
    """The log digest before any action."""
    return _sha([LOG_TAG, table_id, first_commitment])


def log_step(previous: str, seat: int, action: JSON) -> str:
    """The log digest after one more action."""
    return _sha([LOG_TAG, previous, seat, action])


def log_digest(table_id: str, first_commitment: str,
               actions: Iterable[tuple[int, JSON]]) -> str:
    """The log digest after ``actions`` (``(seat, action JSON)`` pairs)."""
    digest = log_start(table_id, first_commitment)
    for seat, action in actions:
        digest = log_step(digest, seat, action)
    return digest


def deal_number(state: GameState) -> int:
    """The deal in progress (from 1): the game's own count for a game of several deals."""
    counter = get_game(state.game_name).deals_played
    return 1 if counter is None else max(1, int(counter(state)))


@dataclass
class LogChain:
    """A log digest kept up to date as actions are added (a server's running digest)."""

    table_id: str
    first_commitment: str
    digests: list[str] = field(default_factory=list)
    """``digests[i]``: the digest after ``i`` actions (``digests[0]`` before any)."""

    def __post_init__(self) -> None:
        if not self.digests:
            self.digests.append(log_start(self.table_id, self.first_commitment))

    def extend(self, actions: list[dict[str, Any]] | list[tuple[int, JSON]]) -> str:
        """The digest after ``actions`` (the whole log so far), reusing what is known when
        the log only grew; a log that shrank or changed is recomputed from the start."""
        if len(actions) + 1 < len(self.digests):
            del self.digests[len(actions) + 1:]
        for entry in actions[len(self.digests) - 1:]:
            seat, action = (entry["seat"], entry["action"]) if isinstance(entry, dict) else entry
            self.digests.append(log_step(self.digests[-1], seat, action))
        return self.digests[-1]


def fairness_block(table_id: str, record: GameRecord) -> dict[str, JSON]:
    """The ``fairness`` part of a record: every deal's commitment and the step it was
    dealt at, and the log digest after every action of the record."""
    starts = _walk(record)[0]
    deals = [{"deal": d, "step": s, "commitment": commitment(table_id, d, record.seed)}
             for d, s in starts]
    return {"scheme": SCHEME, "table": table_id, "deals": deals,
            "log": log_digest(table_id, str(deals[0]["commitment"]), record.actions)}


def _history_shape(data: dict[str, Any]) -> dict[str, Any]:
    """A record in the history format; the server's stored record (``game``, ``seed``,
    ``actions``, ``returns``, no ``format``) is the same facts under other names."""
    if "format" not in data and {"game", "seed", "actions"} <= data.keys():
        return {**data, "format": FORMAT, "options": data.get("options") or {},
                "result": data.get("returns")}
    return data


def stored_fairness(data: dict[str, Any]) -> dict[str, JSON]:
    """The ``fairness`` part of a server's stored record (with its ``table`` id)."""
    return fairness_block(str(data["table"]), GameRecord.from_json(_history_shape(data)))


def _walk(record: GameRecord) -> tuple[list[tuple[int, int]], GameState]:
    """The deals the engine makes over a record (``(deal, step)``) and the final state;
    raises ``IllegalAction`` (or ``ValueError`` for a malformed action) at a bad step."""
    state = record.new_state()
    seen = deal_number(state)
    starts = [(d, 0) for d in range(1, seen + 1)]
    for i, (seat, data) in enumerate(record.actions):
        if state.is_terminal:
            raise _Fail("after_end", step=i + 1)
        if state.current_player != seat:
            raise _Fail("wrong_seat", step=i + 1, seat=seat + 1,
                        turn=state.current_player + 1)
        try:
            action = state.action_from_json(data)
            state.apply(action)
        except Exception as exc:
            raise _Fail("illegal", step=i + 1, reason=str(exc)[:200]) from None
        now = deal_number(state)
        starts.extend((d, i + 1) for d in range(seen + 1, now + 1))
        seen = max(seen, now)
    return starts, state


@dataclass(frozen=True)
class Outcome:
    """What :func:`verify` found: ``ok``, or the failure's ``code`` (a catalog key
    ``fair.fail.<code>``) with its ``params``; ``deals`` and ``steps`` checked."""

    ok: bool
    code: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    deals: int = 0
    steps: int = 0


class _Fail(Exception):
    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def verify(data: Any) -> Outcome:
    """Check a finished game's record (the JSON of a download, with its ``fairness``
    part): each commitment against the revealed seed, every action legal in turn, each
    deal dealt at the step committed, the log digest and the result as recorded."""
    try:
        return _verify(data)
    except _Fail as fail:
        return Outcome(False, fail.code, fail.params)


def _verify(data: Any) -> Outcome:
    if not isinstance(data, dict):
        raise _Fail("not_record")
    data = _history_shape(data)
    try:
        record = GameRecord.from_json(data)
        get_game(record.game)
    except Exception:
        raise _Fail("not_record") from None
    fair = data.get("fairness")
    if not isinstance(fair, dict) or fair.get("scheme") != SCHEME:
        raise _Fail("no_commitments")
    table = fair.get("table")
    deals = fair.get("deals")
    if not isinstance(table, str) or not isinstance(deals, list) or not deals:
        raise _Fail("no_commitments")
    committed: list[tuple[int, int, str]] = []
    for entry in deals:
        if not isinstance(entry, dict) or not all(
                isinstance(entry.get(k), t) and not isinstance(entry.get(k), bool)
                for k, t in (("deal", int), ("step", int), ("commitment", str))):
            raise _Fail("no_commitments")
        committed.append((entry["deal"], entry["step"], entry["commitment"]))
    for deal, _, value in committed:
        if value.lower() != commitment(table, deal, record.seed):
            raise _Fail("commitment", deal=deal)
    starts, state = _walk(record)
    made = dict(starts)
    told = {d: s for d, s, _ in committed}
    for deal, step in starts:
        if deal not in told:
            raise _Fail("uncommitted", deal=deal, step=step)
        if told[deal] != step:
            raise _Fail("deal_step", deal=deal, step=step, told=told[deal])
    for deal in told:
        if deal not in made:
            raise _Fail("extra_deal", deal=deal)
    if not state.is_terminal:
        raise _Fail("unfinished")
    digest = log_digest(table, commitment(table, 1, record.seed), record.actions)
    if fair.get("log") != digest:
        raise _Fail("log")
    recorded = record.result if record.result is not None else data.get("returns")
    if recorded is None or [float(x) for x in recorded] != [float(x) for x in state.returns()]:
        raise _Fail("result")
    return Outcome(True, deals=len(starts), steps=len(record.actions))


__all__ = ["FAIL_CODES", "SCHEME", "LogChain", "Outcome", "canonical", "commitment", "deal_number",
           "fairness_block", "log_digest", "log_start", "log_step", "stored_fairness", "verify"]
