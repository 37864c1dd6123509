"""The latency histogram: fixed buckets, readings subtracted, percentiles within a bucket;
``/healthz`` shows the action log's."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cardplaza.web import create_app
from cardplaza.web.settings import Settings
from cardplaza.web.store.latency import (
    BOUNDS_MS,
    STEP,
    LatencyHistogram,
    between,
    percentile,
)


def test_the_buckets_rise_by_one_step_from_a_sixteenth_of_a_millisecond() -> None:
    assert BOUNDS_MS[0] == 0.0625 and BOUNDS_MS[-1] > 20_000
    assert {1.0, 2.0, 8.0, 1024.0} <= set(BOUNDS_MS)
    for lo, hi in itertools.pairwise(BOUNDS_MS):
        assert hi / lo == pytest.approx(STEP, rel=1e-3)


def test_a_time_lands_in_the_first_bucket_whose_bound_holds_it() -> None:
    h = LatencyHistogram()
    for seconds in (0.0, 0.0000625, 0.0000626, 0.002, 99.0):
        h.record(seconds)
    counts = h.counts
    assert len(counts) == len(BOUNDS_MS) + 1 and sum(counts) == 5
    assert counts[0] == 2  # 0 and exactly 1/16 ms
    assert counts[1] == 1  # just above it
    assert counts[BOUNDS_MS.index(2.0)] == 1
    assert counts[-1] == 1  # beyond the last bound


def test_percentiles_of_what_happened_between_two_readings() -> None:
    h = LatencyHistogram()
    for _ in range(100):
        h.record(0.030)  # 30 ms before the first reading
    before = list(h.counts)
    for ms in [1.0] * 90 + [7.0] * 9 + [400.0]:
        h.record(ms / 1000)
    during = between(before, h.counts)
    assert sum(during) == 100
    assert percentile(during, 50) == 1.0 and percentile(during, 90) == 1.0
    assert percentile(during, 95) == 8.0  # 7 ms's bucket: 6.73 to 8 ms
    assert 400.0 <= percentile(during, 100) < 400.0 * STEP
    assert math.isnan(percentile(between(h.counts, h.counts), 50))
    assert percentile([0] * len(BOUNDS_MS) + [3], 50) == math.inf
    with pytest.raises(ValueError):
        between([0, 1], [1, 2, 3])
    with pytest.raises(ValueError, match="not a later one"):  # counts begun again
        between(h.counts, LatencyHistogram().counts)


def test_healthz_shows_the_action_logs_counts(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'h.sqlite3'}", settings=Settings(ai_workers=1))
    with TestClient(app) as client:
        log = app.state.manager.action_log
        log.latency.record(0.003)
        body = client.get("/healthz").json()["log"]
        assert body["appends"] == log.appended
        assert body["transactions"] == log.transactions
        assert body["append_ms_counts"] == log.latency.counts
        assert percentile(body["append_ms_counts"], 50) == pytest.approx(3.0, rel=STEP - 1)
