"""Computer players: the generic interface, search and the arena's participants."""

from cardplaza.ai.player import Player, RandomPlayer, computer_player

__all__ = ["Player", "RandomPlayer", "computer_player"]
