"""Example: a two-hand Pinochle policy trained by OpenSpiel's outcome-sampling MCCFR on
an abstraction of the game, then measured against the computer levels in the arena
(``pip install cardplaza[research]``).

Train for a few minutes (numpy only, no deep-learning framework), then let the policy play
through the arena's seat protocol (``cardplaza arena --program``)::

    python -m cardplaza.research.mccfr train --seconds 180 --out mccfr.pkl
    cardplaza arena pinochle2 --players mccfr:policy,random,1 --deals 200 --seed 1 \\
        --program "mccfr=python -m cardplaza.research.mccfr seat --policy mccfr.pkl"

Training runs :class:`open_spiel.python.algorithms.outcome_sampling_mccfr.
OutcomeSamplingSolver` on ``python_cardplaza_pinochle2_abstract``
(:mod:`cardplaza.research.abstract`: the same engine and deal, with move kinds for actions
and coarse information-state keys that recur from deal to deal) and keeps its average
policy, a small table from key to the probabilities of the move kinds that exist there. In
play, the seat program rebuilds the position from the game record, works out the key and
the move kinds with the same function, samples the table and plays the card (or meld) the
chosen kind stands for; a key never met in training is played by a uniform choice among
the kinds.
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found, unused-ignore]
from open_spiel.python.algorithms import (  # type: ignore[import-untyped, import-not-found, unused-ignore]
    mccfr,
    outcome_sampling_mccfr,
)

from cardplaza.core.protocol import GameState
from cardplaza.core.registry import get_game
from cardplaza.research.abstract import NAME, abstract
from cardplaza.research.core import codec_of

PROTOCOL = "cardplaza-seat/1"
"""The arena's seat protocol (:mod:`cardplaza.arena.seat_driver`), spoken by :func:`serve`."""
GAME = "pinochle2"
LEVEL = "policy"
"""The one level the seat program offers."""


@dataclass
class Policy:
    """Average-policy probabilities by information-state key, over the move kinds that
    exist there in ascending order."""

    table: dict[str, np.ndarray[Any, Any]] = field(default_factory=dict)
    iterations: int = 0
    seconds: float = 0.0

    def probabilities(self, key: str, count: int) -> np.ndarray[Any, Any] | None:
        """The probabilities of the ``count`` move kinds at ``key`` (``None`` if never
        trained)."""
        probs = self.table.get(key)
        if probs is None or len(probs) != count:
            return None
        return probs

    def save(self, path: str | Path) -> None:
        """Write the policy (pickle)."""
        with open(path, "wb") as f:
            pickle.dump({"game": GAME, "abstraction": NAME, "iterations": self.iterations,
                         "seconds": self.seconds, "table": self.table}, f,
                        protocol=pickle.HIGHEST_PROTOCOL)

    @classmethod
    def load(cls, path: str | Path) -> Policy:
        """Read a policy written by :meth:`save`."""
        with open(path, "rb") as f:
            data = pickle.load(f)
        if data.get("game") != GAME or data.get("abstraction") != NAME:
            raise ValueError(f"{path} is not a {GAME} policy over {NAME}")
        return cls(data["table"], data["iterations"], data["seconds"])


def train(seconds: float, seed: int = 0, max_iterations: int | None = None) -> Policy:
    """Outcome-sampling MCCFR on the abstracted two-hand Pinochle for about ``seconds`` of
    CPU time (or ``max_iterations`` iterations, one episode per player each); its average
    policy."""
    np.random.seed(seed)  # the solver samples with numpy's global generator
    game = pyspiel.load_game(NAME)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    start = time.process_time()
    iterations = 0
    while (max_iterations is None or iterations < max_iterations) and \
            time.process_time() - start < seconds:
        solver.iteration()
        iterations += 1
    table: dict[str, np.ndarray[Any, Any]] = {}
    for key, values in solver._infostates.items():
        total = values[mccfr.AVG_POLICY_INDEX].sum()
        if total > 0 and len(values[mccfr.AVG_POLICY_INDEX]) > 1:
            table[key] = (values[mccfr.AVG_POLICY_INDEX] / total).astype(np.float32)
    return Policy(table, iterations, time.process_time() - start)


