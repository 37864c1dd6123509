"""Extra Piquet benchmark figures: random full deals and parties per second."""

from __future__ import annotations

import random
import time

from cardplaza.games.piquet.options import Options
from cardplaza.games.piquet.state import PiquetState


def _random_deals(n: int, seed: int) -> float:
    rng = random.Random(seed)
    t0 = time.perf_counter()
    done = 0
    st = PiquetState(Options(), seed)
    while done < n:
        deal = st.deal_number
        while st.deal_number == deal and not st.is_terminal:
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
        done += 1
        if st.is_terminal:
            st = PiquetState(Options(), seed + done)
    return n / (time.perf_counter() - t0)


def _random_parties(n: int, seed: int) -> float:
    rng = random.Random(seed)
    t0 = time.perf_counter()
    for i in range(n):
        st = PiquetState(Options(), seed + i)
        while not st.is_terminal:
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
    return n / (time.perf_counter() - t0)


def extra_benchmarks() -> dict[str, float]:
    """Random full deals/s and random full parties/s (default options), and the search
    kernels' play-outs/s beside their Python reference (:mod:`.search_bench`)."""
    from cardplaza.games.piquet.search_bench import search_benchmarks

    return {
        "random_deals_per_s": round(_random_deals(600, 1), 1),
        "random_parties_per_s": round(_random_parties(100, 2), 1),
        **search_benchmarks(),
    }
