"""The E-fuda-tori search, written once as plain Python over int card masks (the Joker is
bit 52) and compiled by numba (:mod:`cardplaza.ai.compiled`; entry points in
:data:`KERNELS`).

Every function here is in the subset numba compiles: ints, floats, loops, tuples, and
arrays or lists that the caller provides — nothing is allocated here. Run as Python
(``CARDPLAZA_NO_JIT=1``, or ``KERNELS.reference(name)``) they are the reference the
compiled forms are tested against; both give the same numbers, floats bit for bit (the
same operations in the same order, no fast-math).

* :func:`playout` — a world played to the end of the game (through the stock) with
  :func:`_policy`, a bitmask port of the level-2 heuristic: every seat plays as that
  heuristic would if the cards it cannot see were the cards still in play;
* :func:`playout_values` — the margin after every card in every world of a batch, with
  extra stock orders drawn by :func:`shuffle` on the SplitMix64 stream of
  :func:`splitmix_next`;
* :func:`solve_end` — the exact max-n value of each card once the stock is empty,
  searched with an explicit stack (numba cannot reload from its disk cache a function
  that calls a recursive one), trying one card of each run of interchangeable cards
  (:func:`_distinct`), keeping the outcome of trick starts in a table (keyed by what the
  rest of the game depends on, see :func:`end_values`) and playing the forced last trick
  directly.
"""

from __future__ import annotations

from typing import Any

from cardplaza.ai.compiled import kernels
from cardplaza.ai.kernel_bits import bit_length, low, popcount
from cardplaza.games.efudatori import rules

Buf = Any
"""An int64 (or float64) array (compiled) or a list (Python) the caller provides."""

