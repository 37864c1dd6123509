"""Extra benchmark figures: random full hands per second and meld-calculator speed."""

from __future__ import annotations

import random
import time

from cardplaza.games.pinochle4.engine import BIDDING, K_BID, PASS, Options, PinochleState
from cardplaza.games.pinochle4.meld import meld_breakdown, meld_total, meld_totals
from cardplaza.games.pinochle4.rules import deal


def random_hands_per_second(seconds: float = 1.0, seed: int = 0) -> float:
    """Complete hands (deal, auction, trump, passing, meld, 12 tricks, scoring) per second,
    random legal play with a sensible auction (first bid, then passes)."""
    st = PinochleState(Options(), seed)
    rng = random.Random(seed)
    hands = 0
    start = time.process_time()
    end = start + seconds
    while time.process_time() < end:
        for _ in range(20):
            before = st.hand_no
            while st.hand_no == before and not st.is_terminal:
                if st.phase == BIDDING:
                    st.apply((K_BID, st.next_bid_min()) if st.high_bid == 0 else PASS)
                    continue
                legal = st.legal_actions()
                st.apply(legal[rng.randrange(len(legal))])
            hands += 1
            if st.is_terminal:
                st = PinochleState(Options(), rng.randrange(1 << 30))
    return hands / (time.process_time() - start)


def meld_calls_per_second(seconds: float = 1.0, seed: int = 0) -> dict[str, float]:
    """Calls per second of the meld total, all-four-suits totals and breakdown."""
    rng = random.Random(seed)
    hands = [deal(rng, 4)[0][0] for _ in range(2000)]
    out = {}
    for name, fn in (("meld_total()/s", lambda h: meld_total(h, 1)),
                     ("meld_totals() of 4 suits/s", meld_totals),
                     ("meld_breakdown()/s", lambda h: meld_breakdown(h, 1))):
        calls = 0
        start = time.process_time()
        while time.process_time() - start < seconds / 3:
            for h in hands:
                fn(h)
            calls += len(hands)
        out[name] = calls / (time.process_time() - start)
    return out


def extra_benchmarks() -> dict[str, float]:
    """Figures for ``cardplaza bench pinochle4``."""
    from cardplaza.games.pinochle4.search_bench import playout_rates

    return {"random hands/s (one bid, then passes)": random_hands_per_second(),
            **meld_calls_per_second(), **playout_rates()}


def cutthroat_benchmarks() -> dict[str, float]:
    """Figures for ``cardplaza bench pinochle3``: the three-hand search play-outs."""
    from cardplaza.games.pinochle4.search_bench import playout_rates

    return playout_rates(players=3)
