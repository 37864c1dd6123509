"""The Piquet search, written once as plain Python over int card masks and compiled by
numba (:mod:`cardplaza.ai.compiled`; entry points in :data:`KERNELS`).

Every function here is in the subset numba compiles: ints, loops, tuples, and arrays or
lists of ints (and floats) that the caller provides — nothing is allocated here. Run as
Python (``CARDPLAZA_NO_JIT=1``, or ``KERNELS.reference(name)``) they are the reference the
compiled forms are tested against; both give the same numbers.

* :func:`rollout` — a position played to the end of the deal under :func:`rollout_card`,
  the card-counting play-out policy;
* :func:`rollout_values` — the PIMC card-play values of
  :meth:`.players.ExpertPlayer.card_values` over a batch of sampled opponent hands (each
  card played, then rolled out);
* :func:`solve_root` — the exact minimax of the rest of the deal with a transposition
  table and equivalent cards merged, searched with an explicit stack (numba cannot reload
  from its disk cache a function that calls a recursive one);
* :func:`exchange_values` — the exchange's value of sampled final hands (declaration
  margin, :func:`declaration_margin`, plus the rolled-out trick margin) for many candidate
  discards;
* :func:`hand_values` and :func:`discard_values` — :func:`hand_value` of many hands, and of
  every discard of a given size in :func:`itertools.combinations` order;
* :func:`record_code` and :func:`record_matches` — the public record of the automatic
  declarations, which the trick-phase sampler (:class:`.search.PlaySampler`) checks.

Positions are the fields of :data:`.players.TrickPos` passed as separate ints; the rules
are ``elder`` (seat 0 or 1), ``lead_ten`` (0/1) and ``last_points``. Nothing here draws
random numbers: the callers sample worlds with their own RNG.
"""

from __future__ import annotations

from typing import Any

from cardplaza.ai.compiled import kernels
from cardplaza.ai.kernel_bits import popcount
from cardplaza.games.piquet import combos as pc

Buf = Any
"""An int64 (or float64) array (compiled) or a list (Python) the caller provides."""

PIPSUM = tuple(pc.PIPSUM)
"""Pip total of each 8-bit suit pattern."""
RUN_LEN = tuple(max(r)[0] if r else 0 for r in pc.RUNS)
"""Length of the best run (3+, longest then highest) of each suit pattern (0 if none)."""
RUN_TOP = tuple(max(r)[1] if r else 0 for r in pc.RUNS)
"""Top rank of the best run of each suit pattern."""
RUN_MASK = tuple(sum(((1 << n) - 1) << (t - n + 1) for n, t in r) for r in pc.RUNS)
"""Cards of every run (3+) of each suit pattern."""
LOW8 = tuple((p & -p).bit_length() - 1 for p in range(256))
"""Lowest set bit of each byte (-1 for 0)."""
HIGH8 = tuple(p.bit_length() - 1 for p in range(256))
"""Highest set bit of each byte (-1 for 0)."""
POP8 = tuple(p.bit_count() for p in range(256))
"""Set bits of each byte."""
RUN_SCORE = tuple(sum(pc.SEQ_SCORE[n] for n, _t in r) for r in pc.RUNS)
"""Sum of the sequence scores of each suit pattern's runs."""
RANK_VALUE = (0.0, 0.1, 0.2, 0.5, 0.6, 0.8, 1.2, 2.0)
"""Trick-taking worth of each rank (7 … A) in :func:`hand_value`."""
M63 = (1 << 63) - 1

TABLE_BITS = 17
"""The endgame solver's transposition table holds ``2 ** TABLE_BITS`` slots (reused for
every world through a generation stamp); once three quarters are filled, new positions
are solved without being stored (values stay exact)."""


