"""Exact meld odds for a freshly dealt 12-card hand (48-card Pinochle deck).

Each row is the probability that the hand *holds the cards* of a meld (for suit-bound
melds: as if that suit were trump). Rows with scope ``one suit`` / ``one rank`` are for a
named suit (♠) or rank (A, or the meld's rank); ``any suit`` / ``any rank`` is the chance
of at least one. Pinochle melds are one fixed card set (Q♠ + J♦, scope ``one suit``);
the round table (K and Q of every suit) is one fixed set of ranks (scope ``one rank``).
``rank_count_k`` is the chance of holding exactly k of the 8 cards of a rank.

Exact values count hands with integer arithmetic: the deck is split into groups (one face
= 2 cards, or one rank = 8 cards) each with a polynomial of allowed counts, the rest of
the deck is free, and the coefficient of x^12 is extracted; unions use inclusion–exclusion
over disjoint groups. Results are :class:`fractions.Fraction` converted to float.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import Any

from cardplaza.games.pinochle4.rules import (
    ACE,
    DIAMONDS,
    JACK,
    KING,
    QUEEN,
    RANK_TEXT,
    SPADES,
    SUIT_SYMBOLS,
    TEN,
    deal,
    face,
)
from cardplaza.games.pinochle_common.odds import odds_rows
from cardplaza.games.pinochle_common.odds import render_odds as common_render

HAND = 12
DECK = 48
Group = tuple[int, tuple[int, ...]]
"""(cards in the group, weight of taking j cards from it for j = 0, 1, …)."""
AT_LEAST_ONE: tuple[int, ...] = (0, 2, 1)
BOTH: tuple[int, ...] = (0, 0, 1)
_RUN = (ACE, TEN, KING, QUEEN, JACK)
_AROUND = (("A", ACE), ("K", KING), ("Q", QUEEN), ("J", JACK))


def count_hands(groups: list[Group], hand: int = HAND, deck: int = DECK) -> int:
    """Number of ``hand``-card hands meeting every group's count condition."""
    poly = [1]
    used = 0
    for size, weights in groups:
        used += size
        out = [0] * (len(poly) + len(weights) - 1)
        for i, a in enumerate(poly):
            if a:
                for j, b in enumerate(weights):
                    if b:
                        out[i + j] += a * b
        poly = out
    free = deck - used
    return sum(a * comb(free, hand - j) for j, a in enumerate(poly) if 0 <= hand - j <= free)


def probability_all(groups: list[Group]) -> Fraction:
    """Exact probability that a dealt hand meets every group condition."""
    return Fraction(count_hands(groups), comb(DECK, HAND))


def probability_any(alternatives: list[list[Group]]) -> Fraction:
    """Exact probability of at least one alternative (groups of different alternatives are
    disjoint), by inclusion–exclusion."""
    total = Fraction(0)
    for k in range(1, len(alternatives) + 1):
        sign = 1 if k % 2 else -1
        for combo in combinations(alternatives, k):
            total += sign * probability_all([g for alt in combo for g in alt])
    return total


def _faces(faces: list[int], weights: tuple[int, ...]) -> list[Group]:
    return [(2, weights) for _ in faces]


def _rank_exact(k: int) -> list[Group]:
    return [(8, tuple(comb(8, k) if j == k else 0 for j in range(k + 1)))]


# -- events for the simulation: a predicate over (lo, hi) face masks ----------------------

Check = Callable[[int, int, list[int]], bool]


def _need(faces: list[int], both: bool) -> Check:
    m = sum(1 << f for f in faces)
    if both:
        return lambda lo, hi, rc: lo & hi & m == m
    return lambda lo, hi, rc: (lo | hi) & m == m


def _count_is(rank: int, k: int) -> Check:
    return lambda lo, hi, rc: rc[rank] == k


