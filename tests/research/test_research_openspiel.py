"""The OpenSpiel adapter passes OpenSpiel's own random-simulation test, and OpenSpiel's
ISMCTS bot plays through it."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import cardplaza.research.openspiel as cos

# Shorter games for the multi-hand Pinochle variants (a game to 1,500 takes ~30 hands).
PARAMS = {"pinochle4": {"target": 500}, "pinochle3": {"target": 500},
          "pinochle_dd": {"target": 250}}


@pytest.mark.parametrize("name", sorted(cos.GAMES))
def test_openspiel_random_simulation(name: str) -> None:
    game = pyspiel.load_game(cos.game_name(name), PARAMS.get(name, {}))
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_game_parameters_are_the_options() -> None:
    game = pyspiel.load_game("python_cardplaza_pinochle4(target=500,one_point=True)")
    assert game.options.target == 500 and game.options.one_point
    assert game.num_players() == 4
    assert pyspiel.load_game("python_cardplaza_efudatori(players=6)").num_players() == 6
    with pytest.raises(Exception, match="target"):
        pyspiel.load_game("python_cardplaza_pinochle4(target=7)")


def test_chance_nodes_deal_and_views_hide() -> None:
    game = pyspiel.load_game("python_cardplaza_pinochle2")
    state = game.new_initial_state()
    rng = random.Random(2)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        state.apply_action(rng.choice(outcomes)[0])
    assert state.current_player() == 0 and len(state.history()) == 47
    me = state.information_state_string(0)
    other = state.information_state_string(1)
    hand0 = state.inner.engine.observation(0)["hand"]
    assert str(hand0) .replace(" ", "") in me.replace(" ", "") and me != other
    assert '"hand":' + str(hand0).replace(" ", "") not in other
    assert len(state.information_state_tensor(0)) == game.information_state_tensor_size()
    assert len(state.observation_tensor(1)) == game.observation_tensor_size()


@pytest.mark.parametrize(("name", "moves"), [("pinochle2", None), ("efudatori", None),
                                              ("piquet", 6), ("pinochle4", 12),
                                              ("pinochle_dd", 12)])
def test_ismcts_bot_plays_through_the_adapter(name: str, moves: int | None) -> None:
    """OpenSpiel's ISMCTS (random roll-outs, resampling through our determinizer) chooses
    every move of seat 0: a whole game where it is short, otherwise its first moves."""
    game = pyspiel.load_game(cos.game_name(name), PARAMS.get(name, {}))
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8,
                           random_state=np.random.RandomState(2))
    rng = random.Random(3)
    state = game.new_initial_state()
    played = 0
    while not state.is_terminal() and (moves is None or played < moves):
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            played += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert played >= (moves or 10)
    if moves is None:
        assert state.is_terminal() and sum(state.returns()) == pytest.approx(0.0)


def _random_game(game: pyspiel.Game, seed: int) -> pyspiel.State:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", ["pinochle2", "efudatori"])
def test_max_game_length_of_one_deal_is_exact(name: str) -> None:
    """Every deal of these games is equally long: the bound is reached, never passed."""
    game = pyspiel.load_game(cos.game_name(name))
    for seed in range(3):
        assert len(_random_game(game, seed).history()) == game.max_game_length()
    six = pyspiel.load_game(cos.game_name(name), {"players": 6} if name == "efudatori" else {})
    assert len(_random_game(six, 7).history()) == six.max_game_length()


@pytest.mark.parametrize(("name", "params"), [
    ("pinochle4", {"target": 500}), ("pinochle3", {"all_pass_redeal": True}),
    ("piquet", {}), ("piquet", {"au_cent": True})])
def test_max_deals_bounds_the_game_and_max_game_length(name: str,
                                                       params: dict[str, object]) -> None:
    spec = cos.GAMES[name].spec
    for max_deals in (1, 3):
        game = pyspiel.load_game(cos.game_name(name), {**params, "max_deals": max_deals})
        for seed in range(4):
            state = _random_game(game, seed)
            engine = state.inner.engine
            assert spec.deals_played is not None
            assert spec.deals_played(engine) <= max_deals
            assert len(state.history()) <= game.max_game_length()
            assert sum(state.returns()) == pytest.approx(0.0)
    one = pyspiel.load_game(cos.game_name(name), {**params, "max_deals": 1})
    two = pyspiel.load_game(cos.game_name(name), {**params, "max_deals": 2})
    per_deal = two.max_game_length() - one.max_game_length()
    assert 0 < per_deal < 1000  # a bound per deal, not a placeholder
    default = pyspiel.load_game(cos.game_name(name), params)
    natural = name == "piquet" and not params
    assert default.max_game_length() == (
        1 + 8 * per_deal if natural else one.max_game_length() + 199 * per_deal)


def test_a_deal_limit_ends_the_game_with_the_side_ahead_winning() -> None:
    game = pyspiel.load_game(cos.game_name("pinochle4"), {"max_deals": 1})
    for seed in range(6):
        state = _random_game(game, seed)
        engine = state.inner.engine
        assert engine.hand_no == 1 and len(engine.log) == 1
        a, b = engine.scores
        if a == b:
            assert state.returns() == [0.0] * 4
        else:
            ahead = 0 if a > b else 1
            assert [r > 0 for r in state.returns()] == [s % 2 == ahead for s in range(4)]
    with pytest.raises(Exception, match="max_deals"):
        pyspiel.load_game(cos.game_name("pinochle4"), {"max_deals": 0})


def test_pinochle_dd_max_deals_bounds_the_game() -> None:
    spec = cos.GAMES["pinochle_dd"].spec
    lengths = {}
    for max_deals in (1, 2):
        game = pyspiel.load_game(cos.game_name("pinochle_dd"), {"max_deals": max_deals})
        lengths[max_deals] = game.max_game_length()
        for seed in range(2):
            state = _random_game(game, seed)
            assert spec.deals_played is not None
            assert spec.deals_played(state.inner.engine) <= max_deals
            assert len(state.history()) <= game.max_game_length()
    assert 0 < lengths[2] - lengths[1] < 1000


@pytest.mark.parametrize("name", ["pinochle_dd", "pinochle4", "pinochle3"])
def test_a_pinochle_game_keeps_no_actions_of_its_last_deal(name: str) -> None:
    """The Pinochle games ask for chance only when a deal begins: the deal the limit makes
    the last keeps no list of actions to replay, an earlier one does; both play to the
    same end through Python and through OpenSpiel's C++ path."""
    game = pyspiel.load_game(cos.game_name(name), {"max_deals": 2})
    kept = {False: 0, True: 0}
    for seed in range(6):
        fast, slow = game.new_initial_state(), game.new_initial_state()
        rng = random.Random(seed)
        while not fast.is_terminal():
            if fast.is_chance_node():
                action = rng.choice(fast.chance_outcomes())[0]
            else:
                assert fast.legal_actions() == slow.legal_actions()
                action = rng.choice(fast.legal_actions())
            fast.apply_action(action)
            pyspiel.State.apply_action(slow, action)
            for state in (fast, slow):
                inner = state.inner
                if not inner.chance and inner.engine is not None:
                    last = inner.engine.hand_no >= 2
                    assert inner._quiet is last
                    kept[last] = max(kept[last], len(inner.deal_actions))
        assert fast.history() == slow.history() and fast.returns() == slow.returns()
    assert kept[False] > 0 and kept[True] == 0


