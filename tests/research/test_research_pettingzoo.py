"""The PettingZoo adapter passes PettingZoo's own API test."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test

from cardplaza.research.core import research_games
from cardplaza.research.pettingzoo import env

OPTIONS = {"pinochle4": {"target": 500}, "pinochle3": {"target": 500}}


@pytest.mark.parametrize("name", sorted(research_games()))
def test_pettingzoo_api(name: str) -> None:
    api_test(env(name, **OPTIONS.get(name, {})), num_cycles=300, verbose_progress=False)


def test_a_seed_deals_the_same_game_and_masks_are_legal() -> None:
    a, b = env("pinochle2"), env("pinochle2")
    a.reset(seed=5)
    b.reset(seed=5)
    agent = a.agent_selection
    obs_a, obs_b = a.observe(agent), b.observe(agent)
    assert np.array_equal(obs_a["observation"], obs_b["observation"])
    mask = obs_a["action_mask"]
    other = next(x for x in a.agents if x != agent)
    assert not a.observe(other)["action_mask"].any()
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="illegal action"):
        a.step(illegal)
    a.step(int(np.flatnonzero(mask)[0]))
    assert a.agent_selection == other


def test_a_whole_game_ends_with_zero_sum_rewards() -> None:
    e = env("efudatori", players=5)
    e.reset(seed=2)
    rng = np.random.default_rng(0)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        _, reward, terminated, truncated, _ = e.last()
        total[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        mask = e.observe(agent)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))
    assert sum(total.values()) == pytest.approx(0.0) and max(total.values()) > 0
