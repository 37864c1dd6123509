"""The load benchmark command: bounded, loopback only, and its figures (a short run)."""

from __future__ import annotations

import os
import signal
import time
import types
from typing import Any

import pytest

from cardplaza.web.loadtest.generator import check_args, run_loadtest


def args(**changes: Any) -> types.SimpleNamespace:
    base = {"tables": 3, "level": "1", "seconds": 4.0, "pause": 0.0, "game": "pinochle2",
            "json": True, "url": None, "warm": 1.0, "servers": 1, "kills": 0, "db": None,
            "ai_workers": 1, "set": ["ai_warm_up=false"], "sweep": None, "workers": None,
            "profile": None, "shared": 0, "in_process": False}
    return types.SimpleNamespace(**{**base, **changes})


@pytest.mark.parametrize("bad", [
    {"tables": 0}, {"tables": 100_000}, {"seconds": 0}, {"seconds": 10**6},
    {"url": "http://example.com:8000"}, {"url": "http://10.1.2.3:8000"},
    {"url": "http://127.0.0.1:8000", "kills": 1}, {"servers": 9},
    {"sweep": "10,x"}, {"sweep": "0"}, {"sweep": ",".join(["5"] * 13)},
    {"profile": "out.prof", "servers": 2}, {"workers": 99}, {"shared": 4}, {"shared": -1},
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
    # the server's own time to store an action, from its histogram over the measured time
    assert 0 < out["action log append p50 ms"] <= out["action log append p95 ms"] < 5_000, out
    # the server's CPU per action, read from its process tree: some, and not absurd
    assert 0 < out["web CPU ms per action"] <= out["server CPU ms per action"] < 1_000, out
    # the steady state leaves out the probes, the tables opened and the idle CPU, each
    # measured after the run and reported
    apart = out["excluded from the steady state"]
    assert apart["healthz probes"] > 0 and apart["CPU ms per probe"] >= 0, out
    assert apart["tables opened"] >= 0 and apart["idle CPU ms per second"] >= 0, out
    assert apart["CPU ms per table opened (POST, WebSocket, join, first state, close)"] > 0
    assert out["web CPU ms per action (steady state)"] <= out["web CPU ms per action"], out
    # where the processors went: the server and the generator worked, and the machine as a
    # whole was at least as busy as they were together, within its cores
    assert out["web cores busy"] > 0 and out["load generator cores busy"] > 0, out
    ours = out["web cores busy"] + out["computer cores busy"] + out["load generator cores busy"]
    assert ours - 0.05 <= out["machine cores busy"] <= out["cores"] + 0.05, out


def test_the_generator_keeps_a_small_http_pool_for_many_tables(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """More tables than pooled connections: every table is still opened and played (the
    requests take turns on the pool), and the client's pool is the bound, not a
    connection per table; the ``/healthz`` probes have a connection of their own (their
    time is never a wait behind a table's creation)."""
    import asyncio

    import httpx

    from cardplaza.web.loadtest import common

    pools: list[int | None] = []
    loops: list[str] = []

    class Recording(httpx.AsyncClient):
        def __init__(self, *a: Any, **kw: Any) -> None:
            pools.append(kw["limits"].max_connections)
            loops.append(type(asyncio.get_running_loop()).__module__)
            super().__init__(*a, **kw)

    monkeypatch.setattr(common, "HTTP_CONNECTIONS", 2)
    monkeypatch.setattr(httpx, "AsyncClient", Recording)
    out = run_loadtest(args(tables=6, seconds=2.0, warm=0.5))
    assert pools == [2, 1], pools
    assert out["errors"] == 0 and out["games started"] >= 6 and out["actions"] > 6, out
    # the generator runs on the server's kind of event loop (uvloop where installed)
    from cardplaza.web.loadtest.common import server_loop

    factory = server_loop()
    assert loops == ["uvloop" if factory is not None else "asyncio.unix_events"] * 2, loops


def test_load_figures_split_the_machine_into_cores() -> None:
    from cardplaza.web.loadtest.generator import load_figures, machine_busy

    out = load_figures(elapsed=2.0, web=0.5, computers=1.0, generator=0.3, machine=3.5)
    assert out["web cores busy"] == 0.25 and out["computer cores busy"] == 0.5
    assert out["load generator cores busy"] == 0.15
    assert out["machine cores busy"] == 1.75 and out["other cores busy"] == 0.85
    assert out["cores"] >= 1
    # without /proc/stat there is no machine figure, rather than a made-up one
    assert "machine cores busy" not in load_figures(1.0, 0.1, 0.0, 0.1, None)
    # the machine's busy time only grows, and a busy loop of ours is part of it
    before = machine_busy()
    assert before is not None
    t0 = time.process_time()
    while time.process_time() - t0 < 0.3:
        pass
    after = machine_busy()
    assert after is not None and after - before >= 0.2


def test_the_in_process_run_measures_the_web_process_without_the_network() -> None:
    out = run_loadtest(args(in_process=True, seconds=3.0))
    assert out["in process"] is True and out["errors"] == 0, out
    assert out["actions"] > 10 and out["log appends"] >= out["actions"], out
    assert 0 < out["web CPU ms per action (steady state)"] < 1_000, out
    assert out["web CPU ms per action (steady state)"] <= out[
        "process CPU ms per action (all)"], out
    # the two threads' shares are each a part of the process's whole
    loop = out["of it the event loop's thread ms per action"]
    writer = out["of it the action log's writing thread ms per action"]
    assert loop > 0 and writer > 0, out
    assert loop + writer <= out["process CPU ms per action (all)"] + 0.01, out
    apart = out["excluded"]
    assert apart["simulated people's own CPU ms"] > 0, out
    assert apart["CPU ms per table opened (join, first state, leave)"] > 0, out


@pytest.mark.parametrize("in_process", [True, False])
def test_a_person_refused_for_the_rate_sends_the_action_again(in_process: bool) -> None:
    """With no computer pause a simulated person acts faster than a connection may send;
    a refused action is sent again (as a person clicks again) instead of leaving the
    person waiting for a state that never comes."""
    out = run_loadtest(args(in_process=in_process, seconds=3.0, tables=2,
                            set=["ai_warm_up=false", "rate_per_second=4", "rate_burst=1",
                                 "rate_strikes=1000"]))
    assert out["error kinds"].get("rate_limited", 0) > 0, out
    # at most four a second on each of two connections: most of them went through
    assert out["actions"] >= 12, out
    assert set(out["error kinds"]) == {"rate_limited"}, out


@pytest.mark.parametrize("in_process", [True, False])
def test_a_run_leaves_no_temporary_files(in_process: bool, tmp_path: Any,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    out = run_loadtest(args(in_process=in_process, seconds=1.0, tables=1))
    assert out["actions"] > 0, out
    assert list(tmp_path.iterdir()) == []


def test_the_profiler_times_cpu_not_the_wall_clock(tmp_path: Any) -> None:
    """A module that sleeps 1 s and spins 0.3 s of CPU: the profile gives the spin the
    time, and the sleep next to nothing."""
    import pstats
    import subprocess
    import sys

    (tmp_path / "sleepspin.py").write_text(
        "import time\n"
        "def nap():\n    time.sleep(1.0)\n"
        "def spin():\n    t = time.thread_time()\n"
        "    while time.thread_time() - t < 0.3:\n        pass\n"
        "nap()\nspin()\n")
    out = tmp_path / "cpu.prof"
    subprocess.run([sys.executable, "-m", "cardplaza.web.loadtest.cpuprofile", str(out),
                    "-m", "sleepspin"], check=True, timeout=60,
                   env={**os.environ, "PYTHONPATH": os.pathsep.join(
                       [str(tmp_path), *sys.path])})
    stats = pstats.Stats(str(out)).stats  # type: ignore[attr-defined]
    cum = {name[2]: row[3] for name, row in stats.items()}
    assert cum["spin"] >= 0.25 and cum["nap"] < 0.1, cum


def test_a_kill_loses_no_action_of_a_table_of_two_people() -> None:
    out = run_loadtest(args(tables=2, shared=1, kills=1, seconds=6.0))
    assert out["kills"] == 1 and out["tables of two people"] == 1
    assert out["of them at tables of two people"] > 10, out
    assert out["lost acknowledged actions"] == 0, out


def _descendants(pid: int) -> list[int]:
    from cardplaza.web.loadtest.generator import _children

    out = _children(pid)
    for child in list(out):
        out += _descendants(child)
    return out


def test_tree_cpu_counts_a_busy_child() -> None:
    """A child process that spins is counted in its parent's tree."""
    import subprocess
    import sys
    import time

    from cardplaza.web.loadtest.generator import tree_cpu

    spin = ("import time\nt = time.process_time()\nwhile time.process_time() - t < 0.6: pass\n"
            "time.sleep(5)\n")
    parent = subprocess.Popen([sys.executable, "-c",
                               f"import subprocess, sys; subprocess.run([sys.executable, "
                               f"'-c', {spin!r}]); import time; time.sleep(2)"])
    try:
        # The child spins 0.6 CPU s and then sleeps 5 s: on a busy machine its spin takes
        # longer than that in wall time, so look until the count shows it (or 30 s pass).
        deadline = time.monotonic() + 30.0
        web, workers = tree_cpu(parent.pid)
        while web < 0.5 and time.monotonic() < deadline:
            time.sleep(0.2)
            web, workers = tree_cpu(parent.pid)
    finally:
        for pid in _descendants(parent.pid):
            os.kill(pid, signal.SIGKILL)
        parent.kill()
        parent.wait()
    assert workers == 0.0
    assert web >= 0.5


def test_sweep_runs_once_per_table_count(tmp_path: Any) -> None:
    from cardplaza.web.loadtest.generator import SWEEP_COLUMNS, format_sweep, run_sweep

    rows = run_sweep(args(sweep="1,3", seconds=2.0, warm=0.5))
    assert [r["tables"] for r in rows] == [1, 3]
    assert all(r["actions"] > 0 and r["server CPU ms per action"] > 0 for r in rows), rows
    text = format_sweep(rows).splitlines()
    assert len(text) == 3 and text[1].split()[0] == "1" and text[2].split()[0] == "3"
    # a heading over every figure, each figure under its own
    head = text[0].split("  ")
    for line, row in zip(text[1:], rows, strict=True):
        cells = line.split()
        assert len(cells) == len([h for h in head if h.strip()]) == len(SWEEP_COLUMNS)
        for (key, _), cell in zip(SWEEP_COLUMNS, cells, strict=True):
            assert cell == str(row.get(key, "—")), (key, cell)


def test_profile_writes_the_servers_statistics(tmp_path: Any) -> None:
    import pstats

    out = tmp_path / "server.prof"
    figures = run_loadtest(args(seconds=2.0, warm=0.5, profile=str(out)))
    assert figures["actions"] > 0
    stats = pstats.Stats(str(out))
    assert any("tables.py" in f[0] for f in stats.stats)  # type: ignore[attr-defined]


def test_computer_moves_are_timed_with_their_pause() -> None:
    out = run_loadtest(args(pause=0.3, seconds=3.0))
    assert out["errors"] == 0, out
    assert 0.3 <= out["computer move p50 s"] < 1.5, out
    assert out["computer move p50 s"] <= out["computer move p95 s"] < 5.0, out


def test_the_default_levels_are_the_games_own() -> None:
    from cardplaza.web.loadtest.common import table_levels

    assert table_levels("pinochle2", "all") == ["1", "2", "3", "4", "5"]
    assert table_levels("pinochle2", "1,2,3,4") == ["1", "2", "3", "4"]
    assert table_levels("pinochle4", "all") == ["weak", "normal", "strong", "expert"]
    assert table_levels("pinochle4", "expert,weak") == ["expert", "weak"]
    with pytest.raises(SystemExit):
        table_levels("pinochle4", "1")


@pytest.mark.parametrize("game", ["pinochle2", "pinochle4"])
def test_the_action_parts_script_times_each_part_of_an_action(game: str) -> None:
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, str(root / "scripts" / "action_parts.py"),
                           "--game", game, "--deals", "2", "--json"],
                          capture_output=True, text=True, timeout=300, check=True)
    out = json.loads(done.stdout)
    assert out["game"] == game and out["person actions"] > 10, out
    parts = out["microseconds per person action"]
    assert set(parts) == {"copy and move", "state message", "change and JSON",
                          "computer's view", "computer's decision"}
    assert all(v > 0 for v in parts.values()), out
    assert abs(out["sum"] - sum(parts.values())) < 0.5, out


def test_the_server_floor_script_measures_three_ways() -> None:
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, str(root / "scripts" / "server_floor.py"),
                           "--tables", "2", "--seconds", "2", "--warm", "1", "--rounds", "1",
                           "--json"], capture_output=True, text=True, timeout=300, check=True)
    out = json.loads(done.stdout)
    ways = out["ways"]
    assert list(ways) == ["served", "bare messages", "bare messages, nothing stored"], out
    # the served run sends the game's own view; the others the bare one
    assert len(ways["served"]["view keys"]) > 10, out
    for way in ("bare messages", "bare messages, nothing stored"):
        assert ways[way]["view keys"] == ["actions", "seat"], out
    # with nothing stored the writing thread has nothing to do
    writer = "of it the action log's writing thread ms per action"
    assert ways["served"][writer] > 0 and ways["bare messages"][writer] > 0, out
    assert ways["bare messages, nothing stored"][writer] == 0, out
    for way in ways.values():
        assert way["web CPU ms per action (steady state)"] > 0, out
