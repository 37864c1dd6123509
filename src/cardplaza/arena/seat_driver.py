"""A computer seat served by another checkout of Card Plaza (the arena's seat protocol).

Run by that checkout's Python, e.g. ``/old/checkout/.venv/bin/python -P seat_driver.py``
(``-P`` keeps this file's folder off ``sys.path``, so the other checkout's own
``cardplaza`` package is the one imported). It uses only the long-standing public API —
``get_game``, ``GameSpec.options``/``new_game``, ``computer_player`` and the protocol's
``apply``, ``legal_actions``, ``observation`` and JSON action forms — so it works with
older versions of the code as they are.

Protocol ``cardplaza-seat/1``: one JSON object per line on standard input, one answer per
line on standard output; the driver ends at end of input.

* ``{"type": "hello"}`` → ``{"type": "hello", "protocol": …, "cardplaza": path}``
* ``{"type": "levels", "game": g}`` → ``{"type": "levels", "levels": [...]}``
* ``{"type": "new", "id": k, "game": g, "options": {non-default options}, "seed": s,
  "seat": p, "level": L, "player_seed": n, "rng_seed": r}`` → ``{"type": "ready"}``:
  seat ``p`` of game ``(g, options, s)`` is played by ``computer_player(g, L, n)``, which
  draws from ``random.Random(r)`` — exactly as the arena seats a player of its own.
* ``{"type": "act", "id": k, "actions": [{"seat", "action" (JSON form), "forced"}, …]}``
  (the actions since the last message for ``k``) → ``{"type": "action", "action": …}``:
  the position is rebuilt with this checkout's engine and the player decides from its
  seat's observation alone.
* ``{"type": "close", "id": k}`` → ``{"type": "closed"}``.

Errors answer ``{"type": "error", "message": …}``. Engines of two versions may differ by
steps without a choice (a step offering one action): a recorded action that was forced
and that this engine rejects is skipped, and a step of this engine with a single legal
action that the record lacks is taken, so such steps never desynchronise the game.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

PROTOCOL = "cardplaza-seat/1"


class _Seat:
    """One seat of one game: the rebuilt position, the player and its random stream."""

    def __init__(self, msg: dict[str, Any]) -> None:
        from cardplaza.ai.player import computer_player
        from cardplaza.core.registry import get_game

        spec = get_game(str(msg["game"]))
        self.state = spec.new_game(spec.options(dict(msg["options"])), int(msg["seed"]))
        self.seat = int(msg["seat"])
        self.player = computer_player(spec.name, str(msg["level"]), int(msg["player_seed"]))
        self.rng = random.Random(int(msg["rng_seed"]))

    def _bridge(self) -> bool:
        """Take a step of this engine that offers a single action; False if none."""
        state = self.state
        if state.is_terminal:
            return False
        legal = state.legal_actions()
        if len(legal) != 1:
            return False
        state.apply(legal[0])
        return True

    def replay(self, actions: list[dict[str, Any]]) -> None:
        """Apply the recorded actions (see the module docstring for forced steps)."""
        from cardplaza.core.protocol import IllegalAction

        for i, rec in enumerate(actions):
            seat, data, forced = int(rec["seat"]), rec["action"], bool(rec.get("forced"))
            while True:
                state = self.state
                try:
                    if state.is_terminal or state.current_player != seat:
                        raise IllegalAction(f"seat {seat} is not to act here")
                    state.apply(state.action_from_json(data))
                    break
                except IllegalAction as exc:
                    if forced:
                        break  # a step this version does not have
                    if self._bridge():
                        continue
                    raise ValueError(f"recorded action {i} ({data!r}) does not fit this "
                                     f"version's engine: {exc}") from None

    def decide(self) -> Any:
        """The player's action at its seat, in JSON form."""
        state = self.state
        while not state.is_terminal and state.current_player != self.seat and self._bridge():
            pass
        if state.is_terminal or state.current_player != self.seat:
            raise ValueError(f"seat {self.seat} is not to act in this version's position")
        legal = state.legal_actions()
        action = legal[0] if len(legal) == 1 else self.player.choose(
            state.observation(self.seat), legal, self.rng)
        return state.action_to_json(action)


def _answer(msg: dict[str, Any], seats: dict[int, _Seat]) -> dict[str, Any]:
    kind = msg.get("type")
    if kind == "hello":
        import cardplaza
        return {"type": "hello", "protocol": PROTOCOL, "cardplaza": cardplaza.__file__}
    if kind == "levels":
        from cardplaza.core.registry import get_game
        return {"type": "levels", "levels": ["random", *get_game(str(msg["game"])).levels]}
    key = int(msg["id"])
    if kind == "new":
        seats[key] = _Seat(msg)
        return {"type": "ready"}
    if kind == "act":
        seat = seats[key]
        seat.replay(list(msg["actions"]))
        return {"type": "action", "action": seat.decide()}
    if kind == "close":
        seats.pop(key, None)
        return {"type": "closed"}
    raise ValueError(f"unknown message type {kind!r}")


def main() -> None:
    """Serve requests from standard input until it closes."""
    seats: dict[int, _Seat] = {}
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            answer = _answer(json.loads(line), seats)
        except Exception as exc:  # every failure is reported to the arena, which stops
            answer = {"type": "error", "message": f"{type(exc).__name__}: {exc}"}
        out.write(json.dumps(answer) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
