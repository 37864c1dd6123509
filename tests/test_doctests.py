"""The examples in the modules' docstrings run as tests."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["cardplaza.core.cards", "cardplaza.core.seats", "cardplaza.games.pinochle4.auction",
           "cardplaza.research.openspiel", "cardplaza.research.pettingzoo",
           "cardplaza.games.pinochle_dd.odds"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
