"""Computer players for Piquet, levels "1" to "4" and "expert".

* ``1`` — exchanges the most cards it may, throwing its weakest (short suits, low ranks,
  cards in no combination); declares everything truthfully; plays random legal cards.
* ``2`` — chooses its discards by the expected value of its declarations and tricks after
  the draw (a small Monte Carlo over the unseen cards for the best candidates), then plays
  sensibly from what it has seen: cheapest winning card when following, masters first
  and low cards from its long suit when leading.
* ``3`` — level 2's exchange with a larger sample; card play by perfect-information Monte
  Carlo (PIMC): a few dozen worlds sampled from its observation, each card played out
  on bitmasks with a card-counting policy (:func:`.kernels.rollout`), the last two tricks
  exact.
* ``4`` — exchange chosen by the expected declaration margin plus the rolled-out trick
  margin of the final hands over sampled talons and opponent hands (the same samples for
  every candidate); PIMC with a few hundred simulations, the last three tricks exact.
* ``expert`` — the same exchange over about 150 candidates, raced: all get 60 samples,
  the best 20 get 600; PIMC with about 6,000 simulations per decision, and once eight
  or fewer tricks remain every sampled world is solved exactly (:func:`exact_values`,
  under a node budget).

The searches are written once, as plain Python over int card masks in :mod:`.kernels`,
and run compiled by numba; run as Python (``compiled=False``, or ``CARDPLAZA_NO_JIT=1``)
they are the reference and give the same values and decisions.

Worlds for card play come from :class:`PlaySampler` (the opponent's hand dealt on
bitmasks, checked against the public declaration record), falling back to the engine's
``sample_world`` for sinking, carte rouge and an opponent's carte blanche. A decision with
one legal action, or whose legal cards are all equivalent, costs no search.

All levels decide from the observation and their own RNG only.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardplaza.ai.compiled import jit_enabled
from cardplaza.ai.player import Player
from cardplaza.core.cards import mask_of
from cardplaza.core.protocol import Action
from cardplaza.games.piquet import combos as pc
from cardplaza.games.piquet.kernels import KERNELS, TABLE_BITS
from cardplaza.games.piquet.search import PlaySampler
from cardplaza.games.piquet.state import (
    ADD,
    CALL,
    EXCH,
    GOOD,
    PASS,
    SAY,
    SUIT,
    PiquetState,
)

LEVELS = ("1", "2", "3", "4", "expert")
_RANK_VALUE = (0.0, 0.1, 0.2, 0.5, 0.6, 0.8, 1.2, 2.0)


def hand_value(hand: int, compiled: bool | None = None) -> float:
    """Rough worth of a 12-card hand: its declarations plus its trick-taking strength
    (:func:`.kernels.hand_value`; ``compiled``: the kernel's form, default as configured)."""
    return float(KERNELS.entry("hand_value", compiled)(hand))


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
                    top: int, samples: int, compiled: bool | None = None) -> Action:
    """Discards maximizing the expected hand value after the draw (``compiled``: the form of
    the kernels that value the hands, default as configured; both give the same numbers)."""
    if compiled is None:
        compiled = jit_enabled()
    hand = mask_of(obs["hand"])
    cards = list(obs["hand"])
    sizes = _allowed_sizes(legal)
    unknown = _unseen(obs)
    scored: list[tuple[float, int, int]] = []
    for k in sizes:
        for value, disc in _discard_estimates(hand, cards, k, compiled):
            # quick estimate: value of the kept cards + an average draw
            scored.append((value, k, disc))
    scored.sort(key=lambda t: -t[0])
    best: tuple[float, int] | None = None
    for _est, k, disc in scored[:top]:
        kept = hand & ~disc
        if k == 0:
            val = hand_value(kept, compiled)
        else:
            drawn = [kept | mask_of(rng.sample(unknown, k)) for _ in range(samples)]
            total = 0.0
            for v in _hand_values(drawn, compiled):
                total += v
            val = total / samples
        if best is None or val > best[0]:
            best = (val, disc)
    assert best is not None
    return (EXCH, best[1])


def _discard_estimates(hand: int, cards: list[int], k: int,
                       compiled: bool) -> list[tuple[float, int]]:
    """``(hand_value(hand & ~d) + 1.1 k, d)`` for every discard ``d`` of ``k`` of ``cards``
    (in :func:`itertools.combinations` order)."""
    total = math.comb(len(cards), k)
    discs = np.zeros(total, dtype=np.int64)
    vals = np.zeros(total, dtype=np.float64)
    KERNELS.entry("discard_values", compiled)(hand, np.array(cards, dtype=np.int64), k, discs,
                                              vals, np.zeros(k, dtype=np.int64))
    return list(zip(vals.tolist(), discs.tolist(), strict=True))


