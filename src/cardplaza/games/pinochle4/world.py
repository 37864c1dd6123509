"""Invariants, hidden-card permutation and the determinizer for both Pinochle variants.

Hidden places seen from a seat: the other hands, the giver's card selection while passing
(unless the seat is the giver), the face-down widow (cut-throat, before the bid is won) and
the cut-throat discards (unless the seat is the bid winner). Cards whose place a seat knows
stay put: meld cards not yet played, the cards it passed (with the receiver), the exposed
widow (with the bid winner: hand or discards). :func:`sample_world` also respects what the
play revealed (section 17): voids, "no trump", and "no higher card" when beating was due.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from cardplaza.core.cards import bit_list, mask_of
from cardplaza.core.options import options_from_dict
from cardplaza.core.protocol import TERMINAL, GameState
from cardplaza.games.pinochle4.auction import (
    PASS_ALLOWANCE,
    WIDOW_ALLOWANCE,
    bid_evidence,
    hand_limit,
    violation,
)
from cardplaza.games.pinochle4.engine import (
    OVER,
    PASSING,
    PHASE_NAMES,
    PLAY,
    CutthroatOptions,
    CutthroatState,
    Options,
    PinochleState,
)
from cardplaza.games.pinochle4.meld import MeldResult, meld_total
from cardplaza.games.pinochle4.rules import (
    ABOVE,
    FULL_MASK,
    SUIT_MASK,
    mask_points,
    winning_index,
)


class _Ordered(Protocol):
    def __lt__(self, other: Any, /) -> bool: ...


T = TypeVar("T")
K = TypeVar("K", bound=_Ordered)


def check_invariants(state: GameState) -> None:
    """48 cards conserved; trick points 250 (25) per played hand; scores add up."""
    assert isinstance(state, PinochleState)
    s = state
    places = [*s.hands, s.pending, s.widow, s.discards, *s.won, mask_of(s.trick)]
    total = 0
    for m in places:
        assert total & m == 0, "a card is in two places"
        total |= m
    assert total == FULL_MASK, "cards lost or duplicated"
    assert sum(m.bit_count() for m in places) == 48
    if s.n == 3 and s.phase != OVER:
        assert s.discards.bit_count() <= 3
    for entry in s.log:
        if entry.get("trick_points") is not None:
            assert sum(entry["trick_points"]) == s.trick_total, "trick points do not add up"
    sums = [0] * len(s.scores)
    for entry in s.log:
        for i, d in enumerate(entry.get("score_change") or ()):
            sums[i] += d
    assert sums == s.scores, "scores differ from the sum of hand results"
    if s.phase == PLAY:
        sizes = [h.bit_count() for h in s.hands]
        played = {(s.leader + i) % s.n for i in range(len(s.trick))}
        base = max(sizes)
        for p in range(s.n):
            assert sizes[p] == base - (1 if p in played and len(played) < s.n else 0) or \
                sizes[p] == base, "hand sizes out of step"
        won_pts = sum(mask_points(m, s.counters) for m in s.won)
        assert won_pts <= s.trick_total


def _reveal_constraints(obs: dict[str, Any]) -> dict[int, int]:
    """Per seat, cards it cannot hold now according to the play so far (section 17)."""
    trump = obs["trump"]
    relaxed_opt = obs["options"]["beat_only_trump_leads"]
    forbid: dict[int, int] = {}
    tricks = [t["cards"] for t in obs["tricks"]]
    if obs["trick"]:
        tricks.append(obs["trick"])
    for cards in tricks:
        led = cards[0][1] % 24 // 6
        relaxed = relaxed_opt and led != trump
        seq: list[int] = []
        for seat, c in cards:
            if seq:
                w = seq[winning_index(seq, trump)]
                ws, wr = w % 24 // 6, w % 6
                cs = c % 24 // 6
                f = 0
                if cs != led:
                    f |= SUIT_MASK[led]
                    if cs != trump:
                        f |= SUIT_MASK[trump]
                    elif not relaxed and ws == trump and not (
                            cs == ws and c % 6 > wr):
                        f |= ABOVE[trump][wr]
                elif not relaxed and ws == led and not c % 6 > wr:
                    f |= ABOVE[led][wr]
                forbid[seat] = forbid.get(seat, 0) | f
            seq.append(c)
    return forbid


_Setup = tuple[list[int], int, dict[int, int], int, dict[int, int]]


def _setup(obs: dict[str, Any], strict: bool) -> _Setup:
    """The hidden places of ``obs['seat']``: capacity per place (0..n-1 hands, n pending,
    n+1 widow, n+2 discards), hidden cards, allowed places of the cards whose place is
    partly known, every place, and the cards each seat cannot hold (``strict``)."""
    n = obs["players"]
    me = obs["seat"]
    phase = PHASE_NAMES.index(obs["phase"])
    played = 0
    for t in obs["tricks"]:
        for _, c in t["cards"]:
            played |= 1 << c
    for _, c in obs["trick"]:
        played |= 1 << c
    visible = mask_of(obs["hand"]) | played
    passing = obs.get("passing")
    giver = passing["giver"] if passing else None
    if passing and giver == me:
        visible |= mask_of(passing["selected"])
    if obs["discards"] is not None:
        visible |= mask_of(obs["discards"])
    hidden = FULL_MASK & ~visible
    # Places: 0..n-1 hands, n pending, n+1 widow, n+2 discards.
    cap = [0] * (n + 3)
    for p in range(n):
        if p != me:
            cap[p] = obs["hand_sizes"][p]
    if passing and giver is not None and giver != me:
        cap[n] = passing["pending_count"]
    if n == 3 and obs["widow"] is None and phase != OVER:
        cap[n + 1] = 3
    if n == 3 and obs["discards"] is None:
        cap[n + 2] = obs["discard_count"]
    assert sum(cap) == hidden.bit_count(), "observation does not account for every card"
    everywhere = sum(1 << i for i in range(n + 3) if cap[i])
    allowed: dict[int, int] = {}
    if obs["melds"] is not None and phase != OVER:
        for p in range(n):
            if p == me:
                continue
            for c in obs["melds"][p]["cards"]:
                if hidden >> c & 1:
                    allowed[c] = 1 << p
    if passing and passing["gave"]:
        receiver = (me + 2) % 4
        where = 1 << receiver | (1 << n if giver == receiver else 0)
        for c in passing["gave"]:
            if hidden >> c & 1:
                allowed[c] = allowed.get(c, where) & where or where
    if n == 3 and obs["widow"] and obs["bidder"] != me:
        where = 1 << obs["bidder"] | 1 << (n + 2)
        for c in obs["widow"]:
            if hidden >> c & 1:
                allowed[c] = allowed.get(c, where) & where or where
    forbid = _reveal_constraints(obs) if strict and obs["trump"] is not None else {}
    return cap, hidden, allowed, everywhere, forbid


def _assign(obs: dict[str, Any], rng: random.Random, strict: bool) -> dict[str, Any]:
    """Random placement of the cards hidden from ``obs['seat']`` into their hidden places.

    Returns ``{"hands": {seat: mask}, "pending": mask, "widow": mask, "discards": mask}``.
    """
    n = obs["players"]
    me = obs["seat"]
    cap, hidden, allowed, everywhere, forbid = _setup(obs, strict)
    cards = bit_list(hidden)
    for attempt in range(60):
        use_forbid = attempt < 50
        rng.shuffle(cards)
        per_card = []
        for c in cards:
            a = allowed.get(c, everywhere)
            if use_forbid:
                for p, f in forbid.items():
                    if p != me and f >> c & 1 and a & ~(1 << p):
                        a &= ~(1 << p)
            per_card.append((a.bit_count(), c, a))
        per_card.sort(key=lambda t: t[0])
        left = cap[:]
        out = [0] * (n + 3)
        ok = True
        for _, c, a in per_card:
            opts = [i for i in range(n + 3) if a >> i & 1 and left[i]]
            if not opts:
                ok = False
                break
            total = sum(left[i] for i in opts)
            r = rng.randrange(total)
            for i in opts:
                r -= left[i]
                if r < 0:
                    break
            left[i] -= 1
            out[i] |= 1 << c
        if ok:
            return {"hands": {p: out[p] for p in range(n) if p != me}, "pending": out[n],
                    "widow": out[n + 1], "discards": out[n + 2]}
    raise AssertionError("no consistent placement of the hidden cards")


def _played_by_seat(obs: dict[str, Any]) -> dict[int, int]:
    """Mask of the cards each seat has played so far (finished tricks and the current one)."""
    played: dict[int, int] = {}
    for t in obs["tricks"]:
        for seat, c in t["cards"]:
            played[seat] = played.get(seat, 0) | 1 << c
    for seat, c in obs["trick"]:
        played[seat] = played.get(seat, 0) | 1 << c
    return played


def _melds_consistent(obs: dict[str, Any], hands: dict[int, int]) -> bool:
    """True if every other hand (plus what it played since) melds what it showed."""
    if obs["melds"] is None or obs["phase"] == "over":
        return True
    played = _played_by_seat(obs)
    div = 10 if obs["options"]["one_point"] else 1
    extra = obs["options"]["extra_kq"]
    for p, hand in hands.items():
        full = hand | played.get(p, 0)
        if meld_total(full, obs["trump"], extra) // div != obs["melds"][p]["value"]:
            return False
    return True


class Dealer:
    """Fast repeated sampling of the hidden cards for one observation (the search players).

    The constraints of :func:`_assign` (strict) are prepared once; each :meth:`deal` places
    the cards whose place is restricted one by one (weighted by free room) and the rest
    by one shuffle. Deals whose hands would not give the melds shown are redrawn a few
    times. Returns every seat's hand and the cut-throat discards.
    """

    def __init__(self, obs: dict[str, Any], tries: int = 12, infer_bids: bool = False) -> None:
        n = obs["players"]
        me = obs["seat"]
        self.obs = obs
        self.n, self.me, self.tries = n, me, tries
        self.auction = AuctionCheck(obs) if infer_bids else None
        cap, hidden, allowed, everywhere, forbid = _setup(obs, True)
        fixed = [0] * (n + 3)
        left = cap[:]
        constrained: list[tuple[int, int]] = []
        free: list[int] = []
        for c in bit_list(hidden):
            a = allowed.get(c, everywhere)
            for p, f in forbid.items():
                if p != me and f >> c & 1 and a & ~(1 << p):
                    a &= ~(1 << p)
            if a.bit_count() == 1:
                i = a.bit_length() - 1
                fixed[i] |= 1 << c
                left[i] -= 1
            elif a == everywhere:
                free.append(c)
            else:
                constrained.append((c, a))
        self.ok = min(left) >= 0
        self.fixed, self.left, self.constrained, self.free = fixed, left, constrained, free
        self.places = [i for i in range(n + 3) if cap[i]]
        self.own = mask_of(obs["hand"])
        self.check: list[tuple[int, int]] = []
        if obs["melds"] is not None and obs["phase"] != "over":
            played = _played_by_seat(obs)
            self.check = [(p, played.get(p, 0)) for p in range(n) if p != me]
        self.div = 10 if obs["options"]["one_point"] else 1

    def kernel_args(self) -> tuple[Any, ...] | None:
        """The arguments of :func:`kernels.search_cards` that describe this dealer (own
        hand … slack), or ``None`` when its constraints leave no room (then only the
        Python :meth:`deal`, with its fallback, can deal)."""
        import numpy as np

        if not self.ok:
            return None
        n = self.n
        obs = self.obs
        opts = obs["options"]
        cons = self.constrained
        ccards = np.array([c for c, _ in cons] or [0], np.int64)
        callowed = np.array([a for _, a in cons] or [0], np.int64)
        free = np.array(self.free or [0], np.int64)
        melds = obs["melds"]
        check = np.array([[p, played, melds[p]["value"]] for p, played in self.check]
                         or [[0, 0, 0]], np.int64)
        auction = self.auction
        rows: list[list[int]] = []
        widow_owner = -1
        allowance = 0
        slack = 0
        if auction is not None:
            rows = [[p, made, declined, auction.add[p], auction.remove[p]]
                    for p, made, declined in auction.evidence]
            widow_owner = auction.widow_owner
            allowance = PASS_ALLOWANCE[auction.passing] if n == 4 else WIDOW_ALLOWANCE
            slack = auction.slack
        evidence = np.array(rows or [[0, 0, 0, 0, 0]], np.int64)
        return (self.own, np.array(self.fixed, np.int64), np.array(self.left, np.int64),
                np.array(self.places, np.int64), len(self.places), ccards, callowed,
                len(cons), free, len(self.free), int(bool(opts["extra_kq"])), self.div,
                check, len(self.check), evidence, len(rows), widow_owner, allowance, slack)

    def _once(self, rng: random.Random) -> list[int] | None:
        left = self.left[:]
        out = self.fixed[:]
        cons = self.constrained[:]
        rng.shuffle(cons)
        cons.sort(key=lambda ca: ca[1].bit_count())
        for c, a in cons:
            opts = [i for i in self.places if a >> i & 1 and left[i] > 0]
            if not opts:
                return None
            r = rng.randrange(sum(left[i] for i in opts))
            for i in opts:
                r -= left[i]
                if r < 0:
                    break
            left[i] -= 1
            out[i] |= 1 << c
        free = self.free[:]
        rng.shuffle(free)
        k = 0
        for i in self.places:
            m = out[i]
            for c in free[k:k + left[i]]:
                m |= 1 << c
            k += left[i]
            out[i] = m
        return out

    def _consistent(self, out: list[int]) -> bool:
        obs = self.obs
        melds = obs["melds"]
        trump = obs["trump"]
        extra = obs["options"]["extra_kq"]
        for p, played in self.check:
            if meld_total(out[p] | played, trump, extra) // self.div != melds[p]["value"]:
                return False
        return True

    def deal(self, rng: random.Random) -> tuple[list[int], int]:
        """Every seat's hand (own hand included) and the discards of one sampled world.

        With ``infer_bids`` the first world that melds as shown and fits the auction is
        taken, else of the tries the one that strays least from it.
        """
        best = None
        if self.ok and self.auction is not None:
            auction = self.auction
            best = least_straying(
                lambda: self._once(rng),
                lambda out: (0 if self._consistent(out) else 1, auction.violation(out)),
                self.tries, (0, 0))
        elif self.ok:
            for _ in range(self.tries):
                out = self._once(rng)
                if out is None:
                    continue
                best = out
                if self._consistent(out):
                    break
        if best is None:
            return self.fallback(rng)
        hands = best[:self.n]
        hands[self.me] = self.own
        return hands, best[self.n + 2]

    def fallback(self, rng: random.Random) -> tuple[list[int], int]:
        """:meth:`deal`'s world when no quick placement works (:func:`_assign`)."""
        placed = _assign(self.obs, rng, strict=True)
        hands = [0] * self.n
        for p, m in placed["hands"].items():
            hands[p] = m
        hands[self.me] = self.own
        return hands, placed["discards"]


