"""Computer players (section 18.1): legal, information-set invariant, reproducible."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from cardplaza.ai.common import redealt_decisions
from cardplaza.arena.core import run_arena
from cardplaza.core.bench import random_steps
from cardplaza.core.cards import bit_list
from cardplaza.core.protocol import GameState
from cardplaza.core.registry import get_game
from cardplaza.games.pinochle4.engine import (
    BIDDING,
    DISCARD,
    K_TRUMP,
    PASS,
    PLAY,
    TRUMP,
    Options,
)
from cardplaza.games.pinochle4.meld import meld_total
from cardplaza.games.pinochle4.players import (
    LEVELS,
    ExpertPlayer,
    HeuristicPlayer,
    SearchPlayer,
    make_player,
)
from cardplaza.games.pinochle4.world import first_deal_returns, permute_unseen


@pytest.mark.parametrize("name", ["pinochle4", "pinochle3"])
@pytest.mark.parametrize("level", ["weak", "normal"])
def test_heuristic_players_play_whole_games_legally(name: str, level: str) -> None:
    """Requirement 1 and 3: only legal actions; the same seed gives the same game."""
    results = []
    for _ in range(2):
        st = get_game(name).new_game(None, 5)
        players = [make_player(level, s) for s in range(st.num_players)]
        rngs = [random.Random(s) for s in range(st.num_players)]
        while not st.is_terminal:
            s = st.current_player
            legal = st.legal_actions()
            a = players[s].choose(st.observation(s), legal, rngs[s])
            assert a in legal or st.illegal_reason(a) is None
            st.apply(a)
        results.append(st.returns())
    assert results[0] == results[1]


def test_information_set_invariance() -> None:
    """Requirement 2: permuting hidden cards never changes a decision (fixed RNG)."""
    spec = get_game("pinochle4")
    st = spec.new_game(Options(), 9)
    players = {lv: make_player(lv, 0) for lv in ("weak", "normal")}
    strong = SearchPlayer(samples=3)
    rng = random.Random(0)
    checked = 0
    while not st.is_terminal and checked < 60:
        s = st.current_player
        obs = st.observation(s)
        legal = st.legal_actions()
        other = permute_unseen(st, s, random.Random(checked))
        for p in (*players.values(), *( [strong] if st.phase == PLAY and checked % 6 == 0
                                         else [])):
            a1 = p.choose(obs, legal, random.Random(1))
            a2 = p.choose(other.observation(s), other.legal_actions(), random.Random(1))
            assert a1 == a2
        checked += 1
        st.apply(players["normal"].choose(obs, legal, rng))


def test_strong_player_picks_a_legal_card() -> None:
    """The determinized search returns a legal card."""
    st = get_game("pinochle4").new_game(Options(passing=0), 2)
    normal = make_player("normal")
    rng = random.Random(2)
    while st.phase != PLAY:
        st.apply(normal.choose(st.observation(st.current_player), st.legal_actions(), rng))
    strong = SearchPlayer(samples=4)
    for _ in range(8):
        legal = st.legal_actions()
        a = strong.choose(st.observation(st.current_player), legal, rng)
        assert a in legal
        st.apply(a)


def test_unknown_level() -> None:
    with pytest.raises(ValueError, match="levels"):
        make_player("genius")


def _small(level: str) -> HeuristicPlayer:
    """A level with a small search budget (same code paths, fewer worlds)."""
    if level == "expert":
        return ExpertPlayer(sims=120, min_worlds=12, bid_worlds=6)
    if level == "strong":
        return SearchPlayer(samples=6)
    return make_player(level)


@settings(max_examples=40, deadline=None)
@given(game=hs.sampled_from(["pinochle4", "pinochle3"]), level=hs.sampled_from(LEVELS),
       seed=hs.integers(0, 10_000), steps=hs.integers(0, 75), choice=hs.integers(0, 1000))
def test_fairness_decision_ignores_unseen_cards(game: str, level: str, seed: int, steps: int,
                                                choice: int) -> None:
    """Re-dealing the cards a seat cannot see (the registered permute_unseen), keeping
    its observation, never changes any level's decision for a fixed seed."""
    spec = get_game(game)
    st = spec.new_game(None, seed)
    random_steps(st, random.Random(choice), steps)
    if st.is_terminal:
        return
    a, b = redealt_decisions(spec, st, lambda: _small(level), choice)
    assert a == b


@pytest.mark.parametrize("name", ["pinochle4", "pinochle3"])
def test_expert_full_budget_is_fair_and_counts_simulations(name: str) -> None:
    """The registered expert, at its real budget, in play: at least 2,000 play-outs per
    card decision with a choice, and the same card after the unseen cards are re-dealt."""
    spec = get_game(name)
    st = spec.new_game(None, 4)
    normal = make_player("normal")
    rng = random.Random(4)
    while st.phase != PLAY:
        st.apply(normal.choose(st.observation(st.current_player), st.legal_actions(), rng))
    for _ in range(3):
        st.apply(normal.choose(st.observation(st.current_player), st.legal_actions(), rng))
    while len({a[1] % 24 for a in st.legal_actions() if isinstance(a, tuple)}) < 2:
        st.apply(st.legal_actions()[0])
    seat = st.current_player
    expert = make_player("expert", 0)
    a = expert.choose(st.observation(seat), st.legal_actions(), random.Random(7))
    assert expert.last_stats["simulations"] >= 2000
    other = permute_unseen(st, seat, random.Random(8))
    b = make_player("expert", 0).choose(other.observation(seat), other.legal_actions(),
                                        random.Random(7))
    assert a == b


