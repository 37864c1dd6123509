"""Extra facts for a seat's view, computed from its own observation only (never from the
full state) by the game's ``seat_extras`` registry hook, if it has one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardplaza.core.registry import GameSpec, get_game

SeatExtras = Callable[[dict[str, Any]], dict[str, Any] | None]

_HOOKS: dict[str, tuple[GameSpec, SeatExtras | None]] = {}
"""Each game's ``seat_extras`` function (``None``: the game has none) with the spec it was
looked up in, looked up once per spec: the registry imports the hook's module by name on
every lookup."""


def extras(game: str, obs: dict[str, Any]) -> dict[str, Any] | None:
    """Extra facts for a seat's view, computed from its observation; ``None`` if none."""
    spec = get_game(game)
    found = _HOOKS.get(game)
    if found is None or found[0] is not spec:
        fn = spec.hook("seat_extras") if "seat_extras" in spec.hooks else None
        found = _HOOKS[game] = (spec, fn)
    fn = found[1]
    return None if fn is None else fn(obs)
