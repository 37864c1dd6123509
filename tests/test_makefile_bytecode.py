"""The test targets run with Python's compiled files written and read, whatever the
environment says: the suite starts hundreds of Python processes, and without them each one
compiles the package again and each test process rewrites every test module."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("target", ["unit", "browser"])
def test_test_targets_write_compiled_files(target: str) -> None:
    make = shutil.which("make")
    assert make is not None
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    # The recipe as make would run it (-n: printed, not run; -o: the set-up taken as done).
    out = subprocess.run([make, "-n", "-o", ".venv/.installed", "-o", "system-deps", target],
                         cwd=ROOT, env=env, text=True, capture_output=True, check=True).stdout
    lines = [line for line in out.splitlines() if "pytest" in line]
    assert lines, out
    for line in lines:
        assert line.startswith("PYTHONDONTWRITEBYTECODE= "), line
