"""The load benchmark with people at shared tables who drop their connections: a short run
(no table stuck, no acknowledged action lost), its bounds, and the stuck-table count."""

from __future__ import annotations

import time
import types
from typing import Any

import pytest

from cardplaza.web.loadtest.generator import check_args
from cardplaza.web.loadtest.shared import SharedRun, SharedTable, run_shared_loadtest


def args(**changes: Any) -> types.SimpleNamespace:
    base = {"tables": 3, "level": "1", "seconds": 10.0, "pause": 0.2, "game": "pinochle2",
            "json": True, "url": None, "warm": 1.0, "servers": 1, "kills": 0, "db": None,
            "ai_workers": 1, "set": ["ai_warm_up=false"], "sweep": None, "workers": None,
            "profile": None, "humans_per_table": 2, "drop_rate": 30.0,
            "standin_seconds": 2}
    return types.SimpleNamespace(**{**base, **changes})


@pytest.mark.parametrize("bad", [
    {"humans_per_table": 9}, {"drop_rate": -1}, {"drop_rate": 1000},
    {"standin_seconds": 0}, {"servers": 2}, {"kills": 1},
])
def test_shared_runs_are_bounded(bad: dict[str, Any]) -> None:
    with pytest.raises(SystemExit):
        check_args(args(**bad))


def test_a_short_run_with_drops_has_no_stuck_table_and_loses_nothing() -> None:
    out = run_shared_loadtest(args())
    assert out["stuck tables (wait > standin + 2 s)"] == 0, out
    assert out["lost acknowledged actions"] == 0, out
    assert out["acknowledged actions checked"] > 20, out
    assert out["person actions"] > 10 and out["drops"] > 0, out
    unexpected = {k for k in out["error kinds"]
                  if k not in ("stale", "not_your_turn", "lost connection")}
    assert not unexpected, out


def test_a_table_waiting_too_long_for_an_absent_person_is_counted() -> None:
    run = SharedRun(args(tables=1), "http://127.0.0.1:1", 2)
    run.measuring = True
    table = SharedTable(run, 0)
    table.seats = [0, 1]
    table.table_id = "t"
    here, away = table.people
    here.present = True
    now = time.monotonic()
    away.dropped_at = now - 10
    table.saw({"step": 5, "current": 1, "terminal": False, "room": {}})
    table.step_at = now - 10
    table.back_at = now - 20
    table.check(now)
    assert run.figures.stuck == 1 and run.figures.longest_wait >= 9.9
    table.check(now + 1)
    assert run.figures.stuck == 1  # one wait counts once
    # Nobody at the table: the game waits, and that is no stuck table.
    other = SharedTable(run, 1)
    other.seats = [0, 1]
    other.people[1].dropped_at = now - 10
    other.saw({"step": 5, "current": 1, "terminal": False, "room": {}})
    other.step_at = now - 10
    other.check(now)
    assert run.figures.stuck == 1
