"""E-fuda-tori advice: the expert's evaluation of every card, and reasons.

The expert samples deals of the hidden hands consistent with the observation (known
cards kept, revealed voids respected), reshuffles the stock for each, plays every legal
card out with the bitmask heuristic (the same worlds for every card) and takes the best
mean margin (own score minus the others' mean). Once the stock is empty and few play
orders remain, each sampled deal is solved exactly (max-n). With two players and an empty
stock the opponent's hand is known, so the values are exact.

Marks (points of margin lost): inaccuracy from 4, mistake from 10, blunder from 20.
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
    comparison,
    join,
    pct,
    pts,
    ranked,
)
from cardplaza.core.cards import FULL_DECK
from cardplaza.core.protocol import Action
from cardplaza.games.efudatori import rules
from cardplaza.games.efudatori.kernels import KERNELS, POINTS
from cardplaza.games.efudatori.players import (
    EXPERT_EXACT_WORLDS,
    EXPERT_MAX_WORLDS,
    EXPERT_MIN_WORLDS,
    EXPERT_SIMS,
    EXPERT_WIDE_EXACT_WORLDS,
    HeuristicPlayer,
    SearchPlayer,
    make_player,
)
from cardplaza.games.efudatori.rules import JOKER, SPADE_ACE, SPADE_THREE
from cardplaza.games.efudatori.worlds import HiddenDeals

FACT_WORLDS = 150
"""Sampled worlds for the chance that a card wins the current trick."""


def _card(c: int) -> str:
    return FULL_DECK.text(c)


def _name(action: Action) -> str:
    assert isinstance(action, int)
    return _card(action)


class EfudatoriAdvisor:
    """The expert's analysis of E-fuda-tori card play."""

    thresholds = Thresholds(4, 10, 20)

    def __init__(self) -> None:
        self.heuristic = HeuristicPlayer()

    def thresholds_for(self, observation: dict[str, Any]) -> Thresholds:
        """Thresholds in points."""
        return self.thresholds

    def hand_of(self, observation: dict[str, Any]) -> int:
        """One deal per game."""
        return 1

    def evaluate(self, observation: dict[str, Any], legal: Sequence[Action],
                 rng: random.Random, effort: Effort,
                 include: Sequence[Action] = ()) -> Evaluation:
        """Each legal card's margin in each world of the expert's own search."""
        obs = observation
        cards = [a for a in legal if isinstance(a, int)]
        if len(cards) == 1:
            return Evaluation("play", "points", [Choice(cards[0], None, 1.0)], cards[0])
        expert = make_player("expert")
        assert isinstance(expert, SearchPlayer)
        expert.sims = effort.worlds(EXPERT_SIMS, 16)
        expert.min_worlds = effort.worlds(EXPERT_MIN_WORLDS, 16)
        expert.max_worlds = effort.worlds(EXPERT_MAX_WORLDS, 16)
        expert.exact_worlds = effort.worlds(EXPERT_EXACT_WORLDS, 8)
        expert.wide_exact_worlds = effort.worlds(EXPERT_WIDE_EXACT_WORLDS, 8)
        # The expert's own rule says whether this ending is solved exactly; with two players
        # and an empty stock every world is then the same one.
        exact = expert.exact_worlds_for(obs) > 0
        determined = exact and obs["players"] == 2
        if determined:
            expert.exact_worlds = expert.wide_exact_worlds = 1
        expert.cpu_seconds = (None if effort.seconds is None
                              else max(0.05, effort.seconds - effort.elapsed()))
        av = expert.evaluate(obs, cards, rng)
        k = min(len(v) for v in av.values)
        rows = [[av.values[i][w] for i in range(len(cards))] for w in range(k)]
        facts = None if exact else self._trick_facts(obs, cards,
                                                     random.Random(rng.getrandbits(64)))
        prefer = self.heuristic.choose(obs, legal, random.Random(0))
        choices = build_choices(list(cards), rows, None, facts)
        if determined:
            for choice in choices:
                choice.share = None
        ordered, best = ranked(choices, prefer)
        return Evaluation("play", "points", ordered, best, worlds=k, exact=av.exact,
                          determined=determined)

    @staticmethod
    def _trick_facts(obs: dict[str, Any], cards: list[int], rng: random.Random,
                     worlds: int = FACT_WORLDS) -> dict[Action, dict[str, float]]:
        """Chance that each card wins the current trick, the later hands played by the
        expert's play-out policy in sampled worlds."""
        deals = HiddenDeals(obs)
        n = obs["players"]
        seat = obs["seat"]
        trick = [c for _, c in obs["trick"]]
        leader = obs["leader"]
        k = obs["trick_number"]
        captured = [rules.mask_of_list(m) for m in obs["captured"]]
        wins = dict.fromkeys(cards, 0)
        playout = KERNELS.playout
        tr = np.array(trick, dtype=np.int64)
        for _ in range(worlds):
            hands, stock = deals.sample(rng)
            for c in cards:
                # A total of ``k`` tricks stops the play-out after the current one.
                cap = np.array(captured, dtype=np.int64)
                playout(np.array(hands, dtype=np.int64), np.array(stock, dtype=np.int64),
                        len(stock), tr, len(trick), leader, k, cap, n, k, c)
                if int(cap[seat]) >> c & 1:
                    wins[c] += 1
        return {c: {"trick": wins[c] / worlds} for c in cards}

    def reason(self, observation: dict[str, Any], evaluation: Evaluation) -> Reason:
        """Why the best card is best."""
        ev = evaluation
        obs = observation
        if len(ev.choices) <= 1:
            return {"en": "It is the only card you may play.", "ja": "出せるのはこの札だけです。"}
        best = ev.best_choice()
        c = best.action
        assert isinstance(c, int)
        text = _card(c)
        parts: list[Reason] = []
        hand = set(obs["hand"])
        trick_cards = [x for _, x in obs["trick"]]
        at_stake = sum(POINTS[x] for x in trick_cards) + POINTS[c]
        if ev.exact and ev.determined:
            parts.append({"en": f"Exact, since every card is known now: {text} ends the game "
                                f"with a margin of {pts(best.value or 0)}.",
                          "ja": f"すべての札が分かっているので正確な値です。{text}で最終的な差は"
                                f"{pts(best.value or 0)}点です。"})
        elif ev.exact:
            parts.append({"en": f"Every sampled deal read to the end exactly: {text} averages "
                                f"a margin of {pts(best.value or 0)}.",
                          "ja": f"試算した配りを最後まで正確に読みました。{text}で平均"
                                f"{pts(best.value or 0)}点差です。"})
        trick = best.facts.get("trick")
        if trick is not None:
            if trick >= 0.5:
                stake = (f", taking {at_stake} points of pictures" if at_stake else "")
                stake_ja = f"（絵札{at_stake}点）" if at_stake else ""
                parts.append({"en": f"{text} wins the trick in {pct(trick)} of sampled "
                                    f"deals{stake}.",
                              "ja": f"{text}は試算した配りの{pct(trick)}でトリックを取ります"
                                    f"{stake_ja}。"})
            elif trick > 0.05:
                parts.append({"en": f"{text} wins the trick in only {pct(trick)} of sampled "
                                    "deals, yet it scores best.",
                              "ja": f"{text}でトリックを取れるのは試算の{pct(trick)}だけですが、"
                                    "結果は最善です。"})
            else:
                parts.append({"en": f"{text} lets this trick go (won in {pct(trick)} of "
                                    "sampled deals).",
                              "ja": f"{text}でこのトリックは見送ります"
                                    f"（取れるのは{pct(trick)}）。"})
        if JOKER in hand and c != JOKER:
            parts.append({"en": "It keeps the Joker for a richer trick.",
                          "ja": "ジョーカーはもっと点の多いトリックのために残します。"})
        elif SPADE_ACE in hand and c != SPADE_ACE and c != JOKER:
            parts.append({"en": f"It keeps the {_card(SPADE_ACE)} for later.",
                          "ja": f"{_card(SPADE_ACE)}は後のために残します。"})
        if c == SPADE_THREE and JOKER not in hand and JOKER not in trick_cards:
            parts.append({"en": f"The {_card(SPADE_THREE)} hunts the Joker: a holder who must "
                                "follow gives it up.",
                          "ja": f"{_card(SPADE_THREE)}でジョーカーを狩ります。"})
        parts.append(comparison(ev, _name))
        if not (ev.exact and ev.determined):
            parts.append({"en": f"({ev.worlds} sampled deals)",
                          "ja": f"（{ev.worlds}通りの配りで試算）"})
        return join(*parts)

    def helper(self, observation: dict[str, Any], legal: Sequence[Action],
               rng: random.Random, effort: Effort,
               evaluation: Evaluation | None = None) -> dict[str, Any] | None:
        """No separate decision helper (every decision is a card)."""
        return None


def make_advisor() -> EfudatoriAdvisor:
    """The registry hook."""
    return EfudatoriAdvisor()


__all__ = ["EfudatoriAdvisor", "make_advisor"]
