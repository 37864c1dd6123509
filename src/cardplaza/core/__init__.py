"""Foundation shared by every game: cards, the game protocol, registry, history, seats."""

from cardplaza.core.cards import (
    FULL_DECK,
    PINOCHLE,
    PIQUET,
    CardParseError,
    Deck,
    Rank,
    Suit,
    bits,
    mask_of,
    parse_face,
)
from cardplaza.core.history import GameRecord
from cardplaza.core.options import options_from_dict, options_to_dict, parse_options_text
from cardplaza.core.protocol import (
    JSON,
    TERMINAL,
    Action,
    ActionParseError,
    GameState,
    IllegalAction,
    copy_rng,
)
from cardplaza.core.registry import GameSpec, games, get_game, new_game, register
from cardplaza.core.seats import next_seat, opponents, partner, team_of

__all__ = [
    "FULL_DECK", "JSON", "PINOCHLE", "PIQUET", "TERMINAL", "Action", "ActionParseError",
    "CardParseError", "Deck", "GameRecord", "GameSpec", "GameState", "IllegalAction", "Rank",
    "Suit", "bits", "copy_rng", "games", "get_game", "mask_of", "new_game", "next_seat",
    "opponents", "options_from_dict", "options_to_dict", "parse_face", "parse_options_text",
    "partner", "register", "team_of",
]
