"""Piquet advice: the expert's analysis of the exchange and of every card.

* **Exchange** — the expert's candidates (the best discards by a hand-value estimate,
  overall and for each allowed size) valued over the same sampled talons and opponent
  hands: the declaration margin of the final hands plus the rolled-out trick margin. All
  get the expert's first round of samples, the best twelve the full set, as the expert
  races them. The exchange helper lists the best discards with their expected points.
* **Card play** — the expert's search: opponent hands consistent with the declarations and
  the play so far, every distinct card played out on bitmasks, and once seven or fewer
  tricks remain each sampled world solved exactly (:func:`.players.exact_values`).

Values are points of the seat's margin over the rest of the deal. Declarations are made
in full and truthfully, as the expert does. Marks (points lost): inaccuracy from 3,
mistake from 6, blunder from 12.
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
    shares,
)
from cardplaza.core.cards import PIQUET, mask_of
from cardplaza.core.protocol import Action
from cardplaza.games.piquet.kernels import play, rollout_card
from cardplaza.games.piquet.players import (
    BUDGETS,
    EXACT_TRICKS,
    ExpertPlayer,
    TrickPos,
    TrickRules,
    _equivalents,
    _exchange_values,
    _lead_ten,
    _unseen,
    choose_card,
    choose_declaration,
    distinct_cards,
    trick_position,
)
from cardplaza.games.piquet.search import PlaySampler
from cardplaza.games.piquet.state import EXCH, PiquetState

FACT_WORLDS = 200
"""Sampled worlds for the chance that a led card wins the trick (a figure of the reason)."""

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

    def _expert(self, effort: Effort) -> ExpertPlayer:
        """The expert with its budgets scaled by the effort (no CPU cap unless a clock)."""
        b = dict(self.b)
        for key in ("exchange_samples", "exchange_first", "play_sims", "min_worlds",
                    "max_worlds", "exact_worlds", "exact_nodes", "min_exact_worlds"):
            if b.get(key):
                b[key] = effort.worlds(int(b[key]), 4)
        cap = None if effort.seconds is None else max(0.05, effort.seconds - effort.elapsed())
        return ExpertPlayer(name="piquet-advice", time_cap=cap, **b)

    # -- exchange ---------------------------------------------------------------------------
    def _exchange(self, obs: dict[str, Any], legal: Sequence[Action], rng: random.Random,
                  effort: Effort, extra: Sequence[Action] = ()) -> Evaluation:
        expert = self._expert(effort)
        av = expert.exchange_values(obs, legal, rng)
        full = max(len(v) for v in av.values)
        finalists = [i for i, v in enumerate(av.values) if len(v) == full]
        rows = [[av.values[i][w] for i in finalists] for w in range(full)]
        fin_shares = shares(rows)
        choices: list[Choice] = []
        for j, i in enumerate(finalists):
            d = av.actions[i][1]  # type: ignore[index]
            choices.append(Choice(av.actions[i], sum(av.values[i]) / full, fin_shares[j],
                                  {"cards": float(d.bit_count()), "samples": float(full)}))
        fin_choices = list(choices)
        best_i = max(finalists, key=lambda i: sum(av.values[i]))
        rest: list[Choice] = []
        for i, v in enumerate(av.values):
            if i in finalists:
                continue
            d = av.actions[i][1]  # type: ignore[index]
            rest.append(Choice(av.actions[i], sum(v) / len(v) if v else None, None,
                               {"cards": float(d.bit_count()), "samples": float(len(v))}))
        known = set(av.actions)
        for a in extra:
            if isinstance(a, tuple) and a[0] == EXCH and a not in known:
                rest.append(self._paired(obs, a, av.actions[best_i],
                                         sum(av.values[best_i]) / full, rng, full))
        ordered, best = ranked(fin_choices, av.actions[best_i])
        rest.sort(key=lambda c: -(c.value or 0.0))
        return Evaluation("exchange", "points", ordered + rest, best, worlds=full)

    @staticmethod
    def _paired(obs: dict[str, Any], action: Action, best: Action, best_value: float,
                rng: random.Random, samples: int) -> Choice:
        """A discard the expert did not consider, valued against its best discard on the
        same fresh samples (its value is the best's minus the paired difference)."""
        hand = mask_of(obs["hand"])
        unknown = _unseen(obs)
        elder = obs["role"] == "elder"
        rules = TrickRules(0 if elder else 1, _lead_ten(obs["options"]),
                           10 if obs["options"].get("last_trick_ten") else 1)
        decks = [rng.sample(unknown, len(unknown)) for _ in range(samples)]
        shown = mask_of(obs["revealed_dealt"].get(str(1 - obs["seat"]), []))
        d_best, d = best[1], action[1]  # type: ignore[index]
        row_best, row = _exchange_values(hand, [d_best, d], decks, 0, samples, elder, rules,
                                         shown)
        vb = sum(row_best) / samples
        va = sum(row) / samples
        return Choice(action, best_value - (vb - va), None,
                      {"cards": float(d.bit_count()), "samples": float(samples)})

    # -- card play ---------------------------------------------------------------------------
    def _play(self, obs: dict[str, Any], legal: Sequence[Action], rng: random.Random,
              effort: Effort) -> Evaluation:
        ints = [a for a in legal if isinstance(a, int)]
        cards = distinct_cards(obs, ints)
        same = {c: tuple(sorted(int(x) for x in _equivalents(obs, c, ints)  # type: ignore[call-overload]
                                if x != c)) for c in cards}
        preferred = choose_card(obs, legal)
        if len(cards) == 1:
            return Evaluation("play", "points", [Choice(cards[0], None, 1.0, {},
                                                        same[cards[0]])], preferred)
        av = self._expert(effort).card_values(obs, cards, rng)
        k = min(len(v) for v in av.values)
        rows = [[av.values[i][w] for i in range(len(cards))] for w in range(k)]
        facts = self._trick_facts(obs, cards, random.Random(rng.getrandbits(64)))
        sampler = PlaySampler(obs, random.Random(0))
        determined = bool(sampler.ok and len(sampler.pool) == sampler.need)
        choices = build_choices(list(cards), rows, same, facts)
        if determined and av.exact:
            for ch in choices:
                ch.share = None
        ordered, best = ranked(choices, preferred)
        return Evaluation("play", "points", ordered, best, worlds=k, exact=av.exact and k > 0,
                          determined=determined, info=dict(av.stats))

    @staticmethod
    def _trick_facts(obs: dict[str, Any], cards: list[int], rng: random.Random,
                     worlds: int = FACT_WORLDS) -> dict[Action, dict[str, float]]:
        """Chance that each card wins the current trick: certain when following; when
        leading, against the opponent's reply by the play-out policy in sampled worlds."""
        from cardplaza.games.piquet.world import sample_world

        lead = obs["trick"]["cards"][0] if obs["trick"]["cards"] else -1
        if lead >= 0:
            return {c: {"trick": 1.0 if (c >> 3 == lead >> 3 and c > lead) else 0.0}
                    for c in cards}
        sampler = PlaySampler(obs, rng)
        opp = 1 - obs["seat"]
        wins = dict.fromkeys(cards, 0)
        done = 0
        base: TrickPos | None = None
        rules: TrickRules | None = None
        for _ in range(worlds if sampler.ok else min(worlds, 16)):
            hand = sampler.sample(rng) if sampler.ok else None
            if base is None or rules is None or hand is None:
                try:
                    world = sampler.ref if sampler.ok else sample_world(obs, rng)
                except RuntimeError:
                    break
                assert isinstance(world, PiquetState)
                rules, base = TrickRules.of(world), trick_position(world)
                if hand is None:
                    hand = world.hands[opp]
            h0, h1 = (hand, base[1]) if opp == 0 else (base[0], hand)
            for c in cards:
                nxt = play(h0, h1, *base[2:], c, *rules.args())
                reply = rollout_card(nxt[1], nxt[2], nxt[3], nxt[4])
                if not (reply >> 3 == c >> 3 and reply > c):
                    wins[c] += 1
            done += 1
        return {c: {"trick": wins[c] / max(1, done)} for c in cards}

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
               rng: random.Random, effort: Effort,
               evaluation: Evaluation | None = None) -> dict[str, Any] | None:
        """At the exchange: the best discards with their expected points (those of
        ``evaluation`` when given: the hint's own)."""
        if observation["phase"] not in ("exchange_elder", "exchange_younger") \
                or len(legal) <= 1:
            return None
        ev = evaluation if evaluation is not None else self._exchange(observation, legal, rng,
                                                                      effort)
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
