"""Budgets: token buckets by kind and key (a client address, a player), and the server-wide
budget of analysis work.

A connection has its own message bucket (:class:`~cardplaza.web.live.client.TokenBucket`);
these buckets are shared by every connection and request from one address or of one player,
so many connections cannot add up their allowances. Each kind's rate and size are named
settings (:mod:`cardplaza.web.settings`). The buckets live in this process's memory: with
several server processes each keeps its own (the database limits, such as unfinished tables
per address, hold across all of them).
"""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict
from dataclasses import dataclass

from cardplaza.web.settings import Settings

MAX_KEYS = 100_000
"""Buckets kept per process; the least recently used go first (a full bucket is the same
as a new one, so only keys idle for the longest lose their history)."""


@dataclass
class Bucket:
    """``rate`` tokens a second up to ``burst``."""

    rate: float
    burst: float
    tokens: float
    at: float

    def take(self, cost: float, now: float) -> bool:
        """Spend ``cost`` tokens if there are that many."""
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False


LIMITS: dict[tuple[str, str], tuple[str, str, float]] = {
    ("messages", "address"): ("address_rate_per_second", "address_rate_burst", 1.0),
    ("messages", "player"): ("player_rate_per_second", "player_rate_burst", 1.0),
    ("hints", "address"): ("hints_per_minute_per_address", "hints_burst_per_address", 60.0),
    ("hints", "player"): ("hints_per_minute_per_player", "hints_burst_per_player", 60.0),
    ("analysis", "server"): ("analysis_per_second", "analysis_burst", 1.0),
    ("connections", "address"): ("connections_per_minute_per_address",
                                 "connections_burst_per_address", 60.0),
    ("tables", "address"): ("tables_per_minute_per_address", "tables_burst_per_address", 60.0),
    ("tables", "player"): ("tables_per_minute_per_player", "tables_burst_per_player", 60.0),
}
"""(kind, ``address`` or ``player``) → the settings of its rate and bucket size, and the
rate's time unit in seconds."""


def limits(settings: Settings, kind: str, who: str) -> tuple[float, float]:
    """(tokens per second, bucket size) of a kind for an ``address`` or a ``player``."""
    rate, burst, unit = LIMITS[(kind, who)]
    return float(getattr(settings, rate)) / unit, float(getattr(settings, burst))


def key_of(text: str) -> str:
    """A short one-way key for an address or a player key (the secret is not kept)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:24]


class Budgets:
    """Every shared bucket of this process."""

    def __init__(self, settings: Settings, max_keys: int = MAX_KEYS) -> None:
        self.settings = settings
        self.max_keys = max_keys
        self._buckets: OrderedDict[tuple[str, str, str], Bucket] = OrderedDict()

    def take(self, kind: str, who: str, key: str | None, cost: float = 1.0) -> bool:
        """Spend from the bucket of ``kind`` for an ``address``, a ``player`` or the
        ``server`` ``key`` (nothing is spent, and ``True`` returned, without a key)."""
        if not key:
            return True
        rate, burst = limits(self.settings, kind, who)
        now = time.monotonic()
        slot = (kind, who, key)
        bucket = self._buckets.get(slot)
        if bucket is None:
            bucket = Bucket(rate, burst, burst, now)
            self._buckets[slot] = bucket
            while len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(slot)
        return bucket.take(cost, now)

    def has(self, kind: str, who: str, key: str | None) -> bool:
        """Whether the bucket holds a token now (nothing is spent)."""
        if not key:
            return True
        bucket = self._buckets.get((kind, who, key))
        if bucket is None:
            return True
        now = time.monotonic()
        return min(bucket.burst, bucket.tokens + (now - bucket.at) * bucket.rate) >= 1.0

    def allow(self, kind: str, address: str | None, player: str | None) -> bool:
        """Spend one token of ``kind`` from the address's and the player's buckets; ``False``
        (and the other left unspent where possible) when either is empty."""
        if not self.take(kind, "address", address):
            return False
        return self.take(kind, "player", player)

    def __len__(self) -> int:
        return len(self._buckets)


__all__ = ["LIMITS", "MAX_KEYS", "Bucket", "Budgets", "key_of", "limits"]
