"""Computer players for Piquet, levels "1" to "4" and "expert".

* ``1`` — exchanges the most cards it may, throwing its weakest (short suits, low ranks,
  cards in no combination); declares everything truthfully; plays random legal cards.
* ``2`` — chooses its discards by the expected value of its declarations and tricks after
  the draw (a small Monte Carlo over the unseen cards for the best candidates), then plays
  sensibly from what it has seen: cheapest winning card when following, masters first
  and low cards from its long suit when leading.
* ``3`` — a larger exchange search; card play by perfect-information Monte Carlo over
  worlds sampled from its observation, each played out to the end of the deal.
* ``4`` — the same with more samples and worlds.
* ``expert`` — exchange chosen by the expected declaration margin and trick value of the
  final hands over sampled talons and opponent hands; declares in full; card play by
  perfect-information Monte Carlo over many sampled worlds, played out on bitmasks with a
  card-counting policy, and the last tricks (≤ ``EXACT_TRICKS`` each) solved exactly in
  every world (:class:`EndgameSolver`).

All levels decide from the observation only (the engine's ``sample_world`` builds the
worlds the search plays in).
"""

from __future__ import annotations

import itertools
import math
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

LEVELS = ("1", "2", "3", "4", "expert")
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


# ------------------------------------------------------------------ expert level
EXACT_TRICKS = 7
"""The expert solves the rest of the deal exactly once its hand holds this many cards
(in as many sampled worlds as a fixed node budget allows)."""
_SUIT_MASKS = tuple(0xFF << (8 * s) for s in range(4))

TrickPos = tuple[int, int, int, int, int, int, int]
"""A trick-phase position on bitmasks: (hand 0, hand 1, leader, lead card or -1,
tricks won by seat 0, tricks done, pique tracker: Elder's deal score while a pique is still
possible, else -1)."""


