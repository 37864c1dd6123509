"""Compiled search kernels of both Pinochle variants (plain Python, compiled by numba).

Every function here is written in the subset :mod:`cardplaza.ai.compiled` compiles: int
card masks (48 bits), loops, and arrays or lists of ints passed in by the caller (the
kernels allocate nothing). Run as Python, they are the reference implementation; the
tests check that both forms give identical results, and that :func:`play_out` matches
:func:`cardplaza.games.pinochle4.fast.play_out` card for card.

* :func:`play_out` — the rest of a hand with the normal level's card play (the policy of
  :mod:`fast`): counters won per seat and the last trick's winner.
* :func:`end_points` — every hand known: the counters a side takes from the current trick
  to the end under best play by both sides (four-hand: the partnerships; three-hand: the
  bid winner against both opponents; alpha-beta over the legal cards, trick starts kept
  in a table); :func:`exact_points` puts it in :func:`play_out`'s form.
* :func:`card_values` — every candidate card played out in every given world (the strong
  level's worlds come from the Python dealer, so its decisions are unchanged).
* :func:`search_cards` — the card search of the strong and expert levels: worlds dealt
  inside the kernel exactly as :class:`world.Dealer` deals them (voids, melds shown, the
  auction), then every candidate played out (or its ending solved) in every world.
* :func:`bid_totals` — the partnership bidding simulation (the expert's bids and the bid
  helper): per sampled deal and trump suit, partner's pass, the bidder's return, both
  melds and the played-out trick points.
* :func:`bidding_deals` — the bidding simulation's sampled deals, exactly as the Python
  sampler (:meth:`players.ExpertPlayer._bidding_deal`) deals them.
* :func:`deal_worlds` — worlds dealt as :class:`world.Dealer` deals them (the cut-throat
  trump-and-bury search).
* :func:`bury_values` — cut-throat: every (trump, buried cards) plan played out.

Random numbers come from Python's own generator run inside the kernel
(:mod:`cardplaza.ai.kernel_bits`): a search draws exactly the numbers its pure-Python form
drew from the player's ``random.Random``, so moving it into a kernel kept its decisions.
"""

from __future__ import annotations

from typing import Any

from cardplaza.ai.compiled import kernels
from cardplaza.ai.kernel_bits import low, mt_below, mt_shuffle, popcount
from cardplaza.games.pinochle4.fast import BEAT, CHEAP, SIDE_ACES, SMEAR
from cardplaza.games.pinochle4.meld import PLAIN_SEQ, TRUMP_SEQ_OFF, TRUMP_SEQ_ON
from cardplaza.games.pinochle4.rules import ABOVE, RANK_MASK, SUIT_MASK

Buf = Any
"""An int64 array (compiled) or a list of ints (Python) the caller provides."""

M24 = (1 << 24) - 1