class _Seat:
    """One seat of one arena game played by the policy: the position rebuilt from the
    record and the seat's random stream."""

    def __init__(self, msg: dict[str, Any], policy: Policy) -> None:
        spec = get_game(str(msg["game"]))
        if spec.name != GAME:
            raise ValueError(f"this policy plays {GAME}, not {spec.name}")
        self.state: GameState = spec.new_game(spec.options(dict(msg["options"])),
                                               int(msg["seed"]))
        self.seat = int(msg["seat"])
        self.policy = policy
        self.rng = random.Random(int(msg["rng_seed"]))
        self.met = self.unmet = 0

    def replay(self, actions: Sequence[dict[str, Any]]) -> None:
        """Apply the recorded actions."""
        state = self.state
        for rec in actions:
            state.apply(state.action_from_json(rec["action"]))

    def decide(self) -> Any:
        """The policy's action (JSON form) at the seat."""
        state = self.state
        if state.is_terminal or state.current_player != self.seat:
            raise ValueError(f"seat {self.seat} is not to act")
        key, moves = abstract(state)
        kinds = [m for m in moves if m is not None]
        probs = self.policy.probabilities(key, len(kinds)) if len(kinds) > 1 else None
        if probs is None:
            self.unmet += len(kinds) > 1
            k = self.rng.randrange(len(kinds))
        else:
            self.met += 1
            k = self.rng.choices(range(len(kinds)), weights=probs.tolist())[0]
        # Not applied here: the arena sends every action back, this one included.
        return state.action_to_json(codec_of(get_game(GAME)).decode(state, kinds[k]))


def serve(policy: Policy, lines: Any = None, out: Any = None) -> None:
    """Answer the arena's seat protocol (``cardplaza-seat/1``) on standard input/output."""
    lines = sys.stdin if lines is None else lines
    out = sys.stdout if out is None else out
    seats: dict[int, _Seat] = {}
    for line in lines:
        if not line.strip():
            continue
        msg = json.loads(line)
        try:
            kind = msg.get("type")
            if kind == "hello":
                answer: dict[str, Any] = {"type": "hello", "protocol": PROTOCOL,
                                          "cardplaza": f"mccfr policy, {policy.iterations} "
                                                       f"iterations, {len(policy.table)} keys"}
            elif kind == "levels":
                answer = {"type": "levels", "levels": [LEVEL] if msg["game"] == GAME else []}
            elif kind == "new":
                seats[int(msg["id"])] = _Seat(msg, policy)
                answer = {"type": "ready"}
            elif kind == "act":
                seat = seats[int(msg["id"])]
                seat.replay(msg["actions"])
                answer = {"type": "action", "action": seat.decide()}
            elif kind == "close":
                seats.pop(int(msg["id"]), None)
                answer = {"type": "closed"}
            else:
                raise ValueError(f"unknown message type {kind!r}")
        except Exception as exc:  # reported to the arena, which stops
            answer = {"type": "error", "message": f"{type(exc).__name__}: {exc}"}
        out.write(json.dumps(answer) + "\n")
        out.flush()


def main(argv: Sequence[str] | None = None) -> None:
    """``train`` a policy or serve it as an arena ``seat`` program."""
    parser = argparse.ArgumentParser(prog="python -m cardplaza.research.mccfr",
                                     description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="train a policy and save it")
    t.add_argument("--seconds", type=float, default=180.0, help="CPU seconds of training")
    t.add_argument("--iterations", type=int, default=None, help="at most this many")
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--out", required=True, help="file to write the policy to")
    s = sub.add_parser("seat", help="play a saved policy through the arena's seat protocol")
    s.add_argument("--policy", required=True, help="a file written by 'train'")
    args = parser.parse_args(argv)
    if args.command == "train":
        policy = train(args.seconds, args.seed, args.iterations)
        policy.save(args.out)
        print(f"{policy.iterations} iterations in {policy.seconds:.0f} CPU s: "
              f"{len(policy.table)} information-state keys -> {args.out}")
        return
    serve(Policy.load(args.policy))


if __name__ == "__main__":
    main()
