"""Compare double-deck Pinochle auction rules on paired deals, every seat playing its
cards, passing and throw-ins as the normal level does (only the auction and the trump
choice differ): fast, since no card search runs.

    python scripts/dd_bid_experiment.py --deals 300 --players sim,normal12 --jobs 2

Players: ``normal`` (the normal auction), ``normal12`` (the normal limit + 12 and bidding on
once over partner after the opponents passed: the expert's former auction), ``sim`` (the
expert's simulated auction), ``simF`` (the same with bid floor F, e.g. ``sim-20``).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

import cardplaza.arena.core as arena
from cardplaza.core.protocol import Action
from cardplaza.games.pinochle_dd.engine import K_BID, MIN_MELD, PASS, next_allowed
from cardplaza.games.pinochle_dd.meld import meld_totals
from cardplaza.games.pinochle_dd.players import (
    ExpertPlayer,
    HeuristicPlayer,
    _tally,
    first_since_opponents_passed,
    meld_signals,
)
from cardplaza.games.pinochle_dd.rules import from_counts


class Normal12(HeuristicPlayer):
    """The normal limit + 12, bidding on once over partner after the opponents passed."""

    def limit(self, obs: dict[str, Any], partner_meld: int | None = None) -> int:
        return super().limit(obs, partner_meld) + 12

    def bid(self, obs: dict[str, Any], legal: Sequence[Action]) -> Action:
        action = super().bid(obs, legal)
        if action != PASS:
            return action
        k = obs["scale"]
        seat = obs["seat"]
        partner = (seat + 2) % 4
        if obs["high_bidder"] != partner:
            return action
        out = all(any(s == o and a == 0 for s, a in obs["bids"])
                  for o in ((seat + 1) % 4, (seat + 3) % 4))
        if not out or not first_since_opponents_passed(obs):
            return action
        meld = max(meld_totals(from_counts(_tally(obs["hand"]))))
        high = (obs["high_bid"] or 0) // k
        lowest = next_allowed(high, obs["options"]["bid_steps"])
        if meld < MIN_MELD or lowest > obs["max_bid"] // k:
            return action
        if lowest <= self.limit(obs, meld_signals(obs).get(partner)):
            return (K_BID, lowest * k)
        return action


class SimBidder(ExpertPlayer):
    """The expert's auction and trump choice, the normal level's card play."""

    def play(self, obs: dict[str, Any], cards: list[int]) -> int:
        return HeuristicPlayer.play(self, obs, cards)


def factory(game: str, level: str = "random", seed: int = 0) -> Any:
    if level == "normal":
        return HeuristicPlayer("normal")
    if level == "normal12":
        return Normal12("normal")
    if level.startswith("sim"):
        floor = float(level[3:]) if level[3:] else None
        p = SimBidder() if floor is None else SimBidder(bid_floor=floor)
        p.name = level
        return p
    raise ValueError(level)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--players", default="sim,normal12")
    args = parser.parse_args()
    patched = vars(arena)  # the arena's own names, so that forked workers see them too
    patched["computer_player"] = factory
    patched["check_arena"] = lambda *a, **k: None
    patched["check_sources"] = lambda *a, **k: {}
    result = arena.run_arena("pinochle_dd", args.players.split(","), args.deals, args.seed,
                             args.jobs, unit="deal")
    for p in result.pairs:
        print(f"{p.a} - {p.b}: {p.mean_margin:+.1f} ± {p.ci95:.1f} per deal over "
              f"{p.deals} paired deals ({result.seconds:.0f} s)")


if __name__ == "__main__":
    main()
