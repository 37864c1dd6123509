"""Every Card Plaza game as a PettingZoo AEC environment (``pip install cardplaza[research]``).

>>> from cardplaza.research.pettingzoo import env
>>> e = env("pinochle2")
>>> e.reset(seed=1)
>>> agent = e.agent_selection
>>> obs = e.observe(agent)
>>> sorted(obs), int(obs["action_mask"].sum()) > 0
(['action_mask', 'observation'], True)

Agents are ``player_0`` … (seat numbers). An agent's observation is a dict: ``observation``,
the game codec's tensor of that seat's view with the current deal's order of play, and
``action_mask``, 1 for each legal action number (the codec's numbering, as in the OpenSpiel
adapter). The game deals from the seed given to ``reset``; rewards come at the end, the
zero-sum results of :func:`cardplaza.research.core.outcome_utilities`. An illegal action
raises ``ValueError`` with the game's reason. Keyword options of :func:`env` are the
game's options (``env("pinochle4", target=500)``).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped, unused-ignore]

from cardplaza.core.options import options_from_dict
from cardplaza.core.protocol import GameState, IllegalAction
from cardplaza.core.registry import get_game
from cardplaza.research.core import codec_of, outcome_utilities


class CardPlazaEnv(AECEnv):  # type: ignore[misc]
    """A Card Plaza game as an agent-environment-cycle environment."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "is_parallelizable": False,
                                          "name": "cardplaza_v0"}

    def __init__(self, game: str = "pinochle4", render_mode: str | None = None,
                 **options: Any) -> None:
        super().__init__()
        self.spec = get_game(game)
        self.codec = codec_of(self.spec)
        self.options = options_from_dict(self.spec.options_type, options)
        self.render_mode = render_mode
        seats = self.spec.new_game(self.options, 0).num_players
        self.possible_agents = [f"player_{s}" for s in range(seats)]
        size = self.codec.tensor_size(self.options, True)
        actions = self.codec.num_actions(self.options)
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (actions,), np.int8),
        }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self.state_: GameState | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The space of an agent's observations."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action numbers."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game from ``seed`` (a random one if None)."""
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 62)
        self.state_ = self.spec.new_game(self.options, seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state_.current_player]

    def _mask(self, seat: int) -> np.ndarray[Any, Any]:
        state = self.state_
        assert state is not None
        mask = np.zeros(self.codec.num_actions(self.options), np.int8)
        if not state.is_terminal and state.current_player == seat:
            mask[self.codec.numbers(state)] = 1
        return mask

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's view and its action mask (all zeros when it is not to act)."""
        state = self.state_
        assert state is not None
        seat = self.possible_agents.index(agent)
        tensor = self.codec.tensor(state.observation(seat), self.options, True)
        return {"observation": np.asarray(tensor, np.float32), "action_mask": self._mask(seat)}

    def step(self, action: int | None) -> None:
        """The selected agent acts (``None`` once the game is over)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state_
        assert state is not None and action is not None
        try:
            state.apply(self.codec.decode(state, int(action)))
        except (IllegalAction, ValueError) as exc:
            raise ValueError(f"illegal action {action} for {agent}: {exc}") from None
        self._cumulative_rewards[agent] = 0.0
        if state.is_terminal:
            for a, u in zip(self.agents, outcome_utilities(state), strict=True):
                self.rewards[a] = u
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[state.current_player]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The game record so far as text (``ansi``)."""
        if self.render_mode != "ansi" or self.state_ is None:
            return None
        state = self.state_
        return "\n".join(f"{self.possible_agents[s]}: {state.describe(a)}"
                         for s, a in state.history[-20:])

    def close(self) -> None:
        """Nothing to release."""


def env(game: str = "pinochle4", render_mode: str | None = None,
        **options: Any) -> CardPlazaEnv:
    """A new environment of a Card Plaza game."""
    return CardPlazaEnv(game, render_mode=render_mode, **options)


__all__ = ["CardPlazaEnv", "env"]
