"""Four-hand and cut-throat Pinochle advice: the expert's analysis of every decision.

* **Card play** — the expert's search: worlds consistent with everything seen (voids,
  melds shown, cards passed, and deals that fit each seat's bids and passes), every
  distinct card played out with the fast bitmask policy, the same worlds for every card.
  A card's value is the mean hand result of the seat's side (its score change minus the
  other sides' mean). Figures for the reason: the chance the side wins the current trick
  against the others' best effort (the later hands try to take it from the side, partner
  helps), and for a trump lead the chance that it draws the opponents' last trumps.
* **Bidding** — the simulation behind the expert's bids: per trump suit, sampled deals
  that fit the auction, partner's pass and the return simulated, meld of both hands plus
  the played-out trick points. A bid is valued by its chance of being made (best suit);
  the expert bids while that chance is at least 60 % and never outbids its partner. In
  cut-throat the simulation takes the widow and buries three cards by the discard rule,
  and the expert bids by it the same way.
* **Trump** — the expected hand score per suit (a set contract counts −contract), as the
  expert chooses. Cut-throat: trump and the cards to bury together, by play-outs.
* **Passing** — each card to pass (or return) with the rest of the exchange done the
  expert's way, valued by the played-out hand result.

Marks (points of the side's margin lost; ÷10 with one-point counting): inaccuracy from
10, mistake from 25, blunder from 50; a bid is marked by its make chance against the
expert's 60 % (15 / 30 / 50 points of chance).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from cardplaza.ai.advice import (
    Choice,
    Effort,
    Evaluation,
    Reason,
    Thresholds,
    build_choices,
    comparison,
    join,
    pct,
    pts,
    ranked,
    shares,
)
from cardplaza.core.cards import bit_list, mask_of
from cardplaza.core.protocol import Action
from cardplaza.games.pinochle4.engine import (
    K_BID,
    K_JUMP,
    K_TRUMP,
)
from cardplaza.games.pinochle4.fast import hand_delta, play_out
from cardplaza.games.pinochle4.meld import meld_total
from cardplaza.games.pinochle4.players import (
    EXPERT_BID_WORLDS,
    EXPERT_BURY_SIMS,
    EXPERT_END_CARDS,
    EXPERT_END_CARDS3,
    EXPERT_END_WORLDS,
    EXPERT_MAX_WORLDS,
    EXPERT_MIN_WORLDS,
    EXPERT_SIMS,
    ExpertPlayer,
    HeuristicPlayer,
    _candidate_cards,
    _discard_card,
    _partner_pass_card,
    _PlayView,
    _return_card,
    _sensible,
    bid_simulation,
    bid_simulation3,
    bidding_deals,
    helps_partner,
)
from cardplaza.games.pinochle4.rules import (
    SUIT_MASK,
    SUIT_SYMBOLS,
    beats,
    card_text,
    counter_table,
    legal_play_mask,
    mask_points,
    winning_index,
)
from cardplaza.games.pinochle4.world import AuctionCheck, Dealer

MAKE_PROB = 0.6
"""The expert bids while its simulated chance of making the bid is at least this."""
PLAY_SIMS = 2400
"""Play-outs per trump suit when the cut-throat bid winner compares what to bury."""
FACT_WORLDS = 200
"""Sampled worlds for the reason's figures (trick won, last trumps drawn)."""
BID_WORLDS = 240
"""Sampled deals of a bid's analysis (the hint and the bid helper read the same ones)."""
GIVE_WORLDS = 100
HELPER_FLOOR = 0.05
"""The bid helper's table runs up to the amount whose best chance falls under this."""

SUIT_JA = {0: "スペード", 1: "ハート", 2: "ダイヤ", 3: "クラブ"}


def _side(n: int, seat: int) -> int:
    return seat % 2 if n == 4 else seat


def _strength(c: int, led: int, trump: int) -> tuple[int, int, int]:
    s = c % 24 // 6
    return (s == trump, s == led, c % 6)


def trick_winner_greedy(hands: list[int], trick: list[int], leader: int, n: int, trump: int,
                        relaxed: bool, side: int) -> int:
    """The seat that wins the current trick when every later hand plays for its side:
    a hand whose side is not winning plays its strongest legal card, else its weakest.
    ``side`` is the scoring side the question is asked for (the others play against it)."""
    cards = list(trick)
    seat = (leader + len(cards)) % n
    while len(cards) < n:
        legal = legal_play_mask(hands[seat], cards, trump, relaxed)
        led = cards[0] % 24 // 6
        w_seat = (leader + winning_index(cards, trump)) % n
        ours_winning = _side(n, w_seat) == side
        ours = _side(n, seat) == side
        opts = bit_list(legal)
        if ours == ours_winning:
            c = min(opts, key=lambda x: _strength(x, led, trump))
        else:
            w = cards[winning_index(cards, trump)]
            beating = [x for x in opts if beats(x, w, trump)]
            c = max(beating or opts, key=lambda x: _strength(x, led, trump)) if beating else \
                min(opts, key=lambda x: _strength(x, led, trump))
        cards.append(c)
        seat = (seat + 1) % n
    return (leader + winning_index(cards, trump)) % n


