"""Computer players of two-hand Pinochle: spec levels 1–4 (section 11) and level 5, expert.

Every level decides only from its observation (plus its own seeded RNG); the hidden
cards are never read. Levels 2 and 3 are rule-based policies written against a compact
:class:`View` that can be built from an observation or — inside simulations, where the
sampled world *is* the position — from a full state for the seat to act (the same facts
that seat's observation holds).

* Level 1 — uniformly random card; always melds, uniformly among the distinct legal melds.
* Level 2 — seed 001's simple tips (11.3).
* Level 3 — level 2 plus card counting, keeping meld cards, waiting for the run instead of
  melding the royal marriage (:func:`meld_level3`), trump kept for the playoff, losing
  trick 12 under a high turn-up, and a one-trick exact lookahead in the playoff (11.4).
* Level 4 — in the stock phase, PIMC over 40 sampled layouts of the unseen cards, every
  candidate played out with level 3 for both players, same samples for every candidate,
  ties to level 3; level 3 in the playoff (11.5).
* Level 5 — expert: PIMC over up to 1,000 layouts in the stock phase (at least 120, within
  a time cap; level 3 play-outs, same samples for every candidate; melding, declining and
  which meld are compared by simulation, which decides meld timing), then the exact
  playoff solver (:mod:`cardplaza.games.pinochle2.solver`) for every playoff card.
  Budgets and time caps are the named settings below (``SAMPLES_*``, ``SECONDS_*``).

Choices where 11.3 is silent (documented here and in the tests): among winning cards a
non-counter of the led suit comes first, then the lowest trump other than its A and 10,
then a counter of the led suit; the "least valuable card" orders by (counter, trump,
needed for a meld it could make, rank); the "lowest card" orders by (rank, trump).
In 11.4 "its last A or 10 of trump" is the one card left when it holds exactly one of
its A and 10 of trump (any copies), and a trick led by itself counts as worth 10 or less.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from cardplaza.ai.evaluation import ActionEvaluation
from cardplaza.ai.pimc import PIMCPlayer
from cardplaza.core.protocol import Action, GameState
from cardplaza.games.pinochle2.engine import (
    ACE,
    ALL_CARDS,
    FACE_OF,
    GROUP_KEYS,
    INSTANCES,
    JACK,
    KING,
    MELD_POINTS,
    NO_MELD,
    POINTS,
    QUEEN,
    RANK_OF,
    ROYAL,
    STEP_MELD,
    STEP_PLAY,
    SUIT_MASK,
    SUIT_OF,
    TEN,
    Pinochle2State,
    generate_melds,
    iter_bits,
    playoff_follow_mask,
    trick_winner,
)
from cardplaza.games.pinochle2.solver import PlayoffSolver, canonical, solve_playoff

PLAYER_LEVELS = ("1", "2", "3", "4", "5")
"""Computer levels this module provides (weakest first); ``random`` is level 1's cousin."""

SAMPLES_LEVEL4 = 40
"""Level 4: sampled worlds per stock-phase decision (11.5)."""
SECONDS_LEVEL4 = 0.5
"""Level 4: cap per decision in CPU seconds (a safety net: 40 worlds take milliseconds)."""
SAMPLES_EXPERT = 1000
"""Level 5: sampled worlds per stock-phase decision (every candidate in each)."""
MIN_SAMPLES_EXPERT = 120
"""Level 5: worlds kept however short the time cap."""
SECONDS_EXPERT = 0.3
"""Level 5: cap per stock-phase decision in CPU seconds of the deciding thread (then it
stops sampling; the machine's other load does not shorten the search)."""


def _mask(cards: Any) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


