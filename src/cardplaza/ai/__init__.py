"""Computer players: the generic interface, search and the arena's participants."""

from cardplaza.ai.common import Budget, margin, play_out, player_rollout, random_rollout
from cardplaza.ai.ismcts import ISMCTSPlayer
from cardplaza.ai.pimc import PIMCPlayer
from cardplaza.ai.player import Player, RandomPlayer, computer_player
from cardplaza.ai.solver import Solution, brute_force, solve

__all__ = [
    "Budget", "ISMCTSPlayer", "PIMCPlayer", "Player", "RandomPlayer", "Solution", "brute_force",
    "computer_player", "margin", "play_out", "player_rollout", "random_rollout", "solve",
]
