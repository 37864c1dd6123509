"""Computer players for E-fuda-tori, levels "1" (random) to "4" and "expert".

* ``1`` — uniformly random legal card.
* ``2`` — heuristic from the observation: wins tricks holding picture cards as cheaply and
  safely as it can (estimating which unseen Joker, ♠A and high trumps may still come),
  never feeds its own pictures to an opponent's trick, keeps cards of the suits that will be
  trump in the next tricks, hunts the Joker by leading the ♠3, spends the Joker once the
  ♠3 is gone and the ♠A when the Joker cannot beat it, and values completing K-Q-J sets.
* ``3`` — perfect-information Monte Carlo (:class:`SearchPlayer`): a few sampled worlds,
  every legal card played out to the end in each with the bitmask port of the level-2
  heuristic (:func:`.kernels.playout`), best mean margin.
* ``4`` — the same search over four times as many worlds.
* ``expert`` — the same search with 8,000 play-outs per decision (each sampled deal of
  the hidden hands played with two stock orders), and from the moment the stock is empty
  (up to :data:`EXPERT_WIDE_EXACT_LEAVES`: four players' hands of four) every sampled world
  is solved exactly (max-n, :func:`.kernels.solve_end`), so the timing of the Joker, the
  ♠A and the ♠3 and the capture of picture sets is read off exact play.

The play-outs and the end solver are written once, as plain Python over int card masks in
:mod:`.kernels`, and run compiled by numba; run as Python (``compiled=False``, or
``CARDPLAZA_NO_JIT=1``) they are the reference and give the same values and decisions.

All search levels break ties with the level-2 card and cost nothing with one legal card.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardplaza.ai.compiled import jit_enabled
from cardplaza.ai.player import Player, RandomPlayer
from cardplaza.core.cards import bits
from cardplaza.core.protocol import Action
from cardplaza.games.efudatori import rules
from cardplaza.games.efudatori.kernels import KERNELS, WORK_ROWS, end_rows, end_table_size
from cardplaza.games.efudatori.rules import (
    FACE_POINTS,
    JOKER,
    JOKER_BIT,
    SET_MASKS,
    SPADE_ACE,
    SPADE_THREE,
    SPADE_THREE_BIT,
)
from cardplaza.games.efudatori.worlds import HiddenDeals

LEVELS = ("1", "2", "3", "4", "expert")


def points(c: int) -> int:
    """Face points of one card (0 for non-pictures and the Joker)."""
    return 0 if c == JOKER else FACE_POINTS.get(c % 13, 0)


def _beats(challenger: int, best: int, trick_number: int, led: int,
           joker_in: bool, three_in: bool) -> bool:
    """Would ``challenger`` played later take the trick from the current ``best`` card?"""
    if best == SPADE_THREE and joker_in:
        return False
    if challenger == SPADE_THREE:
        return joker_in
    if challenger == JOKER:
        return best != SPADE_THREE
    if best == JOKER:
        return False
    if challenger == SPADE_ACE:
        return True
    if best == SPADE_ACE:
        return False
    trump = rules.trump_of(trick_number)
    cs, bs = challenger // 13, best // 13
    if cs == trump:
        return bs != trump or challenger > best
    if bs == trump:
        return False
    return cs == bs == led and challenger > best


class HeuristicPlayer:
    """Level 2: one-trick look-ahead with card-keeping values (observation only)."""

    name = "heuristic"

    def choose(self, observation: dict[str, Any], legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        """Best card by the estimated value of this trick minus the value of spending it."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        values = self.card_values(observation, legal_actions)
        best = max(values.values())
        return next(a for a in legal_actions if values[a] >= best - 1e-9)

    def card_values(self, obs: dict[str, Any], legal: Sequence[Action]) -> dict[Action, float]:
        """Heuristic value of playing each legal card."""
        n = obs["players"]
        me = obs["seat"]
        k = obs["trick_number"]
        hand = rules.mask_of_list(obs["hand"])
        trick = [c for _, c in obs["trick"]]
        played = rules.mask_of_list(trick)
        for t in obs["tricks"]:
            for _, c in t["cards"]:
                played |= 1 << c
        known_others = 0
        for p in range(n):
            if p != me:
                known_others |= rules.mask_of_list(obs["known_cards"][p])
        deck = rules.mask_of_list(obs["deck"])
        unseen = deck & ~played & ~hand & ~known_others
        unseen_n = max(unseen.bit_count(), 1)
        later = [(me + i) % n for i in range(1, n - len(trick))]
        later_known = 0
        slots = 0
        for p in later:
            later_known |= rules.mask_of_list(obs["known_cards"][p])
            slots += obs["hand_sizes"][p] - len(obs["known_cards"][p])
        q = min(1.0, slots / unseen_n)  # chance one unseen card sits with a later player
        captured_me = rules.mask_of_list(obs["captured"][me])
        trick_pts = sum(points(c) for c in trick)
        led = -1 if not trick or trick[0] == JOKER else trick[0] // 13
        out: dict[Action, float] = {}
        for a in legal:
            assert isinstance(a, int)
            c = a
            new_trick = [*trick, c]
            lead_suit = c // 13 if not trick and c != JOKER else led
            joker_in = JOKER in new_trick
            three_in = SPADE_THREE in new_trick
            win_now = rules.trick_winner_index(new_trick, k) == len(trick)
            value = 0.0
            pts = trick_pts + points(c)
            if win_now:
                p_beat = 0.0
                if later:
                    hold = 1.0
                    for t in bits((unseen | later_known) & ~(1 << c)):
                        if _beats(t, c, k, lead_suit, joker_in, three_in):
                            hold *= 1.0 - (1.0 if later_known >> t & 1 else q)
                    p_beat = 1.0 - hold
                expected_more = 3.0 * len(later)
                gain = pts + expected_more + self._set_bonus(captured_me, new_trick)
                value += (1.0 - p_beat) * gain - p_beat * (pts + 2.0 * points(c))
                if c == SPADE_THREE and joker_in:
                    value += 10.0  # the Joker captured
            else:
                value -= 1.5 * points(c)
                if trick and c == JOKER:
                    value -= 5.0
            # The ♠3 while the Joker is unseen forces a later holder to give it up (F1).
            if c == SPADE_THREE and unseen & JOKER_BIT and later:
                value += q * 25.0
            value -= self._keep_value(c, hand, played, k)
            out[a] = value
        return out

    @staticmethod
    def _set_bonus(captured: int, trick: list[int]) -> float:
        got = captured | rules.mask_of_list(trick)
        bonus = 0.0
        for m in SET_MASKS:
            if got & m == m and captured & m != m:
                bonus += 15.0
        return bonus

    @staticmethod
    def _keep_value(c: int, hand: int, played: int, k: int) -> float:
        """What the card is worth in later tricks (lost when it is played now)."""
        if c == JOKER:
            return 15.0 if played & SPADE_THREE_BIT or hand & SPADE_THREE_BIT else 10.0
        if c == SPADE_ACE:
            return 12.0 if played & JOKER_BIT or hand & JOKER_BIT else 8.0
        if c == SPADE_THREE:
            return 4.0 if not played & JOKER_BIT and not hand & JOKER_BIT else 0.0
        suit = c // 13
        rank = c % 13
        value = 0.3 * rank / 12.0
        for ahead in (1, 2, 3):
            if rules.trump_of(k + ahead) == suit:
                value += (4.0 - ahead) * rank / 12.0
        value += 0.25 * points(c)
        return value