class TrickRules:
    """How the trick phase scores, for play on bitmasks: lead and capture points, the
    last trick, cards and capot, and the pique still possible for Elder."""

    __slots__ = ("elder", "last_points", "lead_ten")

    def __init__(self, elder: int, lead_ten: bool, last_points: int) -> None:
        self.elder = elder
        self.lead_ten = lead_ten
        self.last_points = last_points

    @classmethod
    def of(cls, state: PiquetState) -> TrickRules:
        """The rules of a state's deal."""
        return cls(state.elder, state.o.lead_ten, 10 if state.o.last_trick_ten else 1)

    def credit(self, seat: int, pts: int, pq: int) -> tuple[int, int]:
        """Seat 0's margin change and the new pique tracker after ``seat`` scores."""
        if pts == 0:
            return 0, pq
        d = pts if seat == 0 else -pts
        if pq >= 0:
            if seat != self.elder:
                pq = -1
            else:
                pq += pts
                if pq >= 30:
                    d += 30 if seat == 0 else -30
                    pq = -1
        return d, pq

    def play(self, pos: TrickPos, c: int) -> tuple[int, TrickPos]:
        """Play card ``c``: seat 0's margin change and the next position."""
        h0, h1, leader, lead, won0, done, pq = pos
        if lead < 0:
            if leader == 0:
                h0 &= ~(1 << c)
            else:
                h1 &= ~(1 << c)
            pts = 1 if not self.lead_ten or c & 7 >= 3 else 0
            d, pq = self.credit(leader, pts, pq)
            return d, (h0, h1, leader, c, won0, done, pq)
        f = 1 - leader
        if f == 0:
            h0 &= ~(1 << c)
        else:
            h1 &= ~(1 << c)
        win = f if (c >> 3 == lead >> 3 and c > lead) else leader
        done += 1
        if win == 0:
            won0 += 1
        d = 0
        if win == f:
            d, pq = self.credit(f, 1, pq)
        if done == 12:
            d2, pq = self.credit(win, self.last_points, pq)
            d += d2
            won1 = 12 - won0
            if won0 == 12:
                d += 40
            elif won0 >= 7:
                d += 10
            if won1 == 12:
                d -= 40
            elif won1 >= 7:
                d -= 10
        return d, (h0, h1, win, -1, won0, done, pq)

    @staticmethod
    def legal(pos: TrickPos) -> int:
        """Mask of the cards the player to move may play."""
        h0, h1, leader, lead, _w, _d, _pq = pos
        if lead < 0:
            return h0 if leader == 0 else h1
        hand = h1 if leader == 0 else h0
        return hand & _SUIT_MASKS[lead >> 3] or hand

    @staticmethod
    def mover(pos: TrickPos) -> int:
        """Seat to play."""
        return pos[2] if pos[3] < 0 else 1 - pos[2]


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def rollout_card(pos: TrickPos) -> int:
    """Card-counting play on a complete position: run winning cards (masters, or suits the
    other hand lacks) from the longest suit, else lead low; follow with the cheapest
    winner, else the lowest card, discarding from the weakest suit."""
    h0, h1, leader, lead, _w, _d, _pq = pos
    if lead < 0:
        hand, opp = (h0, h1) if leader == 0 else (h1, h0)
        best, best_key = -1, (-1, -1)
        low, low_key = -1, (99, 99)
        for s in range(4):
            mine = hand & _SUIT_MASKS[s]
            if not mine:
                continue
            n = mine.bit_count()
            top = mine.bit_length() - 1
            theirs = opp & _SUIT_MASKS[s]
            if not theirs or top > theirs.bit_length() - 1:
                key = (n, top & 7)
                if key > best_key:
                    best, best_key = top, key
            bottom = _low(mine)
            lk = (-n, bottom & 7)
            if lk < low_key:
                low, low_key = bottom, lk
        return best if best >= 0 else low
    hand = h1 if leader == 0 else h0
    follow = hand & _SUIT_MASKS[lead >> 3]
    if follow:
        above = follow & ~((2 << lead) - 1)
        return _low(above) if above else _low(follow)
    best, best_key = -1, (99, 99)
    for s in range(4):
        mine = hand & _SUIT_MASKS[s]
        if mine:
            c = _low(mine)
            key = (c & 7, mine.bit_count())
            if key < best_key:
                best, best_key = c, key
    return best


def rollout(rules: TrickRules, pos: TrickPos) -> int:
    """Seat 0's margin from ``pos`` to the end of the deal under :func:`rollout_card`."""
    total = 0
    play = rules.play
    while pos[5] < 12:
        d, pos = play(pos, rollout_card(pos))
        total += d
    return total


class EndgameSolver:
    """Exact trick-phase solver on bitmasks: minimax of seat 0's margin of the rest of the
    deal, with a transposition table and equivalent cards (neighbours in a suit among the
    cards still out, same lead-point class) merged."""

    def __init__(self, rules: TrickRules) -> None:
        self.rules = rules
        self.memo: dict[TrickPos, int] = {}
        self.nodes = 0

    def moves(self, pos: TrickPos) -> list[int]:
        """The distinct legal cards of the player to move."""
        h0, h1, _leader, lead, _w, _d, _pq = pos
        legal = TrickRules.legal(pos)
        hand = h0 if TrickRules.mover(pos) == 0 else h1
        rem = h0 | h1 | (1 << lead if lead >= 0 else 0)
        lead_ten = self.rules.lead_ten
        out = []
        m = legal
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            higher = rem & _SUIT_MASKS[c >> 3] & ~((low << 1) - 1)
            if higher:
                nxt = _low(higher)
                if hand >> nxt & 1 and (not lead_ten or (c & 7 >= 3) == (nxt & 7 >= 3)):
                    continue
            out.append(c)
        return out

    def future(self, pos: TrickPos) -> int:
        """Seat 0's exact margin from ``pos`` to the end of the deal."""
        if pos[5] == 12:
            return 0
        hit = self.memo.get(pos)
        if hit is not None:
            return hit
        self.nodes += 1
        play = self.rules.play
        maximize = TrickRules.mover(pos) == 0
        best = -10_000 if maximize else 10_000
        for c in self.moves(pos):
            d, nxt = play(pos, c)
            v = d + self.future(nxt)
            if (v > best) if maximize else (v < best):
                best = v
        self.memo[pos] = best
        return best

    def root_values(self, pos: TrickPos, cards: Sequence[int]) -> dict[int, int]:
        """Exact seat-0 margin after each of ``cards`` (legal for the player to move)."""
        out = {}
        for c in cards:
            d, nxt = self.rules.play(pos, c)
            out[c] = d + self.future(nxt)
        return out


