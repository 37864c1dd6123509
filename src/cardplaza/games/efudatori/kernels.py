"""Compiled E-fuda-tori search kernels (numba, int64 card masks; the Joker is bit 52),
entry points in :data:`KERNELS` (compiled and cached by :mod:`cardplaza.ai.compiled`).

Each kernel computes exactly what its pure-Python reference computes (the players'
``compiled=False`` path, which also runs when compilation is switched off):

* :func:`playout_values` — :func:`.search.playout` and :func:`.search.margin_of` for every
  card in every world of a batch (the heuristic play-out through the stock), with extra
  stock orders drawn by :func:`.search.shuffle_stock` on the :class:`.search.SplitMix64`
  stream (the same generator implemented here as :func:`splitmix_next`);
* :func:`solve_end` — :meth:`.players.MaxNSolver.root_values`, the exact max-n value of
  each card once the stock is empty, searched with an explicit stack (numba cannot
  reload from its disk cache a function that calls a recursive one), trying one card of
  each run of interchangeable cards (:func:`.players.equivalent_below`) as the reference
  does, keeping the outcome of trick starts in a table (keyed by what the rest of the
  game depends on, see :func:`end_values`) and playing the forced last trick directly.

Floating-point values are computed with the same operations in the same order as the
Python code (no fast-math), so the results are identical bit for bit.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from cardplaza.ai.compiled import kernels
from cardplaza.ai.kernel_bits import bit_length, low, popcount
from cardplaza.games.efudatori import rules
from cardplaza.games.efudatori.search import HIGHER, KEEP, PLAIN, POINTS, TRUMP

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
UIntArray = npt.NDArray[np.uint64]

JOKER = rules.JOKER
JOKER_BIT = rules.JOKER_BIT
SPADE_ACE = rules.SPADE_ACE
SPADE_ACE_BIT = rules.SPADE_ACE_BIT
SPADE_THREE = rules.SPADE_THREE
SPADE_THREE_BIT = rules.SPADE_THREE_BIT
FACE_MASK = rules.FACE_MASK
FIRST_LEAD_OK = rules.FIRST_LEAD_OK
SET_BONUS = rules.SET_BONUS
K_POINTS = tuple(POINTS)
K_HIGHER = tuple(HIGHER)
K_TRUMP = tuple(TRUMP)
K_KEEP = np.array(KEEP, dtype=np.float64)
K_SUIT = tuple(rules.SUIT_MASK)
K_SETS = tuple(rules.SET_MASKS)
K_RANKS = tuple(sum(1 << (13 * s + r) for s in range(4)) for r in rules.FACE_POINTS)
K_RANK_POINTS = tuple(rules.FACE_POINTS.values())
TT_BITS = 14
"""The end solver's table of trick starts holds at most ``2**TT_BITS`` slots."""
TT_PRIME = (1 << 40) - 87
"""Modulus of the table's hash (hash * 8191 + card mask stays below 2**63)."""


def low_card(m: int) -> int:
    """The lowest card of a non-empty mask."""
    return low(m)


def splitmix_next(state: UIntArray) -> np.uint64:
    """Advance the SplitMix64 state ``state[0]``; the next 64-bit output, as uint64."""
    z = state[0] + np.uint64(0x9E3779B97F4A7C15)
    state[0] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    out: np.uint64 = z ^ (z >> np.uint64(31))
    return out


def shuffle(a: IntArray, n: int, state: UIntArray) -> None:
    """:func:`.search.shuffle_stock` of ``a[:n]`` in place (Fisher-Yates from the top)."""
    for i in range(n - 1, 0, -1):
        j = np.int64(splitmix_next(state) % np.uint64(i + 1))
        t = a[i]
        a[i] = a[j]
        a[j] = t


def _over(c: int, best: int, trump: int, lead: int) -> bool:
    if c == SPADE_ACE:
        return True
    if best == SPADE_ACE:
        return False
    cs = c // 13
    bs = best // 13
    if cs == trump:
        return bs != trump or c > best
    if bs == trump:
        return False
    return cs == lead and bs == lead and c > best


