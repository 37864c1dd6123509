"""Computer players for Piquet, levels "1" to "4".

* ``1`` — exchanges the most cards it may, throwing its weakest (short suits, low ranks,
  cards in no combination); declares everything truthfully; plays random legal cards.
* ``2`` — chooses its discards by the expected value of its declarations and tricks after
  the draw (a small Monte Carlo over the unseen cards for the best candidates), then plays
  sensibly from what it has seen: cheapest winning card when following, masters first
  and low cards from its long suit when leading.
* ``3`` — a larger exchange search; card play by perfect-information Monte Carlo over
  worlds sampled from its observation, each played out to the end of the deal.
* ``4`` — the same with more samples and worlds.

All levels decide from the observation only (the engine's ``sample_world`` builds the
worlds the search plays in).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

from cardplaza.ai.player import Player
from cardplaza.core.protocol import Action
from cardplaza.games.piquet import combos as pc
from cardplaza.games.piquet.state import (
    ADD,
    CALL,
    EXCH,
    GOOD,
    OVER,
    PASS,
    PLAY,
    SAY,
    SUIT,
    PiquetState,
)

LEVELS = ("1", "2", "3", "4")
_RANK_VALUE = (0.0, 0.1, 0.2, 0.5, 0.6, 0.8, 1.2, 2.0)


def _mask(cards: Sequence[int]) -> int:
    return sum(1 << c for c in cards)


def hand_value(hand: int) -> float:
    """Rough worth of a 12-card hand: its declarations plus its trick-taking strength."""
    count, _pip, _s = pc.best_point(hand)
    v = float(count if count >= 5 else 0.6 * count)
    v += sum(pc.seq_score(q) for q in pc.sequences(hand))
    v += sum(pc.set_score(t) for t in pc.sets(hand))
    for s in range(4):
        pattern = hand >> (8 * s) & 0xFF
        n = pattern.bit_count()
        for r in range(8):
            if pattern >> r & 1:
                # high cards are stronger when guarded by length
                v += _RANK_VALUE[r] * (1.0 if r == 7 or n >= 8 - r else 0.5)
        v += max(0, n - 4) * 1.5
    return v


def _card_keep(hand: int, c: int) -> float:
    """How much a single card is worth keeping (for the quick level-1 exchange)."""
    s, r = c >> 3, c & 7
    pattern = hand >> (8 * s) & 0xFF
    n = pattern.bit_count()
    near = bin(pattern & (0b111 << max(0, r - 1)) >> max(0, r - 1)).count("1")
    same_rank = (hand & pc.rank_mask(r)).bit_count() if r >= 3 else 0
    return _RANK_VALUE[r] * 2 + n * 0.8 + near * 0.7 + same_rank * 0.9


def _allowed_sizes(legal: Sequence[Action]) -> list[int]:
    """Discard sizes offered (the exchange choices are ordered by size)."""
    first, last = legal[0], legal[len(legal) - 1]
    assert isinstance(first, tuple) and isinstance(last, tuple)
    return list(range(first[1].bit_count(), last[1].bit_count() + 1))


def _unseen(obs: dict[str, Any]) -> list[int]:
    known = set(obs["hand"]) | set(obs["discards"] or []) | set(obs["untaken"])
    known |= {d["card"] for d in obs["talon_seen"]}
    for cards in obs["revealed_dealt"].values():
        known |= set(cards)
    for t in obs["tricks"]:
        known |= set(t["cards"])
    known |= set(obs["trick"]["cards"])
    return [c for c in range(32) if c not in known]


def choose_exchange(obs: dict[str, Any], legal: Sequence[Action], rng: random.Random,
                    top: int, samples: int) -> Action:
    """Discards maximizing the expected hand value after the draw."""
    hand = _mask(obs["hand"])
    cards = list(obs["hand"])
    sizes = _allowed_sizes(legal)
    unknown = _unseen(obs)
    scored: list[tuple[float, int, int]] = []
    for k in sizes:
        for combo in itertools.combinations(cards, k):
            disc = _mask(combo)
            kept = hand & ~disc
            # quick estimate: value of the kept cards + an average draw
            scored.append((hand_value(kept) + 1.1 * k, k, disc))
    scored.sort(key=lambda t: -t[0])
    best: tuple[float, int] | None = None
    for _est, k, disc in scored[:top]:
        kept = hand & ~disc
        if k == 0:
            val = hand_value(kept)
        else:
            total = 0.0
            for _ in range(samples):
                total += hand_value(kept | _mask(rng.sample(unknown, k)))
            val = total / samples
        if best is None or val > best[0]:
            best = (val, disc)
    assert best is not None
    return (EXCH, best[1])


def choose_declaration(legal: Sequence[Action]) -> Action:
    """Declare in full: call, reply truthfully, score every combination."""
    for a in legal:
        if isinstance(a, tuple) and a[0] == SAY and a[1] == CALL:
            return a
    says = [a for a in legal if isinstance(a, tuple) and a[0] == SAY]
    truthful = [a for a in says if a[1] not in (GOOD, PASS)]
    if truthful:
        return truthful[0]
    if says:
        return says[0]
    adds = [a for a in legal if isinstance(a, tuple) and a[0] == ADD]
    if adds:
        return max(adds, key=lambda a: a[1].bit_count())
    suits = [a for a in legal if isinstance(a, tuple) and a[0] == SUIT]
    return suits[0] if suits else legal[0]


def choose_card(obs: dict[str, Any], legal: Sequence[Action]) -> Action:
    """Sensible trick play from what this seat has seen."""
    cards = [a for a in legal if isinstance(a, int)]
    hand = _mask(obs["hand"])
    unseen = _mask(_unseen(obs))
    trick = obs["trick"]["cards"]
    if trick:
        lead = trick[0]
        same = [c for c in cards if c >> 3 == lead >> 3]
        if same:
            winners = [c for c in same if c > lead]
            return min(winners) if winners else min(same)
        # discard: lowest card of the suit we hold least strength in
        return min(cards, key=lambda c: (_RANK_VALUE[c & 7] * 3
                                         + (hand >> (8 * (c >> 3)) & 0xFF).bit_count()))

    def master(c: int) -> bool:
        higher = unseen >> (c + 1) & (0xFF >> ((c & 7) + 1))
        return higher == 0

    lead_ten = bool(obs["options"].get("lead_points_ten_or_higher") == "on"
                    or (obs["options"].get("lead_points_ten_or_higher") == "auto"
                        and obs["options"].get("au_cent")))
    masters = [c for c in cards if master(c)]
    if masters:
        return max(masters, key=lambda c: ((hand >> (8 * (c >> 3)) & 0xFF).bit_count(), c & 7))
    longest = max(range(4), key=lambda s: ((hand >> (8 * s) & 0xFF).bit_count(), s))
    mine = [c for c in cards if c >> 3 == longest] or cards
    if lead_ten:
        high = [c for c in mine if c & 7 >= 3]
        if high:
            return min(high)
    return min(mine)


class HeuristicPlayer:
    """Levels 1 and 2: rule-based exchange, declarations and play."""

    def __init__(self, level: str, seed: int) -> None:
        self.level = level
        self.name = f"piquet-{level}"
        self.seed = seed

    def choose(self, observation: dict[str, Any], legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        """Pick an action from the observation."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        phase = observation["phase"]
        if phase in ("exchange_elder", "exchange_younger"):
            if self.level == "1":
                return _quick_exchange(observation, legal_actions)
            return choose_exchange(observation, legal_actions, rng, top=4, samples=12)
        if phase == "declare":
            return choose_declaration(legal_actions)
        if self.level == "1":
            return legal_actions[rng.randrange(len(legal_actions))]
        return choose_card(observation, legal_actions)