# ------------------------------------------------------------------ expert level
EXACT_LEAVES = 1296
"""The expert solves the end exactly once the stock is empty and the product of the
factorials of the hand sizes (a bound on the play orders) is at most this."""

def play_orders(hand_sizes: Sequence[int]) -> int:
    """Product of the factorials of the hand sizes: a bound on the ways to play out."""
    out = 1
    for k in hand_sizes:
        out *= math.factorial(k)
    return out


def exact_values(hands: Sequence[int], trick: Sequence[int], leader: int, k: int,
                 captured: Sequence[int], cards: Sequence[int], seat: int, n: int, total: int,
                 simple: bool, compiled: bool | None = None,
                 buffers: dict[tuple[int, ...], tuple[Any, ...]] | None = None) -> list[float]:
    """``seat``'s exact max-n margin after each of ``cards`` once the stock is empty (every
    hand known; :func:`.kernels.solve_end`, compiled or as Python). ``buffers`` keeps the
    solver's buffers between calls (by the end's size and the form)."""
    on = jit_enabled() if compiled is None else compiled and jit_enabled()
    rows, size = end_rows(hands, trick, n), end_table_size(hands, trick, n)
    key = (int(on), rows, size, n, total)
    bufs = None if buffers is None else buffers.get(key)
    if bufs is None:
        bufs = end_buffers(rows, size, n, total, on)
        if buffers is not None:
            buffers.clear()  # one end size at a time
            buffers[key] = bufs
    if on:
        out = np.zeros(len(cards), dtype=np.float64)
        KERNELS.entry("solve_end", True)(
            np.array(hands, dtype=np.int64), np.array(trick, dtype=np.int64), leader, k,
            np.array(captured, dtype=np.int64), np.array(cards, dtype=np.int64), seat, n,
            total, int(simple), *bufs, out)
        return list(out.tolist())
    vals = [0.0] * len(cards)
    KERNELS.entry("solve_end", False)(list(hands), list(trick), leader, k, list(captured),
                                      list(cards), seat, n, total, int(simple), *bufs, vals)
    return vals


