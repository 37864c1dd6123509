"""Exact playoff solver for two-hand Pinochle (tricks 13–24, both hands known).

Alpha-beta (negamax from the leader's side) driven by MTD(f) zero-window searches, with a
transposition table holding lower and upper bounds. Hands are
canonical masks over faces: bit ``f`` = at least one copy of face ``f``, bit ``f + 24`` =
both copies, so the two identical copies are one card for the search. Cards that are
*equivalent* — same suit, same point value, held by the same player, with no card of the
other player ranked between them — are tried only once. Values are exact points: the
counters (A, 10, K = 10) of the remaining tricks plus 10 for the last trick.

:func:`solve_playoff` works on a :class:`Pinochle2State`; :func:`playoff_value` on two
raw hands (the form used by the tests' brute-force comparison).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

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
        guess = 0.0
        hit = self.table.get(h_lead | (h_follow << 48))
        if hit is not None:
            guess = hit[0] if hit[0] > -math.inf else hit[1] if hit[1] < math.inf else 0.0
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
        self.nodes += 1
        if not hl:
            return 0
        key = hl | (hf << 48)
        hit = self.table.get(key)
        first = -1
        if hit is not None:
            low, up, first = hit
            if low >= beta:
                return low
            if up <= alpha:
                return up
            if low == up:
                return low
            if low > alpha:
                alpha = low
            if up < beta:
                beta = up
        trump = self.trump
        last = 10 if (hl & F24).bit_count() == 1 and not hl >> 24 else 0
        leads = _classes(hl, hf, hl & F24)
        if first in leads:
            leads.remove(first)
            leads.insert(0, first)
        a0 = alpha
        best = -math.inf
        best_lead = leads[0]
        for lead in leads:
            hl2 = _remove(hl, lead)
            lo = alpha if alpha > best else best
            worst = math.inf
            replies = _classes(hf, hl2, _follow_faces(hf, lead, trump))
            # Winning replies first: they tend to be the opponent's best.
            replies.sort(key=lambda f: (not _beats(f, lead, trump), _PTS[f], _RANK[f]))
            for reply in replies:
                hi = beta if beta < worst else worst
                if lo >= hi:
                    break
                hf2 = _remove(hf, reply)
                pts = _PTS[lead] + _PTS[reply] + last
                if _beats(reply, lead, trump):
                    val = -pts - self._ab(hf2, hl2, -hi - pts, -lo - pts)
                else:
                    val = pts + self._ab(hl2, hf2, lo - pts, hi - pts)
                if val < worst:
                    worst = val
            if worst > best:
                best = worst
                best_lead = lead
            if best >= beta:
                break
        low, up = (-math.inf, math.inf) if hit is None else (hit[0], hit[1])
        if best <= a0:
            up = best
        elif best >= beta:
            low = best
        else:
            low = up = best
        self.table[key] = (low, up, best_lead)
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
                val = pts + self._ab(hf2, hl2, -math.inf, math.inf)
            else:
                val = -pts - self._ab(hl2, hf2, -math.inf, math.inf)
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
