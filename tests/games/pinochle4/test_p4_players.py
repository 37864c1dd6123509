"""Computer players (section 18.1): legal, information-set invariant, reproducible."""

from __future__ import annotations

import random

import pytest

from cardplaza.core.registry import get_game
from cardplaza.games.pinochle4.engine import PLAY, Options
from cardplaza.games.pinochle4.players import SearchPlayer, make_player
from cardplaza.games.pinochle4.world import permute_unseen


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
