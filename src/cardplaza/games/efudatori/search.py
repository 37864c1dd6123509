"""Fast play-outs on raw bitmasks for the E-fuda-tori search levels.

A world is the tuple of plain ints and lists that the search needs (hands, stock, trick,
leader, trick number, captured cards); :func:`playout` finishes it with
:func:`policy_card`, a bitmask port of the level-2 heuristic: every seat plays as that
heuristic would if the cards it cannot see were the cards still in play.
"""

from __future__ import annotations

from cardplaza.games.efudatori import rules
from cardplaza.games.efudatori.rules import (
    FACE_MASK,
    FACE_POINTS,
    FIRST_LEAD_OK,
    JOKER,
    JOKER_BIT,
    SET_BONUS,
    SET_MASKS,
    SPADE_ACE,
    SPADE_ACE_BIT,
    SPADE_THREE,
    SPADE_THREE_BIT,
    SUIT_MASK,
)
from cardplaza.games.efudatori.state import EfudatoriState

POINTS = tuple(0 if c == JOKER else FACE_POINTS.get(c % 13, 0) for c in range(53))
"""Face points of each card id."""
HIGHER = tuple((SUIT_MASK[c // 13] & ~((2 << c) - 1)) if c < JOKER else 0 for c in range(53))
"""Cards of the same suit ranked above each card."""
TRUMP = tuple(rules.trump_of(k) for k in (3, 1, 2))
"""Trump suit by trick number modulo 3."""
PLAIN = ((1 << JOKER) - 1) & ~FACE_MASK & ~SPADE_ACE_BIT & ~SPADE_THREE_BIT
"""Cards that neither score nor have a rule of their own (not a picture, the Joker, the
♠A or the ♠3): such a card acts only through its suit and its rank."""


def _keep_table(k: int) -> tuple[float, ...]:
    """Value of keeping each ordinary card for the tricks after trick ``k``."""
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

World = tuple[list[int], list[int], list[int], int, int, list[int]]
"""(hands, stock with the top card last, trick cards so far, leader, trick number,
captured masks)."""


def world_of(state: EfudatoriState) -> World:
    """The raw lists of a (sampled) state; copies, so play-outs never touch it."""
    return (list(state.hands), list(state.stock), list(state.trick), state.leader,
            state.trick_number, list(state.captured))


def policy_card(hand: int, legal: int, trick: list[int], k: int, n: int, live: int,
                captured: int) -> int:
    """The heuristic's card: the best estimated value of this trick (chance that a later
    card beats it, points in the trick, a K-Q-J set completed) minus the value of keeping
    the card for later tricks. ``live`` = every card not yet played (hands and stock)."""
    tm = pts = 0
    for x in trick:
        tm |= 1 << x
        pts += POINTS[x]
    best = trick[rules.trick_winner_index(trick, k)] if trick else -1
    lead = -1 if not trick or trick[0] == JOKER else trick[0] // 13
    return _policy(hand, legal, len(trick), k, n, live, captured, tm, pts, best, lead)


def _policy(hand: int, legal: int, pos: int, k: int, n: int, live: int, captured: int,
            tm: int, pts: int, best: int, lead: int) -> int:
    """:func:`policy_card` on a summary of the trick so far: its cards ``tm``, their
    points, the card winning it now and the led suit (-1 if none)."""
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    later = n - 1 - pos
    out = live & ~hand
    trump = TRUMP[k % 3]
    q = 0.0
    if later:
        q = min(1.0, later * hand.bit_count() / max(out.bit_count(), 1))
    miss = 1.0 - q
    joker_in = tm & JOKER_BIT
    keep = KEEP[k % 3]
    best_v = -1e18
    choice = -1
    m = legal
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        pc = POINTS[c]
        if pos:
            if c == SPADE_THREE:
                wins = bool(joker_in) or _over(c, best, trump, lead)
            elif c == JOKER:
                wins = not tm & SPADE_THREE_BIT
            else:
                wins = not joker_in and _over(c, best, trump, lead)
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
                    beat = JOKER_BIT | SPADE_ACE_BIT | SUIT_MASK[trump] | HIGHER[c]
                p_beat = 1.0 - miss ** (beat & out).bit_count()
            else:
                p_beat = 0.0
            gain = pts + pc + 3.0 * later
            got = captured | tm | low
            if got & FACE_MASK != captured & FACE_MASK:
                for sm in SET_MASKS:
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
            v -= keep[c]
        if v > best_v:
            best_v = v
            choice = c
    return choice


def _over(c: int, best: int, trump: int, lead: int) -> bool:
    """Does ``c`` beat ``best`` (no Joker in the trick)?"""
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


def playout(world: World, n: int, total: int, first: int = -1) -> list[int]:
    """Play ``world`` (modified in place) to the end with :func:`policy_card`, after playing
    ``first`` when it is a card; the captured masks at the end."""
    hands, stock, trick, leader, k, captured = world
    live = 0
    for h in hands:
        live |= h
    for x in stock:
        live |= 1 << x
    tm = pts = 0
    for x in trick:
        tm |= 1 << x
        pts += POINTS[x]
    pos = len(trick)
    bi = rules.trick_winner_index(trick, k) if trick else 0
    best = trick[bi] if trick else -1
    lead = -1 if not trick or trick[0] == JOKER else trick[0] // 13
    three_at = trick.index(SPADE_THREE) if tm & SPADE_THREE_BIT else -1
    trump_mask = SUIT_MASK[TRUMP[k % 3]]
    trump = TRUMP[k % 3]
    while True:
        p = (leader + pos) % n
        hand = hands[p]
        if first >= 0:
            c = first
            first = -1
        else:
            # rules.legal_mask on the trick summary (F1-F4, first lead E-9)
            if not pos:
                legal = (hand & FIRST_LEAD_OK or hand) if k == 1 else hand
            elif tm & SPADE_THREE_BIT and hand & JOKER_BIT:
                legal = JOKER_BIT
            elif tm & JOKER_BIT and hand & trump_mask:
                legal = hand & trump_mask
            elif lead >= 0 and hand & SUIT_MASK[lead]:
                legal = hand & (SUIT_MASK[lead] | JOKER_BIT)
            else:
                legal = hand
            if legal & (legal - 1):
                c = _policy(hand, legal, pos, k, n, live, captured[p], tm, pts, best, lead)
            else:
                c = legal.bit_length() - 1
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
        tm = pts = pos = 0
        if stock:
            for i in range(n):
                hands[(w + i) % n] |= 1 << stock.pop()
        if k >= total:
            trick.clear()
            return captured
        leader = w
        k += 1
        trump = TRUMP[k % 3]
        trump_mask = SUIT_MASK[trump]


RANK_MASKS = tuple((pts, sum(1 << (13 * s + r) for s in range(4)))
                   for r, pts in FACE_POINTS.items())
"""(points, mask of the four cards) for the J, the Q and the K."""


def fast_score(captured: int, simple: bool) -> int:
    """:func:`rules.score` by population counts."""
    out = 0
    for pts, mask in RANK_MASKS:
        out += pts * (captured & mask).bit_count()
    if not simple and captured & FACE_MASK:
        for sm in SET_MASKS:
            if captured & sm == sm:
                out += SET_BONUS
    return out


def margin_of(captured: list[int], seat: int, simple: bool) -> float:
    """``seat``'s final score minus the mean score of the other seats."""
    scores = [fast_score(m, simple) for m in captured]
    total = sum(scores)
    n = len(scores)
    return scores[seat] - (total - scores[seat]) / (n - 1)


_M64 = (1 << 64) - 1


class SplitMix64:
    """A small 64-bit random generator (SplitMix64), implemented identically in the
    compiled kernels (:func:`.kernels.splitmix_next`), so both draw the same stream."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _M64

    def next(self) -> int:
        """The next 64-bit output."""
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _M64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        return z ^ (z >> 31)


def shuffle_stock(stock: list[int], rng: SplitMix64) -> None:
    """Shuffle ``stock`` in place (Fisher-Yates from the top of the list down)."""
    for i in range(len(stock) - 1, 0, -1):
        j = rng.next() % (i + 1)
        stock[i], stock[j] = stock[j], stock[i]


def playout_values(hands: list[list[int]], stocks: list[list[int]], orders: int,
                   trick: list[int], leader: int, k: int, captured: list[int],
                   cards: list[int], seat: int, n: int, total: int, simple: bool,
                   seed: int) -> list[list[float]]:
    """``seat``'s margin after each of ``cards`` and a :func:`playout`, in every world
    (``hands[w]``, ``stocks[w]``) and, with ``orders`` > 1, in ``orders - 1`` more stock
    orders per world, each reshuffling the last (:func:`shuffle_stock` on one
    :class:`SplitMix64` stream from ``seed``): one row per world and order, one value per
    card. The reference of :func:`.kernels.playout_values`."""
    rng = SplitMix64(seed)
    out: list[list[float]] = []
    for w, hand in enumerate(hands):
        order = list(stocks[w])
        for j in range(orders):
            if j:
                shuffle_stock(order, rng)
            out.append([margin_of(playout((list(hand), list(order), list(trick), leader, k,
                                           list(captured)), n, total, c), seat, simple)
                        for c in cards])
    return out


__all__ = ["KEEP", "POINTS", "SplitMix64", "World", "fast_score", "margin_of", "playout",
           "playout_values", "policy_card", "shuffle_stock", "world_of"]