def end_buffers(rows: int, size: int, n: int, total: int, compiled: bool) -> tuple[Any, ...]:
    """The buffers of :func:`.kernels.solve_end` for an end of ``rows`` stack rows
    (:func:`.kernels.end_rows`) and a table of ``size`` slots: arrays for the compiled
    kernel, lists for its Python form (used in place, not converted at every call)."""
    shapes = ((total + 2, n), (rows, 11), (rows, n), (rows, n), (size, 2 * n + 2), (size, n))
    if compiled:
        return tuple(np.zeros(shape, dtype=np.float64 if i == 2 else np.int64)
                     for i, shape in enumerate(shapes))
    return tuple([[0.0 if i == 2 else 0] * cols for _ in range(r)]
                 for i, (r, cols) in enumerate(shapes))


@dataclass
class ActionValues:
    """A search's evaluation of the legal cards of one decision, from the deciding seat's
    side: ``values[i]`` lists the margin (own final score minus the others' mean) of
    ``actions[i]`` in each sampled world (and stock order), the same worlds in the same
    order for every card. ``exact``: each value is the exact max-n margin of a fully
    known world (the stock empty)."""

    actions: list[Action]
    values: list[list[float]]
    exact: bool = False
    stats: dict[str, float] = field(default_factory=dict)

    def means(self) -> dict[Action, float]:
        """Mean margin of each card over the worlds."""
        return {a: sum(v) / len(v) if v else 0.0
                for a, v in zip(self.actions, self.values, strict=True)}


