"""Compiled play-out kernel of double-deck Pinochle (plain Python, compiled by numba).

Written in the subset :mod:`cardplaza.ai.compiled` compiles: ints, loops and int64 arrays
the caller provides. A world is the four hands as copies per face, ``counts[20 * seat +
face]`` (80 ints; the engine's 80-bit multiset masks do not fit a machine word). Run as
Python, the functions are the reference; the tests check that both forms agree, and that
:func:`rollout_card` is the strong level's quick policy
(:func:`cardplaza.games.pinochle_dd.players._rollout_card`) card for card.

* :func:`rollout_card` — the quick play-out policy's card for a seat.
* :func:`play_out` — the rest of a hand with that policy (the bid helper's deals).
* :func:`card_values` — every candidate card played out in every given world: counters
  and tricks per side at the end of the hand (the expert's card search).
* :func:`end_values` — the same table with the rest of the hand searched exactly in each
  world (every hand seen; side 0 maximizes its counters, then its tricks, side 1 the
  same for itself) instead of played out by the policy: the expert's last tricks.
  Searched with an explicit stack (numba cannot reload from its disk cache a function
  that calls a recursive one) and alpha-beta, one card per distinct face.
"""

from __future__ import annotations

from typing import Any

from cardplaza.ai.compiled import kernels

Buf = Any
"""An int64 array (compiled) or a list of ints (Python) the caller provides."""

NFACES = 20
ACE_RANK = 4
TEN_RANK = 3
LAST_TRICK_COUNTERS = 2
CHEAP_NONE = 1 << 20
"""Above every preference key."""


def held_mask(counts: Buf, seat: int) -> int:
    """20-bit mask of the faces a seat holds."""
    m = 0
    base = NFACES * seat
    for f in range(NFACES):
        if counts[base + f] > 0:
            m |= 1 << f
    return m


def beats_face(f: int, w: int, trump: int) -> bool:
    """Face ``f`` beats the winning face ``w`` (an identical face never beats)."""
    fs = f // 5
    ws = w // 5
    if fs == ws:
        return f % 5 > w % 5
    return fs == trump


def trick_winner(trick: Buf, ntrick: int, trump: int) -> int:
    """Position of the winning face among the first ``ntrick`` of ``trick``."""
    best = 0
    for i in range(1, ntrick):
        if beats_face(trick[i], trick[best], trump):
            best = i
    return best


def legal_mask(held: int, trick: Buf, ntrick: int, trump: int, must_head: int) -> int:
    """The faces of ``held`` that may be played (as :func:`rules.legal_faces`)."""
    if ntrick == 0:
        return held
    led = trick[0] // 5
    w = trick[trick_winner(trick, ntrick, trump)]
    ws = w // 5
    follow: int = held & (31 << 5 * led)
    if follow:
        if must_head != 0 and ws == led:
            above: int = follow & ~((2 << w) - 1)
            return above if above else follow
        return follow
    trumps = held & (31 << 5 * trump)
    if trumps:
        if must_head != 0 and ws == trump:
            over: int = trumps & ~((2 << w) - 1)
            return over if over else trumps
        return trumps
    return held