class View:
    """What the seat to act knows, in bitmasks (built from an observation or a state)."""

    __slots__ = ("_melds", "double_melds", "hand", "known", "lead", "melded", "new_card_rule",
                 "opp_hand", "played", "seat", "step", "stock_count", "trump", "turn_up",
                 "unseen", "used")

    def __init__(self) -> None:
        self._melds: list[tuple[int, int]] | None = None

    seat: int
    trump: int
    hand: int
    melded: int
    known: int
    used: list[int]
    stock_count: int
    turn_up: int
    lead: int
    step: int
    played: int
    unseen: int
    opp_hand: int
    double_melds: bool
    new_card_rule: bool

    @classmethod
    def from_observation(cls, obs: dict[str, Any]) -> View:
        """The view of an observation (spec section 9 facts only)."""
        v = cls()
        seat = int(obs["seat"])
        v.seat = seat
        v.trump = int(obs["trump"])
        v.hand = _mask(obs["hand"])
        v.melded = _mask(obs["meld_areas"][seat])
        v.known = _mask(obs["known_held"][seat])
        v.used = [_mask(obs["used"][k]) for k in GROUP_KEYS]
        v.stock_count = int(obs["stock_count"])
        v.turn_up = -1 if obs["turn_up"] is None else int(obs["turn_up"])
        cur = obs["current_trick"]
        v.lead = int(cur["cards"][0]) if cur and cur["cards"] else -1
        v.step = STEP_MELD if obs["step"] == "meld" else STEP_PLAY
        played = 0
        for t in obs["tricks"]:
            played |= (1 << int(t["cards"][0])) | (1 << int(t["cards"][1]))
        if v.lead >= 0:
            played |= 1 << v.lead
        v.played = played
        v.unseen = _mask(obs["unseen"])
        v.opp_hand = ALL_CARDS & ~v.hand & ~played if not v.stock_count else 0
        opts = obs["options"]
        v.double_melds = bool(opts["double_melds"])
        v.new_card_rule = bool(opts["new_card_rule"])
        return v

    @classmethod
    def from_state(cls, st: Pinochle2State) -> View:
        """The view of the seat to act in a full state (used inside simulations)."""
        v = cls()
        seat = st.turn
        opp = 1 - seat
        v.seat = seat
        v.trump = st.trump
        v.hand = st.hands[seat]
        v.melded = st.melded[seat]
        v.known = st.known[seat]
        v.used = st.used
        v.stock_count = len(st.stock)
        v.turn_up = st.stock[0] if st.stock else -1
        v.lead = st.lead
        v.step = st.step
        hidden = st.hands[opp] & ~st.melded[opp] & ~st.known[opp]
        if st.stock:
            stock = 0
            for c in st.stock[1:]:
                stock |= 1 << c
            v.unseen = hidden | stock
            v.played = ALL_CARDS & ~(st.hands[0] | st.hands[1] | stock | (1 << st.stock[0]))
            v.opp_hand = 0
        else:
            v.unseen = hidden
            v.opp_hand = st.hands[opp]
            v.played = ALL_CARDS & ~(st.hands[0] | st.hands[1])
        v.double_melds = st.options.double_melds
        v.new_card_rule = st.options.new_card_rule
        return v

    # -- derived facts --------------------------------------------------------------
    def melds_possible(self) -> list[tuple[int, int]]:
        """Melds it could make now if it won a trick (6.4)."""
        if self._melds is None:
            self._melds = generate_melds(self.hand, self.melded, self.known, self.used,
                                         self.trump, self.double_melds, self.new_card_rule)
        return self._melds

    def meld_cards(self) -> int:
        """Cards belonging to a meld it could make."""
        out = 0
        for _, m in self.melds_possible():
            out |= m
        return out

    def near_meld_cards(self) -> int:
        """Cards of melds lacking exactly one card of which a copy is still unseen."""
        out = 0
        hand = self.hand
        unseen = self.unseen
        unseen_faces = (unseen | (unseen >> 24)) & _F24
        for g, faces, need in _NEAR[self.trump][self.double_melds]:
            free = hand & ~self.used[g]
            lo = free & faces
            hi = (free >> 24) & faces
            if need == 1:
                present = lo | hi
                missing = faces & ~present
                if missing.bit_count() == 1 and missing & unseen_faces:
                    out |= lo | ((hi & ~lo) << 24)
            else:
                both = lo & hi
                one = (lo | hi) & ~both
                if not faces & ~(both | one) and one.bit_count() == 1 and one & unseen_faces:
                    out |= free & (faces | (faces << 24))
        return out


_F24 = (1 << 24) - 1


