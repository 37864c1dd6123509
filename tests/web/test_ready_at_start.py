"""The server gives its address only once a game can start without waiting: its computer
players have said they are ready (kernels already in the disk cache loaded) and every
game's engine is loaded."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_servers import free_port

from cardplaza.ai import compiled
from cardplaza.web.live.workers import WorkerPool


def test_wait_ready_waits_for_every_worker_to_say_so() -> None:
    pool = WorkerPool(1, kill_seconds=30.0, nice=0)
    pool.start(processes=True)
    try:
        assert pool.wait_ready(60.0)
        assert all(slot.ready for slot in pool.slots)
    finally:
        import asyncio

        asyncio.run(pool.close())


def test_wait_ready_gives_up_after_its_time(tmp_path: Path) -> None:
    slow = tmp_path / "slow_start.py"
    slow.write_text("import time\n\ndef start() -> None:\n    time.sleep(3)\n")
    sys.path.insert(0, str(tmp_path))
    try:
        pool = WorkerPool(1, kill_seconds=30.0, nice=0, preload=("slow_start:start",))
        pool.start(processes=True)
        try:
            began = time.monotonic()
            assert not pool.wait_ready(0.3)
            assert time.monotonic() - began < 2.0
            assert pool.wait_ready(60.0)
        finally:
            import asyncio

            asyncio.run(pool.close())
    finally:
        sys.path.remove(str(tmp_path))


def test_cached_sets_are_those_a_process_has_compiled(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(compiled.CACHE_ENV, str(tmp_path))
    monkeypatch.delenv(compiled.NO_JIT_ENV, raising=False)
    assert compiled.cached_sets(["pinochle2"]) == []
    kset = compiled.registered()["pinochle2"]
    folder = kset.cache_folder()
    folder.mkdir(parents=True)
    (folder / compiled.USED_STAMP).touch()
    assert compiled.cached_sets(["pinochle2"]) == [kset]
    monkeypatch.setenv(compiled.NO_JIT_ENV, "1")
    assert compiled.cached_sets(["pinochle2"]) == []


def test_the_address_comes_when_the_computers_are_ready(tmp_path: Path) -> None:
    port = free_port()
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "xdg"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardplaza.web", "--port", str(port), "--db",
         f"sqlite:///{tmp_path / 'ready.sqlite3'}", "--pause", "0", "--ai-workers", "2"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 120
        for line in proc.stdout:
            if "Card Plaza on http" in line:
                break
            assert time.monotonic() < deadline, "no address"
        # The first request after the address: both computer players are already there.
        health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=10).json()
        assert health["computers"]["workers"] == 2
        assert health["computers"]["ready"] == 2, health
        assert health["analysis"]["ready"] == health["analysis"]["workers"] >= 1, health
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()


def test_all_cached_once_every_kernel_set_is_compiled(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(compiled.CACHE_ENV, str(tmp_path))
    monkeypatch.delenv(compiled.NO_JIT_ENV, raising=False)
    assert not compiled.all_cached()
    for kset in compiled.registered().values():
        folder = kset.cache_folder()
        folder.mkdir(parents=True, exist_ok=True)
        (folder / compiled.USED_STAMP).touch()
    assert compiled.all_cached()


def test_the_server_says_it_is_preparing_until_the_kernels_are_compiled(
        client: Any) -> None:
    import asyncio

    manager = client.app.state.manager
    manager.settings = manager.settings.replace(kernel_watch_seconds=0.01)
    answers = iter([False, False, True])
    seen: list[bool] = []

    def cached() -> bool:
        seen.append(manager.preparing)
        return next(answers)

    asyncio.run(manager.watch_kernels(cached))
    assert seen == [False, True, True] and manager.preparing is False
    manager.preparing = True
    assert client.get("/healthz").json()["computers"]["preparing"] is True
    manager.preparing = False
    assert client.get("/healthz").json()["computers"]["preparing"] is False
