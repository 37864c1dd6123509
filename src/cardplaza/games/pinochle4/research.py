"""Partnership and cut-throat Pinochle for the research adapters: action numbers, tensors."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from cardplaza.core.protocol import Action, GameState
from cardplaza.core.registry import GameSpec, get_game
from cardplaza.games.pinochle4.engine import (
    BIDDING,
    DISCARD,
    K_BID,
    K_DISCARD,
    K_GIVE,
    K_JUMP,
    K_PLAY,
    K_TRUMP,
    PASSING,
    PHASE_NAMES,
    PLAY,
    PLAY_ACTIONS,
    TRUMP,
    PinochleState,
)
from cardplaza.games.pinochle4.rules import max_side_score
from cardplaza.research.core import DEFAULT_MAX_DEALS, ResearchCodec, Tensor

DECK = 48


def _bids(options: Any, players: int) -> tuple[int, int, int]:
    """(lowest bid, step, number of bid amounts) in the active units."""
    div = 10 if options.one_point else 1
    step = 1 if options.one_point else 10
    low = options.min_bid // div
    return low, step, (max_side_score(players, options.one_point) - low) // step + 1


_FIXED: tuple[Action, ...] = (*[(K_TRUMP, s) for s in range(4)],
                               *[(K_GIVE, c) for c in range(DECK)],
                               *[(K_DISCARD, c) for c in range(DECK)], *PLAY_ACTIONS)
"""The actions of the numbers from the first trump on, in order (the plays are the engine's
own objects, which it knows by identity)."""

_Tables = tuple[tuple[tuple[int, ...], ...], ...]
_CARD_NUMBERS: dict[int, _Tables] = {}


def _card_numbers(base: int) -> _Tables:
    """For each 12-bit quarter of a card mask, the numbers of its cards' actions of one
    kind (that of card ``c`` is number ``base + c``)."""
    tables = _CARD_NUMBERS.get(base)
    if tables is None:
        tables = _CARD_NUMBERS[base] = tuple(
            tuple(tuple(base + 12 * k + i for i in range(12) if m >> i & 1)
                  for m in range(4096))
            for k in range(4))
    return tables


class PinochleCodec(ResearchCodec):
    """Numbers: 0 pass; then every bid amount from the minimum to the highest legal bid;
    then trump ♠ ♥ ♦ ♣; then give, discard and play of each of the 48 cards."""

    chance_at_deal_start_only = True
    """Chance deals the hands and the widow (and draws the first dealer): a redeal and the
    next hand both begin a deal, and the game ends at its deal limit before either."""

    def __init__(self, name: str, players: int) -> None:
        super().__init__()
        self.name = name
        self.players = players
        self._cache: dict[Any, tuple[int, int, int, int, int]] = {}
        self._last: tuple[Any, tuple[int, int, int, int, int]] = (None, (0, 0, 0, 0, 0))
        self._last_tables: tuple[Any, tuple[_Tables, _Tables, _Tables]] = (None, ((), (), ()))

    def spec(self) -> GameSpec:
        """The variant this codec numbers."""
        return get_game(self.name)

    def _bases(self, options: Any) -> tuple[int, int, int, int, int]:
        if options is self._last[0]:
            return self._last[1]
        bases = self._cache.get(options)
        if bases is None:
            count = _bids(options, self.players)[2]
            trump = 1 + count
            bases = self._cache[options] = (trump, trump + 4, trump + 4 + DECK,
                                            trump + 4 + 2 * DECK, trump + 4 + 3 * DECK)
        self._last = (options, bases)
        return bases

    def _tables(self, options: Any) -> tuple[_Tables, _Tables, _Tables]:
        """The card number tables of gives, discards and plays (:func:`_card_numbers`)."""
        last, tables = self._last_tables
        if options is not last:
            _, give, discard, play, _ = self._bases(options)
            tables = (_card_numbers(give), _card_numbers(discard), _card_numbers(play))
            self._last_tables = (options, tables)
        return tables

    def num_actions(self, options: Any) -> int:
        """Pass, the bids, 4 trumps and 3 × 48 card actions."""
        return self._bases(options)[4]

    def encode(self, state: GameState, action: Action) -> int:
        """The number of an action."""
        state = cast(PinochleState, state)
        assert isinstance(action, tuple)
        kind: int = action[0]
        value: int = action[1]
        if kind in (K_BID, K_JUMP):
            return 0 if value == 0 else 1 + (value - state.min_bid) // state.step
        # The bases are listed in the order of the kinds trump, give, discard, play.
        return self._bases(state.options)[kind - K_TRUMP] + value

    def deal_may_end(self, state: GameState) -> bool:
        """The last card of a hand."""
        if TYPE_CHECKING:  # no check at run time: called at every step
            assert isinstance(state, PinochleState)
        return (state.phase == PLAY and len(state.trick) == state.n - 1
                and state.hands[state.turn].bit_count() == 1)

    def numbers(self, state: GameState, player: int | None = None) -> list[int]:
        """The engine lists every kind of action in the order of its numbers (cards in card
        order, the pass before a bid): the numbers without sorting, cards from a mask."""
        if TYPE_CHECKING:  # no check at run time: called at every step
            assert isinstance(state, PinochleState)
        if player is not None and player != state.current_player:
            return []
        phase = state.phase
        if phase == PLAY:
            m = state._lmask or state._play_mask()  # the legal cards (no action list)
            last, tables = self._last_tables
            t0, t1, t2, t3 = (tables if state.options is last else
                              self._tables(state.options))[2]
        elif phase == PASSING:  # any card of the giver's hand
            m = state.hands[state.giver]
            t0, t1, t2, t3 = self._tables(state.options)[0]
        elif phase == DISCARD:  # any card of the bidder's hand
            m = state.hands[state.bidder]
            t0, t1, t2, t3 = self._tables(state.options)[1]
        elif phase == BIDDING:
            legal = state.legal_actions()
            if len(legal) == 1:
                return [0]
            amount: int = legal[1][1]  # type: ignore[index]
            return [0, 1 + (amount - state.min_bid) // state.step]
        elif phase == TRUMP:
            trump = self._bases(state.options)[0]
            return [trump, trump + 1, trump + 2, trump + 3]
        else:
            return super().numbers(state)
        return [*t0[m & 4095], *t1[m >> 12 & 4095], *t2[m >> 24 & 4095], *t3[m >> 36]]

    def shuffle_tail(self, options: Any, items: int) -> int:
        """The deal's last places go to one holder: the fourth hand's 12 (partnership),
        the widow's 3 (cut-throat); their cards are what is left once the others are
        dealt."""
        if items != DECK:
            return 1
        return 12 if self.players == 4 else 3

    def max_game_length(self, options: Any, max_deals: int | None = None) -> int:
        """The first dealer drawn, then per deal: the 48 cards dealt (36 chance nodes with
        four hands, 45 with three: the last hand or the widow is what is left), the
        bids (every seat passes at most once and every other bid raises the last, so at
        most one bid per amount), trump, the cards passed (four hands) or discarded
        (cut-throat) and every card played; at most ``max_deals`` deals (redeals count)."""
        n = self.players
        bids = n + _bids(options, n)[2]
        passing = 2 * options.passing if n == 4 else 3
        dealt = DECK - self.shuffle_tail(options, DECK)
        per_deal = dealt + bids + 1 + passing + (48 if n == 4 else 45)
        return 1 + (DEFAULT_MAX_DEALS if max_deals is None else max_deals) * per_deal

    def fixed_actions(self, options: Any) -> tuple[int, Sequence[Action]]:
        """Trumps, gives, discards and plays: every number past the bids (one run)."""
        return self._bases(options)[0], _FIXED

    def decode(self, state: GameState, number: int) -> Action:
        """The action of a number (a bid above the lowest one is a jump bid)."""
        state = cast(PinochleState, state)
        trump, give, discard, play, end = self._bases(state.options)
        if play <= number < end:
            return PLAY_ACTIONS[number - play]
        if number == 0:
            return (K_BID, 0)
        if 0 < number < trump:
            amount = state.min_bid + (number - 1) * state.step
            return (K_BID if amount == state.next_bid_min() else K_JUMP, amount)
        for base, kind in ((play, K_PLAY), (discard, K_DISCARD), (give, K_GIVE),
                           (trump, K_TRUMP)):
            if base <= number < end:
                return (kind, number - base)
            end = base
        raise ValueError(f"{number} is not a Pinochle action number")

    def tensor(self, observation: dict[str, Any], options: Any,
               perfect_recall: bool) -> list[float]:
        """Own hand; phase; seat to act, dealer, bidder and high bidder (from the observer
        on); bids so far, the contract and the minimum as shares of the highest bid; who
        has passed; trump; cards passed (given, received, chosen); widow and discards; each
        seat's meld cards and value, card in the current trick and tricks won; cards played;
        each side's score as a share of the target; with perfect recall the deal's order of
        play and each seat's last bid."""
        o = observation
        n, me = o["players"], o["seat"]
        top = o["max_bid"]

        def rel(seat: int | None) -> int | None:
            return None if seat is None or seat < 0 else (seat - me) % n

        t = Tensor()
        t.cards(o["hand"], DECK)
        t.one_hot(PHASE_NAMES.index(o["phase"]), len(PHASE_NAMES))
        for seat in (o["to_act"], o["dealer"], o["bidder"], o["high_bidder"]):
            t.one_hot(rel(seat), n)
        t.value((o["high_bid"] or 0) / top)
        t.value((o["contract"] or 0) / top)
        t.value(o["min_bid"] / top)
        for s in range(n):
            t.value(1.0 if o["passed"][(me + s) % n] else 0.0)
        t.one_hot(o["trump"], 4)
        passing = o["passing"] or {}
        for key in ("gave", "received", "selected"):
            t.cards(passing.get(key), DECK)
        t.cards(o["widow"], DECK)
        t.cards(o["discards"], DECK)
        melds = o["melds"]
        trick = dict(o["trick"])
        for i in range(n):
            s = (me + i) % n
            t.cards(melds[s]["cards"] if melds else [], DECK)
            t.value(melds[s]["value"] / 1000 if melds else 0.0)
            t.cards([trick[s]] if s in trick else [], DECK)
            t.value(o["tricks_won"][s] / 15)
        t.cards([c for tr in o["tricks"] for _, c in tr["cards"]], DECK)
        scores = o["scores"]
        for i in range(len(scores)):
            t.value(scores[(me + i) % len(scores)] / o["target"])
        if perfect_recall:
            plays = [((s - me) % n, c, i) for i, tr in enumerate(o["tricks"])
                     for s, c in tr["cards"]]
            plays += [((s - me) % n, c, len(o["tricks"])) for s, c in o["trick"]]
            t.play_order(plays, DECK, n, 48 // n)
            last = [0.0] * n
            for s, amount in o["bids"]:
                last[(s - me) % n] = amount / top
            t.values += last
        return t.values


CODEC4 = PinochleCodec("pinochle4", 4)
CODEC3 = PinochleCodec("pinochle3", 3)
