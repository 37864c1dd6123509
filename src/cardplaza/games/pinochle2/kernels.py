"""Compiled simulation kernels of two-hand Pinochle (plain Python, compiled by numba).

The search levels (4 and 5) evaluate each candidate action by playing sampled worlds to
the end of the deal with level 3 for both players: through the stock (melds, the dix
exchange, the draws, the trick-12 reveals) and the playoff (level 3's one-trick lookahead).
:func:`simulate` does that for every candidate in every world, dealing the worlds itself
exactly as :func:`world.sample_world` deals them and drawing the numbers the pure-Python
search drew from the player's ``random.Random`` (:mod:`cardplaza.ai.kernel_bits`), so it
returns the Python search's sums. The functions here, run as Python, are the reference
the compiled kernels are tested against; :func:`rollout` is also tested against the
protocol engine driven by :func:`players.level3_rollout`.

A position is a flat int array (:data:`S_HANDS` … :data:`S_STOCK`); cards are 0..47 as in
:mod:`engine`, masks 48 bits. Everything mirrors :mod:`engine` (transitions) and
:mod:`players` (level 3); a change there must be made here too — the tests compare them.
"""

from __future__ import annotations

from typing import Any

from cardplaza.ai.compiled import kernels
from cardplaza.ai.kernel_bits import low, mt_shuffle, mt_skip, popcount
from cardplaza.games.pinochle2.engine import (
    HIGHER,
    INSTANCES,
    MELD_GROUP,
    MELD_IS_DOUBLE,
    MELD_POINTS,
    POINTS,
    RANK_OF,
    SUIT_MASK,
    SUIT_OF,
)

Buf = Any
"""An int64 array (compiled) or a list of ints (Python) the caller provides."""

# -- the position array ---------------------------------------------------------------------
S_HANDS, S_MELDED, S_KNOWN, S_USED, S_MELD_POINTS, S_COUNTERS = 0, 2, 4, 6, 12, 14
S_LEAD, S_STEP, S_TURN, S_TRICKS, S_LAST, S_STOCK_LEN, S_STOCK = 16, 17, 18, 19, 20, 21, 22
S_SIZE = S_STOCK + 24
"""Hands, meld areas, known cards (per seat), group use (6), meld points and counters (per
seat), the led card (-1), step (0 play, 1 meld, 2 end), seat to act, tricks played, winner
of the last trick (-1), the stock's size and cards (``stock[0]`` the turn-up, the last
one the top)."""

STEP_PLAY, STEP_MELD, STEP_END = 0, 1, 2
KIND_PLAY, KIND_NO_MELD, KIND_MELD = 0, 1, 2
NINE, JACK, QUEEN, KING, TEN, ACE = 0, 1, 2, 3, 4, 5
ROYAL, DIX = 1, 3
ALL = (1 << 48) - 1
F24 = (1 << 24) - 1
MAX_MELDS = 64
"""Room for the distinct legal melds of one hand (buffers of :func:`gen_melds`)."""

SUIT_T = SUIT_OF
RANK_T = RANK_OF
POINTS_T = POINTS
SUIT_MASK_T = SUIT_MASK
HIGHER_T = HIGHER
GROUP_T = MELD_GROUP
MELD_POINTS_T = MELD_POINTS
HIGH_TRUMP = tuple(sum(1 << (s * 6 + r + 24 * k) for r in (TEN, ACE) for k in (0, 1))
                   for s in range(4))


BLOCK = 20
"""Rows per (trump, double melds) block of the meld tables (17 instances at most)."""


def _instance_tables() -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Meld instances per (trump, double melds) as flat rows: type, group, copies needed,
    both copies' mask, cards needed, number of faces and five faces (padded)."""
    rows: list[list[int]] = []
    count: list[int] = []
    for trump in range(4):
        for dbl in (0, 1):
            block = [(t, g, faces, need) for t, g, faces, need in INSTANCES[trump]
                     if dbl or not MELD_IS_DOUBLE[t]]
            count.append(len(block))
            for t, g, faces, need in block:
                span = sum((1 << f) | (1 << (f + 24)) for f in faces)
                rows.append([t, g, need, span, need * len(faces), len(faces),
                             *faces, *([0] * (5 - len(faces)))])
            assert len(block) <= BLOCK
            rows.extend([[0] * 11] * (BLOCK - len(block)))
    return tuple(tuple(r) for r in rows), tuple(count)


