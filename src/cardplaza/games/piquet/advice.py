"""Piquet advice: the expert's analysis of the exchange and of every card.

* **Exchange** — the expert's candidates (the best discards by a hand-value estimate,
  overall and for each allowed size) valued over the same sampled talons and opponent
  hands: the declaration margin of the final hands plus the rolled-out trick margin. All
  get the expert's first round of samples, the best twelve the full set, as the expert
  races them. The exchange helper lists the best discards with their expected points.
* **Card play** — the expert's search: opponent hands consistent with the declarations and
  the play so far, every distinct card played out on bitmasks, and once seven or fewer
  tricks remain each sampled world solved exactly (:class:`EndgameSolver`).

Values are points of the seat's margin over the rest of the deal. Declarations are made
in full and truthfully, as the expert does. Marks (points lost): inaccuracy from 3,
mistake from 6, blunder from 12.
"""

from __future__ import annotations

import itertools
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
    shares,
)
from cardplaza.core.cards import PIQUET, mask_of
from cardplaza.core.protocol import Action
from cardplaza.games.piquet.players import (
    BUDGETS,
    EXACT_TRICKS,
    EndgameSolver,
    TrickPos,
    TrickRules,
    _allowed_sizes,
    _equivalents,
    _exchange_value,
    _lead_ten,
    _unseen,
    _with_hand,
    choose_card,
    choose_declaration,
    distinct_cards,
    hand_value,
    rollout,
    rollout_card,
    trick_position,
)
from cardplaza.games.piquet.search import PlaySampler
from cardplaza.games.piquet.state import EXCH, PiquetState

_EXPERT: dict[str, Any] = {
    "exchange_top": 90, "exchange_first": 40, "exchange_finalists": 12,
    "exchange_samples": 200, "play_sims": 2400, "min_worlds": 100, "max_worlds": 1200,
    "exact_worlds": 600, "exact_tricks": EXACT_TRICKS, "exact_nodes": 100_000,
    "min_exact_worlds": 24,
}
_EXPERT.update(BUDGETS["expert"])


def _card(c: int) -> str:
    return PIQUET.text(c)


def _name(action: Action) -> str:
    if isinstance(action, int):
        return _card(action)
    assert isinstance(action, tuple)
    if action[0] == EXCH:
        return "discard " + (PIQUET.format_mask(action[1]) if action[1] else "none")
    return repr(action)


def _name_ja(action: Action) -> str:
    if isinstance(action, int):
        return _card(action)
    assert isinstance(action, tuple)
    if action[0] == EXCH:
        return "捨て札" + (PIQUET.format_mask(action[1]) if action[1] else "なし")
    return repr(action)


