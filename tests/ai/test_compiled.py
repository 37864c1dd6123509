"""Compiled-kernel infrastructure: the generator, the disk cache, the switch and warm-up."""

from __future__ import annotations

import logging
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from cardplaza.ai import compiled
from cardplaza.ai.compiled import cache_dir, mt_state, set_mt_state, warm_up
from cardplaza.ai.kernel_bits import bit_length, low, mt_below, mt_shuffle, mt_skip, popcount


def test_bit_helpers_match_python_ints() -> None:
    rng = random.Random(3)
    for _ in range(2000):
        x = rng.getrandbits(rng.randrange(1, 63)) | 1 << rng.randrange(48)
        assert popcount(x) == x.bit_count()
        assert low(x) == (x & -x).bit_length() - 1
        assert bit_length(x) == x.bit_length()


def test_kernel_generator_is_pythons_random() -> None:
    """randrange, shuffle and getrandbits(64) drawn in a kernel equal random.Random's,
    across the 624-word refills, and the state goes back into the Random."""
    rng = random.Random(12345)
    ref = random.Random(12345)
    state = mt_state(rng)
    for n in (1, 2, 3, 7, 48, 1000, 2**31 - 1) * 300:
        assert mt_below(state, n) == ref.randrange(n)
    items = list(range(40))
    ref_items = list(range(40))
    mt_shuffle(state, items, 40)
    ref.shuffle(ref_items)
    assert items == ref_items
    mt_skip(state, 2)
    ref.getrandbits(64)
    set_mt_state(rng, state)
    assert rng.getstate() == ref.getstate()
    assert rng.random() == ref.random()


