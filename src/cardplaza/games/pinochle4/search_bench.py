"""Benchmark of the search play-outs: the compiled kernel beside its Python reference."""

from __future__ import annotations

import random
import time

from cardplaza.games.pinochle4.fast import play_out
from cardplaza.games.pinochle4.rules import counter_table, deal


def playout_rates(seconds: float = 1.0, players: int = 4, seed: int = 0) -> dict[str, float]:
    """Full play-outs of freshly dealt hands per second (12 tricks, or 15 in cut-throat),
    by the compiled kernel (``search play-outs/s``) and by :func:`fast.play_out`, the
    plain-Python policy the kernel reproduces, on the same deals in the same run."""
    import numpy as np

    from cardplaza.games.pinochle4.kernels import KERNELS

    rng = random.Random(seed)
    count = 2000
    worlds = [deal(rng, players)[0] for _ in range(count)]
    trumps = [rng.randrange(4) for _ in range(count)]
    leaders = [rng.randrange(players) for _ in range(count)]
    values = counter_table("A", False)
    KERNELS.compile()
    w = np.array(worlds, dtype=np.int64)
    t = np.array(trumps, dtype=np.int64)
    ld = np.array(leaders, dtype=np.int64)
    v = np.array(values, dtype=np.int64)
    hands, trick, pts = (np.zeros(4, np.int64) for _ in range(3))
    points = np.zeros(count, np.int64)
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds / 2:
        KERNELS.play_out_many(w, count, players, t, ld, 0, v, hands, trick, pts, points)
        done += count
    compiled = done / (time.perf_counter() - start)
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds / 2:
        for i in range(count):
            play_out(worlds[i][:], [], leaders[i], players, trumps[i], False, values)
            done += 1
            if done % 200 == 0 and time.perf_counter() - start >= seconds / 2:
                break
    python = done / (time.perf_counter() - start)
    return {"search play-outs/s": compiled, "search play-outs/s (Python reference)": python}
