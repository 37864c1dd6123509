"""Every computer level of every game has a readable name in both languages of the lobby."""

from __future__ import annotations

import pytest

from cardplaza.core.registry import games
from cardplaza.texts.catalog import LANGUAGES, catalog


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_level_has_a_name(language: str) -> None:
    keys = set(catalog(language))
    missing = [
        f"{spec.name}:{level}" for spec in games().values() for level in spec.levels
        if f"level.{spec.name}.{level}" not in keys and f"level.{level}" not in keys
    ]
    assert not missing, f"levels without a {language} name: {missing}"
