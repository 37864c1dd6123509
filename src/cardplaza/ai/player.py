"""The computer-player interface.

A player decides from an observation (exactly what its seat may see), the legal actions
and its own seeded RNG — never from the full state.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from cardplaza.core.protocol import Action
from cardplaza.core.registry import get_game


class Player(Protocol):
    """Chooses an action; deterministic for a given observation, legal list and RNG state."""

    name: str

    def choose(self, observation: dict[str, Any], legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        """Pick one of ``legal_actions``."""
        ...


class RandomPlayer:
    """Plays a uniformly random legal action."""

    name = "random"

    def choose(self, observation: dict[str, Any], legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        """Uniform choice among the legal actions."""
        return legal_actions[rng.randrange(len(legal_actions))]


def computer_player(game: str, level: str = "random", seed: int = 0) -> Player:
    """The computer player of a game at a level (``random`` is always available)."""
    spec = get_game(game)
    if level == "random":
        return RandomPlayer()
    if "players" not in spec.hooks:
        raise ValueError(f"{game} offers only the random computer player")
    if level not in spec.levels:
        raise ValueError(f"unknown level {level!r} for {game}; levels: {', '.join(spec.levels)}")
    factory: Any = spec.hook("players")
    player: Player = factory(level, seed)
    return player
