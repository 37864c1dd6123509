"""How often a computer level shows each habit players ask of a double-deck partner, over
many deals played by that level at every seat (the auction, the passing and the first
trick of each deal; nothing later is needed for these rates).

* **bids on after both opponents passed** — a seat with at least 20 meld whose partner
  holds the high bid, speaking for the first time after both opponents have passed: how
  often it passes (players want this rare);
* **meld bids** — a seat speaking for the first time below 60 with at least 10 meld: how
  often its bid is a meld bid (a raise of 1 to 5 showing its meld);
* **passing** — of the cards the declarer's partner passes, the share that are trump or
  aces;
* **first lead** — the declarer's first lead while holding fewer than half the trumps:
  how often it is a trump;
* **counter on partner's trick** — the last seat of the first trick whose partner holds
  it and that may play a counter or a non-counter: how often it plays a counter.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from cardplaza.games.pinochle_dd.engine import (
    BIDDING,
    K_BID,
    K_THROW_IN,
    MIN_MELD,
    PASSING,
    PLAY,
    DoubleDeckState,
    Options,
)
from cardplaza.games.pinochle_dd.meld import meld_totals
from cardplaza.games.pinochle_dd.players import (
    TRUMPS_IN_SUIT,
    HeuristicPlayer,
    _is_counter,
    _tally,
    first_since_opponents_passed,
    make_player,
    meld_bids,
    opponents_passed,
    suit_length,
)
from cardplaza.games.pinochle_dd.rules import ACE, RANK_OF, SUIT_OF, from_counts, winning_index


@dataclass
class Rate:
    """``hits`` of ``cases``."""

    hits: int = 0
    cases: int = 0

    def add(self, hit: bool) -> None:
        self.cases += 1
        self.hits += int(hit)

    @property
    def share(self) -> float:
        return self.hits / self.cases if self.cases else float("nan")


@dataclass
class Habits:
    """The rates of :mod:`realism` over a run of deals."""

    deals: int = 0
    pass_after_opponents_passed: Rate = field(default_factory=Rate)
    meld_bid_when_able: Rate = field(default_factory=Rate)
    passed_trump_or_ace: Rate = field(default_factory=Rate)
    trump_first_lead_when_short: Rate = field(default_factory=Rate)
    counter_on_partners_trick: Rate = field(default_factory=Rate)

    def rows(self) -> list[tuple[str, Rate]]:
        return [("partner with 20+ meld passes after both opponents passed",
                 self.pass_after_opponents_passed),
                ("first-round speaker with 10+ meld makes a meld bid",
                 self.meld_bid_when_able),
                ("cards passed to the declarer that are trump or aces",
                 self.passed_trump_or_ace),
                ("declarer with fewer than half the trumps leads trump first",
                 self.trump_first_lead_when_short),
                ("last seat on partner's first trick throws a counter",
                 self.counter_on_partners_trick)]


def _bid_habits(obs: dict[str, Any], action: tuple[int, int], h: Habits) -> None:
    seat = obs["seat"]
    bids = obs["bids"]
    spoke = any(s == seat for s, _ in bids)
    meld = max(meld_totals(from_counts(_tally(obs["hand"]))))
    k = obs["scale"]
    high = (obs["high_bid"] or 0) // k
    if not spoke and meld >= 10 and high < 59:
        shown = meld_bids([*bids, [seat, action[1]]], k)
        h.meld_bid_when_able.add(len(bids) in shown)
    partner = (seat + 2) % 4
    if (obs["high_bidder"] == partner and opponents_passed(bids, seat)
            and first_since_opponents_passed(obs) and meld >= MIN_MELD):
        h.pass_after_opponents_passed.add(action[1] == 0)


def measure(level: str, deals: int, seed: int = 0,
            options: Options | None = None, auction_only: bool = False) -> Habits:
    """Play ``deals`` deals (auction, passing, first trick) with ``level`` at every seat;
    with ``auction_only`` each deal stops when the auction ends (the bidding rates alone,
    much faster: no card search)."""
    h = Habits()
    players: list[HeuristicPlayer] = [make_player(level, seed + i) for i in range(4)]
    for d in range(deals):
        st = DoubleDeckState(options or Options(), seed * 100_003 + d)
        rng = random.Random(d)
        h.deals += 1
        while not st.is_terminal and not (st.phase == PLAY and len(st.tricks) >= 1) \
                and not (auction_only and st.phase != BIDDING):
            seat = st.current_player
            obs = st.observation(seat)
            legal = st.legal_actions()
            action = players[seat].choose(obs, legal, rng)
            assert isinstance(action, tuple)
            if st.phase == BIDDING and action[0] in (K_BID, 4, 6):
                _bid_habits(obs, action, h)
            elif st.phase == PASSING and seat != st.bidder:
                f = action[1]
                h.passed_trump_or_ace.add(SUIT_OF[f] == st.trump or RANK_OF[f] == ACE)
            elif st.phase == PLAY and not st.tricks:
                _play_habits(st, obs, legal, action, h)
            before = st.hand_no
            st.apply(action)
            if st.hand_no != before:
                break
    return h


def _play_habits(st: DoubleDeckState, obs: dict[str, Any], legal: list[Any],
                 action: tuple[int, int], h: Habits) -> None:
    trump = st.trump
    seat = obs["seat"]
    short = 2 * suit_length(_tally(obs["hand"]), trump) < TRUMPS_IN_SUIT
    if not st.trick and seat == st.bidder and action[0] != K_THROW_IN and short:
        h.trump_first_lead_when_short.add(SUIT_OF[action[1]] == trump)
    if len(st.trick) == 3:
        wi = winning_index(st.trick, trump)
        if (st.leader + wi) % 4 == (seat + 2) % 4:
            scheme = obs["options"]["counters"]
            kinds = {_is_counter(a[1], scheme) for a in legal}
            if kinds == {True, False}:
                h.counter_on_partners_trick.add(_is_counter(action[1], scheme))