# ------------------------------------------------------------------ trick play
def credit(seat: int, pts: int, pq: int, elder: int) -> tuple[int, int]:
    """Seat 0's margin change and the new pique tracker after ``seat`` scores ``pts``."""
    if pts == 0:
        return 0, pq
    d = pts if seat == 0 else -pts
    if pq >= 0:
        if seat != elder:
            pq = -1
        else:
            pq += pts
            if pq >= 30:
                d += 30 if seat == 0 else -30
                pq = -1
    return d, pq


def play(h0: int, h1: int, leader: int, lead: int, won0: int, done: int, pq: int, c: int,
         elder: int, lead_ten: int, last_points: int,
         ) -> tuple[int, int, int, int, int, int, int, int]:
    """Card ``c`` played: (seat 0's margin change, the next position's seven fields)."""
    if lead < 0:
        if leader == 0:
            h0 &= ~(1 << c)
        else:
            h1 &= ~(1 << c)
        pts = 1 if lead_ten == 0 or c & 7 >= 3 else 0
        d, pq = credit(leader, pts, pq, elder)
        return d, h0, h1, leader, c, won0, done, pq
    f = 1 - leader
    if f == 0:
        h0 &= ~(1 << c)
    else:
        h1 &= ~(1 << c)
    win = f if (c >> 3 == lead >> 3 and c > lead) else leader
    done += 1
    if win == 0:
        won0 += 1
    d = 0
    if win == f:
        d, pq = credit(f, 1, pq, elder)
    if done == 12:
        d2, pq = credit(win, last_points, pq, elder)
        d += d2
        won1 = 12 - won0
        if won0 == 12:
            d += 40
        elif won0 >= 7:
            d += 10
        if won1 == 12:
            d -= 40
        elif won1 >= 7:
            d -= 10
    return d, h0, h1, win, -1, won0, done, pq


def low_card(mask: int) -> int:
    """The lowest card of a non-empty 32-bit mask."""
    s = 0
    while not mask >> s & 0xFF:
        s += 8
    return int(s + LOW8[mask >> s & 0xFF])


def rollout_card(h0: int, h1: int, leader: int, lead: int) -> int:
    """Card-counting play on a complete position (hands, leader, lead card or -1): run
    winning cards (masters, or suits the other hand lacks) from the longest suit, else lead
    low; follow with the cheapest winner, else the lowest card, discarding from the weakest
    suit."""
    if lead < 0:
        hand = h0 if leader == 0 else h1
        opp = h1 if leader == 0 else h0
        best = -1
        bn = -1
        br = -1
        low = -1
        ln = 99
        lr = 99
        for s in range(4):
            mine = hand >> (8 * s) & 0xFF
            if not mine:
                continue
            n = POP8[mine]
            top = HIGH8[mine]
            theirs = opp >> (8 * s) & 0xFF
            if (not theirs or top > HIGH8[theirs]) and (n > bn or (n == bn and top > br)):
                best, bn, br = 8 * s + top, n, top
            bottom = LOW8[mine]
            if -n < ln or (-n == ln and bottom < lr):
                low, ln, lr = 8 * s + bottom, -n, bottom
        return best if best >= 0 else low
    hand = h1 if leader == 0 else h0
    follow = hand & (0xFF << (8 * (lead >> 3)))
    if follow:
        above = follow & ~((2 << lead) - 1)
        return low_card(above) if above else low_card(follow)
    best = -1
    kr = 99
    kn = 99
    for s in range(4):
        mine = hand & (0xFF << (8 * s))
        if mine:
            c = low_card(mine)
            n = popcount(mine)
            if (c & 7) < kr or ((c & 7) == kr and n < kn):
                best, kr, kn = c, c & 7, n
    return best


def rollout(h0: int, h1: int, leader: int, lead: int, won0: int, done: int, pq: int,
            elder: int, lead_ten: int, last_points: int) -> int:
    """Seat 0's margin from a position to the end of the deal under :func:`rollout_card`."""
    total = 0
    while done < 12:
        c = rollout_card(h0, h1, leader, lead)
        d, h0, h1, leader, lead, won0, done, pq = play(h0, h1, leader, lead, won0, done, pq,
                                                        c, elder, lead_ten, last_points)
        total += d
    return total


