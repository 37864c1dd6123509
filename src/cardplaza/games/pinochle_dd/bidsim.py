"""The expert's auction and trump choice from simulated deals.

During the auction the only hidden information is the other three hands, and what the
bids showed of them (section 8; :func:`cardplaza.games.pinochle_dd.players.auction_signs`).
:func:`sample_deals` deals the 60 unseen cards again and again, keeping a deal that fits
every such sign (the one straying least when none of a few tries fits).

In each deal and for each trump suit, :func:`declare_outcomes` plays the hand as if a
given seat of this side declared: the passing as the normal level does it (partner's
trumps and aces, the declarer's cheapest cards back), every seat's meld, and the play by
the compiled quick policy (:func:`kernels.play_out`), the declarer leading. What the two
sides take (saved meld + counters) gives, for any contract, the declaring side's margin
(its score change minus the other side's): :meth:`Outcomes.value`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardplaza.games.pinochle_dd.engine import MIN_MELD, Options, meld_saved
from cardplaza.games.pinochle_dd.meld import meld_total, meld_totals
from cardplaza.games.pinochle_dd.rules import (
    ACE,
    COPIES,
    COUNTER_FACES,
    DIAMONDS,
    FACES,
    JACK,
    KING,
    QUEEN,
    RANK_OF,
    SPADES,
    SUIT_OF,
    face,
    from_counts,
)

SIGN_TRIES = 40
"""Deals drawn at most for one sampled deal that fits the signs of the auction."""
PARTS = (face(SPADES, QUEEN), face(DIAMONDS, JACK))


def sample_deals(obs: dict[str, Any], rng: random.Random, count: int,
                 signs: dict[int, tuple[int, int]]) -> list[list[list[int]]]:
    """``count`` deals (per seat, copies of each face) that keep this seat's hand and fit
    the ``signs`` of the auction (per seat, the range its best meld lies in;
    :func:`cardplaza.games.pinochle_dd.players.auction_signs`) where a few tries find
    one."""
    me = obs["seat"]
    own = [0] * FACES
    for f in obs["hand"]:
        own[f] += 1
    pool = [f for f in range(FACES) for _ in range(COPIES - own[f])]
    others = [p for p in range(4) if p != me]
    deals = []
    for _ in range(count):
        best: list[list[int]] | None = None
        best_miss = -1
        for _ in range(SIGN_TRIES):
            rng.shuffle(pool)
            hands = [own[:] if p == me else [0] * FACES for p in range(4)]
            for i, p in enumerate(others):
                h = hands[p]
                for f in pool[20 * i:20 * i + 20]:
                    h[f] += 1
            miss = 0
            for p, (lo, hi) in signs.items():
                m = max(meld_totals(from_counts(hands[p])))
                miss += max(0, lo - m, m - hi)
            if best is None or miss < best_miss:
                best, best_miss = hands, miss
            if miss == 0:
                break
        assert best is not None
        deals.append(best)
    return deals


def _partner_gives(hand: list[int], trump: int, n: int) -> list[int]:
    """The ``n`` faces partner passes: trumps (highest first), aces, pinochle parts, then
    its highest cards (the normal level's order, meld left aside)."""
    def value(f: int) -> float:
        if SUIT_OF[f] == trump:
            return 30 + 3 * RANK_OF[f]
        if RANK_OF[f] == ACE:
            return 20
        return (6 if f in PARTS else 0) + 0.5 * RANK_OF[f]

    return _first(hand, sorted((f for f in range(FACES) if hand[f]),
                               key=lambda f: (-value(f), f)), n)


def _declarer_returns(hand: list[int], trump: int, n: int) -> list[int]:
    """The ``n`` faces the declarer passes back: least meld lost, no trump or ace, short
    side suits and low cards first (the normal level's costs, meld loss counted once per
    face)."""
    mask = from_counts(hand)
    before = meld_total(mask, trump)
    lengths = [sum(hand[5 * s:5 * s + 5]) for s in range(4)]

    def cost(f: int) -> float:
        cnt = hand[:]
        cnt[f] -= 1
        c = 4.0 * (before - meld_total(from_counts(cnt), trump))
        if SUIT_OF[f] == trump:
            return c + 34 + RANK_OF[f]
        if RANK_OF[f] == ACE:
            c += 25
        return c + 1.5 * lengths[SUIT_OF[f]] + 0.5 * RANK_OF[f]

    return _first(hand, sorted((f for f in range(FACES) if hand[f]),
                               key=lambda f: (cost(f), f)), n)


def _first(hand: list[int], order: list[int], n: int) -> list[int]:
    """The first ``n`` cards of ``hand`` (copies per face) taking its faces in ``order``."""
    out: list[int] = []
    for f in order:
        out += [f] * min(hand[f], n - len(out))
        if len(out) == n:
            break
    return out


@dataclass
class Outcomes:
    """Per trump suit and deal, what the declaring side (``ours``) and the other side
    (``theirs``) take if the hand is played: saved meld + counters; ``sure_set`` marks
    deals where the declaring side is set before play (``min_meld_20`` or
    ``marriage_required``), ``their_meld`` the other side's meld then."""

    ours: list[list[int]]
    theirs: list[list[int]]
    sure_set: list[list[bool]]
    their_meld: list[list[int]]

    def value(self, suit: int, amount: int) -> float:
        """The declaring side's mean margin declaring ``amount`` in ``suit`` (set: minus
        the contract, the other side scoring; under progressive scoring the other side
        adds the contract, the same margin)."""
        total = 0.0
        rows = zip(self.ours[suit], self.theirs[suit], self.sure_set[suit],
                   self.their_meld[suit], strict=True)
        n = 0
        for ours, theirs, sure_set, their_meld in rows:
            n += 1
            if sure_set:
                total -= amount + (their_meld if their_meld >= MIN_MELD else 0)
            elif ours >= amount:
                total += ours - theirs
            else:
                total -= amount + theirs
        return total / n if n else 0.0

    def chance(self, suit: int, amount: int) -> float:
        """The share of deals in which ``amount`` is made in ``suit``."""
        rows = list(zip(self.ours[suit], self.sure_set[suit], strict=True))
        return sum(1 for o, s in rows if not s and o >= amount) / len(rows) if rows else 0.0

    def best(self, amount: int) -> tuple[int, float]:
        """The trump suit with the best :meth:`value` at ``amount``, and that value."""
        s = max(range(4), key=lambda x: (self.value(x, amount), -x))
        return s, self.value(s, amount)


def declare_outcomes(deals: Sequence[list[list[int]]], declarer: int, options: Options,
                     suits: Sequence[int] = (0, 1, 2, 3)) -> Outcomes:
    """Every deal of ``deals`` played with ``declarer`` declaring each of ``suits`` (see
    the module docstring); the other suits' rows stay empty."""
    import numpy as np

    from cardplaza.games.pinochle_dd.kernels import KERNELS

    partner = (declarer + 2) % 4
    side = declarer % 2
    n_pass = options.pass_count
    counter = np.array([COUNTER_FACES[options.counters] >> f & 1 for f in range(FACES)],
                       np.int64)
    must_head = int(options.must_head)
    flat = np.zeros(4 * FACES, np.int64)
    trick = np.zeros(4, np.int64)
    result = np.zeros(4, np.int64)
    out = Outcomes([[], [], [], []], [[], [], [], []], [[], [], [], []], [[], [], [], []])
    for hands in deals:
        for s in suits:
            hs = [h[:] for h in hands]
            if n_pass:
                for f in _partner_gives(hs[partner], s, n_pass):
                    hs[partner][f] -= 1
                    hs[declarer][f] += 1
                for f in _declarer_returns(hs[declarer], s, n_pass):
                    hs[declarer][f] -= 1
                    hs[partner][f] += 1
            melds = [meld_total(from_counts(h), s) for h in hs]
            mine = melds[declarer] + melds[partner]
            other = melds[(declarer + 1) % 4] + melds[(declarer + 3) % 4]
            k, q = 5 * s + KING, 5 * s + QUEEN
            no_marriage = options.marriage_required and not (hs[declarer][k]
                                                            and hs[declarer][q])
            if no_marriage or (options.min_meld_20 and mine < MIN_MELD):
                out.ours[s].append(0)
                out.theirs[s].append(0)
                out.sure_set[s].append(True)
                out.their_meld[s].append(other)
                continue
            flat[:] = [n for h in hs for n in h]
            KERNELS.play_out(flat, trick, 0, declarer, s, must_head, counter, side, 0, result)
            got = [int(result[side]), int(result[1 - side])]
            tricks = [int(result[2 + side]), int(result[3 - side])]
            ours = got[0] + (mine if meld_saved(mine, got[0], tricks[0], options) else 0)
            theirs = got[1] + (other if meld_saved(other, got[1], tricks[1], options) else 0)
            out.ours[s].append(ours)
            out.theirs[s].append(theirs)
            out.sure_set[s].append(False)
            out.their_meld[s].append(other)
    return out
