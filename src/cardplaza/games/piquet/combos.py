"""Piquet combinations: point, sequences and sets of a 12-card hand (cards as ints).

A card is ``suit * 8 + r`` with ``r`` = 0..7 for 7, 8, 9, 10, J, Q, K, A.
"""

from __future__ import annotations

from cardplaza.core.cards import PIQUET

PIP = (7, 8, 9, 10, 10, 10, 10, 11)
"""Pip value of each rank position (7 … A)."""

RANK_WORD = ("seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")
RANK_PLURAL = ("sevens", "eights", "nines", "tens", "jacks", "queens", "kings", "aces")
NUMBER_WORD = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six",
               7: "seven", 8: "eight"}
SEQ_NAME = {3: "Tierce", 4: "Quart", 5: "Quint", 6: "Sixième", 7: "Septième", 8: "Huitième"}
SEQ_SCORE = {3: 3, 4: 4, 5: 15, 6: 16, 7: 17, 8: 18}
SUIT_SYMBOL = "♠♥♦♣"
COURT_MASK = sum(((1 << 4) | (1 << 5) | (1 << 6)) << (8 * s) for s in range(4))
"""Mask of the 12 court cards (J, Q, K)."""
FULL = (1 << 32) - 1


def suit_mask(s: int) -> int:
    """Mask of the 8 cards of suit ``s``."""
    return 0xFF << (8 * s)


def rank_mask(r: int) -> int:
    """Mask of the 4 cards of rank position ``r``."""
    return 0x01010101 << r


def _runs(pattern: int) -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    r = 7
    while r >= 0:
        if pattern >> r & 1:
            top = r
            while r >= 0 and pattern >> r & 1:
                r -= 1
            length = top - r
            if length >= 3:
                out.append((length, top))
        else:
            r -= 1
    return tuple(out)


RUNS = tuple(_runs(p) for p in range(256))
"""Maximal runs of 3+ (length, top) of each 8-bit suit pattern, highest first."""
PIPSUM = tuple(sum(PIP[r] for r in range(8) if p >> r & 1) for p in range(256))

# Combination tuples: (class-specific key ..., suit or rank, mask)
Point = tuple[int, int, int]          # (count, pip, suit)
Seq = tuple[int, int, int, int]       # (length, top, suit, mask)
Set_ = tuple[int, int, int]           # (size, rank, mask)


def point_suits(hand: int) -> list[Point]:
    """Every suit's (count, pip, suit), best first (ties: first of ♠♥♦♣)."""
    out = []
    for s in range(4):
        p = hand >> (8 * s) & 0xFF
        out.append((p.bit_count(), PIPSUM[p], s))
    out.sort(key=lambda t: (-t[0], -t[1], t[2]))
    return out


def best_point(hand: int) -> Point:
    """The point: suit with most cards, then highest pip total, then first of ♠♥♦♣."""
    best = (-1, -1, 0)
    for s in range(4):
        p = hand >> (8 * s) & 0xFF
        n = p.bit_count()
        if n > best[0] or (n == best[0] and PIPSUM[p] > best[1]):
            best = (n, PIPSUM[p], s)
    return best


def tied_point_suits(hand: int) -> list[int]:
    """Suits that tie with the best point in both count and pip total."""
    ps = point_suits(hand)
    return [t[2] for t in ps if t[:2] == ps[0][:2]]


def sequences(hand: int) -> list[Seq]:
    """Every sequence (maximal run of 3+), strongest first (longer, then higher top)."""
    out: list[Seq] = []
    for s in range(4):
        for length, top in RUNS[hand >> (8 * s) & 0xFF]:
            out.append((length, top, s, ((1 << length) - 1) << (top - length + 1 + 8 * s)))
    if len(out) > 1:
        out.sort(key=lambda t: (-t[0], -t[1], t[2]))
    return out


_SET_RANKS = tuple((r, rank_mask(r)) for r in range(3, 8))
"""The ranks of sets (10 to A) and their masks."""


def sets(hand: int) -> list[Set_]:
    """Every set (trio or quatorze of A, K, Q, J, 10), strongest first."""
    out: list[Set_] = []
    for r, mask in _SET_RANKS:
        m = hand & mask
        n = m.bit_count()
        if n >= 3:
            out.append((n, r, m))
    if len(out) > 1:
        out.sort(key=lambda t: (-t[0], -t[1]))
    return out


def seq_score(seq: Seq) -> int:
    """Score of one sequence."""
    return SEQ_SCORE[seq[0]]


def set_score(st: Set_) -> int:
    """Score of one set: quatorze 14, trio 3."""
    return 14 if st[0] == 4 else 3


def point_text(p: Point) -> str:
    """Call text, e.g. ``Point of five``."""
    return f"Point of {NUMBER_WORD[p[0]]}"


def seq_text(q: Seq) -> str:
    """Call text of a sequence's length, e.g. ``Quint``."""
    return SEQ_NAME[q[0]]


def seq_label(q: Seq) -> str:
    """Full name, e.g. ``Quart to the queen (♣)``; majors and minors named."""
    name = SEQ_NAME[q[0]]
    if q[0] == 3 and q[1] == 7:
        return f"Tierce major ({SUIT_SYMBOL[q[2]]})"
    if q[0] in (3, 4) and q[1] == q[0] - 1:
        return f"{name} minor ({SUIT_SYMBOL[q[2]]})"
    if q[1] == 7:
        return f"{name} major ({SUIT_SYMBOL[q[2]]})"
    return f"{name} to the {RANK_WORD[q[1]]} ({SUIT_SYMBOL[q[2]]})"


def set_text(st: Set_) -> str:
    """Call text, e.g. ``Quatorze of tens``."""
    kind = "Quatorze" if st[0] == 4 else "Trio"
    return f"{kind} of {RANK_PLURAL[st[1]]}"


def cards_text(mask: int) -> str:
    """Display text of a card set."""
    return PIQUET.format_mask(mask)


def class_outcome(cls: int, elder: tuple[int, int] | None,
                  younger: tuple[int, int] | None) -> str:
    """Who wins a class from both best keys: "elder", "younger", "equal" or "none".

    Keys: point (count, pip); sequence (length, top); set (size, rank). ``None`` = no
    combination of that class.
    """
    if elder is None and younger is None:
        return "none"
    if younger is None:
        return "elder"
    if elder is None:
        return "younger"
    if elder == younger:
        if cls == 2:
            raise ValueError("two players cannot hold the same set")
        return "equal"
    return "elder" if elder > younger else "younger"
