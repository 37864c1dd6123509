"""Browser-test fixtures: a real server process on a free port and headless Chromium."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cp_browser import new_page

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
OMNIBOX_WEBUI = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"]
"""Chromium features that build the browser's own address-bar popup (a page of about 200
``chrome://`` scripts) with every new window, headless too: each test's page would pay
0.6 to 0.9 s of processor for a popup nobody sees. Both must be off."""
DISABLE = "--disable-features="
MARK = "--cardplaza-launch="
"""A switch Chromium ignores, to find a launched browser among the processes."""


def new_mark() -> str:
    """A :data:`MARK` switch no other browser carries."""
    return f"{MARK}{os.getpid()}-{time.monotonic_ns()}"


def argv_of(mark: str) -> list[str]:
    """The command line of the browser process launched with ``mark``."""
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
        except OSError:
            continue
        if mark in argv:
            return argv
    raise AssertionError(f"no browser process with {mark}")


def features_off(argv: list[str]) -> list[str]:
    """The features a command line turns off: Chromium keeps only its last
    ``--disable-features``."""
    lists = [a[len(DISABLE):] for a in argv if a.startswith(DISABLE)]
    return [f for f in lists[-1].split(",") if f] if lists else []


def disabled_by_playwright(chromium: Any) -> list[str]:
    """The features Playwright's own launch turns off (in one ``--disable-features``, which
    a second one would replace: a list of ours must hold them too), read from the command
    line of a browser launched as Playwright launches it."""
    mark = new_mark()
    b = chromium.launch(executable_path=CHROMIUM, args=[*ARGS, mark])
    try:
        return features_off(argv_of(mark))
    finally:
        b.close()


def launch_args(p: Any) -> list[str]:
    """:data:`ARGS`, the features to turn off (Playwright's and :data:`OMNIBOX_WEBUI`) and a
    :data:`MARK`."""
    off = dict.fromkeys([*disabled_by_playwright(p.chromium), *OMNIBOX_WEBUI])
    return [*ARGS, DISABLE + ",".join(off), new_mark()]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running_server(tmp: Path, pause: float, *sets: str) -> Iterator[str]:
    """Start ``cardplaza.web`` on a free port with a fresh SQLite database and the given
    computer pause (and settings ``NAME=VALUE``); yield its base URL; stop it afterwards."""
    port = _free_port()
    env = dict(os.environ, XDG_DATA_HOME=str(tmp / "xdg"))
    db = f"sqlite:///{tmp / 'browser.sqlite3'}"
    from cardplaza.web.store.storage import Storage, StreakRow

    seeded = Storage(db)  # two saved scores so the high-score page has rows to show
    for name, streak, margin, best in (("Hanako", 3, 420, 30_420), ("Sam", 0, 0, 10_250)):
        _key, player = seeded.new_player(name)
        seeded.save_streak(StreakRow(player.id, streak, margin, best))
    seeded.close()
    log = (tmp / "server.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardplaza.web", "--port", str(port), "--pause", str(pause),
         "--db", db, "--streak-seeds",
         # Every browser test plays from this one address: the creation budgets a
         # visitor's address gets would refuse the suite's tables part way through.
         *(x for name in ("tables_per_minute_per_address", "tables_burst_per_address",
                          "tables_per_minute_per_player", "tables_burst_per_player",
                          "max_open_tables_per_address", "max_rooms_per_address")
           for x in ("--set", f"{name}=1000")),
         *(x for pair in sets for x in ("--set", pair))], env=env, stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"
    # The server answers once its computers have loaded their search kernels.
    deadline = time.time() + 180
    while True:
        try:
            if httpx.get(f"{base}/healthz", timeout=0.5).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if time.time() > deadline or proc.poll() is not None:
            proc.kill()
            raise RuntimeError((tmp / "server.log").read_text())
        time.sleep(0.1)
    try:
        yield base
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a server with no computer pause and a fresh SQLite database."""
    with running_server(tmp_path_factory.mktemp("server"), 0.0) as base:
        yield base


@pytest.fixture(scope="session")
def ready(server: str) -> str:
    """The server, once its computer workers have loaded the search (hints run there)."""
    deadline = time.time() + 600
    while time.time() < deadline:
        c = httpx.get(f"{server}/healthz").json()["computers"]
        if c["ready"] >= c["workers"]:
            return server
        time.sleep(0.5)
    raise AssertionError("the computer workers did not start")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Chromium (skipped when it is not installed)."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        args = launch_args(p)
        b = p.chromium.launch(executable_path=CHROMIUM, args=args)
        b.launched_with = args
        yield b
        b.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    rep = outcome.get_result()  # type: ignore[attr-defined]
    setattr(item, f"rep_{rep.when}", rep)


def _finish(pages: list[Any], request: pytest.FixtureRequest, full_page: bool) -> None:
    """After a test: a screenshot of each of its pages if it failed, every page closed,
    and no script error on any of them."""
    rep = getattr(request.node, "rep_call", None)
    if rep is not None and rep.failed:
        SHOTS.mkdir(parents=True, exist_ok=True)
        name = request.node.name.replace("[", "_").replace("]", "")
        for i, pg in enumerate(pages):
            suffix = f"_{i}" if i else ""
            pg.screenshot(path=str(SHOTS / f"FAILED_{name}{suffix}.png"), full_page=full_page)
    errors = [e for pg in pages for e in pg.js_errors]
    for pg in pages:
        pg.context.close()
    assert not errors, errors


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A desktop-size page; a screenshot is saved if the test fails."""
    pg = new_page(browser)
    yield pg
    _finish([pg], request, full_page=True)


@pytest.fixture
def open_page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """Opens pages as :func:`cp_browser.new_page` does (any size, locale or pace); each is
    screenshot as its window shows if the test fails, checked for script errors and closed
    at the end."""
    pages: list[Any] = []

    def make(*args: Any, **kwargs: Any) -> Any:
        pg = new_page(browser, *args, **kwargs)
        pages.append(pg)
        return pg

    yield make
    _finish(pages, request, full_page=False)
