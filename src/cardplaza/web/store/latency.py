"""A latency histogram of fixed buckets: constant memory however long a server runs.

Each bucket counts the times up to its bound (:data:`BOUNDS_MS`, about 19% apart from
1/16 ms to 23 s, so every power of two is a bound; the last one takes everything longer).
The counts only grow, so a reader that takes them at two moments gets the histogram of
what happened between by subtracting (:func:`between`), and its percentiles by
:func:`percentile`, to within one bucket.

>>> h = LatencyHistogram()
>>> for ms in (0.4, 0.9, 1.0, 30.0):
...     h.record(ms / 1000)
>>> percentile(h.counts, 50) <= 1.0 < percentile(h.counts, 99)
True
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

STEP = 2 ** 0.25
"""Ratio of one bucket's bound to the one before (four buckets per doubling)."""
BOUNDS_MS: tuple[float, ...] = tuple(round(0.0625 * STEP ** i, 4) for i in range(75))
"""Upper bound of each bucket in milliseconds, 1/16 ms to about 23 s; a last bucket
(``len(BOUNDS_MS)``) counts the longer times."""


class LatencyHistogram:
    """Counts of times by bucket (see the module)."""

    __slots__ = ("counts",)

    def __init__(self) -> None:
        self.counts = [0] * (len(BOUNDS_MS) + 1)

    def record(self, seconds: float) -> None:
        """Count one time (in seconds)."""
        self.counts[bisect.bisect_left(BOUNDS_MS, seconds * 1000)] += 1


def between(before: Sequence[int], after: Sequence[int]) -> list[int]:
    """The counts of what was recorded between two readings of :attr:`counts`; ``ValueError``
    when ``after`` is not a later reading of the same histogram (a count went down: the
    process was restarted meanwhile, say)."""
    out = [b - a for a, b in zip(before, after, strict=True)]  # (ValueError: other buckets)
    if any(n < 0 for n in out):
        raise ValueError("the second reading is not a later one of the same histogram")
    return out


def percentile(counts: Sequence[int], q: float) -> float:
    """The bound (ms) of the bucket holding the ``q``-th percentile time; ``nan`` when
    nothing was counted, ``inf`` when it lies beyond the last bound."""
    total = sum(counts)
    if total <= 0:
        return float("nan")
    rank = max(1, -(-total * q // 100))  # the ceil(q% of total)-th time, from 1
    seen = 0
    for i, n in enumerate(counts):
        seen += n
        if seen >= rank:
            return BOUNDS_MS[i] if i < len(BOUNDS_MS) else float("inf")
    return float("inf")


__all__ = ["BOUNDS_MS", "LatencyHistogram", "between", "percentile"]
