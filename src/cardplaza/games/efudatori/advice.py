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
from cardplaza.games.efudatori.players import (
    EXACT_LEAVES,
    EXPERT_EXACT_WORLDS,
    EXPERT_MAX_WORLDS,
    EXPERT_MIN_WORLDS,
    EXPERT_SIMS,
    EXPERT_STOCK_ORDERS,
    HeuristicPlayer,
    MaxNSolver,
    end_position,
    play_orders,
)
from cardplaza.games.efudatori.rules import JOKER, SPADE_ACE, SPADE_THREE
from cardplaza.games.efudatori.search import POINTS, margin_of, playout, world_of
from cardplaza.games.efudatori.state import EfudatoriState


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
        """Mean margin of each legal card over the sampled worlds (same worlds for all)."""
        from cardplaza.games.efudatori import SPEC

        obs = observation
        cards = [a for a in legal if isinstance(a, int)]
        if len(cards) == 1:
            return Evaluation("play", "points", [Choice(cards[0], None, 1.0)], cards[0])
        sample = SPEC.sample_world
        assert sample is not None
        seat = obs["seat"]
        n = obs["players"]
        total = obs["tricks_total"]
        simple = obs["simple_scoring"]
        exact = obs["stock_size"] == 0 and play_orders(obs["hand_sizes"]) <= EXACT_LEAVES
        determined = exact and n == 2
        if exact:
            worlds = 1 if determined else effort.worlds(EXPERT_EXACT_WORLDS, 8)
        else:
            worlds = effort.worlds(max(EXPERT_MIN_WORLDS,
                                       min(EXPERT_MAX_WORLDS, -(-EXPERT_SIMS // len(cards)))),
                                   16)
        rows: list[list[float]] = []
        wins = dict.fromkeys(cards, 0)
        while len(rows) < worlds and effort.more(len(rows), 16):
            world = sample(obs, rng)
            assert isinstance(world, EfudatoriState)
            if exact:
                solver = MaxNSolver(n, total, simple)
                values = solver.root_values(end_position(world), cards, seat)
                rows.append([values[c] for c in cards])
                continue
            hands, stock, trick, leader, k, captured = world_of(world)
            for j in range(min(EXPERT_STOCK_ORDERS, worlds - len(rows))):
                if j:
                    rng.shuffle(stock)
                row = []
                for c in cards:
                    end = playout((list(hands), list(stock), list(trick), leader, k,
                                   list(captured)), n, total, c)
                    row.append(margin_of(end, seat, simple))
                    if end[seat] >> c & 1:
                        wins[c] += 1
                rows.append(row)
        facts = None if exact else {c: {"trick": wins[c] / len(rows)} for c in cards}
        prefer = self.heuristic.choose(obs, legal, random.Random(0))
        choices = build_choices(list(cards), rows, None, facts)
        if determined:
            for choice in choices:
                choice.share = None
        ordered, best = ranked(choices, prefer)
        return Evaluation("play", "points", ordered, best, worlds=len(rows), exact=exact,
                          determined=determined)

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
               rng: random.Random, effort: Effort) -> dict[str, Any] | None:
        """No separate decision helper (every decision is a card)."""
        return None


def make_advisor() -> EfudatoriAdvisor:
    """The registry hook."""
    return EfudatoriAdvisor()


__all__ = ["EfudatoriAdvisor", "make_advisor"]
