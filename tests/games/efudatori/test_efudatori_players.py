"""Computer levels: legal, fair (decide from the observation only) and ordered in strength."""

from __future__ import annotations

import random

import numpy as np
import pytest
from efudatori_helpers import c, play, position

from cardplaza.ai.common import margin
from cardplaza.games.efudatori import SPEC, EfudatoriState, Options, kernels
from cardplaza.games.efudatori.players import HeuristicPlayer, make_player
from cardplaza.games.efudatori.rules import JOKER, trick_winner_index
from cardplaza.games.efudatori.worlds import permute_unseen


def game(levels: list[str], seed: int, players: int) -> EfudatoriState:
    """One game with the given level at each seat."""
    s = EfudatoriState(Options(players=players), seed)
    pl = [make_player(lv, seed) for lv in levels]
    rngs = [random.Random(seed * 10 + p) for p in range(players)]
    while not s.is_terminal:
        p = s.current_player
        legal = s.legal_actions()
        action = pl[p].choose(s.observation(p), legal, rngs[p])
        assert action in legal
        s.apply(action)
    return s


def test_levels_registered_and_play_legally() -> None:
    """Every level plays legal cards to the end; unknown levels are refused."""
    assert SPEC.levels == ("1", "2", "3", "4", "expert")
    assert SPEC.hook("players") is make_player
    s = game(["1", "2", "3", "4"], 1, 4)
    assert s.is_terminal
    game(["2", "3", "2"], 2, 3)
    with pytest.raises(ValueError, match="unknown level"):
        make_player("9", 0)


@pytest.mark.parametrize("level", ["2", "3"])
def test_decision_ignores_unseen_cards(level: str) -> None:
    """Re-dealing the cards a player cannot see never changes its decision."""
    for seed in range(6):
        s = EfudatoriState(Options(), seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(30)):
            legal = s.legal_actions()
            s.apply(legal[rng.randrange(len(legal))])
        seat = s.current_player
        other = permute_unseen(s, seat, random.Random(seed + 1))
        legal = s.legal_actions()
        a = make_player(level).choose(s.observation(seat), legal, random.Random(3))
        b = make_player(level).choose(other.observation(seat), legal, random.Random(3))
        assert a == b


def test_heuristic_hunts_the_joker_and_wins_cheaply() -> None:
    """Level 2 leads the ♠3 while the Joker is out, and does not waste the Joker."""
    s = position(["3S 4D 5H 6H", "Jo 7S 9H 8D", "JS 4C QH 9C", "2S 5C 6D 7D"], 6, 0)
    legal = s.legal_actions()
    assert HeuristicPlayer().choose(s.observation(0), legal, random.Random(0)) == c("3S")
    s = position(["5H 6H 7H 8H", "Jo 7S 9H 8D", "JS 4C QH 9C", "2S 5C 6D 7D"], 5, 0)
    play(s, "5H")
    legal = s.legal_actions()
    assert HeuristicPlayer().choose(s.observation(1), legal, random.Random(0)) == c("9H")


def test_heuristic_beats_random() -> None:
    """Level 2 at one seat scores clearly more than random opponents on average."""
    total = 0.0
    games = 60
    for g in range(games):
        seat = g % 4
        levels = ["1"] * 4
        levels[seat] = "2"
        total += margin(game(levels, 500 + g, 4).returns(), seat)
    assert total / games > 8.0


def policy_card(hand: int, legal: int, trick: list[int], k: int, n: int, live: int,
                captured: int) -> int:
    """The play-outs' heuristic card (:func:`.kernels._policy`) for a seat in the engine."""
    tm = sum(1 << x for x in trick)
    pts = sum(kernels.POINTS[x] for x in trick)
    best = trick[trick_winner_index(trick, k)] if trick else -1
    lead = -1 if not trick or trick[0] == JOKER else trick[0] // 13
    return kernels._policy(hand, legal, len(trick), k, n, live, captured, tm, pts, best, lead)


def live_cards(s: EfudatoriState) -> int:
    """Cards still in the hands or the stock."""
    live = 0
    for h in s.hands:
        live |= h
    for x in s.stock:
        live |= 1 << x
    return live


@pytest.mark.parametrize("players", [2, 4, 6])
def test_bitmask_playout_matches_the_engine(players: int) -> None:
    """The raw play-out plays only legal cards and ends exactly where the engine does when
    the engine is fed the same heuristic cards."""
    for seed in range(4):
        s = EfudatoriState(Options(players=players), seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(3 * players)):
            legal = s.legal_actions()
            s.apply(legal[rng.randrange(len(legal))])
        ends = []
        for compiled in (True, False):
            hands = np.array(s.hands, dtype=np.int64)
            cap = np.array(s.captured, dtype=np.int64)
            kernels.KERNELS.entry("playout", compiled)(
                hands, np.array(s.stock, dtype=np.int64), len(s.stock),
                np.array(s.trick, dtype=np.int64), len(s.trick), s.leader, s.trick_number,
                cap, players, s.tricks_total, -1)
            ends.append(cap.tolist())
        while not s.is_terminal:
            p = s.current_player
            a = policy_card(s.hands[p], s.legal_mask(), s.trick, s.trick_number, players,
                            live_cards(s), s.captured[p])
            assert a in s.legal_actions()
            s.apply(a)
        assert ends == [s.captured, s.captured]


def test_bitmask_heuristic_beats_random() -> None:
    """The play-out heuristic, used as a player, clearly beats random cards."""
    total = 0.0
    games = 60
    for g in range(games):
        seat = g % 4
        s = EfudatoriState(Options(), 900 + g)
        rng = random.Random(g)
        while not s.is_terminal:
            p = s.current_player
            if p == seat:
                a = policy_card(s.hands[p], s.legal_mask(), s.trick, s.trick_number, 4,
                                live_cards(s), s.captured[p])
            else:
                legal = s.legal_actions()
                a = legal[rng.randrange(len(legal))]
            s.apply(a)
        total += margin(s.returns(), seat)
    assert total / games > 8.0


def test_fast_score_equals_rules_score() -> None:
    """The play-outs' population-count score equals the rules' score, sets included."""
    from cardplaza.games.efudatori.kernels import fast_score
    from cardplaza.games.efudatori.rules import FACE_MASK, score

    rng = random.Random(5)
    for _ in range(3000):
        m = rng.getrandbits(53) | (FACE_MASK if rng.random() < 0.2 else 0)
        for simple in (False, True):
            assert fast_score(m, simple) == score(m, simple)
