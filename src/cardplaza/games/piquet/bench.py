"""Extra Piquet benchmark figures: the declaration and exchange phases alone."""

from __future__ import annotations

import random
import time

from cardplaza.games.piquet.options import Options
from cardplaza.games.piquet.state import PLAY, PiquetState


def _random_openings(seconds: float, seed: int) -> float:
    """Deals played from the shuffle to the first lead (exchanges and declarations) per
    CPU second, random legal choices."""
    rng = random.Random(seed)
    done = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        st = PiquetState(Options(), seed + done)
        while st.phase < PLAY:
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
        done += 1
    return done / (time.process_time() - start)


def extra_benchmarks() -> dict[str, float]:
    """Random deals to the first lead per second (default options), and the search
    kernels' play-outs/s beside their Python reference (:mod:`.search_bench`)."""
    from cardplaza.games.piquet.search_bench import search_benchmarks

    return {"random deals to the first lead/s": _random_openings(1.0, 2),
            **search_benchmarks()}