INST, INST_COUNT = _instance_tables()


def _near_tables() -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Near-meld rows per (trump, double melds): group, faces mask, copies needed."""
    rows: list[tuple[int, int, int]] = []
    count: list[int] = []
    for trump in range(4):
        for dbl in (False, True):
            block = [(g, sum(1 << f for f in faces), need)
                     for t, g, faces, need in INSTANCES[trump]
                     if not (need == 2 and not dbl and t != 5)]
            count.append(len(block))
            rows.extend(block + [(0, 0, 0)] * (BLOCK - len(block)))
    return tuple(rows), tuple(count)


NEAR, NEAR_COUNT = _near_tables()


# -- melds ----------------------------------------------------------------------------------

def _signature(c: int, melded: int, known: int, s: Buf) -> int:
    sig = ((melded >> c) & 1) | (((known >> c) & 1) << 1)
    for g in range(6):
        sig |= ((s[S_USED + g] >> c) & 1) << (g + 2)
    return sig


def gen_melds(hand: int, melded: int, known: int, s: Buf, trump: int, dbl: int, ncr: int,
              out_t: Buf, out_m: Buf, opt1: Buf, opt2: Buf, fk: Buf, fm: Buf) -> int:
    """The distinct legal melds of a hand in display order, as
    :func:`engine.generate_melds`: types in ``out_t``, masks in ``out_m``; their number."""
    block = trump * 2 + dbl
    count = 0
    for k in range(INST_COUNT[block]):
        row = INST[block * BLOCK + k]
        t = row[0]
        g = row[1]
        need = row[2]
        free = hand & ~s[S_USED + g] & row[3]
        if popcount(free) < row[4]:
            continue
        nf = row[5]
        ok = True
        for j in range(nf):
            a = row[6 + j]
            b = a + 24
            has_a = (free >> a) & 1
            has_b = (free >> b) & 1
            opt2[j] = 0
            if need == 2:
                if not (has_a and has_b):
                    ok = False
                    break
                opt1[j] = (1 << a) | (1 << b)
            elif has_a and has_b:
                opt1[j] = 1 << a
                if _signature(a, melded, known, s) != _signature(b, melded, known, s):
                    opt2[j] = 1 << b
            elif has_a:
                opt1[j] = 1 << a
            elif has_b:
                opt1[j] = 1 << b
            else:
                ok = False
                break
        if not ok:
            continue
        nfound = 0
        for combo in range(1 << nf):  # itertools.product order: the first face slowest
            m = 0
            valid = True
            for j in range(nf):
                if (combo >> (nf - 1 - j)) & 1:
                    if not opt2[j]:
                        valid = False
                        break
                    m |= opt2[j]
                else:
                    m |= opt1[j]
            if not valid:
                continue
            conc = m & ~melded
            if ncr and not conc:
                continue
            key = popcount(conc)
            i = nfound
            while i > 0 and (fk[i - 1] > key or (fk[i - 1] == key and fm[i - 1] > m)):
                fk[i] = fk[i - 1]
                fm[i] = fm[i - 1]
                i -= 1
            fk[i] = key
            fm[i] = m
            nfound += 1
        for i in range(nfound):
            out_t[count] = t
            out_m[count] = fm[i]
            count += 1
    return count


def near_meld_cards(hand: int, unseen: int, s: Buf, trump: int, dbl: int) -> int:
    """Cards of melds lacking exactly one card of which a copy is unseen
    (:meth:`players.View.near_meld_cards`)."""
    out = 0
    unseen_faces = (unseen | (unseen >> 24)) & F24
    block = trump * 2 + dbl
    for k in range(NEAR_COUNT[block]):
        row = NEAR[block * BLOCK + k]
        faces = row[1]
        free = hand & ~s[S_USED + row[0]]
        lo = free & faces
        hi = (free >> 24) & faces
        if row[2] == 1:
            present = lo | hi
            missing = faces & ~present
            if popcount(missing) == 1 and missing & unseen_faces:
                out |= lo | ((hi & ~lo) << 24)
        else:
            both = lo & hi
            one = (lo | hi) & ~both
            if not faces & ~(both | one) and popcount(one) == 1 and one & unseen_faces:
                out |= free & (faces | (faces << 24))
    return out


# -- level 3 ---------------------------------------------------------------------------------

def trick_winner(lead: int, follow: int, trump: int) -> bool:
    """True when the follower's card beats the led card (5.3)."""
    sf = SUIT_T[follow]
    if sf == SUIT_T[lead]:
        return RANK_T[follow] > RANK_T[lead]
    return sf == trump


