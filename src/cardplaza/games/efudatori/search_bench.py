"""Benchmark of the E-fuda-tori search kernels, compiled beside their Python form.

A play-out is one simulation of the search: a card played in a sampled world, then the
game played to its end through the stock by the heuristic (:func:`.kernels.playout`). The
same seeded worlds of four-player games (at their first trick, the whole stock to come)
are played by the compiled kernel (``playout_values`` of :data:`.kernels.KERNELS`) and by
the same code run as Python (the reference) in one run, so the ratio holds on a noisy
machine.
"""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np

from cardplaza.games.efudatori import kernels
from cardplaza.games.efudatori.rules import Options
from cardplaza.games.efudatori.state import EfudatoriState
from cardplaza.games.efudatori.worlds import HiddenDeals


def _batches(count: int, seed: int) -> list[dict[str, Any]]:
    out = []
    for i in range(count):
        s = EfudatoriState(Options(players=4), seed + i)
        obs = s.observation(s.current_player)
        deals = HiddenDeals(obs)
        rng = random.Random(seed + i)
        worlds = [deals.sample(rng) for _ in range(10)]
        out.append({"hands": [h for h, _s in worlds], "stocks": [st for _h, st in worlds],
                    "cards": list(s.legal_actions()), "seat": s.current_player,
                    "leader": s.leader, "k": s.trick_number, "total": s.tricks_total})
    return out


def _rate(batches: list[dict[str, Any]], compiled: bool) -> float:
    done = 0
    playout_values = kernels.KERNELS.entry("playout_values", compiled)
    start = time.perf_counter()
    for b in batches:
        stocks = np.array(b["stocks"], dtype=np.int64)
        out = np.zeros((2 * len(b["hands"]), len(b["cards"])), dtype=np.float64)
        playout_values(np.array(b["hands"], dtype=np.int64), stocks, 2,
                       np.zeros(0, dtype=np.int64), b["leader"], b["k"],
                       np.zeros(4, dtype=np.int64), np.array(b["cards"], dtype=np.int64),
                       b["seat"], 4, b["total"], 0, 7,
                       np.zeros((kernels.WORK_ROWS, stocks.shape[1]), dtype=np.int64), out)
        done += 2 * len(b["hands"]) * len(b["cards"])
    return done / (time.perf_counter() - start)


def search_benchmarks() -> dict[str, float]:
    """Search play-outs/s of the compiled kernel and of its Python form (same worlds, same
    run) and their ratio."""
    from cardplaza.ai.compiled import jit_enabled

    if not jit_enabled():
        return {}  # compilation switched off: nothing compiled to measure
    kernels.KERNELS.compile()
    _rate(_batches(1, 0), True)  # the first call sets up numba's argument handling
    fast = _rate(_batches(100, 1), True)
    slow = _rate(_batches(8, 1), False)
    return {
        "search play-outs/s": round(fast, 1),
        "search play-outs/s (Python reference)": round(slow, 1),
        "search play-outs speed-up": round(fast / slow, 1),
    }
