"""Partnership and cut-throat Pinochle for the research adapters: action numbers, tensors."""

from __future__ import annotations

from typing import Any

from cardplaza.core.protocol import Action, GameState
from cardplaza.core.registry import GameSpec, get_game
from cardplaza.games.pinochle4.engine import (
    K_BID,
    K_DISCARD,
    K_GIVE,
    K_JUMP,
    K_PLAY,
    K_TRUMP,
    PHASE_NAMES,
    PinochleState,
)
from cardplaza.games.pinochle4.rules import max_side_score
from cardplaza.research.core import ResearchCodec, Tensor

DECK = 48


def _bids(options: Any, players: int) -> tuple[int, int, int]:
    """(lowest bid, step, number of bid amounts) in the active units."""
    div = 10 if options.one_point else 1
    step = 1 if options.one_point else 10
    low = options.min_bid // div
    return low, step, (max_side_score(players, options.one_point) - low) // step + 1


class PinochleCodec(ResearchCodec):
    """Numbers: 0 pass; then every bid amount from the minimum to the highest legal bid;
    then trump ♠ ♥ ♦ ♣; then give, discard and play of each of the 48 cards."""

    def __init__(self, name: str, players: int) -> None:
        super().__init__()
        self.name = name
        self.players = players

    def spec(self) -> GameSpec:
        """The variant this codec numbers."""
        return get_game(self.name)

    def _bases(self, options: Any) -> tuple[int, int, int, int, int]:
        count = _bids(options, self.players)[2]
        trump = 1 + count
        return trump, trump + 4, trump + 4 + DECK, trump + 4 + 2 * DECK, trump + 4 + 3 * DECK

    def num_actions(self, options: Any) -> int:
        """Pass, the bids, 4 trumps and 3 × 48 card actions."""
        return self._bases(options)[4]

    def encode(self, state: GameState, action: Action) -> int:
        """The number of an action."""
        assert isinstance(state, PinochleState) and isinstance(action, tuple)
        kind: int = action[0]
        value: int = action[1]
        trump, give, discard, play, _ = self._bases(state.options)
        if kind in (K_BID, K_JUMP):
            return 0 if value == 0 else 1 + (value - state.min_bid) // state.step
        return {K_TRUMP: trump, K_GIVE: give, K_DISCARD: discard, K_PLAY: play}[kind] + value

    def decode(self, state: GameState, number: int) -> Action:
        """The action of a number (a bid above the lowest one is a jump bid)."""
        assert isinstance(state, PinochleState)
        trump, give, discard, play, end = self._bases(state.options)
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
