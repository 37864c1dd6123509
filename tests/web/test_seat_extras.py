"""A seat's extra facts come from its own game's hook, looked up once per registered spec:
a game registered again with another hook is answered by the new one."""

from __future__ import annotations

import dataclasses
from typing import Any

from cardplaza.core import new_game
from cardplaza.core.registry import _GAMES, get_game, register
from cardplaza.games.pinochle4.seat_helpers import seat_extras
from cardplaza.web.live.extras import extras


def shown(obs: dict[str, Any]) -> dict[str, Any]:
    return {"seat seen": obs["seat"]}


def test_each_seat_gets_its_games_hook_of_its_own_observation() -> None:
    state = new_game("pinochle4", seed=5)
    for seat in range(4):
        obs = state.observation(seat)
        assert extras("pinochle4", obs) == seat_extras(obs)
    assert extras("pinochle2", new_game("pinochle2", seed=5).observation(0)) is None


def test_a_game_registered_again_is_answered_by_its_new_hook() -> None:
    spec = get_game("pinochle4")
    obs = new_game("pinochle4", seed=6).observation(2)
    assert extras("pinochle4", obs) == seat_extras(obs)  # the old hook, now cached
    other = dataclasses.replace(
        spec, hooks={**spec.hooks, "seat_extras": f"{__name__}:shown"})
    try:
        register(other)
        assert extras("pinochle4", obs) == {"seat seen": 2}
        register(dataclasses.replace(
            spec, hooks={k: v for k, v in spec.hooks.items() if k != "seat_extras"}))
        assert extras("pinochle4", obs) is None
    finally:
        _GAMES["pinochle4"] = spec
    assert extras("pinochle4", obs) == seat_extras(obs)