class SearchPlayer:
    """Levels "3", "4" and "expert": perfect-information Monte Carlo. Each decision samples
    worlds consistent with the observation (:class:`.worlds.HiddenDeals`, the hands and
    stock ``sample_world`` would deal: known cards kept, revealed voids respected), plays
    every legal card in every world and finishes the world with the bitmask heuristic of
    :func:`.kernels.playout` (the same worlds for every card, and the play-outs are
    deterministic, so differences between cards are not drowned in noise). The card with
    the best mean margin (own score minus the others' mean, as ``returns()`` gives them)
    wins; ties go to the level-2 heuristic's card.

    ``sims`` play-outs per decision are spread over ``ceil(sims / cards)`` worlds, kept
    between ``min_worlds`` and ``max_worlds``. With ``exact_worlds`` > 0, once the stock is
    empty and :func:`play_orders` of the hands is at most ``exact_leaves``, every world is
    solved exactly instead (:func:`.kernels.solve_end`); larger ends, up to ``wide_exact_leaves``,
    are solved exactly on ``wide_exact_worlds`` worlds (fewer: each costs more). Each
    sampled deal of the hidden hands serves ``stock_orders`` worlds, the stock reshuffled
    for each (the observation says nothing about the stock's order, so every order is as
    likely), the reshuffles drawn on a SplitMix64 stream (:func:`.kernels.shuffle`) seeded
    from the RNG once per decision. ``cpu_seconds`` caps the CPU time of one decision (sampling
    stops early, after at least ``min_worlds // 4`` worlds, or a quarter of the worlds of
    an exact decision); ``None`` keeps decisions a pure function of the observation and
    the RNG. A single legal card costs nothing.

    ``compiled`` runs the play-outs and the end solver of :mod:`.kernels` compiled
    (default: unless compilation is switched off) or as Python (``False``): the same code
    and the same numbers. After each
    decision ``last_stats`` holds ``worlds``, ``simulations`` (play-outs, or exactly
    solved world-card pairs) and ``exact`` (1 when solved)."""

    def __init__(self, name: str, *, sims: int = 0, min_worlds: int = 8,
                 max_worlds: int = 8, exact_worlds: int = 0,
                 exact_leaves: int = EXACT_LEAVES, wide_exact_worlds: int = 0,
                 wide_exact_leaves: int = 0, stock_orders: int = 1,
                 cpu_seconds: float | None = None, compiled: bool | None = None) -> None:
        from cardplaza.games.efudatori import SPEC

        self.spec = SPEC
        self.name = name
        self.sims = sims
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds
        self.exact_worlds = exact_worlds
        self.exact_leaves = exact_leaves
        self.wide_exact_worlds = wide_exact_worlds
        self.wide_exact_leaves = wide_exact_leaves
        self.stock_orders = stock_orders
        self.cpu_seconds = cpu_seconds
        self.compiled = jit_enabled() if compiled is None else compiled
        self.heuristic = HeuristicPlayer()
        self.last_stats: dict[str, float] = {}
        self._buffers: dict[tuple[int, ...], tuple[Any, ...]] = {}

    def card_values(self, observation: dict[str, Any], cards: Sequence[int],
                    rng: random.Random) -> dict[int, float]:
        """Total margin of each card over the sampled worlds (same worlds for all)."""
        ev = self.evaluate(observation, cards, rng)
        totals = dict.fromkeys(cards, 0.0)
        for c, vals in zip(cards, ev.values, strict=True):
            t = 0.0
            for v in vals:
                t += v
            totals[c] = t
        return totals

    def exact_worlds_for(self, observation: dict[str, Any]) -> int:
        """How many worlds the decision solves exactly (0: it plays out instead)."""
        if self.exact_worlds <= 0 or observation["stock_size"]:
            return 0
        orders = play_orders(observation["hand_sizes"])
        if orders <= self.exact_leaves:
            return self.exact_worlds
        if orders <= self.wide_exact_leaves:
            return self.wide_exact_worlds
        return 0

    def evaluate(self, observation: dict[str, Any], cards: Sequence[int],
                 rng: random.Random) -> ActionValues:
        """Each card's margin in each sampled world (see :class:`ActionValues`)."""
        seat = observation["seat"]
        n = observation["players"]
        total = observation["tricks_total"]
        simple = observation["simple_scoring"]
        worlds = self.exact_worlds_for(observation)
        exact = worlds > 0
        if not exact:
            worlds = max(self.min_worlds, min(self.max_worlds, -(-self.sims // len(cards))))
        deadline = None
        if self.cpu_seconds is not None:
            deadline = time.process_time() + self.cpu_seconds
        floor = max(1, (worlds if exact else self.min_worlds) // 4)
        deals = HiddenDeals(observation)
        trick = [c for _, c in observation["trick"]]
        leader = observation["leader"]
        k = observation["trick_number"]
        captured = [rules.mask_of_list(m) for m in observation["captured"]]
        values: list[list[float]] = [[] for _ in cards]
        done = 0
        if exact:
            while done < worlds:
                hands, _stock = deals.sample(rng)
                row = self._solve(hands, trick, leader, k, captured, cards, seat, n, total,
                                  simple)
                for i, v in enumerate(row):
                    values[i].append(v)
                done += 1
                if deadline is not None and done >= floor and time.process_time() > deadline:
                    break
        else:
            orders = self.stock_orders
            seed = rng.getrandbits(63) if orders > 1 else 0
            batch: list[tuple[list[int], list[int]]] = []
            counts: list[int] = []
            while done < worlds:
                batch.append(deals.sample(rng))
                counts.append(min(orders, worlds - done))
                done += counts[-1]
                if deadline is not None and done >= floor and time.process_time() > deadline:
                    break
            rows = self._playouts(batch, counts, trick, leader, k, captured, cards, seat, n,
                                  total, simple, seed)
            for row in rows:
                for i, v in enumerate(row):
                    values[i].append(v)
        stats: dict[str, float] = {"worlds": done, "simulations": done * len(cards),
                                   "exact": 1 if exact else 0}
        self.last_stats = stats
        return ActionValues(list(cards), values, exact, dict(stats))

    def _playouts(self, batch: list[tuple[list[int], list[int]]], counts: list[int],
                  trick: list[int], leader: int, k: int, captured: list[int],
                  cards: Sequence[int], seat: int, n: int, total: int, simple: bool,
                  seed: int) -> list[list[float]]:
        """Play-out margins, one row per world and stock order (``counts[w]`` orders of
        world ``w``; all worlds in one batch have the same stock size)."""
        if not batch:
            return []
        orders = max(counts)
        ns = len(batch[0][1])
        work = np.zeros((WORK_ROWS, max(ns, n, 2)), dtype=np.int64)
        out = np.zeros((len(batch) * orders, len(cards)), dtype=np.float64)
        KERNELS.entry("playout_values", self.compiled)(
            np.array([h for h, _s in batch], dtype=np.int64),
            np.array([s for _h, s in batch], dtype=np.int64).reshape(len(batch), ns), orders,
            np.array(trick, dtype=np.int64), leader, k, np.array(captured, dtype=np.int64),
            np.array(cards, dtype=np.int64), seat, n, total, int(simple), seed, work, out)
        m = out.tolist()
        if all(c == orders for c in counts):
            return list(m)
        return [m[w * orders + j] for w, c in enumerate(counts) for j in range(c)]

    def _solve(self, hands: list[int], trick: list[int], leader: int, k: int,
               captured: list[int], cards: Sequence[int], seat: int, n: int, total: int,
               simple: bool) -> list[float]:
        """Exact max-n margin of each card in one world (the stock empty), the solver's
        buffers kept between worlds."""
        return exact_values(hands, trick, leader, k, captured, cards, seat, n, total, simple,
                            self.compiled, self._buffers)

    def choose(self, observation: dict[str, Any], legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        """The card with the best mean margin over the sampled worlds."""
        self.last_stats = {"worlds": 0, "simulations": 0, "exact": 0}
        if len(legal_actions) == 1:
            return legal_actions[0]
        cards = [a for a in legal_actions if isinstance(a, int)]
        totals = self.card_values(observation, cards, rng)
        preferred = self.heuristic.choose(observation, legal_actions, rng)
        best = max(totals.values())
        if isinstance(preferred, int) and totals[preferred] >= best - 1e-9:
            return preferred
        return next(c for c in cards if totals[c] >= best - 1e-9)


def evaluate_actions(observation: dict[str, Any], legal_actions: Sequence[Action],
                     rng: random.Random, level: str = "expert") -> ActionValues | None:
    """The evaluation of every legal card by a search level (default expert): the seat's
    margin (own final score minus the others' mean) for each card in each sampled world
    and stock order, or exact max-n values once the end is solved (see
    :class:`ActionValues`); ``None`` with fewer than two legal cards."""
    if level not in ("3", "4", "expert"):
        raise ValueError(f"level {level!r} does not search; search levels: 3, 4, expert")
    cards = [a for a in legal_actions if isinstance(a, int)]
    if len(cards) < 2:
        return None
    player = make_player(level)
    assert isinstance(player, SearchPlayer)
    return player.evaluate(observation, cards, rng)


def make_player(level: str, seed: int = 0) -> Player:
    """The computer player of a level ``"1"`` … ``"4"`` or ``"expert"`` (``seed`` is
    unused: choices draw on the RNG the caller passes)."""
    if level == "1":
        return RandomPlayer()
    if level == "2":
        return HeuristicPlayer()
    if level == "3":
        return SearchPlayer("efudatori-3", min_worlds=LEVEL3_WORLDS, max_worlds=LEVEL3_WORLDS,
                            cpu_seconds=LEVEL3_CPU_SECONDS)
    if level == "4":
        return SearchPlayer("efudatori-4", min_worlds=LEVEL4_WORLDS, max_worlds=LEVEL4_WORLDS,
                            cpu_seconds=LEVEL4_CPU_SECONDS)
    if level == "expert":
        return SearchPlayer("efudatori-expert", sims=EXPERT_SIMS, min_worlds=EXPERT_MIN_WORLDS,
                            max_worlds=EXPERT_MAX_WORLDS, exact_worlds=EXPERT_EXACT_WORLDS,
                            exact_leaves=EXPERT_EXACT_LEAVES,
                            wide_exact_worlds=EXPERT_WIDE_EXACT_WORLDS,
                            wide_exact_leaves=EXPERT_WIDE_EXACT_LEAVES,
                            stock_orders=EXPERT_STOCK_ORDERS,
                            cpu_seconds=EXPERT_CPU_SECONDS)
    raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")


LEVEL3_WORLDS = 12
"""Worlds per decision of level 3 (one play-out per legal card in each)."""
LEVEL3_CPU_SECONDS = 0.3
"""Cap on level 3's CPU time per decision (far above its usual few milliseconds)."""
LEVEL4_WORLDS = 48
"""Worlds per decision of level 4."""
LEVEL4_CPU_SECONDS = 0.5
"""Cap on level 4's CPU time per decision (far above its usual cost)."""
EXPERT_SIMS = 8000
"""Play-outs per decision of the expert (spread over the legal cards)."""
EXPERT_MIN_WORLDS = 2000
EXPERT_MAX_WORLDS = 4000
EXPERT_STOCK_ORDERS = 2
"""Stock orders tried with each sampled deal of the hidden hands (expert)."""
EXPERT_EXACT_WORLDS = 300
"""Worlds solved exactly per decision of the expert in the end."""
EXPERT_EXACT_LEAVES = 100_000
"""The expert solves the end exactly on :data:`EXPERT_EXACT_WORLDS` worlds once the stock
is empty and :func:`play_orders` of the hands is at most this (with four players: from
the second card after the stock ran out)."""
EXPERT_WIDE_EXACT_LEAVES = 331_776
"""Larger ends up to this (``4! ** 4``: four players' hands of four, the stock just
emptied) are solved exactly on :data:`EXPERT_WIDE_EXACT_WORLDS` worlds."""
EXPERT_WIDE_EXACT_WORLDS = 150
"""Worlds solved exactly per decision in the largest ends (each costs about three times
one of 100,000 play orders)."""
EXPERT_CPU_SECONDS = 1.5
"""Safety cap on the expert's CPU time per decision."""

__all__ = [
    "LEVELS",
    "ActionValues",
    "HeuristicPlayer",
    "SearchPlayer",
    "end_buffers",
    "evaluate_actions",
    "exact_values",
    "make_player",
]