def _policy(hand: int, legal: int, pos: int, k: int, n: int, live: int, captured: int,
            tm: int, pts: int, best: int, lead: int) -> int:
    """:func:`.search._policy`."""
    if legal & (legal - 1) == 0:
        return low_card(legal)
    later = n - 1 - pos
    out = live & ~hand
    trump = K_TRUMP[k % 3]
    q = 0.0
    if later:
        q = min(1.0, later * popcount(hand) / max(popcount(out), 1))
    miss = 1.0 - q
    joker_in = tm & JOKER_BIT
    kk = k % 3
    best_v = -1e18
    choice = -1
    m = legal
    while m:
        low = m & -m
        c = low_card(low)
        m ^= low
        pc = K_POINTS[c]
        if pos:
            if c == SPADE_THREE:
                wins = joker_in != 0 or _over(c, best, trump, lead)
            elif c == JOKER:
                wins = not tm & SPADE_THREE_BIT
            else:
                wins = joker_in == 0 and _over(c, best, trump, lead)
        else:
            wins = True
        if wins:
            if later:
                if c == JOKER:
                    beat = SPADE_THREE_BIT
                elif c == SPADE_THREE and joker_in:
                    beat = 0
                elif c == SPADE_ACE:
                    beat = JOKER_BIT
                elif c // 13 == trump:
                    beat = JOKER_BIT | SPADE_ACE_BIT | K_HIGHER[c]
                else:
                    beat = JOKER_BIT | SPADE_ACE_BIT | K_SUIT[trump] | K_HIGHER[c]
                p_beat = 1.0 - miss ** popcount(beat & out)
            else:
                p_beat = 0.0
            gain = pts + pc + 3.0 * later
            got = captured | tm | low
            if got & FACE_MASK != captured & FACE_MASK:
                for sm in K_SETS:
                    if got & sm == sm and captured & sm != sm:
                        gain += 15.0
            v = (1.0 - p_beat) * gain - p_beat * (pts + 2.0 * pc)
            if c == SPADE_THREE and joker_in:
                v += 10.0
        else:
            v = -1.5 * pc
            if pos and c == JOKER:
                v -= 5.0
        if c == SPADE_THREE:
            if out & JOKER_BIT:
                v -= 4.0
                if later:
                    v += q * 25.0
        elif c == JOKER:
            v -= 10.0 if out & SPADE_THREE_BIT else 15.0
        elif c == SPADE_ACE:
            v -= 8.0 if out & JOKER_BIT else 12.0
        else:
            v -= K_KEEP[kk, c]
        if v > best_v:
            best_v = v
            choice = c
    return choice


def _winner_index(trick: IntArray, m: int, k: int) -> int:
    """:func:`.rules.trick_winner_index` of ``trick[:m]``."""
    three = -1
    joker = -1
    ace = -1
    for i in range(m):
        if trick[i] == JOKER:
            joker = i
        elif trick[i] == SPADE_THREE:
            three = i
        elif trick[i] == SPADE_ACE:
            ace = i
    if joker >= 0:
        return three if three >= 0 else joker
    if ace >= 0:
        return ace
    trump = K_TRUMP[k % 3]
    best = -1
    bi = -1
    for i in range(m):
        if trick[i] // 13 == trump and trick[i] > best:
            best, bi = trick[i], i
    if bi >= 0:
        return bi
    led = trick[0] // 13
    for i in range(m):
        if trick[i] // 13 == led and trick[i] > best:
            best, bi = trick[i], i
    return bi


def fast_score(captured: int, simple: int) -> int:
    """:func:`.search.fast_score`."""
    out = 0
    for i in range(len(K_RANKS)):
        out += K_RANK_POINTS[i] * popcount(captured & K_RANKS[i])
    if not simple and captured & FACE_MASK:
        for sm in K_SETS:
            if captured & sm == sm:
                out += SET_BONUS
    return out


