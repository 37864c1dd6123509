"""Every computer level of every game has a readable name in both languages of the lobby."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardplaza.core.registry import games

I18N = Path(__file__).resolve().parents[2] / "src/cardplaza/web/static/i18n.js"


def _dictionary(language: str) -> set[str]:
    text = I18N.read_text(encoding="utf-8")
    body = text.split("const DICT = {", 1)[1].split("const OPTIONS", 1)[0]
    start = body.index(f"\n  {language}: {{")
    end = body.find("\n  },", start)
    return set(re.findall(r'"([a-z0-9_.]+)":', body[start:end]))


@pytest.mark.parametrize("language", ["en", "ja"])
def test_every_level_has_a_name(language: str) -> None:
    keys = _dictionary(language)
    missing = [
        f"{spec.name}:{level}" for spec in games().values() for level in spec.levels
        if f"level.{spec.name}.{level}" not in keys and f"level.{level}" not in keys
    ]
    assert not missing, f"levels without a {language} name: {missing}"
