"""Exact playoff solver for two-hand Pinochle (tricks 13–24, both hands known).

Alpha-beta (negamax from the leader's side) driven by MTD(f) zero-window searches, with a
transposition table holding lower and upper bounds. Hands are
canonical masks over faces: bit ``f`` = at least one copy of face ``f``, bit ``f + 24`` =
both copies, so the two identical copies are one card for the search. Cards that are
*equivalent* — same suit, same point value, held by the same player, with no card of the
other player ranked between them — are tried only once. Values are exact points: the
counters (A, 10, K = 10) of the remaining tricks plus 10 for the last trick.

The hot loop works on precomputed per-suit move lists (merged faces for every pair of
six-face patterns), probes children's table entries inline, scores the last trick
without a call and uses an integer infinity. It visits exactly the nodes of the plain
search, in the same order, and writes the same table entries: level 5 plays the card
this solver returns, and among equally good cards that card depends on the search order
and on the table kept between decisions, so the order is part of the behaviour.

:func:`solve_playoff` works on a :class:`Pinochle2State`; :func:`playoff_value` on two
raw hands (the form used by the tests' brute-force comparison).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from operator import itemgetter

F24 = (1 << 24) - 1
_RANK = [f % 6 for f in range(24)]
_SUIT = [f // 6 for f in range(24)]
_PTS = [10 if f % 6 >= 3 else 0 for f in range(24)]
_SUIT_FACES = [((1 << 6) - 1) << (6 * s) for s in range(4)]


def canonical(hand: int) -> int:
    """Canonical face mask of a physical 48-card hand mask."""
    lo = hand & F24
    hi = hand >> 24
    return (lo | hi) | ((lo & hi) << 24)


def _remove(h: int, f: int) -> int:
    if (h >> (f + 24)) & 1:
        return h & ~(1 << (f + 24))
    return h & ~(1 << f)


def _beats(reply: int, lead: int, trump: int) -> bool:
    sr = _SUIT[reply]
    if sr == _SUIT[lead]:
        return _RANK[reply] > _RANK[lead]
    return sr == trump


def _classes(mine: int, other: int, faces: int) -> list[int]:
    """Representative faces of ``faces`` (subset of ``mine``'s faces), equivalents merged."""
    out: list[int] = []
    mine_f = mine & F24
    other_f = other & F24
    for s in range(4):
        sel = faces & _SUIT_FACES[s]
        if not sel:
            continue
        run_pts = -1
        base = 6 * s
        for r in range(5, -1, -1):
            f = base + r
            bit = 1 << f
            if mine_f & bit:
                p = _PTS[f]
                shared = other_f & bit
                if sel & bit:
                    if run_pts != p or shared:
                        out.append(f)
                    run_pts = -1 if shared else p
                else:
                    run_pts = -1
            elif other_f & bit:
                run_pts = -1
    return out


def _follow_faces(hand: int, lead: int, trump: int) -> int:
    faces = hand & F24
    same = faces & _SUIT_FACES[_SUIT[lead]]
    if same:
        # Faces of the led suit ranked above the lead (an identical card does not beat).
        higher = same & ~((1 << (lead + 1)) - 1)
        return higher or same
    trumps = faces & _SUIT_FACES[trump]
    return trumps or faces


# Infinite bound: exceeds any margin (at most 250) however far windows are shifted.
_INF = 1_000_000
_ABOVE_MASK = [F24 & ~((1 << (f + 1)) - 1) & _SUIT_FACES[_SUIT[f]] for f in range(24)]


# Card records for the hot loop. A reply: (face, bit of the second copy, bit of a copy,
# points, rank); a lead adds its suit's faces, 6 * suit, 4096 * suit and the higher faces.
_Rec = tuple[int, int, int, int, int]
_Lead = tuple[int, int, int, int, int, int, int, int, int]
_REC: list[_Rec] = [(f, 1 << (f + 24), 1 << f, _PTS[f], _RANK[f]) for f in range(24)]
_LEAD_REC: list[_Lead] = [(*_REC[f], _SUIT_FACES[_SUIT[f]], 6 * _SUIT[f], 4096 * _SUIT[f],
                           _ABOVE_MASK[f]) for f in range(24)]
_BY_RANK = itemgetter(4)


def _suit_tables() -> tuple[list[tuple[_Lead, ...]], list[tuple[_Rec, ...]],
                            list[tuple[_Rec, ...]]]:
    """Merged faces of one suit for every pair of six-face patterns (index ``4096 * suit +
    mine | other << 6``): as lead records high to low, as reply records high to low and
    low to high."""
    base = [tuple(_classes(k & 63, k >> 6, k & 63)) for k in range(4096)]
    desc_l = [tuple(map(_LEAD_REC[6 * s:6 * s + 6].__getitem__, t))
              for s in range(4) for t in base]
    desc_r = [tuple(map(_REC[6 * s:6 * s + 6].__getitem__, t)) for s in range(4) for t in base]
    return desc_l, desc_r, [t[::-1] for t in desc_r]


_DESC_L, _DESC_R, _ASC_R = _suit_tables()
# Winning replies of a suit above a lead rank, filled on demand: index 8 * table index + rank.
_ABOVE: list[tuple[_Rec, ...] | None] = [None] * (8 * 4 * 4096)


@dataclass
class PlayoffSolution:
    """Exact result: the best card (physical) and the future margin for the seat to act."""

    card: int
    value: int
    nodes: int


class PlayoffSolver:
    """Solver with a transposition table that can be reused across positions of a trump."""

    def __init__(self, trump: int, max_entries: int = 2_000_000) -> None:
        self.trump = trump
        self.table: dict[int, tuple[float, float, int]] = {}
        self.max_entries = max_entries
        self.nodes = 0

    def value(self, h_lead: int, h_follow: int, alpha: float = -math.inf,
              beta: float = math.inf) -> int:
        """Leader's exact future margin with canonical hands (leader to lead).

        Found by MTD(f): zero-window searches converging on the value, sharing bounds
        through the transposition table.
        """
        if len(self.table) > self.max_entries:
            self.table.clear()
        if alpha != -math.inf or beta != math.inf:
            return int(self._ab(h_lead, h_follow, alpha, beta))
        guess: float = 0
        hit = self.table.get(h_lead | (h_follow << 48))
        if hit is not None:
            guess = hit[0] if hit[0] > -_INF else hit[1] if hit[1] < _INF else 0
        lower, upper = -math.inf, math.inf
        while lower < upper:
            b = guess + 1 if guess == lower else guess
            guess = self._ab(h_lead, h_follow, b - 1, b)
            if guess < b:
                upper = guess
            else:
                lower = guess
        return int(guess)

    def _ab(self, hl: int, hf: int, alpha: float, beta: float) -> float:
        """Fail-soft value of the leader to lead (one node; probes the table first)."""
        self.nodes += 1
        if not hl:
            return 0
        key = hl | (hf << 48)
        hit = self.table.get(key)
        if hit is not None:
            low, up, _ = hit
            if low >= beta:
                return low
            if up <= alpha:
                return up
            if low == up:
                return low
        return self._search(hl, hf, alpha, beta, key, hit)

    def _search(self, hl: int, hf: int, alpha: float, beta: float, key: int,
                hit: tuple[float, float, int] | None, inf: int = _INF,
                above: list[tuple[_Rec, ...] | None] = _ABOVE,
                suit_faces: list[int] = _SUIT_FACES,
                lead_rec: list[_Lead] = _LEAD_REC,
                desc_l: list[tuple[_Lead, ...]] = _DESC_L,
                desc_r: list[tuple[_Rec, ...]] = _DESC_R,
                asc_r: list[tuple[_Rec, ...]] = _ASC_R) -> float:
        """Search a node whose table entry ``hit`` did not decide it (already counted).

        Children are probed inline, the last trick is scored without a call, and the
        move lists come from the precomputed suit tables; the nodes visited, their order
        and the table entries written are those of a plain fail-soft alpha-beta.
        """
        first = -1
        if hit is not None:
            low, up, first = hit
            if low > alpha:
                alpha = low
            if up < beta:
                beta = up
        if not hl & (hl - 1):
            return self._last_trick(hl, hf, alpha, beta, key, hit)
        trump = self.trump
        table = self.table
        leads = (desc_l[(hl & 63) | (hf & 63) << 6]
                 + desc_l[4096 + ((hl >> 6) & 63 | ((hf >> 6) & 63) << 6)]
                 + desc_l[8192 + ((hl >> 12) & 63 | ((hf >> 12) & 63) << 6)]
                 + desc_l[12288 + ((hl >> 18) & 63 | ((hf >> 18) & 63) << 6)])
        if first >= 0:
            rec = lead_rec[first]
            if rec is not leads[0] and rec in leads:
                i = leads.index(rec)
                leads = (rec, *leads[:i], *leads[i + 1:])
        hff = hf & F24
        tmask = suit_faces[trump]
        has_trump = hff & tmask
        tshift = 6 * trump
        a0 = alpha
        best: float = -inf
        # lo = max(alpha, best)
        lo = alpha if alpha > best else best
        best_lead = leads[0][0]
        n = 0
        for lead, b, lb, pts0, rank, smask, sh, kb, amask in leads:
            hl2 = hl ^ b if hl & b else hl ^ lb
            worst: float = inf
            same = hff & smask
            replies: tuple[_Rec, ...] | list[_Rec]
            if same:
                k = kb + ((hff >> sh) & 63 | ((hl2 >> sh) & 63) << 6)
                if same & amask:
                    j = 8 * k + rank
                    got = above[j]
                    if got is None:
                        got = above[j] = tuple(r for r in asc_r[k] if r[0] > lead)
                    replies = got
                    beats = True
                    hl2s = hl2 << 48
                else:
                    replies = asc_r[k]
                    beats = False
            elif has_trump and not smask & tmask:
                replies = asc_r[4096 * trump + ((hff >> tshift) & 63
                                              | ((hl2 >> tshift) & 63) << 6)]
                beats = True
                hl2s = hl2 << 48
            else:
                replies = sorted(
                    desc_r[(hff & 63) | (hl2 & 63) << 6]
                    + desc_r[4096 + ((hff >> 6) & 63 | ((hl2 >> 6) & 63) << 6)]
                    + desc_r[8192 + ((hff >> 12) & 63 | ((hl2 >> 12) & 63) << 6)]
                    + desc_r[12288 + ((hff >> 18) & 63 | ((hl2 >> 18) & 63) << 6)],
                    key=_BY_RANK)
                beats = False
            hi = beta
            for _, b, lb, rp, _ in replies:
                hf2 = hf ^ b if hf & b else hf ^ lb
                pts = pts0 + rp
                n += 1
                if beats:
                    ca = -hi - pts
                    cb = -lo - pts
                    ck = hf2 | hl2s
                    h = table.get(ck)
                    if h is None:
                        val = -pts - self._search(hf2, hl2, ca, cb, ck, None)
                    else:
                        lw, uw, _ = h
                        if lw >= cb:
                            val = -pts - lw
                        elif uw <= ca:
                            val = -pts - uw
                        elif lw == uw:
                            val = -pts - lw
                        else:
                            val = -pts - self._search(hf2, hl2, ca, cb, ck, h)
                else:
                    ca = lo - pts
                    cb = hi - pts
                    ck = hl2 | (hf2 << 48)
                    h = table.get(ck)
                    if h is None:
                        val = pts + self._search(hl2, hf2, ca, cb, ck, None)
                    else:
                        lw, uw, _ = h
                        if lw >= cb:
                            val = pts + lw
                        elif uw <= ca:
                            val = pts + uw
                        elif lw == uw:
                            val = pts + lw
                        else:
                            val = pts + self._search(hl2, hf2, ca, cb, ck, h)
                if val < hi:
                    worst = hi = val
                    if lo >= hi:
                        break
                elif val < worst:
                    worst = val
            if worst > best:
                best = worst
                best_lead = lead
                if best >= beta:
                    break
                if best > lo:
                    lo = best
        self.nodes += n
        if hit is None:
            low = -inf
            up = inf
        else:
            low = hit[0]
            up = hit[1]
        if best <= a0:
            up = best
        elif best >= beta:
            low = best
        else:
            low = up = best
        table[key] = (low, up, best_lead)
        return best

    def _last_trick(self, hl: int, hf: int, alpha: float, beta: float, key: int,
                    hit: tuple[float, float, int] | None) -> float:
        """:meth:`_search` for one card each (window already narrowed by ``hit``): the
        one trick plus 10 for the last trick."""
        lead = (hl.bit_length() - 1) % 24
        reply = (hf.bit_length() - 1) % 24
        self.nodes += 1
        pts = _PTS[lead] + _PTS[reply] + 10
        best = -pts if _beats(reply, lead, self.trump) else pts
        low, up = (-_INF, _INF) if hit is None else (hit[0], hit[1])
        if best <= alpha:
            up = best
        elif best >= beta:
            low = best
        else:
            low = up = best
        self.table[key] = (low, up, lead)
        return best

    def best_lead(self, hl: int, hf: int) -> tuple[int, int]:
        """(face to lead, exact leader's future margin)."""
        val = self.value(hl, hf)
        hit = self.table.get(hl | (hf << 48))
        if hit is not None and hit[0] == hit[1] == val:
            return hit[2], val
        best_face, best = -1, -math.inf
        for lead in _classes(hl, hf, hl & F24):
            v = self._lead_value(hl, hf, lead)
            if v > best:
                best_face, best = lead, v
        return best_face, int(best)

    def card_values(self, mine: int, theirs: int, lead: int = -1) -> dict[int, int]:
        """Exact future margin of every face the seat to act may play (canonical hands;
        ``lead``: the face the opponent led, or -1 when this seat leads)."""
        out: dict[int, int] = {}
        if lead < 0:
            m = mine & F24
            while m:
                f = (m & -m).bit_length() - 1
                m &= m - 1
                out[f] = int(self._lead_value(mine, theirs, f))
            return out
        trump = self.trump
        last = 10 if not theirs else 0
        m = _follow_faces(mine, lead, trump)
        while m:
            reply = (m & -m).bit_length() - 1
            m &= m - 1
            hf2 = _remove(mine, reply)
            pts = _PTS[lead] + _PTS[reply] + last
            if _beats(reply, lead, trump):
                val = pts + self._ab(hf2, theirs, -_INF, _INF)
            else:
                val = -pts - self._ab(theirs, hf2, -_INF, _INF)
            out[reply] = int(val)
        return out

    def _lead_value(self, hl: int, hf: int, lead: int) -> float:
        hl2 = _remove(hl, lead)
        return -self.reply_values(hf, hl2, lead)[1]

    def reply_values(self, hf: int, hl2: int, lead: int) -> tuple[int, int]:
        """Follower's best reply face and the follower's exact future margin."""
        trump = self.trump
        last = 10 if not hl2 else 0
        best_face, best = -1, -math.inf
        for reply in _classes(hf, hl2, _follow_faces(hf, lead, trump)):
            hf2 = _remove(hf, reply)
            pts = _PTS[lead] + _PTS[reply] + last
            if _beats(reply, lead, trump):
                val = pts + self._ab(hf2, hl2, -_INF, _INF)
            else:
                val = -pts - self._ab(hl2, hf2, -_INF, _INF)
            if val > best:
                best_face, best = reply, val
        return best_face, int(best)


def playoff_value(trump: int, hand_lead: int, hand_follow: int, lead: int = -1) -> int:
    """Exact future margin of the seat to act; physical hands, ``lead`` = card on the table.

    With ``lead >= 0`` the seat to act is the follower holding ``hand_follow`` and the
    leader's remaining hand is ``hand_lead``.
    """
    solver = PlayoffSolver(trump)
    if lead < 0:
        return solver.value(canonical(hand_lead), canonical(hand_follow))
    return solver.reply_values(canonical(hand_follow), canonical(hand_lead), lead % 24)[1]


def solve_playoff(state: object, solver: PlayoffSolver | None = None) -> PlayoffSolution:
    """Best card and exact future margin for the seat to act in a playoff position.

    ``state`` is a :class:`~cardplaza.games.pinochle2.engine.Pinochle2State` in the play
    step of the playoff (stock empty), leading or following.
    """
    from cardplaza.games.pinochle2.engine import Pinochle2State, playoff_follow_mask

    assert isinstance(state, Pinochle2State)
    if state.stock or state.step != 0 or state.turn < 0:
        raise ValueError("the exact solver needs a playoff position with a card to play")
    seat = state.turn
    trump = state.trump
    if solver is None or solver.trump != trump:
        solver = PlayoffSolver(trump)
    before = solver.nodes
    mine = state.hands[seat]
    theirs = state.hands[1 - seat]
    if state.lead < 0:
        face, val = solver.best_lead(canonical(mine), canonical(theirs))
        legal = mine
    else:
        face, val = solver.reply_values(canonical(mine), canonical(theirs), state.lead % 24)
        legal = playoff_follow_mask(mine, state.lead, trump)
    card = face if (legal >> face) & 1 else face + 24
    assert (legal >> card) & 1, "solver chose a card not in hand"
    return PlayoffSolution(card, val, solver.nodes - before)


def benchmark_playoffs(count: int = 200, seed: int = 0) -> dict[str, float]:
    """Solve ``count`` full playoffs (trick 13, 12 cards each) reached from seeded deals
    played at random; median and max solve time in seconds (wall clock and CPU), nodes."""
    import random
    import statistics
    import time

    from cardplaza.games.pinochle2.engine import Options, Pinochle2State

    times: list[float] = []
    cpu: list[float] = []
    nodes: list[int] = []
    for i in range(count):
        state = Pinochle2State(Options(), seed + i)
        rng = random.Random(seed + i)
        while state.stock or state.step != 0:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        start = time.perf_counter()
        start_cpu = time.process_time()
        sol = solve_playoff(state)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        nodes.append(sol.nodes)
    return {"playoffs": count, "median_seconds": statistics.median(times),
            "max_seconds": max(times), "mean_seconds": statistics.fmean(times),
            "median_cpu_seconds": statistics.median(cpu), "max_cpu_seconds": max(cpu),
            "median_nodes": statistics.median(nodes), "max_nodes": max(nodes)}


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(benchmark_playoffs(int(sys.argv[1]) if len(sys.argv) > 1 else 200,
                                        int(sys.argv[2]) if len(sys.argv) > 2 else 0),
                     indent=1))