def rollout_values(pos: Buf, opp: int, hands: Buf, cards: Buf, elder: int, lead_ten: int,
                   last_points: int, out: Buf) -> None:
    """Seat 0's margin after each of ``cards`` and a rollout, in each world: the position
    ``pos`` with seat ``opp``'s hand replaced by ``hands[w]``, into ``out[w][i]`` (a
    worlds × cards matrix)."""
    for w in range(len(hands)):
        h0 = hands[w] if opp == 0 else pos[0]
        h1 = hands[w] if opp == 1 else pos[1]
        row = out[w]
        for i in range(len(cards)):
            d, a0, a1, ld, lc, w0, dn, pq = play(h0, h1, pos[2], pos[3], pos[4], pos[5],
                                                 pos[6], cards[i], elder, lead_ten,
                                                 last_points)
            row[i] = d + rollout(a0, a1, ld, lc, w0, dn, pq, elder, lead_ten, last_points)


# ------------------------------------------------------------------ exact endgames
def _slot(h0: int, h1: int, key2: int, mask: int) -> int:
    """The first slot to probe for a position (the products taken to 63 bits, so both
    forms agree)."""
    x = ((h0 * 0x9E3779B1) ^ (h1 * 0x85EBCA77) ^ (key2 * 0xC2B2AE3D)) & M63
    x ^= x >> 17
    return (x ^ (x >> 31)) & mask


def _probe(tab: Buf, h0: int, h1: int, key2: int) -> int:
    """The slot holding a position, or ``-1 - i`` with ``i`` the free slot it would take."""
    size = (len(tab) - 4) // 4
    mask = size - 1
    stamp = tab[4 * size]
    key1 = h0 | (h1 << 32)
    i = _slot(h0, h1, key2, mask)
    while tab[4 * i] == stamp:
        if tab[4 * i + 1] == key1 and tab[4 * i + 2] == key2:
            return i
        i = (i + 1) & mask
    return -1 - i


def _key2(leader: int, lead: int, won0: int, done: int, pq: int) -> int:
    return leader + 2 * (lead + 1) + 128 * won0 + 2048 * done + 32768 * (pq + 1)


def _open(fr: Buf, sp: int, h0: int, h1: int, leader: int, lead: int, won0: int,
          done: int, pq: int) -> None:
    """Frame ``sp`` of the search stack for a position to expand: its fields, the legal
    cards still to try, the cards still out, the mover's hand and the best value so far."""
    mover = leader if lead < 0 else 1 - leader
    hand = h0 if mover == 0 else h1
    if lead < 0:
        legal = hand
        rem = h0 | h1
    else:
        legal = hand & (0xFF << (8 * (lead >> 3)))
        if not legal:
            legal = hand
        rem = h0 | h1 | (1 << lead)
    f = fr[sp]
    f[0] = h0
    f[1] = h1
    f[2] = leader
    f[3] = lead
    f[4] = won0
    f[5] = done
    f[6] = pq
    f[7] = legal
    f[8] = rem
    f[9] = hand
    f[10] = 1 if mover == 0 else 0
    f[11] = -10_000 if mover == 0 else 10_000


def _next_move(f: Buf, lead_ten: int) -> int:
    """The frame's next distinct legal card (neighbours in a suit among the cards still
    out, same lead class, are one choice), or -1 when all were tried."""
    m = f[7]
    rem = f[8]
    hand = f[9]
    while m:
        low = m & -m
        m ^= low
        c = low_card(low)
        higher = rem & (0xFF << (8 * (c >> 3))) & ~((low << 1) - 1)
        if higher:
            nxt = low_card(higher)
            if hand >> nxt & 1 and (lead_ten == 0 or (c & 7 >= 3) == (nxt & 7 >= 3)):
                continue
        f[7] = m
        return c
    f[7] = 0
    return -1


def _better(f: Buf, v: int) -> None:
    if (v > f[11]) if f[10] else (v < f[11]):
        f[11] = v