def _near_table(trump: int, double_melds: bool) -> list[tuple[int, int, int]]:
    out = []
    for t, g, faces, need in INSTANCES[trump]:
        if need == 2 and not double_melds and t != 5:
            continue
        out.append((g, sum(1 << f for f in faces), need))
    return out


_NEAR = [[_near_table(t, False), _near_table(t, True)] for t in range(4)]


# --------------------------------------------------------------------------------------
# Card orderings
# --------------------------------------------------------------------------------------

def _least_valuable(cards: int, trump: int, needed: int) -> int:
    """Least valuable card: non-counter, non-trump, not needed for a meld, lowest first."""
    best = -1
    best_key = (9, 9, 9, 9, 99)
    for c in iter_bits(cards):
        key = (POINTS[c] > 0, SUIT_OF[c] == trump, (needed >> c) & 1, RANK_OF[c], c)
        if key < best_key:
            best, best_key = c, key
    return best


def _lowest(cards: int, trump: int) -> int:
    """Lowest card by rank (non-trump before trump on equal rank)."""
    return min(iter_bits(cards), key=lambda c: (RANK_OF[c], SUIT_OF[c] == trump, c))


def _cheapest_winner(cards: int, lead: int, trump: int) -> int:
    """Cheapest stock-phase winning card, or -1 (never the A or 10 of trump)."""
    best = -1
    best_key = (9, 9, 99)
    lead_suit = SUIT_OF[lead]
    for c in iter_bits(cards):
        if not trick_winner(lead, c, trump):
            continue
        s = SUIT_OF[c]
        if s == trump and RANK_OF[c] >= TEN:
            continue
        if s == lead_suit and s != trump and POINTS[c] == 0:
            cls = 0
        elif s == trump:
            cls = 1
        else:
            cls = 2
        key = (cls, RANK_OF[c], c)
        if key < best_key:
            best, best_key = c, key
    return best


# --------------------------------------------------------------------------------------
# Meld choice
# --------------------------------------------------------------------------------------

def _meld_key(action: tuple[int, int], melded: int) -> tuple[int, int, int]:
    t, m = action
    return (-MELD_POINTS[t], (m & ~melded).bit_count(), t)


def meld_level2(v: View, legal: Sequence[Action]) -> Action:
    """The legal meld with the most points (ties: fewer concealed cards, table order)."""
    melds = [a for a in legal if a != NO_MELD]
    if not melds:
        return NO_MELD
    return min(melds, key=lambda a: _meld_key(a, v.melded))  # type: ignore[arg-type]


def meld_level3(v: View, legal: Sequence[Action]) -> Action:
    """Level 2's meld, but the run before the royal marriage (11.4).

    The rules (11.4): "it never melds a royal marriage with K and Q of trump while it also
    holds A, 10 and J of trump (it melds the run instead), and while it holds K and Q of
    trump, a missing run card is still unseen and the stock has at least 6 cards, it
    prefers any other meld to the royal marriage." Seed 001 says level 3 keeps the royal
    marriage unmelded while a run is still possible (it waits for the run), which that
    wording leaves open when the royal marriage is the only meld. Decision: while it holds
    K and Q of trump, each missing run card (A, 10, J of trump) still has a copy unseen and
    the stock has at least 6 cards, the royal marriage is never melded — another meld if
    there is one, else no meld.
    """
    melds = [a for a in legal if a != NO_MELD]
    if not melds:
        return NO_MELD
    trump = v.trump
    hand = v.hand

    def holds(rank: int, cards: int = hand) -> bool:
        f = trump * 6 + rank
        return bool((cards >> f) & 1 or (cards >> (f + 24)) & 1)

    has_ate = holds(ACE) and holds(TEN) and holds(JACK)
    wait_run = (not has_ate and holds(KING) and holds(QUEEN) and v.stock_count >= 6
                and all(holds(rank) or holds(rank, v.unseen) for rank in (ACE, TEN, JACK)))
    allowed = [a for a in melds
               if not ((has_ate or wait_run) and a[0] == ROYAL)]  # type: ignore[index]
    if not allowed:
        return NO_MELD
    return min(allowed, key=lambda a: _meld_key(a, v.melded))  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------
# Card play
# --------------------------------------------------------------------------------------

