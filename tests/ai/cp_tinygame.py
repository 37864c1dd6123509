"""A tiny two-seat trick-taking game used only by the AI and arena tests.

12 cards: suits a, b, c (a is trump) with ranks 0-3; rank 3 is worth 10 points, rank 2 is
worth 5, the last trick 1. Hands of ``hand_size`` cards; the rest lie unseen in a talon.
Followers must follow suit when able. The spec is registered only inside tests.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardplaza.ai.pimc import PIMCPlayer
from cardplaza.ai.player import Player, RandomPlayer
from cardplaza.core.cards import bits, mask_of
from cardplaza.core.protocol import Action, ActionParseError, GameState
from cardplaza.core.registry import GameSpec

NAME = "tinytricks_test"
POINTS = (0, 0, 5, 10)


@dataclass(frozen=True)
class Options:
    """Tiny game options."""

    hand_size: int = 4

    def __post_init__(self) -> None:
        if not 1 <= self.hand_size <= 6:
            raise ValueError("hand_size must be 1..6")


def suit(card: int) -> int:
    return card // 4


def beats(card: int, other: int) -> bool:
    """True when ``card`` played second beats ``other`` led."""
    if suit(card) == suit(other):
        return card > other
    return suit(card) == 0


class TinyState(GameState):
    game_name = NAME

    def __init__(self, options: Options, seed: int, deal: bool = True) -> None:
        super().__init__(options, seed, 2)
        self.hands = [0, 0]
        self.talon = 0
        self.leader = 0
        self.trick: list[int] = []
        self.points = [0, 0]
        self.done: list[tuple[int, int, int, int]] = []  # leader, lead, reply, winner
        if deal:
            cards = list(range(12))
            self.rng.shuffle(cards)
            n = options.hand_size
            self.hands = [mask_of(cards[:n]), mask_of(cards[n:2 * n])]
            self.talon = mask_of(cards[2 * n:])

    @property
    def current_player(self) -> int:
        if not self.hands[0] and not self.hands[1]:
            return -1
        return self.leader if not self.trick else 1 - self.leader

    def legal_actions(self) -> Sequence[Action]:
        hand = self.hands[self.current_player]
        if self.trick:
            same = [c for c in bits(hand) if suit(c) == suit(self.trick[0])]
            if same:
                return same
        return list(bits(hand))

    def _apply(self, action: Action) -> None:
        assert isinstance(action, int)
        seat = self.current_player
        self.hands[seat] &= ~(1 << action)
        self.trick.append(action)
        if len(self.trick) == 2:
            lead, reply = self.trick
            winner = 1 - self.leader if beats(reply, lead) else self.leader
            self.points[winner] += POINTS[lead % 4] + POINTS[reply % 4]
            if not self.hands[0] and not self.hands[1]:
                self.points[winner] += 1
            self.done.append((self.leader, lead, reply, winner))
            self.leader = winner
            self.trick = []

    def returns(self) -> tuple[float, ...]:
        return (float(self.points[0]), float(self.points[1]))

    def clone(self) -> TinyState:
        out = TinyState.__new__(TinyState)
        out.__dict__.update(self.__dict__)
        out.hands = list(self.hands)
        out.trick = list(self.trick)
        out.points = list(self.points)
        out.done = list(self.done)
        out.history = list(self.history)
        out.rng = random.Random()
        out.rng.setstate(self.rng.getstate())
        return out

    def observation(self, seat: int) -> dict[str, Any]:
        return {
            "seat": seat,
            "hand_size": self.options.hand_size,
            "hand": list(bits(self.hands[seat])),
            "opponent_cards": self.hands[1 - seat].bit_count(),
            "leader": self.leader,
            "trick": list(self.trick),
            "done": [list(t) for t in self.done],
            "points": list(self.points),
        }

    def action_text(self, action: Action) -> str:
        assert isinstance(action, int)
        return "abc"[suit(action)] + str(action % 4)

    def parse_action(self, text: str) -> Action:
        t = text.strip().lower()
        if len(t) != 2 or t[0] not in "abc" or t[1] not in "0123":
            raise ActionParseError(f"{text!r} is not a card")
        return "abc".index(t[0]) * 4 + int(t[1])

    def action_to_json(self, action: Action) -> Any:
        return action

    def action_from_json(self, data: Any) -> Action:
        if not isinstance(data, int):
            raise ActionParseError("not a card")
        return data


def voids(obs: dict[str, Any], seat: int) -> set[int]:
    """Suits ``seat`` has shown to be void in."""
    out = set()
    for leader, lead, reply, _ in obs["done"]:
        if leader != seat and suit(reply) != suit(lead):
            out.add(suit(lead))
    return out


def sample_world(obs: dict[str, Any], rng: random.Random) -> TinyState:
    """A full state consistent with ``obs`` (voids respected)."""
    seat = obs["seat"]
    state = TinyState(Options(obs["hand_size"]), 0, deal=False)
    seen = set(obs["hand"]) | set(obs["trick"])
    for t in obs["done"]:
        seen |= {t[1], t[2]}
    unknown = [c for c in range(12) if c not in seen]
    rng.shuffle(unknown)
    void = voids(obs, 1 - seat)
    allowed = [c for c in unknown if suit(c) not in void]
    opp = allowed[:obs["opponent_cards"]]
    state.hands[seat] = mask_of(obs["hand"])
    state.hands[1 - seat] = mask_of(opp)
    state.talon = mask_of(c for c in unknown if c not in opp)
    state.leader = obs["leader"]
    state.trick = list(obs["trick"])
    state.points = list(obs["points"])
    state.done = [tuple(t) for t in obs["done"]]  # type: ignore[misc]
    return state


def permute_unseen(state: GameState, seat: int, rng: random.Random) -> GameState:
    """Re-deal the opponent's hand and the talon among themselves."""
    assert isinstance(state, TinyState)
    out = state.clone()
    pool = list(bits(out.hands[1 - seat] | out.talon))
    rng.shuffle(pool)
    n = out.hands[1 - seat].bit_count()
    out.hands[1 - seat] = mask_of(pool[:n])
    out.talon = mask_of(pool[n:])
    return out


def solver_key(state: GameState) -> Any:
    assert isinstance(state, TinyState)
    return (state.hands[0], state.hands[1], state.leader, tuple(state.trick))


def make_player(level: str, seed: int) -> Player:
    if level == "1":
        return RandomPlayer()
    if level == "2":
        return PIMCPlayer(SPEC, worlds=12, name="pimc12")
    raise ValueError(level)


SPEC = GameSpec(
    name=NAME, title="Tiny tricks", title_ja="小トリック", options_type=Options,
    new_state=lambda opts, seed: TinyState(opts, seed),
    permute_unseen=permute_unseen, sample_world=sample_world,
    levels=("random", "1", "2"), hooks={"players": "cp_tinygame:make_player"},
)
