"""A digest of seeded random play through the OpenSpiel adapter, to show that a change kept
its behaviour.

For each seed a game is played to its end through ``pyspiel`` (one deal, and whole games of
a few deals by ``max_deals``), chance outcomes and moves drawn from a seeded RNG, and
hashed step by step: the current player, the chance and terminal flags, the chance outcomes
or every seat's legal actions, the history, full history, history string and move number;
now and then the flags and legal actions as OpenSpiel's C++ side asks them, of the state
and of its C++ clone; for the first seeds also every seat's observation and
information-state tensors and strings (through OpenSpiel's C++ side), the actions' text,
returns, and a clone (and a child) that must step exactly like the state. At the end the
returns and the history.

    PYTHONPATH=src python scripts/adapter_digest.py pinochle2 200
"""

from __future__ import annotations

import hashlib
import random
import sys
from typing import Any

import numpy as np
import pyspiel

import cardplaza.research.openspiel as cos

SHORT = {"pinochle4": {"target": 500}, "pinochle3": {"target": 500},
         "pinochle_dd": {"target": 250}}
"""Shorter targets for whole games of the multi-hand Pinochle variants."""


def _params(name: str, max_deals: int | None) -> dict[str, Any]:
    spec = cos.GAMES[name].spec
    params: dict[str, Any] = dict(SHORT.get(name, {}))
    if spec.deals_played is not None and max_deals is not None:
        params["max_deals"] = max_deals
    return params


def digest(name: str, seeds: int, detailed: int) -> str:
    """The digest of ``seeds`` random games per setting (views, text and clones for the
    first ``detailed`` seeds)."""
    h = hashlib.sha256()

    def put(x: Any) -> None:
        h.update(repr(x).encode())
        h.update(b"|")

    settings = [1, 3] if cos.GAMES[name].spec.deals_played is not None else [None]
    for index, max_deals in enumerate(settings):
        game = pyspiel.load_game(cos.game_name(name), _params(name, max_deals))
        players = game.num_players()
        for seed in range(seeds):
            rng = random.Random(seed * 31 + index)
            state = game.new_initial_state()
            detail = seed < detailed
            step = 0
            while True:
                player = state.current_player()
                chance = state.is_chance_node()
                over = state.is_terminal()
                put((player, chance, over, state.move_number(), state.is_initial_state()))
                if detail or step % 3 == 0:  # the same asked through OpenSpiel's C++ side
                    base = pyspiel.State
                    put((base.current_player(state), base.is_chance_node(state),
                         base.is_terminal(state), base.legal_actions(state),
                         base.chance_outcomes(state) if chance else None))
                    twin = base.clone(state)
                    put((base.is_terminal(twin), base.is_chance_node(twin),
                         base.legal_actions(twin), twin.history()))
                if detail or step % 17 == 0:
                    put((state.history(), state.history_str(), state.full_history()))
                if detail and (step % 5 == 0 or over):
                    for p in range(players):
                        put(state.observation_string(p))
                        put(state.information_state_string(p))
                        put(np.asarray(state.observation_tensor(p)).tobytes())
                        put(np.asarray(state.information_state_tensor(p)).tobytes())
                    put(str(state))
                if over:
                    break
                if chance:
                    outcomes = state.chance_outcomes()
                    put(outcomes)
                    put(state.legal_actions())
                    put(state.legal_actions(pyspiel.PlayerId.CHANCE))
                    put(state.legal_actions(0))
                    action = rng.choice(outcomes)[0]
                    if detail:
                        put(state.action_to_string(player, action))
                else:
                    legal = state.legal_actions()
                    put(legal)
                    put([state.legal_actions(p) for p in range(players)])
                    put(state.legal_actions(pyspiel.PlayerId.CHANCE))
                    put(state.legal_actions_mask())
                    action = rng.choice(legal)
                    if detail:
                        put([state.action_to_string(player, a) for a in legal])
                if detail and step % 7 == 0:
                    twin = state.clone()
                    child = state.child(action)
                    twin.apply_action(action)
                    put((twin.history(), child.history(), twin.current_player(),
                         child.current_player(), twin.legal_actions(), child.legal_actions()))
                    put(twin.returns())
                state.apply_action(action)
                put(state.returns())
                step += 1
            put(state.returns())
            put(state.history())
            put(state.full_history())
    return h.hexdigest()


def main() -> None:
    """``adapter_digest.py GAME [SEEDS] [DETAILED]``: print the digest."""
    name = sys.argv[1]
    seeds = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    detailed = int(sys.argv[3]) if len(sys.argv) > 3 else max(1, seeds // 10)
    print(name, seeds, detailed, digest(name, seeds, detailed))


if __name__ == "__main__":
    main()