def least_straying(draw: Callable[[], T | None], stray: Callable[[T], K], tries: int,
                   fits: K) -> T | None:
    """Of up to ``tries`` draws (``None`` draws skipped), the first whose ``stray`` key is
    ``fits``, else the one with the smallest key (the first among equals)."""
    best: T | None = None
    best_key: K | None = None
    for _ in range(tries):
        out = draw()
        if out is None:
            continue
        key = stray(out)
        if best_key is None or key < best_key:
            best, best_key = out, key
            if key == fits:
                break
    return best


class AuctionCheck:
    """Scores a sampled world against the auction (:mod:`auction`), taking each seat's
    hand as it was when bidding: its sampled hand with the cards it has played since;
    for the observer's partner also the cards it passed to the observer back and those
    it received from the observer removed; for a cut-throat bid winner its discards back
    and the widow removed. The opponents' own exchange stays unknown and is ignored."""

    def __init__(self, obs: dict[str, Any]) -> None:
        n = obs["players"]
        me = obs["seat"]
        opts = obs["options"]
        self.evidence = bid_evidence(obs)
        self.slack = 2 * obs["bid_step"]
        self.div = 10 if opts["one_point"] else 1
        self.n, self.passing, self.extra = n, opts.get("passing", 0), opts["extra_kq"]
        played = _played_by_seat(obs)
        self.add = {p: played.get(p, 0) for p, _, _ in self.evidence}
        self.remove = dict.fromkeys(self.add, 0)
        passing = obs["passing"]
        partner = (me + 2) % 4
        if passing is not None and partner in self.add:
            self.add[partner] |= mask_of(passing["received"])
            self.remove[partner] |= mask_of(passing["gave"])
        bidder = obs["bidder"]
        self.widow_owner = -1
        if n == 3 and bidder is not None and bidder in self.add and obs["widow"]:
            self.widow_owner = bidder
            self.remove[bidder] |= mask_of(obs["widow"])

    def violation(self, out: list[int]) -> int:
        """Bid units by which the world's hands stray from the auction (0: they fit)."""
        limits = {}
        for p, _, _ in self.evidence:
            hand = out[p] | self.add[p]
            if p == self.widow_owner:
                hand |= out[self.n + 2]
            limits[p] = hand_limit(hand & ~self.remove[p], self.n, self.passing, self.extra,
                                   self.div)
        return violation(limits, self.evidence, self.slack)


