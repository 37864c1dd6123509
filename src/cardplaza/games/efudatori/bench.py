"""Extra E-fuda-tori benchmark figures: random full games per second for 4 and 5 players."""

from __future__ import annotations

import random
import time

from cardplaza.games.efudatori.rules import Options
from cardplaza.games.efudatori.state import EfudatoriState


def random_games_per_second(players: int, seconds: float = 1.0) -> float:
    """Seeded random full games played per second at ``players`` players."""
    options = Options(players=players)
    start = time.process_time()
    games = 0
    while True:
        state = EfudatoriState(options, games)
        rng = random.Random(games)
        while not state.is_terminal:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        games += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return games / elapsed


def extra_benchmarks() -> dict[str, float]:
    """Random full games/s for 4 and 5 players, and the search kernels' play-outs/s beside
    their Python reference (:mod:`.search_bench`)."""
    from cardplaza.games.efudatori.search_bench import search_benchmarks

    return {
        "random games/s (4 players)": random_games_per_second(4),
        "random games/s (5 players)": random_games_per_second(5),
        **search_benchmarks(),
    }
