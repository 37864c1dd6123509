"""Hand histories: a whole game as JSON, loaded back and replayed exactly.

A record holds the game name, options, seed, every action with the seat that made it,
the result, and optionally who sat where (``players``: name, kind and level per seat).
Replaying applies the actions to a fresh game from the same seed, so every
intermediate state is reproduced.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardplaza.core.options import options_to_dict
from cardplaza.core.protocol import JSON, GameState, IllegalAction
from cardplaza.core.registry import get_game

FORMAT = "cardplaza-history/1"


@dataclass
class GameRecord:
    """A game's complete record."""

    game: str
    options: dict[str, Any]
    seed: int
    actions: list[tuple[int, JSON]] = field(default_factory=list)
    result: list[float] | None = None
    players: list[dict[str, str]] | None = None
    """Per seat ``{"name", "kind" ("human"/"computer"), "level"}``, when known."""

    @classmethod
    def of(cls, state: GameState,
           players: list[dict[str, str]] | None = None) -> GameRecord:
        """Record of a game so far (the result is set when it is over)."""
        return cls(
            game=state.game_name,
            options=options_to_dict(state.options),
            seed=state.seed,
            actions=[(seat, state.action_to_json(a)) for seat, a in state.history],
            result=list(state.returns()) if state.is_terminal else None,
            players=players,
        )

    def to_json(self) -> dict[str, JSON]:
        """JSON-ready dict."""
        out: dict[str, JSON] = {
            "format": FORMAT,
            "game": self.game,
            "options": self.options,
            # As a decimal string: deal seeds are 128-bit numbers, which JSON readers such
            # as a browser's round to 53 bits (a number is still read, as older files have).
            "seed": str(self.seed),
            "actions": [{"seat": s, "action": a} for s, a in self.actions],
            "result": self.result,
        }
        if self.players is not None:
            out["players"] = self.players
        return out

    @classmethod
    def from_json(cls, data: dict[str, JSON]) -> GameRecord:
        """Parse the dict written by :meth:`to_json`."""
        if data.get("format") != FORMAT:
            raise ValueError(f"not a Card Plaza history (format {data.get('format')!r})")
        return cls(
            game=str(data["game"]),
            options=dict(data["options"]),
            seed=int(data["seed"]),
            actions=[(int(a["seat"]), a["action"]) for a in data["actions"]],
            result=None if data.get("result") is None else list(data["result"]),
            players=None if data.get("players") is None else [
                {str(k): str(v) for k, v in p.items()} for p in data["players"]],
        )

    def dumps(self) -> str:
        """JSON text."""
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1)

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        """Parse JSON text."""
        return cls.from_json(json.loads(text))

    def save(self, path: str | Path) -> None:
        """Write to a file."""
        Path(path).write_text(self.dumps(), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read from a file."""
        return cls.loads(Path(path).read_text(encoding="utf-8"))

    def new_state(self) -> GameState:
        """The game's initial state."""
        spec = get_game(self.game)
        return spec.new_game(spec.options(self.options), self.seed)

    def replay(self, state: GameState | None = None) -> Iterator[tuple[GameState, int, Any]]:
        """Yield ``(state, seat, action)`` before each step, then apply it; the state is live.

        Raises :class:`IllegalAction` if the record does not match the rules.
        """
        state = self.new_state() if state is None else state
        for i, (seat, data) in enumerate(self.actions):
            if state.current_player != seat:
                raise IllegalAction(f"step {i + 1}: seat {seat} acts, but it is seat "
                                    f"{state.current_player}'s turn")
            action = state.action_from_json(data)
            yield state, seat, action
            state.apply(action)

    def final_state(self) -> GameState:
        """The state after every recorded action."""
        state = self.new_state()
        for _ in self.replay(state):
            pass
        return state
