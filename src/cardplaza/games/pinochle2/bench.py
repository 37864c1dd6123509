"""Extra benchmark figures for two-hand Pinochle: the meld generator, observations and the
search's simulations."""

from __future__ import annotations

import random
import time
from typing import Any

from cardplaza.core.protocol import Action
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
    figures.update(simulation_rates(2 * seconds))
    return figures


def simulation_rates(seconds: float = 1.0, seed: int = 0) -> dict[str, float]:
    """Simulations per second of the search (a sampled world played to the end of the deal
    with level 3 after one candidate), by the compiled kernel (``search play-outs/s``) and
    by the same search on the protocol engine (:class:`cardplaza.ai.pimc.PIMCPlayer` with
    :func:`players.level3_rollout`), on the same stock-phase positions in the same run."""
    from cardplaza.ai.pimc import PIMCPlayer
    from cardplaza.games.pinochle2 import SPEC
    from cardplaza.games.pinochle2.kernels import KERNELS
    from cardplaza.games.pinochle2.players import distinct_candidates, level3_rollout
    from cardplaza.games.pinochle2.simulation import simulate_actions

    KERNELS.compile()
    rng = random.Random(seed)
    positions: list[tuple[dict[str, Any], list[Action]]] = []
    while len(positions) < 20:
        st = Pinochle2State(None, rng.randrange(1 << 30))
        for _ in range(rng.randrange(0, 16)):
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
        legal = st.legal_actions()
        if st.stock and len(legal) > 1:
            obs = st.observation(st.turn)
            positions.append((obs, list(distinct_candidates(obs, legal))))
    figures: dict[str, float] = {}
    engine = PIMCPlayer(SPEC, worlds=4, rollout=level3_rollout)

    def compiled(obs: dict[str, Any], actions: list[Action]) -> int:
        return simulate_actions(obs, actions, 40, rng)[1] * len(actions)

    def python(obs: dict[str, Any], actions: list[Action]) -> int:
        engine.action_values(obs, actions, rng)
        return 4 * len(actions)

    for name, run in (("search play-outs/s", compiled),
                      ("search play-outs/s (Python reference)", python)):
        done = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds / 2:
            for obs, actions in positions:
                done += run(obs, actions)
                if time.perf_counter() - start >= seconds / 2:
                    break
        figures[name] = done / (time.perf_counter() - start)
    return figures
