"""Every option the lobby shows, and every named choice of it, has a label in both
languages of the message catalog (the lobby would otherwise show the option's key)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardplaza.core.registry import games
from cardplaza.texts.catalog import catalog
from cardplaza.web.live.gameinfo import option_fields

APP = Path(__file__).resolve().parents[2] / "src/cardplaza/web/static/app.js"


def _keys(language: str) -> set[str]:
    return set(catalog(language))


def _hidden() -> dict[str, set[str]]:
    """The options app.js keeps out of the lobby, per game."""
    line = next(x for x in APP.read_text(encoding="utf-8").splitlines()
                if x.startswith("const HIDDEN_OPTIONS"))
    return {g: set(re.findall(r'"(\w+)"', names))
            for g, names in re.findall(r"(\w+): new Set\(\[([^\]]*)\]\)", line)}


@pytest.mark.parametrize("language", ["en", "ja"])
def test_every_option_and_choice_has_a_label(language: str) -> None:
    keys = _keys(language)
    hidden = _hidden()
    assert hidden.get("pinochle2") == {"dealer", "level"}
    missing = []
    for name, spec in games().items():
        for f in option_fields(spec.options_type):
            if f["name"] in hidden.get(name, set()):
                continue
            if f"opt.{name}.{f['name']}" not in keys and f"opt.{f['name']}" not in keys:
                missing.append(f"{name}:{f['name']}")
            for value in f.get("choices", []) if f["kind"] == "choice" else []:
                if not str(value).isdigit() and f"val.{f['name']}.{value}" not in keys:
                    missing.append(f"{name}:{f['name']}={value}")
    assert not missing, f"options without a {language} label: {missing}"