SUITS = SUIT_MASK
RANKS = RANK_MASK
ABOVE_T = ABOVE
CHEAP_T = CHEAP
SMEAR_T = SMEAR
BEAT_T = BEAT
ACES_T = SIDE_ACES
SUIT_T = tuple(c % 24 // 6 for c in range(48))
RANK_T = tuple(c % 6 for c in range(48))
TRUMP_SEQ = (TRUMP_SEQ_OFF, TRUMP_SEQ_ON)
PLAIN_T = PLAIN_SEQ
AROUND_MASK = tuple(sum(1 << (s * 6 + r) for s in range(4)) for r in (5, 3, 2, 1))
AROUND_VALUE = (100, 80, 60, 40)
PIN_MASK = (1 << 2) | (1 << (2 * 6 + 1))  # Q♠ and J♦ faces
MELD_MISMATCH = 1_000_000
"""Stray key of a world whose hands do not meld as shown (worse than any auction miss)."""


# -- meld -----------------------------------------------------------------------------------

def meld_total(hand: int, trump: int, extra: int) -> int:
    """Maximum meld of ``hand`` with ``trump`` (as :func:`meld.meld_total`)."""
    lo = hand & M24
    hi = hand >> 24
    a = lo | hi
    b = lo & hi
    total = 0
    for s in range(4):
        i = ((a >> (6 * s)) & 63) << 6 | ((b >> (6 * s)) & 63)
        if s == trump:
            total += TRUMP_SEQ[extra][i]
        else:
            total += PLAIN_T[i]
    for k in range(4):
        m = AROUND_MASK[k]
        if b & m == m:
            total += 10 * AROUND_VALUE[k]
        elif a & m == m:
            total += AROUND_VALUE[k]
    if b & PIN_MASK == PIN_MASK:
        total += 300
    elif a & PIN_MASK == PIN_MASK:
        total += 40
    return total


def hand_limit(hand: int, allowance: int, extra: int, div: int) -> int:
    """The normal computer's highest bid with ``hand`` (as :func:`auction.hand_limit`)."""
    aces = popcount(hand & RANKS[5])
    best = 0
    for s in range(4):
        length = popcount(hand & SUITS[s])
        v = meld_total(hand, s, extra) + 10 * aces + allowance
        if length > 4:
            v += 10 * (length - 4)
        if v > best:
            best = v
    return best // div


# -- play-out -------------------------------------------------------------------------------

def _first(mask: int, groups: Buf, trump: int, count: int) -> int:
    """The lowest card of the first group of ``groups[trump]`` meeting ``mask``."""
    for g in range(count):
        x = mask & groups[trump][g]
        if x:
            return low(x)
    return -1


def beats(c: int, w: int, trump: int) -> bool:
    """True if card ``c`` beats the trick's winning card ``w`` (a higher card of its suit,
    or a trump on a plain card; the second of two identical cards never beats)."""
    cs = SUIT_T[c]
    ws = SUIT_T[w]
    higher: bool = (cs == ws and RANK_T[c] > RANK_T[w]) or (cs != ws and cs == trump)
    return higher


def winning_position(trick: Buf, ntrick: int, trump: int) -> int:
    """Position of the winning card among the first ``ntrick`` cards of ``trick``."""
    best = 0
    for i in range(1, ntrick):
        if beats(trick[i], trick[best], trump):
            best = i
    return best


def play_out(hands: Buf, trick: Buf, ntrick: int, leader: int, n: int, trump: int,
             relaxed_opt: int, values: Buf, pts: Buf) -> int:
    """Play the hand to its end (``hands`` is changed); counters won per seat in ``pts``;
    returns the winner of the last trick (-1 if no trick was completed)."""
    for p in range(n):
        pts[p] = 0
    tmask = SUITS[trump]
    aces = ACES_T[trump]
    four = n == 4
    seat = (leader + ntrick) % n
    last_winner = -1
    led = -1
    w = -1
    wseat = -1
    tpts = 0
    count = 0
    if ntrick:
        led = SUIT_T[trick[0]]
        wpos = winning_position(trick, ntrick, trump)
        w = trick[wpos]
        wseat = (leader + wpos) % n
        for i in range(ntrick):
            tpts += values[trick[i]]
        count = ntrick
        if count == n:
            pts[wseat] += tpts
            last_winner = wseat
            seat = wseat
            tpts = 0
            count = 0
    while True:
        hand = hands[seat]
        if count == 0:
            if not hand:
                break
            x = hand & aces
            c = low(x) if x else _first(hand, CHEAP_T, trump, 12)
            led = SUIT_T[c]
            w = c
            wseat = seat
        else:
            ws = SUIT_T[w]
            wr = RANK_T[w]
            legal = follow_mask(hand, led, w, trump, relaxed_opt)
            if four and ((wseat ^ seat) & 1) == 0:
                if count == 3:
                    c = _first(legal, SMEAR_T, trump, 4)
                else:
                    c = _first(legal, CHEAP_T, trump, 12)
            else:
                b = legal & ABOVE_T[trump][wr] if ws == trump else legal & (ABOVE_T[ws][wr] | tmask)
                c = _first(b, BEAT_T, trump, 12) if b else _first(legal, CHEAP_T, trump, 12)
            if beats(c, w, trump):
                w = c
                wseat = seat
        hands[seat] = hand ^ (1 << c)
        tpts += values[c]
        count += 1
        if count == n:
            pts[wseat] += tpts
            last_winner = wseat
            seat = wseat
            tpts = 0
            count = 0
        else:
            seat = seat + 1 if seat + 1 < n else 0
    return last_winner


# -- exact endings --------------------------------------------------------------------------

END_INF = 1 << 20
"""Beyond any trick-point total (the solver's open window)."""
END_TABLE_BITS = 15
END_TABLE_ROWS = 1 << END_TABLE_BITS
"""Rows of the ending solver's table: four hands (the fourth empty in the three-hand
game), seat to lead, lower and upper bound."""


def follow_mask(hand: int, led: int, w: int, trump: int, relaxed_opt: int) -> int:
    """The cards of ``hand`` that may be played to a trick led in suit ``led`` and won so
    far by card ``w`` (section 11.2/11.3; the rule of :func:`rules.legal_play_mask`)."""
    follow = hand & SUITS[led]
    suit = led if follow else trump  # follow suit, else trump, else anything
    legal = follow if follow else hand & SUITS[trump]
    if not legal:
        return hand
    if (relaxed_opt != 0 and led != trump) or SUIT_T[w] != suit:
        return legal  # no duty to beat: option O5, or the trick is won in another suit
    higher = legal & ABOVE_T[suit][RANK_T[w]]
    return higher if higher else legal


def _end_slot(hands: Buf, seat: int) -> int:
    """Table row of a trick start (masks stay below 2**48: no overflow either way)."""
    h: int = hands[0] ^ (hands[1] >> 5) ^ (hands[2] >> 11) ^ (hands[3] >> 17) ^ (seat << 40)
    h ^= h >> 15
    h ^= h >> 30
    return h & (END_TABLE_ROWS - 1)


# Columns of a frame of the ending solver's stack (one row per card played from the root).
F_SEAT, F_COUNT, F_LED, F_WIN, F_WSEAT, F_TPTS, F_LEFT = 0, 1, 2, 3, 4, 5, 6
F_ALPHA, F_BETA, F_A0, F_B0, F_BEST, F_MOVES, F_SLOT, F_GAIN, F_HAND = (
    7, 8, 9, 10, 11, 12, 13, 14, 15)
END_FRAME = 16
"""Columns of a frame; the stack has 49 rows (one per card still to be played, and the root)."""


def _end_hit(row: Buf, hands: Buf, seat: int) -> bool:
    """True if the table row holds this trick start."""
    hit: bool = row[4] == seat and row[0] == hands[0] and row[1] == hands[1] \
        and row[2] == hands[2] and row[3] == hands[3]
    return hit


def _frame(f: Buf, seat: int, count: int, led: int, w: int, wseat: int, tpts: int,
           left: int, alpha: int, beta: int) -> None:
    """Set up a stack frame: a node of the ending search before its first card."""
    f[F_SEAT] = seat
    f[F_COUNT] = count
    f[F_LED] = led
    f[F_WIN] = w
    f[F_WSEAT] = wseat
    f[F_TPTS] = tpts
    f[F_LEFT] = left
    f[F_ALPHA] = alpha
    f[F_BETA] = beta


def _end(hands: Buf, seat: int, count: int, led: int, w: int, wseat: int, tpts: int,
         left: int, n: int, maxers: int, trump: int, relaxed: int, values: Buf, bonus: int,
         table: Buf, stack: Buf) -> int:
    """Counters (and the last trick's bonus) that the seats of bit mask ``maxers`` take
    from here on, with those seats maximising and the others minimising: fail-soft
    alpha-beta on an explicit ``stack``, trick starts kept in ``table``. ``n`` seats,
    ``left`` = cards in the hands."""
    _frame(stack[0], seat, count, led, w, wseat, tpts, left, -END_INF, END_INF)
    d = 0
    ret = 0
    entering = True
    returning = False
    while True:
        if returning:  # the node at depth d is worth ``ret``: back to its parent
            if d == 0:
                return ret
            returning = False
            d -= 1
            f = stack[d]
            hands[f[F_SEAT]] = f[F_HAND]
            v = f[F_GAIN] + ret
            if (maxers >> f[F_SEAT]) & 1:
                if v > f[F_BEST]:
                    f[F_BEST] = v
                    if v > f[F_ALPHA]:
                        f[F_ALPHA] = v
            elif v < f[F_BEST]:
                f[F_BEST] = v
                if v < f[F_BETA]:
                    f[F_BETA] = v
        f = stack[d]
        seat = f[F_SEAT]
        if entering:
            entering = False
            if f[F_COUNT] == 0:
                if f[F_LEFT] == 0:
                    ret = 0
                    returning = True
                    continue
                slot = _end_slot(hands, seat)
                f[F_SLOT] = slot
                row = table[slot]
                if _end_hit(row, hands, seat):
                    if row[5] == row[6] or row[5] >= f[F_BETA]:
                        ret = row[5]
                        returning = True
                        continue
                    if row[6] <= f[F_ALPHA]:
                        ret = row[6]
                        returning = True
                        continue
                    if row[5] > f[F_ALPHA]:
                        f[F_ALPHA] = row[5]
                    if row[6] < f[F_BETA]:
                        f[F_BETA] = row[6]
            hand = hands[seat]
            f[F_HAND] = hand
            f[F_MOVES] = hand if f[F_COUNT] == 0 else follow_mask(
                hand, f[F_LED], f[F_WIN], trump, relaxed)
            f[F_BEST] = -END_INF if (maxers >> seat) & 1 else END_INF
            f[F_A0] = f[F_ALPHA]
            f[F_B0] = f[F_BETA]
        # The next card of this node, or its end.
        c = -1
        if f[F_ALPHA] < f[F_BETA]:
            m = f[F_MOVES]
            hand = f[F_HAND]
            while m:
                x = low(m)
                m &= m - 1
                if x >= 24 and (hand >> (x - 24)) & 1:
                    continue  # the other copy, legal too, was tried first
                c = x
                break
            f[F_MOVES] = m
        if c < 0:
            best: int = f[F_BEST]
            if f[F_COUNT] == 0:
                row = table[f[F_SLOT]]
                if not _end_hit(row, hands, seat):
                    for p in range(4):
                        row[p] = hands[p]
                    row[4] = seat
                    row[5] = -END_INF
                    row[6] = END_INF
                if best <= f[F_A0]:
                    if best < row[6]:
                        row[6] = best
                elif best >= f[F_B0]:
                    if best > row[5]:
                        row[5] = best
                else:
                    row[5] = best
                    row[6] = best
            ret = best
            returning = True
            continue
        count = f[F_COUNT]
        w = f[F_WIN]
        wseat = f[F_WSEAT]
        if count == 0:
            led = SUIT_T[c]
            w = c
            wseat = seat
        else:
            led = f[F_LED]
            if beats(c, w, trump):
                w = c
                wseat = seat
        hands[seat] = f[F_HAND] ^ (1 << c)
        pts = f[F_TPTS] + values[c]
        left = f[F_LEFT] - 1
        if count == n - 1:  # the trick is complete: its winner leads the next one
            if left == 0:
                pts += bonus
            g = pts if (maxers >> wseat) & 1 else 0
            _frame(stack[d + 1], wseat, 0, 0, 0, 0, 0, left, f[F_ALPHA] - g, f[F_BETA] - g)
        else:
            g = 0
            _frame(stack[d + 1], seat + 1 if seat < n - 1 else 0, count + 1, led, w, wseat,
                   pts, left, f[F_ALPHA], f[F_BETA])
        f[F_GAIN] = g
        d += 1
        entering = True


def end_points(hands: Buf, trick: Buf, ntrick: int, leader: int, n: int, maxers: int,
               trump: int, relaxed: int, values: Buf, bonus: int, table: Buf,
               stack: Buf) -> int:
    """Every hand known (``n`` seats; three: ``hands[3]`` empty): the counters (with the
    last trick's bonus) that the seats of bit mask ``maxers`` take from the current trick
    (``trick[:ntrick]``, led by ``leader``) to the end of the hand, under best play by
    them and by the others against them. ``table`` (``END_TABLE_ROWS`` rows of 7) keeps
    trick starts and may be reused while seats, trump, values and bonus stay the same;
    fill its column 4 with -1 to clear it. ``stack``: scratch, 49 rows of ``END_FRAME``."""
    left = popcount(hands[0]) + popcount(hands[1]) + popcount(hands[2]) + popcount(hands[3])
    if ntrick == 0:
        return _end(hands, leader, 0, 0, 0, 0, 0, left, n, maxers, trump, relaxed, values,
                    bonus, table, stack)
    wpos = winning_position(trick, ntrick, trump)
    w = trick[wpos]
    wseat = (leader + wpos) % n
    tpts = 0
    for i in range(ntrick):
        tpts += values[trick[i]]
    if ntrick == n:
        if left == 0:
            tpts += bonus
        g = tpts if (maxers >> wseat) & 1 else 0
        return g + _end(hands, wseat, 0, 0, 0, 0, 0, left, n, maxers, trump, relaxed,
                        values, bonus, table, stack)
    return _end(hands, (leader + ntrick) % n, ntrick, SUIT_T[trick[0]], w, wseat, tpts,
                left, n, maxers, trump, relaxed, values, bonus, table, stack)


def exact_points(hands: Buf, trick: Buf, ntrick: int, leader: int, n: int, bidder: int,
                 trump: int, relaxed: int, values: Buf, bonus: int, table: Buf, stack: Buf,
                 pts: Buf) -> int:
    """:func:`play_out`'s result with best play instead of the policy: the points from
    here on in ``pts``, the last trick's bonus included; returns -1, as no bonus is left
    to add. Four-hand: ``pts[0]`` and ``pts[1]`` for the two sides, the partners playing
    for their side. Three-hand: per seat, with the bid winner ``bidder`` against both
    opponents playing together; they share what they take, the odd point to the first
    after the bidder (their split is a convention: the solver plays for the bid)."""
    if n == 3:
        hands[3] = 0
    mine = end_points(hands, trick, ntrick, leader, n, 0b0101 if n == 4 else 1 << bidder,
                      trump, relaxed, values, bonus, table, stack)
    total = bonus
    for p in range(n):
        total += mask_points(hands[p], values)
    for i in range(ntrick):
        total += values[trick[i]]
    rest = total - mine
    pts[3] = 0
    if n == 4:
        pts[0] = mine
        pts[1] = rest
        pts[2] = 0
    else:
        first = bidder + 1 if bidder < 2 else 0
        pts[bidder] = mine
        pts[first] = rest - rest // 2
        pts[3 - bidder - first] = rest // 2
    return -1


def mask_points(mask: int, values: Buf) -> int:
    """Counter points of the cards of ``mask`` (``values`` per card)."""
    total = 0
    while mask:
        c = low(mask)
        total += values[c]
        mask &= mask - 1
    return total


def hand_value(pts: Buf, last: int, n: int, me: int, base: Buf, melds: Buf, contract: int,
               bside: int, bonus: int, discard_pts: int, side_pts: Buf) -> float:
    """``me``'s side result of a played hand: the score change of its side minus the mean
    of the others' (section 13, as :func:`fast.hand_delta`)."""
    sides = 2 if n == 4 else 3
    for s in range(sides):
        side_pts[s] = base[s]
    for p in range(n):
        side_pts[p % 2 if n == 4 else p] += pts[p]
    if last >= 0:
        side_pts[last % 2 if n == 4 else last] += bonus
    side_pts[bside] += discard_pts
    made = melds[bside] + side_pts[bside] >= contract
    mine = me % 2 if n == 4 else me
    total = 0
    mine_delta = 0
    for s in range(sides):
        if s == bside:
            d = melds[s] + side_pts[s] if made else -contract
        else:
            d = melds[s] + side_pts[s] if side_pts[s] > 0 else 0
        total += d
        if s == mine:
            mine_delta = d
    return mine_delta - (total - mine_delta) / (sides - 1)


def card_values(worlds: Buf, discards: Buf, cands: Buf, ncands: int, nworlds: int,
                me: int, trick: Buf, ntrick: int, leader: int, n: int, trump: int,
                relaxed: int, values: Buf, base: Buf, melds: Buf, contract: int, bside: int,
                bonus: int, known_discards: int, hands: Buf, pts: Buf, side_pts: Buf,
                totals: Buf) -> None:
    """Add to ``totals[i]`` the side result of candidate ``cands[i]`` in every world
    (``worlds[w]`` = every seat's hand, ``discards[w]`` = cut-throat discards)."""
    for w in range(nworlds):
        dpts = 0
        if n == 3:
            dpts = mask_points(known_discards if known_discards >= 0 else discards[w],
                               values)
        for i in range(ncands):
            c = cands[i]
            for p in range(n):
                hands[p] = worlds[w][p]
            hands[me] ^= 1 << c
            trick[ntrick] = c
            last = play_out(hands, trick, ntrick + 1, leader, n, trump, relaxed, values, pts)
            totals[i] += hand_value(pts, last, n, me, base, melds, contract, bside, bonus,
                                    dpts, side_pts)


def _once(mt: Buf, n: int, fixed: Buf, left0: Buf, places: Buf, nplaces: int,
          ccards: Buf, callowed: Buf, ncons: int, fcards: Buf, nfree: int, out: Buf,
          left: Buf, order: Buf, free: Buf) -> int:
    """One placement of the hidden cards, exactly :meth:`world.Dealer._once`: the
    constrained cards shuffled, then (stably) fewest allowed places first, each to a place
    drawn in proportion to its free room; the rest by one shuffle. 1 on success, 0 when
    a card found no room."""
    for i in range(n + 3):
        left[i] = left0[i]
        out[i] = fixed[i]
    for k in range(ncons):
        order[k] = k
    mt_shuffle(mt, order, ncons)
    for k in range(1, ncons):  # stable insertion sort by the number of allowed places
        t = order[k]
        key = popcount(callowed[t])
        j = k - 1
        while j >= 0 and popcount(callowed[order[j]]) > key:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = t
    for k in range(ncons):
        t = order[k]
        a = callowed[t]
        room = 0
        for q in range(nplaces):
            i = places[q]
            if (a >> i) & 1 and left[i] > 0:
                room += left[i]
        if room == 0:
            return 0
        r = mt_below(mt, room)
        chosen = -1
        for q in range(nplaces):
            i = places[q]
            if (a >> i) & 1 and left[i] > 0:
                r -= left[i]
                if r < 0:
                    chosen = i
                    break
        left[chosen] -= 1
        out[chosen] |= 1 << ccards[t]
    for k in range(nfree):
        free[k] = fcards[k]
    mt_shuffle(mt, free, nfree)
    k = 0
    for q in range(nplaces):
        i = places[q]
        m = out[i]
        for _ in range(left[i]):
            m |= 1 << free[k]
            k += 1
        out[i] = m
    return 1


def _strays(out: Buf, n: int, trump: int, extra: int, div: int, check: Buf, ncheck: int,
            evidence: Buf, nevidence: int, widow_owner: int, allowance: int,
            slack: int) -> int:
    """How far a placement strays: :data:`MELD_MISMATCH` if a hand does not meld as shown,
    plus the bid units by which the hands stray from the auction (as
    :class:`world.AuctionCheck`)."""
    key = 0
    for k in range(ncheck):
        p = check[k][0]
        if meld_total(out[p] | check[k][1], trump, extra) // div != check[k][2]:
            key = MELD_MISMATCH
            break
    for k in range(nevidence):
        p = evidence[k][0]
        hand = out[p] | evidence[k][3]
        if p == widow_owner:
            hand |= out[n + 2]
        lim = hand_limit(hand & ~evidence[k][4], allowance, extra, div)
        made = evidence[k][1]
        declined = evidence[k][2]
        if made and lim + slack < made:
            key += made - lim - slack
        if declined and lim - slack >= declined:
            key += lim - slack - declined + 1
    return key


def deal_world(mt: Buf, tries: int, infer: int, n: int, me: int, own: int, fixed: Buf,
               left0: Buf, places: Buf, nplaces: int, ccards: Buf, callowed: Buf,
               ncons: int, fcards: Buf, nfree: int, trump: int, extra: int, div: int,
               check: Buf, ncheck: int, evidence: Buf, nevidence: int, widow_owner: int,
               allowance: int, slack: int, best: Buf, out: Buf, left: Buf, order: Buf,
               free: Buf) -> int:
    """A world in ``best`` (every place's cards, the own hand at ``me``), exactly
    :meth:`world.Dealer.deal` up to its fallback: with ``infer`` (bids inferred) the first
    of ``tries`` placements that melds as shown and fits the auction, else the one
    straying least; without, the last placement unless one melds as shown. 0 when every
    placement failed (the caller then uses the dealer's fallback)."""
    found = 0
    best_key = 0
    for _ in range(tries):
        if not _once(mt, n, fixed, left0, places, nplaces, ccards, callowed, ncons,
                     fcards, nfree, out, left, order, free):
            continue
        key = _strays(out, n, trump, extra, div, check, ncheck, evidence, nevidence,
                      widow_owner, allowance, slack)
        if not infer or not found or key < best_key:
            found = 1
            best_key = key
            for i in range(n + 3):
                best[i] = out[i]
            if key == 0:
                break
    best[me] = own
    return found


def search_cards(nworlds: int, tries: int, infer: int, cands: Buf, ncands: int, me: int,
                 trick: Buf, ntrick: int, leader: int, n: int, trump: int, relaxed: int,
                 values: Buf, base: Buf, melds: Buf, contract: int, bside: int, bonus: int,
                 known_discards: int, own: int, fixed: Buf, left0: Buf, places: Buf,
                 nplaces: int, ccards: Buf, callowed: Buf, ncons: int, fcards: Buf,
                 nfree: int, extra: int, div: int, check: Buf, ncheck: int, evidence: Buf,
                 nevidence: int, widow_owner: int, allowance: int, slack: int, mt: Buf,
                 work: Buf, totals: Buf, made: Buf, exact: int, table: Buf,
                 stack: Buf) -> int:
    """The card search: ``nworlds`` worlds dealt by :func:`deal_world` from the generator
    state ``mt``, every candidate card played out in each (with ``exact``: solved by
    :func:`exact_points` instead, ``table`` and ``stack`` its buffers); side
    results summed in ``totals``, worlds where the bidding side makes its contract counted
    in ``made``. Returns the worlds dealt: fewer when a world needs the dealer's
    fallback."""
    best = work[0]
    out = work[1]
    left = work[2]
    order = work[3]
    free = work[4]
    hands = work[5]
    pts = work[6]
    side_pts = work[7]
    for w in range(nworlds):
        if not deal_world(mt, tries, infer, n, me, own, fixed, left0, places, nplaces, ccards,
                          callowed, ncons, fcards, nfree, trump, extra, div, check, ncheck,
                          evidence, nevidence, widow_owner, allowance, slack, best, out,
                          left, order, free):
            return w
        dpts = 0
        if n == 3:
            dpts = mask_points(known_discards if known_discards >= 0 else best[n + 2],
                               values)
        for i in range(ncands):
            c = cands[i]
            for p in range(n):
                hands[p] = best[p]
            hands[me] ^= 1 << c
            trick[ntrick] = c
            if exact:
                last = exact_points(hands, trick, ntrick + 1, leader, n, bside, trump,
                                    relaxed, values, bonus, table, stack, pts)
            else:
                last = play_out(hands, trick, ntrick + 1, leader, n, trump, relaxed, values,
                                pts)
            totals[i] += hand_value(pts, last, n, me, base, melds, contract, bside, bonus,
                                    dpts, side_pts)
            if melds[bside] + side_pts[bside] >= contract:
                made[i] += 1
    return nworlds


def deal_worlds(nworlds: int, tries: int, infer: int, n: int, me: int, trump: int,
                own: int, fixed: Buf, left0: Buf, places: Buf, nplaces: int, ccards: Buf,
                callowed: Buf, ncons: int, fcards: Buf, nfree: int, extra: int, div: int,
                check: Buf, ncheck: int, evidence: Buf, nevidence: int, widow_owner: int,
                allowance: int, slack: int, mt: Buf, work: Buf, worlds: Buf) -> int:
    """``nworlds`` worlds dealt by :func:`deal_world` (every seat's hand in
    ``worlds[w]``), as many calls of :meth:`world.Dealer.deal` would deal them. Returns
    the worlds dealt: fewer when a world needs the dealer's fallback."""
    best = work[0]
    out = work[1]
    left = work[2]
    order = work[3]
    free = work[4]
    for w in range(nworlds):
        if not deal_world(mt, tries, infer, n, me, own, fixed, left0, places, nplaces, ccards,
                          callowed, ncons, fcards, nfree, trump, extra, div, check, ncheck,
                          evidence, nevidence, widow_owner, allowance, slack, best, out,
                          left, order, free):
            return w
        for p in range(n):
            worlds[w][p] = best[p]
    return nworlds


def assign(mt: Buf, cards: Buf, ncards: int, allowed: Buf, nplaces: int, cap: Buf,
           out: Buf, left: Buf, order: Buf, shuffled: Buf) -> int:
    """One placement of the hidden cards, exactly :func:`world._assign` without the play's
    inferences: the ``cards`` (in ``shuffled``, kept from one attempt to the next)
    shuffled, then (stably) fewest allowed places first, each to a place drawn in
    proportion to its free room (``allowed[card]``: a mask of places, ``cap``: their
    room); up to 60 attempts. 1 on success (``out``: every place's cards), 0 when no
    attempt placed every card."""
    for k in range(ncards):
        shuffled[k] = cards[k]
    for _attempt in range(60):
        mt_shuffle(mt, shuffled, ncards)
        for k in range(ncards):
            order[k] = shuffled[k]
        for k in range(1, ncards):  # stable insertion sort by the number of places
            t = order[k]
            key = popcount(allowed[t])
            j = k - 1
            while j >= 0 and popcount(allowed[order[j]]) > key:
                order[j + 1] = order[j]
                j -= 1
            order[j + 1] = t
        for i in range(nplaces):
            left[i] = cap[i]
            out[i] = 0
        ok = 1
        for k in range(ncards):
            c = order[k]
            a = allowed[c]
            room = 0
            for i in range(nplaces):
                if (a >> i) & 1 and left[i] > 0:
                    room += left[i]
            if room == 0:
                ok = 0
                break
            r = mt_below(mt, room)
            chosen = -1
            for i in range(nplaces):
                if (a >> i) & 1 and left[i] > 0:
                    r -= left[i]
                    if r < 0:
                        chosen = i
                        break
            left[chosen] -= 1
            out[chosen] |= 1 << c
        if ok:
            return 1
    return 0


def bidding_deals(nworlds: int, tries: int, n: int, me: int, own: int, cards: Buf,
                  ncards: int, allowed: Buf, cap: Buf, extra: int, div: int, evidence: Buf,
                  nevidence: int, allowance: int, slack: int, mt: Buf, work: Buf,
                  worlds: Buf) -> int:
    """The sampled deals of the bidding simulation, exactly as ``nworlds`` calls of
    :meth:`players.ExpertPlayer._bidding_deal`: each the first of ``tries`` placements
    (:func:`assign`) that fits the bids and passes so far, else the one straying least
    (one placement when the auction tells nothing); every seat's hand in ``worlds[w]``.
    Returns the deals made: fewer only when a placement failed."""
    best = work[0]
    out = work[1]
    left = work[2]
    order = work[3]
    shuffled = work[4]
    nplaces = n + 3
    for w in range(nworlds):
        found = 0
        best_key = 0
        for _ in range(tries if nevidence else 1):
            if not assign(mt, cards, ncards, allowed, nplaces, cap, out, left, order,
                          shuffled):
                return w
            key = _strays(out, n, 0, extra, div, evidence, 0, evidence, nevidence, -1,
                          allowance, slack)
            if not found or key < best_key:
                found = 1
                best_key = key
                for i in range(nplaces):
                    best[i] = out[i]
                if key == 0:
                    break
        for p in range(n):
            worlds[w][p] = best[p]
        worlds[w][me] = own
    return nworlds


def partner_pass_card(hand: int, trump: int) -> int:
    """Partner's pass: highest trump, then aces, then the highest card (as
    :func:`players._partner_pass_card`)."""
    t = hand & SUITS[trump]
    for k in range(2):
        m = t if k == 0 else hand & RANKS[5]
        if m:
            for r in range(5, -1, -1):
                x = m & RANKS[r]
                if x:
                    return low(x)
    best = -1
    best_key = -1
    m = hand
    while m:
        c = low(m)
        m &= m - 1
        key = RANK_T[c] * 64 + (63 - c)  # highest rank, then the lowest card
        if key > best_key:
            best = c
            best_key = key
    return best


def shed_card(hand: int, trump: int, extra: int, counters_first: int) -> int:
    """The card to give away: least meld lost, then non-trump, non-ace, then counters last
    (the bidder's return) or first (the cut-throat discard, whose counters count for the
    bid winner), lowest rank, lowest card (as :func:`players._shed_card`)."""
    full = meld_total(hand, trump, extra)
    best = -1
    best_key = 0
    m = hand
    while m:
        c = low(m)
        m &= m - 1
        loss = full - meld_total(hand ^ (1 << c), trump, extra)
        r = RANK_T[c]
        late = (r >= 3) != (counters_first != 0)
        key = (((((loss * 2 + (SUIT_T[c] == trump)) * 2 + (r == 5)) * 2 + late) * 8 + r)
               * 64 + c)
        if best < 0 or key < best_key:
            best = c
            best_key = key
    return best


def bid_totals3(worlds: Buf, nworlds: int, me: int, extra: int, div: int, relaxed: int,
                values: Buf, bonus: int, hands: Buf, trick: Buf, pts: Buf, out: Buf,
                parts: Buf) -> None:
    """The cut-throat bidding simulation (the expert's bidding and hints): per world (three
    hands of fifteen; the widow is the rest of the deck) and trump suit, ``me``'s total if
    it wins the bid: the widow taken, three cards buried by the discard rule, its meld, the
    counters buried and its played-out trick points (last trick included), in
    ``out[suit][w]``; its parts ``parts[0][suit][w]`` the kept meld and
    ``parts[1][suit][w]`` the rest (buried counters + trick points)."""
    deck = (1 << 48) - 1
    for w in range(nworlds):
        full = worlds[w][me] | (deck & ~(worlds[w][0] | worlds[w][1] | worlds[w][2]))
        for s in range(4):
            kept = full
            for _ in range(3):
                kept ^= 1 << shed_card(kept, s, extra, 1)
            for p in range(3):
                hands[p] = worlds[w][p]
            hands[me] = kept
            last = play_out(hands, trick, 0, me, 3, s, relaxed, values, pts)
            meld = meld_total(kept, s, extra) // div
            took = pts[me] + mask_points(full & ~kept, values)
            if last == me:
                took += bonus
            out[s][w] = meld + took
            parts[0][s][w] = meld
            parts[1][s][w] = took


def bid_totals(worlds: Buf, nworlds: int, me: int, npass: int, extra: int, div: int,
               relaxed: int, values: Buf, bonus: int, hands: Buf, trick: Buf, pts: Buf,
               out: Buf, parts: Buf) -> None:
    """The partnership bidding simulation (the expert's bidding and the bid helper): per
    world and trump suit, partner's pass and the return, the side's meld and played-out
    trick points if ``me`` plays the contract; ``out[suit][w]`` the total, and its parts
    ``parts[0][suit][w]`` own meld, ``parts[1][suit][w]`` partner's meld and
    ``parts[2][suit][w]`` the side's trick points (last trick included)."""
    partner = (me + 2) % 4
    for w in range(nworlds):
        for s in range(4):
            for p in range(4):
                hands[p] = worlds[w][p]
            if npass:
                give = 0
                ph = hands[partner]
                for _ in range(npass):
                    c = partner_pass_card(ph, s)
                    ph ^= 1 << c
                    give |= 1 << c
                hand = hands[me] | give
                back = 0
                for _ in range(npass):
                    c = shed_card(hand, s, extra, 0)
                    hand ^= 1 << c
                    back |= 1 << c
                hands[me] = hand
                hands[partner] = ph | back
            own = meld_total(hands[me], s, extra)
            theirs = meld_total(hands[partner], s, extra)
            last = play_out(hands, trick, 0, me, 4, s, relaxed, values, pts)
            mine = pts[me] + pts[partner]
            if last >= 0 and (last - me) % 2 == 0:  # the side won the last trick
                mine += bonus
            out[s][w] = (own + theirs) // div + mine
            parts[0][s][w] = own // div
            parts[1][s][w] = theirs // div
            parts[2][s][w] = mine


def bury_values(worlds: Buf, nworlds: int, alive: Buf, nalive: int, plan_suit: Buf,
                plan_gone: Buf, plan_meld: Buf, hand: int, me: int, relaxed: int,
                values: Buf, bonus: int, buried: int, contract: int, extra: int, div: int,
                hands: Buf, trick: Buf, pts: Buf, melds: Buf, base: Buf, side_pts: Buf,
                totals: Buf) -> None:
    """Cut-throat trump-and-bury plans played out (:meth:`players.ExpertPlayer.
    _bury_search`): per world, every alive plan (trump, buried cards, own meld) played
    from the bidder's lead; ``totals[plan]`` += the bidder's hand result."""
    for s in range(3):
        base[s] = 0
    for w in range(nworlds):
        for k in range(nalive):
            i = alive[k]
            suit = plan_suit[i]
            gone = plan_gone[i]
            for p in range(3):
                hands[p] = worlds[w][p]
                melds[p] = meld_total(hands[p], suit, extra) // div
            hands[me] = hand & ~gone
            melds[me] = plan_meld[i] // div
            last = play_out(hands, trick, 0, me, 3, suit, relaxed, values, pts)
            totals[i] += hand_value(pts, last, 3, me, base, melds, contract, me, bonus,
                                    buried + mask_points(gone, values), side_pts)


def play_out_many(worlds: Buf, nworlds: int, n: int, trumps: Buf, leaders: Buf,
                  relaxed: int, values: Buf, hands: Buf, trick: Buf, pts: Buf,
                  points: Buf) -> None:
    """Play out every world's hands from its first lead; ``points[w]`` = the counters
    the leader's side won (the benchmark's batch of full play-outs)."""
    for w in range(nworlds):
        for p in range(n):
            hands[p] = worlds[w][p]
        leader = leaders[w]
        last = play_out(hands, trick, 0, leader, n, trumps[w], relaxed, values, pts)
        total = 0
        for p in range(n):
            if (p - leader) % 2 == 0 if n == 4 else p == leader:
                total += pts[p]
        points[w] = total + (last >= 0)


WORK_ROWS = 8
"""Rows of the scratch array of :func:`search_cards` (each 48 long)."""

KERNELS = kernels("pinochle4", __name__, {
    "bidding_deals": "int64(int64, int64, int64, int64, int64, int64[::1], int64, int64[::1], "
                     "int64[::1], int64, int64, int64[:, ::1], int64, int64, int64, int64[::1], "
                     "int64[:, ::1], int64[:, ::1])",
    "deal_worlds": "int64(int64, int64, int64, int64, int64, int64, int64, int64[::1], "
                   "int64[::1], int64[::1], int64, int64[::1], int64[::1], int64, int64[::1], "
                   "int64, int64, int64, int64[:, ::1], int64, int64[:, ::1], int64, int64, "
                   "int64, int64, int64[::1], int64[:, ::1], int64[:, ::1])",
    "bid_totals": "void(int64[:, ::1], int64, int64, int64, int64, int64, int64, int64[::1], "
                  "int64, int64[::1], int64[::1], int64[::1], int64[:, ::1], int64[:, :, ::1])",
    "bid_totals3": "void(int64[:, ::1], int64, int64, int64, int64, int64, int64[::1], int64, "
                   "int64[::1], int64[::1], int64[::1], int64[:, ::1], int64[:, :, ::1])",
    "bury_values": "void(int64[:, ::1], int64, int64[::1], int64, int64[::1], int64[::1], "
                   "int64[::1], int64, int64, int64, int64[::1], int64, int64, int64, int64, "
                   "int64, int64[::1], int64[::1], int64[::1], int64[::1], int64[::1], "
                   "int64[::1], float64[::1])",
    "search_cards": "int64(int64, int64, int64, int64[::1], int64, int64, int64[::1], int64, "
                    "int64, int64, int64, int64, int64[::1], int64[::1], int64[::1], int64, "
                    "int64, int64, int64, int64, int64[::1], int64[::1], int64[::1], int64, "
                    "int64[::1], int64[::1], int64, int64[::1], int64, int64, int64, "
                    "int64[:, ::1], int64, int64[:, ::1], int64, int64, int64, int64, "
                    "int64[::1], int64[:, ::1], float64[::1], int64[::1], int64, "
                    "int64[:, ::1], int64[:, ::1])",
    "play_out_many": "void(int64[:, ::1], int64, int64, int64[::1], int64[::1], int64, "
                     "int64[::1], int64[::1], int64[::1], int64[::1], int64[::1])",
    "play_out": "int64(int64[::1], int64[::1], int64, int64, int64, int64, int64, "
                "int64[::1], int64[::1])",
    "exact_points": "int64(int64[::1], int64[::1], int64, int64, int64, int64, int64, "
                    "int64, int64[::1], int64, int64[:, ::1], int64[:, ::1], int64[::1])",
    "end_points": "int64(int64[::1], int64[::1], int64, int64, int64, int64, int64, int64, "
                  "int64[::1], int64, int64[:, ::1], int64[:, ::1])",
    "card_values": "void(int64[:, ::1], int64[::1], int64[::1], int64, int64, int64, "
                   "int64[::1], int64, int64, int64, int64, int64, int64[::1], int64[::1], "
                   "int64[::1], int64, int64, int64, int64, int64[::1], int64[::1], "
                   "int64[::1], float64[::1])",
})
"""The compiled entry points (or their Python forms, see :mod:`cardplaza.ai.compiled`)."""
