"""A tiny four-seat partnership game (seats 0 and 2 against 1 and 3) for the rating tests:
two cards each, the highest card takes the trick, the trick's point goes to its side."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardplaza.core.protocol import TERMINAL, ActionParseError, GameState, copy_rng
from cardplaza.core.registry import GameSpec


@dataclass(frozen=True)
class Options:
    """No options to speak of."""

    cards: int = 2


class Toy4(GameState):
    """Four seats, two sides, two tricks."""

    game_name = "toy4"

    def __init__(self, options: Options, seed: int) -> None:
        super().__init__(options, seed, 4)
        deck = list(range(8))
        self.rng.shuffle(deck)
        self.hands = [sorted(deck[2 * i:2 * i + 2]) for i in range(4)]
        self.trick: list[tuple[int, int]] = []
        self.points = [0, 0]
        self.turn = 0

    @property
    def current_player(self) -> int:
        if not any(self.hands) and not self.trick:
            return TERMINAL
        return self.turn

    def legal_actions(self) -> Sequence[int]:
        return list(self.hands[self.turn])

    def _apply(self, action: Any) -> None:
        if action not in self.hands[self.turn]:
            from cardplaza.core.protocol import IllegalAction

            raise IllegalAction("not in your hand")
        seat = self.turn
        self.hands[seat] = [c for c in self.hands[seat] if c != action]
        self.trick.append((seat, action))
        if len(self.trick) == 4:
            win = max(self.trick, key=lambda t: t[1])[0]
            self.points[win % 2] += 1
            self.trick = []
            self.turn = win
        else:
            self.turn = (seat + 1) % 4

    def returns(self) -> tuple[float, ...]:
        return tuple(float(self.points[s % 2]) for s in range(4))

    def clone(self) -> Toy4:
        c = object.__new__(Toy4)
        c.__dict__.update(self.__dict__)
        c.hands = [list(h) for h in self.hands]
        c.trick = list(self.trick)
        c.points = list(self.points)
        c.history = list(self.history)
        c.rng = copy_rng(self.rng)
        return c

    def observation(self, seat: int) -> dict[str, Any]:
        return {"hand": list(self.hands[seat]), "trick": [list(t) for t in self.trick],
                "points": list(self.points), "to_play": self.current_player}

    def action_text(self, action: Any) -> str:
        return str(action)

    def parse_action(self, text: str) -> int:
        try:
            return int(text)
        except ValueError:
            raise ActionParseError(text) from None

    def action_to_json(self, action: Any) -> Any:
        return action

    def action_from_json(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int) or not 0 <= data < 8:
            raise ActionParseError(f"{data!r} is not a card")
        return data


SPEC = GameSpec(name="toy4", title="Toy4", title_ja="おもちゃ4", options_type=Options,
                new_state=lambda o, s: Toy4(o, s), levels=("random",))
