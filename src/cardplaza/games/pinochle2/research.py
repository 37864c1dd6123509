"""Two-hand Pinochle for the research adapters: action numbers and tensors of a view."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardplaza.core.protocol import Action, GameState
from cardplaza.core.registry import GameSpec, get_game
from cardplaza.games.pinochle2.engine import (
    GROUP_KEYS,
    INSTANCES,
    NCARDS,
    NO_MELD,
    Pinochle2State,
)
from cardplaza.research.core import ResearchCodec, Tensor


def _all_melds() -> tuple[tuple[int, int], ...]:
    """Every (meld type, card mask) any trump and copy choice can make, in a fixed order."""
    found: set[tuple[int, int]] = set()
    for trump in range(4):
        for t, _, faces, need in INSTANCES[trump]:
            copies = [((1 << f) | (1 << (f + 24)),) if need == 2 else (1 << f, 1 << (f + 24))
                      for f in faces]
            for combo in itertools.product(*copies):
                found.add((t, sum(combo)))
    return tuple(sorted(found))


MELDS = _all_melds()
_MELD_NUMBER = {m: NCARDS + 1 + i for i, m in enumerate(MELDS)}


class Pinochle2Codec(ResearchCodec):
    """Numbers: card ``c`` (0 … 47) to play, 48 for ``no meld``, then every possible meld
    (type and exact physical cards) in a fixed order."""

    chance_at_deal_start_only = True
    """The one deal is the game's only chance (the stock is part of it): the adapter keeps
    no list of the deal's actions to replay."""

    def spec(self) -> GameSpec:
        """Two-hand Pinochle."""
        return get_game("pinochle2")

    def num_actions(self, options: Any) -> int:
        """48 cards, no meld, and every meld."""
        return NCARDS + 1 + len(MELDS)

    def encode(self, state: GameState, action: Action) -> int:
        """The number of a play, ``no meld`` or a meld."""
        if type(action) is int:
            return action
        assert isinstance(action, tuple)
        return _MELD_NUMBER[action]

    def fixed_actions(self, options: Any) -> tuple[int, Sequence[Action]]:
        """Cards to play and ``no meld``: the number is the action."""
        return 0, tuple(range(NO_MELD + 1))

    def decode(self, state: GameState, number: int) -> Action:
        """The action of a number."""
        if 0 <= number <= NO_MELD:
            return number
        if NO_MELD < number < self.num_actions(None):
            return MELDS[number - NCARDS - 1]
        raise ValueError(f"{number} is not a two-hand Pinochle action number")

    def tensor(self, observation: dict[str, Any], options: Any,
               perfect_recall: bool) -> list[float]:
        """Own hand and concealed cards; both meld areas and known cards (own first); the
        cards used in each meld group; turn-up, cards played and the current lead; trump,
        step, who acts, stock size, trick number, meld points; with perfect recall the
        deal's order of play."""
        o = observation
        me, opp = o["seat"], 1 - o["seat"]
        t = Tensor()
        t.cards(o["hand"], NCARDS)
        t.cards(o["concealed"], NCARDS)
        for s in (me, opp):
            t.cards(o["meld_areas"][s], NCARDS)
            t.cards(o["known_held"][s], NCARDS)
        for key in GROUP_KEYS:
            t.cards(o["used"][key], NCARDS)
        t.cards([] if o["turn_up"] is None else [o["turn_up"]], NCARDS)
        t.cards([c for tr in o["tricks"] for c in tr["cards"]], NCARDS)
        cur = o["current_trick"]
        t.cards(cur["cards"] if cur else [], NCARDS)
        t.one_hot(o["trump"], 4)
        t.one_hot(("play", "meld", "end").index(o["step"]), 3)
        t.value(1.0 if o["to_act"] == me else 0.0)
        t.value(o["stock_count"] / 24)
        t.value(o["trick_number"] / 24)
        t.value(o["meld_points"][me] / 1000)
        t.value(o["meld_points"][opp] / 1000)
        if perfect_recall:
            plays = []
            for i, tr in enumerate(o["tricks"]):
                lead, follow = tr["cards"]
                plays.append(((tr["leader"] - me) % 2, lead, i))
                plays.append(((1 - tr["leader"] - me) % 2, follow, i))
            if cur and cur["cards"]:
                plays.append(((cur["leader"] - me) % 2, cur["cards"][0], len(o["tricks"])))
            t.play_order(plays, NCARDS, 2, 24)
        return t.values

    def max_game_length(self, options: Any, max_deals: int | None = None) -> int:
        """One deal, always this long: 47 dealt places (the 48th is what is left), 48
        cards played and the 12 meld steps (a meld or ``no meld``) after stock tricks."""
        return 47 + 48 + 12

    def numbers(self, state: GameState, player: int | None = None) -> list[int]:
        """Cards to play are their own numbers, listed in order; at a meld step ``no meld``
        (48) comes before the melds' numbers, sorted."""
        if TYPE_CHECKING:  # no check at run time: called at every step
            assert isinstance(state, Pinochle2State)
        if player is not None and player != state.turn:
            return []
        legal = state._legal  # the engine's list of this position, if worked out
        if legal is None:
            legal = state.legal_actions()
        if legal[-1] != NO_MELD:  # cards (a meld step always offers no meld)
            return legal.copy()  # type: ignore[return-value]  # the engine keeps its list
        if len(legal) == 1:
            return [NO_MELD]
        number = _MELD_NUMBER
        return [NO_MELD, *sorted([number[m] for m in legal[:-1]])]  # type: ignore[index]


CODEC = Pinochle2Codec()