def playout(hands: IntArray, stock: IntArray, ns: int, trick: IntArray, nt: int,
            leader: int, k: int, captured: IntArray, n: int, total: int, first: int) -> None:
    """:func:`.search.playout` in place: ``hands``, ``stock[:ns]`` (top card last),
    ``trick[:nt]`` and ``captured`` are the world's lists as arrays."""
    live = 0
    for p in range(n):
        live |= hands[p]
    for i in range(ns):
        live |= 1 << stock[i]
    tm = 0
    pts = 0
    three_at = -1
    for i in range(nt):
        tm |= 1 << trick[i]
        pts += K_POINTS[trick[i]]
        if trick[i] == SPADE_THREE:
            three_at = i
    pos = nt
    bi = _winner_index(trick, nt, k) if nt else 0
    best = trick[bi] if nt else -1
    lead = -1 if nt == 0 or trick[0] == JOKER else trick[0] // 13
    trump = K_TRUMP[k % 3]
    trump_mask = K_SUIT[trump]
    while True:
        p = (leader + pos) % n
        hand = hands[p]
        if first >= 0:
            c = first
            first = -1
        else:
            if not pos:
                if k == 1:
                    legal = hand & FIRST_LEAD_OK
                    if not legal:
                        legal = hand
                else:
                    legal = hand
            elif tm & SPADE_THREE_BIT and hand & JOKER_BIT:
                legal = JOKER_BIT
            elif tm & JOKER_BIT and hand & trump_mask:
                legal = hand & trump_mask
            elif lead >= 0 and hand & K_SUIT[lead]:
                legal = hand & (K_SUIT[lead] | JOKER_BIT)
            else:
                legal = hand
            if legal & (legal - 1):
                c = _policy(hand, legal, pos, k, n, live, captured[p], tm, pts, best, lead)
            else:
                c = low_card(legal)
        bit = 1 << c
        hands[p] = hand & ~bit
        live &= ~bit
        if pos == 0:
            bi, best = 0, c
            lead = -1 if c == JOKER else c // 13
            if c == SPADE_THREE:
                three_at = 0
        elif c == SPADE_THREE:
            three_at = pos
            if tm & JOKER_BIT or _over(c, best, trump, lead):
                bi, best = pos, c
        elif c == JOKER:
            if tm & SPADE_THREE_BIT:
                bi, best = three_at, SPADE_THREE
            else:
                bi, best = pos, c
        elif not tm & JOKER_BIT and _over(c, best, trump, lead):
            bi, best = pos, c
        tm |= bit
        pts += K_POINTS[c]
        pos += 1
        if pos < n:
            continue
        w = (leader + bi) % n
        captured[w] |= tm
        tm = 0
        pts = 0
        pos = 0
        if ns:
            for i in range(n):
                ns -= 1
                hands[(w + i) % n] |= 1 << stock[ns]
        if k >= total:
            return
        leader = w
        k += 1
        trump = K_TRUMP[k % 3]
        trump_mask = K_SUIT[trump]


def margin(captured: IntArray, seat: int, n: int, simple: int) -> float:
    """:func:`.search.margin_of`."""
    mine = 0
    tot = 0
    for p in range(n):
        s = fast_score(captured[p], simple)
        tot += s
        if p == seat:
            mine = s
    return mine - (tot - mine) / (n - 1)


def playout_values(hands: IntArray, stocks: IntArray, orders: int, trick: IntArray,
                   leader: int, k: int, captured: IntArray, cards: IntArray, seat: int,
                   n: int, total: int, simple: int, seed: int) -> FloatArray:
    """``seat``'s margin after each of ``cards`` and a heuristic play-out, in every world
    (``hands[w]``, ``stocks[w]`` with the top card last) and, when ``orders`` > 1, in
    ``orders - 1`` more stock orders per world, each reshuffling the last
    (:func:`shuffle` on the SplitMix64 stream seeded with ``seed``). One row per world
    and order, in that order; one column per card."""
    nw = hands.shape[0]
    ns = stocks.shape[1]
    nt = trick.shape[0]
    state = np.empty(1, dtype=np.uint64)
    state[0] = np.uint64(seed)
    out = np.empty((nw * orders, cards.shape[0]), dtype=np.float64)
    h = np.empty(n, dtype=np.int64)
    cap = np.empty(n, dtype=np.int64)
    st = np.empty(max(ns, 1), dtype=np.int64)
    order = np.empty(max(ns, 1), dtype=np.int64)
    row = 0
    for w in range(nw):
        for x in range(ns):
            order[x] = stocks[w, x]
        for j in range(orders):
            if j:
                shuffle(order, ns, state)
            for i in range(cards.shape[0]):
                for p in range(n):
                    h[p] = hands[w, p]
                    cap[p] = captured[p]
                for x in range(ns):
                    st[x] = order[x]
                playout(h, st, ns, trick, nt, leader, k, cap, n, total, cards[i])
                out[row, i] = margin(cap, seat, n, simple)
            row += 1
    return out