def play_level2(v: View, legal_mask: int, rng: random.Random | None = None,
                candidates: int | None = None) -> int:
    """Level 2's card (11.3); ``candidates`` restricts the cards considered (level 3)."""
    trump = v.trump
    if v.stock_count:
        cand = legal_mask if candidates is None else candidates
        needed = v.meld_cards()
        if v.lead >= 0:
            if POINTS[v.lead] or v.melds_possible():
                win = _cheapest_winner(cand, v.lead, trump)
                if win >= 0:
                    return win
            return _least_valuable(cand, trump, needed)
        spare = 0
        for c in iter_bits(cand):
            if SUIT_OF[c] != trump and not POINTS[c] and not (needed >> c) & 1:
                spare |= 1 << c
        return _lowest(spare or cand, trump)
    # Playoff.
    if v.lead >= 0:
        winners = [c for c in iter_bits(legal_mask) if trick_winner(v.lead, c, trump)]
        if winners:
            return min(winners, key=lambda c: (RANK_OF[c], c))
        return _lowest(legal_mask, trump)
    aces = [c for c in iter_bits(legal_mask) if RANK_OF[c] == ACE and SUIT_OF[c] != trump]
    if aces:
        return min(aces)
    return _lowest(legal_mask, trump)


def play_level3(v: View, legal_mask: int) -> int:
    """Level 3's card (11.4)."""
    trump = v.trump
    if not v.stock_count:
        return _playoff_lookahead(v, legal_mask)
    hand = legal_mask
    keep = v.meld_cards()
    if v.stock_count >= 4:
        keep |= v.near_meld_cards()
    cand = hand & ~keep
    if not cand:
        return _least_valuable(hand, trump, keep)
    # Trump for the playoff: never the last A or 10 of trump on a trick worth <= 10.
    high = hand & SUIT_MASK[trump] & _HIGH_TRUMP[trump]
    if high.bit_count() == 1 and (v.lead < 0 or POINTS[v.lead] == 0):
        rest = cand & ~high
        if rest:
            cand = rest
    # Last stock trick under a high turn-up: try to lose it.
    if v.stock_count == 2 and v.turn_up >= 0 and RANK_OF[v.turn_up] >= TEN:
        if v.lead >= 0:
            losers = 0
            for c in iter_bits(cand):
                if not trick_winner(v.lead, c, trump):
                    losers |= 1 << c
            return _least_valuable(losers or cand, trump, keep)
        return _least_valuable(cand, trump, keep)
    return play_level2(v, legal_mask, candidates=cand)


_HIGH_TRUMP = [sum(1 << (s * 6 + r + 24 * k) for r in (TEN, ACE) for k in (0, 1))
               for s in range(4)]


def _playoff_lookahead(v: View, legal_mask: int) -> int:
    """Best card for the current trick only, with the opponent's hand deduced (11.4)."""
    trump = v.trump
    opp = v.opp_hand
    last = 10 if v.hand.bit_count() == 1 else 0
    if v.lead >= 0:
        lead = v.lead
        best, best_key = -1, (-9999, -1, 0)
        for c in iter_bits(legal_mask):
            pts = POINTS[lead] + POINTS[c] + last
            win = trick_winner(lead, c, trump)
            key = (pts if win else -pts, int(win), -RANK_OF[c] * 100 - c)
            if key > best_key:
                best, best_key = c, key
        return best
    best, best_lkey = -1, (-9999, -1, -1, -99, -99)
    for c in iter_bits(legal_mask):
        worst_val, keeps = 9999, 1
        for r in iter_bits(playoff_follow_mask(opp, c, trump)):
            pts = POINTS[c] + POINTS[r] + last
            opp_wins = trick_winner(c, r, trump)
            val = -pts if opp_wins else pts
            if val < worst_val or (val == worst_val and opp_wins):
                worst_val, keeps = val, 0 if opp_wins else 1
        holds_suit = bool(opp & SUIT_MASK[SUIT_OF[c]])
        rank_pref = RANK_OF[c] if holds_suit else -RANK_OF[c]
        lkey = (worst_val, keeps, int(holds_suit), rank_pref, -c)
        if lkey > best_lkey:
            best, best_lkey = c, lkey
    return best


