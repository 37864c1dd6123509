"""Computer players for both Pinochle variants (section 18): weak, normal, strong.

Every decision uses only the seat's observation and the player's RNG (DECISION P-44).

* ``weak``: bids the lowest legal bid up to best meld + 100; trump = best meld suit;
  random passing, discarding and card play.
* ``normal``: bidding limit from meld, aces, trump length and a passing allowance; partner
  passes high trumps then aces, the bidder returns non-trump losers outside its meld;
  card play: smear counters on a partner's sure winner, beat an opponent with the lowest
  beating card, otherwise throw the cheapest card; lead side aces, lead trump when long.
* ``strong``: normal bidding and passing; each card is chosen by determinized search:
  worlds sampled from the observation (:func:`world.sample_world`), the rest of the hand
  played out with a fast version of the normal policy, best average side result.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from cardplaza.core.cards import bit_list
from cardplaza.core.protocol import Action
from cardplaza.games.pinochle4.engine import (
    K_BID,
    K_DISCARD,
    K_GIVE,
    K_JUMP,
    K_PLAY,
    K_TRUMP,
    PLAY,
    PinochleState,
)
from cardplaza.games.pinochle4.meld import meld_breakdown, meld_totals
from cardplaza.games.pinochle4.rules import (
    ABOVE,
    ACE,
    RANK_MASK,
    SUIT_MASK,
    legal_play_mask,
    suit_of,
    winning_index,
)

LEVELS = ("weak", "normal", "strong")
_VALUE = (0, 0, 0, 10, 10, 10)  # counter value by rank position (scheme A)


def _mask(cards: Sequence[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m



def _best_trump(hand: int, extra_kq: bool) -> int:
    totals = meld_totals(hand, extra_kq)
    return max(range(4), key=lambda s: (totals[s], (hand & SUIT_MASK[s]).bit_count(), -s))


def _cheapest(cards: list[int], trump: int) -> int:
    """Least valuable card: fewest points, non-trump first, lowest rank."""
    return min(cards, key=lambda c: (_VALUE[c % 6], suit_of(c) == trump, c % 6, c))


def _partner_side(obs: dict[str, Any], seat: int, other: int) -> bool:
    if obs["players"] == 4:
        return seat % 2 == other % 2
    return seat == other


class HeuristicPlayer:
    """Weak or normal heuristic player (see the module docstring)."""

    def __init__(self, level: str = "normal") -> None:
        self.name = level
        self.level = level

    # -- decisions ------------------------------------------------------------------------
    def choose(self, observation: dict[str, Any], legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        """Pick one of ``legal_actions`` from the observation."""
        obs = observation
        kinds = {a[0] for a in legal_actions if isinstance(a, tuple)}
        if K_PLAY in kinds:
            if self.level == "weak":
                return legal_actions[rng.randrange(len(legal_actions))]
            return self.play(obs, legal_actions)
        if K_BID in kinds:
            return self.bid(obs, legal_actions)
        if K_TRUMP in kinds:
            hand = _mask(obs["hand"])
            return (K_TRUMP, _best_trump(hand, obs["options"]["extra_kq"]))
        if self.level == "weak":
            return legal_actions[rng.randrange(len(legal_actions))]
        if K_GIVE in kinds:
            return self.give(obs, legal_actions)
        if K_DISCARD in kinds:
            return self.discard(obs, legal_actions)
        return legal_actions[0]

    def bid_limit(self, obs: dict[str, Any]) -> int:
        """Highest bid this player is willing to make (active units)."""
        hand = _mask(obs["hand"])
        opts = obs["options"]
        div = 10 if opts["one_point"] else 1
        totals = meld_totals(hand, opts["extra_kq"])
        if self.level == "weak":
            return (max(totals) + 100) // div
        aces = (hand & RANK_MASK[ACE]).bit_count()
        allowance = {4: 150, 3: 120, 0: 80}[opts["passing"]] if obs["players"] == 4 else 60
        best = 0
        for s in range(4):
            length = (hand & SUIT_MASK[s]).bit_count()
            best = max(best, totals[s] + 10 * aces + 10 * max(0, length - 4) + allowance)
        return best // div

    def bid(self, obs: dict[str, Any], legal: Sequence[Action]) -> Action:
        """Bid the lowest legal amount while it is within the limit, else pass."""
        raise_to = [a for a in legal if isinstance(a, tuple) and a[0] in (K_BID, K_JUMP)
                    and a[1] > 0]
        if raise_to and raise_to[0][1] <= self.bid_limit(obs):
            # Do not overbid partner's bid in the partnership game.
            hb = obs["high_bidder"]
            if obs["players"] == 4 and hb is not None and hb % 2 == obs["seat"] % 2:
                return (K_BID, 0)
            return raise_to[0]
        return (K_BID, 0)

    def give(self, obs: dict[str, Any], legal: Sequence[Action]) -> Action:
        """Partner: highest trumps, then aces; bidder: non-trump losers outside meld."""
        trump = obs["trump"]
        cards = [a[1] for a in legal if isinstance(a, tuple)]
        hand = _mask(cards)
        if obs["seat"] != obs["bidder"]:
            return (K_GIVE, max(cards, key=lambda c: (
                suit_of(c) == trump, c % 6 == ACE, c % 6, -c)))
        keep = meld_breakdown(hand, trump, obs["options"]["extra_kq"]).cards
        losers = [c for c in cards if suit_of(c) != trump and not keep >> c & 1
                  and c % 6 != ACE]
        pool = losers or [c for c in cards if suit_of(c) != trump] or cards
        return (K_GIVE, _cheapest(pool, trump))

    def discard(self, obs: dict[str, Any], legal: Sequence[Action]) -> Action:
        """Cut-throat bid winner: discard non-trump cards outside the meld, no aces."""
        trump = obs["trump"]
        cards = [a[1] for a in legal if isinstance(a, tuple)]
        keep = meld_breakdown(_mask(cards), trump, obs["options"]["extra_kq"]).cards
        pool = [c for c in cards if suit_of(c) != trump and not keep >> c & 1
                and c % 6 != ACE] or [c for c in cards if suit_of(c) != trump] or cards
        # Discarded counters count for the bidder: prefer a lone 10 or K that would fall.
        return (K_DISCARD, max(pool, key=lambda c: (_VALUE[c % 6], -(c % 6), c)))

    def play(self, obs: dict[str, Any], legal: Sequence[Action]) -> Action:
        """Normal card play."""
        cards = [a[1] for a in legal if isinstance(a, tuple)]
        seat = obs["seat"]
        trump = obs["trump"]
        trick = [c for _, c in obs["trick"]]
        played = _mask(trick)
        for t in obs["tricks"]:
            played |= _mask([c for _, c in t["cards"]])
        hand = _mask(obs["hand"])
        if not trick:
            return (K_PLAY, self._lead(obs, cards, hand, played))
        wi = winning_index(trick, trump)
        w = trick[wi]
        w_seat = obs["trick"][wi][0]
        last = len(trick) == obs["players"] - 1
        unseen = ((1 << 48) - 1) & ~(played | hand)
        if _partner_side(obs, seat, w_seat) and w_seat != seat:
            higher = ABOVE[suit_of(w)][w % 6] & unseen
            if suit_of(w) != trump:
                higher |= SUIT_MASK[trump] & unseen
            if last or not higher:
                return (K_PLAY, max(cards, key=lambda c: (_VALUE[c % 6], suit_of(c) != trump,
                                                          -(c % 6))))
            return (K_PLAY, _cheapest(cards, trump))
        beating = [c for c in cards if _beats(c, w, trump)]
        if beating:
            return (K_PLAY, min(beating, key=lambda c: (suit_of(c) == trump, c % 6)))
        return (K_PLAY, _cheapest(cards, trump))

    def _lead(self, obs: dict[str, Any], cards: list[int], hand: int, played: int) -> int:
        trump = obs["trump"]
        aces = [c for c in cards if c % 6 == ACE and suit_of(c) != trump]
        if aces:
            return aces[0]
        bidding_side = obs["bidder"] is not None and _partner_side(obs, obs["seat"],
                                                                    obs["bidder"])
        trumps = [c for c in cards if suit_of(c) == trump]
        if bidding_side and len(trumps) >= 5:
            return max(trumps, key=lambda c: (c % 6, -c))
        side = [c for c in cards if suit_of(c) != trump]
        return _cheapest(side or cards, trump)


def _beats(c: int, w: int, trump: int) -> bool:
    cs, ws = suit_of(c), suit_of(w)
    if cs == ws:
        return c % 6 > w % 6
    return cs == trump


def _fast_card(st: PinochleState) -> int:
    """The normal play policy on a full state (used in rollouts)."""
    seat = st.turn
    hand = st.hands[seat]
    trump = st.trump
    legal = bit_list(legal_play_mask(hand, st.trick, trump, st.options.beat_only_trump_leads))
    trick = st.trick
    if not trick:
        aces = [c for c in legal if c % 6 == ACE and suit_of(c) != trump]
        return aces[0] if aces else _cheapest(legal, trump)
    wi = winning_index(trick, trump)
    w = trick[wi]
    w_seat = (st.leader + wi) % st.n
    if st.team(w_seat) == st.team(seat):
        if len(trick) == st.n - 1:
            return max(legal, key=lambda c: (_VALUE[c % 6], suit_of(c) != trump))
        return _cheapest(legal, trump)
    beating = [c for c in legal if _beats(c, w, trump)]
    if beating:
        return min(beating, key=lambda c: (suit_of(c) == trump, c % 6))
    return _cheapest(legal, trump)


class SearchPlayer(HeuristicPlayer):
    """Strong: normal bidding/passing, determinized search for card play."""

    def __init__(self, samples: int = 40) -> None:
        super().__init__("normal")
        self.name = "strong"
        self.samples = samples

    def choose(self, observation: dict[str, Any], legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        """Search card play; heuristics elsewhere."""
        cards = [a for a in legal_actions if isinstance(a, tuple) and a[0] == K_PLAY]
        if len(cards) <= 1 or len(cards) != len(legal_actions):
            return super().choose(observation, legal_actions, rng)
        from cardplaza.games.pinochle4.world import sample_world

        seat = observation["seat"]
        totals = dict.fromkeys(cards, 0.0)
        distinct: dict[int, tuple[int, int]] = {}
        for a in cards:
            distinct.setdefault(a[1] % 24, (a[0], a[1]))
        for _ in range(self.samples):
            world = sample_world(observation, rng)
            assert isinstance(world, PinochleState)
            for b in distinct.values():
                st = world.clone()
                st.apply(b)
                totals[b] += _rollout(st, seat)
        return max(distinct.values(), key=lambda b: (totals[b], -b[1]))


def _rollout(st: PinochleState, seat: int) -> float:
    """Play the hand out with the fast policy; the seat's side result minus the others'."""
    hand_no = st.hand_no
    while st.phase == PLAY and st.hand_no == hand_no:
        st._apply((K_PLAY, _fast_card(st)))
    entry = st.log[-1] if st.log and st.log[-1].get("hand") == hand_no else None
    if entry is None or entry.get("score_change") is None:
        return 0.0
    delta = entry["score_change"]
    mine = st.team(seat)
    return float(delta[mine] - sum(d for i, d in enumerate(delta) if i != mine)
                 / max(1, len(delta) - 1))


def make_player(level: str, seed: int = 0) -> HeuristicPlayer:
    """A computer player of ``level`` (weak, normal, strong)."""
    if level == "strong":
        return SearchPlayer()
    if level in ("weak", "normal"):
        return HeuristicPlayer(level)
    raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")


__all__ = ["LEVELS", "HeuristicPlayer", "SearchPlayer", "make_player"]