def permute_unseen(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy where the cards ``seat`` cannot see are re-dealt among their hidden places."""
    assert isinstance(state, PinochleState)
    obs = state.observation(seat)
    placed = _assign(obs, rng, strict=False)
    out = state.clone()
    for p, m in placed["hands"].items():
        out.hands[p] = m
    if obs["passing"] and obs["passing"]["giver"] not in (None, seat):
        out.pending = placed["pending"]
    if out.n == 3:
        if obs["widow"] is None and out.phase != OVER:
            out.widow = placed["widow"]
        if obs["discards"] is None:
            out.discards = placed["discards"]
    return out


def sample_world(obs: dict[str, Any], rng: random.Random) -> GameState:
    """A full state consistent with ``obs`` (the determinizer of the computer players)."""
    three = obs["game"] == "pinochle3"
    opts = options_from_dict(CutthroatOptions if three else Options, dict(obs["options"]))
    cls = CutthroatState if three else PinochleState
    st = cls(opts, 0, _blank=True)
    st.rng = random.Random(rng.getrandbits(64))
    n = st.n
    me = obs["seat"]
    st.dealer = obs["dealer"]
    st.hand_no = obs["hand_number"]
    st.phase = PHASE_NAMES.index(obs["phase"])
    st.is_terminal = st.phase == OVER
    st.turn = obs["to_act"] if obs["to_act"] != TERMINAL else TERMINAL
    st.scores = list(obs["scores"])
    st.winner = -1 if obs["winner"] is None else obs["winner"]
    st.log = list(obs["history"])
    st.last_hand = obs["last_hand"]
    st.bids = [(s, a) for s, a in obs["bids"]]
    st.passed = sum(1 << s for s in range(n) if obs["passed"][s])
    st.high_bid = obs["high_bid"] or 0
    st.high_bidder = -1 if obs["high_bidder"] is None else obs["high_bidder"]
    st.bidder = -1 if obs["bidder"] is None else obs["bidder"]
    st.contract = obs["contract"] or 0
    st.stuck = obs["stuck_dealer"]
    st.trump = -1 if obs["trump"] is None else obs["trump"]
    st.melds = (None if obs["melds"] is None
                else [MeldResult.from_json(m) for m in obs["melds"]])
    st.leader = obs["leader"] if obs["leader"] is not None else -1
    if st.phase == PLAY and obs["trick"]:
        st.leader = obs["trick"][0][0]
    st.trick = [c for _, c in obs["trick"]]
    st.tricks = [(t["leader"], tuple(c for _, c in t["cards"]), t["winner"])
                 for t in obs["tricks"]]
    for _, cs, w in st.tricks:
        st.won[w] |= mask_of(list(cs))
    placed = _assign(obs, rng, strict=True)
    for _ in range(30):  # prefer worlds whose hands give exactly the melds shown
        if _melds_consistent(obs, placed["hands"]):
            break
        placed = _assign(obs, rng, strict=True)
    st.hands[me] = mask_of(obs["hand"])
    for p, m in placed["hands"].items():
        st.hands[p] = m
    passing = obs["passing"]
    if passing is not None:
        st.giver = passing["giver"] if passing["giver"] is not None else -1
        st.pending = (mask_of(passing["selected"]) if st.giver == me else placed["pending"])
        partner = (me + 2) % 4
        if passing["gave"]:
            st.given[me] = mask_of(passing["gave"])
        if passing["received"]:
            st.given[partner] = mask_of(passing["received"])
        for p in range(n):
            if passing["done"][p] and not st.given[p]:
                receiver = (p + 2) % 4
                pool = st.hands[receiver] | st.won[0] | st.won[1] | st.won[2] | st.won[3]
                pool |= mask_of(st.trick)
                st.given[p] = mask_of(sorted(bit_list(pool))[:passing["count"]])
    if three:
        st.widow = placed["widow"] if obs["widow"] is None and st.phase != OVER else 0
        st.widow_cards = mask_of(obs["widow"]) if obs["widow"] else 0
        st.discards = (mask_of(obs["discards"]) if obs["discards"] is not None
                       else placed["discards"])
    if st.phase == PASSING and st.giver < 0:
        st.giver = st.turn
    return st


def first_deal_returns(state: GameState) -> list[float] | None:
    """Each seat's side score change of the game's first hand once it is scored (None
    before; all-pass redeals are skipped): the arena's one-hand measure."""
    assert isinstance(state, PinochleState)
    for entry in state.log:
        delta = entry.get("score_change")
        if delta is not None:
            return [float(delta[state.team(s)]) for s in range(state.n)]
    return None