def follow_mask(hand: int, lead: int, trump: int) -> int:
    """Cards the follower may play in the playoff (7.2)."""
    same = hand & SUIT_MASK_T[SUIT_T[lead]]
    if same:
        win = same & HIGHER_T[lead]
        return win if win else same
    trumps = hand & SUIT_MASK_T[trump]
    return trumps if trumps else hand


def least_valuable(cards: int, trump: int, needed: int) -> int:
    """Non-counter, non-trump, not needed for a meld, lowest rank, lowest card first."""
    best = -1
    best_key = 1 << 30
    m = cards
    while m:
        c = low(m)
        m &= m - 1
        key = (((((POINTS_T[c] > 0) * 2 + (SUIT_T[c] == trump)) * 2 + ((needed >> c) & 1))
                * 8 + RANK_T[c]) * 64 + c)
        if key < best_key:
            best = c
            best_key = key
    return best


def lowest(cards: int, trump: int) -> int:
    """Lowest rank, non-trump before trump, lowest card."""
    best = -1
    best_key = 1 << 30
    m = cards
    while m:
        c = low(m)
        m &= m - 1
        key = (RANK_T[c] * 2 + (SUIT_T[c] == trump)) * 64 + c
        if key < best_key:
            best = c
            best_key = key
    return best


def cheapest_winner(cards: int, lead: int, trump: int) -> int:
    """Cheapest stock-phase winning card (never the A or 10 of trump), or -1."""
    best = -1
    best_key = 1 << 30
    lead_suit = SUIT_T[lead]
    m = cards
    while m:
        c = low(m)
        m &= m - 1
        if not trick_winner(lead, c, trump):
            continue
        su = SUIT_T[c]
        if su == trump and RANK_T[c] >= TEN:
            continue
        if su == lead_suit and su != trump and POINTS_T[c] == 0:
            cls = 0
        elif su == trump:
            cls = 1
        else:
            cls = 2
        key = (cls * 8 + RANK_T[c]) * 64 + c
        if key < best_key:
            best = c
            best_key = key
    return best


def playoff_lookahead(hand: int, legal: int, lead: int, opp: int, trump: int) -> int:
    """Level 3's playoff card: the best for the current trick only (11.4)."""
    last = 10 if popcount(hand) == 1 else 0
    m = legal
    best = -1
    if lead >= 0:
        k0, k1, k2 = -9999, -1, 0
        while m:
            c = low(m)
            m &= m - 1
            pts = POINTS_T[lead] + POINTS_T[c] + last
            win = trick_winner(lead, c, trump)
            a0 = pts if win else -pts
            a1 = 1 if win else 0
            a2 = -RANK_T[c] * 100 - c
            if a0 > k0 or (a0 == k0 and (a1 > k1 or (a1 == k1 and a2 > k2))):
                best, k0, k1, k2 = c, a0, a1, a2
        return best
    k0, k1, k2, k3, k4 = -9999, -1, -1, -99, -99
    while m:
        c = low(m)
        m &= m - 1
        worst = 9999
        keeps = 1
        r_m = follow_mask(opp, c, trump)
        while r_m:
            r = low(r_m)
            r_m &= r_m - 1
            pts = POINTS_T[c] + POINTS_T[r] + last
            opp_wins = trick_winner(c, r, trump)
            val = -pts if opp_wins else pts
            if val < worst or (val == worst and opp_wins):
                worst = val
                keeps = 0 if opp_wins else 1
        holds = 1 if opp & SUIT_MASK_T[SUIT_T[c]] else 0
        pref = RANK_T[c] if holds else -RANK_T[c]
        a = (worst, keeps, holds, pref, -c)
        if (a[0] > k0 or (a[0] == k0 and (a[1] > k1 or (a[1] == k1 and (
                a[2] > k2 or (a[2] == k2 and (a[3] > k3 or (a[3] == k3 and a[4] > k4)))))))):
            best, k0, k1, k2, k3, k4 = c, a[0], a[1], a[2], a[3], a[4]
    return best