def _same_faces(legal: Sequence[Action], cands: Sequence[tuple[int, int]]
                ) -> dict[Action, tuple[Action, ...]]:
    out: dict[Action, tuple[Action, ...]] = {}
    for rep in cands:
        out[rep] = tuple(a for a in legal if isinstance(a, tuple) and a != rep
                         and a[0] == rep[0] and a[1] % 24 == rep[1] % 24)
    return out


def _name(action: Action) -> str:
    assert isinstance(action, tuple)
    kind, value = action
    if kind in (K_BID, K_JUMP):
        return "pass" if value == 0 else f"bid {value}"
    if kind == K_TRUMP:
        return f"{SUIT_SYMBOLS[value]} trump"
    return card_text(value)


def _name_ja(action: Action) -> str:
    assert isinstance(action, tuple)
    kind, value = action
    if kind in (K_BID, K_JUMP):
        return "パス" if value == 0 else f"{value}のビッド"
    if kind == K_TRUMP:
        return f"切り札{SUIT_SYMBOLS[value]}"
    return card_text(value)


def _play_rules(opts: dict[str, Any]) -> tuple[int, bool, Any, bool, int]:
    """What the play-outs need from the options: the meld divisor (10 with one-point
    counting), the extra K/Q meld rule, the counter table, the relaxed beat rule and the
    last-trick bonus."""
    div = 10 if opts["one_point"] else 1
    values = counter_table(opts["counters"], opts["one_point"])
    return div, opts["extra_kq"], values, bool(opts["beat_only_trump_leads"]), 10 // div


