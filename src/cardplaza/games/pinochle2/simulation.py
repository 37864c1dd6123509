"""The two-hand search's simulations in the compiled kernel (:mod:`kernels`), from Python.

:func:`simulate_actions` gives the PIMC sums of the search levels: for every candidate the
summed final margin over sampled worlds, drawn from the player's ``random.Random`` exactly
as :func:`world.sample_world` and :class:`cardplaza.ai.pimc.PIMCPlayer` draw them, so the
decisions are those of the protocol-engine search. :func:`position_of` and
:func:`state_array` build the kernels' position array from an observation or a state.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from cardplaza.ai.compiled import mt_state, set_mt_state
from cardplaza.core.protocol import Action
from cardplaza.games.pinochle2.engine import (
    GROUP_KEYS,
    NO_MELD,
    POINTS,
    STEP_NAMES,
    Pinochle2State,
)
from cardplaza.games.pinochle2.kernels import (
    KERNELS,
    KIND_MELD,
    KIND_NO_MELD,
    KIND_PLAY,
    MAX_MELDS,
    S_COUNTERS,
    S_HANDS,
    S_KNOWN,
    S_LAST,
    S_LEAD,
    S_MELD_POINTS,
    S_MELDED,
    S_SIZE,
    S_STEP,
    S_STOCK,
    S_STOCK_LEN,
    S_TRICKS,
    S_TURN,
    S_USED,
)

CHUNK_WORLDS = 16
"""Worlds per kernel call when a time cap is checked between calls."""


def _mask(cards: Any) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


class Position:
    """An observation in the kernels' form: the position array (the opponent's hidden
    cards and the face-down stock left out) and what the world dealer needs."""

    def __init__(self, obs: dict[str, Any]) -> None:
        import numpy as np

        seat = int(obs["seat"])
        opp = 1 - seat
        base = np.zeros(S_SIZE, np.int64)
        base[S_HANDS + seat] = _mask(obs["hand"])
        for s in (0, 1):
            base[S_MELDED + s] = _mask(obs["meld_areas"][s])
            base[S_KNOWN + s] = _mask(obs["known_held"][s])
            base[S_MELD_POINTS + s] = int(obs["meld_points"][s])
        for g, key in enumerate(GROUP_KEYS):
            base[S_USED + g] = _mask(obs["used"][key])
        counters = [0, 0]
        for t in obs["tricks"]:
            counters[int(t["winner"])] += POINTS[int(t["cards"][0])] + POINTS[int(t["cards"][1])]
        base[S_COUNTERS] = counters[0]
        base[S_COUNTERS + 1] = counters[1]
        cur = obs["current_trick"]
        base[S_LEAD] = int(cur["cards"][0]) if cur and cur["cards"] else -1
        base[S_STEP] = STEP_NAMES.index(obs["step"])
        base[S_TURN] = int(obs["to_act"])
        base[S_TRICKS] = len(obs["tricks"])
        base[S_LAST] = -1
        base[S_STOCK_LEN] = int(obs["stock_count"])
        if obs["turn_up"] is not None:
            base[S_STOCK] = int(obs["turn_up"])
        self.base = base
        self.seat = seat
        self.pool = np.array(list(obs["unseen"]) or [0], np.int64)
        self.npool = len(obs["unseen"])
        self.opp_fixed = int(base[S_MELDED + opp] | base[S_KNOWN + opp])
        self.opp_hidden = int(obs["concealed_sizes"][opp]) - int(base[S_KNOWN + opp]).bit_count()
        opts = obs["options"]
        self.trump = int(obs["trump"])
        self.dbl = int(bool(opts["double_melds"]))
        self.ncr = int(bool(opts["new_card_rule"]))


def encode(actions: Sequence[Action]) -> tuple[Any, Any, Any]:
    """Candidate actions as the kernel's (kinds, values, masks) arrays."""
    import numpy as np

    kinds, values, masks = [], [], []
    for a in actions:
        if isinstance(a, tuple):
            kinds.append(KIND_MELD)
            values.append(int(a[0]))
            masks.append(int(a[1]))
        elif a == NO_MELD:
            kinds.append(KIND_NO_MELD)
            values.append(0)
            masks.append(0)
        else:
            assert isinstance(a, int)
            kinds.append(KIND_PLAY)
            values.append(a)
            masks.append(0)
    return (np.array(kinds, np.int64), np.array(values, np.int64), np.array(masks, np.int64))


def buffers() -> tuple[Any, Any, Any, Any]:
    """Scratch arrays of :func:`kernels.simulate`: world, play-out state, pool, melds."""
    import numpy as np

    return (np.zeros(S_SIZE, np.int64), np.zeros(S_SIZE, np.int64), np.zeros(64, np.int64),
            np.zeros((6, MAX_MELDS), np.int64))


def simulate_actions(obs: dict[str, Any], actions: Sequence[Action], worlds: int,
                     rng: random.Random, seconds: float | None = None,
                     min_worlds: int = 1, wins: list[int] | None = None,
                     ) -> tuple[list[float], int]:
    """Summed final margins of the candidates over up to ``worlds`` sampled worlds and the
    number of worlds (fewer when ``seconds`` ran out after ``min_worlds``). Draws from
    ``rng`` what the Python search would have drawn. ``wins``, when given, receives per
    candidate twice the won deals plus the drawn ones."""
    import numpy as np

    pos = Position(obs)
    kinds, values, masks = encode(actions)
    totals = np.zeros(len(actions), np.float64)
    won = np.zeros(len(actions), np.int64)
    work = buffers()
    state = mt_state(rng)
    start = time.thread_time()  # the cap counts this thread's CPU time, not others' load
    done = 0
    while done < worlds:
        k = worlds - done if seconds is None else min(CHUNK_WORLDS, worlds - done)
        KERNELS.simulate(state, k, pos.base, pos.seat, pos.pool, pos.npool, pos.opp_fixed,
                         pos.opp_hidden, pos.trump, pos.dbl, pos.ncr, kinds, values, masks,
                         len(actions), *work, totals, won)
        done += k
        if seconds is not None and done >= min_worlds and \
                time.thread_time() - start >= seconds:
            break
    set_mt_state(rng, state)
    if wins is not None:
        wins[:] = [int(w) for w in won]
    return [float(t) for t in totals], done


def state_array(st: Pinochle2State) -> Any:
    """A full state as the kernels' position array (for tests and benchmarks)."""
    import numpy as np

    s = np.zeros(S_SIZE, np.int64)
    for seat in (0, 1):
        s[S_HANDS + seat] = st.hands[seat]
        s[S_MELDED + seat] = st.melded[seat]
        s[S_KNOWN + seat] = st.known[seat]
        s[S_MELD_POINTS + seat] = st.meld_points[seat]
        s[S_COUNTERS + seat] = st.counters[seat]
    for g in range(6):
        s[S_USED + g] = st.used[g]
    s[S_LEAD] = st.lead
    s[S_STEP] = st.step
    s[S_TURN] = st.turn
    s[S_TRICKS] = len(st.tricks)
    s[S_LAST] = st.last_trick
    s[S_STOCK_LEN] = len(st.stock)
    for i, c in enumerate(st.stock):
        s[S_STOCK + i] = c
    return s
