"""Bidding helper data (section 6.7): meld per trump suit, and the exact chance that a
missing card which would enlarge a meld is held by partner (or lies in the widow).

Probabilities are exact hypergeometric values over the cards the player cannot see:
if ``u`` cards are unseen, ``h`` of them are in the holder's hand (partner: 12; cut-throat
widow: 3) and ``k`` copies of the wanted face are unseen, the chance that the holder has at
least one copy is ``1 - C(u - k, h) / C(u, h)``.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

from cardplaza.games.pinochle4.meld import meld_breakdown, meld_total, meld_totals
from cardplaza.games.pinochle4.rules import RANK_TEXT, SUIT_SYMBOLS


def suit_melds(hand: int, extra_kq: bool = True, one_point: bool = False) -> list[dict[str, Any]]:
    """For each trump suit ♠ ♥ ♦ ♣: ``{"suit", "symbol", "value", "melds"}`` of the hand."""
    out = []
    for s in range(4):
        r = meld_breakdown(hand, s, extra_kq, one_point)
        out.append({"suit": s, "symbol": SUIT_SYMBOLS[s], "value": r.total,
                    "melds": [m.to_json() for m in r.melds]})
    return out


def holder_probability(unseen: int, holder_size: int, copies: int) -> Fraction:
    """Exact chance that a hand of ``holder_size`` drawn from ``unseen`` cards contains at
    least one of ``copies`` particular cards."""
    if copies <= 0 or holder_size <= 0 or unseen <= 0:
        return Fraction(0)
    return 1 - Fraction(comb(unseen - copies, holder_size), comb(unseen, holder_size))


def completions(hand: int, trump: int, seen: int = 0, holder_size: int = 12,
                extra_kq: bool = True, one_point: bool = False) -> list[dict[str, Any]]:
    """Missing cards that would raise the meld with ``trump``, best gain first.

    ``seen`` is every other card the player has seen (played, melded, passed); unseen
    cards are the 48 minus the hand minus ``seen``. Each row: ``{"face", "card"
    (text), "gain", "value_with", "copies_unseen", "probability", "fraction"}``.
    """
    div = 10 if one_point else 1
    base = meld_total(hand, trump, extra_kq)
    known = hand | seen
    unseen_count = 48 - known.bit_count()
    rows: list[dict[str, Any]] = []
    for f in range(24):
        held = (hand >> f & 1) + (hand >> (f + 24) & 1)
        if held == 2:
            continue
        add = f if not hand >> f & 1 else f + 24
        gain = meld_total(hand | 1 << add, trump, extra_kq) - base
        if gain <= 0:
            continue
        k = (not known >> f & 1) + (not known >> (f + 24) & 1)
        p = holder_probability(unseen_count, holder_size, k)
        rows.append({"face": f, "card": RANK_TEXT[f % 6] + SUIT_SYMBOLS[f // 6],
                     "gain": gain // div, "value_with": (base + gain) // div,
                     "copies_unseen": k, "probability": float(p),
                     "fraction": f"{p.numerator}/{p.denominator}"})
    rows.sort(key=lambda r: (-r["gain"], -r["probability"], r["face"]))
    return rows


def bidding_helper(hand: int, seen: int = 0, holder_size: int = 12, extra_kq: bool = True,
                   one_point: bool = False) -> dict[str, Any]:
    """Everything the bidding helper shows: per trump suit the meld, its breakdown and the
    cards that would enlarge it with the chance the holder (partner / widow) has them."""
    suits = suit_melds(hand, extra_kq, one_point)
    for row in suits:
        row["completions"] = completions(hand, row["suit"], seen, holder_size, extra_kq,
                                         one_point)
    totals = meld_totals(hand, extra_kq)
    best = max(range(4), key=lambda s: totals[s])
    return {"suits": suits, "best_suit": best, "holder_size": holder_size,
            "unseen": 48 - (hand | seen).bit_count()}
