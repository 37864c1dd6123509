"""The load benchmark command: bounded, loopback only, and its figures (a short run)."""

from __future__ import annotations

import types
from typing import Any

import pytest

from cardplaza.web.loadtest.generator import check_args, run_loadtest


def args(**changes: Any) -> types.SimpleNamespace:
    base = {"tables": 3, "level": "1", "seconds": 4.0, "pause": 0.0, "game": "pinochle2",
            "json": True, "url": None, "warm": 1.0, "servers": 1, "kills": 0, "db": None,
            "ai_workers": 1, "set": ["ai_warm_up=false"]}
    return types.SimpleNamespace(**{**base, **changes})


@pytest.mark.parametrize("bad", [
    {"tables": 0}, {"tables": 100_000}, {"seconds": 0}, {"seconds": 10**6},
    {"url": "http://example.com:8000"}, {"url": "http://10.1.2.3:8000"},
    {"url": "http://127.0.0.1:8000", "kills": 1}, {"servers": 9},
])
def test_runs_are_bounded_and_local(bad: dict[str, Any]) -> None:
    with pytest.raises(SystemExit):
        check_args(args(**bad))


def test_a_short_run_reports_its_figures() -> None:
    out = run_loadtest(args())
    for key in ("round trip p95 ms", "next turn p95 s", "errors", "actions/s",
                "healthz p99 ms", "server peak MB"):
        assert key in out
    assert out["actions"] > 10 and out["errors"] == 0, out
    assert 0 < out["round trip p95 ms"] < 5_000 and out["server peak MB"] > 10


def test_computer_moves_are_timed_with_their_pause() -> None:
    out = run_loadtest(args(pause=0.3, seconds=3.0))
    assert out["errors"] == 0, out
    assert 0.3 <= out["computer move p50 s"] < 1.5, out
    assert out["computer move p50 s"] <= out["computer move p95 s"] < 5.0, out