class PiquetAdvisor:
    """The expert's analysis of Piquet decisions."""

    thresholds = Thresholds(3, 6, 12)

    def __init__(self, budget: dict[str, Any] | None = None) -> None:
        self.b = dict(_EXPERT if budget is None else budget)

    def thresholds_for(self, observation: dict[str, Any]) -> Thresholds:
        """Thresholds in points (the same in every partie)."""
        return self.thresholds

    def hand_of(self, observation: dict[str, Any]) -> int:
        """The deal number."""
        return int(observation["deal"])

    def evaluate(self, observation: dict[str, Any], legal: Sequence[Action],
                 rng: random.Random, effort: Effort,
                 include: Sequence[Action] = ()) -> Evaluation:
        """Exchange or card-play evaluation; declarations are made in full."""
        phase = observation["phase"]
        if phase in ("exchange_elder", "exchange_younger") and len(legal) > 1:
            return self._exchange(observation, legal, rng, effort, include)
        if phase == "play":
            return self._play(observation, legal, rng, effort)
        best = choose_declaration(legal) if phase == "declare" else legal[0]
        kind = "declare" if phase == "declare" else "exchange"
        return Evaluation(kind, "points", [Choice(a, None) for a in legal], best)

    # -- exchange ---------------------------------------------------------------------------
    def _exchange(self, obs: dict[str, Any], legal: Sequence[Action], rng: random.Random,
                  effort: Effort, extra: Sequence[Action] = ()) -> Evaluation:
        b = self.b
        hand = mask_of(obs["hand"])
        cards = list(obs["hand"])
        unknown = _unseen(obs)
        sizes = _allowed_sizes(legal)
        by_size: list[list[tuple[float, int]]] = []
        for k in sizes:
            row = [(hand_value(hand & ~d) + 1.1 * k, d)
                   for d in (mask_of(c) for c in itertools.combinations(cards, k))]
            row.sort(key=lambda t: -t[0])
            by_size.append(row)
        top = b["exchange_top"]
        per_size = max(1, top // (2 * len(sizes)))
        cands = list(dict.fromkeys(
            [d for row in by_size for _v, d in row[:per_size]]
            + [d for _v, d in sorted((t for row in by_size for t in row),
                                     key=lambda t: -t[0])[:top]]))
        forced = [a[1] for a in extra if isinstance(a, tuple) and a[0] == EXCH]
        for d in forced:
            if d not in cands:
                cands.append(d)
        elder = obs["role"] == "elder"
        rules = TrickRules(0 if elder else 1, _lead_ten(obs["options"]),
                           10 if obs["options"].get("last_trick_ten") else 1)
        n_samples = effort.worlds(b["exchange_samples"], 20)
        samples = [rng.sample(unknown, len(unknown)) for _ in range(n_samples)]
        first = min(effort.worlds(b["exchange_first"] or n_samples, 10), n_samples)
        shown = mask_of(obs["revealed_dealt"].get(str(1 - obs["seat"]), []))
        per: dict[int, list[int]] = {}
        for d in cands:
            k = d.bit_count()
            per[d] = [_exchange_value(hand & ~d, k, [deck], elder, rules, shown)
                      for deck in samples[:first]]
        finalists = sorted(cands, key=lambda d: -sum(per[d]))[:b["exchange_finalists"]]
        for d in forced:
            if d not in finalists:
                finalists.append(d)
        for d in finalists:
            k = d.bit_count()
            per[d] += [_exchange_value(hand & ~d, k, [deck], elder, rules, shown)
                       for deck in samples[first:]]
        rows = [[float(per[d][w]) for d in finalists] for w in range(len(samples))]
        fin_shares = shares(rows)
        choices = []
        for i, d in enumerate(finalists):
            choices.append(Choice((EXCH, d), sum(per[d]) / len(per[d]), fin_shares[i],
                                  {"cards": float(d.bit_count()),
                                   "samples": float(len(per[d]))}))
        for d in cands:
            if d in finalists:
                continue
            choices.append(Choice((EXCH, d), sum(per[d]) / len(per[d]), None,
                                  {"cards": float(d.bit_count()),
                                   "samples": float(len(per[d]))}))
        expert = max(finalists, key=lambda d: sum(per[d]))
        fin_choices = [c for c in choices if c.share is not None]
        rest = [c for c in choices if c.share is None]
        ordered, best = ranked(fin_choices, (EXCH, expert))
        rest.sort(key=lambda c: -(c.value or 0.0))
        return Evaluation("exchange", "points", ordered + rest, best, worlds=len(samples))

    # -- card play ---------------------------------------------------------------------------
    def _play(self, obs: dict[str, Any], legal: Sequence[Action], rng: random.Random,
              effort: Effort) -> Evaluation:
        from cardplaza.games.piquet.world import sample_world

        b = self.b
        seat = obs["seat"]
        ints = [a for a in legal if isinstance(a, int)]
        cards = distinct_cards(obs, ints)
        same = {c: tuple(sorted(int(x) for x in _equivalents(obs, c, ints) if x != c))  # type: ignore[call-overload]
                for c in cards}
        preferred = choose_card(obs, legal)
        if len(cards) == 1:
            return Evaluation("play", "points", [Choice(cards[0], None, 1.0, {},
                                                        same[cards[0]])], preferred)
        exact = len(obs["hand"]) <= b["exact_tricks"]
        worlds = max(b["min_worlds"], min(b["max_worlds"], -(-b["play_sims"] // len(cards))))
        if exact:
            worlds = min(worlds, b["exact_worlds"])
        worlds = effort.worlds(worlds, 8)
        sampler = PlaySampler(obs, rng)
        if not sampler.ok:
            worlds = min(worlds, b["min_worlds"])
        determined = bool(sampler.ok and len(sampler.pool) == sampler.need)
        sign = 1 if seat == 0 else -1
        rows: list[list[float]] = []
        wins = dict.fromkeys(cards, 0)
        nodes = 0
        base: TrickPos | None = None
        rules: TrickRules | None = None
        opp = 1 - seat
        lead = obs["trick"]["cards"][0] if obs["trick"]["cards"] else -1
        while len(rows) < worlds and effort.more(len(rows), 8):
            if exact and len(rows) >= b["min_exact_worlds"] and nodes >= b["exact_nodes"] \
                    and not determined:
                break
            hand: int | None = sampler.sample(rng) if sampler.ok else None
            if hand is None or base is None or rules is None:
                try:
                    world = sample_world(obs, rng)
                except RuntimeError:
                    break
                assert isinstance(world, PiquetState)
                rules = TrickRules.of(world)
                base = trick_position(world)
                if hand is None:
                    hand = world.hands[opp]
            pos = _with_hand(base, opp, hand)
            if exact:
                solver = EndgameSolver(rules)
                values = solver.root_values(pos, cards)
                nodes += solver.nodes
                row = [float(sign * values[c]) for c in cards]
            else:
                row = []
                for c in cards:
                    d, nxt = rules.play(pos, c)
                    row.append(float(sign * (d + rollout(rules, nxt))))
            for c in cards:
                if lead >= 0:
                    won = c >> 3 == lead >> 3 and c > lead
                else:
                    _d, nxt = rules.play(pos, c)
                    reply = rollout_card(nxt)
                    won = not (reply >> 3 == c >> 3 and reply > c)
                if won:
                    wins[c] += 1
            rows.append(row)
            if determined and exact:
                break
        k = max(1, len(rows))
        facts: dict[Action, dict[str, float]] = {c: {"trick": wins[c] / k} for c in cards}
        choices = build_choices(list(cards), rows, dict(same.items()), facts)
        ordered, best = ranked(choices, preferred)
        return Evaluation("play", "points", ordered, best, worlds=len(rows),
                          exact=exact and bool(rows), determined=determined,
                          info={"nodes": nodes})

    # -- reasons -----------------------------------------------------------------------------
    def reason(self, observation: dict[str, Any], evaluation: Evaluation) -> Reason:
        """Why the best choice is best."""
        ev = evaluation
        obs = observation
        if ev.kind == "declare":
            return {"en": "Declare in full and truthfully: every combination you score "
                          "counts, and the calls tell nothing you could hide.",
                    "ja": "すべて正直に申告します。得点できる組み合わせはすべて数えます。"}
        valued = [c for c in ev.choices if c.value is not None]
        if len(valued) <= 1:
            return {"en": "It is the only choice.", "ja": "これしか選べません。"}
        best = ev.best_choice()
        parts: list[Reason] = []
        if ev.kind == "exchange":
            d = best.action[1]  # type: ignore[index]
            k = d.bit_count()
            text = PIQUET.format_mask(d) if d else "nothing"
            parts.append({"en": f"Discard {text} ({k} card{'s' if k != 1 else ''}): over "
                                f"{ev.worlds} sampled draws your declarations and tricks "
                                f"come to {pts(best.value or 0)} points more than the "
                                "opponent's, the best of the discards tried.",
                          "ja": f"{text if d else 'なし'}を捨てます（{k}枚）。{ev.worlds}通りの"
                                f"引きの試算で、申告とトリックの合計が相手より平均"
                                f"{pts(best.value or 0)}点多く、試した中で最善です。"})
        else:
            c = best.action
            assert isinstance(c, int)
            text = _card(c)
            trick = best.facts.get("trick", 0.0)
            if ev.exact and ev.determined:
                parts.append({"en": f"Exact, since the opponent's cards are known: {text} "
                                    f"gains {pts(best.value or 0)} points over the rest of "
                                    "the deal.",
                              "ja": f"相手の札が確定しているので正確な値です。{text}で残りの"
                                    f"ディールを{pts(best.value or 0)}点差にします。"})
            elif ev.exact:
                parts.append({"en": f"Every sampled deal solved exactly: {text} averages "
                                    f"{pts(best.value or 0)} points over the rest of the "
                                    "deal.",
                              "ja": f"試算した配りを最後まで正確に読みました。{text}で残りの"
                                    f"ディールは平均{pts(best.value or 0)}点差です。"})
            none_wins = all(x.facts.get("trick", 0.0) < 0.01 for x in valued)
            if trick >= 0.5:
                parts.append({"en": f"{text} wins the trick in {pct(trick)} of sampled deals.",
                              "ja": f"{text}は試算した配りの{pct(trick)}でトリックを取ります。"})
            elif none_wins and obs["trick"]["cards"]:
                parts.append({"en": f"No card of yours wins this trick: {text} is the one to "
                                    "give.",
                              "ja": f"このトリックに勝てる札はありません。出すなら{text}です。"})
            else:
                parts.append({"en": f"{text} gives up this trick (won in {pct(trick)} of "
                                    "sampled deals) to keep your stronger cards.",
                              "ja": f"{text}でこのトリックは譲り（取れるのは{pct(trick)}）、"
                                    "強い札を残します。"})
        parts.append(comparison(ev, _name, _name_ja))
        if not (ev.exact and ev.determined) and ev.kind == "play":
            parts.append({"en": f"({ev.worlds} sampled deals)",
                          "ja": f"（{ev.worlds}通りの配りで試算）"})
        return join(*parts)

    # -- helper ------------------------------------------------------------------------------
    def helper(self, observation: dict[str, Any], legal: Sequence[Action],
               rng: random.Random, effort: Effort) -> dict[str, Any] | None:
        """At the exchange: the best discards with their expected points."""
        if observation["phase"] not in ("exchange_elder", "exchange_younger") \
                or len(legal) <= 1:
            return None
        ev = self._exchange(observation, legal, rng, effort)
        rows = []
        for c in ev.choices[:8]:
            d = c.action[1]  # type: ignore[index]
            rows.append({"cards": [i for i in range(32) if d >> i & 1],
                         "text": PIQUET.format_mask(d) if d else "none",
                         "count": d.bit_count(),
                         "value": None if c.value is None else round(c.value, 1),
                         "share": None if c.share is None else round(c.share, 3)})
        return {"kind": "exchange", "unit": "points", "worlds": ev.worlds, "rows": rows,
                "role": observation["role"]}


def make_advisor() -> PiquetAdvisor:
    """The registry hook."""
    return PiquetAdvisor()


__all__ = ["PiquetAdvisor", "make_advisor"]
