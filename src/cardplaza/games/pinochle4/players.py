"""Computer players for both Pinochle variants (section 18): weak, normal, strong, expert.

Every decision uses only the seat's observation and the player's RNG (DECISION P-44).

* ``weak``: bids the lowest legal bid up to best meld + 100; trump = best meld suit;
  random passing, discarding and card play.
* ``normal``: bidding limit from meld, aces, trump length and a passing allowance; partner
  passes high trumps then aces, the bidder returns the cards that cost the least meld
  (non-trump losers; pinochle parts and other meld stay); card play: smear counters on a
  partner's sure winner (never the trump 10 or A), beat an opponent with the lowest
  beating card, otherwise throw the cheapest card; lead side aces, lead trump when long.
* ``strong``: normal bidding and passing; each card is chosen by determinized search:
  40 worlds consistent with the observation (:class:`world.Dealer`), the rest of the hand
  played out with the normal policy on bitmasks (:mod:`fast`), best average side result.
* ``expert``: card play by determinized search with about 12,000 play-outs per decision
  (``EXPERT_SIMS``, within ``EXPERT_SECONDS``) on the same worlds for every candidate
  (voids, melds shown and passed cards respected; of a few candidate deals, one that fits
  every seat's bids and passes, :mod:`auction`). Worlds and play-outs run in the compiled
  kernel (:mod:`kernels`), which deals exactly as :class:`world.Dealer`.
  Partnership: bids and names trump by simulation (sampled deals, partner's pass and the
  return simulated, meld + played-out trick points), meld-keeping returns. Cut-throat:
  bids by simulation (sampled deals and widow, three cards buried by the discard rule,
  meld + buried counters + played-out trick points); trump and the three buried cards
  chosen together by play-outs.

Both search levels drop candidates that good partners never play (:func:`_sensible`):
an early trump lead from a short trump holding, or the trump ace as last to play when a
cheaper card also wins the trick for the side.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from cardplaza.ai.compiled import mt_state, set_mt_state
from cardplaza.ai.evaluation import ActionEvaluation
from cardplaza.core.cards import bit_list, mask_of
from cardplaza.core.protocol import Action
from cardplaza.games.pinochle4.auction import PASS_ALLOWANCE, WIDOW_ALLOWANCE, hand_limit
from cardplaza.games.pinochle4.engine import (
    K_BID,
    K_DISCARD,
    K_GIVE,
    K_JUMP,
    K_PLAY,
    K_TRUMP,
)
from cardplaza.games.pinochle4.fast import hand_delta, low, play_out
from cardplaza.games.pinochle4.kernels import END_FRAME, END_TABLE_ROWS, KERNELS, WORK_ROWS
from cardplaza.games.pinochle4.meld import meld_total, meld_totals
from cardplaza.games.pinochle4.rules import (
    ABOVE,
    ACE,
    RANK_MASK,
    SUIT_MASK,
    TEN,
    counter_table,
    mask_points,
    suit_of,
    winning_index,
)
from cardplaza.games.pinochle4.world import (
    AuctionCheck,
    Dealer,
    _assign,
    _setup,
    least_straying,
)

LEVELS = ("weak", "normal", "strong", "expert")

STRONG_WORLDS = 40
"""Strong: sampled worlds per card decision (every candidate card in each)."""
STRONG_SECONDS = 0.5
"""Strong: cap per card decision in CPU seconds (a safety net: 40 worlds take ~1 ms)."""
EXPERT_SIMS = 12_000
"""Expert: play-outs per card decision (worlds × candidate cards)."""
EXPERT_MIN_WORLDS = 60
"""Expert: worlds kept however short the time cap (and however few the candidates)."""
EXPERT_MAX_WORLDS = 6_000
"""Expert: most worlds per card decision (with two candidates)."""
EXPERT_SECONDS = 0.3
"""Expert: cap per card decision in CPU seconds of the deciding thread."""
EXPERT_END_CARDS = 5
"""Expert, partnership: from this many cards in hand on, every sampled world's ending is
solved by best play (:func:`kernels.end_points`) instead of played out."""
EXPERT_END_CARDS3 = 6
"""Expert, cut-throat: as :data:`EXPERT_END_CARDS`, the bid winner against both opponents
(six cards in three hands are fewer cards to play than five in four)."""
EXPERT_END_WORLDS = 240
"""Expert: most worlds of a card decision with endings solved (a five-card
ending takes well under a millisecond a world and candidate)."""
EXPERT_BURY_SIMS = 2_400
"""Expert, cut-throat: play-out budget per suit of the trump-and-bury search (× 2)."""
HELP_MELD = 100
"""Expert: the least meld (points) with which a partner bids on over partner's high bid
once both opponents have passed (it can help the contract)."""
EXPERT_BID_WORLDS = 192
"""Expert, partnership: sampled deals per trump suit when bidding and naming trump (the
bid limit is a quantile of their totals, so more deals make it steadier; 192 cost about
4 ms of CPU a decision on the compiled kernel)."""
_VALUE = (0, 0, 0, 10, 10, 10)  # counter value by rank position (scheme A)



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
            hand = mask_of(obs["hand"])
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
        hand = mask_of(obs["hand"])
        opts = obs["options"]
        div = 10 if opts["one_point"] else 1
        if self.level == "weak":
            return (max(meld_totals(hand, opts["extra_kq"])) + 100) // div
        return hand_limit(hand, obs["players"], opts.get("passing", 0), opts["extra_kq"], div)

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
        """Partner: highest trumps, then aces; bidder: the card costing the least meld,
        preferring non-trump non-ace losers (pinochle parts and other meld stay)."""
        trump = obs["trump"]
        cards = [a[1] for a in legal if isinstance(a, tuple)]
        hand = mask_of(cards)
        if obs["seat"] != obs["bidder"]:
            return (K_GIVE, max(cards, key=lambda c: (
                suit_of(c) == trump, c % 6 == ACE, c % 6, -c)))
        return (K_GIVE, _return_card(hand, trump, obs["options"]["extra_kq"]))

    def discard(self, obs: dict[str, Any], legal: Sequence[Action]) -> Action:
        """Cut-throat bid winner: discard non-trump cards outside the meld, no aces,
        counters first (they count for the bidder)."""
        cards = [a[1] for a in legal if isinstance(a, tuple)]
        return (K_DISCARD, _discard_card(mask_of(cards), obs["trump"],
                                         obs["options"]["extra_kq"]))

    def play(self, obs: dict[str, Any], legal: Sequence[Action]) -> Action:
        """Normal card play."""
        cards = [a[1] for a in legal if isinstance(a, tuple)]
        seat = obs["seat"]
        trump = obs["trump"]
        trick = [c for _, c in obs["trick"]]
        played = mask_of(trick)
        for t in obs["tricks"]:
            played |= mask_of([c for _, c in t["cards"]])
        hand = mask_of(obs["hand"])
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
                return (K_PLAY, max(cards, key=lambda c: _smear_key(c, trump)))
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


def _smear_key(c: int, trump: int) -> tuple[int, bool, int]:
    """Preference for a card thrown on partner's sure trick: counters (but never the trump
    10 or A, which win tricks of their own), non-trump first, lower rank first."""
    big_trump = suit_of(c) == trump and c % 6 >= TEN
    return (-1 if big_trump else _VALUE[c % 6], suit_of(c) != trump, -(c % 6))


def _beats(c: int, w: int, trump: int) -> bool:
    cs, ws = suit_of(c), suit_of(w)
    if cs == ws:
        return c % 6 > w % 6
    return cs == trump


class _PlayView:
    """What a card-play search needs from a play-phase observation (masks and numbers)."""

    def __init__(self, obs: dict[str, Any]) -> None:
        opts = obs["options"]
        self.n = n = obs["players"]
        self.me = obs["seat"]
        self.trump = obs["trump"]
        self.relaxed = bool(opts["beat_only_trump_leads"])
        self.values = counter_table(opts["counters"], opts["one_point"])
        div = 10 if opts["one_point"] else 1
        self.bonus = 10 // div
        self.trick = [c for _, c in obs["trick"]]
        self.leader = obs["trick"][0][0] if obs["trick"] else obs["leader"]
        self.sides = 2 if n == 4 else 3
        self.bside = self.side(obs["bidder"])
        self.contract = obs["contract"]
        melds = [0] * self.sides
        for p in range(n):
            melds[self.side(p)] += obs["melds"][p]["value"]
        self.melds = melds
        base = [0] * self.sides
        for t in obs["tricks"]:
            base[self.side(t["winner"])] += sum(self.values[c] for _, c in t["cards"])
        self.known_discards = (mask_of(obs["discards"]) if obs["discards"] is not None else -1)
        self.base = base
        self.hand = mask_of(obs["hand"])
        self.made = 0
        """Whether the bidding side made its contract in the last :meth:`value`."""
        self.exact: tuple[Any, Any] | None = None
        """Four-hand ending searched exactly: the solver's table and stack
        (:meth:`solve_endings`), else ``None`` (play-outs by the fast policy)."""

    def solve_endings(self) -> None:
        """Value the rest of the hand by best play in every world (:func:`kernels.end_points`;
        cut-throat: the bid winner against both opponents) instead of the fast policy's
        play-out."""
        import numpy as np

        table = np.zeros((END_TABLE_ROWS, 7), np.int64)
        table[:, 4] = -1
        self.exact = (table, np.zeros((49, END_FRAME), np.int64))

    def side(self, seat: int) -> int:
        """Scoring side of a seat."""
        return seat % 2 if self.n == 4 else seat

    def trick_array(self) -> Any:
        """The cards of the current trick as the kernels take them (four slots)."""
        import numpy as np

        trick = np.zeros(4, np.int64)
        trick[:len(self.trick)] = self.trick
        return trick

    def kernel_args(self) -> tuple[Any, ...]:
        """The position's arguments of the kernels (:mod:`kernels`), after the worlds."""
        import numpy as np

        return (self.me, self.trick_array(), len(self.trick), self.leader, self.n, self.trump,
                int(self.relaxed), np.array(self.values, np.int64),
                np.array(self.base, np.int64), np.array(self.melds, np.int64),
                self.contract, self.bside, self.bonus, self.known_discards)

    def card_totals(self, worlds: list[list[int]], discards: list[int],
                    cards: list[int]) -> list[float]:
        """Per card, the summed side result over ``worlds`` (world order, then card
        order: the same sums as adding :meth:`value` up in Python)."""
        import numpy as np

        totals = np.zeros(len(cards), np.float64)
        KERNELS.card_values(np.array(worlds, np.int64), np.array(discards, np.int64),
                            np.array(cards, np.int64), len(cards), len(worlds),
                            *self.kernel_args(), *_work(), totals)
        return [float(t) for t in totals]

    def value(self, hands: list[int], discards: int) -> float:
        """Side result of playing ``hands`` out from the current trick (fast policy, or
        best play after :meth:`solve_endings`)."""
        side_pts = self.base[:]
        if self.exact is not None:
            import numpy as np

            pts = np.zeros(4, np.int64)
            KERNELS.exact_points(np.array([*hands, 0][:4], np.int64), self.trick_array(),
                                 len(self.trick), self.leader, self.n, self.bside, self.trump,
                                 int(self.relaxed), np.array(self.values, np.int64),
                                 self.bonus, *self.exact, pts)
            for s in range(self.sides):
                side_pts[s] += int(pts[s])
        else:
            pts_list, last = play_out(hands, self.trick, self.leader, self.n, self.trump,
                                      self.relaxed, self.values)
            for p in range(self.n):
                side_pts[self.side(p)] += pts_list[p]
            side_pts[self.side(last)] += self.bonus
        if self.n == 3:
            d = self.known_discards if self.known_discards >= 0 else discards
            side_pts[self.bside] += mask_points(d, self.values)
        delta = hand_delta(self.contract, self.bside, self.melds, side_pts)
        self.made = int(self.melds[self.bside] + side_pts[self.bside] >= self.contract)
        mine = self.side(self.me)
        return float(delta[mine] - (sum(delta) - delta[mine]) / (self.sides - 1))