def future(h0: int, h1: int, leader: int, lead: int, won0: int, done: int, pq: int,
           elder: int, lead_ten: int, last_points: int, tab: Buf, fr: Buf) -> int:
    """Seat 0's exact margin from a position: minimax over the distinct legal cards of the
    player to move (:func:`_next_move`, lowest first) with a transposition table in ``tab``
    (slot ``i`` at ``4 i``: stamp, hands, other fields, value; then [stamp, nodes,
    filled]) and an explicit stack ``fr`` (26 frames of 13). Once three quarters of the
    table are filled, new positions are solved without being stored (values stay exact)."""
    if done == 12:
        return 0
    size = (len(tab) - 4) // 4
    meta = 4 * size
    hit = _probe(tab, h0, h1, _key2(leader, lead, won0, done, pq))
    if hit >= 0:
        return int(tab[4 * hit + 3])
    tab[meta + 1] += 1
    sp = 0
    _open(fr, 0, h0, h1, leader, lead, won0, done, pq)
    while True:
        f = fr[sp]
        c = _next_move(f, lead_ten)
        if c < 0:
            # the frame is solved: store it, hand its value to the parent
            v = int(f[11])
            a0, a1, ld, lc, w0, dn, q = f[0], f[1], f[2], f[3], f[4], f[5], f[6]
            if 4 * tab[meta + 2] < 3 * size:
                j = -1 - _probe(tab, a0, a1, _key2(ld, lc, w0, dn, q))
                tab[4 * j] = tab[meta]
                tab[4 * j + 1] = a0 | (a1 << 32)
                tab[4 * j + 2] = _key2(ld, lc, w0, dn, q)
                tab[4 * j + 3] = v
                tab[meta + 2] += 1
            if sp == 0:
                return v
            sp -= 1
            _better(fr[sp], fr[sp][12] + v)
            continue
        d, a0, a1, ld, lc, w0, dn, q = play(f[0], f[1], f[2], f[3], f[4], f[5], f[6], c,
                                            elder, lead_ten, last_points)
        if dn == 12:
            _better(f, d)
            continue
        hit = _probe(tab, a0, a1, _key2(ld, lc, w0, dn, q))
        if hit >= 0:
            _better(f, d + tab[4 * hit + 3])
            continue
        tab[meta + 1] += 1
        f[12] = d
        sp += 1
        _open(fr, sp, a0, a1, ld, lc, w0, dn, q)


def solve_root(pos: Buf, cards: Buf, elder: int, lead_ten: int, last_points: int,
               tab: Buf, fr: Buf, out: Buf) -> int:
    """Exact seat-0 margin after each of ``cards`` (legal for the player to move) from
    ``pos`` into ``out``; the positions expanded. ``tab`` (``4 * 2**TABLE_BITS + 4``
    ints, zero at first) is the transposition table, emptied here by a new stamp; ``fr``
    the stack of :func:`future`."""
    meta = len(tab) - 4
    tab[meta] += 1  # a new stamp: every slot is free again
    tab[meta + 1] = 0
    tab[meta + 2] = 0
    for i in range(len(cards)):
        d, a0, a1, ld, lc, w0, dn, q = play(pos[0], pos[1], pos[2], pos[3], pos[4], pos[5],
                                            pos[6], cards[i], elder, lead_ten, last_points)
        out[i] = d + future(a0, a1, ld, lc, w0, dn, q, elder, lead_ten, last_points, tab, fr)
    return int(tab[meta + 1])


