"""A game's hooks are loaded by import path once, then answered from memory."""

from __future__ import annotations

import importlib
import json
from typing import Any

import pytest

from cardplaza.core import registry
from cardplaza.core.registry import GameSpec


def _spec(hooks: dict[str, str]) -> GameSpec:
    return GameSpec(name="hooked", title="Hooked", title_ja="フック", options_type=dict,
                    new_state=lambda options, seed: None,  # type: ignore[arg-type,return-value]
                    hooks=hooks)


def test_a_hook_is_imported_once(monkeypatch: pytest.MonkeyPatch) -> None:
    imports: list[str] = []
    real = importlib.import_module

    def counting(name: str, package: str | None = None) -> Any:
        imports.append(name)
        return real(name, package)

    monkeypatch.setattr(registry, "_HOOKS", {})
    monkeypatch.setattr(importlib, "import_module", counting)
    spec = _spec({"dump": "json:dumps"})
    assert spec.hook("dump") is json.dumps
    assert spec.hook("dump") is json.dumps
    assert imports == ["json"]


def test_a_spec_registered_again_with_another_path_gets_its_own_hook(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_HOOKS", {})
    assert _spec({"h": "json:dumps"}).hook("h") is json.dumps
    assert _spec({"h": "json:loads"}).hook("h") is json.loads
    with pytest.raises(KeyError):
        _spec({}).hook("h")