def trick_position(state: PiquetState) -> TrickPos:
    """The bitmask position of a state in its trick phase."""
    pq = -1
    if state.bonus is None and state.dscore[state.dealer] == 0:
        pq = state.dscore[state.elder]
    return (state.hands[0], state.hands[1], state.leader, state.lead_card, state.won[0],
            len(state.tricks), pq)


def declaration_margin(mine: int, opp: int) -> tuple[int, int]:
    """Declaration points (mine, theirs) of two final hands (point, sequences, sets,
    repique); carte blanche and carte rouge left aside."""
    a = pc.best_point(mine)
    b = pc.best_point(opp)
    pts = [0, 0]
    if a[:2] > b[:2]:
        pts[0] += a[0]
    elif b[:2] > a[:2]:
        pts[1] += b[0]
    qa, qb = pc.sequences(mine), pc.sequences(opp)
    ka = qa[0][:2] if qa else (0, 0)
    kb = qb[0][:2] if qb else (0, 0)
    if ka > kb:
        pts[0] += sum(pc.seq_score(q) for q in qa)
    elif kb > ka:
        pts[1] += sum(pc.seq_score(q) for q in qb)
    ta, tb = pc.sets(mine), pc.sets(opp)
    ka = ta[0][:2] if ta else (0, 0)
    kb = tb[0][:2] if tb else (0, 0)
    if ka > kb:
        pts[0] += sum(pc.set_score(t) for t in ta)
    elif kb > ka:
        pts[1] += sum(pc.set_score(t) for t in tb)
    for s in (0, 1):
        if pts[s] >= 30 and pts[1 - s] == 0:
            pts[s] += 60
    return pts[0], pts[1]