def _rows() -> list[tuple[dict[str, Any], Fraction, list[Check]]]:
    """Every row: its JSON head, exact probability and the alternatives to check."""
    rows: list[tuple[dict[str, Any], Fraction, list[Check]]] = []

    def suit_bound(name: str, ranks: tuple[int, ...], both: bool) -> None:
        w = BOTH if both else AT_LEAST_ONE
        alts = [[face(s, r) for r in ranks] for s in range(4)]
        rows.append(({"meld": name, "scope": "one suit", "suit": SUIT_SYMBOLS[SPADES]},
                     probability_all(_faces(alts[0], w)), [_need(alts[0], both)]))
        rows.append(({"meld": name, "scope": "any suit"},
                     probability_any([_faces(a, w) for a in alts]),
                     [_need(a, both) for a in alts]))

    suit_bound("run", _RUN, False)
    suit_bound("double_run", _RUN, True)
    suit_bound("marriage", (KING, QUEEN), False)
    suit_bound("double_marriage", (KING, QUEEN), True)
    pin = [face(SPADES, QUEEN), face(DIAMONDS, JACK)]
    rows.append(({"meld": "pinochle", "scope": "one suit", "cards": "Q♠ J♦"},
                  probability_all(_faces(pin, AT_LEAST_ONE)), [_need(pin, False)]))
    rows.append(({"meld": "double_pinochle", "scope": "one suit", "cards": "Q♠ Q♠ J♦ J♦"},
                  probability_all(_faces(pin, BOTH)), [_need(pin, True)]))
    for name, both in (("around", False), ("double_around", True)):
        w = BOTH if both else AT_LEAST_ONE
        alts = [[face(s, r) for s in range(4)] for _, r in _AROUND]
        rows.append(({"meld": name, "scope": "one rank", "rank": "A"},
                     probability_all(_faces(alts[0], w)), [_need(alts[0], both)]))
        rows.append(({"meld": name, "scope": "any rank", "ranks": "A K Q J"},
                     probability_any([_faces(a, w) for a in alts]),
                     [_need(a, both) for a in alts]))
    table = [face(s, r) for s in range(4) for r in (KING, QUEEN)]
    rows.append(({"meld": "round_table", "scope": "one rank", "ranks": "K Q"},
                  probability_all(_faces(table, AT_LEAST_ONE)), [_need(table, False)]))
    for k in range(9):
        rows.append(({"meld": f"rank_count_{k}", "scope": "one rank", "rank": "A"},
                      probability_all(_rank_exact(k)), [_count_is(ACE, k)]))
        rows.append(({"meld": f"rank_count_{k}", "scope": "any rank",
                      "ranks": " ".join(RANK_TEXT[r] for r in range(5, -1, -1))},
                      probability_any([_rank_exact(k) for _ in range(6)]),
                      [_count_is(r, k) for r in range(6)]))
    return rows


def odds_table(simulate: int | None = None, seed: int = 0) -> dict[str, Any]:
    """Exact meld odds; with ``simulate=N`` also the frequency in N hands dealt by the
    engine's dealer (seat 0's hand of a four-hand deal) and its deviation in standard
    errors."""
    rows = _rows()
    hits = [0] * len(rows)
    if simulate:
        rng = random.Random(seed)
        rank_masks = [sum(1 << face(s, r) for s in range(4)) for r in range(6)]
        for _ in range(simulate):
            hand = deal(rng, 4)[0][0]
            lo, hi = hand & 0xFFFFFF, hand >> 24
            rc = [(lo & m).bit_count() + (hi & m).bit_count() for m in rank_masks]
            for i, (_, _, checks) in enumerate(rows):
                for chk in checks:
                    if chk(lo, hi, rc):
                        hits[i] += 1
                        break
    return odds_rows([(head, p) for head, p, _ in rows], hits, simulate, HAND, DECK,
                     seed)


MELD_LABELS = {
    "run": "Run (A 10 K Q J of a suit)",
    "double_run": "Double run (both runs of a suit)",
    "marriage": "Marriage (K Q of a suit)",
    "double_marriage": "Double marriage (K K Q Q of a suit)",
    "pinochle": "Pinochle (Q♠ J♦)",
    "double_pinochle": "Double pinochle (Q♠ Q♠ J♦ J♦)",
    "around": "Around (a rank in all four suits)",
    "double_around": "Double around (all eight of a rank)",
    "round_table": "Round table (a marriage in every suit)",
}
"""What each meld key of the odds table means (the JSON keeps the keys)."""


def meld_label(key: str) -> str:
    """Readable name of an odds-table row key, e.g. ``rank_count_3``."""
    if key.startswith("rank_count_"):
        k = int(key.rsplit("_", 1)[1])
        if k == 0:
            return "No card of a rank (of its 8)"
        return f"Exactly {k} card{'s' if k > 1 else ''} of a rank (of its 8)"
    return MELD_LABELS.get(key, key.replace("_", " "))


def render_odds(console: Any, table: dict[str, Any]) -> None:
    """Print an odds table with Rich, with readable meld names and a legend."""
    common_render(console, table, "Pinochle meld odds", meld_label)
