"""Benchmark of the Piquet search kernels, compiled beside their Python form.

A play-out is one simulation of the card-play search: a card played in a sampled world,
then the deal rolled out to its last trick (:func:`.kernels.rollout`). The same seeded
worlds are played by the compiled kernel (``rollout_values`` of :data:`.kernels.KERNELS`)
and by the same code run as Python (the reference), in one run, so the ratio holds on a
noisy machine. The exact endgame solver (:func:`.players.exact_values`) is timed the same
way on seven-trick ends.
"""

from __future__ import annotations

import random
import time

from cardplaza.games.piquet import kernels
from cardplaza.games.piquet.players import TrickRules, _rollout_values, exact_values


def _worlds(count: int, seed: int) -> list[tuple[int, list[int], list[int]]]:
    """(my hand, my cards, opponent hands) at the start of the trick phase."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        cards = list(range(32))
        rng.shuffle(cards)
        mine = sum(1 << c for c in cards[:12])
        rest = cards[12:]
        opps = [sum(1 << c for c in rng.sample(rest, 12)) for _ in range(20)]
        out.append((mine, sorted(cards[:12]), opps))
    return out


def _playouts(worlds: list[tuple[int, list[int], list[int]]], compiled: bool) -> float:
    rules = TrickRules(0, False, 10)
    done = 0
    start = time.perf_counter()
    for mine, cards, opps in worlds:
        _rollout_values((mine, 0, 0, -1, 0, 0, 0), 1, opps, cards, rules, compiled)
        done += len(opps) * len(cards)
    return done / (time.perf_counter() - start)


def _endgames(count: int, seed: int, compiled: bool) -> float:
    rng = random.Random(seed)
    rules = TrickRules(0, False, 10)
    nodes = 0
    elapsed = 0.0
    for _ in range(count):
        cards = list(range(32))
        rng.shuffle(cards)
        h0 = sum(1 << c for c in cards[:7])
        h1 = sum(1 << c for c in cards[7:14])
        pos = (h0, h1, 0, -1, 2, 5, -1)
        mine = sorted(cards[:7])
        start = time.perf_counter()
        _vals, n = exact_values(pos, mine, rules, compiled)
        elapsed += time.perf_counter() - start
        nodes += n
    return nodes / elapsed


def search_benchmarks() -> dict[str, float]:
    """Search play-outs/s of the compiled kernel and of its Python form (same worlds,
    same run), their ratio, and the same for the exact solver's positions/s."""
    from cardplaza.ai.compiled import jit_enabled

    if not jit_enabled():
        return {}  # compilation switched off: nothing compiled to measure
    kernels.KERNELS.compile()
    _playouts(_worlds(2, 0), True)  # the first calls set up numba's argument handling
    _endgames(2, 0, True)
    fast = _playouts(_worlds(60, 1), True)
    slow = _playouts(_worlds(6, 1), False)
    fast_nodes = _endgames(30, 2, True)
    slow_nodes = _endgames(4, 2, False)
    return {
        "search play-outs/s": round(fast, 1),
        "search play-outs/s (Python reference)": round(slow, 1),
        "search play-outs speed-up": round(fast / slow, 1),
        "exact solver positions/s": round(fast_nodes, 1),
        "exact solver positions/s (Python reference)": round(slow_nodes, 1),
    }
