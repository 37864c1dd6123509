"""Computer players of double-deck Pinochle: ``weak`` and ``normal`` (below), ``strong``
and ``expert`` (card search on the compiled kernel; see their classes).

Every decision uses only the seat's observation and the player's RNG.

* ``weak``: bids the next amount while it stays within its best meld + 25 (no meld bids),
  names the suit of its best meld, passes and plays uniformly random legal cards.
* ``normal``:

  - *Auction* (section 8): in the first round, below 60, a hand with meld makes a meld bid,
    raising the bid by one for every ten meld (at most five); partner's meld bids are read
    the same way (an opening of 50 + k shows 10·k). A hand that can play bids on to its
    limit: its best meld, the meld partner showed (or a guess), the counters a declaring
    side takes with its trump length and aces, and what passing brings. It does not stop
    only because the opponents passed: over partner's meld bid it takes the contract when
    it holds the longer trump suit and the side's figure reaches the next bid.
  - *Trump*: the suit with the best meld plus length and high trumps.
  - *Passing*: partner gives trump (highest first) and aces, then a pinochle part (Q♠,
    J♦) of its own that is likely to complete a pinochle in the declarer's hand, keeping
    its own meld when it costs more than the card brings; the declarer returns what it
    cannot use: no aces, nothing of its meld, short side suits first, and no trump unless
    the other choice breaks aces or kings around (one trump back saves the around).
  - *Play*: the declarer's side first cashes side aces and keeps trump control (no trump
    lead before the side aces are out unless trump is all it holds; then it leads trump
    when it holds most of the trumps still out). On partner's trick that is secured (last
    to play, or nobody behind can beat it) a player throws counters, not its trump A or 10;
    against an opponent it wins with the cheapest card that wins, else throws the least
    valuable card. The declarer throws the hand in when even all counters cannot make it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from cardplaza.core.protocol import Action
from cardplaza.games.pinochle_dd.bidsim import Outcomes
from cardplaza.games.pinochle_dd.engine import (
    K_BID,
    K_GIVE,
    K_PLAY,
    K_THROW_IN,
    K_TRUMP,
    MIN_BID,
    MIN_MELD,
    PASS,
    THROW_IN,
    bid_allowed,
    bid_kind,
    next_allowed,
)
from cardplaza.games.pinochle_dd.meld import meld_total, meld_totals
from cardplaza.games.pinochle_dd.rules import (
    ACE,
    COPIES,
    DIAMONDS,
    FACES,
    JACK,
    KING,
    QUEEN,
    RANK_OF,
    SPADES,
    SUIT_OF,
    TEN,
    beats,
    counts,
    face,
    from_counts,
    remove,
    winning_index,
)

LEVELS = ("weak", "normal", "strong", "expert")
WEAK_MARGIN = 25
"""Weak: bids up to its best meld plus this."""
PARTNER_GUESS = 12
"""Normal: the meld guessed for a partner that has not shown any."""
PASS_GAIN = {0: 0, 2: 4, 3: 6, 4: 8}
"""Normal: meld and counters a declarer expects from the cards passed (by count)."""


def _tally(faces: Sequence[int]) -> list[int]:
    out = [0] * FACES
    for f in faces:
        out[f] += 1
    return out


def _is_counter(f: int, scheme: str) -> bool:
    r = RANK_OF[f]
    return r in (TEN, ACE) or (r == KING and scheme == "aces-tens-kings")


def suit_length(cnt: Sequence[int], s: int) -> int:
    """Cards of suit ``s`` in a hand given as per-face counts."""
    return sum(cnt[5 * s:5 * s + 5])


def best_trump(hand: int) -> int:
    """The suit with the best meld, then length and high trumps (the normal choice)."""
    cnt = counts(hand)
    totals = meld_totals(hand)

    def key(s: int) -> tuple[float, int]:
        length = suit_length(cnt, s)
        high = cnt[5 * s + ACE] + cnt[5 * s + TEN]
        return (totals[s] + 3 * length + 2 * high, -s)

    return max(range(4), key=key)


PINOCHLE_PARTS = (face(SPADES, QUEEN), face(DIAMONDS, JACK))
"""The faces of a pinochle: Q♠ and J♦."""
PART_GAIN = 16
"""Normal, partner's pass: the weight of the chance that a pinochle part completes a
pinochle in the declarer's hand (below an ace's 20 and a trump's 30, above junk)."""
RETURN_TRUMP = 34
"""Normal, declarer's return: the cost of returning a trump outside the meld (above a
short side suit's ace, below breaking aces or kings around)."""
UNSEEN_BY_PARTNER = 60
"""Cards a seat does not hold: the other three hands."""


