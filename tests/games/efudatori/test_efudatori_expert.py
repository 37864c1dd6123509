"""The expert level: exact max-n endgame, legal and reproducible play, fairness, arena."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardplaza.ai.common import margin, redealt_decisions
from cardplaza.ai.solver import brute_force
from cardplaza.arena.core import run_arena
from cardplaza.core import registry
from cardplaza.core.bench import random_steps
from cardplaza.games.efudatori import SPEC, EfudatoriState, Options
from cardplaza.games.efudatori import players as ep
from cardplaza.games.efudatori.players import (
    LEVELS,
    SearchPlayer,
    exact_values,
    make_player,
    play_orders,
)


def small_expert() -> SearchPlayer:
    """The expert's code with small budgets, for fast tests."""
    return SearchPlayer("small-expert", sims=20, min_worlds=2, max_worlds=6, exact_worlds=3,
                        stock_orders=2)


def stock_empty(seed: int, players: int, cards_left: int) -> EfudatoriState:
    """A seeded random game played until the stock is empty and each hand holds at most
    ``cards_left`` cards, at the start of a trick."""
    s = EfudatoriState(Options(players=players), seed)
    rng = random.Random(seed)
    while not (not s.stock and not s.trick and max(h.bit_count() for h in s.hands)
               <= cards_left):
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
    return s


def brute_max_n(state: EfudatoriState) -> tuple[float, ...]:
    """Every seat's final margin under max-n play, through the engine (lowest card on ties)."""
    if state.is_terminal:
        r = state.returns()
        return tuple(margin(r, p) for p in range(state.num_players))
    p = state.current_player
    best: tuple[float, ...] | None = None
    for a in state.legal_actions():
        child = state.clone()
        child.apply(a)
        v = brute_max_n(child)
        if best is None or v[p] > best[p] + 1e-9:
            best = v
    assert best is not None
    return best


def solved(s: EfudatoriState, cards: list[int], compiled: bool = True) -> list[float]:
    """The end solver's value of each card for the seat to play."""
    return exact_values(s.hands, s.trick, s.leader, s.trick_number, s.captured, cards,
                        s.current_player, s.num_players, s.tricks_total, False, compiled)


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize("seed", range(4))
def test_two_player_endgame_matches_minimax(seed: int, compiled: bool) -> None:
    """With two players the solver's value of every card equals plain minimax."""
    s = stock_empty(seed, 2, 4)
    seat = s.current_player
    cards = list(s.legal_actions())
    values = solved(s, cards, compiled)  # type: ignore[arg-type]
    for c, v in zip(cards, values, strict=True):
        child = s.clone()
        child.apply(c)
        assert v == pytest.approx(brute_force(child, seat))  # type: ignore[arg-type]


@pytest.mark.parametrize(("seed", "players", "left"), [(1, 3, 3), (2, 4, 2), (3, 4, 3),
                                                      (4, 5, 2), (5, 7, 2), (6, 6, 2)])
def test_max_n_endgame_matches_brute_force(seed: int, players: int, left: int) -> None:
    """The solver's max-n value of every card equals a brute-force max-n through the
    engine (each seat's margin; the solver's for the seat to play)."""
    s = stock_empty(seed, players, left)
    cards = list(s.legal_actions())
    got = solved(s, cards)  # type: ignore[arg-type]
    seat = s.current_player
    for c, v in zip(cards, got, strict=True):
        child = s.clone()
        child.apply(c)
        assert v == pytest.approx(brute_max_n(child)[seat])
    assert max(got) == pytest.approx(brute_max_n(s)[seat])


def test_expert_registered_after_four() -> None:
    """The levels tuple offers expert last."""
    assert SPEC.levels == ("1", "2", "3", "4", "expert")
    assert make_player("expert").name == "efudatori-expert"
    assert play_orders([3, 3, 2]) == 72


def game(players: list[object], seed: int, n: int) -> tuple[list[int], EfudatoriState]:
    """One game with these players; the cards played."""
    s = EfudatoriState(Options(players=n), seed)
    rngs = [random.Random(seed * 10 + p) for p in range(n)]
    out = []
    while not s.is_terminal:
        p = s.current_player
        legal = s.legal_actions()
        a = players[p].choose(s.observation(p), legal, rngs[p])  # type: ignore[attr-defined]
        assert a in legal
        s.apply(a)
        out.append(int(a))
    return out, s


@pytest.mark.parametrize("n", [2, 5, 7])
def test_expert_plays_legal_reproducible_games(n: int) -> None:
    """Whole games of 2, 5 and 7 players with the expert's code are legal and reproducible."""
    a, s = game([small_expert() for _ in range(n)], n, n)
    b, _ = game([small_expert() for _ in range(n)], n, n)
    assert a == b
    assert s.is_terminal


def test_registered_expert_decides_reproducibly() -> None:
    """The registered expert (full budgets) picks legal, reproducible cards, also in the
    exactly solved end."""
    for s in (stock_empty(3, 4, 3), EfudatoriState(Options(players=5), 4)):
        seat = s.current_player
        legal = s.legal_actions()
        a = make_player("expert").choose(s.observation(seat), legal, random.Random(1))
        b = make_player("expert").choose(s.observation(seat), legal, random.Random(1))
        assert a in legal
        assert a == b


