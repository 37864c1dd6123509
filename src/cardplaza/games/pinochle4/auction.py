"""What the auction tells about hands: a hand's bidding limit and each seat's bids and passes.

The limit is the normal computer's (meld in the best suit, aces, trump length and an
allowance for partner's help or the widow). A seat that bid ``b`` is taken to hold a hand
whose limit reaches ``b``; a seat that passed when the lowest bid was ``m`` one whose limit
is below ``m`` (in the partnership game a pass over partner's high bid says nothing: the
normal computer never outbids partner). The search players weigh sampled worlds by these
bounds, with a tolerance, since people and stronger players bid differently.

Seat 0 passing over partner's 260 below tells nothing; seat 3 declined 270, seat 2 280:

>>> obs = {"seat": 1, "players": 4, "bid_step": 10, "min_bid": 250,
...        "bids": [[1, 250], [2, 260], [3, 0], [0, 0], [1, 270], [2, 0]]}
>>> bid_evidence(obs)
[(2, 260, 280), (3, 0, 270)]
"""

from __future__ import annotations

from typing import Any

from cardplaza.games.pinochle4.meld import meld_totals
from cardplaza.games.pinochle4.rules import ACE, RANK_MASK, SUIT_MASK

PASS_ALLOWANCE = {4: 150, 3: 120, 0: 80}
"""Partnership allowance for partner's help by the number of cards passed each way."""
WIDOW_ALLOWANCE = 60
"""Cut-throat allowance for the three widow cards."""

Evidence = list[tuple[int, int, int]]
"""Per other seat that bid or passed: (seat, highest bid made or 0, lowest bid declined or
0 when it never declined one), in the game's bid units."""


def hand_limit(hand: int, players: int, passing: int, extra_kq: bool, div: int) -> int:
    """The normal computer's highest bid with ``hand`` (bid units: points ÷ ``div``)."""
    totals = meld_totals(hand, extra_kq)
    aces = (hand & RANK_MASK[ACE]).bit_count()
    allowance = PASS_ALLOWANCE[passing] if players == 4 else WIDOW_ALLOWANCE
    best = 0
    for s in range(4):
        length = (hand & SUIT_MASK[s]).bit_count()
        best = max(best, totals[s] + 10 * aces + 10 * max(0, length - 4) + allowance)
    return best // div


def bid_evidence(obs: dict[str, Any]) -> Evidence:
    """Bounds on every other seat's limit from the bids and passes seen so far."""
    n = obs["players"]
    me = obs["seat"]
    step = obs["bid_step"]
    high, high_bidder = 0, -1
    made = [0] * n
    declined = [0] * n
    seen = [False] * n
    for seat, amount in obs["bids"]:
        seen[seat] = True
        if amount:
            made[seat] = max(made[seat], amount)
            high, high_bidder = amount, seat
            continue
        if n == 4 and high_bidder >= 0 and high_bidder % 2 == seat % 2:
            continue  # passing over partner's bid says nothing about the hand
        lowest = high + step if high else obs["min_bid"]
        declined[seat] = lowest if not declined[seat] else min(declined[seat], lowest)
    return [(p, made[p], declined[p]) for p in range(n)
            if p != me and seen[p] and (made[p] or declined[p])]


def violation(limits: dict[int, int], evidence: Evidence, slack: int) -> int:
    """How far (bid units beyond ``slack``) the limits stray from the auction's bounds."""
    out = 0
    for p, made, declined in evidence:
        lim = limits[p]
        if made and lim + slack < made:
            out += made - lim - slack
        if declined and lim - slack >= declined:
            out += lim - slack - declined + 1
    return out
