"""Registry of games by name.

Each game package calls :func:`register` when imported; :func:`load_all` imports every
package under ``cardplaza.games``, so adding a game never touches the front ends.

Optional hooks are ``"module:attribute"`` import paths, loaded only when needed so the
pure engines never import presentation code:

* ``terminal`` — a class ``View(console, seat, lang="en")`` for terminal play (see
  ``cardplaza.cli``);
* ``bench`` — a function ``() -> dict[str, float]`` of extra benchmark figures;
* ``players`` — a function ``(level: str, seed: int) -> Player`` for computer levels;
* ``odds`` — a function ``(simulate: int | None, seed: int) -> dict`` of exact odds;
* ``seat_extras`` — a function ``(observation) -> dict | None`` of extra facts for a seat's
  view in the browser (computed from that seat's observation only);
* ``rematch`` — a function ``(options, finished_state) -> options`` giving the options of
  the next game at the same table ("play again"); without it the options stay the same.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cardplaza.core.options import options_from_dict
from cardplaza.core.protocol import GameState


@dataclass(frozen=True)
class GameSpec:
    """How to create and study one game."""

    name: str
    title: str
    title_ja: str
    options_type: type[Any]
    new_state: Callable[[Any, int], GameState]
    presets: Mapping[str, Any] = field(default_factory=dict)
    """Named option sets every conformance test also runs (``"default"`` is implied)."""
    check_invariants: Callable[[GameState], None] | None = None
    """Raises ``AssertionError`` if a state breaks a game invariant (cards conserved …)."""
    permute_unseen: Callable[[GameState, int, random.Random], GameState] | None = None
    """A copy where the cards ``seat`` cannot see are re-dealt among their hidden places."""
    sample_world: Callable[[dict[str, Any], random.Random], GameState] | None = None
    """A full state consistent with an observation (the determinizer)."""
    levels: tuple[str, ...] = ("random",)
    """Computer levels offered, weakest first."""
    deals_played: Callable[[GameState], int] | None = None
    """For a game of several deals: how many deals a (finished) game has dealt."""
    redeals: Callable[[GameState], int] | None = None
    """For a game whose deal can be redealt unplayed (everybody passed): how many of the
    deals dealt so far were."""
    hooks: Mapping[str, str] = field(default_factory=dict)

    def options(self, data: dict[str, Any] | None = None) -> Any:
        """Options from a dict (defaults for missing keys)."""
        return options_from_dict(self.options_type, data or {})

    def all_presets(self) -> dict[str, Any]:
        """``default`` plus the named presets."""
        return {"default": self.options_type(), **self.presets}

    def new_game(self, options: Any = None, seed: int = 0) -> GameState:
        """A new game with these options (defaults if ``None``) from a seed."""
        return self.new_state(self.options_type() if options is None else options, seed)

    def rematch_options(self, options: Any, finished: GameState) -> Any:
        """The options of the next game after ``finished`` ("play again")."""
        if "rematch" not in self.hooks:
            return options
        return self.hook("rematch")(options, finished)

    def hook(self, key: str) -> Any:
        """Load an optional hook; ``KeyError`` if the game has none. Each import path is
        resolved once (the server asks for some hooks on every message)."""
        path = self.hooks[key]
        found = _HOOKS.get(path)
        if found is None:
            module, _, attr = path.partition(":")
            found = _HOOKS[path] = getattr(importlib.import_module(module), attr)
        return found


_HOOKS: dict[str, Any] = {}
"""Hooks already loaded, by import path."""


_GAMES: dict[str, GameSpec] = {}
_loaded = False


def register(spec: GameSpec) -> GameSpec:
    """Add a game to the registry (idempotent for the same name)."""
    _GAMES[spec.name] = spec
    return spec


def load_all() -> None:
    """Import every game package so each registers itself; the package is scanned once."""
    global _loaded
    if _loaded:
        return
    import cardplaza.games as games_pkg

    for info in pkgutil.iter_modules(games_pkg.__path__):
        if info.ispkg:
            importlib.import_module(f"cardplaza.games.{info.name}")
    _loaded = True


def games() -> dict[str, GameSpec]:
    """Every registered game by name, in a stable order."""
    load_all()
    return dict(sorted(_GAMES.items()))


def get_game(name: str) -> GameSpec:
    """The spec of a game; ``KeyError`` with the known names otherwise."""
    spec = _GAMES.get(name) if _loaded else None
    if spec is not None:
        return spec
    load_all()
    try:
        return _GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(sorted(_GAMES))}") \
            from None


def new_game(name: str, options: Any = None, seed: int = 0) -> GameState:
    """Shortcut: a new game by registry name."""
    return get_game(name).new_game(options, seed)
