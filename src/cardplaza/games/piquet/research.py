"""Piquet for the research adapters: action numbers and tensors of a view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardplaza.core.cards import bit_list
from cardplaza.core.protocol import Action, GameState
from cardplaza.core.registry import GameSpec, get_game
from cardplaza.games.piquet.state import (
    ADD,
    CODE_NAMES,
    EX_E,
    EX_Y,
    EXCH,
    PHASE_NAMES,
    PLAY,
    SAY,
    SUIT,
    PiquetState,
)
from cardplaza.research.core import DEFAULT_MAX_DEALS, ResearchCodec, Tensor

DECK = 32
EXCHANGE = DECK  # 4,096 numbers: the subset of the (sorted) hand's 12 places discarded
SAYS = EXCHANGE + 4096
SUITS = SAYS + len(CODE_NAMES)
ADDS = SUITS + 4
MAX_ADDS = 64
"""Room for the choices of further combinations to show (one number per choice)."""


_DISCARD_NUMBERS: dict[tuple[int, int], tuple[int, ...]] = {}


def _discard_numbers(lo: int, hi: int) -> tuple[int, ...]:
    """The numbers of discarding ``lo`` … ``hi`` cards of a 12-card hand, ascending."""
    key = (lo, hi)
    numbers = _DISCARD_NUMBERS.get(key)
    if numbers is None:
        numbers = _DISCARD_NUMBERS[key] = tuple(
            EXCHANGE + sub for sub in range(4096) if lo <= sub.bit_count() <= hi)
    return numbers


class PiquetCodec(ResearchCodec):
    """Numbers: card ``c`` (0 … 31) to play; a discard as the set of places of the sorted
    hand (32 + a 12-bit mask); each declaration word; a point suit to show; then the
    ``k``-th choice of further combinations to score (in the order the game lists them)."""

    chance_at_deal_start_only = True
    """Chance draws the first dealer and deals each deal's cards (talon included), both
    when a deal begins: the game ends at its deal limit before a next deal is dealt."""

    def spec(self) -> GameSpec:
        """Piquet."""
        return get_game("piquet")

    def num_actions(self, options: Any) -> int:
        """Cards, discards, words, suits and choices of combinations."""
        return ADDS + MAX_ADDS

    def encode(self, state: GameState, action: Action) -> int:
        """The number of an action."""
        assert isinstance(state, PiquetState)
        if type(action) is int:
            return action
        assert isinstance(action, tuple)
        kind: int = action[0]
        value: int = action[1]
        if kind == EXCH:
            hand = bit_list(state.hands[state.current_player])
            return EXCHANGE + sum(1 << i for i, c in enumerate(hand) if value >> c & 1)
        if kind == SAY:
            return SAYS + value
        if kind == SUIT:
            return SUITS + value
        adds = sorted(a for a in state.legal_actions() if isinstance(a, tuple) and a[0] == ADD)
        return ADDS + adds.index(action)

    def deal_may_end(self, state: GameState) -> bool:
        """The last card of a deal."""
        assert isinstance(state, PiquetState)
        return state.phase == PLAY and len(state.tricks) == 11 and state.lead_card >= 0

    def numbers(self, state: GameState, player: int | None = None) -> list[int]:
        """Cards to play are their own numbers, listed in order; the rest are sorted."""
        if TYPE_CHECKING:  # no check at run time: called at every step
            assert isinstance(state, PiquetState)
        if player is not None and player != state.current_player:
            return []
        phase = state.phase
        if phase == PLAY:  # (a copy: the engine keeps its list)
            return state.legal_actions().copy()  # type: ignore[attr-defined, no-any-return]
        if phase in (EX_E, EX_Y):  # every set of lo … hi places of the 12-card hand
            lo, hi = (1, 5) if phase == EX_E else state.y_range()
            return list(_discard_numbers(lo, hi))
        return super().numbers(state)

    def max_game_length(self, options: Any, max_deals: int | None = None) -> int:
        """The first dealer drawn, then per deal: the 32 cards dealt (31 chance nodes), two
        exchanges, at most five declaration steps for each of point, sequence and set (a
        call, "making?", the showing, the reply, the choice of what to score) and 24 cards
        played. A partie has at most six deals (four with ``four_deals``) and two more on
        a tie; Piquet au cent has no bound of its own, so ``max_deals`` cuts it."""
        per_deal = 31 + 2 + 3 * 5 + 24
        if options.au_cent:
            deals = DEFAULT_MAX_DEALS if max_deals is None else max_deals
        else:
            deals = (4 if options.four_deals else 6) + 2
            if max_deals is not None:
                deals = min(deals, max_deals)
        return 1 + deals * per_deal

    def fixed_actions(self, options: Any) -> tuple[int, Sequence[Action]]:
        """Cards to play: the number is the card."""
        return 0, tuple(range(EXCHANGE))

    def decode(self, state: GameState, number: int) -> Action:
        """The action of a number."""
        assert isinstance(state, PiquetState)
        if 0 <= number < EXCHANGE:
            return number
        if number < SAYS:
            hand = bit_list(state.hands[state.current_player])
            places = number - EXCHANGE
            if places >> len(hand):
                raise ValueError(f"{number} names places beyond the hand")
            return (EXCH, sum(1 << c for i, c in enumerate(hand) if places >> i & 1))
        if number < SUITS:
            return (SAY, number - SAYS)
        if number < ADDS:
            return (SUIT, number - SUITS)
        adds = sorted(a for a in state.legal_actions() if isinstance(a, tuple) and a[0] == ADD)
        k = number - ADDS
        if not 0 <= k < len(adds):
            raise ValueError(f"{number} is not a choice of combinations now")
        return adds[k]

    def tensor(self, observation: dict[str, Any], options: Any,
               perfect_recall: bool) -> list[float]:
        """Own hand, dealt cards, discards and cards drawn; talon cards seen and cards left
        untaken; combinations shown by each player (own first); the lead of the current
        trick and the cards played; phase, role, who acts; tricks won, deal points and
        partie totals (own first), deal number; with perfect recall the deal's order of
        play."""
        o = observation
        me, opp = o["seat"], 1 - o["seat"]
        t = Tensor()
        for key in ("hand", "dealt", "discards", "drawn", "untaken"):
            t.cards(o[key], DECK)
        t.cards([seen["card"] for seen in o["talon_seen"]], DECK)
        for s in (me, opp):
            t.cards([c for sh in o["shown"] if sh["seat"] == s for c in sh["cards"]], DECK)
        t.cards(o["trick"]["cards"][:1], DECK)
        t.cards([c for tr in o["tricks"] for c in tr["cards"]], DECK)
        t.one_hot(PHASE_NAMES.index(o["phase"]), len(PHASE_NAMES))
        t.value(1.0 if o["role"] == "elder" else 0.0)
        t.value(1.0 if o["to_act"] == me else 0.0)
        for s in (me, opp):
            t.value(o["tricks_won"][s] / 12)
            t.value(o["deal_score"][s] / 100)
            t.value(o["totals"][s] / 100)
        t.value(o["deal"] / (o["deals_scheduled"] or 1))
        t.value(len(o["dialogue"]) / 20)
        if perfect_recall:
            plays = []
            for i, tr in enumerate(o["tricks"]):
                lead, follow = tr["cards"]
                plays.append(((tr["leader"] - me) % 2, lead, i))
                plays.append(((1 - tr["leader"] - me) % 2, follow, i))
            cur = o["trick"]
            if cur["cards"]:
                plays.append(((cur["leader"] - me) % 2, cur["cards"][0], len(o["tricks"])))
            t.play_order(plays, DECK, 2, 12)
        return t.values


CODEC = PiquetCodec()
