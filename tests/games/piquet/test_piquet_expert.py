"""The expert level: exact endgame solver, legal and reproducible play, fairness, arena."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from piquet_helpers import m

from cardplaza.ai.common import redealt_decisions
from cardplaza.arena.core import run_arena
from cardplaza.core import registry
from cardplaza.core.bench import random_steps
from cardplaza.games.piquet import SPEC
from cardplaza.games.piquet import players as pp
from cardplaza.games.piquet.kernels import KERNELS
from cardplaza.games.piquet.options import Options
from cardplaza.games.piquet.players import (
    ExpertPlayer,
    TrickRules,
    exact_values,
    make_player,
    trick_position,
)
from cardplaza.games.piquet.state import OVER, PLAY, PiquetState


def small_expert() -> ExpertPlayer:
    """The expert's code with small budgets, for fast tests."""
    return ExpertPlayer(exchange_top=6, exchange_samples=6, play_sims=60, min_worlds=4,
                        max_worlds=8, exact_worlds=6, exact_nodes=4000, min_exact_worlds=2)


def trick_phase(seed: int, tricks: int, opts: Options | None = None) -> PiquetState:
    """A seeded random deal played (randomly) until ``tricks`` tricks are complete."""
    s = PiquetState(opts or Options(), seed)
    rng = random.Random(seed)
    while not (s.phase == PLAY and len(s.tricks) == tricks and s.lead_card < 0):
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
    return s


def engine_margin(state: PiquetState, seat: int) -> int:
    """Brute force through the engine: the seat's exact final deal margin under minimax."""
    deal = state.deal_number
    if state.phase == OVER or state.deal_number != deal:
        raise AssertionError("not in a deal")
    best: int | None = None
    for a in state.legal_actions():
        child = state.clone()
        child.apply(a)
        if child.deal_number != deal or child.phase == OVER:
            raw = child.sheets[-1]["raw"]
            v = raw[seat] - raw[1 - seat]
        else:
            v = engine_margin(child, seat)
        if best is None or (v > best if state.current_player == seat else v < best):
            best = v
    assert best is not None
    return best


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize(("seed", "done", "opts"), [
    (1, 9, Options()), (2, 9, Options()), (3, 8, Options()),
    (4, 9, Options(lead_points_ten_or_higher="on")),
    (5, 9, Options(last_trick_ten=True)), (6, 8, Options(last_trick_ten=True)),
])
def test_endgame_solver_agrees_with_brute_force(seed: int, done: int, opts: Options,
                                                compiled: bool) -> None:
    """The bitmask solver's value of every card (compiled and as Python) equals plain
    minimax through the engine."""
    s = trick_phase(seed, done, opts)
    seat = s.current_player
    pos = trick_position(s)
    so_far = s.dscore[0] - s.dscore[1]
    cards = [a for a in s.legal_actions() if isinstance(a, int)]
    values = dict(zip(cards, exact_values(pos, cards, TrickRules.of(s), compiled)[0],
                      strict=True))
    for card, v in values.items():
        child = s.clone()
        child.apply(card)
        sign = 1 if seat == 0 else -1
        if child.deal_number != s.deal_number:
            raw = child.sheets[-1]["raw"]
            exact = raw[seat] - raw[1 - seat]
        else:
            exact = engine_margin(child, seat)
        assert sign * (so_far + v) == exact


def test_pique_during_play_is_scored_by_the_solver() -> None:
    """Elder at 27 with Younger at 0 reaches 30 by leads and captures: +30 pique."""
    rules = TrickRules(elder=0, lead_ten=False, last_points=1)
    # Elder holds the three top spades, Younger three low spades: three tricks left.
    pos = (m("A♠ K♠ Q♠"), m("7♠ 8♠ 9♠"), 0, -1, 9, 9, 27)
    cards = [c for c in range(32) if pos[0] >> c & 1]
    # Elder wins all twelve: 3 leads, last trick 1, pique at the third lead point (+30),
    # capot 40.
    assert max(exact_values(pos, cards, rules)[0]) == 3 + 1 + 30 + 40
    # Without the pique tracker (Younger has scored) the same play is worth 44.
    assert max(exact_values((*pos[:6], -1), cards, rules)[0]) == 3 + 1 + 40


def test_declaration_margin_counts_each_class() -> None:
    """Point, sequences and sets go to the better hand; equal point scores nothing."""
    mine = m("A♠ K♠ Q♠ J♠ 10♠ A♥ A♦ A♣ 7♥ 8♦ 9♣ 7♣")
    opp = m("7♠ 9♠ J♥ 8♥ 10♥ Q♥ 7♦ 9♦ J♦ 8♣ 10♣ Q♣")
    a, b = KERNELS.declaration_margin(mine, opp)
    # point of five (5) + quint (15) + quatorze of aces (14) = 34 and 0: repique +60
    assert (a, b) == (34 + 60, 0)


def test_expert_is_registered_after_four() -> None:
    """The levels tuple offers expert last."""
    assert SPEC.levels == ("1", "2", "3", "4", "expert")
    assert make_player("expert", 0).name == "piquet-expert"


def _run(players: list[object], seed: int, opts: Options, decisions: int) -> list[object]:
    s = PiquetState(opts, seed)
    rngs = [random.Random(seed), random.Random(seed + 1)]
    actions = []
    while not s.is_terminal and len(actions) < decisions:
        seat = s.current_player
        legal = s.legal_actions()
        a = players[seat].choose(s.observation(seat), legal, rngs[seat])  # type: ignore[attr-defined]
        assert a in legal
        s.apply(a)
        actions.append(a)
    return actions