def _unseen_of(s: Buf, seat: int) -> int:
    """The cards the seat to act cannot see: the opponent's other concealed cards and the
    face-down stock (:meth:`players.View.from_state`)."""
    opp = 1 - seat
    hidden: int = s[S_HANDS + opp] & ~s[S_MELDED + opp] & ~s[S_KNOWN + opp]
    for i in range(1, s[S_STOCK_LEN]):
        hidden |= 1 << s[S_STOCK + i]
    return hidden


def _holds(hand: int, face: int) -> bool:
    return bool((hand >> face) & 1 or (hand >> (face + 24)) & 1)


def meld_level3(s: Buf, trump: int, nmelds: int, out_t: Buf, out_m: Buf) -> int:
    """Level 3's meld (index into ``out_t``/``out_m``, or -1 to decline), as
    :func:`players.meld_level3`: level 2's (most points, fewest concealed cards, table
    order), but no royal marriage while it holds the run's other cards or can still
    complete the run."""
    if nmelds == 0:
        return -1
    seat = s[S_TURN]
    hand = s[S_HANDS + seat]
    melded = s[S_MELDED + seat]
    base = trump * 6
    has_ate = _holds(hand, base + ACE) and _holds(hand, base + TEN) and _holds(hand, base + JACK)
    wait_run = False
    if (not has_ate and _holds(hand, base + KING) and _holds(hand, base + QUEEN)
            and s[S_STOCK_LEN] >= 6):
        unseen = _unseen_of(s, seat)
        wait_run = True
        for rank in (ACE, TEN, JACK):
            if not _holds(hand, base + rank) and not _holds(unseen, base + rank):
                wait_run = False
    best = -1
    k0, k1, k2 = 0, 0, 0
    for i in range(nmelds):
        t = out_t[i]
        if (has_ate or wait_run) and t == ROYAL:
            continue
        a0 = -MELD_POINTS_T[t]
        a1 = popcount(out_m[i] & ~melded)
        if best < 0 or a0 < k0 or (a0 == k0 and (a1 < k1 or (a1 == k1 and t < k2))):
            best, k0, k1, k2 = i, a0, a1, t
    return best