def higher_out(out: int, f: int) -> bool:
    """Somebody else still holds a higher face of ``f``'s suit."""
    above = ((1 << (5 * (f // 5) + 5)) - 1) & ~((2 << f) - 1)
    return (out & above) != 0


def cheap_key(f: int, trump: int, counter: Buf) -> int:
    """Least valuable first: no counter, no trump, low rank (smaller is cheaper)."""
    key: int = counter[f] * 100 + (10 if f // 5 == trump else 0) + f % 5
    return key


def smear_key(f: int, trump: int, counter: Buf) -> int:
    """Preference on partner's secured trick: counters first, not the trump A or 10."""
    big = f // 5 == trump and f % 5 >= TEN_RANK
    first: int = 0 if big else counter[f] + 1
    return first * 100 + (0 if f // 5 == trump else 10) + f % 5


def rollout_card(counts: Buf, seat: int, trick: Buf, ntrick: int, trump: int,
                 must_head: int, counter: Buf, declaring_side: int, played: int) -> int:
    """The face the quick play-out policy plays for ``seat`` (every hand known)."""
    legal = legal_mask(held_mask(counts, seat), trick, ntrick, trump, must_head)
    if legal & (legal - 1) == 0:
        for f in range(NFACES):
            if legal >> f & 1:
                return f
    out = 0
    for k in range(1, 4):
        out |= held_mask(counts, (seat + k) % 4)
    tsuit = 31 << 5 * trump
    if ntrick == 0:
        side = legal & ~tsuit
        for f in range(NFACES):
            if side >> f & 1 and f % 5 == ACE_RANK:
                return f
        trumps = legal & tsuit
        if seat % 2 == declaring_side and trumps:
            mine = 0
            theirs = 0
            for g in range(5 * trump, 5 * trump + 5):
                mine += counts[NFACES * seat + g]
                for k in range(1, 4):
                    theirs += counts[NFACES * ((seat + k) % 4) + g]
            if side == 0 or mine > theirs:
                top = -1
                low_t = -1
                for f in range(NFACES):
                    if trumps >> f & 1:
                        if low_t < 0:
                            low_t = f
                        top = f
                if not higher_out(out, top):
                    return top
                return low_t
        best_top = -1
        for f in range(NFACES):
            if side >> f & 1 and not higher_out(out, f):
                best_top = f
        if best_top >= 0:
            return best_top
        pool = side if side else legal
        best = -1
        best_key = CHEAP_NONE
        for f in range(NFACES):
            if pool >> f & 1:
                key = cheap_key(f, trump, counter)
                if key < best_key:
                    best = f
                    best_key = key
        return best
    wi = trick_winner(trick, ntrick, trump)
    w = trick[wi]
    leader = (seat - ntrick) % 4
    w_seat = (leader + wi) % 4
    if w_seat % 2 == seat % 2:
        last = ntrick == 3
        if last or (not higher_out(out, w) and (w // 5 == trump or played < 24)):
            best = -1
            best_key = -1
            for f in range(NFACES):
                if legal >> f & 1:
                    key = smear_key(f, trump, counter)
                    if key > best_key:
                        best = f
                        best_key = key
            return best
    else:
        best = -1
        best_key = CHEAP_NONE
        for f in range(NFACES):
            if legal >> f & 1 and beats_face(f, w, trump):
                key = (10 if f // 5 == trump else 0) + f % 5
                if key < best_key:
                    best = f
                    best_key = key
        if best >= 0:
            return best
    best = -1
    best_key = CHEAP_NONE
    for f in range(NFACES):
        if legal >> f & 1:
            key = cheap_key(f, trump, counter)
            if key < best_key:
                best = f
                best_key = key
    return best


def play_out(counts: Buf, trick: Buf, ntrick: int, leader: int, trump: int, must_head: int,
             counter: Buf, declaring_side: int, played: int, result: Buf) -> None:
    """Play the hand to its end with :func:`rollout_card` (``counts`` and ``trick`` are
    changed); ``result`` gets the counters (last trick included) and tricks each side
    takes from the current trick on."""
    for i in range(4):
        result[i] = 0
    seat = (leader + ntrick) % 4
    last_winner = -1
    while True:
        if ntrick == 4:
            winner = (leader + trick_winner(trick, 4, trump)) % 4
            side = winner % 2
            for i in range(4):
                result[side] += counter[trick[i]]
            result[2 + side] += 1
            ntrick = 0
            leader = winner
            seat = winner
            last_winner = winner
            left = 0
            for f in range(NFACES):
                left += counts[NFACES * winner + f]
            if left == 0:
                break
        f = rollout_card(counts, seat, trick, ntrick, trump, must_head, counter,
                         declaring_side, played)
        counts[NFACES * seat + f] -= 1
        trick[ntrick] = f
        ntrick += 1
        played += 1
        seat = (seat + 1) % 4
    if last_winner >= 0:
        result[last_winner % 2] += LAST_TRICK_COUNTERS


def card_values(worlds: Buf, nworlds: int, me: int, cands: Buf, ncands: int, trick0: Buf,
                ntrick0: int, leader0: int, trump: int, must_head: int, counter: Buf,
                declaring_side: int, played0: int, counts: Buf, trick: Buf, result: Buf,
                out: Buf) -> None:
    """Every candidate face played by ``me`` in every world, the hand played out:
    ``out[w, c]`` = counters of side 0 and 1, then tricks of side 0 and 1, taken from the
    current trick on (``counts``, ``trick`` and ``result`` are scratch: 80, 4 and 4)."""
    for w in range(nworlds):
        for c in range(ncands):
            for i in range(4 * NFACES):
                counts[i] = worlds[w][i]
            for i in range(ntrick0):
                trick[i] = trick0[i]
            f = cands[c]
            counts[NFACES * me + f] -= 1
            trick[ntrick0] = f
            play_out(counts, trick, ntrick0 + 1, leader0, trump, must_head, counter,
                     declaring_side, played0 + 1, result)
            for i in range(4):
                out[w][c][i] = result[i]


END_NEG = -(1 << 40)
"""Below every value of :func:`solve_end`."""
END_POS = 1 << 40
"""Above every value of :func:`solve_end`."""
TRICK_UNIT = 16
"""A value of :func:`solve_end` is ``TRICK_UNIT`` × counters + tricks (side 0's)."""
F_LEFT = 0
F_CARD = 1
F_BEST = 2
F_ALPHA = 3
F_BETA = 4
F_LEADER = 5
F_ACC = 6
F_SEAT = 7
END_FIELDS = 8
"""Fields of a stack frame of :func:`solve_end` (one frame per card to play)."""


def _end_node(counts: Buf, seq: Buf, n: int, leader: int, trump: int, must_head: int,
              tr: Buf, fr: Buf, sp: int, acc: int, alpha: int, beta: int) -> None:
    """Open frame ``sp``: the seat to play after the ``n`` cards of ``seq`` (the current
    trick is their last ``n % 4``), its distinct legal faces still to try."""
    nt = n % 4
    for i in range(nt):
        tr[i] = seq[n - nt + i]
    seat = (leader + nt) % 4
    fr[sp][F_LEFT] = legal_mask(held_mask(counts, seat), tr, nt, trump, must_head)
    fr[sp][F_CARD] = -1
    fr[sp][F_BEST] = END_NEG if seat % 2 == 0 else END_POS
    fr[sp][F_ALPHA] = alpha
    fr[sp][F_BETA] = beta
    fr[sp][F_LEADER] = leader
    fr[sp][F_ACC] = acc
    fr[sp][F_SEAT] = seat


def _end_back(fr: Buf, sp: int, v: int) -> None:
    """Frame ``sp`` learns the value ``v`` of the card it tried (alpha-beta cut)."""
    if fr[sp][F_SEAT] % 2 == 0:
        if v > fr[sp][F_BEST]:
            fr[sp][F_BEST] = v
        if v > fr[sp][F_ALPHA]:
            fr[sp][F_ALPHA] = v
    else:
        if v < fr[sp][F_BEST]:
            fr[sp][F_BEST] = v
        if v < fr[sp][F_BETA]:
            fr[sp][F_BETA] = v
    if fr[sp][F_ALPHA] >= fr[sp][F_BETA]:
        fr[sp][F_LEFT] = 0


def solve_end(counts: Buf, seq: Buf, n0: int, leader0: int, first: int, trump: int,
              must_head: int, counter: Buf, total: int, tr: Buf, fr: Buf) -> int:
    """The exact value of the rest of the hand, every hand seen: ``TRICK_UNIT`` × the
    counters side 0 takes (last trick included) + the tricks it takes, from the current
    trick on, side 0 maximizing and side 1 minimizing. ``seq`` holds the ``n0`` cards of
    the current trick (room for ``n0 + total``), ``total`` cards are still to be played;
    with ``first`` >= 0 the seat to play now plays that face (the candidate being
    valued). ``counts`` and ``seq`` are changed and restored; ``tr`` (4) and ``fr``
    (``total`` rows of ``END_FIELDS``) are scratch."""
    _end_node(counts, seq, n0, leader0, trump, must_head, tr, fr, 0, 0, END_NEG, END_POS)
    if first >= 0:
        fr[0][F_LEFT] = fr[0][F_LEFT] & (1 << first)
    sp = 0
    while True:
        left = fr[sp][F_LEFT]
        if left == 0:
            v: int = fr[sp][F_BEST]
            if sp == 0:
                return v
            sp -= 1
            counts[NFACES * fr[sp][F_SEAT] + fr[sp][F_CARD]] += 1
            _end_back(fr, sp, v)
            continue
        f = 0
        while not (left >> f & 1):
            f += 1
        fr[sp][F_LEFT] = left & ~(1 << f)
        fr[sp][F_CARD] = f
        seat = fr[sp][F_SEAT]
        counts[NFACES * seat + f] -= 1
        n = n0 + sp
        seq[n] = f
        n += 1
        leader = fr[sp][F_LEADER]
        acc = fr[sp][F_ACC]
        if n % 4 == 0:
            for i in range(4):
                tr[i] = seq[n - 4 + i]
            winner = (leader + trick_winner(tr, 4, trump)) % 4
            pts = 0
            for i in range(4):
                pts += counter[tr[i]]
            if sp + 1 == total:
                pts += LAST_TRICK_COUNTERS
            if winner % 2 == 0:
                acc += TRICK_UNIT * pts + 1
            leader = winner
        if sp + 1 == total:
            counts[NFACES * seat + f] += 1
            _end_back(fr, sp, acc)
            continue
        _end_node(counts, seq, n, leader, trump, must_head, tr, fr, sp + 1, acc,
                  fr[sp][F_ALPHA], fr[sp][F_BETA])
        sp += 1


def end_values(worlds: Buf, nworlds: int, me: int, cands: Buf, ncands: int, trick0: Buf,
               ntrick0: int, leader0: int, trump: int, must_head: int, counter: Buf,
               counts: Buf, seq: Buf, tr: Buf, fr: Buf, out: Buf) -> None:
    """As :func:`card_values`, the rest of the hand searched exactly in each world by
    :func:`solve_end` (``seq`` holds 4 + the cards left, ``fr`` as many rows of
    ``END_FIELDS``)."""
    for w in range(nworlds):
        total = 0
        pts = LAST_TRICK_COUNTERS
        for i in range(4 * NFACES):
            counts[i] = worlds[w][i]
            total += counts[i]
            pts += counts[i] * counter[i % NFACES]
        for i in range(ntrick0):
            seq[i] = trick0[i]
            pts += counter[trick0[i]]
        tricks = (ntrick0 + total) // 4
        for c in range(ncands):
            v = solve_end(counts, seq, ntrick0, leader0, cands[c], trump, must_head,
                          counter, total, tr, fr)
            c0 = v // TRICK_UNIT
            t0 = v - TRICK_UNIT * c0
            out[w][c][0] = c0
            out[w][c][1] = pts - c0
            out[w][c][2] = t0
            out[w][c][3] = tricks - t0


KERNELS = kernels("pinochle_dd", __name__, {
    "card_values": "void(int64[:, ::1], int64, int64, int64[::1], int64, int64[::1], int64, "
                   "int64, int64, int64, int64[::1], int64, int64, int64[::1], int64[::1], "
                   "int64[::1], int64[:, :, ::1])",
    "end_values": "void(int64[:, ::1], int64, int64, int64[::1], int64, int64[::1], int64, "
                  "int64, int64, int64, int64[::1], int64[::1], int64[::1], int64[::1], "
                  "int64[:, ::1], int64[:, :, ::1])",
    "play_out": "void(int64[::1], int64[::1], int64, int64, int64, int64, int64[::1], int64, "
                "int64, int64[::1])",
    "rollout_card": "int64(int64[::1], int64, int64[::1], int64, int64, int64, int64[::1], "
                    "int64, int64)",
})
"""The compiled entry points (or their Python forms, see :mod:`cardplaza.ai.compiled`)."""
