"""Small seeded two-hand Pinochle arena runs (levels wired in for the test only)."""

from __future__ import annotations

import dataclasses

import pytest

from cardplaza.arena import run_arena
from cardplaza.core import registry
from cardplaza.core.registry import get_game
from cardplaza.games.pinochle2.players import PLAYER_LEVELS


@pytest.fixture
def pinochle2(monkeypatch: pytest.MonkeyPatch) -> str:
    spec = get_game("pinochle2")
    wired = dataclasses.replace(
        spec, levels=("random", *PLAYER_LEVELS),
        hooks={**spec.hooks, "players": "cardplaza.games.pinochle2.players:make_player"})
    monkeypatch.setitem(registry._GAMES, "pinochle2", wired)
    return "pinochle2"


def test_rule_based_levels_are_ordered_on_paired_deals(pinochle2: str) -> None:
    result = run_arena(pinochle2, ["random", "2", "3"], deals=40, seed=100)
    assert result.pair("2", "random").mean_margin > 0
    assert result.pair("3", "random").mean_margin > 0
    assert result.ratings is not None
    assert result.ratings["3"] > 0 and result.ratings["2"] > 0
    for p in result.pairs:
        assert p.games == 80 and p.wins + p.draws + p.losses == 80


def test_pinochle2_arena_is_reproducible_across_workers(pinochle2: str) -> None:
    one = run_arena(pinochle2, ["1", "3"], deals=6, seed=7, jobs=1)
    two = run_arena(pinochle2, ["1", "3"], deals=6, seed=7, jobs=2)
    assert one.pairs[0].margins == two.pairs[0].margins