def _work() -> tuple[Any, ...]:
    """Scratch buffers of the play-out kernels: hands, trick points, side points."""
    import numpy as np

    return np.zeros(4, np.int64), np.zeros(4, np.int64), np.zeros(3, np.int64)


CHUNK_WORLDS = 32
"""Worlds per call of the card-search kernel (the time cap is checked between calls)."""


@dataclass
class CardSearch:
    """A card search's sums: per card the summed side result and the number of worlds in
    which the bidding side made its contract, over ``worlds`` sampled worlds."""

    totals: list[float]
    made: list[int]
    worlds: int


def card_search(view: _PlayView, dealer: Dealer, cards: list[int], worlds: int,
                rng: random.Random, seconds: float | None = None,
                min_worlds: int = 1) -> CardSearch:
    """Every card played out in up to ``worlds`` worlds sampled by ``dealer`` (fewer when
    ``seconds`` ran out after ``min_worlds``).

    The compiled kernel (:func:`kernels.search_cards`) deals the worlds exactly as
    ``dealer.deal(rng)`` would, drawing from ``rng``'s own generator, and plays the cards
    out; a world that needs the dealer's fallback is dealt in Python. The sums are those of
    the plain-Python search, world by world and card by card.
    """
    import numpy as np

    start = time.thread_time()  # the cap counts this thread's CPU time, not others' load
    totals = np.zeros(len(cards), np.float64)
    made = np.zeros(len(cards), np.int64)
    setup = dealer.kernel_args()
    cand = np.array(cards, np.int64)
    position = view.kernel_args()
    work = np.zeros((WORK_ROWS, 48), np.int64)
    exact = (1, *view.exact) if view.exact is not None else (
        0, np.zeros((1, 7), np.int64), np.zeros((1, END_FRAME), np.int64))
    infer = int(dealer.auction is not None)
    done = 0
    state = mt_state(rng) if setup is not None else None  # ``rng``'s state while in use
    while done < worlds:
        k = worlds - done if seconds is None else min(CHUNK_WORLDS, worlds - done)
        got = 0
        if state is not None and setup is not None:
            got = KERNELS.search_cards(k, dealer.tries, infer, cand, len(cards), *position,
                                       *setup, state, work, totals, made, *exact)
            done += got
        if got < k:  # this world needs the dealer's fallback (or the quick dealer cannot)
            if state is not None:
                set_mt_state(rng, state)
            hands, disc = dealer.deal(rng) if setup is None else dealer.fallback(rng)
            for i, c in enumerate(cards):
                hs = hands[:]
                hs[view.me] ^= 1 << c
                view.trick.append(c)
                totals[i] += view.value(hs, disc)
                made[i] += view.made
                view.trick.pop()
            done += 1
            if state is not None:
                state = mt_state(rng)
        if seconds is not None and done >= min_worlds and done < worlds \
                and time.thread_time() - start >= seconds:
            break
    if state is not None:
        set_mt_state(rng, state)
    return CardSearch([float(t) for t in totals], [int(m) for m in made], done)


