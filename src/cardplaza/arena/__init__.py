"""Arena: computer levels against each other on paired deals, with ratings."""

from cardplaza.arena.core import ArenaResult, PairResult, bradley_terry, run_arena

__all__ = ["ArenaResult", "PairResult", "bradley_terry", "run_arena"]