@pytest.mark.parametrize("opts", [Options(), Options(sinking=True, au_cent=True)])
def test_expert_plays_legal_reproducible_deals(opts: Options) -> None:
    """A whole deal with the expert's code is legal, and the same seed gives the same play."""
    a = _run([small_expert(), small_expert()], 7, opts, 60)
    b = _run([small_expert(), small_expert()], 7, opts, 60)
    assert a == b


def test_registered_expert_decides_in_every_phase() -> None:
    """The registered expert (full budgets) picks legal exchange and play actions."""
    player = make_player("expert", 0)
    for tricks in (0, 10):
        s = trick_phase(11, tricks)
        legal = s.legal_actions()
        a = player.choose(s.observation(s.current_player), legal, random.Random(0))
        assert a in legal
        b = make_player("expert", 0).choose(s.observation(s.current_player), legal,
                                            random.Random(0))
        assert a == b
    s = PiquetState(Options(), 12)
    legal = s.legal_actions()
    assert player.choose(s.observation(s.current_player), legal, random.Random(0)) in legal


def _make(level: str) -> object:
    """A level's player; the search levels keep their own settings with small budgets."""
    if level in ("1", "2"):
        return make_player(level, 0)
    small = {"exchange_top": 6, "exchange_samples": 6, "play_sims": 60, "min_worlds": 4,
             "max_worlds": 8, "exact_worlds": 6, "exact_nodes": 4000, "min_exact_worlds": 2}
    return ExpertPlayer(name=f"piquet-{level}", **{**pp.BUDGETS[level], **small})


@settings(max_examples=12, deadline=None)
@given(level=st.sampled_from(pp.LEVELS), seed=st.integers(0, 10_000), steps=st.integers(0, 60),
       choice=st.integers(0, 1_000))
def test_fairness_decision_ignores_unseen_cards(level: str, seed: int, steps: int,
                                                choice: int) -> None:
    """Re-dealing the cards a seat cannot see (keeping its observation) never changes the
    decision of any level for a fixed seed."""
    s = PiquetState(Options(sinking=seed % 2 == 1), seed)
    random_steps(s, random.Random(choice), steps)
    if s.is_terminal:
        return
    a, b = redealt_decisions(SPEC, s, lambda: _make(level), choice)
    assert a == b


def test_small_arena_expert_against_four(monkeypatch: pytest.MonkeyPatch) -> None:
    """A seeded one-deal arena of expert against 4 (small budgets) runs and is reproducible."""
    def quick(level: str, seed: int) -> object:
        return _make(level)

    monkeypatch.setattr(registry, "_HOOKS", {})  # the level hook loaded afresh, then dropped
    monkeypatch.setattr(pp, "make_player", quick)
    opts = Options(four_deals=True)
    r1 = run_arena("piquet", ["4", "expert"], 1, seed=1, jobs=1, options=opts)
    r2 = run_arena("piquet", ["4", "expert"], 1, seed=1, jobs=1, options=opts)
    assert r1.pairs[0].deals == 1
    assert r1.pairs[0].mean_margin == r2.pairs[0].mean_margin


@pytest.mark.parametrize("level", ["4", "expert"])
def test_expert_exchange_keeps_the_quint_major_and_aces(level: str) -> None:
    """Elder with a quint major in ♠ and three more aces discards none of them (level 4's
    plain exchange search and the expert's raced one)."""
    from piquet_helpers import layout_state

    from cardplaza.games.piquet.combos import FULL

    eh = m("A♠ K♠ Q♠ J♠ 10♠ A♥ A♦ A♣ 7♥ 8♦ 9♣ 7♣")
    rest = [c for c in range(32) if not (eh >> c) & 1]
    s = layout_state(Options(), eh, sum(1 << c for c in rest[:12]), rest[12:])
    assert s.hands[s.elder] & FULL == eh
    legal = s.legal_actions()
    action = make_player(level, 0).choose(s.observation(s.elder), legal, random.Random(0))
    assert action in legal
    assert isinstance(action, tuple)
    assert not action[1] & m("A♠ K♠ Q♠ J♠ 10♠ A♥ A♦ A♣")


@pytest.mark.parametrize("level", ["4", "expert"])
def test_exchange_against_a_shown_carte_blanche(level: str) -> None:
    """Younger facing Elder's carte blanche (Elder's dealt hand shown) exchanges legally:
    the search uses the shown hand for Elder instead of dealing him unseen cards."""
    from piquet_helpers import layout_state

    from cardplaza.games.piquet.combos import COURT_MASK

    blank = m("A♠ 10♠ 9♠ A♥ 10♥ 9♥ A♦ 10♦ 9♦ A♣ 10♣ 9♣")
    rest = [c for c in range(32) if not (blank >> c) & 1]
    s = layout_state(Options(), blank, sum(1 << c for c in rest[:12]), rest[12:])
    assert not s.dealt[s.elder] & COURT_MASK
    s.apply(s.legal_actions()[0])
    obs = s.observation(s.current_player)
    assert obs["revealed_dealt"][str(s.elder)]
    legal = s.legal_actions()
    assert make_player(level, 0).choose(obs, legal, random.Random(0)) in legal