def deal_worlds(dealer: Dealer, trump: int, count: int, rng: random.Random) -> Any:
    """``count`` worlds of ``dealer`` as an int64 array (every seat's hand per row), dealt
    in the compiled kernel (:func:`kernels.deal_worlds`) exactly as ``count`` calls of
    ``dealer.deal(rng)`` deal them; a world that needs the dealer's fallback is dealt in
    Python."""
    import numpy as np

    n = dealer.n
    worlds = np.zeros((count, n), np.int64)
    setup = dealer.kernel_args()
    infer = int(dealer.auction is not None)
    work = np.zeros((WORK_ROWS, 48), np.int64)
    done = 0
    while done < count:
        if setup is not None:
            state = mt_state(rng)
            done += KERNELS.deal_worlds(count - done, dealer.tries, infer, n, dealer.me,
                                        trump, *setup, state, work, worlds[done:])
            set_mt_state(rng, state)
        if done < count:
            hands, _disc = dealer.deal(rng) if setup is None else dealer.fallback(rng)
            worlds[done] = hands
            done += 1
    return worlds


def _candidate_cards(legal: Sequence[Action]) -> list[tuple[int, int]]:
    """One legal action per distinct card face (the two copies play alike)."""
    out: dict[int, tuple[int, int]] = {}
    for a in legal:
        assert isinstance(a, tuple)
        out.setdefault(a[1] % 24, (a[0], a[1]))
    return list(out.values())