JOKER = rules.JOKER
JOKER_BIT = rules.JOKER_BIT
SPADE_ACE = rules.SPADE_ACE
SPADE_ACE_BIT = rules.SPADE_ACE_BIT
SPADE_THREE = rules.SPADE_THREE
SPADE_THREE_BIT = rules.SPADE_THREE_BIT
FACE_MASK = rules.FACE_MASK
FIRST_LEAD_OK = rules.FIRST_LEAD_OK
SET_BONUS = rules.SET_BONUS
SUIT = tuple(rules.SUIT_MASK)
"""Cards of each suit."""
SETS = tuple(rules.SET_MASKS)
"""The K-Q-J of each suit."""
RANKS = tuple(sum(1 << (13 * s + r) for s in range(4)) for r in rules.FACE_POINTS)
"""The four cards of each picture rank (J, Q, K)."""
RANK_POINTS = tuple(rules.FACE_POINTS.values())
"""Points of each picture rank, as :data:`RANKS`."""
POINTS = tuple(0 if c == JOKER else rules.FACE_POINTS.get(c % 13, 0) for c in range(53))
"""Face points of each card id."""
HIGHER = tuple((SUIT[c // 13] & ~((2 << c) - 1)) if c < JOKER else 0 for c in range(53))
"""Cards of the same suit ranked above each card."""
TRUMP = tuple(rules.trump_of(k) for k in (3, 1, 2))
"""Trump suit by trick number modulo 3."""
PLAIN = ((1 << JOKER) - 1) & ~FACE_MASK & ~SPADE_ACE_BIT & ~SPADE_THREE_BIT
"""Cards that neither score nor have a rule of their own (not a picture, the Joker, the
♠A or the ♠3): such a card acts only through its suit and its rank."""


def _keep_table(k: int) -> tuple[float, ...]:
    """Value of keeping each ordinary card for the tricks after trick ``k`` (built once, at
    import)."""
    out = []
    for c in range(53):
        if c == JOKER:
            out.append(0.0)
            continue
        suit, rank = c // 13, c % 13
        v = 0.3 * rank / 12.0 + 0.25 * POINTS[c]
        for ahead in (1, 2, 3):
            if rules.trump_of(k + ahead) == suit:
                v += (4.0 - ahead) * rank / 12.0
        out.append(v)
    return tuple(out)


KEEP = tuple(_keep_table(k) for k in (3, 1, 2))
"""Keep value of each card by trick number modulo 3 (special cards handled apart)."""
TT_BITS = 14
"""The end solver's table of trick starts holds at most ``2**TT_BITS`` slots."""
TT_PRIME = (1 << 40) - 87
"""Modulus of the table's hash (hash * 8191 + card mask stays below 2**63)."""
M32 = 0xFFFFFFFF
SPLITMIX_GAMMA = (0x9E3779B9, 0x7F4A7C15)
SPLITMIX_MUL1 = (0xBF58476D, 0x1CE4E5B9)
SPLITMIX_MUL2 = (0x94D049BB, 0x133111EB)
"""The SplitMix64 constants as (high, low) 32-bit halves."""
WORK_ROWS = 5
"""Rows of the scratch of :func:`playout_values`: hands, captured cards, stock, stock
order, generator state."""


def low_card(m: int) -> int:
    """The lowest card of a non-empty mask."""
    return low(m)


def _mul32(a: int, b: int) -> int:
    """``a * b`` modulo 2**32 for ``a, b < 2**32`` (no product reaches 2**63)."""
    return ((a & 0xFFFF) * b + ((((a >> 16) * b) & 0xFFFF) << 16)) & M32


def _mul64(hi: int, lo: int, chi: int, clo: int) -> tuple[int, int]:
    """``(hi, lo) * (chi, clo)`` modulo 2**64, numbers as (high, low) 32-bit halves."""
    t0 = (lo & 0xFFFF) * clo
    t1 = (lo >> 16) * clo
    low32 = (t0 & M32) + ((t1 & 0xFFFF) << 16)
    high = (t0 >> 32) + (t1 >> 16) + (low32 >> 32) + _mul32(hi, clo) + _mul32(lo, chi)
    return high & M32, low32 & M32


def _xorshift(hi: int, lo: int, s: int) -> tuple[int, int]:
    """``z ^ (z >> s)`` for ``0 < s < 32``, ``z`` as (high, low) 32-bit halves."""
    return hi ^ (hi >> s), lo ^ (((lo >> s) | (hi << (32 - s))) & M32)


def splitmix_next(state: Buf) -> tuple[int, int]:
    """Advance the SplitMix64 state (``state[0]``, ``state[1]``: its high and low 32
    bits); the next 64-bit output as (high, low) 32-bit halves. Every intermediate stays
    below 2**63, so Python ints and int64 agree."""
    lo = state[1] + SPLITMIX_GAMMA[1]
    hi = (state[0] + SPLITMIX_GAMMA[0] + (lo >> 32)) & M32
    lo &= M32
    state[0] = hi
    state[1] = lo
    hi, lo = _xorshift(hi, lo, 30)
    hi, lo = _mul64(hi, lo, SPLITMIX_MUL1[0], SPLITMIX_MUL1[1])
    hi, lo = _xorshift(hi, lo, 27)
    hi, lo = _mul64(hi, lo, SPLITMIX_MUL2[0], SPLITMIX_MUL2[1])
    return _xorshift(hi, lo, 31)


def seed_state(seed: int, state: Buf) -> None:
    """Seed the SplitMix64 state with ``0 <= seed < 2**63``."""
    state[0] = seed >> 32
    state[1] = seed & M32


def shuffle(a: Buf, n: int, state: Buf) -> None:
    """Shuffle ``a[:n]`` in place (Fisher-Yates from the top down, each index the next
    SplitMix64 output modulo the places left)."""
    for i in range(n - 1, 0, -1):
        hi, lo = splitmix_next(state)
        j = (((hi % (i + 1)) << 32) + lo) % (i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t


def _over(c: int, best: int, trump: int, lead: int) -> bool:
    """Does ``c`` beat ``best`` (no Joker in the trick; ``lead`` the led suit)?"""
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
    """The heuristic's card among ``legal`` (more than one) for the seat holding ``hand``,
    ``pos`` cards into trick ``k`` of ``n`` seats: the best estimated value of this trick
    (the chance that a later card beats it, points in the trick, a K-Q-J set completed)
    minus the value of keeping the card for later tricks. ``live`` = every card not yet
    played (hands and stock); the trick so far is summed up by its cards ``tm``, their
    points ``pts``, the card winning it now ``best`` and the led suit ``lead`` (-1 if
    none)."""
    if legal & (legal - 1) == 0:
        return low_card(legal)
    later = n - 1 - pos
    out = live & ~hand
    trump = TRUMP[k % 3]
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
        pc = POINTS[c]
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
                    beat = JOKER_BIT | SPADE_ACE_BIT | HIGHER[c]
                else:
                    beat = JOKER_BIT | SPADE_ACE_BIT | SUIT[trump] | HIGHER[c]
                p_beat = 1.0 - miss ** popcount(beat & out)
            else:
                p_beat = 0.0
            gain = pts + pc + 3.0 * later
            got = captured | tm | low
            if got & FACE_MASK != captured & FACE_MASK:
                for sm in SETS:
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
            v -= KEEP[kk][c]
        if v > best_v:
            best_v = v
            choice = c
    return choice


def _winner_index(trick: Buf, m: int, k: int) -> int:
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
    trump = TRUMP[k % 3]
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
    """The score of the captured cards (:func:`.rules.score`, by population counts)."""
    out = 0
    for i in range(len(RANKS)):
        out += RANK_POINTS[i] * popcount(captured & RANKS[i])
    if not simple and captured & FACE_MASK:
        for sm in SETS:
            if captured & sm == sm:
                out += SET_BONUS
    return out


def playout(hands: Buf, stock: Buf, ns: int, trick: Buf, nt: int,
            leader: int, k: int, captured: Buf, n: int, total: int, first: int) -> None:
    """Play a world (``hands``, ``stock[:ns]`` with the top card last, the current trick
    ``trick[:nt]`` led by ``leader``, trick number ``k``, ``captured`` cards) to the end of
    trick ``total`` with :func:`_policy` for every seat, after playing ``first`` when it is
    a card. ``hands``, ``stock`` and ``captured`` are changed in place (``captured`` holds
    the captures at the end)."""
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
        pts += POINTS[trick[i]]
        if trick[i] == SPADE_THREE:
            three_at = i
    pos = nt
    bi = _winner_index(trick, nt, k) if nt else 0
    best = trick[bi] if nt else -1
    lead = -1 if nt == 0 or trick[0] == JOKER else trick[0] // 13
    trump = TRUMP[k % 3]
    trump_mask = SUIT[trump]
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
            elif lead >= 0 and hand & SUIT[lead]:
                legal = hand & (SUIT[lead] | JOKER_BIT)
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
            if tm & SPADE_THREE_BIT:  # W1: the ♠3 played before takes the Joker
                bi, best = three_at, SPADE_THREE
            else:
                bi, best = pos, c
        elif not tm & JOKER_BIT and _over(c, best, trump, lead):
            bi, best = pos, c
        tm |= bit
        pts += POINTS[c]
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
        trump = TRUMP[k % 3]
        trump_mask = SUIT[trump]


def margin(captured: Buf, seat: int, n: int, simple: int) -> float:
    """``seat``'s final score minus the mean score of the other seats."""
    mine = 0
    tot = 0
    for p in range(n):
        s = fast_score(captured[p], simple)
        tot += s
        if p == seat:
            mine = s
    return mine - (tot - mine) / (n - 1)


def playout_values(hands: Buf, stocks: Buf, orders: int, trick: Buf, leader: int, k: int,
                   captured: Buf, cards: Buf, seat: int, n: int, total: int, simple: int,
                   seed: int, work: Buf, out: Buf) -> None:
    """``seat``'s margin after each of ``cards`` and a heuristic play-out, in every world
    (``hands[w]``, ``stocks[w]`` with the top card last) and, when ``orders`` > 1, in
    ``orders - 1`` more stock orders per world, each reshuffling the last (:func:`shuffle`
    on the SplitMix64 stream seeded with ``seed``), into ``out``: one row per world and
    order, in that order; one column per card. ``work`` is scratch of :data:`WORK_ROWS`
    rows as long as the stock (at least ``n`` and 2)."""
    nt = len(trick)
    h = work[0]
    cap = work[1]
    st = work[2]
    order = work[3]
    state = work[4]
    seed_state(seed, state)
    row = 0
    for w in range(len(hands)):
        stock = stocks[w]
        ns = len(stock)
        for x in range(ns):
            order[x] = stock[x]
        for j in range(orders):
            if j:
                shuffle(order, ns, state)
            line = out[row]
            for i in range(len(cards)):
                for p in range(n):
                    h[p] = hands[w][p]
                    cap[p] = captured[p]
                for x in range(ns):
                    st[x] = order[x]
                playout(h, st, ns, trick, nt, leader, k, cap, n, total, cards[i])
                line[i] = margin(cap, seat, n, simple)
            row += 1


def _legal(hand: int, trick: Buf, m: int, k: int) -> int:
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
        trumps = int(hand & SUIT[TRUMP[k % 3]])
        if trumps:
            return trumps
    if trick[0] != JOKER:
        follow = int(hand & SUIT[trick[0] // 13])
        if follow:
            return follow | (hand & JOKER_BIT)
    return hand


def _distinct(legal: int, plain: int, live: int) -> int:
    """``legal`` without the cards interchangeable with a lower one: a card of ``plain``
    (the mover's legal plain cards, :data:`PLAIN`) whose next lower card of its suit in
    ``live`` (the cards in the hands and the trick) is also one of ``plain``.

    Such cards differ only by rank, and no card another player could play beside either
    (nor any card of the mover's) ranks between them: following suit, trumps and the
    first lead look at suits only, the Joker, ♠3 and ♠A rules name those cards only, every
    trick compares either card with the same cards the same way, and neither scores. So
    swapping the two maps the rest of the game onto itself, with the order in which every
    hand's cards are tried unchanged, and gives the same values; the lower card, tried
    first, keeps the tie rule's choice."""
    out = legal
    rest = plain
    while rest:
        bit = rest & -rest
        rest ^= bit
        below = SUIT[low_card(bit) // 13] & (bit - 1)
        if plain & below > live & ~plain & below:
            out ^= bit
    return out


def lowest_equivalent(c: int, plain: int, live: int) -> int:
    """The lowest card of ``plain`` that ``c`` is interchangeable with (see
    :func:`_distinct`; ``c`` itself when none)."""
    while plain >> c & 1:
        below = live & SUIT[c // 13] & ((1 << c) - 1)
        if below == 0 or not plain >> (bit_length(below) - 1) & 1:
            break
        c = bit_length(below) - 1
    return c


def _margins(finals: Buf, r: int, n: int, simple: int, scratch: Buf) -> None:
    """Every seat's final margin into ``scratch[r]`` from the seats' captured cards at
    the game's end, ``finals[r]`` (own score minus the others' mean)."""
    isum = 0.0
    for i in range(n):
        scratch[r][i] = fast_score(finals[r][i], simple)
        isum += scratch[r][i]
    for i in range(n):
        scratch[r][i] = scratch[r][i] - (isum - scratch[r][i]) / (n - 1)


def _last_trick(hands: Buf, tricks: Buf, captured: Buf, leader: int, k: int,
                n: int, simple: int, scratch: Buf, finals: Buf, r: int) -> None:
    """The last trick, ``k``, led by ``leader``, played out (every hand holds one card, so
    every card is forced): the final captures into ``finals[r]``, margins into
    ``scratch[r]``."""
    tm = 0
    for i in range(n):
        tricks[k][i] = low_card(hands[(leader + i) % n])
        tm |= hands[(leader + i) % n]
    w = (leader + _winner_index(tricks[k], n, k)) % n
    for i in range(n):
        finals[r][i] = captured[i] | tm if i == w else captured[i]
    _margins(finals, r, n, simple, scratch)


def _open_sets(hands: Buf, n: int, simple: int) -> int:
    """The pictures of the suits with a picture still in a hand (none with simple
    scoring): only their captured pictures can change a set bonus still to come, so only
    they are part of a trick start's key in the table."""
    if simple:
        return 0
    live = 0
    for i in range(n):
        live |= hands[i]
    out = 0
    for sm in SETS:
        if live & sm:
            out |= sm
    return out


def _tt_slot(hands: Buf, captured: Buf, leader: int, n: int, sets: int,
             size: int) -> int:
    """The slot of a trick's start in a table of ``size`` (a power of two) slots."""
    h = leader
    for i in range(n):
        h = (h * 8191 + hands[i]) % TT_PRIME
        h = (h * 8191 + (captured[i] & sets)) % TT_PRIME
    return h & (size - 1)


def _tt_holds(hands: Buf, captured: Buf, leader: int, n: int, sets: int,
              tt_key: Buf, slot: int) -> bool:
    """Does ``slot`` hold this trick's start?"""
    if tt_key[slot][0] == 0 or tt_key[slot][1] != leader:
        return False
    for i in range(n):
        if tt_key[slot][2 + i] != hands[i] or tt_key[slot][2 + n + i] != captured[i] & sets:
            return False
    return True


def _trick_done(hands: Buf, tricks: Buf, fr: Buf, sp: int, captured: Buf,
                n: int, total: int, simple: int, scratch: Buf, finals: Buf,
                tt_key: Buf, tt_val: Buf) -> bool:
    """After the frame's card completed its trick: the winner captures it; when the
    values after it are known (the game's end, the last trick, or a trick start found in
    the table) they go into the child's row ``sp + 1`` (True), else the next trick's
    frame is opened at ``sp + 1`` (False)."""
    k = fr[sp][2]
    w = (fr[sp][1] + _winner_index(tricks[k], n, k)) % n
    fr[sp][6] = w
    fr[sp][7] = captured[w]
    for i in range(n):
        captured[w] |= 1 << tricks[k][i]
    if k >= total:
        for i in range(n):
            finals[sp + 1][i] = captured[i]
        _margins(finals, sp + 1, n, simple, scratch)
        return True
    if k + 1 == total:
        _last_trick(hands, tricks, captured, w, k + 1, n, simple, scratch, finals, sp + 1)
        return True
    sets = _open_sets(hands, n, simple)
    slot = _tt_slot(hands, captured, w, n, sets, len(tt_key))
    if _tt_holds(hands, captured, w, n, sets, tt_key, slot):
        for i in range(n):
            finals[sp + 1][i] = captured[i] | tt_val[slot][i]
        _margins(finals, sp + 1, n, simple, scratch)
        return True
    _frame(hands, tricks, fr, sp + 1, 0, w, k + 1, n)
    fr[sp + 1][9] = slot
    fr[sp + 1][10] = sets  # the key's picture mask, for storing the outcome
    return False


def _frame(hands: Buf, tricks: Buf, fr: Buf, sp: int, m: int, leader: int,
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
            live |= 1 << tricks[k][i]
        legal = _distinct(legal, plain, live)
    fr[sp][0] = m
    fr[sp][1] = leader
    fr[sp][2] = k
    fr[sp][3] = q
    fr[sp][4] = legal
    fr[sp][5] = 0  # no card tried yet
    fr[sp][6] = -1  # winner of the trick the last card completed
    fr[sp][9] = -1  # table slot for the values of this trick's start (none)


def _undo(hands: Buf, fr: Buf, sp: int, captured: Buf) -> None:
    """Take back the frame's last card (and the capture of the trick it completed)."""
    if fr[sp][6] >= 0:
        captured[fr[sp][6]] = fr[sp][7]
        fr[sp][6] = -1
    hands[fr[sp][3]] |= 1 << fr[sp][8]


def _take(fr: Buf, sp: int, scratch: Buf, finals: Buf, n: int) -> None:
    """The child's values and final captures (row ``sp + 1``) replace the frame's best
    when better for its mover (first card kept on ties, within 1e-9)."""
    q = fr[sp][3]
    if fr[sp][5] == 1 or scratch[sp + 1][q] > scratch[sp][q] + 1e-9:
        for i in range(n):
            scratch[sp][i] = scratch[sp + 1][i]
            finals[sp][i] = finals[sp + 1][i]


def end_values(hands: Buf, tricks: Buf, m: int, leader: int, k: int,
               captured: Buf, n: int, total: int, simple: int, c: int,
               fr: Buf, scratch: Buf, finals: Buf, tt_key: Buf,
               tt_val: Buf) -> int:
    """Every seat's max-n margin after card ``c`` is played to trick ``k`` (``m`` cards
    already in ``tricks[k]``), into ``scratch[0]``: every player maximizes his own margin
    (the max-n rule; with two players plain minimax), ties going to the first card tried
    (within 1e-9), searched with an explicit stack (frame ``i`` in ``fr[i]``, its best values in
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
    fr[0][0] = m
    fr[0][1] = leader
    fr[0][2] = k
    fr[0][3] = (leader + m) % n
    fr[0][4] = 1 << c
    fr[0][5] = 0
    fr[0][6] = -1
    fr[0][9] = -1
    sp = 0
    tried = 0
    while True:
        legal = fr[sp][4]
        if legal == 0:
            # the frame is done: its best values go to the table and to the parent
            slot = fr[sp][9]
            if slot >= 0:
                sets = fr[sp][10]  # the hands are back as they were at the trick's start
                tt_key[slot][0] = 1
                tt_key[slot][1] = fr[sp][1]
                for i in range(n):
                    tt_key[slot][2 + i] = hands[i]
                    tt_key[slot][2 + n + i] = captured[i] & sets
                    tt_val[slot][i] = finals[sp][i] & ~captured[i]
            if sp == 0:
                return tried
            sp -= 1
            _undo(hands, fr, sp, captured)
            _take(fr, sp, scratch, finals, n)
            continue
        bit = legal & -legal
        fr[sp][4] = legal ^ bit
        fr[sp][5] += 1
        tried += 1
        c = low_card(bit)
        fr[sp][8] = c
        q = fr[sp][3]
        hands[q] &= ~bit
        mm = fr[sp][0]
        kk = fr[sp][2]
        tricks[kk][mm] = c
        if mm + 1 < n:
            _frame(hands, tricks, fr, sp + 1, mm + 1, fr[sp][1], kk, n)
            sp += 1
            continue
        if _trick_done(hands, tricks, fr, sp, captured, n, total, simple, scratch, finals,
                       tt_key, tt_val):
            _undo(hands, fr, sp, captured)
            _take(fr, sp, scratch, finals, n)
            continue
        sp += 1


def end_rows(hands: Buf, trick: Buf, n: int) -> int:
    """Rows of the stack buffers (``fr``, ``scratch``, ``finals``) of :func:`solve_end`:
    one per card still to be played, and two more."""
    left = len(trick)
    for p in range(n):
        left += popcount(hands[p])
    return left + 2


def end_table_size(hands: Buf, trick: Buf, n: int) -> int:
    """Slots of the table of trick starts of :func:`solve_end` (a power of two, at most
    ``2**TT_BITS``: small ends need few)."""
    left = end_rows(hands, trick, n) - 2
    return 1 << min(TT_BITS, max(0, left - 2 * n) + 3)


def solve_end(hands: Buf, trick: Buf, leader: int, k: int, captured: Buf, cards: Buf,
              seat: int, n: int, total: int, simple: int, tricks: Buf, fr: Buf,
              scratch: Buf, finals: Buf, tt_key: Buf, tt_val: Buf, out: Buf) -> None:
    """``seat``'s exact max-n margin after each of ``cards`` (legal for the seat to play;
    the stock empty) into ``out``; a card interchangeable with an earlier one of ``cards``
    (:func:`lowest_equivalent`) gets its values. ``hands`` and ``captured`` are searched in
    place and restored. Buffers: ``tricks`` (``total + 2`` rows of ``n``), ``fr``
    (:func:`end_rows` rows of 11), ``scratch`` (floats) and ``finals`` (:func:`end_rows`
    rows of ``n``), and the table ``tt_key`` (:func:`end_table_size` rows of
    ``2 n + 2``, emptied here) and ``tt_val`` (as many rows of ``n``)."""
    m = len(trick)
    live = 0
    for i in range(m):
        tricks[k][i] = trick[i]
        live |= 1 << trick[i]
    for p in range(n):
        live |= hands[p]
    for i in range(len(tt_key)):
        tt_key[i][0] = 0
    plain = _legal(hands[seat], tricks[k], m, k) & PLAIN
    for i in range(len(cards)):
        b = lowest_equivalent(cards[i], plain, live)
        j = 0
        while j < i and lowest_equivalent(cards[j], plain, live) != b:
            j += 1
        if j < i:
            out[i] = out[j]
            continue
        end_values(hands, tricks, m, leader, k, captured, n, total, simple, cards[i], fr,
                   scratch, finals, tt_key, tt_val)
        out[i] = scratch[0][seat]


I64 = "int64"
A1 = "int64[::1]"
A2 = "int64[:, ::1]"
F2 = "float64[:, ::1]"
KERNELS = kernels("efudatori", __name__, {
    "playout_values": f"void({A2}, {A2}, {I64}, {A1}, {I64}, {I64}, {A1}, {A1}, "
                      f"{', '.join([I64] * 5)}, {A2}, {F2})",
    "playout": f"void({A1}, {A1}, {I64}, {A1}, {I64}, {I64}, {I64}, {A1}, {I64}, {I64}, "
               f"{I64})",
    "solve_end": f"void({A1}, {A1}, {I64}, {I64}, {A1}, {A1}, {I64}, {I64}, {I64}, {I64}, "
                 f"{A2}, {A2}, {F2}, {A2}, {A2}, {A2}, float64[::1])",
    "splitmix_next": f"UniTuple({I64}, 2)({A1})",
    "shuffle": f"void({A1}, {I64}, {A1})",
})
"""The compiled entry points (or their Python forms, see :mod:`cardplaza.ai.compiled`)."""

__all__ = ["KERNELS", "WORK_ROWS"]
