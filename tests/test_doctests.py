"""The examples in the modules' docstrings run as tests."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

import cardplaza

PACKAGE = Path(cardplaza.__file__).parent
MODULES = sorted(
    ".".join(("cardplaza", *path.relative_to(PACKAGE).with_suffix("").parts))
    for path in PACKAGE.rglob("*.py") if ">>> " in path.read_text(encoding="utf-8"))
"""Every module of the package whose docstrings hold an example."""


def test_the_modules_with_examples_are_found() -> None:
    assert {"cardplaza.core.cards", "cardplaza.core.fairness",
            "cardplaza.web.store.latency"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