def test_first_deal_returns_are_the_first_hands_score_change() -> None:
    """The one-hand arena measure: each seat's side score change of hand 1."""
    st = get_game("pinochle4").new_game(None, 3)
    normal = make_player("normal")
    rng = random.Random(3)
    assert first_deal_returns(st) is None
    while st.hand_no == 1:
        st.apply(normal.choose(st.observation(st.current_player), st.legal_actions(), rng))
    entry = next(e for e in st.log if e.get("score_change") is not None)
    assert first_deal_returns(st) == [float(entry["score_change"][s % 2]) for s in range(4)]


@pytest.mark.parametrize("name", ["pinochle4", "pinochle3"])
def test_seeded_arena_normal_beats_weak(name: str) -> None:
    """A small seeded one-hand arena: normal outscores weak, reproducibly."""
    r1 = run_arena(name, ["weak", "normal"], 40, seed=0, jobs=1, unit="deal")
    r2 = run_arena(name, ["weak", "normal"], 40, seed=0, jobs=1, unit="deal")
    pair = r1.pair("normal", "weak")
    assert pair.deals == 40
    assert pair.mean_margin - pair.ci95 > 0
    assert r2.pair("normal", "weak").mean_margin == pair.mean_margin


def _to_widow_choice(seed: int) -> tuple[GameState, int]:
    """A cut-throat game (normal players) advanced to the bid winner's trump choice."""
    st = get_game("pinochle3").new_game(None, seed)
    normal = make_player("normal")
    rng = random.Random(seed)
    while st.phase != TRUMP:
        st.apply(normal.choose(st.observation(st.current_player), st.legal_actions(), rng))
    return st, st.current_player


@pytest.mark.parametrize("seed", range(4))
def test_cutthroat_expert_names_trump_and_buries_keeping_the_most_meld(seed: int) -> None:
    """The cut-throat expert's trump and three buried cards come from one play-out search
    over plans that keep the most meld: the 15 cards it keeps meld as much as any 15 of
    its 18 could in the trump it named, and plans were actually played out."""
    st, seat = _to_widow_choice(seed)
    expert = ExpertPlayer(sims=120, min_worlds=12, bid_worlds=6)
    rng = random.Random(seed)
    hand18 = st.hands[seat]
    trump_action = expert.choose(st.observation(seat), st.legal_actions(), rng)
    assert trump_action[0] == K_TRUMP
    st.apply(trump_action)
    assert expert.last_stats["simulations"] > 0
    trump = trump_action[1]
    while st.phase == DISCARD:
        st.apply(expert.choose(st.observation(seat), st.legal_actions(), rng))
    kept = st.hands[seat]
    assert kept.bit_count() == 15 and kept & ~hand18 == 0
    best = max(meld_total(hand18 & ~sum(1 << c for c in combo), trump)
               for combo in combinations(bit_list(hand18), 3))
    assert meld_total(kept, trump) == best


def test_cutthroat_expert_bids_by_simulation() -> None:
    """The cut-throat expert raises exactly while the raise is within its simulated limit
    (the make-chance quantile of its simulated totals), also over the seat two places on:
    cut-throat has no partner."""
    normal = make_player("normal")
    seen = same_parity_raise = 0
    for seed in range(60):
        st = get_game("pinochle3").new_game(None, seed)
        rng = random.Random(seed)
        for _ in range(seed % 4):
            if st.phase != BIDDING:  # type: ignore[attr-defined]
                break
            st.apply(normal.choose(st.observation(st.current_player), st.legal_actions(), rng))
        if st.phase != BIDDING:  # type: ignore[attr-defined]
            continue
        obs, legal = st.observation(st.current_player), st.legal_actions()
        raise_to = [a for a in legal if a[1] > 0]  # type: ignore[index]
        if not raise_to:
            continue
        expert = make_player("expert")
        assert isinstance(expert, ExpertPlayer)
        limit = expert.bid_limit_sim(obs, random.Random(seed))
        table = expert._estimates(obs, random.Random(seed))  # cached: the same deals
        step = obs["bid_step"]
        assert limit == max(sorted(t, reverse=True)[int(0.6 * len(t)) - 1] // step * step
                            for t in table)
        got = expert.choose(obs, legal, random.Random(seed))
        seen += 1
        assert got == (raise_to[0] if raise_to[0][1] <= limit else PASS)
        hb = obs["high_bidder"]
        if hb is not None and hb % 2 == obs["seat"] % 2 and got != PASS:
            same_parity_raise += 1
    assert seen >= 30
    assert same_parity_raise >= 1


@pytest.mark.parametrize("game", ["pinochle4", "pinochle3"])
def test_normal_leaves_only_a_partners_bid_alone(game: str) -> None:
    """Normal raises while within its limit, except over its partner in the partnership
    game; in cut-throat the seat two places on is an opponent like the other."""
    normal = make_player("normal")
    over_same_parity = 0
    for seed in range(80):
        st = get_game(game).new_game(None, seed)
        rng = random.Random(seed)
        while st.phase == BIDDING:  # type: ignore[attr-defined]
            obs, legal = st.observation(st.current_player), st.legal_actions()
            a = normal.choose(obs, legal, rng)
            raise_to = [b for b in legal if b[1] > 0]  # type: ignore[index]
            hb = obs["high_bidder"]
            within = bool(raise_to) and raise_to[0][1] <= normal.bid_limit(obs)
            partner = game == "pinochle4" and hb is not None and hb % 2 == obs["seat"] % 2
            assert a == (raise_to[0] if within and not partner else PASS)
            if within and hb is not None and hb % 2 == obs["seat"] % 2:
                over_same_parity += 1
            st.apply(a)
    assert over_same_parity >= 1