def _quick_exchange(obs: dict[str, Any], legal: Sequence[Action]) -> Action:
    hand = _mask(obs["hand"])
    sizes = _allowed_sizes(legal)
    k = max(sizes)
    order = sorted(obs["hand"], key=lambda c: _card_keep(hand, c))
    return (EXCH, _mask(order[:k]))


def _deal_rollout_value(state: PiquetState, seat: int) -> float:
    """Play the rest of the deal with the sensible policy; the seat's deal margin."""
    deal = state.deal_number
    sheets = len(state.sheets)
    while state.phase != OVER and state.deal_number == deal:
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply(legal[0])
            continue
        if state.phase == PLAY:
            state.apply(_fast_card(state, legal))
        else:
            state.apply(choose_declaration(legal))
    if state.result is not None and state.o.au_cent:
        return 200.0 * state.result[seat]
    sh = state.sheets[sheets] if len(state.sheets) > sheets else None
    raw = sh["raw"] if sh else state.dscore
    return float(raw[seat] - raw[1 - seat])


def _fast_card(state: PiquetState, legal: Sequence[Action]) -> Action:
    cards = [a for a in legal if isinstance(a, int)]
    if state.lead_card >= 0:
        lead = state.lead_card
        same = [c for c in cards if c >> 3 == lead >> 3]
        if same:
            winners = [c for c in same if c > lead]
            return min(winners) if winners else min(same)
        return min(cards, key=lambda c: c & 7)
    return max(cards, key=lambda c: c & 7)


class SearchPlayer:
    """Levels 3 and 4: exchange by Monte Carlo, play by sampled worlds."""

    def __init__(self, level: str, seed: int) -> None:
        self.level = level
        self.name = f"piquet-{level}"
        self.worlds = 12 if level == "3" else 30
        self.fallback = HeuristicPlayer("2", seed)

    def choose(self, observation: dict[str, Any], legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        """Pick an action: search in trick play, heuristics elsewhere."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        phase = observation["phase"]
        if phase in ("exchange_elder", "exchange_younger"):
            top, samples = (8, 30) if self.level == "3" else (14, 60)
            return choose_exchange(observation, legal_actions, rng, top=top, samples=samples)
        if phase != "play":
            return choose_declaration(legal_actions)
        from cardplaza.games.piquet.world import sample_world

        seat = observation["seat"]
        totals = dict.fromkeys(legal_actions, 0.0)
        try:
            for _ in range(self.worlds):
                world = sample_world(observation, rng)
                assert isinstance(world, PiquetState)
                for a in legal_actions:
                    child = world.clone()
                    child.apply(a)
                    totals[a] += _deal_rollout_value(child, seat)
        except RuntimeError:
            return self.fallback.choose(observation, legal_actions, rng)
        preferred = choose_card(observation, legal_actions)
        best = max(totals.values())
        if totals[preferred] >= best - 1e-9:
            return preferred
        return max(legal_actions, key=lambda a: totals[a])


def make_player(level: str, seed: int) -> Player:
    """The computer player of a level ("1" weakest … "4" strongest)."""
    if level not in LEVELS:
        raise ValueError(f"unknown Piquet level {level!r}; levels: {', '.join(LEVELS)}")
    if level in ("1", "2"):
        return HeuristicPlayer(level, seed)
    return SearchPlayer(level, seed)


__all__ = ["LEVELS", "hand_value", "make_player"]
