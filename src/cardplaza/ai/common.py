"""Pieces shared by the search players: margins, rollout policies, budgets and seeds.

Search players see only an observation; they build full positions with the game's
determinizer (``GameSpec.sample_world``) and play them out with a *rollout policy*, a
function ``(state, rng) -> action`` over a complete (sampled) state.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from cardplaza.ai.player import Player
from cardplaza.core.protocol import Action, GameState
from cardplaza.core.registry import GameSpec, get_game

RolloutPolicy = Callable[[GameState, random.Random], Action]
"""Chooses the next action in a complete (sampled) state."""

Evaluator = Callable[[GameState, int], float]
"""Value of a (non-terminal or terminal) state for a seat, in margin units."""


def determinizable(game: str | GameSpec) -> GameSpec:
    """The spec of a game that has a determinizer (``sample_world``), else ``ValueError``."""
    spec = get_game(game) if isinstance(game, str) else game
    if spec.sample_world is None:
        raise ValueError(f"{spec.name} has no determinizer (sample_world)")
    return spec


def margin(returns: Sequence[float], seat: int) -> float:
    """``seat``'s return minus the mean return of the other seats.

    In a two-seat game this is the plain score difference; partners share their team's
    score, so in a partnership game it is proportional to the team difference.
    """
    others = [r for s, r in enumerate(returns) if s != seat]
    if not others:
        return float(returns[seat])
    return float(returns[seat]) - sum(others) / len(others)


def random_rollout(state: GameState, rng: random.Random) -> Action:
    """Uniformly random legal action."""
    legal = state.legal_actions()
    return legal[rng.randrange(len(legal))]


def player_rollout(make: Callable[[int], Player]) -> RolloutPolicy:
    """A rollout policy letting ``make(seat)`` players decide from their observations.

    Players are created once per seat and cached, so stateful players keep their state.
    """
    cache: dict[int, Player] = {}

    def policy(state: GameState, rng: random.Random) -> Action:
        seat = state.current_player
        player = cache.get(seat)
        if player is None:
            player = cache[seat] = make(seat)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return player.choose(state.observation(seat), legal, rng)

    return policy


def play_out(state: GameState, policy: RolloutPolicy, rng: random.Random,
             max_steps: int = 100_000) -> int:
    """Play ``state`` to its end with ``policy``; return the number of actions taken."""
    n = 0
    while not state.is_terminal and n < max_steps:
        state.apply(policy(state, rng))
        n += 1
    return n


def observer_seat(observation: dict[str, Any], world: GameState) -> int:
    """The observing seat: ``observation["seat"]`` if present, else the seat to act."""
    seat = observation.get("seat")
    if isinstance(seat, int):
        return seat
    return world.current_player


def child_rng(rng: random.Random) -> random.Random:
    """A fresh generator seeded from ``rng`` (keeps callers' streams independent)."""
    return random.Random(rng.getrandbits(64))


class Budget:
    """Iteration and optional wall-time budget with a guaranteed minimum of iterations.

    With ``seconds=None`` a decision depends only on its inputs and the RNG, which keeps
    players reproducible; a time budget trades that for a bounded think time.
    """

    def __init__(self, iterations: int, seconds: float | None = None,
                 min_iterations: int = 1) -> None:
        if iterations < 1:
            raise ValueError("a search needs at least one iteration")
        self.iterations = iterations
        self.seconds = seconds
        self.min_iterations = min(min_iterations, iterations)
        self._deadline = 0.0

    def start(self) -> None:
        """Start the clock."""
        if self.seconds is not None:
            self._deadline = time.perf_counter() + self.seconds

    def more(self, done: int) -> bool:
        """True while another iteration may run after ``done`` of them."""
        if done >= self.iterations:
            return False
        if done < self.min_iterations or self.seconds is None:
            return True
        return time.perf_counter() < self._deadline


def redealt_decisions(spec: GameSpec, state: GameState, make: Callable[[], Any],
                      choice: int) -> tuple[Action, Action]:
    """The fairness check: a fresh player's decision at the seat to move, and again after
    ``spec.permute_unseen`` re-deals the cards that seat cannot see (same RNG seed).

    A fair player gives the same action twice. Raises ``AssertionError`` when the re-deal
    changed the seat's observation (then the game's ``permute_unseen`` is at fault).
    """
    seat = state.current_player
    if spec.permute_unseen is None:
        raise ValueError(f"{spec.name} has no permute_unseen")
    other = spec.permute_unseen(state, seat, random.Random(choice + 1))
    obs = state.observation(seat)
    if other.observation(seat) != obs:
        raise AssertionError("permute_unseen changed the seat's observation")
    a = make().choose(obs, state.legal_actions(), random.Random(choice))
    b = make().choose(other.observation(seat), other.legal_actions(), random.Random(choice))
    return a, b