# --------------------------------------------------------------------------------------
# Players
# --------------------------------------------------------------------------------------

def _legal_mask(legal: Sequence[Action]) -> int:
    m = 0
    for a in legal:
        if type(a) is int and a != NO_MELD:
            m |= 1 << a
    return m


class Level1:
    """Random card; always melds when it can, uniformly among the distinct legal melds."""

    name = "level 1"

    def choose(self, observation: dict[str, Any], legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        """Uniform choice (melds before declining)."""
        melds = [a for a in legal_actions if a != NO_MELD and not isinstance(a, int)]
        if melds:
            return melds[rng.randrange(len(melds))]
        return legal_actions[rng.randrange(len(legal_actions))]


class _RuleLevel:
    """A rule-based level: its meld rule and its play rule on a :class:`View`."""

    name = "rules"
    meld_rule: Any = None
    play_rule: Any = None

    def choose(self, observation: dict[str, Any], legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        """Rule-based choice."""
        return self.decide(View.from_observation(observation), legal_actions)

    @classmethod
    def decide(cls, v: View, legal: Sequence[Action]) -> Action:
        """Choice on a view."""
        if v.step == STEP_MELD:
            action: Action = cls.meld_rule(v, legal)
            return action
        card: int = cls.play_rule(v, _legal_mask(legal))
        return card


class Level2(_RuleLevel):
    """Seed 001's simple tips (11.3)."""

    name = "level 2"
    meld_rule = staticmethod(meld_level2)
    play_rule = staticmethod(play_level2)


class Level3(_RuleLevel):
    """Counting and planning (11.4)."""

    name = "level 3"
    meld_rule = staticmethod(meld_level3)
    play_rule = staticmethod(play_level3)


def level3_rollout(state: GameState, rng: random.Random) -> Action:
    """Level 3's action for the seat to act in a full (sampled) state."""
    assert isinstance(state, Pinochle2State)
    if state.step == STEP_MELD:
        return meld_level3(View.from_state(state), state.legal_actions())
    legal = state.legal_mask()
    if not legal & (legal - 1):  # a single legal card
        return legal.bit_length() - 1
    return play_level3(View.from_state(state), legal)


def _signature(c: int, v: View) -> tuple[int, ...]:
    return (FACE_OF[c], (v.melded >> c) & 1, (v.known >> c) & 1,
            *[(u >> c) & 1 for u in v.used])


def distinct_candidates(observation: dict[str, Any],
                        legal: Sequence[Action]) -> list[Action]:
    """Legal actions with identical copies (same face and history) merged."""
    v = View.from_observation(observation)
    out: list[Action] = []
    seen: set[tuple[int, ...]] = set()
    for a in legal:
        if type(a) is int and a != NO_MELD:
            sig = _signature(a, v)
            if sig in seen:
                continue
            seen.add(sig)
        out.append(a)
    return out


class KernelPIMC(PIMCPlayer):
    """PIMC whose worlds and level-3 play-outs run in the compiled kernel
    (:func:`simulation.simulate_actions`): the same worlds, random numbers and sums as
    :class:`PIMCPlayer` on the protocol engine with :func:`level3_rollout`."""

    def action_values(self, observation: dict[str, Any], actions: Sequence[Action],
                      rng: random.Random) -> dict[Action, float]:
        """Mean final margin of each action over the sampled worlds (same worlds for all)."""
        from cardplaza.games.pinochle2.simulation import simulate_actions

        totals, done = simulate_actions(observation, actions, self.worlds, rng, self.seconds,
                                        self.min_worlds)
        self.last_stats = {"worlds": done, "simulations": done * len(actions)}
        return {a: t / done for a, t in zip(actions, totals, strict=True)}


class SimulationPlayer:
    """Levels 4 and 5: PIMC in the stock phase, level 3 or the exact solver in the playoff."""

    def __init__(self, level: str, samples: int, exact_playoff: bool,
                 seconds: float | None = None, min_samples: int = 24) -> None:
        from cardplaza.games.pinochle2 import SPEC

        self.name = f"level {level}"
        self.exact_playoff = exact_playoff
        self.search = KernelPIMC(SPEC, worlds=samples, seconds=seconds,
                                 min_worlds=min(min_samples, samples),
                                 rollout=level3_rollout, candidates=distinct_candidates,
                                 prefer=Level3(), name=self.name)
        self.solver: PlayoffSolver | None = None
        self.last_stats: dict[str, float] = {}

    def choose(self, observation: dict[str, Any], legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        """PIMC while the stock lasts; level 3 or exact play afterwards."""
        if len(legal_actions) == 1:
            self.last_stats = {"simulations": 0}
            return legal_actions[0]
        if observation["phase"] != "stock":
            self.last_stats = {"simulations": 0}
            if not self.exact_playoff:
                return Level3().choose(observation, legal_actions, rng)
            return self._solve(observation, rng)
        search = self.search
        action = search.choose(observation, legal_actions, rng)
        self.last_stats = dict(search.last_stats)
        return action

    def evaluate(self, observation: dict[str, Any], legal_actions: Sequence[Action],
                 rng: random.Random) -> list[ActionEvaluation]:
        """The search's evaluation of every candidate (identical copies merged): in the
        stock phase the mean final margin (own total − opponent's) over this level's
        sampled worlds and the chance of winning the deal (a draw counts half); in the
        playoff the exact final margin, both hands being known. Stable interface for
        hints and reviews."""
        from cardplaza.games.pinochle2.simulation import simulate_actions
        from cardplaza.games.pinochle2.world import sample_world

        if observation["phase"] == "stock":
            actions = list(distinct_candidates(observation, legal_actions))
            search = self.search
            wins: list[int] = []
            totals, done = simulate_actions(observation, actions, search.worlds, rng,
                                            search.seconds, search.min_worlds, wins)
            return [ActionEvaluation(a, t / done, w / (2 * done), "win", done)
                    for a, t, w in zip(actions, totals, wins, strict=True)]
        state = sample_world(observation, rng)  # the playoff has no unseen cards
        assert isinstance(state, Pinochle2State)
        seat = state.turn
        if self.solver is None or self.solver.trump != state.trump:
            self.solver = PlayoffSolver(state.trump)
        faces = self.solver.card_values(canonical(state.hands[seat]),
                                        canonical(state.hands[1 - seat]),
                                        -1 if state.lead < 0 else state.lead % 24)
        now = state.totals()
        base = now[seat] - now[1 - seat]
        out: list[ActionEvaluation] = []
        for a in distinct_candidates(observation, legal_actions):
            assert isinstance(a, int)
            final = base + faces[a % 24]
            out.append(ActionEvaluation(a, float(final), 1.0 if final > 0 else
                                        0.5 if final == 0 else 0.0, "win", 0, exact=True))
        return out

    def _solve(self, observation: dict[str, Any], rng: random.Random) -> Action:
        from cardplaza.games.pinochle2.world import sample_world

        state = sample_world(observation, rng)  # the playoff has no unseen cards
        assert isinstance(state, Pinochle2State)
        if self.solver is None or self.solver.trump != state.trump:
            self.solver = PlayoffSolver(state.trump)
        sol = solve_playoff(state, self.solver)
        self.last_stats = {"simulations": 0, "solver_nodes": sol.nodes}
        return sol.card


def make_player(level: str, seed: int = 0) -> Any:
    """The computer player of a level ``"1"``…``"5"`` (the seed is not needed: every
    choice draws from the RNG passed to ``choose``)."""
    if level == "1":
        return Level1()
    if level == "2":
        return Level2()
    if level == "3":
        return Level3()
    if level == "4":
        return SimulationPlayer("4", SAMPLES_LEVEL4, exact_playoff=False,
                                seconds=SECONDS_LEVEL4)
    if level == "5":
        return SimulationPlayer("5", SAMPLES_EXPERT, exact_playoff=True,
                                seconds=SECONDS_EXPERT, min_samples=MIN_SAMPLES_EXPERT)
    raise ValueError(f"unknown two-hand Pinochle level {level!r}; levels: "
                     f"{', '.join(PLAYER_LEVELS)}")


__all__ = ["PLAYER_LEVELS", "Level1", "Level2", "Level3", "SimulationPlayer", "View",
           "make_player"]
