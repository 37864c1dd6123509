"""Extra facts for a seat's view, computed from its own observation only (never from the
full state) by the game's ``seat_extras`` registry hook, if it has one."""

from __future__ import annotations

from typing import Any

from cardplaza.core.registry import get_game


def extras(game: str, obs: dict[str, Any]) -> dict[str, Any] | None:
    """Extra facts for a seat's view, computed from its observation; ``None`` if none."""
    spec = get_game(game)
    if "seat_extras" not in spec.hooks:
        return None
    out: dict[str, Any] | None = spec.hook("seat_extras")(obs)
    return out
