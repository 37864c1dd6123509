"""Exact meld odds of a freshly dealt 20-card double-deck hand (registry hook ``odds``).

A meld needs at least ``k`` copies of every face of a set ``F`` (a run: the five trump
faces; aces around: the four aces; a pinochle: Q♠ and J♦ …). The number of 20-card hands
from the 80 cards holding at least ``k`` of each face of ``F`` is the coefficient sum

    Σ over c_f ≥ k of  Π_f C(4, c_f) · C(80 − 4|F|, 20 − Σ c_f),

computed by multiplying one small polynomial per face. "In any suit" rows use inclusion
and exclusion over the suits (their faces are disjoint, so a set of suits is again one
face set).

>>> at_least(frozenset({0}), 1) == 1 - Fraction(comb(76, 20), comb(80, 20))
True
>>> at_least(frozenset(), 3)
Fraction(1, 1)
"""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import Any

from cardplaza.games.pinochle_common.odds import odds_rows
from cardplaza.games.pinochle_common.odds import render_odds as render
from cardplaza.games.pinochle_dd.rules import (
    ACE,
    COPIES,
    DIAMONDS,
    FACES,
    JACK,
    KING,
    QUEEN,
    SPADES,
    counts,
    deal,
    face,
)

HAND = 20
TIMES = ("", "", "double ", "triple ", "quadruple ")
DECK_SIZE = FACES * COPIES


def at_least(faces: frozenset[int], k: int) -> Fraction:
    """Chance a 20-card hand holds at least ``k`` copies of every face in ``faces``."""
    poly = [1]  # poly[n]: ways to take n cards from the faces so far, each ≥ k copies
    for _ in faces:
        nxt = [0] * (len(poly) + COPIES)
        for n, ways in enumerate(poly):
            if ways:
                for c in range(k, COPIES + 1):
                    nxt[n + c] += ways * comb(COPIES, c)
        poly = nxt
    rest = DECK_SIZE - COPIES * len(faces)
    hits = sum(ways * comb(rest, HAND - n) for n, ways in enumerate(poly) if n <= HAND)
    return Fraction(hits, comb(DECK_SIZE, HAND))


def any_suit(per_suit: list[frozenset[int]], k: int) -> Fraction:
    """Chance the hand holds the meld (``k`` copies of each face) in at least one suit."""
    total = Fraction(0)
    for size in range(1, 5):
        for group in combinations(per_suit, size):
            both = frozenset().union(*group)
            total += (-1) ** (size + 1) * at_least(both, k)
    return total


def _run(s: int) -> frozenset[int]:
    return frozenset(face(s, r) for r in range(5))


def _rows() -> list[tuple[dict[str, Any], Fraction, frozenset[int] | list[frozenset[int]]]]:
    rows: list[tuple[dict[str, Any], Fraction, frozenset[int] | list[frozenset[int]]]] = []
    runs = [_run(s) for s in range(4)]
    marriages = [frozenset((face(s, KING), face(s, QUEEN))) for s in range(4)]
    for k, name in ((1, "run"), (2, "double run")):
        rows.append(({"meld": name, "copies": k, "scope": "named suit"},
                     at_least(runs[0], k), runs[0]))
        rows.append(({"meld": name, "copies": k, "scope": "any suit"},
                     any_suit(runs, k), runs))
    rows.append(({"meld": "marriage", "copies": 1, "scope": "named suit"},
                 at_least(marriages[0], 1), marriages[0]))
    for rank, name in ((ACE, "aces"), (KING, "kings"), (QUEEN, "queens"), (JACK, "jacks")):
        around = frozenset(face(s, rank) for s in range(4))
        for k in range(1, 5):
            rows.append(({"meld": f"{TIMES[k]}{name} around", "copies": k, "scope": "hand"},
                         at_least(around, k), around))
    pin = frozenset((face(SPADES, QUEEN), face(DIAMONDS, JACK)))
    for k in range(1, 5):
        rows.append(({"meld": f"{TIMES[k]}pinochle", "copies": k, "scope": "hand"},
                     at_least(pin, k), pin))
    return rows


def _holds(cnt: list[int], need: frozenset[int] | list[frozenset[int]], k: int) -> bool:
    if isinstance(need, list):
        return any(all(cnt[f] >= k for f in group) for group in need)
    return all(cnt[f] >= k for f in need)


def odds_table(simulate: int | None = None, seed: int = 0) -> dict[str, Any]:
    """Exact odds of each meld in a dealt hand; with ``simulate=N`` also its frequency in
    N hands dealt by the engine's dealer and the deviation in standard errors."""
    rows = _rows()
    hits = [0] * len(rows)
    if simulate:
        rng = random.Random(seed)
        for _ in range(simulate):
            cnt = counts(deal(rng)[0])
            for i, (head, _, need) in enumerate(rows):
                hits[i] += _holds(cnt, need, head["copies"])
    return odds_rows([(head, p) for head, p, _ in rows], hits, simulate, HAND, DECK_SIZE,
                     seed)


def meld_label(key: str) -> str:
    """A row's meld as the table shows it (``Double aces around``)."""
    return key[:1].upper() + key[1:]


def render_odds(console: Any, table: dict[str, Any]) -> None:
    """Print the odds table with Rich: meld, where it is counted, chance, "1 in N"."""
    render(console, table, "Double-deck Pinochle meld odds", meld_label)
