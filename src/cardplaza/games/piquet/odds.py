"""Exact odds of Piquet events, checked against simulation through the engine's dealer."""

from __future__ import annotations

import math
from fractions import Fraction
from math import comb
from typing import Any

from cardplaza.games.piquet.combos import COURT_MASK


def carte_blanche_probability() -> Fraction:
    """Exact probability that a given player's 12 dealt cards hold no K, Q or J.

    The 32-card deck has 20 non-court cards: C(20, 12) / C(32, 12).
    """
    return Fraction(comb(20, 12), comb(32, 12))


def carte_blanche_either_probability() -> Fraction:
    """Exact probability that either player holds carte blanche (they cannot both)."""
    return 2 * carte_blanche_probability()


def simulate_carte_blanche(deals: int, seed: int) -> tuple[int, int]:
    """Deal ``deals`` times through the engine; return (hands without court cards, hands)."""
    from cardplaza.games.piquet.options import Options
    from cardplaza.games.piquet.state import PiquetState

    st = PiquetState(Options(), seed)
    hits = 0
    for _ in range(deals):
        st._start_deal()
        hits += (st.dealt[0] & COURT_MASK == 0) + (st.dealt[1] & COURT_MASK == 0)
    return hits, 2 * deals


def odds(simulate: int | None = None, seed: int = 0) -> dict[str, Any]:
    """Exact carte blanche odds (the CLI's odds table), optionally with a simulation."""
    p = carte_blanche_probability()
    rows: list[dict[str, Any]] = [
        {"meld": "carte blanche (no K, Q, J)", "scope": "one player's 12 dealt cards",
         "probability": float(p), "exact": f"{p.numerator}/{p.denominator}"},
        {"meld": "carte blanche, either player", "scope": "one deal",
         "probability": float(2 * p), "exact": f"{2 * p.numerator}/{p.denominator}"},
    ]
    if simulate:
        hits, hands = simulate_carte_blanche(simulate, seed)
        for row, n, k in ((rows[0], hands, hits), (rows[1], simulate, hits)):
            q = row["probability"]
            row["simulated"] = k / n
            row["deviation_se"] = (k / n - q) / math.sqrt(q * (1 - q) / n)
    return {"hand_size": 12, "deck_size": 32, "rows": rows}