# ------------------------------------------------------------------ declarations
def declaration_margin(mine: int, opp: int) -> tuple[int, int]:
    """Declaration points (mine, theirs) of two final hands (point, sequences, sets,
    repique); carte blanche and carte rouge left aside."""
    a = 0
    b = 0
    # point: most cards, then pip total (the first suit keeps a tie)
    an, ap, bn, bp = -1, -1, -1, -1
    for s in range(4):
        p = mine >> (8 * s) & 0xFF
        n = popcount(p)
        if n > an or (n == an and PIPSUM[p] > ap):
            an, ap = n, PIPSUM[p]
        p = opp >> (8 * s) & 0xFF
        n = popcount(p)
        if n > bn or (n == bn and PIPSUM[p] > bp):
            bn, bp = n, PIPSUM[p]
    if an > bn or (an == bn and ap > bp):
        a += an
    elif bn > an or (bn == an and bp > ap):
        b += bn
    # sequences: the best (length, top) wins every sequence of its holder
    al, at, asc, bl, bt, bsc = 0, 0, 0, 0, 0, 0
    for s in range(4):
        p = mine >> (8 * s) & 0xFF
        if RUN_LEN[p] > al or (RUN_LEN[p] == al and RUN_LEN[p] > 0 and RUN_TOP[p] > at):
            al, at = RUN_LEN[p], RUN_TOP[p]
        asc += RUN_SCORE[p]
        p = opp >> (8 * s) & 0xFF
        if RUN_LEN[p] > bl or (RUN_LEN[p] == bl and RUN_LEN[p] > 0 and RUN_TOP[p] > bt):
            bl, bt = RUN_LEN[p], RUN_TOP[p]
        bsc += RUN_SCORE[p]
    if al > bl or (al == bl and at > bt):
        a += asc
    elif bl > al or (bl == al and bt > at):
        b += bsc
    # sets: the best (size, rank) wins every set of its holder
    an, ar, asc, bn, br, bsc = 0, 0, 0, 0, 0, 0
    for r in range(3, 8):
        n = popcount(mine & (0x01010101 << r))
        if n >= 3:
            if n > an or (n == an and r > ar):
                an, ar = n, r
            asc += 14 if n == 4 else 3
        n = popcount(opp & (0x01010101 << r))
        if n >= 3:
            if n > bn or (n == bn and r > br):
                bn, br = n, r
            bsc += 14 if n == 4 else 3
    if an > bn or (an == bn and ar > br):
        a += asc
    elif bn > an or (bn == an and br > ar):
        b += bsc
    if a >= 30 and b == 0:
        a += 60
    if b >= 30 and a == 0:
        b += 60
    return a, b


def exchange_values(kept: Buf, sizes: Buf, decks: Buf, first: int, count: int,
                    is_elder: int, lead_ten: int, last_points: int, opp_shown: int,
                    out: Buf) -> None:
    """The exchange's value of each candidate (``kept[i]`` drawing ``sizes[i]`` cards) for
    each sampled order ``decks[first:first + count]`` of the unseen cards (draw = the first
    cards, opponent = the next 12, or ``opp_shown`` when his carte blanche hand is known):
    the declaration margin plus the rolled-out trick margin, into ``out[i][j]`` (a
    candidates × samples matrix)."""
    elder = 0 if is_elder else 1
    for i in range(len(kept)):
        k = sizes[i]
        row = out[i]
        for j in range(count):
            deck = decks[first + j]
            mine = kept[i]
            for x in range(k):
                mine |= 1 << deck[x]
            opp = opp_shown
            if not opp:
                for x in range(k, min(k + 12, len(deck))):
                    opp |= 1 << deck[x]
            a, b = declaration_margin(mine, opp)
            pq = -1
            if a + b < 30:
                pq = (a if b == 0 else -1) if is_elder else (b if a == 0 else -1)
            row[j] = a - b + rollout(mine, opp, elder, -1, 0, 0, pq, elder, lead_ten,
                                     last_points)


