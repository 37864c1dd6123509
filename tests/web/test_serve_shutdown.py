"""``serve --workers N`` leaves nothing behind: its web processes and the resource tracker
they share stop with the supervising process, however it stops."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from cardplaza.web.front.server import ENV
from cardplaza.web.settings import Settings


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            out.append(int(entry))
    return out


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_nothing_outlives_the_server(tmp_path: Path, how: signal.Signals) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path))
    with (tmp_path / "server.log").open("wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "cardplaza.web", "--port", str(port), "--workers", "2",
             "--ai-workers", "1", "--set", "ai_warm_up=false",
             "--db", f"sqlite:///{tmp_path / 'db.sqlite3'}"],
            env=env, stdout=log, stderr=subprocess.STDOUT)
    children: list[int] = []
    try:
        until = time.time() + 180  # the computers load their kernels first
        while time.time() < until:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=0.5).is_success:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        children = _children(proc.pid)
        assert len(children) >= 3  # two web processes and the resource tracker
        proc.send_signal(how)
        proc.wait(60)
        # A web process still starting (its computers get up to ai_ready_seconds to load)
        # finishes its start before it stops: allow for that beside the shutdown itself.
        until = time.time() + Settings().ai_ready_seconds + 30
        while time.time() < until and any(_alive(c) for c in children):
            time.sleep(0.2)
        left = [c for c in children if _alive(c)]
        assert not left, f"still running after {how.name}: {left}"
    finally:
        if proc.poll() is None:
            proc.kill()
        for c in children:
            if _alive(c):
                os.kill(c, signal.SIGKILL)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_web_process_started_after_its_supervisor_died_stops() -> None:
    """A web process still importing when the supervisor is killed reaches the parent-death
    request only after it was handed to another parent: it must stop all the same."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # a pid that is certainly not this process's parent any more
    config = json.dumps({"db": "sqlite://", "settings": Settings().to_json(),
                         "supervisor": gone.pid})
    code = ("import os, time\n"
            f"os.environ[{ENV!r}] = {config!r}\n"
            "from cardplaza.web.front.server import app_from_env\n"
            "app_from_env()\n"
            "time.sleep(60)\n")
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", code], timeout=90, check=False)
    assert done.returncode == -signal.SIGTERM
    assert time.monotonic() - started < 60


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_web_process_whose_supervisor_lives_keeps_running() -> None:
    config = json.dumps({"db": "sqlite://", "settings": Settings().to_json(),
                         "supervisor": os.getpid()})
    code = ("import os\n"
            f"os.environ[{ENV!r}] = {config!r}\n"
            "from cardplaza.web.front.server import app_from_env\n"
            "app_from_env()\n"
            "print('running')\n")
    done = subprocess.run([sys.executable, "-c", code], timeout=90, check=False,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "running"
