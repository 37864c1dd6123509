"""Extra benchmark figures for two-hand Pinochle: the meld generator and observations."""

from __future__ import annotations

import random
import time

from cardplaza.games.pinochle2.engine import Options, Pinochle2State, generate_melds


def _positions(count: int) -> list[Pinochle2State]:
    rng = random.Random(7)
    out = []
    for seed in range(count):
        st = Pinochle2State(Options(), seed)
        for _ in range(rng.randrange(0, 30)):
            if st.is_terminal:
                break
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
        out.append(st)
    return out


def extra_benchmarks(seconds: float = 1.0) -> dict[str, float]:
    """Meld-generator calls/s and observation()/s on mid-deal positions."""
    positions = _positions(50)
    figures: dict[str, float] = {}
    n = 0
    start = time.process_time()
    while time.process_time() - start < seconds / 2:
        for st in positions:
            s = st.current_player if st.current_player >= 0 else 0
            generate_melds(st.hands[s], st.melded[s], st.known[s], st.used, st.trump,
                           False, True)
        n += len(positions)
    figures["meld generator calls/s"] = n / (time.process_time() - start)
    n = 0
    start = time.process_time()
    while time.process_time() - start < seconds / 2:
        for st in positions:
            st.observation(0)
        n += len(positions)
    figures["observation()/s"] = n / (time.process_time() - start)
    from cardplaza.games.pinochle2.simulation import simulation_rates

    figures.update(simulation_rates(2 * seconds))
    return figures
