"""What the lobby needs to know about each registered game: options schema, levels, deck."""

from __future__ import annotations

import dataclasses
import typing
from typing import Any, Literal, get_args, get_origin, get_type_hints

from cardplaza.core.cards import FULL_DECK, PINOCHLE, PIQUET, Deck
from cardplaza.core.protocol import GameState
from cardplaza.core.registry import GameSpec

_DECKS: dict[str, Deck] = {"pinochle": PINOCHLE, "piquet": PIQUET, "efudatori": FULL_DECK}


def deck_of(state: GameState) -> Deck | None:
    """The deck a game's card ints refer to (``state.deck`` if set, else by name)."""
    deck = getattr(state, "deck", None)
    if isinstance(deck, Deck):
        return deck
    for prefix, d in _DECKS.items():
        if state.game_name.startswith(prefix):
            return d
    return None


def deck_json(deck: Deck | None) -> list[str] | None:
    """Card id → ASCII text (``AS``, ``10H``, ``Jo``) for the whole deck."""
    if deck is None:
        return None
    return [deck.text(c, ascii_only=True) for c in range(deck.size)]


def option_fields(options_type: type[Any]) -> list[dict[str, Any]]:
    """Schema of an ``Options`` dataclass: name, kind, choices, default (and metadata)."""
    hints = get_type_hints(options_type)
    defaults = options_type()
    out: list[dict[str, Any]] = []
    for f in dataclasses.fields(options_type):
        hint = hints[f.name]
        entry: dict[str, Any] = {"name": f.name}
        origin = get_origin(hint)
        if origin is Literal:
            entry["kind"] = "choice"
            entry["choices"] = list(get_args(hint))
        elif origin in (tuple, typing.Tuple):  # noqa: UP006 - runtime check on both spellings
            entry["kind"] = "list"
        elif hint is bool:
            entry["kind"] = "bool"
        elif hint is int:
            entry["kind"] = "int"
        elif hint is float:
            entry["kind"] = "float"
        else:
            entry["kind"] = "text"
        value = getattr(defaults, f.name)
        entry["default"] = list(value) if isinstance(value, tuple) else value
        for key in ("help", "help_ja", "label", "label_ja", "min", "max", "step", "choices",
                    "more"):
            if key in f.metadata:
                entry[key] = f.metadata[key]
        out.append(entry)
    return out


def game_info(spec: GameSpec) -> dict[str, Any]:
    """JSON description of one game for the lobby."""
    state = spec.new_game(None, 0)
    return {
        "name": spec.name,
        "title": spec.title,
        "title_ja": spec.title_ja,
        "options": option_fields(spec.options_type),
        "presets": sorted(spec.presets),
        "levels": list(spec.levels),
        "players": state.num_players,
        "deck": deck_json(deck_of(state)),
    }