def test_python_and_cpp_application_reach_the_same_states() -> None:
    """``apply_action`` from Python runs in Python; through OpenSpiel's C++ ``State`` the
    same actions give the same positions, histories and results; copies are independent."""
    game = pyspiel.load_game(cos.game_name("piquet"), {"max_deals": 2})
    fast, slow = game.new_initial_state(), game.new_initial_state()
    assert fast.is_initial_state() and fast.move_number() == 0
    rng = random.Random(6)
    copies = []
    while not fast.is_terminal():
        assert fast.current_player() == slow.current_player()
        assert fast.legal_actions() == slow.legal_actions()
        if fast.is_chance_node():
            assert fast.chance_outcomes() == slow.chance_outcomes()
            action = rng.choice(fast.chance_outcomes())[0]
        else:
            seat = fast.current_player()
            assert fast.information_state_string(seat) == slow.information_state_string(seat)
            action = rng.choice(fast.legal_actions())
        if len(copies) < 40 and rng.random() < 0.1:
            copies.append((fast.clone(), fast.history()))
        child = fast.child(action)
        fast.apply_action(action)
        pyspiel.State.apply_action(slow, action)  # OpenSpiel's C++ path
        assert child.history() == fast.history()
    assert slow.is_terminal() and fast.returns() == slow.returns()
    assert fast.history() == slow.history() and fast.move_number() == slow.move_number()
    assert [(h.player, h.action) for h in fast.full_history()] == [
        (h.player, h.action) for h in slow.full_history()]
    assert fast.history_str() == slow.history_str() and not fast.is_initial_state()
    assert copies
    for copy, history in copies:  # untouched by the moves made after they were taken
        assert copy.history() == history and not copy.is_terminal()
    restored = game.deserialize_state(fast.serialize())
    assert restored.history() == fast.history() and restored.returns() == fast.returns()


@pytest.mark.parametrize(("name", "params"), [
    ("pinochle2", {}), ("efudatori", {}), ("piquet", {"max_deals": 2}),
    ("pinochle4", {"max_deals": 2}), ("pinochle3", {"max_deals": 2}),
    ("pinochle_dd", {"max_deals": 2})])
def test_inline_steps_match_the_chance_state(name: str, params: dict[str, object]) -> None:
    """The OpenSpiel state's own quick paths (cards dealt, fixed actions applied, flags read
    as partials) step exactly like :class:`ChanceState`'s general ones, deal after deal."""
    game = pyspiel.load_game(cos.game_name(name), params)
    state = game.new_initial_state()
    plain = game.new_initial_state().inner.clone()
    rng = random.Random(11)
    while not state.is_terminal():
        assert state.is_chance_node() == (plain.need is not None)
        assert state.current_player() == (pyspiel.PlayerId.CHANCE if plain.need is not None
                                          else plain.current_player)
        if state.is_chance_node():
            assert list(state.chance_outcomes()) == list(plain.chance_outcomes())
            number = rng.choice(state.chance_outcomes())[0]
        else:
            assert state.legal_actions() == plain.legal_numbers()
            number = rng.choice(state.legal_actions())
        state.apply_action(number)
        plain.apply_number(number)
        assert state.inner.history == plain.history
    assert plain.is_terminal and state.returns() == plain.utilities()
    assert state.inner.engine.history == plain.engine.history
    assert state.chance_outcomes() == () and not state.is_chance_node()
