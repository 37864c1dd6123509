"""Bradley–Terry strengths of computer levels from paired-deal results, placed on the
rating scale of :mod:`cardplaza.core.ratings`.

The fit (:func:`fit`) maximises the Bradley–Terry likelihood ``P(i beats j) =
e^θi / (e^θi + e^θj)`` over every pair's wins, with draws as half a win to each side and
half a virtual win to each side of every pair played (so an unbeaten level stays finite),
by Newton's method with the strengths' mean held at 0. Each strength's 95% interval comes
from the inverse of the observed information (the Hessian with the mean constraint),
``θ ± 1.96·se``. The fit is deterministic: the same pair table gives the same numbers.

On the rating scale a level's fixed rating is ``mu = MU + c·θ`` with ``c = √2·BETA``
(Plackett–Luce between two players with small σ is Bradley–Terry in ``mu / c``), and
``sigma = max(c·se, MIN_SIGMA)``.

>>> s = fit(["a", "b"], [{"a": "a", "b": "b", "wins": 30, "draws": 0, "losses": 10}])
>>> round(s["a"].theta - s["b"].theta, 3) == round(math.log(30.5 / 10.5), 3)
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardplaza.core.ratings import BETA, MU, Rating

__all__ = ["MIN_SIGMA", "SCALE", "Strength", "fit", "to_rating"]

SCALE = math.sqrt(2.0) * BETA
"""``c``: rating points (``mu``) per unit of Bradley–Terry strength."""
MIN_SIGMA = 0.5
"""The least uncertainty given to a computer's fixed rating."""


@dataclass(frozen=True)
class Strength:
    """A level's fitted strength (natural-log Bradley–Terry scale, mean 0) with its
    standard error and 95% interval."""

    theta: float
    se: float

    @property
    def low(self) -> float:
        """Lower end of the 95% interval."""
        return self.theta - 1.96 * self.se

    @property
    def high(self) -> float:
        """Upper end of the 95% interval."""
        return self.theta + 1.96 * self.se


def _counts(levels: Sequence[str], pairs: Sequence[Mapping[str, Any]]) -> np.ndarray:
    idx = {p: i for i, p in enumerate(levels)}
    n = len(levels)
    wins = np.zeros((n, n))
    for pr in pairs:
        i, j = idx[str(pr["a"])], idx[str(pr["b"])]
        d = float(pr.get("draws", 0))
        wins[i, j] += float(pr["wins"]) + d / 2 + 0.5
        wins[j, i] += float(pr["losses"]) + d / 2 + 0.5
    return wins


def fit(levels: Sequence[str], pairs: Sequence[Mapping[str, Any]],
        iterations: int = 100) -> dict[str, Strength]:
    """Bradley–Terry strengths of ``levels`` from pair records ``{a, b, wins, draws,
    losses}`` (counts from ``a``'s side)."""
    n = len(levels)
    if n < 2:
        raise ValueError("a fit needs at least two levels")
    wins = _counts(levels, pairs)
    games = wins + wins.T
    theta = np.zeros(n)
    hess = np.zeros((n, n))
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # P(i beats j)
        grad = wins.sum(axis=1) - (games * p).sum(axis=1)
        w = games * p * (1 - p)
        hess = np.diag(w.sum(axis=1)) - w
        # Newton step under sum(theta) = 0: solve with the constraint added.
        a = hess + np.ones((n, n)) / n
        step = np.linalg.solve(a, grad)
        theta = theta + step
        theta -= theta.mean()
        if float(np.abs(step).max()) < 1e-12:
            break
    cov = np.linalg.inv(hess + np.ones((n, n)) / n) - np.ones((n, n)) / n
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    return {lv: Strength(float(round(theta[i], 10)), float(round(se[i], 10)))
            for i, lv in enumerate(levels)}


def to_rating(strength: Strength) -> Rating:
    """A level's fixed rating on the players' scale."""
    return Rating(round(MU + SCALE * strength.theta, 6),
                  round(max(SCALE * strength.se, MIN_SIGMA), 6))
