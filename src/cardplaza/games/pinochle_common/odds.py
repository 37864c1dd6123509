"""The odds tables' common form: exact chances beside their frequency in dealt hands."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import sqrt
from typing import Any


def odds_rows(rows: Sequence[tuple[dict[str, Any], Fraction]], hits: Sequence[int],
              simulate: int | None, hand: int, deck: int, seed: int) -> dict[str, Any]:
    """An odds table: each row's exact chance (float and fraction) and, with ``simulate``
    hands dealt, its frequency (``hits`` / ``simulate``) and the deviation in standard
    errors."""
    out = []
    for (head, p), hit in zip(rows, hits, strict=True):
        row: dict[str, Any] = {**head, "probability": float(p), "exact": True,
                               "fraction": f"{p.numerator}/{p.denominator}"}
        if simulate:
            sim = hit / simulate
            pf = float(p)
            se = sqrt(pf * (1 - pf) / simulate) if 0 < pf < 1 else 0.0
            row["simulated"] = sim
            row["deviation_se"] = (sim - pf) / se if se else 0.0
        out.append(row)
    table: dict[str, Any] = {"hand_size": hand, "deck_size": deck, "rows": out}
    if simulate:
        table["simulated_hands"] = simulate
        table["seed"] = seed
    return table