def completes_pinochle(cnt: Sequence[int], f: int) -> float:
    """The chance that one more copy of pinochle part ``f`` (Q♠ or J♦) makes one more
    pinochle in the declarer's 20 cards, drawn from the 60 cards this seat (holding the
    copies ``cnt``) does not hold: the declarer holds more of the other part than of
    ``f``."""
    from math import comb

    other = PINOCHLE_PARTS[1] if f == PINOCHLE_PARTS[0] else PINOCHLE_PARTS[0]
    out_f = COPIES - cnt[f]
    out_o = COPIES - cnt[other]
    rest = UNSEEN_BY_PARTNER - out_f - out_o
    total = comb(UNSEEN_BY_PARTNER, 20)
    p = 0
    for a in range(out_f + 1):
        for b in range(a + 1, out_o + 1):
            if a + b <= 20:
                p += comb(out_f, a) * comb(out_o, b) * comb(rest, 20 - a - b)
    return p / total


def meld_bids(bids: Sequence[Sequence[int]], scale: int) -> dict[int, int]:
    """The meld (unit scale) each meld bid shows, by its index in ``bids`` (section 8): a
    bid below 60 in the bidder's first round raising the bid by k (1 to 5) shows about
    10·k; an opening of 50 + k the same."""
    shown: dict[int, int] = {}
    high = 0
    spoke: set[int] = set()
    for i, (seat, amount) in enumerate(bids):
        unit = amount // scale
        if unit:
            if seat not in spoke and unit < 60:
                step = unit - (high if high else MIN_BID)
                if 1 <= step <= 5:
                    shown[i] = 10 * step
            high = unit
        spoke.add(seat)
    return shown


MELD_SIGN_WIDTH = 10
"""A meld bid showing ``m`` meld: the bidder's best meld lies in ``m`` .. ``m + 9``."""
PASS_SIGN_HIGH = 54
"""A seat passing at its first turn with the high bid at most this (a meld bid still
possible) shows less than ten meld."""


def auction_signs(obs: dict[str, Any]) -> dict[int, tuple[int, int]]:
    """Per seat (not this one) the range ``lo`` .. ``hi`` (inclusive) its best meld is
    shown to lie in by the auction so far (unit scale): a meld bid of ``10·k`` shows that
    much meld (the best meld lies within ten above it), a pass at the seat's first turn
    while a meld bid was still possible shows less than ten."""
    k = obs["scale"]
    bids = obs["bids"]
    shown = meld_bids(bids, k)
    out: dict[int, tuple[int, int]] = {}
    spoke: set[int] = set()
    high = 0
    for i, (seat, amount) in enumerate(bids):
        unit = amount // k
        if seat not in spoke and seat != obs["seat"]:
            if i in shown:
                out[seat] = (shown[i], shown[i] + MELD_SIGN_WIDTH - 1)
            elif unit == 0 and high <= PASS_SIGN_HIGH:
                out[seat] = (0, 9)
        if unit:
            high = unit
        spoke.add(seat)
    return out


def opponents_passed(bids: Sequence[Sequence[int]], seat: int) -> bool:
    """Both opponents of ``seat`` have passed in this auction."""
    return all(any(s == o and a == 0 for s, a in bids) for o in ((seat + 1) % 4, (seat + 3) % 4))


