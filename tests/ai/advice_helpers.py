"""Helpers for the advice and review tests: seeded positions and recorded games."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from cardplaza.ai.player import computer_player
from cardplaza.core.history import GameRecord
from cardplaza.core.protocol import GameState
from cardplaza.core.registry import get_game


def random_position(game: str, seed: int, steps: int, options: Any = None,
                    keep: Callable[[GameState], bool] | None = None) -> GameState:
    """A position after ``steps`` random actions (or the first one ``keep`` accepts after
    them) where the seat to act has a real choice."""
    spec = get_game(game)
    state = spec.new_game(options, seed)
    rng = random.Random(seed)
    n = 0
    while not state.is_terminal:
        legal = state.legal_actions()
        if n >= steps and len(legal) > 1 and (keep is None or keep(state)):
            return state
        state.apply(legal[rng.randrange(len(legal))])
        n += 1
    raise AssertionError(f"{game} seed {seed}: the game ended before a decision")


def played_record(game: str, levels: list[str], seed: int, options: Any = None,
                  stop: Callable[[GameState], bool] | None = None) -> GameRecord:
    """The record of a game between computer levels (seat i plays ``levels[i]``)."""
    spec = get_game(game)
    state = spec.new_game(options, seed)
    players = [computer_player(game, lv, seed + i) for i, lv in enumerate(levels)]
    rng = random.Random(seed)
    while not state.is_terminal and not (stop and stop(state)):
        seat = state.current_player
        legal = state.legal_actions()
        state.apply(players[seat].choose(state.observation(seat), legal, rng))
    return GameRecord.of(state)


def permuted_pair(game: str, state: GameState, seed: int) -> tuple[dict[str, Any],
                                                                    dict[str, Any]]:
    """The seat's observation, and the same after the unseen cards are re-dealt (asserting
    that the observation itself did not change)."""
    spec = get_game(game)
    assert spec.permute_unseen is not None
    seat = state.current_player
    other = spec.permute_unseen(state, seat, random.Random(seed))
    a, b = state.observation(seat), other.observation(seat)
    assert a == b
    return a, b
