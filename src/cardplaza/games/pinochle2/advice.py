"""Two-hand Pinochle advice: the expert's (level 5) evaluation of each choice, and reasons.

The figures are level 5's own (:meth:`SimulationPlayer.evaluate`): while the stock lasts it
samples layouts of the unseen cards (the opponent's hidden hand and the stock) and plays
every distinct candidate out with level 3 for both players, the same layouts for every
candidate: a card's value is its mean final margin (own total minus the opponent's), with
the chance of winning the deal. Melding, declining and which meld are compared the same way.
In the playoff every card is known and each card's value is exact.

Marks (points of margin lost): inaccuracy from 15, mistake from 30, blunder from 60; or by
the chance of winning the game given up (15 / 30 / 50 points of chance), so a card that
turns a won game into a lost one by force is a blunder however few points it costs.
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
    comparison,
    join,
    pct,
    pts,
    ranked,
)
from cardplaza.core.protocol import Action
from cardplaza.games.pinochle2.engine import (
    CARD_TEXT,
    FACE_OF,
    MELD_NAMES,
    MELD_POINTS,
    NO_MELD,
    POINTS,
    SUIT_SYMBOLS,
    Pinochle2State,
)
from cardplaza.games.pinochle2.players import (
    MIN_SAMPLES_EXPERT,
    SAMPLES_EXPERT,
    Level3,
    SimulationPlayer,
    View,
    _signature,
    level3_rollout,
)
from cardplaza.games.pinochle2.world import sample_world

FACT_WORLDS = 120
"""Sampled worlds for the chance that a led card wins the trick."""

THRESHOLDS = Thresholds(15, 30, 60)

MELD_JA = {
    "run": "ラン", "royal marriage": "ロイヤルマリッジ", "marriage": "マリッジ",
    "dix": "ディクス", "pinochle": "ピノクル", "double pinochle": "ダブルピノクル",
    "aces around": "エース・アラウンド", "kings around": "キング・アラウンド",
    "queens around": "クイーン・アラウンド", "jacks around": "ジャック・アラウンド",
    "double run": "ダブルラン", "1000 aces": "1000エース", "800 kings": "800キング",
    "600 queens": "600クイーン", "400 jacks": "400ジャック",
}


def _card(c: int) -> str:
    return CARD_TEXT[c]


def _name(action: Action) -> str:
    if type(action) is int:
        return "no meld" if action == NO_MELD else _card(action)
    assert isinstance(action, tuple)
    return MELD_NAMES[action[0]]


def _name_ja(action: Action) -> str:
    if type(action) is int:
        return "メルドしない" if action == NO_MELD else _card(action)
    assert isinstance(action, tuple)
    return MELD_JA[MELD_NAMES[action[0]]]


Groups = dict[Action, tuple[Action, ...]]


def _groups(obs: dict[str, Any], legal: Sequence[Action]) -> tuple[list[Action], Groups]:
    """Distinct candidates (identical copies merged) and the legal actions each stands for."""
    v = View.from_observation(obs)
    reps: dict[tuple[int, ...], Action] = {}
    same: dict[Action, list[Action]] = {}
    out: list[Action] = []
    for a in legal:
        if type(a) is int and a != NO_MELD:
            sig = _signature(a, v)
            rep = reps.get(sig)
            if rep is not None:
                same[rep].append(a)
                continue
            reps[sig] = a
        out.append(a)
        same[a] = []
    return out, {a: tuple(s) for a, s in same.items()}


def _counters(obs: dict[str, Any]) -> list[int]:
    out = [0, 0]
    for t in obs["tricks"]:
        out[int(t["winner"])] += POINTS[int(t["cards"][0])] + POINTS[int(t["cards"][1])]
    return out


class Pinochle2Advisor:
    """The expert's analysis of two-hand Pinochle decisions."""

    thresholds = THRESHOLDS

    def __init__(self, worlds: int = SAMPLES_EXPERT) -> None:
        self.base_worlds = worlds

    def thresholds_for(self, observation: dict[str, Any]) -> Thresholds:
        """Thresholds in points."""
        return self.thresholds

    def hand_of(self, observation: dict[str, Any]) -> int:
        """One deal per game."""
        return 1

    # -- evaluation ---------------------------------------------------------------------
    def _expert(self, effort: Effort) -> SimulationPlayer:
        """Level 5 with its world budget scaled (and no clock unless the effort has one)."""
        seconds = None if effort.seconds is None else max(0.05, effort.seconds
                                                          - effort.elapsed())
        worlds = effort.worlds(self.base_worlds, 8)
        return SimulationPlayer("5", worlds, exact_playoff=True, seconds=seconds,
                                min_samples=min(MIN_SAMPLES_EXPERT, worlds))

    def evaluate(self, observation: dict[str, Any], legal: Sequence[Action],
                 rng: random.Random, effort: Effort,
                 include: Sequence[Action] = ()) -> Evaluation:
        """The expert's own evaluation: sampled play-outs in the stock phase, exact values
        in the playoff; the chance of winning the deal with each choice."""
        obs = observation
        cands, same = _groups(obs, legal)
        kind = "meld" if obs["step"] == "meld" else "play"
        if len(cands) == 1:
            return Evaluation(kind, "points", [Choice(cands[0], None, 1.0, {}, same[cands[0]])],
                              cands[0])
        found = {e.action: e for e in self._expert(effort).evaluate(obs, legal, rng)}
        exact = all(e.exact for e in found.values())
        facts: dict[Action, dict[str, float]] = {
            a: {"win": found[a].chance or 0.0} for a in cands if a in found}
        if kind == "play":
            for a, won in self._trick_facts(obs, cands, exact,
                                            random.Random(rng.getrandbits(64))).items():
                facts[a]["trick"] = won
        choices = [Choice(a, found[a].points if a in found else None, None, facts.get(a, {}),
                          same[a]) for a in cands]
        prefer = None if exact else Level3().choose(obs, legal, random.Random(0))
        ordered, best = ranked(choices, prefer)
        worlds = max((e.worlds for e in found.values()), default=0)
        return Evaluation(kind, "points", ordered, best, worlds=1 if exact else worlds,
                          exact=exact, determined=exact)

    @staticmethod
    def _trick_facts(obs: dict[str, Any], cands: list[Action], exact: bool,
                     rng: random.Random) -> dict[Action, float]:
        """Chance that each card wins the current trick: certain when following; when
        leading, against the opponent's level-3 reply in sampled worlds (the playoff's
        single world when every card is known)."""
        seat = int(obs["seat"])
        worlds = 1 if exact else FACT_WORLDS
        wins = dict.fromkeys(cands, 0)
        for _ in range(worlds):
            world = sample_world(obs, rng)
            assert isinstance(world, Pinochle2State)
            n = len(world.tricks)
            for a in cands:
                st = world.clone()
                st.apply(a)
                if len(st.tricks) == n:
                    st.apply(level3_rollout(st, rng))
                if st.tricks[n][3] == seat:
                    wins[a] += 1
        return {a: wins[a] / worlds for a in cands}

    # -- reasons ------------------------------------------------------------------------
    def reason(self, observation: dict[str, Any], evaluation: Evaluation) -> Reason:
        """Why the best choice is best, in words and figures from the evaluation."""
        ev = evaluation
        obs = observation
        best = ev.best_choice()
        parts: list[Reason] = []
        if len(ev.choices) == 1:
            return {"en": "It is the only choice.", "ja": "これしか選べません。"}
        if ev.kind == "meld":
            parts.append(self._meld_reason(obs, ev))
        else:
            parts.append(self._play_reason(obs, ev, best))
        parts.append(comparison(ev, _name, _name_ja))
        out = join(*parts)
        if ev.kind == "meld" or ev.exact:
            return out
        return join(out, {"en": f"({ev.worlds} sampled deals)",
                          "ja": f"（{ev.worlds}通りの配りで試算）"})

    def _play_reason(self, obs: dict[str, Any], ev: Evaluation, best: Choice) -> Reason:
        card = best.action
        assert type(card) is int
        text = _card(card)
        trick = best.facts.get("trick")
        cur = obs["current_trick"]
        leading = not (cur and cur["cards"])
        parts: list[Reason] = []
        if ev.exact:
            v = best.value or 0.0
            if v >= 0:
                en = f"{text} ends the deal {pts(v)} points ahead."
                ja = f"{text}なら{pts(v)}点差で勝って終わります。"
            else:
                en = f"{text} loses by the least, {pts(-v)} points."
                ja = f"{text}なら負けを最小の{pts(-v)}点に抑えます。"
            parts.append({"en": "Exact, since every card is known in the playoff: " + en,
                          "ja": "プレーオフでは全カードが分かるので正確な値です。" + ja})
        if trick is not None and not ev.exact:
            if leading:
                if trick >= 0.5:
                    parts.append({"en": f"{text} wins the trick in {pct(trick)} of sampled "
                                        "deals.",
                                  "ja": f"{text}は試算した配りの{pct(trick)}"
                                        "でトリックを取ります。"})
                elif POINTS[card]:
                    parts.append({"en": f"{text} gives the trick away in {pct(1 - trick)} of "
                                        "sampled deals, yet it scores best.",
                                  "ja": f"{text}は{pct(1 - trick)}の配りでトリックを譲りますが、"
                                        "結果は最善です。"})
                else:
                    parts.append({"en": f"A cheap lead: {text} gives the trick away in "
                                        f"{pct(1 - trick)} of sampled deals.",
                                  "ja": f"安いリードです。{text}は{pct(1 - trick)}の配りで"
                                        "トリックを譲ります。"})
            elif trick >= 0.5:
                lead = int(cur["cards"][0])
                worth = POINTS[lead] + POINTS[card]
                parts.append({"en": f"{text} takes the trick ({worth} in counters).",
                              "ja": f"{text}でトリックを取ります（カード点{worth}）。"})
            else:
                parts.append({"en": f"{text} lets the trick go cheaply.",
                              "ja": f"{text}でトリックを安く譲ります。"})
        elif trick is not None and ev.exact and not leading:
            parts.append({"en": "It takes the trick." if trick >= 0.5 else
                          "It lets the trick go.",
                          "ja": "このトリックを取ります。" if trick >= 0.5 else
                          "このトリックは譲ります。"})
        if obs["phase"] == "stock":
            kept = self._kept_meld(obs, card)
            if kept:
                parts.append(kept)
        return join(*parts)

    @staticmethod
    def _kept_meld(obs: dict[str, Any], card: int) -> Reason | None:
        """"Keeps the ♠ marriage for the next meld" when the best card is outside every meld
        the hand can make and another card would break one."""
        v = View.from_observation(obs)
        melds = v.melds_possible()
        if not melds:
            return None
        inside = [t for t, m in melds if m >> card & 1]
        if inside:
            return None
        t, m = max(melds, key=lambda tm: (MELD_POINTS[tm[0]], -tm[0]))
        name = MELD_NAMES[t]
        suit = ""
        if name in ("marriage", "royal marriage", "run"):
            suit = SUIT_SYMBOLS[FACE_OF[m.bit_length() - 1] // 6] + " "
        return {"en": f"It keeps the {suit}{name} ({MELD_POINTS[t]}) for your next meld.",
                "ja": f"{suit.strip()}{MELD_JA[name]}（{MELD_POINTS[t]}"
                      "点）を次のメルドのために残します。"}

    @staticmethod
    def _meld_reason(obs: dict[str, Any], ev: Evaluation) -> Reason:
        best = ev.best
        if best == NO_MELD:
            return {"en": "Decline for now: the simulations do better keeping these cards "
                          "for a bigger meld later.",
                    "ja": "今はメルドしないほうが、後でより大きなメルドにできて有利です。"}
        assert isinstance(best, tuple)
        name = MELD_NAMES[best[0]]
        others = [c.action for c in ev.choices if isinstance(c.action, tuple)
                  and c.action != best]
        more = ""
        more_ja = ""
        if others:
            more = " first; you can meld the others after later tricks"
            more_ja = "。ほかのメルドは後のトリックで出せます"
        return {"en": f"Meld the {name} ({MELD_POINTS[best[0]]}){more}.",
                "ja": f"{MELD_JA[name]}（{MELD_POINTS[best[0]]}点）をメルドします{more_ja}。"}

    # -- helper ---------------------------------------------------------------------------
    def helper(self, observation: dict[str, Any], legal: Sequence[Action],
               rng: random.Random, effort: Effort,
               evaluation: Evaluation | None = None) -> dict[str, Any] | None:
        """At the meld step: the expected final margin of each meld and of declining (the
        values of ``evaluation`` when given: the hint's own)."""
        if observation.get("step") != "meld" or not legal:
            return None
        ev = evaluation if evaluation is not None else self.evaluate(observation, legal, rng,
                                                                     effort)
        rows = []
        for c in ev.choices:
            a = c.action
            entry: dict[str, Any] = {"text": _name(a), "text_ja": _name_ja(a),
                                     "value": None if c.value is None else round(c.value, 1),
                                     "share": None if c.share is None else round(c.share, 3)}
            if isinstance(a, tuple):
                entry.update({"meld": MELD_NAMES[a[0]], "points": MELD_POINTS[a[0]],
                              "cards": [i for i in range(48) if a[1] >> i & 1]})
            else:
                entry.update({"meld": None, "points": 0, "cards": []})
            rows.append(entry)
        return {"kind": "meld", "unit": "points", "worlds": ev.worlds, "rows": rows,
                "best": rows[0]["text"]}


def make_advisor() -> Pinochle2Advisor:
    """The registry hook."""
    return Pinochle2Advisor()


__all__ = ["THRESHOLDS", "Pinochle2Advisor", "make_advisor"]