def _hand_values(hands: list[int], compiled: bool) -> list[float]:
    out = np.zeros(len(hands), dtype=np.float64)
    KERNELS.entry("hand_values", compiled)(np.array(hands, dtype=np.int64), out)
    return list(out.tolist())


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
    hand = mask_of(obs["hand"])
    unseen = mask_of(_unseen(obs))
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
    hand = mask_of(obs["hand"])
    sizes = _allowed_sizes(legal)
    k = max(sizes)
    order = sorted(obs["hand"], key=lambda c: _card_keep(hand, c))
    return (EXCH, mask_of(order[:k]))


# ------------------------------------------------------------------ expert level
EXACT_TRICKS = 5
"""Default hand size from which :class:`ExpertPlayer` solves the rest of the deal exactly
(in as many sampled worlds as a fixed node budget allows); the expert level uses 7."""

TrickPos = tuple[int, int, int, int, int, int, int]
"""A trick-phase position on bitmasks: (hand 0, hand 1, leader, lead card or -1,
tricks won by seat 0, tricks done, pique tracker: Elder's deal score while a pique is still
possible, else -1)."""


class TrickRules:
    """How the trick phase scores, for play on bitmasks (:func:`.kernels.play`): lead
    points (only 10 or higher with ``lead_ten``), the last trick's points, and Elder's seat
    for the pique still possible."""

    __slots__ = ("elder", "last_points", "lead_ten")

    def __init__(self, elder: int, lead_ten: bool, last_points: int) -> None:
        self.elder = elder
        self.lead_ten = lead_ten
        self.last_points = last_points

    def key(self) -> tuple[int, bool, int]:
        """The rules as a tuple (equal rules, equal keys)."""
        return self.elder, self.lead_ten, self.last_points

    def args(self) -> tuple[int, int, int]:
        """The rules as the kernels take them: ``elder``, ``lead_ten``, ``last_points``."""
        return self.elder, int(self.lead_ten), self.last_points

    @classmethod
    def of(cls, state: PiquetState) -> TrickRules:
        """The rules of a state's deal."""
        return cls(state.elder, state.o.lead_ten, 10 if state.o.last_trick_ten else 1)


def trick_position(state: PiquetState) -> TrickPos:
    """The bitmask position of a state in its trick phase."""
    pq = -1
    if state.bonus is None and state.dscore[state.dealer] == 0:
        pq = state.dscore[state.elder]
    return (state.hands[0], state.hands[1], state.leader, state.lead_card, state.won[0],
            len(state.tricks), pq)



@dataclass
class ActionValues:
    """A search's evaluation of the candidate actions of one decision, from the deciding
    seat's side: ``values[i]`` lists the margin (points of the deal, this seat's minus the
    opponent's) of ``actions[i]`` in each world it was tried in, the worlds in the same
    order for every action (raced candidates that dropped out have shorter lists).
    ``exact``: each value is the exact minimax margin of a fully known world."""

    actions: list[Action]
    values: list[list[float]]
    exact: bool = False
    stats: dict[str, float] = field(default_factory=dict)

    def means(self) -> dict[Action, float]:
        """Mean margin of each action over the worlds it was tried in."""
        return {a: sum(v) / len(v) if v else 0.0
                for a, v in zip(self.actions, self.values, strict=True)}