class PinochleAdvisor:
    """The expert's analysis of four-hand and cut-throat Pinochle decisions."""

    thresholds = Thresholds(10, 25, 50)

    def __init__(self) -> None:
        self.heuristic = HeuristicPlayer("normal")

    def thresholds_for(self, observation: dict[str, Any]) -> Thresholds:
        """The marks' thresholds in the game's units (÷10 with one-point counting)."""
        div = 10 if observation["options"]["one_point"] else 1
        t = self.thresholds
        return Thresholds(t.inaccuracy / div, t.mistake / div, t.blunder / div)

    def hand_of(self, observation: dict[str, Any]) -> int:
        """The hand number."""
        return int(observation["hand_number"])

    # -- dispatch ---------------------------------------------------------------------------
    def evaluate(self, observation: dict[str, Any], legal: Sequence[Action],
                 rng: random.Random, effort: Effort,
                 include: Sequence[Action] = ()) -> Evaluation:
        """The evaluation of the decision in the observation's phase."""
        phase = observation["phase"]
        if phase == "play":
            return self._play(observation, legal, rng, effort)
        if phase == "bidding":
            return self._bid(observation, [*legal, *include], rng, effort)
        if phase == "trump" and observation["players"] == 4:
            return self._trump(observation, rng, effort)
        if phase in ("trump", "discard"):
            return self._bury(observation, legal, rng, effort)
        if phase == "passing":
            return self._give(observation, legal, rng, effort)
        return Evaluation(phase, "points", [Choice(a, None) for a in legal], legal[0])

    # -- card play -----------------------------------------------------------------------
    @staticmethod
    def _expert(effort: Effort) -> ExpertPlayer:
        """The expert with its card-play budget scaled (no clock unless the effort has one),
        solving endings as the expert does."""
        seconds = None if effort.seconds is None else max(0.05, effort.seconds
                                                          - effort.elapsed())
        return ExpertPlayer(sims=effort.worlds(EXPERT_SIMS, 100),
                            min_worlds=effort.worlds(EXPERT_MIN_WORLDS, 12),
                            max_worlds=effort.worlds(EXPERT_MAX_WORLDS, 12),
                            bid_worlds=EXPERT_BID_WORLDS, seconds=seconds,
                            bury_sims=EXPERT_BURY_SIMS, end_cards=EXPERT_END_CARDS,
                            end_worlds=effort.worlds(EXPERT_END_WORLDS, 12),
                            end_cards3=EXPERT_END_CARDS3)

    def _play(self, obs: dict[str, Any], legal: Sequence[Action], rng: random.Random,
              effort: Effort) -> Evaluation:
        cands = _candidate_cards(legal)
        same = _same_faces(legal, cands)
        if len(cands) == 1:
            return Evaluation("play", "points", [Choice(cands[0], None, 1.0, {}, same[cands[0]])],
                              cands[0])
        expert = self._expert(effort)
        found = {e.action: e for e in expert.evaluate(obs, legal, rng)}
        worlds = max((e.worlds for e in found.values()), default=0)
        facts = self._play_facts(obs, cands, random.Random(rng.getrandbits(64)))
        bidding_side = _side(obs["players"], obs["bidder"]) == _side(obs["players"],
                                                                     obs["seat"])
        choices = []
        for b in cands:
            e = found.get(b)
            if e is not None and e.chance is not None:
                facts[b]["win"] = e.chance if bidding_side else 1.0 - e.chance
            choices.append(Choice(b, None if e is None else e.points, None, facts[b],
                                  same[b]))
        # The pick is the best value of the table the hint shows (never a card the table
        # scores lower); among cards of exactly that value, a sensible card stands before
        # another, and the normal player's card first.
        sensible = {b[1] % 24 for b in _sensible(obs, cands)}
        prefer = self.heuristic.play(obs, legal)
        pool = [c for c in choices if isinstance(c.action, tuple) and c.value is not None]
        top = max(c.value or 0.0 for c in pool)
        near = [c for c in pool if (c.value or 0.0) >= top - 1e-9]
        near = [c for c in near if c.action[1] % 24 in sensible] or near  # type: ignore[index]
        pick = next((c for c in near if c.covers(prefer)), None)
        if pick is None:
            pick = max(near, key=lambda c: (c.value or 0.0, -c.action[1]))  # type: ignore[index]
        ordered, best = ranked(choices, pick.action, tolerance=float("inf"))
        return Evaluation("play", "points", ordered, best, worlds=worlds,
                          exact=expert.solves_ending(obs))

    @staticmethod
    def _play_facts(obs: dict[str, Any], cands: list[tuple[int, int]], rng: random.Random,
                    worlds: int = FACT_WORLDS) -> dict[Action, dict[str, float]]:
        """Per card, the chance that the seat's side wins the current trick against the
        others' best effort, and for a trump lead the chance that it draws the opponents'
        last trumps, over worlds the expert's dealer samples."""
        view = _PlayView(obs)
        me, n, trump = view.me, view.n, view.trump
        my_side = _side(n, me)
        trick = view.trick
        dealer = Dealer(obs, infer_bids=True)
        wins = [0] * len(cands)
        draws = [0] * len(cands)
        trump_leads = [not trick and b[1] % 24 // 6 == trump for b in cands]
        for _ in range(worlds):
            hands, _disc = dealer.deal(rng)
            opp = [(hands[p] & SUIT_MASK[trump]).bit_count() for p in range(n)
                   if _side(n, p) != my_side]
            pulls = max(opp) <= 1 and sum(opp) >= 1
            for i, b in enumerate(cands):
                hs = hands[:]
                hs[me] ^= 1 << b[1]
                w = trick_winner_greedy(hs, [*trick, b[1]], view.leader, n, trump,
                                        view.relaxed, my_side)
                wins[i] += _side(n, w) == my_side
                draws[i] += trump_leads[i] and pulls
        out: dict[Action, dict[str, float]] = {}
        for i, b in enumerate(cands):
            out[b] = {"trick": wins[i] / worlds}
            if trump_leads[i]:
                out[b]["draws_trumps"] = draws[i] / worlds
        return out

    # -- bidding ---------------------------------------------------------------------------
    def bid_table(self, obs: dict[str, Any], rng: random.Random, worlds: int,
                  effort: Effort | None = None) -> dict[str, Any]:
        """Per trump suit, the simulated take of the seat's side (own meld, partner's meld
        and trick points, or with the widow in cut-throat), one entry per sampled deal."""
        if obs["players"] == 4:
            return self._partnership_table(obs, rng, worlds, effort)
        return self._cutthroat_table(obs, rng, worlds, effort)

    @staticmethod
    def _partnership_table(obs: dict[str, Any], rng: random.Random, worlds: int,
                           effort: Effort | None) -> dict[str, Any]:
        # The expert's own simulation (deals and play-outs in the compiled kernels), in
        # chunks of 24 deals when a clock may stop it early.
        auction = AuctionCheck(obs)
        clock = effort is not None and effort.seconds is not None
        rows: list[list[list[int]]] = [[[], [], [], []] for _ in range(4)]
        done = 0
        while done < worlds and (effort is None or effort.more(done, 24)):
            count = min(worlds - done, 24) if clock else worlds - done
            table, parts = bid_simulation(obs, bidding_deals(obs, rng, auction, count))
            for k, got in enumerate((table, *parts)):
                for s in range(4):
                    rows[k][s] += got[s].tolist()
            done += count
        totals, mine, theirs, tricks = rows
        return {"totals": totals, "meld": mine, "partner_meld": theirs, "tricks": tricks,
                "worlds": done}

    @staticmethod
    def _cutthroat_table(obs: dict[str, Any], rng: random.Random, worlds: int,
                         effort: Effort | None) -> dict[str, Any]:
        # The expert's own simulation (compiled kernels); one deal at a time when a clock
        # may stop it, so a timed hint stops after any deal.
        div = 10 if obs["options"]["one_point"] else 1
        extra = obs["options"]["extra_kq"]
        auction = AuctionCheck(obs)
        own = mask_of(obs["hand"])
        own_meld = [meld_total(own, s, extra) // div for s in range(4)]
        clock = effort is not None and effort.seconds is not None
        rows: list[list[list[int]]] = [[[], [], [], []] for _ in range(3)]
        done = 0
        while done < worlds and (effort is None or effort.more(done, 24)):
            count = 1 if clock else worlds - done
            table, parts = bid_simulation3(obs, bidding_deals(obs, rng, auction, count))
            for k, got in enumerate((table, *parts)):
                for s in range(4):
                    rows[k][s] += got[s].tolist()
            done += count
        totals, kept, tricks = rows
        return {"totals": totals, "meld": [[own_meld[s]] * done for s in range(4)],
                "widow_meld": [[m - own_meld[s] for m in kept[s]] for s in range(4)],
                "tricks": tricks, "worlds": done}

    @staticmethod
    def chances(totals: list[int], amounts: Sequence[int]) -> list[float]:
        """Chance that a sampled take reaches each amount."""
        k = len(totals) or 1
        ordered = sorted(totals)
        out = []
        j = 0
        for a in sorted(amounts):
            while j < len(ordered) and ordered[j] < a:
                j += 1
            out.append((len(ordered) - j) / k)
        by = dict(zip(sorted(amounts), out, strict=True))
        return [by[a] for a in amounts]

    @staticmethod
    def sim_limit(table: dict[str, Any], step: int, prob: float = MAKE_PROB) -> int:
        """The highest bid made with at least ``prob`` chance in the best suit (the expert's
        simulated bidding limit)."""
        best = 0
        for totals in table["totals"]:
            ordered = sorted(totals, reverse=True)
            if not ordered:
                continue
            k = max(0, min(len(ordered) - 1, int(prob * len(ordered)) - 1))
            best = max(best, ordered[k] // step * step)
        return best

    def _bid(self, obs: dict[str, Any], legal: Sequence[Action], rng: random.Random,
             effort: Effort) -> Evaluation:
        table = self.bid_table(obs, rng, effort.worlds(BID_WORLDS, 24), effort)
        step = obs["bid_step"]
        lowest = next((a[1] for a in legal if isinstance(a, tuple) and a[1] > 0), None)
        n = obs["players"]
        hb = obs["high_bidder"]
        partner_high = n == 4 and hb is not None and hb % 2 == obs["seat"] % 2
        limit = self.sim_limit(table, step)
        if partner_high and lowest is not None and lowest <= limit and helps_partner(obs):
            partner_high = False  # both opponents passed: the expert bids on
        amounts: list[int] = []
        if lowest is not None:
            amounts = [lowest]
            if limit > lowest:
                amounts.append(limit)
            played = [a[1] for a in legal if isinstance(a, tuple) and a[1] > lowest]
            amounts += [a for a in played if a not in amounts]
        best_suit: dict[int, int] = {}
        chance: dict[int, float] = {}
        for a in amounts:
            per_suit = [self.chances(t, [a])[0] for t in table["totals"]]
            s = max(range(4), key=lambda x: (per_suit[x], -x))
            chance[a] = per_suit[s]
            best_suit[a] = s
        pass_value = 1.0 if partner_high else MAKE_PROB
        choices = [Choice((K_BID, 0), pass_value, None, {"reference": 1.0})]
        for a in amounts:
            act = (K_BID if a == lowest else K_JUMP, a)
            choices.append(Choice(act, chance[a], None, {"suit": float(best_suit[a])}))
        if lowest is None or partner_high or lowest > limit:
            expert: Action = (K_BID, 0)
        else:
            expert = (K_BID, lowest)
        ordered, best = ranked(choices, expert, tolerance=float("inf"))
        return Evaluation("bid", "chance", ordered, best, worlds=table["worlds"],
                          info={"limit": limit, "partner_high": partner_high,
                                "lowest": lowest, "table": table})

    # -- trump ------------------------------------------------------------------------------
    def _trump(self, obs: dict[str, Any], rng: random.Random, effort: Effort) -> Evaluation:
        table = self.bid_table(obs, rng, effort.worlds(BID_WORLDS, 24), effort)
        contract = obs["contract"]
        rows = [[float(table["totals"][s][w] if table["totals"][s][w] >= contract else -contract)
                 for s in range(4)] for w in range(table["worlds"])]
        cands: list[Action] = [(K_TRUMP, s) for s in range(4)]
        facts = {(K_TRUMP, s): {"make": self.chances(table["totals"][s], [contract])[0],
                                "meld": sum(table["meld"][s]) / max(1, table["worlds"])}
                 for s in range(4)}
        choices = build_choices(cands, rows, None, facts)
        expert = max(range(4), key=lambda s: (sum(r[s] for r in rows), -s))
        ordered, best = ranked(choices, (K_TRUMP, expert), tolerance=float("inf"))
        return Evaluation("trump", "points", ordered, best, worlds=table["worlds"],
                          info={"table": table})

    # -- cut-throat trump and burying --------------------------------------------------------
    def _bury(self, obs: dict[str, Any], legal: Sequence[Action], rng: random.Random,
              effort: Effort) -> Evaluation:
        opts = obs["options"]
        extra = opts["extra_kq"]
        hand = mask_of(obs["hand"])
        need = 3 - obs["discard_count"]
        trump_phase = obs["phase"] == "trump"
        suits = [0, 1, 2, 3] if trump_phase else [obs["trump"]]
        plans: list[tuple[int, int]] = []  # (suit, cards buried now and later)
        for s in suits:
            best_meld = -1
            faces: dict[tuple[int, ...], int] = {}
            for combo in combinations(bit_list(hand), need):
                gone = mask_of(combo)
                meld = meld_total(hand & ~gone, s, extra)
                if meld < best_meld:
                    continue
                if meld > best_meld:
                    best_meld, faces = meld, {}
                faces.setdefault(tuple(sorted(c % 24 for c in combo)), gone)
            plans += [(s, g) for g in sorted(faces.values())]
        if not trump_phase:
            # Every card gets a plan: a card outside the meld-keeping plans is buried
            # with the rest chosen the expert's way.
            covered = {c % 24 for _s, g in plans for c in bit_list(g)}
            for c in bit_list(hand):
                if c % 24 in covered:
                    continue
                covered.add(c % 24)
                rest = hand ^ (1 << c)
                gone = 1 << c
                for _k in range(need - 1):
                    d = _discard_card(rest, suits[0], extra)
                    rest ^= 1 << d
                    gone |= 1 << d
                plans.append((suits[0], gone))
        n = obs["players"]
        me = obs["seat"]
        div, _extra, values, relaxed, bonus = _play_rules(opts)
        buried = mask_points(mask_of(obs["discards"] or []), values)
        contract = obs["contract"]
        dealer = Dealer(obs, infer_bids=True)
        budget = PLAY_SIMS * len(suits)
        worlds = effort.worlds(max(12, budget // max(1, len(plans))), 8)
        rows: list[list[float]] = []
        while len(rows) < worlds and effort.more(len(rows), 8):
            hands, _disc = dealer.deal(rng)
            melds = {s: [meld_total(h, s, extra) // div for h in hands] for s in suits}
            row = []
            for s, gone in plans:
                hs = hands[:]
                hs[me] = hand & ~gone
                side_melds = melds[s][:]
                side_melds[me] = meld_total(hand & ~gone, s, extra) // div
                p, last = play_out(hs, [], me, n, s, relaxed, values)
                p[last] += bonus
                p[me] += buried + mask_points(gone, values)
                delta = hand_delta(contract, me, side_melds, p)
                row.append(delta[me] - (sum(delta) - delta[me]) / (n - 1))
            rows.append(row)
        k = max(1, len(rows))
        plan_values = [sum(r[i] for r in rows) / k for i in range(len(plans))]
        plan_shares = shares(rows)
        if trump_phase:
            cands: list[Action] = [(K_TRUMP, s) for s in range(4)]
        else:
            cands = list(_candidate_cards(legal))
        same = _same_faces(legal, cands) if not trump_phase else {}  # type: ignore[arg-type]
        choices = []
        for a in cands:
            assert isinstance(a, tuple)
            if trump_phase:
                idx = [i for i, (s, _g) in enumerate(plans) if s == a[1]]
            else:
                idx = [i for i, (_s, g) in enumerate(plans)
                       if any(c % 24 == a[1] % 24 for c in bit_list(g))]
            if not idx:
                choices.append(Choice(a, None, None, {}, same.get(a, ())))
                continue
            j = max(idx, key=lambda i: plan_values[i])
            meld = meld_total(hand & ~plans[j][1], plans[j][0], extra) // div
            choices.append(Choice(a, plan_values[j], sum(plan_shares[i] for i in idx),
                                  {"meld": float(meld),
                                   "plan": float(plans[j][1])}, same.get(a, ())))
        ordered, best = ranked(choices)
        return Evaluation("trump" if trump_phase else "discard", "points", ordered, best,
                          worlds=len(rows))

    # -- passing ------------------------------------------------------------------------------
    def _give(self, obs: dict[str, Any], legal: Sequence[Action], rng: random.Random,
              effort: Effort) -> Evaluation:
        opts = obs["options"]
        n = obs["players"]
        me = obs["seat"]
        trump = obs["trump"]
        div, extra, values, relaxed, bonus = _play_rules(opts)
        npass = opts.get("passing", 0)
        bidder = obs["bidder"]
        partner = (me + 2) % 4
        passing = obs["passing"]
        selected = mask_of(passing["selected"])
        left = npass - passing["pending_count"] - 1
        cands = _candidate_cards(legal)
        same = _same_faces(legal, cands)
        dealer = Dealer(obs, infer_bids=True)
        worlds = effort.worlds(GIVE_WORLDS, 12)
        rows: list[list[float]] = []
        melds_after = [0.0] * len(cands)
        while len(rows) < worlds and effort.more(len(rows), 12):
            hands, _disc = dealer.deal(rng)
            row = []
            for i, b in enumerate(cands):
                hs = hands[:]
                mine = hs[me] ^ (1 << b[1])
                give = selected | 1 << b[1]
                for _k in range(left):
                    c = (_return_card(mine, trump, extra) if me == bidder
                         else _partner_pass_card(mine, trump))
                    mine ^= 1 << c
                    give |= 1 << c
                theirs = hs[partner] | give
                if me != bidder:
                    back = 0
                    for _k in range(npass):
                        c = _return_card(theirs, trump, extra)
                        theirs ^= 1 << c
                        back |= 1 << c
                    mine |= back
                hs[me], hs[partner] = mine, theirs
                side_melds = [0, 0]
                for p in range(n):
                    side_melds[p % 2] += meld_total(hs[p], trump, extra) // div
                melds_after[i] += meld_total(hs[bidder], trump, extra) // div
                p_, last = play_out(hs, [], bidder, n, trump, relaxed, values)
                side_pts = [p_[0] + p_[2], p_[1] + p_[3]]
                side_pts[last % 2] += bonus
                delta = hand_delta(obs["contract"], bidder % 2, side_melds, side_pts)
                row.append(float(delta[me % 2] - delta[1 - me % 2]))
            rows.append(row)
        k = max(1, len(rows))
        facts = {b: {"bidder_meld": melds_after[i] / k} for i, b in enumerate(cands)}
        choices = build_choices(cands, rows, same, facts)
        prefer = self.heuristic.give(obs, legal)
        ordered, best = ranked(choices, prefer, tolerance=0.5)
        return Evaluation("give", "points", ordered, best, worlds=len(rows))

    # -- reasons ------------------------------------------------------------------------------
    def reason(self, observation: dict[str, Any], evaluation: Evaluation) -> Reason:
        """Why the best choice is best, from the evaluation's figures."""
        ev = evaluation
        obs = observation
        if len([c for c in ev.choices if c.value is not None]) <= 1 and ev.kind != "bid":
            return {"en": "It is the only sensible choice.", "ja": "これ以外に良い手はありません。"}
        if ev.kind == "bid":
            return self._bid_reason(obs, ev)
        best = ev.best_choice()
        parts: list[Reason] = []
        if ev.kind == "play":
            parts.append(self._play_reason(obs, ev, best))
        elif ev.kind == "trump":
            s = best.action[1]  # type: ignore[index]
            make = best.facts.get("make")
            meld = best.facts.get("meld")
            if make is not None:
                parts.append({"en": f"With {SUIT_SYMBOLS[s]} trump your side makes "
                                    f"{obs['contract']} in {pct(make)} of sampled deals "
                                    f"(expected {pts(best.value or 0)}).",
                              "ja": f"切り札を{SUIT_SYMBOLS[s]}に"
                                    f"すると、試算した配りの{pct(make)}で"
                                    f"{obs['contract']}を達成します（期待"
                                    f"値{pts(best.value or 0)}点）。"})
            elif meld is not None:
                parts.append({"en": f"{SUIT_SYMBOLS[s]} trump, burying what keeps {pts(meld)} "
                                    f"in meld, scores best (expected {pts(best.value or 0)}).",
                              "ja": f"切り札{SUIT_SYMBOLS[s]}でメ"
                                    f"ルド{pts(meld)}点を残して伏せるのが"
                                    f"最善です（期待値{pts(best.value or 0)}点）。"})
        elif ev.kind == "discard":
            c = best.action[1]  # type: ignore[index]
            meld = best.facts.get("meld", 0.0)
            counts = _play_rules(obs["options"])[2][c]
            if counts:
                parts.append({"en": f"Bury {card_text(c)}: it keeps {pts(meld)} in meld, and "
                                    f"the card's {counts} counter points count for you.",
                              "ja": f"{card_text(c)}を伏せます。メルド{pts(meld)}"
                                    f"点が残り、この札の{counts}点もあなたの得点です。"})
            else:
                parts.append({"en": f"Bury {card_text(c)}: it keeps {pts(meld)} in meld, and "
                                    "the card is worth nothing in tricks.",
                              "ja": f"{card_text(c)}を伏せます。メルド{pts(meld)}"
                                    "点が残り、この札はトリックでも点になりません。"})
        elif ev.kind == "give":
            c = best.action[1]  # type: ignore[index]
            to_bidder = obs["seat"] != obs["bidder"]
            if to_bidder:
                parts.append({"en": f"Pass {card_text(c)} to the bidder: it gives your side "
                                    "the best played-out result.",
                              "ja": f"{card_text(c)}をビッダー"
                                    "に渡すと、試算で最もよい結果になります。"})
            else:
                meld = best.facts.get("bidder_meld", 0.0)
                parts.append({"en": f"Return {card_text(c)}: you keep about {pts(meld)} in "
                                    "meld.",
                              "ja": f"{card_text(c)}を返します。メル"
                                    f"ドはおよそ{pts(meld)}点残ります。"})
        parts.append(comparison(ev, _name, _name_ja))
        parts.append({"en": f"({ev.worlds} "
                            "sampled deals)", "ja": f"（{ev.worlds}通りの配りで試算）"})
        return join(*parts)

    def _play_reason(self, obs: dict[str, Any], ev: Evaluation, best: Choice) -> Reason:
        c = best.action[1]  # type: ignore[index]
        text = card_text(c)
        trick = best.facts.get("trick", 0.0)
        draws = best.facts.get("draws_trumps")
        n = obs["players"]
        me = obs["seat"]
        cur = obs["trick"]
        parts: list[Reason] = []
        if draws is not None and draws >= 0.5:
            parts.append({"en": f"{text} draws the opponents' last trumps in {pct(draws)} of "
                                "sampled deals.",
                          "ja": f"{text}で、試算した配りの{pct(draws)}で相手の最後の切り札を"
                                "引き出します。"})
        values = counter_table(obs["options"]["counters"], obs["options"]["one_point"])
        partner_winning = False
        if cur and n == 4:
            trick_cards = [x for _, x in cur]
            w_seat = cur[winning_index(trick_cards, obs["trump"])][0]
            partner_winning = w_seat % 2 == me % 2
        if partner_winning and values[c] and trick >= 0.5:
            parts.append({"en": f"Your partner's trick holds in {pct(trick)} of sampled deals: "
                                f"{text} adds {values[c]} points to it.",
                          "ja": f"パートナーのトリックは試算の{pct(trick)}で勝ちます。{text}で"
                                f"{values[c]}点を加えます。"})
        elif trick >= 0.5:
            parts.append({"en": f"{text} wins the trick for your side in {pct(trick)} of "
                                "sampled deals.",
                          "ja": f"{text}は試算した配りの{pct(trick)}で味方がトリックを取ります。"
                          if n == 4 else
                                f"{text}は試算した配りの{pct(trick)}でトリックを取ります。"})
            if n == 3:
                parts[-1]["en"] = (f"{text} wins the trick in {pct(trick)} of sampled deals.")
        elif not values[c]:
            parts.append({"en": f"{text} gives up the trick cheaply: your side takes it in only "
                                f"{pct(trick)} of sampled deals.",
                          "ja": f"{text}でトリックを安く譲ります（取れ"
                                f"るのは試算の{pct(trick)}だけ）。"})
        else:
            parts.append({"en": f"{text} scores best although the trick is won in only "
                                f"{pct(trick)} of sampled deals.",
                          "ja": f"トリックを取れるのは試算の{pct(trick)}"
                                f"ですが、{text}が最善です。"})
        return join(*parts)

    @staticmethod
    def _bid_reason(obs: dict[str, Any], ev: Evaluation) -> Reason:
        info = ev.info
        lowest = info.get("lowest")
        if lowest is None:
            return {"en": "No bid is possible.", "ja": "ビッドできません。"}
        c = next((x for x in ev.choices if x.action == (K_BID, lowest)), None)
        chance = c.value if c is not None else None
        suit = int(c.facts.get("suit", 0)) if c is not None else 0
        sym = SUIT_SYMBOLS[suit]
        fig = ({"en": f"With {sym} trump you make {lowest} in {pct(chance)} of {ev.worlds} "
                      "sampled deals.",
                "ja": f"切り札{sym}なら、試算した{ev.worlds}通りの配りの{pct(chance)}で"
                      f"{lowest}を達成します。"} if chance is not None else {"en": "", "ja": ""})
        if info.get("partner_high"):
            return join({"en": "Pass: your partner holds the high bid, and the expert "
                               "outbids its partner only with meld to help once both "
                               "opponents have passed.",
                         "ja": "パス。パートナーが最高値をビッドしており、エキスパートが"
                               "パートナーより上をビッドするのは、相手が二人ともパスした後に"
                               "助けになるメルドがあるときだけです。"}, fig)
        limit = info.get("limit", 0)
        if obs["players"] == 3:
            rule = {"en": f"The expert bids up to {limit} with this hand (meld in the best "
                          "suit, aces, trump length and the widow).",
                    "ja": f"エキスパートはこの手なら{limit}までビッドします（最良スートのメルド・"
                          "エース・切り札の枚数・ウィドウ）。"}
        else:
            rule = {"en": f"The expert bids while the chance is at least {pct(MAKE_PROB)}: up "
                          f"to {limit} here.",
                    "ja": f"エキスパートは達成率{pct(MAKE_PROB)}以上の間ビッドします。ここでは"
                          f"{limit}までです。"}
        if ev.best == (K_BID, 0):
            head = {"en": f"Pass rather than bid {lowest}.",
                    "ja": f"{lowest}はビッドせずパスします。"}
        else:
            head = {"en": f"Bid {lowest}.", "ja": f"{lowest}をビッドします。"}
        return join(head, fig, rule)

    # -- the bid helper -------------------------------------------------------------------------
    def helper(self, observation: dict[str, Any], legal: Sequence[Action],
               rng: random.Random, effort: Effort,
               evaluation: Evaluation | None = None) -> dict[str, Any] | None:
        """During the auction (and the trump choice): per trump suit the chance of making
        each bid amount, from the current high bid up to where it falls under 5 %; from the
        deals of ``evaluation`` when given (the hint's own: the same chances)."""
        obs = observation
        if obs["phase"] not in ("bidding", "trump") or obs["bidder"] not in (None, obs["seat"]):
            return None
        table = evaluation.info.get("table") if evaluation is not None else None
        if table is None:
            table = self.bid_table(obs, rng, effort.worlds(BID_WORLDS, 24), effort)
        return bid_helper_rows(obs, table)


def bid_helper_rows(obs: dict[str, Any], table: dict[str, Any]) -> dict[str, Any]:
    """The bid helper's table from a simulated take table."""
    step = obs["bid_step"]
    start = obs["high_bid"] or obs["min_bid"]
    if obs["phase"] == "trump":
        start = obs["contract"]
    k = max(1, table["worlds"])
    limit_top = obs.get("max_bid") or 2500 // (10 if obs["options"]["one_point"] else 1)
    amounts: list[int] = []
    a = start
    while a <= limit_top:
        amounts.append(a)
        best = max(PinochleAdvisor.chances(t, [a])[0] for t in table["totals"])
        if best < HELPER_FLOOR:
            break
        a += step
    suits = []
    for s in range(4):
        totals = table["totals"][s]
        row: dict[str, Any] = {
            "suit": s, "symbol": SUIT_SYMBOLS[s],
            "meld": round(sum(table["meld"][s]) / k, 1),
            "tricks": round(sum(table["tricks"][s]) / k, 1),
            "mean": round(sum(totals) / k, 1),
            "chances": [round(x, 3) for x in PinochleAdvisor.chances(totals, amounts)],
        }
        if "partner_meld" in table:
            row["partner_meld"] = round(sum(table["partner_meld"][s]) / k, 1)
        if "widow_meld" in table:
            row["widow_meld"] = round(sum(table["widow_meld"][s]) / k, 1)
        suits.append(row)
    best_suit = max(range(4), key=lambda s: (suits[s]["mean"], -s))
    limit = PinochleAdvisor.sim_limit(table, step)
    return {"kind": "bids", "unit": "chance", "amounts": amounts, "suits": suits,
            "worlds": table["worlds"], "best_suit": best_suit, "limit": limit,
            "high_bid": obs["high_bid"], "min_bid": obs["min_bid"], "step": step,
            "players": obs["players"], "make_prob": MAKE_PROB}


def make_advisor() -> PinochleAdvisor:
    """The registry hook."""
    return PinochleAdvisor()


__all__ = ["PinochleAdvisor", "bid_helper_rows", "make_advisor", "trick_winner_greedy"]