def play_level3(s: Buf, trump: int, dbl: int, ncr: int, legal: int, mt_buf: Buf) -> int:
    """Level 3's card (11.4) for the seat to act (``mt_buf``: meld scratch rows)."""
    seat = s[S_TURN]
    hand = s[S_HANDS + seat]
    lead = s[S_LEAD]
    stock_count = s[S_STOCK_LEN]
    if not stock_count:
        return playoff_lookahead(hand, legal, lead, s[S_HANDS + 1 - seat], trump)
    n = gen_melds(hand, s[S_MELDED + seat], s[S_KNOWN + seat], s, trump, dbl, ncr,
                  mt_buf[0], mt_buf[1], mt_buf[2], mt_buf[3], mt_buf[4], mt_buf[5])
    meld_cards = 0
    for i in range(n):
        meld_cards |= mt_buf[1][i]
    keep = meld_cards
    if stock_count >= 4:
        keep |= near_meld_cards(hand, _unseen_of(s, seat), s, trump, dbl)
    cand = legal & ~keep
    if not cand:
        return least_valuable(legal, trump, keep)
    high = legal & SUIT_MASK_T[trump] & HIGH_TRUMP[trump]
    if popcount(high) == 1 and (lead < 0 or POINTS_T[lead] == 0):
        rest = cand & ~high
        if rest:
            cand = rest
    turn_up = s[S_STOCK]
    if stock_count == 2 and RANK_T[turn_up] >= TEN:
        if lead >= 0:
            losers = 0
            m = cand
            while m:
                c = low(m)
                m &= m - 1
                if not trick_winner(lead, c, trump):
                    losers |= 1 << c
            return least_valuable(losers if losers else cand, trump, keep)
        return least_valuable(cand, trump, keep)
    # Level 2 on the remaining candidates.
    if lead >= 0:
        if POINTS_T[lead] or n > 0:
            win = cheapest_winner(cand, lead, trump)
            if win >= 0:
                return win
        return least_valuable(cand, trump, meld_cards)
    spare = 0
    m = cand
    while m:
        c = low(m)
        m &= m - 1
        if SUIT_T[c] != trump and not POINTS_T[c] and not (meld_cards >> c) & 1:
            spare |= 1 << c
    return lowest(spare if spare else cand, trump)


# -- transitions -----------------------------------------------------------------------------

def draws(s: Buf, winner: int) -> None:
    """The winner draws the top card, then the loser (the last two: the face-down card and
    the turn-up, both made known); the winner leads next."""
    loser = 1 - winner
    n = s[S_STOCK_LEN]
    if n == 2:
        down = s[S_STOCK + 1]
        up = s[S_STOCK]
        s[S_HANDS + winner] |= 1 << down
        s[S_HANDS + loser] |= 1 << up
        s[S_KNOWN + winner] |= 1 << down
        s[S_KNOWN + loser] |= 1 << up
    else:
        s[S_HANDS + winner] |= 1 << s[S_STOCK + n - 1]
        s[S_HANDS + loser] |= 1 << s[S_STOCK + n - 2]
    s[S_STOCK_LEN] = n - 2
    s[S_STEP] = STEP_PLAY
    s[S_TURN] = winner


def play_card(s: Buf, c: int, trump: int) -> None:
    """The seat to act plays ``c`` (:meth:`engine.Pinochle2State._play`)."""
    seat = s[S_TURN]
    keep = ~(1 << c)
    s[S_HANDS + seat] &= keep
    s[S_MELDED + seat] &= keep
    s[S_KNOWN + seat] &= keep
    lead = s[S_LEAD]
    if lead < 0:
        s[S_LEAD] = c
        s[S_TURN] = 1 - seat
        return
    leader = 1 - seat
    winner = seat if trick_winner(lead, c, trump) else leader
    s[S_TRICKS] += 1
    s[S_COUNTERS + winner] += POINTS_T[lead] + POINTS_T[c]
    s[S_LEAD] = -1
    s[S_TURN] = winner
    if s[S_STOCK_LEN]:
        s[S_STEP] = STEP_MELD
    elif s[S_TRICKS] == 24:
        s[S_LAST] = winner
        s[S_STEP] = STEP_END
        s[S_TURN] = -1


def meld(s: Buf, t: int, mask: int) -> None:
    """The trick winner melds (``t``, ``mask``), the dix exchange included, then draws."""
    seat = s[S_TURN]
    s[S_USED + GROUP_T[t]] |= mask
    s[S_MELDED + seat] |= mask
    s[S_KNOWN + seat] &= ~mask
    s[S_MELD_POINTS + seat] += MELD_POINTS_T[t]
    if t == DIX:
        turn_up = s[S_STOCK]
        if RANK_T[turn_up] != NINE:
            s[S_STOCK] = low(mask)
            s[S_HANDS + seat] = (s[S_HANDS + seat] & ~mask) | (1 << turn_up)
            s[S_MELDED + seat] &= ~mask
            s[S_KNOWN + seat] |= 1 << turn_up
    draws(s, seat)


