"""Double-deck Pinochle advice: the expert's analysis of a decision, for hints, the bid
helper and the post-game review (registry hook ``advice``).

* **Card play** — the expert's search: worlds consistent with everything seen (voids,
  melds shown, cards passed), every distinct card played out by the compiled kernel in
  each, the same worlds for every card; a card's value is the side's mean margin for the
  hand (its score change minus the other side's), unit scale.
* **Bidding** — sampled deals of the hidden cards that fit partner's meld bid (a raise of
  k below 60 shows about 10·k meld), per trump suit the side's meld (both hands) and the
  counters it takes with this seat declaring, played out by the kernel (passing left
  out). A bid is valued by its chance of being made with the best suit; the expert's own
  choice is the reference.
* **Trump, passing, throw-in** — the expert's choice, without figures.

The reasons say what partner's meld bid showed. Marks (unit-scale points of the side's
margin lost, ×10 on the ``x10`` scale): inaccuracy from 4, mistake from 10, blunder from 20.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from cardplaza.ai.advice import (
    Choice,
    Effort,
    Evaluation,
    Reason,
    Thresholds,
    build_choices,
    join,
    pct,
    pts,
    ranked,
    said,
)
from cardplaza.core.protocol import Action
from cardplaza.games.pinochle_dd.engine import BID_KINDS, K_BID, K_PLAY, THROW_IN
from cardplaza.games.pinochle_dd.kernels import KERNELS
from cardplaza.games.pinochle_dd.meld import meld_total, meld_totals
from cardplaza.games.pinochle_dd.players import ExpertPlayer, _tally, meld_signals
from cardplaza.games.pinochle_dd.rules import (
    COUNTER_FACES,
    FACES,
    SUIT_SYMBOLS,
    from_counts,
)
from cardplaza.games.pinochle_dd.world import Places

HINT_WORLDS = 120
"""Card hints: most sampled worlds (the expert's own search uses up to 400)."""
HINT_SECONDS = 0.5
BID_WORLDS = 60
"""Bid helper and bid hints: sampled deals."""
BID_TRIES = 40
"""Bid helper: deals drawn per accepted deal while looking for one that fits partner's
meld bid (the last one is kept if none fits)."""
HELPER_FLOOR = 0.05
"""The bid helper lists amounts until the best suit's chance falls below this."""
MAKE_CHANCE = 0.6
"""The chance of making a bid the helper calls the side's limit."""


class DoubleDeckAdvisor:
    """The expert's advice for double-deck Pinochle (see the module docstring)."""

    thresholds = Thresholds(4, 10, 20)

    def __init__(self) -> None:
        self.expert = ExpertPlayer()

    def thresholds_for(self, observation: dict[str, Any]) -> Thresholds:
        """The marks in shown points (×10 on the ``x10`` scale)."""
        k = int(observation.get("scale") or 1)
        t = self.thresholds
        return Thresholds(t.inaccuracy * k, t.mistake * k, t.blunder * k)

    def hand_of(self, observation: dict[str, Any]) -> int:
        """The hand number of the observation."""
        return int(observation["hand_number"])

    # -- evaluation -----------------------------------------------------------------------
    def evaluate(self, observation: dict[str, Any], legal: Sequence[Action],
                 rng: random.Random, effort: Effort,
                 include: Sequence[Action] = ()) -> Evaluation:
        """Card play by the kernel search, bids by their chance; else the expert's pick."""
        obs = observation
        actions = list(dict.fromkeys([*legal, *include]))
        kinds = {a[0] for a in actions if isinstance(a, tuple)}
        if K_PLAY in kinds:
            return self._play(obs, actions, rng, effort)
        if kinds & set(BID_KINDS):
            return self._bid(obs, actions, rng, effort)
        best = self.expert.choose(obs, legal, rng)
        kind = "trump" if obs["phase"] == "trump" else "give"
        choices = [Choice(a, None) for a in actions]
        return Evaluation(kind, "points", choices, best)

    def _play(self, obs: dict[str, Any], actions: list[Action], rng: random.Random,
              effort: Effort) -> Evaluation:
        k = obs["scale"]
        cards = [a[1] for a in actions if isinstance(a, tuple) and a[0] == K_PLAY]
        most = effort.worlds(HINT_WORLDS, 24)
        # Without a clock the budget of worlds alone ends the search (the same numbers on
        # every call); with one, the expert's own time per card caps it.
        seconds = float("inf") if effort.seconds is None else min(HINT_SECONDS, effort.seconds)
        rows = self.expert.card_rows(obs, cards, rng, most, seconds)
        cands: list[Action] = [(K_PLAY, f) for f in cards]
        if THROW_IN in actions:
            thrown = self._throw_in_margin(obs)
            rows = [[*row, thrown] for row in rows]
            cands.append(THROW_IN)
        shown = [[v * k for v in row] for row in rows]
        choices, best = ranked(build_choices(cands, shown))
        return Evaluation("play", "points", choices, best, worlds=len(rows))

    @staticmethod
    def _throw_in_margin(obs: dict[str, Any]) -> float:
        from cardplaza.games.pinochle_dd.engine import hand_scores, options_from_obs

        k = obs["scale"]
        melds = obs["melds"]
        side_melds = [(melds[0]["value"] + melds[2]["value"]) // k,
                      (melds[1]["value"] + melds[3]["value"]) // k]
        delta, _ = hand_scores(obs["contract"] // k, obs["bidder"] % 2, side_melds, None,
                               None, options_from_obs(obs), conceded=True)
        mine = obs["seat"] % 2
        return float(delta[mine] - delta[1 - mine])

    def _bid(self, obs: dict[str, Any], actions: list[Action], rng: random.Random,
             effort: Effort) -> Evaluation:
        table = bid_table(obs, rng, effort.worlds(BID_WORLDS, 16))
        k = obs["scale"]
        expert = self.expert.choose(obs, [a for a in actions if a[0] in BID_KINDS],  # type: ignore[index]
                                    rng)
        if expert not in actions:
            actions = [*actions, expert]
        choices = []
        for a in actions:
            assert isinstance(a, tuple)
            if a[1] == 0:
                choices.append(Choice(a, None, None, {"reference": 1.0}))
                continue
            per_suit = [chance(table["totals"][s], a[1] // k) for s in range(4)]
            s = max(range(4), key=lambda x: (per_suit[x], -x))
            choices.append(Choice(a, per_suit[s], None, {"suit": float(s)}))
        ordered, best = ranked(choices, expert, tolerance=float("inf"))
        return Evaluation("bid", "chance", ordered, best, worlds=table["worlds"],
                          info={"partner_meld": table["partner_signal"], "table": table})

    # -- reasons --------------------------------------------------------------------------
    def reason(self, observation: dict[str, Any], evaluation: Evaluation) -> Reason:
        """The best choice's figure, and what partner's meld bid showed (sentences of the
        message catalog, keys ``dd.reason.*``)."""
        ev = evaluation
        c = ev.best_choice()
        signal = partner_signal(observation)
        k = observation["scale"]
        told = [said("dd.partner_shown", meld=signal * k)] if signal else []
        if ev.kind == "bid":
            if c.value is None or c.action == (K_BID, 0):
                return join(said("dd.reason.pass"), *told)
            sym = SUIT_SYMBOLS[int(c.facts.get("suit", 0))]
            return join(said("dd.reason.bid", amount=c.action[1], suit=sym,  # type: ignore[index]
                             chance=pct(c.value), worlds=ev.worlds), *told)
        if c.value is None:
            return join(said("dd.reason.choice"), *told)
        return join(said("dd.reason.best", worlds=ev.worlds, value=pts(c.value)), *told)

    # -- the bid helper -------------------------------------------------------------------
    def helper(self, observation: dict[str, Any], legal: Sequence[Action],
               rng: random.Random, effort: Effort,
               evaluation: Evaluation | None = None) -> dict[str, Any] | None:
        """During the auction: per trump suit the mean meld of both hands, the counters
        and the chance of making each amount from the lowest bid on (from the deals of
        ``evaluation`` when given: the hint's own)."""
        obs = observation
        if obs["phase"] != "bidding":
            return None
        table = (evaluation.info.get("table") if evaluation is not None else None) \
            or bid_table(obs, rng, effort.worlds(BID_WORLDS, 16))
        return helper_rows(obs, table)


def partner_signal(obs: dict[str, Any]) -> int:
    """Meld (unit scale) partner showed by a meld bid this auction, 0 if none."""
    return meld_signals(obs).get((obs["seat"] + 2) % 4, 0) if obs.get("bids") else 0


def chance(totals: Sequence[int], amount: int) -> float:
    """Share of ``totals`` at or above ``amount``."""
    return sum(1 for t in totals if t >= amount) / len(totals) if totals else 0.0


def bid_table(obs: dict[str, Any], rng: random.Random, worlds: int) -> dict[str, Any]:
    """Sampled deals that fit partner's meld bid; per trump suit and deal the side's meld
    (both hands; none unless it reaches 20) and the counters the side takes with this seat
    declaring and leading, unit scale."""
    me = obs["seat"]
    partner = (me + 2) % 4
    signal = partner_signal(obs)
    scheme = obs["options"]["counters"]
    counter = np.array([COUNTER_FACES[scheme] >> f & 1 for f in range(FACES)], np.int64)
    must_head = int(bool(obs["options"]["must_head"]))
    own = _tally(obs["hand"])
    own_melds = meld_totals(from_counts(own))
    places = Places(obs, strict=False)
    totals: list[list[int]] = [[], [], [], []]
    melds: list[list[int]] = [[], [], [], []]
    partner_melds: list[list[int]] = [[], [], [], []]
    counters: list[list[int]] = [[], [], [], []]
    counts = np.zeros(4 * FACES, np.int64)
    trick = np.zeros(4, np.int64)
    result = np.zeros(4, np.int64)
    for _ in range(worlds):
        placed = places.place(rng)
        for _ in range(BID_TRIES - 1):
            if not signal:
                break
            best = max(meld_totals(from_counts(placed[partner])))
            if signal <= best < signal + 10:
                break
            placed = places.place(rng)
        hands = [own if p == me else placed[p] for p in range(4)]
        pmask = from_counts(hands[partner])
        for s in range(4):
            counts[:] = [n for h in hands for n in h]
            KERNELS.play_out(counts, trick, 0, me, s, must_head, counter, me % 2, 0, result)
            got = int(result[me % 2])
            pm = meld_total(pmask, s)
            side = own_melds[s] + pm
            if side < 20:
                side = 0
            melds[s].append(own_melds[s])
            partner_melds[s].append(pm)
            counters[s].append(got)
            totals[s].append(side + got)
    return {"worlds": worlds, "totals": totals, "meld": melds, "partner_meld": partner_melds,
            "counters": counters, "partner_signal": signal}


def helper_rows(obs: dict[str, Any], table: dict[str, Any]) -> dict[str, Any]:
    """The bid helper's table (shown scale) from :func:`bid_table`."""
    from cardplaza.games.pinochle_dd.engine import next_allowed

    k = obs["scale"]
    steps = obs["options"]["bid_steps"]
    n = max(1, table["worlds"])
    high = (obs["high_bid"] or 0) // k
    amount = next_allowed(high, steps)
    top = obs["max_bid"] // k
    amounts: list[int] = []
    while amount <= top:
        amounts.append(amount)
        if max(chance(t, amount) for t in table["totals"]) < HELPER_FLOOR:
            break
        amount = next_allowed(amount, steps)
    suits = []
    for s in range(4):
        t = table["totals"][s]
        suits.append({
            "suit": s, "symbol": SUIT_SYMBOLS[s],
            "meld": round(k * sum(table["meld"][s]) / n, 1),
            "partner_meld": round(k * sum(table["partner_meld"][s]) / n, 1),
            "counters": round(k * sum(table["counters"][s]) / n, 1),
            "tricks": round(k * sum(table["counters"][s]) / n, 1),
            "mean": round(k * sum(t) / n, 1),
            "chances": [round(chance(t, a), 3) for a in amounts],
        })
    best_suit = max(range(4), key=lambda s: (suits[s]["mean"], -s))
    limit = max((a for a in amounts
                 if chance(table["totals"][best_suit], a) >= MAKE_CHANCE), default=None)
    return {"kind": "bids", "unit": "chance", "amounts": [a * k for a in amounts],
            "suits": suits, "worlds": table["worlds"], "best_suit": best_suit,
            "limit": None if limit is None else limit * k, "high_bid": obs["high_bid"],
            "min_bid": obs["min_bid"], "players": 4,
            "partner_signal": table["partner_signal"] * k, "make_prob": MAKE_CHANCE,
            "note_key": "dd.helper.note"}


def make_advisor() -> DoubleDeckAdvisor:
    """The registry hook."""
    return DoubleDeckAdvisor()


__all__ = ["DoubleDeckAdvisor", "bid_table", "helper_rows", "make_advisor"]