def hand_value(hand: int) -> float:
    """Rough worth of a 12-card hand: its declarations plus its trick-taking strength
    (high cards count more when guarded by length)."""
    count, pip = -1, -1
    seq = 0
    for s in range(4):
        p = hand >> (8 * s) & 0xFF
        n = popcount(p)
        if n > count or (n == count and PIPSUM[p] > pip):
            count, pip = n, PIPSUM[p]
        seq += RUN_SCORE[p]
    v = float(count) if count >= 5 else 0.6 * count
    v += seq
    sets = 0
    for r in range(3, 8):
        n = popcount(hand & (0x01010101 << r))
        if n >= 3:
            sets += 14 if n == 4 else 3
    v += sets
    for s in range(4):
        p = hand >> (8 * s) & 0xFF
        n = popcount(p)
        for r in range(8):
            if p >> r & 1:
                v += RANK_VALUE[r] * (1.0 if r == 7 or n >= 8 - r else 0.5)
        v += max(0, n - 4) * 1.5
    return v


def hand_values(hands: Buf, out: Buf) -> None:
    """:func:`hand_value` of each hand into ``out``."""
    for i in range(len(hands)):
        out[i] = hand_value(hands[i])


def discard_values(hand: int, cards: Buf, k: int, discs: Buf, vals: Buf, idx: Buf) -> int:
    """Every discard of ``k`` of ``cards`` (in :func:`itertools.combinations` order) into
    ``discs``, and ``hand_value(hand & ~discard) + 1.1 * k`` into ``vals``; ``idx`` holds
    ``k`` ints of scratch. The number of discards."""
    n = len(cards)
    total = 1
    for i in range(k):
        total = total * (n - i) // (i + 1)
    for i in range(k):
        idx[i] = i
    for t in range(total):
        d = 0
        for i in range(k):
            d |= 1 << cards[idx[i]]
        discs[t] = d
        vals[t] = hand_value(hand & ~d) + 1.1 * k
        # next combination of indices
        i = k - 1
        while i >= 0 and idx[i] == i + n - k:
            i -= 1
        if i >= 0:
            idx[i] += 1
            for j in range(i + 1, k):
                idx[j] = idx[j - 1] + 1
    return total


def _cmp(a: int, b: int) -> int:
    return (a > b) - (a < b)


def record_code(elder: int, younger: int, younger_shown: int, out: Buf) -> None:
    """The public record of the automatic declarations of two declaration hands (Elder's
    calls, Younger's replies and the winners' shown cards) as 15 ints in ``out``
    (equal records, equal codes): per class the call, the two comparisons, the top (or
    pip) asked for and the winner's shown cards (-1 while Younger's are hidden)."""
    en, ep_, es, yn, yp, ys = -1, -1, 0, -1, -1, 0
    for s in range(4):
        p = elder >> (8 * s) & 0xFF
        n = POP8[p]
        if n > en or (n == en and PIPSUM[p] > ep_):
            en, ep_, es = n, PIPSUM[p], s
        p = younger >> (8 * s) & 0xFF
        n = POP8[p]
        if n > yn or (n == yn and PIPSUM[p] > yp):
            yn, yp, ys = n, PIPSUM[p], s
    c1 = _cmp(yn, en)
    c2 = _cmp(yp, ep_) if c1 == 0 else 0
    if c1 < 0 or (c1 == 0 and c2 < 0):
        shown = elder & (0xFF << (8 * es))
    elif c1 > 0 or c2 > 0:
        shown = younger & (0xFF << (8 * ys)) if younger_shown else -1
    else:
        shown = 0
    out[0] = en
    out[1] = c1
    out[2] = ep_ if c1 == 0 else -1
    out[3] = c2
    out[4] = shown
    # sequences: the best (length, top), ties to the first suit; every run is shown
    el_, et, ell, eu = 0, 0, 0, 0
    yl, yt, yu = 0, 0, 0
    for s in range(4):
        p = elder >> (8 * s) & 0xFF
        if RUN_LEN[p] > el_ or (RUN_LEN[p] == el_ and RUN_LEN[p] > 0 and RUN_TOP[p] > et):
            el_, et = RUN_LEN[p], RUN_TOP[p]
        eu |= RUN_MASK[p] << (8 * s)
        p = younger >> (8 * s) & 0xFF
        if RUN_LEN[p] > yl or (RUN_LEN[p] == yl and RUN_LEN[p] > 0 and RUN_TOP[p] > yt):
            yl, yt = RUN_LEN[p], RUN_TOP[p]
        yu |= RUN_MASK[p] << (8 * s)
    ell = el_
    _class_code(ell > 0, ell, et, yl > 0, yl, yt, eu, yu, younger_shown, True, out, 5)
    # sets: the best (size, rank); every trio or quatorze is shown
    en, er, eu, yn, yr, yu = 0, 0, 0, 0, 0, 0
    for r in range(3, 8):
        m = elder & (0x01010101 << r)
        n = popcount(m)
        if n >= 3:
            if n > en or (n == en and r > er):
                en, er = n, r
            eu |= m
        m = younger & (0x01010101 << r)
        n = popcount(m)
        if n >= 3:
            if n > yn or (n == yn and r > yr):
                yn, yr = n, r
            yu |= m
    _class_code(en > 0, en, er, yn > 0, yn, yr, eu, yu, younger_shown, False, out, 10)


