"""A tiny two-player trick game used to test the web layer independently of the real games."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardplaza.core.cards import PIQUET, bits, mask_of
from cardplaza.core.protocol import TERMINAL, ActionParseError, GameState, copy_rng
from cardplaza.core.registry import GameSpec


@dataclass(frozen=True)
class Options:
    """Toy options."""

    cards: int = 4
    lead_high: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.cards <= 8:
            raise ValueError("cards must be 1–8")


class Toy(GameState):
    """Follow suit, highest of the led suit wins; one point per trick."""

    game_name = "toy"
    deck = PIQUET

    def __init__(self, options: Options, seed: int) -> None:
        super().__init__(options, seed, 2)
        deck = list(range(32))
        self.rng.shuffle(deck)
        n = options.cards
        self.hands = [mask_of(deck[:n]), mask_of(deck[n:2 * n])]
        self.rest = mask_of(deck[2 * n:])
        self.trick: list[tuple[int, int]] = []
        self.last: list[tuple[int, int]] = []
        self.points = [0, 0]
        self.turn = 0

    @property
    def current_player(self) -> int:
        if not self.hands[0] and not self.hands[1] and not self.trick:
            return TERMINAL
        return self.turn

    def legal_actions(self) -> Sequence[int]:
        hand = self.hands[self.turn]
        if self.trick:
            suit = PIQUET.suit(self.trick[0][1])
            follow = [c for c in bits(hand) if PIQUET.suit(c) is suit]
            if follow:
                return follow
        return list(bits(hand))

    def illegal_card_reasons(self) -> dict[int, str]:
        legal = set(self.legal_actions())
        return {c: "You must follow suit" for c in bits(self.hands[self.turn])
                if c not in legal}

    def illegal_reason(self, action: Any) -> str | None:
        if action in self.legal_actions():
            return None
        if isinstance(action, int) and self.hands[self.turn] >> action & 1:
            return "You must follow suit"
        return f"{self.describe(action)} is not in your hand"

    def _apply(self, action: Any) -> None:
        seat = self.turn
        self.hands[seat] &= ~(1 << action)
        self.trick.append((seat, action))
        if len(self.trick) == 2:
            suit = PIQUET.suit(self.trick[0][1])
            win = max((t for t in self.trick if PIQUET.suit(t[1]) is suit),
                      key=lambda t: PIQUET.face_of(t[1]))[0]
            self.points[win] += 1
            self.last = self.trick
            self.trick = []
            self.turn = win
        else:
            self.turn = 1 - seat

    def returns(self) -> tuple[float, ...]:
        return (float(self.points[0]), float(self.points[1]))

    def clone(self) -> Toy:
        c = object.__new__(Toy)
        c.__dict__.update(self.__dict__)
        c.hands = list(self.hands)
        c.trick = list(self.trick)
        c.last = list(self.last)
        c.points = list(self.points)
        c.history = list(self.history)
        c.rng = copy_rng(self.rng)
        return c

    def observation(self, seat: int) -> dict[str, Any]:
        return {
            "hand": list(bits(self.hands[seat])),
            "hand_sizes": [h.bit_count() for h in self.hands],
            "trick": [[s, c] for s, c in self.trick],
            "last_trick": [[s, c] for s, c in self.last],
            "points": list(self.points),
            "to_play": self.current_player,
        }

    def action_text(self, action: Any) -> str:
        return PIQUET.text(action)

    def parse_action(self, text: str) -> int:
        try:
            return PIQUET.parse_face(text)
        except ValueError as exc:
            raise ActionParseError(str(exc)) from None

    def action_to_json(self, action: Any) -> Any:
        return action

    def action_from_json(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int) or not 0 <= data < 32:
            raise ActionParseError(f"{data!r} is not a card")
        return data


def permute_unseen(state: GameState, seat: int, rng: random.Random) -> GameState:
    """Re-deal the opponent's hand and the undealt cards."""
    assert isinstance(state, Toy)
    c = state.clone()
    other = 1 - seat
    pool = list(bits(c.hands[other] | c.rest))
    rng.shuffle(pool)
    k = c.hands[other].bit_count()
    c.hands[other] = mask_of(pool[:k])
    c.rest = mask_of(pool[k:])
    return c


class TestPlayer:
    """Toy computer levels for the worker tests: ``slow`` thinks for ``SLOW_SECONDS``,
    ``crash`` kills its own process mid-decision, ``hang`` never answers."""

    SLOW_SECONDS = 1.0

    def __init__(self, level: str) -> None:
        self.name = level

    def choose(self, observation: dict[str, Any], legal_actions: Sequence[Any],
               rng: random.Random) -> Any:
        import os
        import signal
        import time

        if self.name == "slow":
            time.sleep(self.SLOW_SECONDS)
        elif self.name == "crash":
            os.kill(os.getpid(), signal.SIGKILL)
        elif self.name == "hang":
            time.sleep(3600)
        return legal_actions[0]


def make_player(level: str, seed: int) -> TestPlayer:
    """The ``players`` hook of the toy game."""
    return TestPlayer(level)


SPEC = GameSpec(name="toy", title="Toy", title_ja="おもちゃ", options_type=Options,
                new_state=lambda o, s: Toy(o, s), presets={"two": Options(cards=2)},
                permute_unseen=permute_unseen, levels=("random", "slow", "crash", "hang"),
                hooks={"players": "web_toygame:make_player"})


def register() -> None:
    """Register the toy game (a worker process's preload in the tests)."""
    from cardplaza.core import registry

    registry.register(SPEC)