class ExpertPlayer:
    """Level "expert": sampled-talon exchange, full declarations, PIMC card play with
    exact endgames. Decisions depend only on the observation and the RNG (fixed sample
    counts, no clock), so they are reproducible."""

    def __init__(self, *, exchange_top: int = 50, exchange_samples: int = 80,
                 play_sims: int = 3000, min_worlds: int = 60, max_worlds: int = 200,
                 exact_worlds: int = 80, exact_tricks: int = EXACT_TRICKS,
                 exact_nodes: int = 120_000, min_exact_worlds: int = 16) -> None:
        self.name = "piquet-expert"
        self.exchange_top = exchange_top
        self.exchange_samples = exchange_samples
        self.play_sims = play_sims
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds
        self.exact_worlds = exact_worlds
        self.exact_tricks = exact_tricks
        self.exact_nodes = exact_nodes
        self.min_exact_worlds = min_exact_worlds
        self.last_stats: dict[str, float] = {}

    def choose(self, observation: dict[str, Any], legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        """Pick an action from the observation."""
        self.last_stats = {"worlds": 0, "simulations": 0}
        if len(legal_actions) == 1:
            return legal_actions[0]
        phase = observation["phase"]
        if phase in ("exchange_elder", "exchange_younger"):
            return self.exchange(observation, legal_actions, rng)
        if phase != "play":
            return choose_declaration(legal_actions)
        return self.play(observation, legal_actions, rng)

    def exchange(self, obs: dict[str, Any], legal: Sequence[Action],
                 rng: random.Random) -> Action:
        """Discards with the best mean (declaration margin + trick margin) over talons and
        opponent hands sampled from the unseen cards (the same samples for every choice)."""
        hand = _mask(obs["hand"])
        cards = list(obs["hand"])
        unknown = _unseen(obs)
        scored: list[tuple[float, int]] = []
        for k in _allowed_sizes(legal):
            for combo in itertools.combinations(cards, k):
                disc = _mask(combo)
                scored.append((hand_value(hand & ~disc) + 1.1 * k, disc))
        scored.sort(key=lambda t: -t[0])
        cands = [d for _e, d in scored[:self.exchange_top]]
        elder = obs["role"] == "elder"
        rules = TrickRules(0 if elder else 1, _lead_ten(obs["options"]),
                           10 if obs["options"].get("last_trick_ten") else 1)
        totals = dict.fromkeys(cands, 0.0)
        samples = [rng.sample(unknown, len(unknown)) for _ in range(self.exchange_samples)]
        sims = 0
        for disc in cands:
            kept = hand & ~disc
            k = disc.bit_count()
            total = 0.0
            for deck in samples:
                mine = kept | _mask(deck[:k])
                opp = _mask(deck[k:k + 12])
                a, b = declaration_margin(mine, opp)
                pq = -1
                if a + b < 30:
                    pq = (a if elder else b) if (b if elder else a) == 0 else -1
                pos: TrickPos = (mine, opp, rules.elder, -1, 0, 0, pq)
                total += a - b + rollout(rules, pos)
                sims += 1
            totals[disc] = total
        self.last_stats = {"worlds": len(samples), "simulations": sims}
        best = max(cands, key=lambda d: totals[d])
        return (EXCH, best)

    def play(self, obs: dict[str, Any], legal: Sequence[Action],
             rng: random.Random) -> Action:
        """PIMC over sampled worlds; exact values once few tricks remain."""
        from cardplaza.games.piquet.world import sample_world

        seat = obs["seat"]
        cards = [a for a in legal if isinstance(a, int)]
        exact = len(obs["hand"]) <= self.exact_tricks
        if exact:
            worlds = self.exact_worlds
        else:
            worlds = max(self.min_worlds, min(self.max_worlds, -(-self.play_sims // len(cards))))
        sign = 1 if seat == 0 else -1
        totals = dict.fromkeys(cards, 0.0)
        done = sims = nodes = 0
        for _ in range(worlds):
            if exact and done >= self.min_exact_worlds and nodes >= self.exact_nodes:
                break  # a node budget: deterministic, unlike a clock
            try:
                world = sample_world(obs, rng)
            except RuntimeError:
                break
            assert isinstance(world, PiquetState)
            rules = TrickRules.of(world)
            pos = trick_position(world)
            if exact:
                solver = EndgameSolver(rules)
                values = solver.root_values(pos, cards)
                nodes += solver.nodes
                for c in cards:
                    totals[c] += sign * values[c]
            else:
                for c in cards:
                    d, nxt = rules.play(pos, c)
                    totals[c] += sign * (d + rollout(rules, nxt))
            sims += len(cards)
            done += 1
        self.last_stats = {"worlds": done, "simulations": sims, "nodes": nodes}
        if done == 0:
            return choose_card(obs, legal)
        preferred = choose_card(obs, legal)
        best = max(totals.values())
        if totals.get(preferred, -math.inf) >= best - 1e-9:  # type: ignore[call-overload]
            return preferred
        return next(c for c in cards if totals[c] >= best - 1e-9)


def _lead_ten(options: dict[str, Any]) -> bool:
    v = options.get("lead_points_ten_or_higher")
    return bool(v == "on" or (v == "auto" and options.get("au_cent")))


def make_player(level: str, seed: int) -> Player:
    """The computer player of a level ("1" weakest … "expert" strongest)."""
    if level not in LEVELS:
        raise ValueError(f"unknown Piquet level {level!r}; levels: {', '.join(LEVELS)}")
    if level in ("1", "2"):
        return HeuristicPlayer(level, seed)
    if level == "expert":
        return ExpertPlayer()
    return SearchPlayer(level, seed)


__all__ = ["LEVELS", "hand_value", "make_player"]