def _class_code(e_has: bool, e0: int, e1: int, y_has: bool, y0: int, y1: int, eu: int,
                yu: int, younger_shown: int, seq: bool, out: Buf, at: int) -> None:
    """The five record fields of the sequence or set class at ``out[at:]``."""
    if not e_has:
        first = -1
        c1 = 1 if y_has else 0
        c2 = 0
    else:
        first = e0 if seq else 8 * e0 + e1
        if not y_has:
            c1, c2 = -1, 0
        else:
            c1 = _cmp(y0, e0)
            c2 = _cmp(y1, e1) if c1 == 0 else 0
            if not seq:
                c1, c2 = (1 if c1 > 0 or c2 > 0 else -1), 0
    if c1 < 0 or (c1 == 0 and c2 < 0):
        shown = eu
    elif c1 > 0 or c2 > 0:
        shown = yu if younger_shown else -1
    else:
        shown = 0
    out[at] = first
    out[at + 1] = c1
    out[at + 2] = e1 if e_has and c1 == 0 and seq else -1
    out[at + 3] = c2
    out[at + 4] = shown


def record_matches(mine: int, opp: int, seat_is_elder: int, younger_shown: int,
                   target: Buf, work: Buf) -> bool:
    """Whether the opponent's declaration hand ``opp`` gives the record ``target``
    (:func:`record_code`) beside this seat's ``mine``."""
    if seat_is_elder:
        record_code(mine, opp, younger_shown, work)
    else:
        record_code(opp, mine, younger_shown, work)
    for i in range(15):  # noqa: SIM110 (a plain loop compiles)
        if work[i] != target[i]:
            return False
    return True


I64 = "int64"
A1 = "int64[::1]"
A2 = "int64[:, ::1]"
F1 = "float64[::1]"
KERNELS = kernels("piquet", __name__, {
    "rollout": f"{I64}({', '.join([I64] * 10)})",
    "rollout_values": f"void({A1}, {I64}, {A1}, {A1}, {I64}, {I64}, {I64}, {A2})",
    "solve_root": f"{I64}({A1}, {A1}, {I64}, {I64}, {I64}, {A1}, {A2}, {A1})",
    "declaration_margin": f"UniTuple({I64}, 2)({I64}, {I64})",
    "exchange_values": f"void({A1}, {A1}, {A2}, {', '.join([I64] * 6)}, {A2})",
    "hand_value": f"float64({I64})",
    "hand_values": f"void({A1}, {F1})",
    "discard_values": f"{I64}({I64}, {A1}, {I64}, {A1}, {F1}, {A1})",
    "record_code": f"void({I64}, {I64}, {I64}, {A1})",
    "record_matches": f"boolean({I64}, {I64}, {I64}, {I64}, {A1}, {A1})",
})
"""The compiled entry points (or their Python forms, see :mod:`cardplaza.ai.compiled`)."""

__all__ = ["KERNELS", "TABLE_BITS"]