def test_cache_dir_is_the_users_and_falls_back(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    monkeypatch.setenv(compiled.CACHE_ENV, str(tmp_path / "kernels"))
    assert cache_dir() == tmp_path / "kernels" and cache_dir().is_dir()
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    monkeypatch.setenv(compiled.CACHE_ENV, str(blocked / "kernels"))
    assert cache_dir() != blocked / "kernels" and cache_dir().is_dir()
    monkeypatch.delenv(compiled.CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "cardplaza" / "kernels"


def test_warm_up_compiles_the_games_kernels_and_logs(caplog: pytest.LogCaptureFixture) -> None:
    sets = warm_up(["pinochle4"])
    assert "pinochle4" in sets and compiled.registered()["pinochle4"].compile()
    with caplog.at_level(logging.INFO, logger="cardplaza.kernels"):
        compiled.warm_up_in_background(["pinochle4"]).join(60)
    assert any("kernels ready" in r.message for r in caplog.records)


def test_a_cache_gone_by_the_end_of_a_warm_up_is_logged_not_raised(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The thread's last line names the cache; a directory no longer writable by then (a
    test's temporary home removed) does not end the thread with an exception."""
    def gone() -> Path:
        raise OSError("no writable directory for compiled kernels")

    failures: list[BaseException] = []
    monkeypatch.setattr(compiled, "warm_up", lambda games=None: {"pinochle4": 0.0})
    monkeypatch.setattr(compiled, "cache_dir", gone)
    monkeypatch.setattr("threading.excepthook", lambda args: failures.append(args.exc_value))
    with caplog.at_level(logging.INFO, logger="cardplaza.kernels"):
        compiled.warm_up_in_background(["pinochle4"]).join(60)
    assert not failures
    assert any("kernels ready" in r.message and "no longer writable" in r.message
               for r in caplog.records)


def test_switched_off_kernels_run_as_python(tmp_path: Path) -> None:
    """With CARDPLAZA_NO_JIT=1 the entry is the module's Python function (numba unused)."""
    code = ("import numpy as np, random\n"
            "from cardplaza.ai import compiled\n"
            "from cardplaza.games.pinochle4.kernels import KERNELS\n"
            "from cardplaza.games.pinochle4.rules import counter_table, deal\n"
            "h = np.array(deal(random.Random(1), 4)[0], np.int64)\n"
            "pts = np.zeros(4, np.int64)\n"
            "last = KERNELS.play_out(h, np.zeros(4, np.int64), 0, 0, 4, 1, 0,\n"
            "    np.array(counter_table('A', False), np.int64), pts)\n"
            "import sys\n"
            "print(compiled.jit_enabled(), compiled.warm_up(['pinochle4']),\n"
            "      'numba' in sys.modules, last, pts.tolist())\n")
    env = {"CARDPLAZA_NO_JIT": "1", "PATH": "/usr/bin:/bin",
           "CARDPLAZA_KERNEL_CACHE": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout.split(maxsplit=3)
    assert out[:3] == ["False", "{}", "False"]
    from cardplaza.games.pinochle4.kernels import KERNELS
    from cardplaza.games.pinochle4.rules import counter_table, deal
    h = np.array(deal(random.Random(1), 4)[0], np.int64)
    pts = np.zeros(4, np.int64)
    last = KERNELS.play_out(h, np.zeros(4, np.int64), 0, 0, 4, 1, 0,
                            np.array(counter_table("A", False), np.int64), pts)
    assert out[3].split(maxsplit=1) == [str(last), f"{pts.tolist()}\n"]


_FOLDERS = """
from cardplaza.ai import compiled
from cardplaza.core.registry import games
for spec in games().values():
    if "kernels" in spec.hooks:
        spec.hook("kernels")
for name, kset in sorted(compiled.registered().items()):
    print(name, kset.cache_folder().name)
"""


def test_the_disk_cache_folder_is_the_same_in_every_process() -> None:
    """A server start finds the kernels compiled by the previous one: the cache folder
    does not depend on the process (string hashing, addresses of code objects)."""
    runs = [subprocess.run([sys.executable, "-c", _FOLDERS], capture_output=True, text=True,
                           check=True, env={**os.environ,
                                            "PYTHONHASHSEED": seed}).stdout
            for seed in ("1", "2", "3")]
    assert runs[0].count("\n") >= 4, runs[0]  # every game with kernels is listed
    assert runs[0] == runs[1] == runs[2]


def test_stale_cache_folders_of_a_kernel_set_are_removed(tmp_path: Path) -> None:
    """Building a set stamps its folder; the set's other folders unused for the stale
    period go, recent ones and other sets' folders stay."""
    current = tmp_path / "pinochle2-0123456789abcdef"
    old = tmp_path / "pinochle2-fedcba9876543210"
    stamped_old = tmp_path / "pinochle2-aaaaaaaaaaaaaaaa"
    recent = tmp_path / "pinochle2-bbbbbbbbbbbbbbbb"
    other = tmp_path / "piquet-cccccccccccccccc"
    longer = tmp_path / "pinochle2-extra-dddddddddddddddd"  # another set's name
    for folder in (current, old, stamped_old, recent, other, longer):
        folder.mkdir()
        (folder / "kernel.nbi").write_text("x")
    long_ago = time.time() - 40 * 86400
    for path in (old, other, longer):
        os.utime(path, (long_ago, long_ago))
    (stamped_old / compiled.USED_STAMP).touch()
    os.utime(stamped_old / compiled.USED_STAMP, (long_ago, long_ago))
    removed = compiled.remove_stale("pinochle2", current)
    assert sorted(removed) == sorted([old, stamped_old])
    assert current.exists() and recent.exists() and other.exists() and longer.exists()
    assert not old.exists() and not stamped_old.exists()
    assert (current / compiled.USED_STAMP).stat().st_mtime > time.time() - 60


def test_building_a_kernel_set_stamps_its_cache_folder() -> None:
    from cardplaza.games.efudatori.kernels import KERNELS

    KERNELS.compile()
    folder = KERNELS.cache_folder()
    KERNELS._compiled = None  # build again (the disk cache loads it)
    before = time.time()
    KERNELS.compile()
    assert (folder / compiled.USED_STAMP).stat().st_mtime >= before - 1


def test_while_serving_an_unready_kernel_runs_as_python() -> None:
    """A process warming its kernels up in the background takes decisions at once: until a
    kernel set is loaded its entries are the Python reference (same results); once the
    warm-up is over, the compiled ones."""
    code = ("import numpy as np, random, threading\n"
            "from cardplaza.ai import compiled\n"
            "from cardplaza.games.pinochle4.kernels import KERNELS\n"
            "from cardplaza.games.pinochle4.rules import counter_table, deal\n"
            "compiled._LOCK.acquire()  # hold the build back, as a slow compiler would\n"
            "compiled.cached_sets = lambda games=None: []  # as if nothing were cached\n"
            "thread = compiled.warm_up_while_serving(['pinochle4'])\n"
            "fn = KERNELS.play_out\n"
            "h = np.array(deal(random.Random(1), 4)[0], np.int64)\n"
            "pts = np.zeros(4, np.int64)\n"
            "last = fn(h, np.zeros(4, np.int64), 0, 0, 4, 1, 0,\n"
            "          np.array(counter_table('A', False), np.int64), pts)\n"
            "before = (compiled.compiling(), KERNELS.ready, type(fn).__name__)\n"
            "compiled._LOCK.release()\n"
            "thread.join(600)\n"
            "after = (compiled.compiling(), KERNELS.ready, type(KERNELS.play_out).__name__)\n"
            "print(before, after, last, pts.tolist())\n")
    warm_up(["pinochle4"])  # the cache is filled, so the held-back build is quick
    env = dict(os.environ)
    env.pop("CARDPLAZA_NO_JIT", None)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout
    from cardplaza.games.pinochle4.kernels import KERNELS
    from cardplaza.games.pinochle4.rules import counter_table, deal
    h = np.array(deal(random.Random(1), 4)[0], np.int64)
    pts = np.zeros(4, np.int64)
    last = KERNELS.play_out(h, np.zeros(4, np.int64), 0, 0, 4, 1, 0,
                            np.array(counter_table("A", False), np.int64), pts)
    assert out.strip() == (f"(True, False, 'function') (False, True, 'CPUDispatcher') "
                           f"{last} {pts.tolist()}")


def test_while_serving_cached_kernels_are_loaded_before_it_returns() -> None:
    """Kernel sets already compiled into the disk cache are loaded at once (a computer
    process says it is ready only after them); only the others wait for the background."""
    code = ("from cardplaza.ai import compiled\n"
            "from cardplaza.games.pinochle4.kernels import KERNELS\n"
            "cached = [k.name for k in compiled.cached_sets(['pinochle4'])]\n"
            "thread = compiled.warm_up_while_serving(['pinochle4'])\n"
            "print(cached, KERNELS.ready)\n"
            "thread.join(600)\n")
    warm_up(["pinochle4"])  # the cache is filled
    env = dict(os.environ)
    env.pop("CARDPLAZA_NO_JIT", None)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == "['pinochle4'] True"


def test_compile_all_fills_the_cache_of_every_game() -> None:
    sets = compiled.compile_all(jobs=1)
    assert {"pinochle2", "pinochle4", "piquet", "efudatori"} <= set(sets)