def _legal(hand: int, trick: IntArray, m: int, k: int) -> int:
    """:func:`.rules.legal_mask` for ``trick[:m]``."""
    if m == 0:
        if k == 1:
            lm = hand & FIRST_LEAD_OK
            return lm if lm else hand
        return hand
    played = 0
    for i in range(m):
        played |= 1 << trick[i]
    if played & SPADE_THREE_BIT and hand & JOKER_BIT:
        return JOKER_BIT
    if played & JOKER_BIT:
        trumps = int(hand & K_SUIT[K_TRUMP[k % 3]])
        if trumps:
            return trumps
    if trick[0] != JOKER:
        follow = int(hand & K_SUIT[trick[0] // 13])
        if follow:
            return follow | (hand & JOKER_BIT)
    return hand


def _distinct(legal: int, plain: int, live: int) -> int:
    """``legal`` without the cards interchangeable with a lower one: a card of ``plain``
    (the mover's legal plain cards) whose next lower card of its suit in ``live`` (the
    cards in the hands and the trick) is also one of ``plain``."""
    out = legal
    rest = plain
    while rest:
        bit = rest & -rest
        rest ^= bit
        below = K_SUIT[low_card(bit) // 13] & (bit - 1)
        if plain & below > live & ~plain & below:
            out ^= bit
    return out


def lowest_equivalent(c: int, plain: int, live: int) -> int:
    """The lowest card of ``plain`` that ``c`` is interchangeable with (see
    :func:`_distinct`; ``c`` itself when none)."""
    while plain >> c & 1:
        below = live & K_SUIT[c // 13] & ((1 << c) - 1)
        if below == 0 or not plain >> (bit_length(below) - 1) & 1:
            break
        c = bit_length(below) - 1
    return c


def _margins(finals: IntArray, r: int, n: int, simple: int, scratch: FloatArray) -> None:
    """Every seat's final margin into ``scratch[r]`` from the seats' captured cards at
    the game's end, ``finals[r]`` (:meth:`.players.MaxNSolver.margins`)."""
    isum = 0.0
    for i in range(n):
        scratch[r, i] = fast_score(finals[r, i], simple)
        isum += scratch[r, i]
    for i in range(n):
        scratch[r, i] = scratch[r, i] - (isum - scratch[r, i]) / (n - 1)


def _last_trick(hands: IntArray, tricks: IntArray, captured: IntArray, leader: int, k: int,
                n: int, simple: int, scratch: FloatArray, finals: IntArray, r: int) -> None:
    """The last trick, ``k``, led by ``leader``, played out (every hand holds one card, so
    every card is forced): the final captures into ``finals[r]``, margins into
    ``scratch[r]``."""
    tm = 0
    for i in range(n):
        tricks[k, i] = low_card(hands[(leader + i) % n])
        tm |= hands[(leader + i) % n]
    w = (leader + _winner_index(tricks[k], n, k)) % n
    for i in range(n):
        finals[r, i] = captured[i] | tm if i == w else captured[i]
    _margins(finals, r, n, simple, scratch)


def _open_sets(hands: IntArray, n: int, simple: int) -> int:
    """The pictures of the suits with a picture still in a hand (none with simple
    scoring): only their captured pictures can change a set bonus still to come, so only
    they are part of a trick start's key in the table."""
    if simple:
        return 0
    live = 0
    for i in range(n):
        live |= hands[i]
    out = 0
    for sm in K_SETS:
        if live & sm:
            out |= sm
    return out


def _tt_slot(hands: IntArray, captured: IntArray, leader: int, n: int, sets: int,
             size: int) -> int:
    """The slot of a trick's start in a table of ``size`` (a power of two) slots."""
    h = leader
    for i in range(n):
        h = (h * 8191 + hands[i]) % TT_PRIME
        h = (h * 8191 + (captured[i] & sets)) % TT_PRIME
    return h & (size - 1)


def _tt_holds(hands: IntArray, captured: IntArray, leader: int, n: int, sets: int,
              tt_key: IntArray, slot: int) -> bool:
    """Does ``slot`` hold this trick's start?"""
    if tt_key[slot, 0] == 0 or tt_key[slot, 1] != leader:
        return False
    for i in range(n):
        if tt_key[slot, 2 + i] != hands[i] or tt_key[slot, 2 + n + i] != captured[i] & sets:
            return False
    return True


def _trick_done(hands: IntArray, tricks: IntArray, fr: IntArray, sp: int, captured: IntArray,
                n: int, total: int, simple: int, scratch: FloatArray, finals: IntArray,
                tt_key: IntArray, tt_val: IntArray) -> bool:
    """After the frame's card completed its trick: the winner captures it; when the
    values after it are known (the game's end, the last trick, or a trick start found in
    the table) they go into the child's row ``sp + 1`` (True), else the next trick's
    frame is opened at ``sp + 1`` (False)."""
    k = fr[sp, 2]
    w = (fr[sp, 1] + _winner_index(tricks[k], n, k)) % n
    fr[sp, 6] = w
    fr[sp, 7] = captured[w]
    for i in range(n):
        captured[w] |= 1 << tricks[k, i]
    if k >= total:
        for i in range(n):
            finals[sp + 1, i] = captured[i]
        _margins(finals, sp + 1, n, simple, scratch)
        return True
    if k + 1 == total:
        _last_trick(hands, tricks, captured, w, k + 1, n, simple, scratch, finals, sp + 1)
        return True
    sets = _open_sets(hands, n, simple)
    slot = _tt_slot(hands, captured, w, n, sets, tt_key.shape[0])
    if _tt_holds(hands, captured, w, n, sets, tt_key, slot):
        for i in range(n):
            finals[sp + 1, i] = captured[i] | tt_val[slot, i]
        _margins(finals, sp + 1, n, simple, scratch)
        return True
    _frame(hands, tricks, fr, sp + 1, 0, w, k + 1, n)
    fr[sp + 1, 9] = slot
    fr[sp + 1, 10] = sets  # the key's picture mask, for storing the outcome
    return False


def _frame(hands: IntArray, tricks: IntArray, fr: IntArray, sp: int, m: int, leader: int,
           k: int, n: int) -> None:
    """Open frame ``sp``: trick ``k`` holds ``m`` cards, the player after them chooses
    among his legal cards, one of each run of interchangeable ones (:func:`_distinct`)."""
    q = (leader + m) % n
    legal = _legal(hands[q], tricks[k], m, k)
    plain = legal & PLAIN
    if plain & (plain - 1):
        live = 0
        for i in range(n):
            live |= hands[i]
        for i in range(m):
            live |= 1 << tricks[k, i]
        legal = _distinct(legal, plain, live)
    fr[sp, 0] = m
    fr[sp, 1] = leader
    fr[sp, 2] = k
    fr[sp, 3] = q
    fr[sp, 4] = legal
    fr[sp, 5] = 0  # no card tried yet
    fr[sp, 6] = -1  # winner of the trick the last card completed
    fr[sp, 9] = -1  # table slot for the values of this trick's start (none)


def _undo(hands: IntArray, fr: IntArray, sp: int, captured: IntArray) -> None:
    """Take back the frame's last card (and the capture of the trick it completed)."""
    if fr[sp, 6] >= 0:
        captured[fr[sp, 6]] = fr[sp, 7]
        fr[sp, 6] = -1
    hands[fr[sp, 3]] |= 1 << fr[sp, 8]


def _take(fr: IntArray, sp: int, scratch: FloatArray, finals: IntArray, n: int) -> None:
    """The child's values and final captures (row ``sp + 1``) replace the frame's best
    when better for its mover (first card kept on ties, within 1e-9)."""
    q = fr[sp, 3]
    if fr[sp, 5] == 1 or scratch[sp + 1, q] > scratch[sp, q] + 1e-9:
        for i in range(n):
            scratch[sp, i] = scratch[sp + 1, i]
            finals[sp, i] = finals[sp + 1, i]


def end_values(hands: IntArray, tricks: IntArray, m: int, leader: int, k: int,
               captured: IntArray, n: int, total: int, simple: int, c: int,
               fr: IntArray, scratch: FloatArray, finals: IntArray, tt_key: IntArray,
               tt_val: IntArray) -> int:
    """Every seat's max-n margin after card ``c`` is played to trick ``k`` (``m`` cards
    already in ``tricks[k]``), into ``scratch[0]``: :meth:`.players.MaxNSolver.values`
    searched with an explicit stack (frame ``i`` in ``fr[i]``, its best values in
    ``scratch[i]``, the seats' captured cards at the end of the play chosen in
    ``finals[i]``); hands and captured cards are restored afterwards, the number of
    cards tried is returned.

    The last trick is played out directly. A trick start's outcome is kept in a table,
    one slot per hash (the last stored wins): ``tt_key`` holds used, leader, hands and
    captured pictures of :func:`_open_sets`, ``tt_val`` the cards each seat captures from
    there on. Every choice below a trick start compares final margins whose differences
    are multiples of ``1 / (n - 1)`` (far beyond the 1e-9 tie tolerance) and depend only
    on those cards, so the same play is chosen whatever else was captured, and its
    margins, recomputed from the final captures, are those of a full search."""
    # frame 0 is a one-card frame that plays c
    fr[0, 0] = m
    fr[0, 1] = leader
    fr[0, 2] = k
    fr[0, 3] = (leader + m) % n
    fr[0, 4] = 1 << c
    fr[0, 5] = 0
    fr[0, 6] = -1
    fr[0, 9] = -1
    sp = 0
    tried = 0
    while True:
        legal = fr[sp, 4]
        if legal == 0:
            # the frame is done: its best values go to the table and to the parent
            slot = fr[sp, 9]
            if slot >= 0:
                sets = fr[sp, 10]  # the hands are back as they were at the trick's start
                tt_key[slot, 0] = 1
                tt_key[slot, 1] = fr[sp, 1]
                for i in range(n):
                    tt_key[slot, 2 + i] = hands[i]
                    tt_key[slot, 2 + n + i] = captured[i] & sets
                    tt_val[slot, i] = finals[sp, i] & ~captured[i]
            if sp == 0:
                return tried
            sp -= 1
            _undo(hands, fr, sp, captured)
            _take(fr, sp, scratch, finals, n)
            continue
        bit = legal & -legal
        fr[sp, 4] = legal ^ bit
        fr[sp, 5] += 1
        tried += 1
        c = low_card(bit)
        fr[sp, 8] = c
        q = fr[sp, 3]
        hands[q] &= ~bit
        mm = fr[sp, 0]
        kk = fr[sp, 2]
        tricks[kk, mm] = c
        if mm + 1 < n:
            _frame(hands, tricks, fr, sp + 1, mm + 1, fr[sp, 1], kk, n)
            sp += 1
            continue
        if _trick_done(hands, tricks, fr, sp, captured, n, total, simple, scratch, finals,
                       tt_key, tt_val):
            _undo(hands, fr, sp, captured)
            _take(fr, sp, scratch, finals, n)
            continue
        sp += 1


def solve_end(hands: IntArray, trick: IntArray, leader: int, k: int, captured: IntArray,
              cards: IntArray, seat: int, n: int, total: int, simple: int) -> FloatArray:
    """``seat``'s exact max-n margin after each of ``cards`` (legal for the seat to play;
    the stock empty): :meth:`.players.MaxNSolver.root_values`. A card interchangeable
    with an earlier one of ``cards`` (:func:`lowest_equivalent`) gets its values."""
    h = hands.copy()
    cap = captured.copy()
    tricks = np.zeros((total + 2, n), dtype=np.int64)
    m = trick.shape[0]
    live = 0
    for i in range(m):
        tricks[k, i] = trick[i]
        live |= 1 << trick[i]
    left = m
    for p in range(n):
        left += popcount(h[p])
        live |= h[p]
    fr = np.zeros((left + 2, 11), dtype=np.int64)
    scratch = np.zeros((left + 2, n), dtype=np.float64)
    size = 1 << min(TT_BITS, max(0, left - 2 * n) + 3)
    tt_key = np.zeros((size, 2 * n + 2), dtype=np.int64)
    tt_val = np.zeros((size, n), dtype=np.int64)
    finals = np.zeros((left + 2, n), dtype=np.int64)
    plain = _legal(h[seat], tricks[k], m, k) & PLAIN
    base = np.empty(cards.shape[0], dtype=np.int64)
    out = np.empty(cards.shape[0], dtype=np.float64)
    for i in range(cards.shape[0]):
        base[i] = lowest_equivalent(cards[i], plain, live)
        j = 0
        while j < i and base[j] != base[i]:
            j += 1
        if j < i:
            out[i] = out[j]
            continue
        end_values(h, tricks, m, leader, k, cap, n, total, simple, cards[i], fr, scratch,
                   finals, tt_key, tt_val)
        out[i] = scratch[0, seat]
    return out


I64 = "int64"
A1 = "int64[::1]"
A2 = "int64[:, ::1]"
KERNELS = kernels("efudatori", __name__, {
    "playout_values": f"float64[:, ::1]({A2}, {A2}, {I64}, {A1}, {I64}, {I64}, {A1}, {A1}, "
                      f"{', '.join([I64] * 5)})",
    "solve_end": f"float64[::1]({A1}, {A1}, {I64}, {I64}, {A1}, {A1}, {I64}, {I64}, {I64}, "
                 f"{I64})",
    "splitmix_next": "uint64(uint64[::1])",
    "shuffle": f"void({A1}, {I64}, uint64[::1])",
})
"""The compiled entry points (:mod:`cardplaza.ai.compiled`)."""

__all__ = ["KERNELS"]
