"""Hypothesis profiles (reproducible examples by default, fresh ones on request) and a
check after every test that it left no stand-in among the games' loaded hooks.

``HYPOTHESIS_PROFILE=explore make unit`` draws new random examples (and remembers any
failure in the local example database); the default profile draws the same examples on
every run, so a change is judged by the same cases each time. ``make fuzz`` runs the
server's fuzzing state machine long (``HYPOTHESIS_PROFILE=fuzz``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest
from hypothesis import settings

settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.register_profile("fuzz", derandomize=False, deadline=None)
"""``make fuzz``: the server's fuzzing state machine (``tests/web/test_fuzz.py``) runs long
sequences with fresh examples."""
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

# Terminal play keeps statistics and streaks in the user's data directory: tests (and the
# programs they start) use a directory of their own.
# Each test process has its own: with ``pytest -n 2`` two processes run tests at once.
if "CARDPLAZA_TEST_DATA" not in os.environ or os.environ.get("PYTEST_XDIST_WORKER"):
    import atexit
    import shutil
    import tempfile

    os.environ["CARDPLAZA_TEST_DATA"] = tempfile.mkdtemp(prefix="cardplaza-test-data-")
    os.environ["XDG_DATA_HOME"] = os.environ["CARDPLAZA_TEST_DATA"]
    # Removed when the test process ends (the programs tests start have ended by then).
    atexit.register(shutil.rmtree, os.environ["CARDPLAZA_TEST_DATA"], ignore_errors=True)

# A text missing from the message catalog (or a placeholder left without its value) fails
# loudly in tests and in the programs they start, instead of showing the key.
os.environ["CARDPLAZA_STRICT_TEXTS"] = "1"


@pytest.fixture(autouse=True)
def _hooks_stay_as_loaded() -> Iterator[None]:
    """A game's hooks are imported once per process and kept (``registry._HOOKS``). A test
    that puts a stand-in for a hook's function into its module must put it into the
    registry too (``monkeypatch.setattr(registry, "_HOOKS", {})``): else a stand-in loaded
    while it was in place serves every later test of the process. Checked after each test
    (after its ``monkeypatch`` is undone); a stale entry is dropped and the test fails."""
    yield
    from cardplaza.core import registry

    for path, found in list(registry._HOOKS.items()):
        module, _, attr = path.partition(":")
        current = getattr(sys.modules.get(module), attr, found)
        if current is not found:
            del registry._HOOKS[path]
            pytest.fail(f"the hook {path} was loaded while a test had replaced it; the "
                        "registry kept the stand-in", pytrace=False)