def meld_bid(obs: dict[str, Any], meld: int, high: int, lowest: int) -> Action | None:
    """The meld bid (section 8) of a seat with ``meld`` at its first turn while the high bid
    ``high`` (unit scale) is below 60: one point above the high bid (or the minimum) per
    ten of meld, up to five; ``None`` when it makes none."""
    seat = obs["seat"]
    if meld < 10 or high >= 60 or any(s == seat for s, _ in obs["bids"]):
        return None
    steps = obs["options"]["bid_steps"]
    amount = (high if high else MIN_BID) + min(5, meld // 10)
    if lowest <= amount < 60 and bid_allowed(amount, steps):
        return (bid_kind(amount, high, steps), amount * obs["scale"])
    return None


def bid_window(obs: dict[str, Any]) -> tuple[int, int]:
    """The high bid (0 before any) and the lowest bid allowed over it, unit scale."""
    high = (obs["high_bid"] or 0) // obs["scale"]
    return high, next_allowed(high, obs["options"]["bid_steps"])


def first_since_opponents_passed(obs: dict[str, Any]) -> bool:
    """True if the seat to speak has not spoken since the later of its opponents'
    passes (or since the start, while they have not both passed)."""
    seat = obs["seat"]
    bids = obs["bids"]
    opponents = ((seat + 1) % 4, (seat + 3) % 4)
    outs = [i for i, (s, a) in enumerate(bids) if s in opponents and a == 0]
    last_out = max(outs) if outs else -1
    return not any(i > last_out for i, (s, _) in enumerate(bids) if s == seat)


def meld_signals(obs: dict[str, Any]) -> dict[int, int]:
    """Meld (unit scale) each seat showed by a meld bid this auction."""
    bids = obs["bids"]
    return {bids[i][0]: meld for i, meld in meld_bids(bids, obs["scale"]).items()}


class HeuristicPlayer:
    """The weak or normal computer player (see the module docstring)."""

    def __init__(self, level: str = "normal") -> None:
        if level not in LEVELS[:2]:
            raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
        self.name = level
        self.level = level

    def choose(self, observation: dict[str, Any], legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        """Pick one of ``legal_actions`` from the observation alone."""
        obs = observation
        kinds = {a[0] for a in legal_actions if isinstance(a, tuple)}
        if K_BID in kinds:
            return self.bid(obs, legal_actions)
        if K_TRUMP in kinds:
            return (K_TRUMP, self.trump(obs))
        if self.level == "weak":
            cards = [a for a in legal_actions if a != THROW_IN]
            return cards[rng.randrange(len(cards))]
        if K_GIVE in kinds:
            return (K_GIVE, self.give(obs, legal_actions))
        if K_THROW_IN in kinds and self.concede(obs):
            return THROW_IN
        return (K_PLAY, self.play(obs, [a[1] for a in legal_actions  # type: ignore[index]
                                        if a != THROW_IN]))

    # -- auction --------------------------------------------------------------------------
    def trump(self, obs: dict[str, Any]) -> int:
        """The trump suit to name."""
        hand = from_counts(_tally(obs["hand"]))
        if self.level == "weak":
            totals = meld_totals(hand)
            return max(range(4), key=lambda s: (totals[s], -s))
        return best_trump(hand)

    def limit(self, obs: dict[str, Any], partner_meld: int | None = None) -> int:
        """The highest contract (unit scale) this hand would play."""
        hand = from_counts(_tally(obs["hand"]))
        best = max(meld_totals(hand))
        if self.level == "weak":
            return best + WEAK_MARGIN
        cnt = counts(hand)
        s = best_trump(hand)
        length = suit_length(cnt, s)
        aces = sum(cnt[5 * t + ACE] for t in range(4))
        scheme = obs["options"]["counters"]
        scale = 1.0 if scheme == "aces-tens-kings" else 34 / 50
        counters = scale * (20 + 1.5 * max(0, length - 5) + 0.8 * aces)
        partner = PARTNER_GUESS if partner_meld is None else partner_meld
        return int(meld_totals(hand)[s] + partner + counters + PASS_GAIN[obs["options"][
            "pass_count"]])

    def bid(self, obs: dict[str, Any], legal: Sequence[Action]) -> Action:
        """Meld bids, then bids up to the limit (see the module docstring)."""
        k = obs["scale"]
        partner = (obs["seat"] + 2) % 4
        high, lowest = bid_window(obs)
        if lowest > obs["max_bid"] // k:
            return PASS
        signals = meld_signals(obs)
        if self.level == "weak":
            return (K_BID, lowest * k) if lowest <= self.limit(obs) else PASS
        hand = from_counts(_tally(obs["hand"]))
        meld = max(meld_totals(hand))
        partner_meld = signals.get(partner)
        if partner_meld is None and any(s == partner and a == 0 for s, a in obs["bids"]):
            partner_meld = 5  # partner passed at once: little meld
        limit = self.limit(obs, partner_meld)
        shown = meld_bid(obs, meld, high, lowest)
        if shown is not None:
            return shown
        hb = obs["high_bidder"]
        if hb == partner:
            # Over partner's meld bid: take the contract with the longer trump suit when
            # the side's figure reaches the next bid (do not stop because the opponents
            # passed); over partner's bid to play, let it play.
            cnt = counts(hand)
            length = suit_length(cnt, best_trump(hand))
            if high < 60 and partner in signals and length >= 7 and lowest <= limit:
                return (K_BID, lowest * k)
            return PASS
        if lowest <= limit:
            return (K_BID, lowest * k)
        return PASS

    # -- passing --------------------------------------------------------------------------
    def give(self, obs: dict[str, Any], legal: Sequence[Action]) -> int:
        """Partner: trump and aces; declarer: what it cannot use."""
        trump = obs["trump"]
        hand = from_counts(_tally(obs["hand"]))
        cnt = counts(hand)
        before = meld_total(hand, trump)
        faces: list[int] = [a[1] for a in legal if isinstance(a, tuple)]
        declarer = obs["seat"] == obs["bidder"]

        def loss(f: int) -> int:
            return before - meld_total(remove(hand, f), trump)

        if not declarer:
            def value(f: int) -> tuple[float, int]:
                gain = 0.0
                if SUIT_OF[f] == trump:
                    gain = 30 + 3 * RANK_OF[f]
                elif RANK_OF[f] == ACE:
                    gain = 20
                if f in PINOCHLE_PARTS:
                    gain += PART_GAIN * completes_pinochle(cnt, f)
                return (gain - 2 * loss(f), f)
            return max(faces, key=value)

        def cost(f: int) -> tuple[float, int]:
            s = SUIT_OF[f]
            c = 4.0 * loss(f)
            if s == trump:
                # A trump outside the meld goes back rather than an around broken (aces
                # or kings around cost more); its suit's length does not add here.
                return (c + RETURN_TRUMP + RANK_OF[f], f)
            if RANK_OF[f] == ACE:
                c += 25
            c += 1.5 * suit_length(cnt, s) + 0.5 * RANK_OF[f]
            return (c, f)
        return min(faces, key=cost)

    # -- play -----------------------------------------------------------------------------
    def concede(self, obs: dict[str, Any]) -> bool:
        """Throw in when even every counter cannot make the contract."""
        k: int = obs["scale"]
        bside: int = obs["bidder"] % 2
        meld: int = (obs["melds"][bside]["value"] + obs["melds"][bside + 2]["value"]) // k
        if obs["options"]["save_meld"] == "20-counters" and meld < MIN_MELD:
            meld = 0
        total: int = obs["counters_total"] // k
        contract: int = obs["contract"] // k
        return meld + total < contract

    def play(self, obs: dict[str, Any], cards: list[int]) -> int:
        """A card by the normal heuristics."""
        trump: int = obs["trump"]
        seat: int = obs["seat"]
        scheme: str = obs["options"]["counters"]
        trick = [f for _, f in obs["trick"]]
        hand = _tally(obs["hand"])
        out = _unseen(obs, hand)
        if not trick:
            return self._lead(obs, cards, hand, out)
        wi = winning_index(trick, trump)
        w = trick[wi]
        w_seat = obs["trick"][wi][0]
        behind = [(seat + i) % 4 for i in range(1, 4 - len(trick))]
        if w_seat % 2 == seat % 2:
            if self._secured(obs, w, trick, behind, out):
                return max(cards, key=lambda f: _smear_key(f, trump, scheme))
            return min(cards, key=lambda f: _cheap_key(f, trump, scheme))
        winning = [f for f in cards if beats(f, w, trump)]
        if winning:
            # The cheapest card that wins now; a sure winner if one exists.
            return min(winning, key=lambda f: (SUIT_OF[f] == trump, RANK_OF[f]))
        return min(cards, key=lambda f: _cheap_key(f, trump, scheme))

    def _secured(self, obs: dict[str, Any], w: int, trick: list[int], behind: list[int],
                 out: list[int]) -> bool:
        """True if no seat still to play can beat partner's winning card ``w``."""
        if not behind:
            return True
        trump = obs["trump"]
        led = SUIT_OF[trick[0]]
        voids = _voids(obs)
        higher = sum(out[g] for g in range(FACES)
                     if SUIT_OF[g] == SUIT_OF[w] and RANK_OF[g] > RANK_OF[w])
        if higher:
            return False
        if SUIT_OF[w] == trump:
            return True
        trumps_out = sum(out[5 * trump:5 * trump + 5])
        early = len(obs["tricks"]) < 6
        return trumps_out == 0 or (early and all(led not in voids.get(p, set())
                                                 for p in behind))

    def _lead(self, obs: dict[str, Any], cards: list[int], hand: list[int],
              out: list[int]) -> int:
        trump: int = obs["trump"]
        scheme: str = obs["options"]["counters"]
        declaring = obs["bidder"] % 2 == obs["seat"] % 2
        side = [f for f in cards if SUIT_OF[f] != trump]
        # Cash side aces (an identical later ace cannot beat the first).
        aces = [f for f in side if RANK_OF[f] == ACE]
        if aces:
            return max(aces, key=lambda f: (out[f], -f))
        trumps = [f for f in cards if SUIT_OF[f] == trump]
        mine = suit_length(hand, trump)
        theirs = sum(out[5 * trump:5 * trump + 5])
        if declaring and trumps and (not side or mine > theirs):
            # Draw trumps with the top trump when it is the highest still out.
            top = max(trumps, key=lambda f: RANK_OF[f])
            higher_out = any(out[g] for g in range(5 * trump, 5 * trump + 5)
                             if RANK_OF[g] > RANK_OF[top])
            if not higher_out:
                return top
            return min(trumps, key=lambda f: RANK_OF[f])
        # Otherwise a card from a side suit that is the highest still out, else a low one.
        tops = [f for f in side if not any(out[g] for g in range(5 * SUIT_OF[f],
                                                                 5 * SUIT_OF[f] + 5)
                                           if RANK_OF[g] > RANK_OF[f])]
        if tops:
            return max(tops, key=lambda f: (RANK_OF[f], -f))
        pool = side or cards
        return min(pool, key=lambda f: _cheap_key(f, trump, scheme))


def _unseen(obs: dict[str, Any], hand: list[int]) -> list[int]:
    """Copies of each face the seat has not seen played nor holds (others' hands)."""
    out = [COPIES - n for n in hand]
    for t in obs["tricks"]:
        for _, f in t["cards"]:
            out[f] -= 1
    for _, f in obs["trick"]:
        out[f] -= 1
    return out


def _voids(obs: dict[str, Any]) -> dict[int, set[int]]:
    """Suits each seat has shown it lacks."""
    out: dict[int, set[int]] = {}
    for t in obs["tricks"]:
        led = SUIT_OF[t["cards"][0][1]]
        for seat, f in t["cards"][1:]:
            if SUIT_OF[f] != led:
                out.setdefault(seat, set()).add(led)
    return out


def _smear_key(f: int, trump: int, scheme: str) -> tuple[int, bool, int]:
    """Preference on partner's secured trick: counters first, not the trump A or 10."""
    big_trump = SUIT_OF[f] == trump and RANK_OF[f] >= TEN
    return (-1 if big_trump else int(_is_counter(f, scheme)), SUIT_OF[f] != trump,
            RANK_OF[f])


def _cheap_key(f: int, trump: int, scheme: str) -> tuple[bool, bool, int]:
    """Least valuable first: no counter, no trump, low rank."""
    return (_is_counter(f, scheme), SUIT_OF[f] == trump, RANK_OF[f])


def make_player(level: str, seed: int) -> HeuristicPlayer:
    """The computer player of a level (the ``players`` hook)."""
    if level == "strong":
        return StrongPlayer()
    if level == "expert":
        return ExpertPlayer()
    return HeuristicPlayer(level)


# -- strong: determinized search ---------------------------------------------------------

STRONG_WORLDS = 40
"""Strong: sampled worlds per card decision (every candidate card played out in each)."""


def _rollout_card(hands: list[int], seat: int, trick: list[int], trump: int,
                  must_head: bool, scheme: str, declaring_side: int, played: int) -> int:
    """The card the quick play-out policy (the normal heuristics, seeing the world's other
    hands as "still out") plays for ``seat``."""
    from cardplaza.games.pinochle_dd.rules import LOW20, legal_faces

    hand = hands[seat]
    legal = legal_faces(hand, trick, trump, must_head)
    cards = [f for f in range(FACES) if legal >> f & 1]
    if len(cards) == 1:
        return cards[0]
    others = hands[(seat + 1) % 4] | hands[(seat + 2) % 4] | hands[(seat + 3) % 4]
    held_out = others & LOW20  # faces somebody else still holds
    if not trick:
        side = [f for f in cards if SUIT_OF[f] != trump]
        aces = [f for f in side if RANK_OF[f] == ACE]
        if aces:
            return aces[0]
        trumps = [f for f in cards if SUIT_OF[f] == trump]
        if seat % 2 == declaring_side and trumps:
            mine = sum(count_face(hand, g) for g in range(5 * trump, 5 * trump + 5))
            theirs = sum(count_face(hands[(seat + k) % 4], g)
                         for k in (1, 2, 3) for g in range(5 * trump, 5 * trump + 5))
            if not side or mine > theirs:
                top = trumps[-1]
                if not any(held_out >> g & 1 for g in range(top + 1, 5 * trump + 5)):
                    return top
                return trumps[0]
        tops = [f for f in side if not any(held_out >> g & 1
                                           for g in range(f + 1, 5 * SUIT_OF[f] + 5))]
        if tops:
            return tops[-1]
        pool = side or cards
        return min(pool, key=lambda f: _cheap_key(f, trump, scheme))
    wi = winning_index(trick, trump)
    w = trick[wi]
    leader = (seat - len(trick)) % 4
    w_seat = (leader + wi) % 4
    if w_seat % 2 == seat % 2:
        last = len(trick) == 3
        higher = any(held_out >> g & 1 for g in range(w + 1, 5 * SUIT_OF[w] + 5))
        if last or (not higher and (SUIT_OF[w] == trump or played < 24)):
            return max(cards, key=lambda f: _smear_key(f, trump, scheme))
        return min(cards, key=lambda f: _cheap_key(f, trump, scheme))
    winning = [f for f in cards if beats(f, w, trump)]
    if winning:
        return min(winning, key=lambda f: (SUIT_OF[f] == trump, RANK_OF[f]))
    return min(cards, key=lambda f: _cheap_key(f, trump, scheme))


def count_face(mask: int, f: int) -> int:
    """Copies of face ``f`` in a multiset mask."""
    from cardplaza.games.pinochle_dd.rules import COLUMN

    return (mask & COLUMN[f]).bit_count()


class StrongPlayer(HeuristicPlayer):
    """Normal auction and passing; each card chosen by determinized search: ``worlds``
    worlds of the hidden cards consistent with the observation (voids, melds shown,
    passes), every candidate card played out in each by the quick policy on the compiled
    kernel, best average side result. A fixed number of worlds and no clock: the same
    card on any machine, however loaded."""

    end_tricks = 0
    """Cards in hand from which each world's rest of the hand is searched exactly (none)."""

    def __init__(self, worlds: int = STRONG_WORLDS, seconds: float | None = None) -> None:
        super().__init__("normal")
        self.name = "strong"
        self.worlds = worlds
        self.seconds = math.inf if seconds is None else seconds

    def play(self, obs: dict[str, Any], cards: list[int]) -> int:
        """The card with the best average result over sampled worlds."""
        if len(cards) == 1:
            return cards[0]
        rng = random.Random(len(obs["tricks"]) * 131 + len(obs["trick"]) * 7 + obs["seat"])
        rows = self.card_rows(obs, cards, rng, self.worlds, self.seconds)
        totals = [sum(row[i] for row in rows) for i in range(len(cards))]
        best = max(range(len(cards)), key=lambda i: (totals[i], -i))
        return cards[best]

    def card_rows(self, obs: dict[str, Any], cards: list[int], rng: random.Random,
                  most: int, seconds: float) -> list[list[float]]:
        """Per sampled world (at most ``most``; with a finite ``seconds``, at least
        ``EXPERT_MIN_WORLDS`` and dealing for about ``seconds`` of CPU), the side's margin
        (its score change minus the other side's) after each candidate card, the hand
        played out by the kernel (searched exactly with ``end_tricks`` cards in hand or
        fewer, in at most ``EXPERT_END_WORLDS`` worlds)."""
        import time

        import numpy as np

        from cardplaza.games.pinochle_dd.engine import hand_scores, options_from_obs
        from cardplaza.games.pinochle_dd.kernels import END_FIELDS, KERNELS
        from cardplaza.games.pinochle_dd.rules import COUNTER_FACES
        from cardplaza.games.pinochle_dd.world import Places

        me = obs["seat"]
        trump = obs["trump"]
        hand = _tally(obs["hand"])
        options = options_from_obs(obs)
        k = obs["scale"]
        bside = obs["bidder"] % 2
        contract = obs["contract"] // k
        melds = obs["melds"]
        side_melds = [(melds[0]["value"] + melds[2]["value"]) // k,
                      (melds[1]["value"] + melds[3]["value"]) // k]
        counter_faces = COUNTER_FACES[options.counters]
        counter = np.array([counter_faces >> f & 1 for f in range(FACES)], np.int64)
        won = [0, 0]
        taken = [0, 0]
        for t in obs["tricks"]:
            side_no = t["winner"] % 2
            taken[side_no] += 1
            won[side_no] += sum(int(counter[f]) for _, f in t["cards"])
        trick0 = np.zeros(4, np.int64)
        for i, (_, f) in enumerate(obs["trick"]):
            trick0[i] = f
        leader0 = obs["trick"][0][0] if obs["trick"] else me
        played0 = sum(len(t["cards"]) for t in obs["tricks"]) + len(obs["trick"])
        places = Places(obs, strict=True)
        exact = len(obs["hand"]) <= self.end_tricks
        if exact:
            most = min(most, EXPERT_END_WORLDS)
        worlds = np.zeros((most, 4 * FACES), np.int64)
        start = time.process_time()
        n = 0
        while n < most:
            if n >= EXPERT_MIN_WORLDS and time.process_time() - start > seconds:
                break
            for _ in range(min(EXPERT_BATCH, most - n)):
                placed = places.place(rng)
                for p in range(4):
                    worlds[n, FACES * p:FACES * p + FACES] = hand if p == me else placed[p]
                n += 1
        cands = np.array(cards, np.int64)
        out = np.zeros((n, len(cards), 4), np.int64)
        if exact:
            left = int(worlds[0].sum())
            KERNELS.end_values(worlds[:n].copy(), n, me, cands, len(cards), trick0,
                               len(obs["trick"]), leader0, trump, int(options.must_head),
                               counter, np.zeros(4 * FACES, np.int64),
                               np.zeros(4 + left, np.int64), np.zeros(4, np.int64),
                               np.zeros((left, END_FIELDS), np.int64), out)
        else:
            KERNELS.card_values(worlds[:n].copy(), n, me, cands, len(cards), trick0,
                                len(obs["trick"]), leader0, trump, int(options.must_head),
                                counter, bside, played0, np.zeros(4 * FACES, np.int64),
                                np.zeros(4, np.int64), np.zeros(4, np.int64), out)
        mine = me % 2
        cache: dict[tuple[int, ...], float] = {}
        rows: list[list[float]] = []
        for world in out.tolist():
            row = []
            for r in world:
                key = tuple(r)
                if key not in cache:
                    counters = [won[0] + r[0], won[1] + r[1]]
                    tricks = [taken[0] + r[2], taken[1] + r[3]]
                    delta, _ = hand_scores(contract, bside, side_melds, counters, tricks,
                                           options)
                    cache[key] = float(delta[mine] - delta[1 - mine])
                row.append(cache[key])
            rows.append(row)
        return rows


# -- expert: the card search on compiled kernels ------------------------------------------

EXPERT_WORLDS = 400
"""Expert: most sampled worlds per card decision (every candidate played out in each)."""
EXPERT_MIN_WORLDS = 24
EXPERT_SECONDS = 0.3
"""Expert: CPU seconds spent dealing worlds per card decision (after the minimum)."""
EXPERT_BATCH = 8
"""Expert: worlds dealt between two looks at the clock."""
EXPERT_END_TRICKS = 5
"""Expert: with this many cards in hand or fewer, each world's rest of the hand is
searched exactly (every hand seen) instead of played out by the quick policy."""
EXPERT_END_WORLDS = 160
"""Expert: most worlds searched exactly per card decision (five tricks left take about
0.6 ms a world and candidate, four tricks a tenth of that)."""
TRUMPS_IN_SUIT = 20
"""Copies of the five trump faces in the 80 cards."""
EXPERT_BID_DEALS = 64
"""Expert: sampled deals per auction decision (every trump suit played out in each)."""
EXPERT_BID_FLOOR = -10
"""Expert: the least mean margin (unit scale; its side's score change minus the other
side's) its simulated deals must give declaring the next bid for the expert to bid it.
Below zero: passing is not worth zero either, the other side then declaring."""
EXPERT_PARTNER_MARGIN = 15
"""Expert, over partner's bid after both opponents passed, with 20 meld or more: it lets
partner play only when its simulated deals show partner playing better by more than this
(unit scale). That is about one standard error of the difference of the two means over
``EXPERT_BID_DEALS`` deals each (11 to 14 in the realism scenarios): closer than that the
deals do not tell the two contracts apart, and a partner that can help bids on rather
than pass."""


class ExpertPlayer(StrongPlayer):
    """The strong player's determinized search with ten times the worlds (in the last
    tricks searched exactly); the auction and the trump suit from simulated deals
    (:mod:`cardplaza.games.pinochle_dd.bidsim`) with the meld bids of section 8; a first
    lead as good players make it (see :meth:`bid` and :meth:`play`). Over 200 paired deals
    with the normal level's card play at every seat, this auction scored +12.1 ± 9.2
    points a deal above the former one (the normal limit + 12, bidding on once over
    partner): ``scripts/dd_bid_experiment.py --deals 200 --players sim,normal12``."""

    end_tricks = EXPERT_END_TRICKS

    def __init__(self, worlds: int = EXPERT_WORLDS, seconds: float = EXPERT_SECONDS,
                 bid_deals: int = EXPERT_BID_DEALS, bid_floor: float = EXPERT_BID_FLOOR,
                 ) -> None:
        super().__init__(worlds, seconds)
        self.name = "expert"
        self.bid_deals = bid_deals
        self.bid_floor = bid_floor
        self._sim_key: tuple[Any, ...] | None = None
        self._sim: Outcomes | None = None

    def choose(self, observation: dict[str, Any], legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        """The trump suit from simulated deals; everything else as the parent decides."""
        kinds = {a[0] for a in legal_actions if isinstance(a, tuple)}
        if K_TRUMP in kinds:
            return (K_TRUMP, self.trump(observation))
        return super().choose(observation, legal_actions, rng)

    def outcomes(self, obs: dict[str, Any], declarer: int) -> Outcomes:
        """The simulated deals of this auction decision played with ``declarer`` (this
        seat or its partner) declaring each suit (:mod:`bidsim`); the deals are drawn from
        a generator seeded by what the seat sees, so one observation gives one answer."""
        from cardplaza.games.pinochle_dd.bidsim import declare_outcomes, sample_deals
        from cardplaza.games.pinochle_dd.engine import options_from_obs

        key = (tuple(obs["hand"]), obs["seat"], obs["dealer"], obs["hand_number"],
               tuple(map(tuple, obs["bids"])), declarer)
        if self._sim_key == key and self._sim is not None:
            return self._sim
        rng = random.Random(hash(key))
        deals = sample_deals(obs, rng, self.bid_deals, auction_signs(obs))
        self._sim = declare_outcomes(deals, declarer, options_from_obs(obs))
        self._sim_key = key
        return self._sim

    def trump(self, obs: dict[str, Any]) -> int:
        """The suit whose simulated deals give the best mean margin at the contract."""
        contract = obs["contract"] // obs["scale"]
        return self.outcomes(obs, obs["seat"]).best(contract)[0]

    def bid(self, obs: dict[str, Any], legal: Sequence[Action]) -> Action:
        """Meld bids in the first round as the normal level makes them (section 8); then
        the next bid while the simulated deals give declaring it a mean margin of at least
        ``EXPERT_BID_FLOOR``. Over partner's high bid it passes as the normal level does,
        except that a partner who can help does not pass only because both opponents
        passed: with 20 meld or more, the first time it speaks after both opponents
        passed, it bids on unless letting partner play its bid is worth more than
        declaring the next bid itself by over ``EXPERT_PARTNER_MARGIN``. Only that once:
        a made contract scores the same however high it was, so partners raising each
        other again only add to what a set costs."""
        k = obs["scale"]
        seat = obs["seat"]
        partner = (seat + 2) % 4
        high, lowest = bid_window(obs)
        if lowest > obs["max_bid"] // k:
            return PASS
        hand = from_counts(_tally(obs["hand"]))
        meld = max(meld_totals(hand))
        shown = meld_bid(obs, meld, high, lowest)
        if shown is not None:
            return shown
        if obs["high_bidder"] == partner:
            if not opponents_passed(obs["bids"], seat):
                return super().bid(obs, legal)
            if not first_since_opponents_passed(obs) or meld < MIN_MELD:
                return PASS
            mine = self.outcomes(obs, seat).best(lowest)[1]
            theirs = self.outcomes(obs, partner).best(high)[1]
            return (K_BID, lowest * k) if mine >= theirs - EXPERT_PARTNER_MARGIN else PASS
        value = self.outcomes(obs, seat).best(lowest)[1]
        return (K_BID, lowest * k) if value >= self.bid_floor else PASS

    def play(self, obs: dict[str, Any], cards: list[int]) -> int:
        """The strong search with more worlds and the last tricks searched exactly. The
        declarer's first lead is not a trump while it holds fewer than half the trumps and
        has a side card (it keeps control of trump)."""
        if len(cards) == 1:
            return cards[0]
        if not obs["tricks"] and not obs["trick"] and obs["seat"] == obs["bidder"]:
            side = [f for f in cards if SUIT_OF[f] != obs["trump"]]
            if side and 2 * suit_length(_tally(obs["hand"]), obs["trump"]) < TRUMPS_IN_SUIT:
                cards = side
        return super().play(obs, cards)
