"""Golden perft counts (regenerate with ``python scripts/perft.py --write``)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from cardplaza.core.registry import games

ROOT = Path(__file__).resolve().parent.parent
ENTRIES: list[dict[str, Any]] = json.loads((ROOT / "tests/data/perft.json").read_text())
_spec = importlib.util.spec_from_file_location("perft_script", ROOT / "scripts/perft.py")
assert _spec and _spec.loader
perft_script = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(perft_script)


def test_every_game_has_golden_counts() -> None:
    covered = {e["game"] for e in ENTRIES}
    assert covered == set(games()), "run scripts/perft.py --write after adding a game"
    for game in covered:
        assert len({e["seed"] for e in ENTRIES if e["game"] == game}) >= 3


@pytest.mark.parametrize("entry", ENTRIES,
                         ids=[f"{e['game']}-{e['seed']}-{e['steps']}-d{e['depth']}"
                              for e in ENTRIES])
def test_perft_count(entry: dict[str, Any]) -> None:
    assert perft_script.compute(entry) == entry["count"]