def _sensible(obs: dict[str, Any], cands: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Drop candidates that good partners do not play, whatever a sample says:

    * an early trump lead (first half of the hand) from a hand with fewer than five trumps
      and side cards to lead;
    * the trump ace as last to play when a cheaper card also wins the trick for the side
      (partner already winning, or a lower trump beats the winner).
    """
    trump = obs["trump"]
    trick = obs["trick"]
    hand = mask_of(obs["hand"])
    out = cands
    if not trick:
        trumps = (hand & SUIT_MASK[trump]).bit_count()
        if trumps < 5 and hand & ~SUIT_MASK[trump] and len(obs["tricks"]) < 6:
            out = [b for b in cands if suit_of(b[1]) != trump]
    elif len(trick) == obs["players"] - 1:
        cards = [c for _, c in trick]
        wi = winning_index(cards, trump)
        w = cards[wi]
        partner_wins = _partner_side(obs, obs["seat"], trick[wi][0])

        def side_wins(c: int) -> bool:
            return _beats(c, w, trump) or partner_wins

        if any(suit_of(c) != trump or c % 6 != ACE for c in (b[1] for b in cands)
               if side_wins(c)):
            out = [b for b in cands if not (suit_of(b[1]) == trump and b[1] % 6 == ACE
                                            and side_wins(b[1]))]
    return out or cands


class SearchPlayer(HeuristicPlayer):
    """Strong: normal bidding/passing, determinized search for card play.

    ``samples`` worlds consistent with the observation (:class:`world.Dealer`); each
    distinct candidate card is played out in every world with the fast normal policy;
    the best mean side result wins.
    """

    def __init__(self, samples: int = STRONG_WORLDS, seconds: float | None = None) -> None:
        super().__init__("normal")
        self.name = "strong"
        self.samples = samples
        self.seconds = seconds
        self.last_stats: dict[str, float] = {}

    def choose(self, observation: dict[str, Any], legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        """Search card play; heuristics elsewhere."""
        self.last_stats = {"worlds": 0, "simulations": 0}
        cards = [a for a in legal_actions if isinstance(a, tuple) and a[0] == K_PLAY]
        if len(cards) <= 1 or len(cards) != len(legal_actions):
            return super().choose(observation, legal_actions, rng)
        cands = _sensible(observation, _candidate_cards(cards))
        if len(cands) == 1:
            return cands[0]
        view = _PlayView(observation)
        found = card_search(view, Dealer(observation), [b[1] for b in cands], self.samples,
                            rng, self.seconds, min(24, self.samples))
        totals = dict(zip(cands, found.totals, strict=True))
        self.last_stats = {"worlds": found.worlds, "simulations": found.worlds * len(cands)}
        return max(cands, key=lambda b: (totals[b], -b[1]))


class ExpertPlayer(HeuristicPlayer):
    """Expert: simulation bidding and trump choice, meld-keeping passes, and card play by
    determinized search over many worlds (same worlds for every candidate card).

    Worlds respect everything the seat has seen: voids and "no higher card" inferences,
    shown melds and the cards it passed (:func:`world._assign`). Play-outs use the fast
    bitmask policy (:mod:`fast`). ``sims`` play-outs per card decision (at least
    ``min_worlds`` worlds); ``bid_worlds`` sampled deals per suit when bidding.
    From ``end_cards`` cards in hand on (cut-throat: ``end_cards3``), every world's ending
    is solved exactly (:func:`kernels.end_points`) instead of played out, in at most
    ``end_worlds`` worlds (0: as many as the budget gives).
    """

    def __init__(self, sims: int = 2400, min_worlds: int = 60, max_worlds: int = 1200,
                 bid_worlds: int = 48, make_prob: float = 0.6, infer_bids: bool = True,
                 seconds: float | None = None, bury_sims: int | None = None,
                 end_cards: int = 0, end_worlds: int = 0, end_cards3: int = 0) -> None:
        super().__init__("normal")
        self.name = "expert"
        self.end_cards = end_cards
        self.end_cards3 = end_cards3
        self.end_worlds = end_worlds
        self.infer_bids = infer_bids
        self.seconds = seconds
        self.bury_sims = sims if bury_sims is None else bury_sims
        self.sims = sims
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds
        self.bid_worlds = bid_worlds
        self.make_prob = make_prob
        self.last_stats: dict[str, float] = {}
        self._cache: dict[tuple[Any, ...], list[list[int]]] = {}

    def choose(self, observation: dict[str, Any], legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        """Search card play, simulate bids and trump; heuristics elsewhere."""
        self.last_stats = {"worlds": 0, "simulations": 0}
        kinds = {a[0] for a in legal_actions if isinstance(a, tuple)}
        if K_PLAY in kinds and len(legal_actions) > 1:
            return self._play(observation, legal_actions, rng)
        if K_BID in kinds:
            return self._bid(observation, legal_actions, rng)
        if K_DISCARD in kinds:
            return self._discard(observation, legal_actions, rng)
        if K_TRUMP in kinds and observation["players"] == 3:
            return (K_TRUMP, self._bury_search(observation, [0, 1, 2, 3], rng)[0])
        if K_TRUMP in kinds:
            table = self._estimates(observation, rng)
            contract = observation["contract"]
            return (K_TRUMP, max(range(4), key=lambda s: (
                sum(t if t >= contract else -contract for t in table[s]), -s)))
        return super().choose(observation, legal_actions, rng)

    # -- card play ------------------------------------------------------------------------
    def _play(self, obs: dict[str, Any], legal: Sequence[Action],
              rng: random.Random) -> Action:
        cands = _sensible(obs, _candidate_cards(legal))
        prefer = self.play(obs, legal)
        if len(cands) == 1:
            return cands[0]
        found = self._card_search(obs, cands, rng)
        totals = found.totals
        worlds = found.worlds
        best = max(totals)
        # Within a tenth of a point per world the heuristic choice stands.
        near = [b for b, t in zip(cands, totals, strict=True) if t >= best - 0.1 * worlds]
        pf = prefer[1] % 24 if isinstance(prefer, tuple) else -1
        for b in near:
            if b[1] % 24 == pf:
                return b
        return near[0] if len(near) == 1 else max(
            near, key=lambda b: (totals[cands.index(b)], -b[1]))

    def evaluate(self, observation: dict[str, Any], legal_actions: Sequence[Action],
                 rng: random.Random) -> list[ActionEvaluation]:
        """The search's evaluation of every candidate (the two copies of a card merged),
        from the deciding seat's side. Card play: the mean hand result (its side's score
        change minus the mean of the others') over this level's sampled worlds, and the
        chance that the bidding side makes its contract. Naming trump (partnership): per
        suit, the mean bidding-side result over the bidding simulations and the chance of
        making the contract. Other decisions: an empty list. Stable interface for hints
        and reviews."""
        kinds = {a[0] for a in legal_actions if isinstance(a, tuple)}
        if K_PLAY in kinds:
            cands = _candidate_cards(legal_actions)
            found = self._card_search(observation, cands, rng)
            n = found.worlds
            return [ActionEvaluation(b, t / n, m / n, "contract made", n)
                    for b, t, m in zip(cands, found.totals, found.made, strict=True)]
        if K_TRUMP in kinds and observation["players"] == 4:
            table = self._estimates(observation, rng)
            contract = observation["contract"]
            out = []
            for suit in range(4):
                totals = table[suit]
                made = [t >= contract for t in totals]
                mean = sum(t if ok else -contract for t, ok in zip(totals, made, strict=True))
                out.append(ActionEvaluation((K_TRUMP, suit), mean / len(totals),
                                            sum(made) / len(totals), "contract made",
                                            len(totals)))
            return out
        return []

    def solves_ending(self, obs: dict[str, Any]) -> bool:
        """True if this card decision's worlds are solved exactly (at most ``end_cards``
        cards in hand, cut-throat ``end_cards3``)."""
        return len(obs["hand"]) <= (self.end_cards if obs["players"] == 4
                                    else self.end_cards3)

    def _card_search(self, obs: dict[str, Any], cands: list[tuple[int, int]],
                     rng: random.Random) -> CardSearch:
        """The candidates played out on the same sampled worlds, within the budget."""
        worlds = max(self.min_worlds, min(self.max_worlds, -(-self.sims // len(cands))))
        view = _PlayView(obs)
        if self.solves_ending(obs):
            view.solve_endings()
            if self.end_worlds:
                worlds = min(worlds, self.end_worlds)
        found = card_search(view, Dealer(obs, infer_bids=self.infer_bids),
                            [b[1] for b in cands], worlds, rng, self.seconds,
                            min(self.min_worlds, worlds))
        self.last_stats = {"worlds": found.worlds, "simulations": found.worlds * len(cands)}
        return found

    # -- cut-throat trump and discard ----------------------------------------------------
    def _discard(self, obs: dict[str, Any], legal: Sequence[Action],
                 rng: random.Random) -> Action:
        """Bury the next card of the best plan found by :meth:`_bury_search`."""
        _suit, card = self._bury_search(obs, [obs["trump"]], rng)
        return (K_DISCARD, card)

    def _bury_search(self, obs: dict[str, Any], suits: list[int],
                     rng: random.Random) -> tuple[int, int]:
        """Cut-throat bid winner: the best (trump, cards to bury) plan by play-outs.

        Per trump suit, every set of cards still to bury that keeps the most meld (one
        per distinct face set) is a plan; all plans are played out on the same sampled
        worlds, the weaker half dropped after each round and the worlds doubled.
        Returns the plan's trump and one of its cards."""
        opts = obs["options"]
        extra = opts["extra_kq"]
        hand = mask_of(obs["hand"])
        need = 3 - obs["discard_count"]
        plans: list[tuple[int, int, int, int]] = []  # (suit, buried mask, a card, meld)
        for s in suits:
            best_meld = -1
            faces: dict[tuple[int, ...], tuple[int, int]] = {}
            for combo in combinations(bit_list(hand), need):
                gone = mask_of(combo)
                meld = meld_total(hand & ~gone, s, extra)
                if meld < best_meld:
                    continue
                if meld > best_meld:
                    best_meld = meld
                    faces = {}
                faces.setdefault(tuple(sorted(c % 24 for c in combo)), (gone, combo[0]))
            plans += [(s, gone, c, best_meld) for gone, c in sorted(faces.values())]
        if len(plans) == 1:
            return plans[0][0], plans[0][2]
        me = obs["seat"]
        div = 10 if opts["one_point"] else 1
        values = counter_table(opts["counters"], opts["one_point"])
        relaxed = bool(opts["beat_only_trump_leads"])
        bonus = 10 // div
        buried = mask_points(mask_of(obs["discards"] or []), values)
        contract = obs["contract"]
        dealer = Dealer(obs, infer_bids=self.infer_bids)
        totals = [0.0] * len(plans)
        alive = list(range(len(plans)))
        budget = 2 * self.bury_sims * len(suits)
        worlds = max(4, -(-budget // (3 * len(plans))))
        used = 0
        import numpy as np

        plan_suit = np.array([p[0] for p in plans], np.int64)
        plan_gone = np.array([p[1] for p in plans], np.int64)
        plan_meld = np.array([p[3] for p in plans], np.int64)
        sums = np.zeros(len(plans), np.float64)
        bufs = [np.zeros(4, np.int64) for _ in range(6)]
        while True:
            batch = deal_worlds(dealer, obs["trump"] if obs["trump"] is not None else 0,
                                worlds, rng)
            KERNELS.bury_values(batch, worlds, np.array(alive, np.int64),
                                len(alive), plan_suit, plan_gone, plan_meld, hand, me,
                                int(relaxed), np.array(values, np.int64), bonus, buried,
                                contract, int(bool(extra)), div, *bufs, sums)
            totals = [float(t) for t in sums]
            used += worlds * len(alive)
            if len(alive) <= 2 or used >= budget:
                break
            alive.sort(key=lambda i: -totals[i])
            alive = alive[:max(2, len(alive) // 2)]
            worlds *= 2
        self.last_stats = {"worlds": worlds, "simulations": used}
        best = plans[max(alive, key=lambda i: (totals[i], -i))]
        return best[0], best[2]

    # -- bidding and trump ----------------------------------------------------------------
    def _estimates(self, obs: dict[str, Any], rng: random.Random) -> list[list[int]]:
        """Per trump suit, the simulated bidding-side totals (meld + trick points) if this
        seat plays the contract, one per sampled deal (same deals for every suit).
        Partnership: partner's pass and the return are simulated; cut-throat: the widow
        taken and three cards buried (:func:`bid_simulation3`)."""
        key = (obs["game"], obs["seat"], obs["hand_number"], obs["dealer"],
               tuple(obs["hand"]), tuple(obs["scores"]), obs["phase"] == "trump",
               len(obs["bids"]) if self.infer_bids else 0)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        auction = AuctionCheck(obs) if self.infer_bids else None
        deals = bidding_deals(obs, rng, auction, self.bid_worlds)
        table = (bid_simulation3 if obs["players"] == 3 else bid_simulation)(obs, deals)[0]
        out: list[list[int]] = table.tolist()
        self.last_stats = {"worlds": self.bid_worlds, "simulations": 4 * self.bid_worlds}
        if len(self._cache) > 64:
            self._cache.clear()
        self._cache[key] = out
        return out

    @staticmethod
    def _bidding_deal(obs: dict[str, Any], rng: random.Random,
                      auction: AuctionCheck | None, tries: int = 8) -> list[int]:
        """Every seat's hand in one sampled deal; with ``auction`` the first of ``tries``
        deals that fits the bids and passes so far, else the one straying least."""
        def draw() -> list[int]:
            placed = _assign(obs, rng, strict=False)
            base = [0] * obs["players"]
            base[obs["seat"]] = mask_of(obs["hand"])
            for p, m in placed["hands"].items():
                base[p] = m
            return base

        if auction is None or not auction.evidence:
            return draw()
        best = least_straying(draw, auction.violation, tries, 0)
        assert best is not None  # every draw succeeds
        return best

    def bid_limit_sim(self, obs: dict[str, Any], rng: random.Random) -> int:
        """Highest bid whose simulated chance of being made is at least ``make_prob``."""
        table = self._estimates(obs, rng)
        step = obs["bid_step"]
        prob = self.make_prob
        best = 0
        for totals in table:
            ordered = sorted(totals, reverse=True)
            k = max(0, min(len(ordered) - 1, int(prob * len(ordered)) - 1))
            best = max(best, ordered[k] // step * step)
        return best

    def _bid(self, obs: dict[str, Any], legal: Sequence[Action],
             rng: random.Random) -> Action:
        raise_to = [a for a in legal if isinstance(a, tuple) and a[0] in (K_BID, K_JUMP)
                    and a[1] > 0]
        if not raise_to:
            return (K_BID, 0)
        hb = obs["high_bidder"]
        if obs["players"] == 4 and hb is not None and hb % 2 == obs["seat"] % 2:
            return raise_to[0] if self._bids_on(obs, raise_to[0][1], rng) else (K_BID, 0)
        if raise_to[0][1] <= self.bid_limit_sim(obs, rng):
            return raise_to[0]
        return (K_BID, 0)

    def _bids_on(self, obs: dict[str, Any], amount: int, rng: random.Random) -> bool:
        """Over partner's high bid once both opponents have passed: a partner who can
        help (:func:`helps_partner`) keeps bidding while its simulated chance of making
        ``amount`` itself reaches ``make_prob``; otherwise it leaves partner's bid alone
        (as before the opponents passed)."""
        return helps_partner(obs) and amount <= self.bid_limit_sim(obs, rng)


def helps_partner(obs: dict[str, Any]) -> bool:
    """Partnership auction: both opponents have passed and this seat holds at least
    ``HELP_MELD`` meld in some suit (it may bid on over partner's high bid)."""
    seat = obs["seat"]
    opponents = ((seat + 1) % 4, (seat + 3) % 4)
    if obs["players"] != 4:
        return False
    if not all(any(s == o and a == 0 for s, a in obs["bids"]) for o in opponents):
        return False
    return max(meld_totals(mask_of(obs["hand"]), obs["options"]["extra_kq"])) >= HELP_MELD


def bidding_deals(obs: dict[str, Any], rng: random.Random, auction: AuctionCheck | None,
                  count: int, tries: int = 8) -> Any:
    """``count`` sampled deals of the bidding simulation as an int64 array (one row of
    every seat's hand per deal), dealt in the compiled kernel (:func:`kernels.
    bidding_deals`) exactly as ``count`` calls of :meth:`ExpertPlayer._bidding_deal`
    deal them, drawing from ``rng``'s own generator."""
    import numpy as np

    n = obs["players"]
    cap, hidden, allowed, everywhere, _forbid = _setup(obs, strict=False)
    cards = np.array(bit_list(hidden) or [0], np.int64)
    allow = np.array([allowed.get(c, everywhere) for c in range(48)], np.int64)
    rows: list[list[int]] = []
    allowance = slack = 0
    if auction is not None and auction.evidence:
        rows = [[p, made, declined, auction.add[p], auction.remove[p]]
                for p, made, declined in auction.evidence]
        allowance = PASS_ALLOWANCE[auction.passing] if n == 4 else WIDOW_ALLOWANCE
        slack = auction.slack
    opts = obs["options"]
    deals = np.zeros((count, n), np.int64)
    state = mt_state(rng)
    got = KERNELS.bidding_deals(count, tries, n, obs["seat"], mask_of(obs["hand"]), cards,
                                hidden.bit_count(), allow, np.array(cap, np.int64),
                                int(bool(opts["extra_kq"])),
                                10 if opts["one_point"] else 1,
                                np.array(rows or [[0, 0, 0, 0, 0]], np.int64), len(rows),
                                allowance, slack, state, np.zeros((5, 48), np.int64), deals)
    set_mt_state(rng, state)
    if got < count:  # as the Python sampler, which fails the same way
        raise AssertionError("no consistent placement of the hidden cards")
    return deals


def bid_simulation(obs: dict[str, Any], deals: Any) -> tuple[Any, Any]:
    """The partnership bidding simulation on sampled ``deals`` (:func:`bidding_deals`), in
    the compiled kernel (:func:`kernels.bid_totals`): per trump suit and deal, the side's
    total if this seat plays the contract (``table[suit][deal]``), and its parts
    (``parts[0]`` own meld, ``parts[1]`` partner's meld, ``parts[2]`` trick points)."""
    import numpy as np

    opts = obs["options"]
    div = 10 if opts["one_point"] else 1
    values = counter_table(opts["counters"], opts["one_point"])
    count = len(deals)
    table = np.zeros((4, count), np.int64)
    parts = np.zeros((3, 4, count), np.int64)
    bufs = [np.zeros(4, np.int64) for _ in range(3)]
    KERNELS.bid_totals(deals, count, obs["seat"], opts.get("passing", 0),
                       int(bool(opts["extra_kq"])), div,
                       int(bool(opts["beat_only_trump_leads"])), np.array(values, np.int64),
                       10 // div, *bufs, table, parts)
    return table, parts


def bid_simulation3(obs: dict[str, Any], deals: Any) -> tuple[Any, Any]:
    """The cut-throat bidding simulation on sampled ``deals`` (:func:`bidding_deals`, the
    widow being the cards of no hand), in the compiled kernel (:func:`kernels.
    bid_totals3`): per trump suit and deal, this seat's total if it wins the bid, takes
    the widow and buries three cards by the discard rule (``table[suit][deal]``), and its
    parts (``parts[0]`` the kept meld, ``parts[1]`` buried counters + trick points)."""
    import numpy as np

    opts = obs["options"]
    div = 10 if opts["one_point"] else 1
    values = counter_table(opts["counters"], opts["one_point"])
    count = len(deals)
    table = np.zeros((4, count), np.int64)
    parts = np.zeros((2, 4, count), np.int64)
    bufs = [np.zeros(3, np.int64) for _ in range(3)]
    KERNELS.bid_totals3(deals, count, obs["seat"], int(bool(opts["extra_kq"])), div,
                        int(bool(opts["beat_only_trump_leads"])), np.array(values, np.int64),
                        10 // div, *bufs, table, parts)
    return table, parts


def _partner_pass_card(hand: int, trump: int) -> int:
    """Partner's pass: highest trump, then aces, then the highest card (section 18.2)."""
    t = hand & SUIT_MASK[trump]
    for m in (t, hand & RANK_MASK[ACE]):
        if m:
            for r in range(5, -1, -1):
                x = m & RANK_MASK[r]
                if x:
                    return low(x)
    return max(bit_list(hand), key=lambda c: (c % 6, -c))


def _shed_card(hand: int, trump: int, extra_kq: bool, counters_first: bool) -> int:
    """The card to give away: the one whose loss costs the least meld, then non-trump,
    non-ace, then counters last or first, low rank (never a pinochle part or other meld
    card while another card will do)."""
    full = meld_total(hand, trump, extra_kq)
    best = -1
    best_key: tuple[int, ...] = ()
    for c in bit_list(hand):
        loss = full - meld_total(hand ^ (1 << c), trump, extra_kq)
        value = -_VALUE[c % 6] if counters_first else _VALUE[c % 6]
        key = (loss, suit_of(c) == trump, c % 6 == ACE, value, c % 6, c)
        if best < 0 or key < best_key:
            best, best_key = c, key
    return best


def _return_card(hand: int, trump: int, extra_kq: bool) -> int:
    """Bidder's return: the cheapest card that costs the least meld (counters kept)."""
    return _shed_card(hand, trump, extra_kq, False)


def _discard_card(hand: int, trump: int, extra_kq: bool) -> int:
    """Cut-throat discard: the card that costs the least meld, counters first (they count
    for the bidder)."""
    return _shed_card(hand, trump, extra_kq, True)


def make_player(level: str, seed: int = 0) -> HeuristicPlayer:
    """A computer player of ``level`` (weak, normal, strong, expert)."""
    if level == "expert":
        return ExpertPlayer(sims=EXPERT_SIMS, min_worlds=EXPERT_MIN_WORLDS,
                            max_worlds=EXPERT_MAX_WORLDS, bid_worlds=EXPERT_BID_WORLDS,
                            seconds=EXPERT_SECONDS, bury_sims=EXPERT_BURY_SIMS,
                            end_cards=EXPERT_END_CARDS, end_worlds=EXPERT_END_WORLDS,
                            end_cards3=EXPERT_END_CARDS3)
    if level == "strong":
        return SearchPlayer(STRONG_WORLDS, STRONG_SECONDS)
    if level in ("weak", "normal"):
        return HeuristicPlayer(level)
    raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")


__all__ = ["LEVELS", "ExpertPlayer", "HeuristicPlayer", "SearchPlayer", "helps_partner",
           "make_player"]
