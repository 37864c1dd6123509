"""Perfect-information Monte Carlo (PIMC): sample worlds, evaluate every candidate in each.

For one decision the player draws worlds consistent with its observation from the game's
determinizer (``GameSpec.sample_world``), plays every candidate action in *every* world
(the same worlds and the same rollout random numbers for each candidate, so differences
between candidates are not drowned in sampling noise), and picks the candidate with the
best mean margin.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from cardplaza.ai.common import (
    Budget,
    Evaluator,
    RolloutPolicy,
    child_rng,
    determinizable,
    margin,
    observer_seat,
    play_out,
    random_rollout,
)
from cardplaza.ai.player import Player
from cardplaza.core.protocol import Action, GameState
from cardplaza.core.registry import GameSpec

Candidates = Callable[[dict[str, Any], Sequence[Action]], Sequence[Action]]
"""Restricts the actions worth simulating (default: every legal action)."""


class PIMCPlayer:
    """Sample ``worlds`` determinizations and choose the action with the best mean margin.

    ``rollout`` finishes each world after the candidate action (default: random play);
    ``evaluate(state, seat)``, when given, replaces the rollout and returns the margin of
    ``seat`` directly (for example an exact solver once everything is known). Ties go to
    ``prefer``'s choice when given, else to the first legal action. After each decision
    ``last_stats`` holds ``{"worlds": …, "simulations": …}``.
    """

    def __init__(self, game: str | GameSpec, *, worlds: int = 40, seconds: float | None = None,
                 min_worlds: int = 1, rollout: RolloutPolicy | None = None,
                 evaluate: Evaluator | None = None, candidates: Candidates | None = None,
                 prefer: Player | None = None, name: str = "pimc") -> None:
        self.spec = determinizable(game)
        self.worlds = worlds
        self.seconds = seconds
        self.min_worlds = min_worlds
        self.rollout = rollout or random_rollout
        self.evaluate = evaluate
        self.candidates = candidates
        self.prefer = prefer
        self.name = name
        self.last_stats: dict[str, float] = {}

    def action_values(self, observation: dict[str, Any], actions: Sequence[Action],
                      rng: random.Random) -> dict[Action, float]:
        """Mean margin of each action over the sampled worlds (same worlds for all)."""
        sample = self.spec.sample_world
        assert sample is not None
        budget = Budget(self.worlds, self.seconds, self.min_worlds)
        totals = dict.fromkeys(actions, 0.0)
        done = sims = 0
        budget.start()
        while budget.more(done):
            world = sample(observation, rng)
            seat = observer_seat(observation, world)
            roll_seed = rng.getrandbits(64)
            for action in actions:
                totals[action] += self._value_after(world, seat, action, roll_seed)
                sims += 1
            done += 1
        self.last_stats = {"worlds": done, "simulations": sims}
        return {a: t / done for a, t in totals.items()}

    def _value_after(self, world: GameState, seat: int, action: Action, roll_seed: int) -> float:
        state = world.clone()
        state.apply(action)
        if self.evaluate is not None:
            return self.evaluate(state, seat)
        play_out(state, self.rollout, random.Random(roll_seed))
        return margin(state.returns(), seat)

    def choose(self, observation: dict[str, Any], legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        """The candidate with the best mean margin over the sampled worlds."""
        if len(legal_actions) == 1:
            self.last_stats = {"worlds": 0, "simulations": 0}
            return legal_actions[0]
        own = child_rng(rng)
        preferred = None
        if self.prefer is not None:
            preferred = self.prefer.choose(observation, legal_actions, child_rng(own))
        actions = list(self.candidates(observation, legal_actions)
                       if self.candidates else legal_actions)
        if preferred is not None and preferred not in actions:
            actions.append(preferred)
        if len(actions) == 1:
            self.last_stats = {"worlds": 0, "simulations": 0}
            return actions[0]
        values = self.action_values(observation, actions, own)
        best = max(values.values())
        if preferred is not None and values[preferred] >= best - 1e-9:
            return preferred
        return next(a for a in actions if values[a] >= best - 1e-9)
