"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS).

Every iteration draws a new world from the game's determinizer, descends one shared tree
whose edges are actions, choosing among the actions available *in that world* with UCB1
corrected by availability counts, expands one node, plays the world out with a rollout
policy and backs up each seat's margin to the edges that seat chose.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from cardplaza.ai.common import (
    Budget,
    RolloutPolicy,
    child_rng,
    determinizable,
    margin,
    observer_seat,
    play_out,
    random_rollout,
)
from cardplaza.core.protocol import Action, GameState
from cardplaza.core.registry import GameSpec

LeafEvaluator = Callable[[GameState], Sequence[float]]
"""Estimated returns of every seat from a (sampled, complete) state."""


class _Node:
    __slots__ = ("actor", "avail", "children", "total", "visits")

    def __init__(self, actor: int) -> None:
        self.actor = actor
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0


class ISMCTSPlayer:
    """SO-ISMCTS with ``iterations`` determinized iterations (or a time budget).

    Margins are divided by ``reward_scale`` so the exploration constant ``c`` applies to
    values of order one. ``leaf`` (optional) replaces the rollout by an evaluation of the
    returns, e.g. an exact solver once the game has perfect information.
    """

    def __init__(self, game: str | GameSpec, *, iterations: int = 1000,
                 seconds: float | None = None, min_iterations: int = 1,
                 rollout: RolloutPolicy | None = None, leaf: LeafEvaluator | None = None,
                 c: float = 0.7, reward_scale: float = 1.0, name: str = "ismcts") -> None:
        self.spec = determinizable(game)
        self.iterations = iterations
        self.seconds = seconds
        self.min_iterations = min_iterations
        self.rollout = rollout or random_rollout
        self.leaf = leaf
        self.c = c
        self.reward_scale = reward_scale
        self.name = name
        self.last_stats: dict[str, float] = {}

    def search(self, observation: dict[str, Any], legal_actions: Sequence[Action],
               rng: random.Random) -> dict[Action, tuple[int, float]]:
        """Run the search; ``{action: (visits, mean margin)}`` at the root."""
        sample = self.spec.sample_world
        assert sample is not None
        budget = Budget(self.iterations, self.seconds, self.min_iterations)
        root: _Node | None = None
        root_legal = list(legal_actions)
        done = 0
        budget.start()
        while budget.more(done):
            world = sample(observation, rng)
            if root is None:
                root = _Node(observer_seat(observation, world))
            self._iterate(root, world, root_legal, rng)
            done += 1
        assert root is not None
        self.last_stats = {"iterations": done, "simulations": done}
        return {a: (n.visits, n.total / n.visits * self.reward_scale if n.visits else 0.0)
                for a, n in root.children.items()}

    def _iterate(self, root: _Node, world: GameState, root_legal: list[Action],
                 rng: random.Random) -> None:
        node = root
        path: list[_Node] = []
        legal: Sequence[Action] = root_legal
        while not world.is_terminal:
            if node is not root:
                legal = world.legal_actions()
            actor = world.current_player
            children = node.children
            untried = [a for a in legal if a not in children]
            for a in legal:
                child = children.get(a)
                if child is not None:
                    child.avail += 1
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = children[action] = _Node(actor)
                child.avail += 1
                world.apply(action)
                path.append(child)
                break
            best_action = legal[0]
            best = -math.inf
            c = self.c
            for a in legal:
                ch = children[a]
                score = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if score > best:
                    best, best_action = score, a
            node = children[best_action]
            world.apply(best_action)
            path.append(node)
        if self.leaf is not None and not world.is_terminal:
            returns = self.leaf(world)
        else:
            play_out(world, self.rollout, rng)
            returns = world.returns()
        scale = self.reward_scale
        for n in path:
            n.visits += 1
            n.total += margin(returns, n.actor) / scale

    def choose(self, observation: dict[str, Any], legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        """The most visited root action (ties: better mean, then legal order)."""
        if len(legal_actions) == 1:
            self.last_stats = {"iterations": 0, "simulations": 0}
            return legal_actions[0]
        stats = self.search(observation, legal_actions, child_rng(rng))
        return max(legal_actions,
                   key=lambda a: stats.get(a, (0, -math.inf)))
