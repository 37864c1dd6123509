"""Computer decisions that are the same for everyone given the same play.

A daily deal or a challenge compares people who played the same cards against the same
computers, so a computer's decision there must depend on nothing but the deal, the seat's
observation and the decision point: never on the clock, on which worker process answered,
or on what that process decided before. :func:`decide_fixed` builds a fresh player for each
decision (no memory carried between decisions), lifts every time cap of the level (its
iteration budget alone stops the search: the level as it plays when its clock does not bind)
and draws from a :class:`random.Random` seeded by the caller from the deal and the decision
point. The same arguments give the same action in any process, at any load.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from cardplaza.ai.player import Player, computer_player
from cardplaza.core.protocol import Action

TIME_CAPS = ("seconds", "cpu_seconds", "time_cap")
"""Attribute names under which the computer players keep a clock budget."""

__all__ = ["TIME_CAPS", "decide_fixed", "fixed_player", "untimed"]


def untimed(player: Any) -> Any:
    """``player`` with every clock budget lifted (set to infinity), on itself and on the
    search objects it holds: its decisions then depend on the iteration budget only."""
    seen: set[int] = set()
    todo: list[Any] = [player]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or not hasattr(obj, "__dict__"):
            continue
        seen.add(id(obj))
        for name in TIME_CAPS:
            value = obj.__dict__.get(name)
            if isinstance(value, int | float) and not isinstance(value, bool):
                setattr(obj, name, math.inf)
        for value in list(obj.__dict__.values()):
            if hasattr(value, "__dict__") and type(value).__module__.startswith("cardplaza."):
                todo.append(value)
    return player


def fixed_player(game: str, level: str, seed: int) -> Player:
    """A fresh player of a level with no clock budget."""
    player: Player = untimed(computer_player(game, level, seed))
    return player


def decide_fixed(game: str, level: str, player_seed: int, observation: dict[str, Any],
                 legal: Sequence[Action], rng_seed: int) -> Action:
    """One computer decision that depends only on its arguments (see the module text)."""
    if len(legal) == 1:
        return legal[0]
    player = fixed_player(game, level, player_seed)
    return player.choose(observation, legal, random.Random(rng_seed))
