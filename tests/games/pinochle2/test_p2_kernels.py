"""Two-hand simulation kernels against the protocol engine and their Python forms.

The kernel's rollout must be level 3 on the engine (melds, dix exchange, draws, trick-12
reveals, the playoff), and the kernel search must be the PIMC search on the engine: the
same sums from the same random numbers.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from cardplaza.ai.common import play_out
from cardplaza.ai.compiled import mt_state
from cardplaza.ai.pimc import PIMCPlayer
from cardplaza.games.pinochle2 import SPEC
from cardplaza.games.pinochle2.engine import Options, Pinochle2State
from cardplaza.games.pinochle2.kernels import (
    KERNELS,
    S_COUNTERS,
    S_LAST,
    S_MELD_POINTS,
    S_STEP,
    STEP_END,
)
from cardplaza.games.pinochle2.players import distinct_candidates, level3_rollout
from cardplaza.games.pinochle2.simulation import (
    Position,
    buffers,
    encode,
    simulate_actions,
    state_array,
)

OPTIONS = (Options(), Options(double_melds=True), Options(new_card_rule=False))


def _random_state(seed: int, opts: Options, most: int = 60) -> Pinochle2State:
    st = Pinochle2State(opts, seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, most)):
        if st.is_terminal:
            break
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    return st


def _result(s: object) -> tuple[list[int], list[int], int]:
    a = np.asarray(s)
    return ([int(a[S_COUNTERS]), int(a[S_COUNTERS + 1])],
            [int(a[S_MELD_POINTS]), int(a[S_MELD_POINTS + 1])], int(a[S_LAST]))


@pytest.mark.parametrize("opts", OPTIONS)
def test_rollout_kernel_is_level3_on_the_engine(opts: Options) -> None:
    checked = 0
    for seed in range(150):
        st = _random_state(seed, opts)
        if st.is_terminal:
            continue
        ref = st.clone()
        play_out(ref, level3_rollout, random.Random(0))
        want = (list(ref.counters), list(ref.meld_points), ref.last_trick)
        kernels = [KERNELS.rollout] + ([KERNELS.reference("rollout")] if seed < 15 else [])
        for fn in kernels:
            s = state_array(st)
            fn(s, st.trump, int(opts.double_melds), int(opts.new_card_rule), buffers()[3])
            assert s[S_STEP] == STEP_END
            assert _result(s) == want, seed
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("opts", OPTIONS[:2])
def test_kernel_search_is_the_engine_search(opts: Options) -> None:
    """simulate_actions equals PIMCPlayer.action_values on the engine with level 3
    rollouts: same sums, and the player's generator left in the same state."""
    engine = PIMCPlayer(SPEC, worlds=6, rollout=level3_rollout)
    checked = 0
    for seed in range(40):
        st = _random_state(seed, opts, 30)
        if st.is_terminal or not st.stock or len(st.legal_actions()) < 2:
            continue
        obs = st.observation(st.turn)
        actions = list(distinct_candidates(obs, st.legal_actions()))
        rng, ref = random.Random(seed), random.Random(seed)
        totals, done = simulate_actions(obs, actions, 6, rng)
        want = engine.action_values(obs, actions, ref)
        assert done == 6
        assert [t / 6 for t in totals] == [want[a] for a in actions]
        assert rng.getstate() == ref.getstate()
        checked += 1
    assert checked >= 10


def test_compiled_simulation_is_its_python_form() -> None:
    st = _random_state(3, Options(), 10)
    while not st.stock or len(st.legal_actions()) < 2:
        st.apply(level3_rollout(st, random.Random(0)))
    obs = st.observation(st.turn)
    actions = list(distinct_candidates(obs, st.legal_actions()))
    pos = Position(obs)
    outs = []
    for fn in (KERNELS.simulate, KERNELS.reference("simulate")):
        state = mt_state(random.Random(4))
        totals = np.zeros(len(actions), np.float64)
        wins = np.zeros(len(actions), np.int64)
        fn(state, 3, pos.base, pos.seat, pos.pool, pos.npool, pos.opp_fixed, pos.opp_hidden,
           pos.trump, pos.dbl, pos.ncr, *encode(actions), len(actions), *buffers(), totals,
           wins)
        outs.append((totals.tolist(), wins.tolist(), state.tolist()))
    assert outs[0] == outs[1]


def test_simulation_rates_report_both_forms() -> None:
    from cardplaza.games.pinochle2.bench import simulation_rates

    figures = simulation_rates(0.2)
    assert figures["search play-outs/s"] > figures["search play-outs/s (Python reference)"]


def test_evaluate_gives_every_candidate_its_margin_and_win_chance() -> None:
    from cardplaza.games.pinochle2.players import SimulationPlayer
    from cardplaza.games.pinochle2.solver import solve_playoff

    player = SimulationPlayer("5", 30, exact_playoff=True, min_samples=30)
    st = _random_state(11, Options(), 12)
    while not st.stock or len(st.legal_actions()) < 2:
        st.apply(level3_rollout(st, random.Random(0)))
    obs = st.observation(st.turn)
    evals = player.evaluate(obs, st.legal_actions(), random.Random(2))
    actions = list(distinct_candidates(obs, st.legal_actions()))
    assert [e.action for e in evals] == actions
    means = player.search.action_values(obs, actions, random.Random(2))
    assert [e.points for e in evals] == [means[a] for a in actions]
    assert all(0.0 <= e.chance <= 1.0 and e.worlds == 30 and e.chance_of == "win"  # type: ignore[operator]
               for e in evals)
    while st.stock or st.step != 0:  # the playoff: exact values
        st.apply(level3_rollout(st, random.Random(0)))
    obs = st.observation(st.turn)
    evals = player.evaluate(obs, st.legal_actions(), random.Random(2))
    assert evals and all(e.exact and e.worlds == 0 for e in evals)
    a, b = st.totals()
    now = (a - b) if st.turn == 0 else (b - a)
    assert max(e.points for e in evals) == now + solve_playoff(st).value