class ExpertPlayer:
    """Levels "3", "4" and "expert" (budgets differ): exchange by sampled talons and
    opponent hands, full declarations, card play by perfect-information Monte Carlo on
    bitmasks (worlds from :class:`PlaySampler`, rollouts with :func:`.kernels.rollout_card`)
    and exact values (:func:`exact_values`) once few tricks remain. With ``value_exchange``
    the exchange is level 2's (:func:`choose_exchange`); with ``exchange_first`` the
    exchange candidates are raced (all get that many samples, the best
    ``exchange_finalists`` all ``exchange_samples``).

    ``compiled`` runs the searches of :mod:`.kernels` compiled (default: unless
    compilation is switched off) or as Python (``False``): the same code and the same
    numbers, so the decisions are the same either way.
    ``time_cap`` (CPU seconds, or ``None``) stops sampling card-play worlds early, after
    ``min_worlds // 4`` of them; while it does not bind, decisions depend only on the
    observation and the RNG (fixed sample counts and node budgets), so they are
    reproducible.
    """

    def __init__(self, *, name: str = "piquet-expert", exchange_top: int = 60,
                 exchange_samples: int = 100, play_sims: int = 2400, min_worlds: int = 100,
                 max_worlds: int = 1200, exact_worlds: int = 600,
                 exact_tricks: int = EXACT_TRICKS, exact_nodes: int = 100_000,
                 min_exact_worlds: int = 24, exchange_first: int = 0,
                 exchange_finalists: int = 12, value_exchange: bool = False,
                 compiled: bool | None = None, time_cap: float | None = None) -> None:
        self.name = name
        self.exchange_first = exchange_first
        self.exchange_finalists = exchange_finalists
        self.value_exchange = value_exchange
        self.exchange_top = exchange_top
        self.exchange_samples = exchange_samples
        self.play_sims = play_sims
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds
        self.exact_worlds = exact_worlds
        self.exact_tricks = exact_tricks
        self.exact_nodes = exact_nodes
        self.min_exact_worlds = min_exact_worlds
        self.compiled = jit_enabled() if compiled is None else compiled
        self.time_cap = time_cap
        self.last_stats: dict[str, float] = {}

    def choose(self, observation: dict[str, Any], legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        """Pick an action from the observation."""
        self.last_stats = {}  # no search, no simulations: a trivial decision
        if len(legal_actions) == 1:
            return legal_actions[0]
        phase = observation["phase"]
        if phase in ("exchange_elder", "exchange_younger"):
            return self.exchange(observation, legal_actions, rng)
        if phase != "play":
            return choose_declaration(legal_actions)
        return self.play(observation, legal_actions, rng)

    def evaluate(self, obs: dict[str, Any], legal: Sequence[Action],
                 rng: random.Random) -> ActionValues | None:
        """The search's values of the candidate actions (exchange: the candidate discards;
        card play: one card of each class of equivalent cards), or ``None`` for a decision
        this level does not search (declarations, level 3's exchange)."""
        phase = obs["phase"]
        if phase in ("exchange_elder", "exchange_younger") and not self.value_exchange:
            return self.exchange_values(obs, legal, rng)
        if phase == "play":
            cards = distinct_cards(obs, [a for a in legal if isinstance(a, int)])
            return self.card_values(obs, cards, rng)
        return None

    def exchange(self, obs: dict[str, Any], legal: Sequence[Action],
                 rng: random.Random) -> Action:
        """Discards with the best mean (declaration margin + trick margin) over talons and
        opponent hands sampled from the unseen cards (the same samples for every choice)."""
        if self.value_exchange:
            self.last_stats = {"worlds": self.exchange_samples,
                               "simulations": self.exchange_samples * self.exchange_top}
            return choose_exchange(obs, legal, rng, self.exchange_top, self.exchange_samples,
                                   self.compiled)
        ev = self.exchange_values(obs, legal, rng)
        best = None
        best_total = 0.0
        for a, v in zip(ev.actions, ev.values, strict=True):
            if len(v) == len(ev.values[0]) and (best is None or sum(v) > best_total):
                best, best_total = a, sum(v)
        assert best is not None
        return best

    def exchange_values(self, obs: dict[str, Any], legal: Sequence[Action],
                        rng: random.Random) -> ActionValues:
        """Each candidate discard's margin over the sampled talons and opponent hands.
        The candidates are the best by :func:`hand_value`, overall and for each size;
        with racing, the finalists come first and only they see every sample."""
        hand = mask_of(obs["hand"])
        cards = list(obs["hand"])
        unknown = _unseen(obs)
        sizes = _allowed_sizes(legal)
        by_size: list[list[tuple[float, int]]] = []
        for k in sizes:
            row = _discard_estimates(hand, cards, k, self.compiled)
            row.sort(key=lambda t: -t[0])
            by_size.append(row)
        per_size = max(1, self.exchange_top // (2 * len(sizes)))
        cands = list(dict.fromkeys(
            [d for row in by_size for _v, d in row[:per_size]]
            + [d for _v, d in sorted((t for row in by_size for t in row),
                                     key=lambda t: -t[0])[:self.exchange_top]]))
        elder = obs["role"] == "elder"
        rules = TrickRules(0 if elder else 1, _lead_ten(obs["options"]),
                           10 if obs["options"].get("last_trick_ten") else 1)
        samples = [rng.sample(unknown, len(unknown)) for _ in range(self.exchange_samples)]
        first = min(self.exchange_first or len(samples), len(samples))
        # an opponent's carte blanche hand, once shown, stands for his hand
        shown = mask_of(obs["revealed_dealt"].get(str(1 - obs["seat"]), []))
        values = _exchange_values(hand, cands, samples, 0, first, elder, rules, shown,
                                  self.compiled)
        totals = {d: sum(v) for d, v in zip(cands, values, strict=True)}
        sims = first * len(cands)
        if first < len(samples):
            # racing: only the best candidates get the remaining samples
            finalists = sorted(cands, key=lambda d: -totals[d])[:self.exchange_finalists]
            more = _exchange_values(hand, finalists, samples, first, len(samples) - first,
                                    elder, rules, shown, self.compiled)
            seen = dict(zip(cands, values, strict=True))
            rest = [d for d in cands if d not in set(finalists)]
            values = [seen[d] + m for d, m in zip(finalists, more, strict=True)]
            values += [seen[d] for d in rest]
            sims += (len(samples) - first) * len(finalists)
            cands = finalists + rest
        stats: dict[str, float] = {"worlds": len(samples), "simulations": sims}
        self.last_stats = stats
        return ActionValues([(EXCH, d) for d in cands], [[float(x) for x in v] for v in values],
                            False, dict(stats))

    def play(self, obs: dict[str, Any], legal: Sequence[Action],
             rng: random.Random) -> Action:
        """PIMC over sampled worlds; exact values once few tricks remain."""
        cards = distinct_cards(obs, [a for a in legal if isinstance(a, int)])
        preferred = choose_card(obs, legal)
        if len(cards) == 1:
            return preferred if preferred in _equivalents(obs, cards[0], legal) else cards[0]
        ev = self.card_values(obs, cards, rng)
        if not ev.values[0]:
            return preferred
        totals = {c: sum(v) for c, v in zip(cards, ev.values, strict=True)}
        best = max(totals.values())
        for c in cards:
            if totals[c] >= best - 1e-9 and preferred in _equivalents(obs, c, legal):
                return preferred
        return next(c for c in cards if totals[c] >= best - 1e-9)

    def card_values(self, obs: dict[str, Any], cards: list[int],
                    rng: random.Random) -> ActionValues:
        """Each card's margin (this seat's side) in each sampled world: rolled out, or the
        exact minimax value once few tricks remain."""
        from cardplaza.games.piquet.world import sample_world

        seat = obs["seat"]
        exact = len(obs["hand"]) <= self.exact_tricks
        worlds = max(self.min_worlds, min(self.max_worlds, -(-self.play_sims // len(cards))))
        if exact:
            worlds = min(worlds, self.exact_worlds)
        deadline = None if self.time_cap is None else time.process_time() + self.time_cap
        floor = max(1, self.min_worlds // 4)
        sampler = PlaySampler(obs, rng, self.compiled)
        if not sampler.ok:
            worlds = min(worlds, self.min_worlds)
        sign = 1 if seat == 0 else -1
        values: list[list[float]] = [[] for _ in cards]
        done = nodes = 0
        base: TrickPos | None = None
        rules: TrickRules | None = None
        opp = 1 - seat
        batch: list[int] = []  # rollout worlds waiting for one kernel call

        def flush() -> None:
            if batch:
                assert base is not None and rules is not None
                for i, row in enumerate(_rollout_values(base, opp, batch, cards, rules,
                                                        self.compiled)):
                    values[i].extend(float(sign * x) for x in row)
                batch.clear()

        for _ in range(worlds):
            if exact and done >= self.min_exact_worlds and nodes >= self.exact_nodes:
                break  # a node budget: deterministic, unlike a clock
            if deadline is not None and done >= floor and time.process_time() > deadline:
                break
            hand: int | None = sampler.sample(rng) if sampler.ok else None
            if hand is None or base is None or rules is None:
                if hand is not None:
                    world: PiquetState = sampler.ref  # its trick position, another hand
                else:
                    try:
                        sampled = sample_world(obs, rng)
                    except RuntimeError:
                        break
                    assert isinstance(sampled, PiquetState)
                    world = sampled
                new_rules = TrickRules.of(world)
                new_base = _with_hand(trick_position(world), opp, 0)
                if base is not None and rules is not None and (
                        new_base != base or new_rules.key() != rules.key()):
                    flush()  # rollouts batch only worlds that differ in opp's hand alone
                rules, base = new_rules, new_base
                if hand is None:
                    hand = world.hands[opp]
            if exact:
                vals, n = exact_values(_with_hand(base, opp, hand), cards, rules,
                                       self.compiled)
                nodes += n
                for i, v in enumerate(vals):
                    values[i].append(float(sign * v))
            else:
                batch.append(hand)
            done += 1
        flush()
        stats: dict[str, float] = {"worlds": done, "simulations": done * len(cards),
                                   "nodes": nodes}
        self.last_stats = stats
        return ActionValues(list(cards), values, exact, dict(stats))


def _rollout_values(base: TrickPos, opp: int, hands: list[int], cards: list[int],
                    rules: TrickRules, compiled: bool | None = None) -> list[list[int]]:
    """Seat 0's margin after each card and a rollout, in each world (``opp``'s hand
    replaced by each of ``hands``): one row per card (:func:`.kernels.rollout_values`)."""
    out = np.zeros((len(hands), len(cards)), dtype=np.int64)
    KERNELS.entry("rollout_values", compiled)(
        np.array(base, dtype=np.int64), opp, np.array(hands, dtype=np.int64),
        np.array(cards, dtype=np.int64), *rules.args(), out)
    return list(out.T.tolist())


_SOLVER = threading.local()
"""Each thread's buffers of the exact solver: the transposition table (4 MiB, emptied by
a new stamp for every world) and the search stack, per form."""


def _solver_buffers(compiled: bool) -> tuple[Any, Any]:
    """The table and stack of the exact solver: arrays for the compiled kernel, lists for
    its Python form (used in place, not converted at every call)."""
    key = "compiled" if compiled else "python"
    found: tuple[Any, Any] | None = getattr(_SOLVER, key, None)
    if found is None:
        size = 4 * (1 << TABLE_BITS) + 4
        if compiled:
            found = (np.zeros(size, dtype=np.int64), np.zeros((26, 13), dtype=np.int64))
        else:
            found = ([0] * size, [[0] * 13 for _ in range(26)])
        setattr(_SOLVER, key, found)
    return found


def exact_values(pos: TrickPos, cards: Sequence[int], rules: TrickRules,
                 compiled: bool | None = None) -> tuple[list[int], int]:
    """Exact seat-0 margin after each of ``cards`` (legal for the player to move), and the
    positions the solver expanded (:func:`.kernels.solve_root`)."""
    on = jit_enabled() if compiled is None else compiled and jit_enabled()
    tab, fr = _solver_buffers(on)
    if on:
        out = np.zeros(len(cards), dtype=np.int64)
        nodes = KERNELS.entry("solve_root", True)(np.array(pos, dtype=np.int64),
                                                  np.array(cards, dtype=np.int64),
                                                  *rules.args(), tab, fr, out)
        return list(out.tolist()), int(nodes)
    vals = [0] * len(cards)
    nodes = KERNELS.entry("solve_root", False)(list(pos), list(cards), *rules.args(), tab,
                                               fr, vals)
    return vals, int(nodes)


def _exchange_values(hand: int, discards: list[int], samples: list[list[int]], first: int,
                     count: int, elder: bool, rules: TrickRules, opp_shown: int,
                     compiled: bool | None = None) -> list[list[int]]:
    """For each discard, the exchange's value (:func:`.kernels.exchange_values`) of each
    sample in ``samples[first:first + count]`` (one list per discard)."""
    out = np.zeros((len(discards), count), dtype=np.int64)
    KERNELS.entry("exchange_values", compiled)(
        np.array([hand & ~d for d in discards], dtype=np.int64),
        np.array([d.bit_count() for d in discards], dtype=np.int64),
        np.array(samples, dtype=np.int64), first, count, int(elder), int(rules.lead_ten),
        rules.last_points, opp_shown, out)
    return list(out.tolist())


def _with_hand(pos: TrickPos, seat: int, hand: int) -> TrickPos:
    if seat == 0:
        return (hand, *pos[1:])
    return (pos[0], hand, *pos[2:])


def _out_cards(obs: dict[str, Any]) -> int:
    """Cards already played to tricks (the current one included)."""
    out = mask_of(obs["trick"]["cards"])
    for t in obs["tricks"]:
        out |= mask_of(t["cards"])
    return out


def _equivalents(obs: dict[str, Any], card: int, legal: Sequence[Action]) -> set[Action]:
    """Legal cards worth the same as ``card`` whatever the unseen cards are: neighbours in
    its suit among the cards not yet played, held by this seat, of the same lead class."""
    hand = mask_of(obs["hand"])
    live = ~_out_cards(obs) & pc.FULL
    lead_ten = _lead_ten(obs["options"])
    out: set[Action] = {card}
    for step in (1, -1):
        c = card
        while True:
            n = c + step
            while 0 <= n < 32 and n >> 3 == card >> 3 and not live >> n & 1:
                n += step
            if not (0 <= n < 32 and n >> 3 == card >> 3 and hand >> n & 1):
                break
            if lead_ten and (n & 7 >= 3) != (card & 7 >= 3):
                break
            if n not in legal:
                break
            out.add(n)
            c = n
    return out


def distinct_cards(obs: dict[str, Any], cards: list[int]) -> list[int]:
    """One card of each class of equivalent legal cards (see :func:`_equivalents`)."""
    out: list[int] = []
    seen: set[Action] = set()
    for c in cards:
        if c in seen:
            continue
        out.append(c)
        seen |= _equivalents(obs, c, cards)
    return out


def _lead_ten(options: dict[str, Any]) -> bool:
    v = options.get("lead_points_ten_or_higher")
    return bool(v == "on" or (v == "auto" and options.get("au_cent")))


TIME_CAPS: dict[str, float] = {"3": 0.5, "4": 0.8, "expert": 1.2}
"""CPU seconds one card-play decision of each search level may take at most (sampling
stops there); far above what the budgets below usually cost, it bounds the rare slow
decision."""

BUDGETS: dict[str, dict[str, Any]] = {
    "3": {"value_exchange": True, "exchange_top": 6, "exchange_samples": 20, "play_sims": 60,
          "min_worlds": 12, "max_worlds": 30, "exact_tricks": 2, "exact_worlds": 8,
          "min_exact_worlds": 8},
    "4": {"exchange_top": 16, "exchange_samples": 30, "play_sims": 200, "min_worlds": 20,
          "max_worlds": 60, "exact_tricks": 3, "exact_worlds": 20, "exact_nodes": 3000,
          "min_exact_worlds": 10},
    "expert": {"exchange_top": 150, "exchange_first": 60, "exchange_finalists": 20,
               "exchange_samples": 600, "play_sims": 6000, "min_worlds": 200,
               "max_worlds": 2500, "exact_tricks": 8, "exact_worlds": 1000,
               "exact_nodes": 400_000},
}
"""Search budgets of the levels built on :class:`ExpertPlayer`, in simulations: exchange
candidates and sampled talons (raced for expert), card-play simulations spread over the
distinct cards, the hand size from which ends are solved exactly, and the exact solver's
node budget. Levels 3 and 4 keep the budgets they had before the compiled kernels (so they
play as before at a fraction of the CPU); expert spends the kernels' speed on about three
times its former simulations and one more exactly solved trick."""


def evaluate_actions(observation: dict[str, Any], legal_actions: Sequence[Action],
                     rng: random.Random, level: str = "expert") -> ActionValues | None:
    """The evaluation of every candidate action by a search level (default expert): the
    seat's margin in points of the deal for each candidate in each sampled world, exact
    minimax values in the solved endgame (see :class:`ActionValues`); ``None`` for a
    decision the level does not search (declarations, level 3's exchange, one legal
    action). Candidates are the distinct cards (one of each class of equivalent cards,
    :func:`distinct_cards`) or the candidate discards."""
    if level not in BUDGETS:
        raise ValueError(f"level {level!r} does not search; search levels: "
                         f"{', '.join(BUDGETS)}")
    if len(legal_actions) < 2:
        return None
    player = ExpertPlayer(name=f"piquet-{level}", time_cap=TIME_CAPS[level], **BUDGETS[level])
    return player.evaluate(observation, legal_actions, rng)


def make_player(level: str, seed: int) -> Player:
    """The computer player of a level ("1" weakest … "expert" strongest)."""
    if level not in LEVELS:
        raise ValueError(f"unknown Piquet level {level!r}; levels: {', '.join(LEVELS)}")
    if level in ("1", "2"):
        return HeuristicPlayer(level, seed)
    return ExpertPlayer(name=f"piquet-{level}", time_cap=TIME_CAPS[level], **BUDGETS[level])


__all__ = ["BUDGETS", "LEVELS", "TIME_CAPS", "ActionValues", "ExpertPlayer",
           "evaluate_actions", "hand_value", "make_player"]
