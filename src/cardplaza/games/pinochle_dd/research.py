"""Double-deck Pinochle for the research adapters: action numbers and tensors."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardplaza.core.protocol import Action, GameState
from cardplaza.core.registry import GameSpec, get_game
from cardplaza.games.pinochle_dd.engine import _GIVE_LIST as ENGINE_GIVES
from cardplaza.games.pinochle_dd.engine import _PLAY_LIST as ENGINE_PLAYS
from cardplaza.games.pinochle_dd.engine import _TRUMPS as ENGINE_TRUMPS
from cardplaza.games.pinochle_dd.engine import (
    BID_KINDS,
    BIDDING,
    K_GIVE,
    K_PLAY,
    K_THROW_IN,
    K_TRUMP,
    MAX_SIDE_MELD,
    MIN_BID,
    PASS,
    PASSING,
    PHASE_NAMES,
    PLAY,
    THROW_IN,
    TRUMP,
    DoubleDeckState,
    bid_kind,
)
from cardplaza.games.pinochle_dd.engine import _bid_object as bid_object
from cardplaza.games.pinochle_dd.rules import FACES, LOW20, counter_total
from cardplaza.research.core import DEFAULT_MAX_DEALS, ResearchCodec, Tensor

CARDS = 80
"""Tensor slots of a card set: face + 20 × copy (the n-th copy of a face held or played)."""


def _physical(faces: list[int]) -> list[int]:
    """The faces as cards ``face + 20 × copy``, copies numbered in order."""
    seen = [0] * FACES
    out = []
    for f in faces:
        out.append(f + FACES * seen[f])
        seen[f] += 1
    return out


def _bid_count(options: Any) -> int:
    """How many bid amounts are numbered: every whole amount from the minimum to the most
    a side can score (only the allowed ones are ever legal)."""
    return MAX_SIDE_MELD + counter_total(options.counters) - MIN_BID + 1


_PLAYS: tuple[Action, ...] = tuple(ENGINE_PLAYS)
"""The play of each face: the very objects the engine lists (it knows them by identity and
applies them at once)."""

_FIXED: tuple[Action, ...] = (*ENGINE_TRUMPS, *ENGINE_GIVES, *_PLAYS, THROW_IN)
"""The actions of the numbers from the first trump on, in order (the engine's own objects:
it knows them by identity and applies them at once)."""

_HALF_NUMBERS: dict[int, tuple[list[int], ...]] = {}


def _half_numbers(base: int) -> tuple[list[int], ...]:
    """For each 10-bit mask, the numbers ``base + f`` of its faces ``f``, ascending (never
    handed out: a list of numbers is a new list, two of these joined)."""
    table = _HALF_NUMBERS.get(base)
    if table is None:
        table = _HALF_NUMBERS[base] = tuple(
            [base + i for i in range(10) if m >> i & 1] for m in range(1024))
    return table


Tables = tuple[tuple[list[int], ...], tuple[list[int], ...], int, tuple[list[int], ...],
               tuple[list[int], ...]]
"""Per options: the play numbers of the low and high 10 faces, the throw-in's number, the
give numbers of the low and high 10 faces."""


Menu = tuple[tuple[int, ...], dict[int, Action]]
"""The numbers of the listed bids (the pass first) and their actions by number."""


class DoubleDeckCodec(ResearchCodec):
    """Numbers: 0 pass; then the bid amounts 50, 51, … (unit scale); then trump ♠ ♥ ♦ ♣;
    then pass (give) each of the 20 faces; then play each face; then the throw-in."""

    chance_at_deal_start_only = True
    """Chance deals the hands (and draws the first dealer): nothing else is left to it."""

    def __init__(self) -> None:
        super().__init__()
        self._cache: dict[Any, tuple[int, int, int, int]] = {}
        self._last: tuple[Any, tuple[int, int, int, int]] = (None, (0, 0, 0, 0))
        self._tables: dict[Any, Tables] = {}
        self._last_tables: tuple[Any, Tables | None] = (None, None)
        self._menus: dict[Any, dict[int, Menu]] = {}
        self._last_menus: tuple[Any, dict[int, Menu]] = (None, {})

    def spec(self) -> GameSpec:
        """The game this codec numbers."""
        return get_game("pinochle_dd")

    def _bases(self, options: Any) -> tuple[int, int, int, int]:
        last, bases = self._last
        if options is last:  # the same options object as the last call: no hashing
            return bases
        found = self._cache.get(options)
        if found is None:
            trump = 1 + _bid_count(options)
            found = self._cache[options] = (trump, trump + 4, trump + 4 + FACES,
                                            trump + 4 + 2 * FACES)
        self._last = (options, found)
        return found

    def _tables_of(self, options: Any) -> Tables:
        found = self._tables.get(options)
        if found is None:
            _, give, play, throw_in = self._bases(options)
            found = self._tables[options] = (
                _half_numbers(play), _half_numbers(play + 10), throw_in,
                _half_numbers(give), _half_numbers(give + 10))
        self._last_tables = (options, found)
        return found

    def numbers(self, state: GameState, player: int | None = None) -> list[int]:
        """The engine lists every kind of action in the order of its numbers (plays and
        gives by face, the throw-in after the plays, bids by amount after the pass): the
        numbers without sorting, plays and gives from the legal faces' mask."""
        if TYPE_CHECKING:  # no check at run time: called at every step
            assert isinstance(state, DoubleDeckState)
        if player is not None and player != state.current_player:
            return []
        phase = state.phase
        if phase == PLAY:
            legal = state._legal  # the last card played worked out the legal faces
            if legal is None:
                legal = state.legal_actions()
            m = state._lmask  # the legal faces (their list may not be built: not needed)
            last, tables = self._last_tables
            if tables is None or state.options is not last:
                tables = self._tables_of(state.options)
            out = tables[0][m & 1023] + tables[1][m >> 10]
            if legal and legal[-1] is THROW_IN:  # only in a built list (the first lead)
                out.append(tables[2])
            return out
        if phase == PASSING:  # any face of the giver's hand
            m = state.hands[state.giver] & LOW20
            last, tables = self._last_tables
            if tables is None or state.options is not last:
                tables = self._tables_of(state.options)
            return tables[3][m & 1023] + tables[4][m >> 10]
        if phase == BIDDING:  # the pass, then bids by amount
            return [*self._menu(state)[0]]
        if phase == TRUMP:
            trump = self._bases(state.options)[0]
            return [trump, trump + 1, trump + 2, trump + 3]
        return super().numbers(state)

    def _menu(self, state: DoubleDeckState) -> Menu:
        """The numbers of the listed bids over the state's high bid (the pass first) and
        their actions by number, worked out once per options and high bid."""
        last, menus = self._last_menus
        if state.options is not last:
            menus = self._menus.setdefault(state.options, {})
            self._last_menus = (state.options, menus)
        found = menus.get(state.high_bid)
        if found is None:
            k = state.k
            listed = state.legal_actions()
            numbers = tuple(0 if a[1] == 0 else 1 - MIN_BID + a[1] // k  # type: ignore[index]
                            for a in listed)
            found = menus[state.high_bid] = (numbers, dict(zip(numbers, listed, strict=True)))
        return found

    def num_actions(self, options: Any) -> int:
        """Pass, the bids, 4 trumps, 20 gives, 20 plays and the throw-in."""
        return self._bases(options)[3] + 1

    def encode(self, state: GameState, action: Action) -> int:
        """The number of an action."""
        assert isinstance(state, DoubleDeckState) and isinstance(action, tuple)
        kind: int = action[0]
        value: int = action[1]
        trump, give, play, throw_in = self._bases(state.options)
        if kind in BID_KINDS:
            return 0 if value == 0 else 1 + value // state.k - MIN_BID
        if kind == K_THROW_IN:
            return throw_in
        return {K_TRUMP: trump, K_GIVE: give, K_PLAY: play}[kind] + value

    def fixed_actions(self, options: Any) -> tuple[int, Sequence[Action]]:
        """Trumps, gives, plays and the throw-in: every number past the bids (one run)."""
        return self._bases(options)[0], _FIXED

    def decode(self, state: GameState, number: int) -> Action:
        """The action of a number (a bid above the lowest one is a jump bid)."""
        assert isinstance(state, DoubleDeckState)
        trump, give, play, throw_in = self._bases(state.options)
        if number == 0:
            return PASS
        if 0 < number < trump:
            if state.phase == BIDDING:
                listed = self._menu(state)[1].get(number)
                if listed is not None:  # one of the listed bids
                    return listed
            amount = MIN_BID + number - 1
            # the listed bids' own objects (the engine knows them by identity)
            return bid_object(bid_kind(amount, state.high_bid, state.steps), amount * state.k)
        if number == throw_in:
            return (K_THROW_IN, 0)
        for base, kind, end in ((trump, K_TRUMP, give), (give, K_GIVE, play),
                                (play, K_PLAY, throw_in)):
            if base <= number < end:
                return (kind, number - base)
        raise ValueError(f"{number} is not a double-deck Pinochle action number")

    def max_chance_outcomes(self, options: Any) -> int:
        """The 80 cards shuffled for a deal."""
        return CARDS

    def shuffle_tail(self, options: Any, items: int) -> int:
        """The deal's last 20 places are the fourth hand's: its cards are what is left once
        the other 60 are dealt."""
        return 20 if items == 80 else 1

    def max_game_length(self, options: Any, max_deals: int | None = None) -> int:
        """Per deal: the 80 cards dealt (60 chance nodes: the last hand is what is left;
        one more for the first dealer), the bids (every seat passes at
        most once and every other bid raises the last, so at most one bid per amount up to
        the highest, meld bids included), trump, the cards passed both ways, a throw-in and
        the 80 cards played; at most ``max_deals`` deals (redeals count)."""
        bids = 4 + (MAX_SIDE_MELD + 50 - MIN_BID + 1)
        per_deal = 61 + bids + 1 + 2 * int(options.pass_count) + 1 + 80
        return (DEFAULT_MAX_DEALS if max_deals is None else max_deals) * per_deal

    def tensor(self, observation: dict[str, Any], options: Any,
               perfect_recall: bool) -> list[float]:
        """Own hand (80 slots: the n-th copy of each face); phase; seat to act, dealer,
        declarer and high bidder (from the observer on); high bid, contract and next bid as
        shares of the highest bid; who has passed; trump; cards passed (given, received,
        chosen); each seat's meld cards and value, card in the current trick and tricks won;
        cards played; each side's score as a share of the target; with perfect recall the
        deal's order of play and each seat's last bid."""
        o = observation
        me = o["seat"]
        top = o["max_bid"]

        def rel(seat: int | None) -> int | None:
            return None if seat is None or seat < 0 else (seat - me) % 4

        t = Tensor()
        t.cards(_physical(o["hand"]), CARDS)
        t.one_hot(PHASE_NAMES.index(o["phase"]), len(PHASE_NAMES))
        for seat in (o["to_act"], o["dealer"], o["bidder"], o["high_bidder"]):
            t.one_hot(rel(seat), 4)
        t.value((o["high_bid"] or 0) / top)
        t.value((o["contract"] or 0) / top)
        t.value((o["next_bid"] or 0) / top)
        for s in range(4):
            t.value(1.0 if o["passed"][(me + s) % 4] else 0.0)
        t.one_hot(o["trump"], 4)
        passing = o["passing"]
        for key in ("gave", "received", "selected"):
            t.cards(_physical(passing[key]), CARDS)
        melds = o["melds"]
        trick = dict(o["trick"])
        scale = o["scale"]
        for i in range(4):
            s = (me + i) % 4
            t.cards(_physical(melds[s]["cards"]) if melds else [], CARDS)
            t.value(melds[s]["value"] / (300 * scale) if melds else 0.0)
            t.one_hot(trick.get(s), FACES)
            t.value(o["tricks_won"][s] / 20)
        t.cards(_physical([f for tr in o["tricks"] for _, f in tr["cards"]]), CARDS)
        for i in range(2):
            t.value(o["scores"][(me + i) % 2] / o["target"])
        if perfect_recall:
            seen = [0] * FACES
            plays = []
            for n, tr in enumerate([*o["tricks"], {"cards": o["trick"]}]):
                for s, f in tr["cards"]:
                    plays.append(((s - me) % 4, f + FACES * seen[f], n))
                    seen[f] += 1
            t.play_order(plays, CARDS, 4, 20)
            last = [0.0] * 4
            for s, amount in o["bids"]:
                last[(s - me) % 4] = amount / top
            t.values += last
        return t.values


CODEC = DoubleDeckCodec()
