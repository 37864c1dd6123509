"""Computer decisions as picklable functions of a seat's observation (run in workers).

:func:`decide` is what a worker process runs for a computer seat: the game, the level, the
seat's observation, its legal actions and a seed for the player's RNG — never the state.
Players are cached per process (a level's player is built once per game seed).

Each game's *quick level* is a rule-based level that answers in about a millisecond; it
plays when a searching level misses its deadline, and levels at or below it are cheap
enough to run in a thread of the server process itself.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from cardplaza.ai.player import Player, computer_player
from cardplaza.core.protocol import Action
from cardplaza.core.registry import GameSpec

QUICK_LEVELS: dict[str, str] = {
    "pinochle2": "3",
    "pinochle4": "normal",
    "pinochle3": "normal",
    "piquet": "2",
    "efudatori": "2",
}
"""Each game's quick level (rule-based, no search); ``random`` for games not listed."""

_CACHE_SIZE = 64
_players: OrderedDict[tuple[str, str, int], Player] = OrderedDict()


def player_for(game: str, level: str, seed: int) -> Player:
    """The (cached) computer player of a game, level and seed in this process."""
    key = (game, level, seed)
    player = _players.get(key)
    if player is None:
        player = computer_player(game, level, seed)
        _players[key] = player
        if len(_players) > _CACHE_SIZE:
            _players.popitem(last=False)
    else:
        _players.move_to_end(key)
    return player


def decide(game: str, level: str, player_seed: int, observation: dict[str, Any],
           legal: Sequence[Action], rng_seed: int) -> Action:
    """One computer decision from the seat's observation alone."""
    player = player_for(game, level, player_seed)
    return player.choose(observation, legal, random.Random(rng_seed))


def quick_level(spec: GameSpec, level: str) -> str:
    """The level that stands in for ``level`` when it misses its deadline."""
    quick = QUICK_LEVELS.get(spec.name, "random")
    levels = list(spec.levels)
    if quick not in levels and quick != "random":
        return "random"
    if level == "random" or level not in levels:
        return "random" if level == "random" else quick
    if quick == "random":
        return "random"
    return level if levels.index(level) <= levels.index(quick) else quick


def runs_in_process(spec: GameSpec, level: str) -> bool:
    """True for levels cheap enough for a thread of the server (random and quick ones)."""
    return quick_level(spec, level) == level