def test_expert_solves_exactly_from_the_moment_the_stock_is_empty() -> None:
    """Four players, the stock just emptied (hands 4-4-4-4, the widest end): the expert
    solves fewer worlds exactly; one card later (4-4-4-3) the full number; with stock
    left it plays out."""
    s = stock_empty(7, 4, 4)
    assert [h.bit_count() for h in s.hands] == [4, 4, 4, 4]
    expert = make_player("expert")
    assert isinstance(expert, SearchPlayer)
    obs = s.observation(s.current_player)
    assert expert.exact_worlds_for(obs) == ep.EXPERT_WIDE_EXACT_WORLDS < ep.EXPERT_EXACT_WORLDS
    expert.choose(obs, s.legal_actions(), random.Random(2))
    assert expert.last_stats["exact"] == 1
    assert expert.last_stats["worlds"] == ep.EXPERT_WIDE_EXACT_WORLDS
    s.apply(s.legal_actions()[0])
    assert expert.exact_worlds_for(s.observation(s.current_player)) == ep.EXPERT_EXACT_WORLDS
    early = EfudatoriState(Options(players=4), 7)
    assert expert.exact_worlds_for(early.observation(early.current_player)) == 0
    # Five players' hands of four are past the widest end: played out.
    five = stock_empty(7, 5, 4)
    assert [h.bit_count() for h in five.hands] == [4] * 5
    assert expert.exact_worlds_for(five.observation(five.current_player)) == 0


def test_a_capped_exact_decision_stops_after_a_quarter_of_its_worlds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The CPU cap also binds an exact decision (after a quarter of its worlds), so a
    rare costly end cannot keep a player waiting."""
    s = stock_empty(7, 4, 4)
    expert = make_player("expert")
    assert isinstance(expert, SearchPlayer)
    clock = iter(range(10_000))
    monkeypatch.setattr(ep.time, "process_time", lambda: float(next(clock)) * 10)
    expert.choose(s.observation(s.current_player), s.legal_actions(), random.Random(2))
    assert expert.last_stats["exact"] == 1
    assert expert.last_stats["worlds"] == ep.EXPERT_WIDE_EXACT_WORLDS // 4


def test_expert_takes_the_joker_with_the_spade_three() -> None:
    """In a solved end, leading the ♠3 (forcing out the Joker) is worth at least as much as
    leading the K♥ into the Joker."""
    from efudatori_helpers import position

    s = position(["3S KH", "Jo 4D", "5C 6C", "7D 8D"], 12, 0)
    s.tricks_total = 13
    legal = s.legal_actions()
    # Exact: leading the ♠3 wins the Joker trick (W1); the K♥ then stays safe.
    cards = [a for a in legal if isinstance(a, int)]
    values = dict(zip(cards, solved(s, cards), strict=True))
    assert max(values, key=lambda c: values[c]) == 1


def _make(level: str) -> object:
    if level == "expert":
        return small_expert()
    return make_player(level)


@settings(max_examples=15, deadline=None)
@given(level=st.sampled_from(LEVELS), seed=st.integers(0, 10_000), n=st.integers(2, 7),
       steps=st.integers(0, 60), choice=st.integers(0, 1000))
def test_fairness_decision_ignores_unseen_cards(level: str, seed: int, n: int, steps: int,
                                                choice: int) -> None:
    """Re-dealing the cards a seat cannot see (keeping its observation) never changes the
    decision of any level for a fixed seed."""
    s = EfudatoriState(Options(players=n), seed)
    random_steps(s, random.Random(choice), steps)
    if s.is_terminal:
        return
    a, b = redealt_decisions(SPEC, s, lambda: _make(level), choice)
    assert a == b


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 45), choice=st.integers(0, 1000))
def test_fairness_registered_expert(seed: int, steps: int, choice: int) -> None:
    """The registered expert (full budgets, four players) decides the same after the cards
    it cannot see are re-dealt."""
    s = EfudatoriState(Options(), seed)
    random_steps(s, random.Random(choice), steps)
    if s.is_terminal:
        return
    a, b = redealt_decisions(SPEC, s, lambda: make_player("expert"), choice)
    assert a == b


def test_small_arena_two_beats_random() -> None:
    """A seeded 30-deal arena (a fraction of a second): level 2 beats level 1 clearly."""
    r = run_arena("efudatori", ["1", "2"], 30, seed=3, jobs=1, options=Options())
    pair = r.pairs[0]
    assert pair.deals == 30
    assert pair.mean_margin + pair.ci95 < 0


def test_small_arena_expert_against_four(monkeypatch: pytest.MonkeyPatch) -> None:
    """A seeded one-deal arena of expert against 4 (small budgets) runs and is reproducible."""
    def quick(level: str, seed: int = 0) -> object:
        return _make(level)

    monkeypatch.setattr(registry, "_HOOKS", {})  # the level hook loaded afresh, then dropped
    monkeypatch.setattr(ep, "make_player", quick)
    opts = Options(players=2)
    r1 = run_arena("efudatori", ["4", "expert"], 1, seed=1, jobs=1, options=opts)
    r2 = run_arena("efudatori", ["4", "expert"], 1, seed=1, jobs=1, options=opts)
    assert r1.pairs[0].deals == 1
    assert r1.pairs[0].mean_margin == r2.pairs[0].mean_margin
