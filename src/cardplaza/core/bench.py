"""Engine benchmarks through the protocol: random full games, ``legal_actions`` and ``clone``."""

from __future__ import annotations

import random
import time
from typing import Any

from cardplaza.core.protocol import GameState
from cardplaza.core.registry import GameSpec


def random_steps(state: GameState, rng: random.Random, steps: int | None = None) -> int:
    """Apply up to ``steps`` uniformly random legal actions (to the end if ``None``).

    Returns the number applied; used for benchmarks and to reach test positions.
    """
    n = 0
    while not state.is_terminal and (steps is None or n < steps):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        n += 1
    return n


def _rate(fn: Any, seconds: float) -> float:
    """Calls of ``fn`` per second over about ``seconds``."""
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        fn()
        count += 1
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start)


def engine_benchmarks(spec: GameSpec, options: Any, seconds: float = 2.0) -> dict[str, float]:
    """Random full games/s, ``legal_actions()``/s and ``clone()``/s on one core."""
    rng = random.Random(12345)
    seeds = iter(range(1, 10**9))

    def one_game() -> None:
        random_steps(spec.new_game(options, next(seeds)), rng)

    # Mid-game positions for the per-call measurements.
    positions: list[GameState] = []
    for seed in range(40):
        state = spec.new_game(options, 10_000 + seed)
        random_steps(state, rng, rng.randrange(1, 40))
        if not state.is_terminal:
            positions.append(state)
    cycle = iter(lambda: positions[rng.randrange(len(positions))], None)

    figures = {"random full games/s": _rate(one_game, seconds)}
    figures["legal_actions()/s"] = _rate(lambda: next(cycle).legal_actions(), seconds / 2)
    figures["clone()/s"] = _rate(lambda: next(cycle).clone(), seconds / 2)
    return figures