def rollout(s: Buf, trump: int, dbl: int, ncr: int, mt_buf: Buf) -> None:
    """Play the deal to its end with level 3 for both seats (:func:`players.level3_rollout`)."""
    while s[S_STEP] != STEP_END:
        seat = s[S_TURN]
        if s[S_STEP] == STEP_MELD:
            n = gen_melds(s[S_HANDS + seat], s[S_MELDED + seat], s[S_KNOWN + seat], s, trump,
                          dbl, ncr, mt_buf[0], mt_buf[1], mt_buf[2], mt_buf[3], mt_buf[4],
                          mt_buf[5])
            i = meld_level3(s, trump, n, mt_buf[0], mt_buf[1])
            if i < 0:
                draws(s, seat)
            else:
                meld(s, mt_buf[0][i], mt_buf[1][i])
            continue
        hand = s[S_HANDS + seat]
        lead = s[S_LEAD]
        legal = hand if lead < 0 or s[S_STOCK_LEN] else follow_mask(hand, lead, trump)
        single = not legal & (legal - 1)
        c = low(legal) if single else play_level3(s, trump, dbl, ncr, legal, mt_buf)
        play_card(s, c, trump)


def margin(s: Buf, seat: int) -> int:
    """``seat``'s final total minus the other's: counters, melds and the last trick."""
    a: int = s[S_COUNTERS + seat] + s[S_MELD_POINTS + seat]
    b: int = s[S_COUNTERS + 1 - seat] + s[S_MELD_POINTS + 1 - seat]
    if s[S_LAST] == seat:
        a += 10
    elif s[S_LAST] >= 0:
        b += 10
    return a - b


def simulate(mt: Buf, nworlds: int, base: Buf, seat: int, pool: Buf, npool: int,
             opp_fixed: int, opp_hidden: int, trump: int, dbl: int, ncr: int,
             kinds: Buf, values: Buf, masks: Buf, ncands: int, work: Buf, st: Buf,
             scratch: Buf, mt_buf: Buf, totals: Buf, wins: Buf) -> None:
    """PIMC sums: ``nworlds`` worlds dealt as :func:`world.sample_world` deals them (a
    32-bit draw for the world's own seed, a shuffle of the unseen ``pool``: the opponent's
    hidden cards first, the face-down stock after the turn-up), a 64-bit draw for the
    play-out seed, then every candidate (kind, card or meld type, meld mask) applied and
    played out; ``totals[i]`` += the observer's final margin, ``wins[i]`` += 2 for a won
    deal and 1 for a drawn one."""
    opp = 1 - seat
    for _ in range(nworlds):
        mt_skip(mt, 1)
        for k in range(npool):
            scratch[k] = pool[k]
        mt_shuffle(mt, scratch, npool)
        mt_skip(mt, 2)
        for i in range(S_SIZE):
            work[i] = base[i]
        h = opp_fixed
        for k in range(opp_hidden):
            h |= 1 << scratch[k]
        work[S_HANDS + opp] = h
        stock_len = work[S_STOCK_LEN]
        for k in range(1, stock_len):
            work[S_STOCK + k] = scratch[opp_hidden + k - 1]
        for i in range(ncands):
            for j in range(S_SIZE):
                st[j] = work[j]
            kind = kinds[i]
            if kind == KIND_PLAY:
                play_card(st, values[i], trump)
            elif kind == KIND_NO_MELD:
                draws(st, st[S_TURN])
            else:
                meld(st, values[i], masks[i])
            rollout(st, trump, dbl, ncr, mt_buf)
            m = margin(st, seat)
            totals[i] += m
            if m >= 0:
                wins[i] += 2 if m > 0 else 1


KERNELS = kernels("pinochle2", __name__, {
    "rollout": "void(int64[::1], int64, int64, int64, int64[:, ::1])",
    "simulate": "void(int64[::1], int64, int64[::1], int64, int64[::1], int64, int64, int64, "
                "int64, int64, int64, int64[::1], int64[::1], int64[::1], int64, int64[::1], "
                "int64[::1], int64[::1], int64[:, ::1], float64[::1], int64[::1])",
})
"""The compiled entry points (or their Python forms, see :mod:`cardplaza.ai.compiled`)."""
