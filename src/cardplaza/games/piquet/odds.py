"""Exact odds of Piquet events, checked against simulation through the engine's dealer."""

from __future__ import annotations

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
    """Exact carte blanche odds, optionally with a seeded simulation."""
    p = carte_blanche_probability()
    out: dict[str, Any] = {
        "carte_blanche_per_player": float(p),
        "carte_blanche_per_player_exact": f"{p.numerator}/{p.denominator}",
        "carte_blanche_per_deal": float(2 * p),
    }
    if simulate:
        hits, hands = simulate_carte_blanche(simulate, seed)
        out["simulated_per_player"] = hits / hands
        out["simulated_hands"] = hands
    return out
