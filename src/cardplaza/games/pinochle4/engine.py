"""Partnership Pinochle (four hands) and cut-throat Pinochle (three hands): the engine.

See the package docstring for the observation schema and the action forms.
"""

from __future__ import annotations

import operator
import random
from collections import deque as _consume
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Any, ClassVar, Literal

from cardplaza.core.cards import PINOCHLE, CardParseError, bit_list, chunk_tables
from cardplaza.core.options import options_to_dict
from cardplaza.core.protocol import (
    JSON,
    TERMINAL,
    Action,
    ActionParseError,
    GameState,
    safe_repr,
)
from cardplaza.games.pinochle4.meld import MeldResult, meld_breakdown, meld_total
from cardplaza.games.pinochle4.rules import (
    ABOVE,
    BEATERS,
    SUIT_MASK,
    SUIT_OF,
    SUIT_SYMBOLS,
    card_text,
    cards_text,
    counter_table,
    deal,
    legal_play_mask,
    mask_points,
    max_side_score,
    suit_of,
    winning_card,
)
from cardplaza.games.pinochle_common.actions import ActionForms, PinochleActionText
from cardplaza.games.pinochle_common.display import DISPLAY as _DISPLAY
from cardplaza.games.pinochle_common.display import display_order as _display_order
from cardplaza.games.pinochle_common.trick import KeptTrick

# -- options ------------------------------------------------------------------------------

STRENGTHS = ("weak", "normal", "strong", "expert")
TARGETS = (500, 1000, 1500, 2000, 2500)
MIN_BIDS = (250, 200, 150, 100)
SCHEMES = ("A", "B", "C")


def _check_common(o: Any) -> None:
    if o.strength not in STRENGTHS:
        raise ValueError(f"strength must be one of {', '.join(STRENGTHS)}; got {o.strength!r}")
    if o.target not in TARGETS:
        raise ValueError(f"target must be one of {TARGETS}; got {o.target!r}")
    if o.counters not in SCHEMES:
        raise ValueError(f"counters must be one of A, B, C; got {o.counters!r}")
    if o.min_bid not in MIN_BIDS:
        raise ValueError(f"min_bid must be one of {MIN_BIDS}; got {o.min_bid!r}")
    for name in ("one_point", "beat_only_trump_leads", "extra_kq", "all_pass_redeal"):
        if not isinstance(getattr(o, name), bool):
            raise ValueError(f"{name} must be on or off")
    if o.one_point and o.counters != "A":
        raise ValueError("1-point counting (one_point) is only available with counter scheme A "
                         f"(DECISION P-39); scheme {o.counters} needs 10-point counting")


@dataclass(frozen=True)
class Options:
    """Partnership Pinochle options (spec section 16; O10 is the separate game pinochle3)."""

    strength: Literal["weak", "normal", "strong", "expert"] = "normal"
    """O1 computer strength (stored for front ends)."""
    target: Literal[500, 1000, 1500, 2000, 2500] = 1500
    """O2 target score (in 10-point units; divided by 10 with 1-point counting)."""
    one_point: bool = False
    """O3 1-point counting (every value divided by 10; scheme A only)."""
    counters: Literal["A", "B", "C"] = "A"
    """O8 counter scheme."""
    min_bid: Literal[250, 200, 150, 100] = 250
    """O9 minimum bid (10-point units)."""
    passing: Literal[4, 3, 0] = 4
    """O4 cards passed each way between the bid winner and partner."""
    beat_only_trump_leads: bool = False
    """O5 must beat only on trump leads."""
    extra_kq: bool = True
    """O6 an extra trump K/Q with a run counts (190/230)."""
    all_pass_redeal: bool = False
    """O7 the dealer may pass too; four passes redeal."""

    def __post_init__(self) -> None:
        _check_common(self)
        if self.passing not in (4, 3, 0):
            raise ValueError(f"passing must be 4, 3 or 0; got {self.passing!r}")


@dataclass(frozen=True)
class CutthroatOptions:
    """Cut-throat options: all partnership options except passing (DECISION C-11)."""

    strength: Literal["weak", "normal", "strong", "expert"] = "normal"
    """O1 computer strength (stored for front ends)."""
    target: Literal[500, 1000, 1500, 2000, 2500] = 1500
    """O2 target score."""
    one_point: bool = False
    """O3 1-point counting (scheme A only)."""
    counters: Literal["A", "B", "C"] = "A"
    """O8 counter scheme."""
    min_bid: Literal[250, 200, 150, 100] = 250
    """O9 minimum bid."""
    beat_only_trump_leads: bool = False
    """O5 must beat only on trump leads."""
    extra_kq: bool = True
    """O6 an extra trump K/Q with a run counts."""
    all_pass_redeal: bool = False
    """O7 the dealer may pass too; three passes redeal."""

    def __post_init__(self) -> None:
        _check_common(self)


_FROZEN_OPTIONS = (Options, CutthroatOptions)

# -- constants ----------------------------------------------------------------------------

BIDDING, TRUMP, PASSING, DISCARD, PLAY, OVER = range(6)
PHASE_NAMES = ("bidding", "trump", "passing", "discard", "play", "over")
K_BID, K_TRUMP, K_GIVE, K_DISCARD, K_PLAY, K_JUMP = range(6)
KIND_NAMES = ("bid", "trump", "give", "discard", "play", "bid")
PASS: tuple[int, int] = (K_BID, 0)
_FORMS = ActionForms(
    kind_names=KIND_NAMES, bid_kinds=frozenset((K_BID, K_JUMP)),
    card_verbs={"give": K_GIVE, "pass": K_GIVE, "discard": K_DISCARD, "play": K_PLAY},
    bid_example="260", over_phase=OVER, play_kind=K_PLAY,
    card_kind_by_phase={PASSING: K_GIVE, DISCARD: K_DISCARD},
    card_verb_texts={K_GIVE: "give", K_DISCARD: "discard"})
"""Longer numbers in a typed action are refused before they are converted."""


_PLAYS = [(K_PLAY, c) for c in range(48)]


def _chunk12(actions: Sequence[Action], offset: int) -> tuple[tuple[Action, ...], ...]:
    return tuple(tuple(actions[offset + i] for i in range(12) if m >> i & 1)
                 for m in range(4096))


_PLAY0, _PLAY1, _PLAY2, _PLAY3 = (_chunk12(_PLAYS, 12 * k) for k in range(4))
"""The play actions of each 12-bit quarter of a card mask."""
_GIVE_ACTIONS = [(K_GIVE, c) for c in range(48)]
_GIVE0, _GIVE1, _GIVE2, _GIVE3 = (_chunk12(_GIVE_ACTIONS, 12 * k) for k in range(4))
"""The same for the cards passed."""
_SUIT_PLAYS: dict[int, tuple[Action, ...]] = {
    sum(1 << c for c in cards): tuple(_PLAYS[c] for c in cards)
    for suit_cards in ([c for c in range(48) if c % 24 // 6 == s] for s in range(4))
    for cards in ([suit_cards[i] for i in range(12) if m >> i & 1] for m in range(1, 4096))}
"""The play actions of any cards of one suit in card order, by their mask."""
_LED_MASK = tuple(SUIT_MASK[c % 24 // 6] for c in range(48))
"""The cards of each card's suit."""
_PLAY_CARD = {id(a): a[1] for a in _PLAYS}
_BIT = tuple(1 << c for c in range(48))
_SEAT_PLAYS = tuple(tuple((seat, a) for a in _PLAYS) for seat in range(4))
"""The history entry of each seat's play of each card (made once)."""
PLAY_ACTIONS: tuple[Action, ...] = tuple(_PLAYS)
"""The play action of each card, the very objects :meth:`PinochleState.legal_actions`
lists (applying one of them takes the shortest path)."""
"""The card of each play action that :meth:`PinochleState.legal_actions` hands out."""
_DISCARD_ACTIONS = [(K_DISCARD, c) for c in range(48)]
_DISCARDS = chunk_tables(_DISCARD_ACTIONS)
_CARD_CODE = {**_PLAY_CARD, **{id(a): 48 + a[1] for a in _GIVE_ACTIONS},
              **{id(a): 96 + a[1] for a in _DISCARD_ACTIONS}}
"""By identity, the code of every card action :meth:`PinochleState.legal_actions` hands
out: a play is its card, a give 48 + card, a discard 96 + card (and a trump 144 + suit,
below)."""


def _listed(tables: tuple[tuple[tuple[Action, ...], ...], ...], m: int) -> list[Action]:
    t0, t1, t2, t3, t4, t5 = tables
    return [*t0[m & 255], *t1[m >> 8 & 255], *t2[m >> 16 & 255], *t3[m >> 24 & 255],
            *t4[m >> 32 & 255], *t5[m >> 40]]


_TRUMPS: list[Action] = [(K_TRUMP, s) for s in range(4)]
_CARD_CODE.update({id(a): 144 + a[1] for a in _TRUMPS})  # type: ignore[index]
_BID_CODE = 1 << 20
"""The code of the pass; a listed bid's is this + its amount."""
_BIDS: dict[int, Action] = {0: PASS}
_CARD_CODE[id(PASS)] = _BID_CODE


def _bid_action(amount: int) -> Action:
    """The one object of the lowest bid ``amount`` that legal_actions() lists (its code is
    known to apply)."""
    action = _BIDS.get(amount)
    if action is None:
        action = _BIDS[amount] = (K_BID, amount)
        _CARD_CODE[id(action)] = _BID_CODE + amount
    return action


def _sorted_cards(mask: int) -> list[int]:
    """Cards of a mask in display order: suit ♠♥♦♣, strength high to low (a new list)."""
    return [*(_DISPLAY.get(mask) or _display_order(mask))]


_JSON_MOST = 1 << 12
"""Entries the memos of JSON forms below keep at most (each starts again when full)."""
_MELD_JSON: dict[int, tuple[MeldResult, dict[str, object]]] = {}
"""By identity, the JSON form of each meld shown lately (kept with the meld itself, so the
identity is not taken by another object while the entry lasts)."""


def _meld_json(meld: MeldResult, n: int = 0) -> dict[str, object]:
    """``meld.to_json()``, made once per meld (a frozen value) and shared by the
    observations that show it: never change it."""
    kept = _MELD_JSON.get(id(meld))
    if kept is not None and kept[0] is meld:
        return kept[1]
    data = meld.to_json()
    if type(meld) is MeldResult:
        if len(_MELD_JSON) >= _JSON_MOST:
            _MELD_JSON.clear()
        _MELD_JSON[id(meld)] = (meld, data)
    return data


_TRICK_JSON: dict[int, tuple[tuple[Any, ...], int, dict[str, Any]]] = {}
"""By identity, the JSON form of each finished trick ``(leader, cards, winner)`` met lately
(kept with the trick and the number of seats)."""


def _trick_json(trick: tuple[Any, ...], n: int) -> dict[str, Any]:
    """The observation's form of a finished trick, made once per trick while its cards are
    a tuple (nothing in it can change) and shared: never change it."""
    kept = _TRICK_JSON.get(id(trick))
    if kept is not None and kept[0] is trick and kept[1] == n:
        return kept[2]
    ld, cs, w = trick
    data = {"leader": ld, "cards": [[(ld + i) % n, c] for i, c in enumerate(cs)], "winner": w}
    if type(trick) is tuple and type(cs) is tuple:
        if len(_TRICK_JSON) >= _JSON_MOST:
            _TRICK_JSON.clear()
        _TRICK_JSON[id(trick)] = (trick, n, data)
    return data


def _bid_json(bid: tuple[int, int], n: int = 0) -> list[int]:
    return list(bid)


_Kept = tuple[tuple[Any, ...], int, tuple[Any, ...], tuple[int, ...]]
"""The entries of a list of a state (its finished tricks, the auction, the melds), the
number of seats, the entries' JSON forms and (tricks) the tricks won by each seat."""
_TRICKS: dict[int, _Kept] = {}
_BIDS_JSON: dict[int, _Kept] = {}
_MELDS: dict[int, _Kept] = {}
"""By identity of a list's last entry, while it holds those very entries (a hand's tricks
and bids only grow, its melds are set once; each entry is kept, so its identity is not
taken by another object while it lasts). Every seat's observation at every step reads
them again, and the copy each action is played on has new lists holding the same
entries: found by the last entry, or, one entry longer, made from the list without it."""


def _frozen(memo: dict[int, _Kept], entries: Sequence[Any]) -> bool:
    """True when nothing in ``entries`` can change (their JSON forms may then be kept)."""
    if memo is _TRICKS:
        return all(type(t) is tuple and type(t[1]) is tuple for t in entries)
    if memo is _MELDS:
        return all(type(m) is MeldResult for m in entries)
    return all(type(b) is tuple for b in entries)


def _kept_list(memo: dict[int, _Kept], items: list[Any], n: int,
               make: Callable[[Any, int], Any]) -> _Kept:
    """``memo``'s entry for ``items``: found, made from the entry of the list one entry
    shorter, or made afresh."""
    size = len(items)
    if not size:
        return (), n, (), (0,) * n
    kept = memo.get(id(items[-1]))
    if kept is not None and kept[1] == n and len(kept[0]) == size and all(
            map(operator.is_, kept[0], items)):
        return kept
    base = memo.get(id(items[-2])) if size > 1 else None
    if base is not None and not (base[1] == n and len(base[0]) == size - 1 and all(
            map(operator.is_, base[0], items))):
        base = None
    src = (*items,)
    if base is None:
        added, forms, counted = src, (), (0,) * n
        frozen = _frozen(memo, src)
    else:  # the list without its last entry is kept: only that entry is new
        added, forms, counted = src[-1:], base[2], base[3]
        frozen = _frozen(memo, added)
    won = [*counted]
    if memo is _TRICKS:
        for t in added:
            won[t[2]] += 1
    kept = (src, n, forms + tuple(make(x, n) for x in added), tuple(won))
    if frozen:
        if len(memo) >= _JSON_MOST:
            memo.clear()
        memo[id(src[-1])] = kept
    return kept


_PASSED = tuple(tuple(tuple(bool(m >> s & 1) for s in range(n)) for m in range(1 << n))
                for n in range(5))
"""For ``n`` seats and a mask of those who passed, each seat's flag."""
_OPTIONS: list[Any] = [None, None]
"""The options object last shown and its dict (frozen options whose dict holds no
lists)."""


def is_throw_in(side_meld: int, contract: int, trick_total: int = 250) -> bool:
    """Section 10: the bidding side's meld + all trick points cannot reach the bid."""
    return side_meld + trick_total < contract


def hand_scores(contract: int, bidder_side: int, side_melds: Sequence[int],
                trick_points: Sequence[int] | None) -> tuple[list[int], bool]:
    """Score change of every side for one hand (section 13 / 19.8) and whether it was made.

    ``trick_points`` is None for a throw-in. Sides are teams (four hands) or seats.
    """
    sides = len(side_melds)
    delta = [0] * sides
    if trick_points is None:
        for side in range(sides):
            delta[side] = -contract if side == bidder_side else side_melds[side]
        return delta, False
    made = side_melds[bidder_side] + trick_points[bidder_side] >= contract
    for side in range(sides):
        if side == bidder_side:
            delta[side] = side_melds[side] + trick_points[side] if made else -contract
        else:
            delta[side] = side_melds[side] + trick_points[side] if trick_points[side] > 0 else 0
    return delta, made


def game_winner(scores: Sequence[int], bidder_side: int, target: int) -> int:
    """Section 14 / 19.9: winning side after a hand, or -1 if the game goes on."""
    reached = [s for s in range(len(scores)) if scores[s] >= target]
    if not reached:
        return -1
    if bidder_side in reached:
        return bidder_side
    best = max(scores[s] for s in reached)
    tops = [s for s in reached if scores[s] == best]
    return tops[0] if len(tops) == 1 else -1


_SLOTS = (
    "_beat_only_trump_leads", "_last_hand", "_last_src", "_legal", "_lmask", "_meld_hands",
    "_melds", "_next", "_nlast", "_trick", "_win", "_wpos", "bidder", "bids", "contract",
    "counters", "dealer",
    "discards", "div", "given", "giver", "hand_no", "hands", "high_bid", "high_bidder",
    "is_terminal", "last_bonus", "leader", "log", "max_bid", "meld_totals", "min_bid", "n",
    "npass", "passed", "pending", "phase", "scores", "step", "stuck", "target",
    "trick_total", "tricks", "trump", "turn", "widow", "widow_cards", "winner", "won",
    "history", "options", "seed", "num_players", "_rng", "_rng_shared")
"""The state's attributes (held in slots: a driver reads them at every step)."""
_slot_values = operator.attrgetter(*_SLOTS)
_NEXT_SEAT = {n: (*range(1, n), 0) for n in (3, 4)}
"""For ``n`` seats, the seat after each (clockwise)."""

Fixed = tuple[int, int, int, int, int, int, int, int, tuple[int, ...], bool, int]


def _fixed(n: int, opts: Any) -> Fixed:
    """``n``, the unit divisor, the bid step, the lowest and the highest bid (the most a
    side can ever score in a hand), the target, the trick points of a hand, the last-trick
    bonus, the counter table, O5 and the cards passed each way, for ``n`` hands and
    ``opts``."""
    div = 10 if opts.one_point else 1
    return (n, div, 1 if opts.one_point else 10, opts.min_bid // div,
            max_side_score(n, opts.one_point), opts.target // div, 250 // div, 10 // div,
            counter_table(opts.counters, opts.one_point), opts.beat_only_trump_leads,
            getattr(opts, "passing", 0) if n == 4 else 0)


_last_fixed: tuple[Any, Any, Fixed] = (None, None, _fixed(4, Options()))
"""The class, the options object and the fixed values of the last state made (a game
made with the very same options object again takes them as they are)."""


class PinochleState(KeptTrick, PinochleActionText, GameState):
    """A whole game of partnership Pinochle (many hands, until the target)."""

    game_name: ClassVar[str] = "pinochle4"
    FORMS: ClassVar[ActionForms] = _FORMS
    PLAYERS: ClassVar[int] = 4
    __slots__ = _SLOTS
    _BEATERS = BEATERS
    _legal: list[Action] | tuple[Action, ...] | None
    """The legal actions of this position once worked out (a tuple: the plays of one suit
    that apply left, listed when asked)."""
    is_terminal: bool
    """True when the game is over: set together with the phase ``OVER`` (an attribute, not
    a property, since every step of a driver reads it)."""

    def __init__(self, options: Any = None, seed: int = 0, *, _blank: bool = False) -> None:
        opts = options if options is not None else self.default_options()
        self.is_terminal = False
        self._legal = None
        n = self.PLAYERS
        super().__init__(opts, seed, n)
        global _last_fixed
        last_cls, last_opts, fixed = _last_fixed
        if last_cls is not type(self) or last_opts is not opts:
            fixed = _fixed(n, opts)
            _last_fixed = (type(self), opts, fixed)
        (self.n, self.div, self.step, self.min_bid, self.max_bid, self.target,
         self.trick_total, self.last_bonus, self.counters, self._beat_only_trump_leads,
         self.npass) = fixed
        self._next = _NEXT_SEAT[n]
        self._nlast = n - 1
        self.scores = [0, 0] if n == 4 else [0, 0, 0]
        self.log: list[dict[str, Any]] = []
        self._last_hand: dict[str, Any] | None = None
        self._last_src: tuple[Any, ...] | None = None
        self.winner = -1
        self.hand_no = 1
        self.dealer = 0
        if _blank:
            self._reset_hand()
            return
        rng = self._rng  # (just made: not shared with a copy)
        if type(rng) is random.Random:  # rng.randrange(n), the same draws
            width = n.bit_length()
            dealer = rng.getrandbits(width)
            while dealer >= n:
                dealer = rng.getrandbits(width)
            self.dealer = dealer
        else:
            self.dealer = rng.randrange(n)
        self._reset_hand()  # (_start_hand, inline)
        self.hands, self.widow = deal(rng, n)

    @classmethod
    def default_options(cls) -> Any:
        """The default options of this variant."""
        return Options()

    # -- hand set-up ----------------------------------------------------------------------
    def _reset_hand(self) -> None:
        n = self.n
        self.hands = [0] * n
        self.widow = 0  # cut-throat: widow still face down
        self.widow_cards = 0  # cut-throat: the exposed widow (public once the bid is won)
        self.discards = 0
        self.bids: list[tuple[int, int]] = []
        self.passed = 0
        self.high_bid = 0
        self.high_bidder = -1
        self.bidder = -1
        self.contract = 0
        self.trump = -1
        self.stuck = False
        self.giver = -1
        self.pending = 0
        self.given = [0] * n
        self._melds: list[MeldResult] | None = None
        self._meld_hands: tuple[int, ...] | None = None  # hands the melds were shown from
        self.meld_totals: list[int] | None = None
        self._trick: list[int] = []
        self._win = -1
        """The winning card of the trick so far (-2: not worked out yet)."""
        self._wpos = 0
        """Its position in the trick."""
        self.leader = -1
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []
        self.won = [0] * n
        self.phase = BIDDING
        self.turn = (self.dealer + 1) % n
        self._legal = None
        self._lmask = 0

    def _start_hand(self) -> None:
        self._reset_hand()
        hands, widow = deal(self.rng, self.n)
        self.hands = hands
        self.widow = widow

    @property
    def melds(self) -> list[MeldResult] | None:
        """Every seat's meld with its breakdown once shown (section 9), else None.

        The totals decide the throw-in and the score at once; the breakdowns are worked
        out only when something reads them."""
        if self._melds is None and self._meld_hands is not None:
            o = self.options
            self._melds = [meld_breakdown(h, self.trump, o.extra_kq, o.one_point)
                           for h in self._meld_hands]
        return self._melds

    @melds.setter
    def melds(self, value: list[MeldResult] | None) -> None:
        self._melds = value
        self._meld_hands = None
        self.meld_totals = None if value is None else [m.total for m in value]

    @property
    def last_hand(self) -> dict[str, Any] | None:
        """The previous hand's result (bid, melds with details, trick points, …) or None."""
        if self._last_hand is None and self._last_src is not None:
            summary, hands, trump, tricks, widow_cards = self._last_src
            n = self.n
            last_trick = ([[(tricks[-1][0] + i) % n, c] for i, c in enumerate(tricks[-1][1])]
                          if tricks else None)
            last_winner = tricks[-1][2] if tricks else None
            won = [0] * n
            for _, _, w in tricks:
                won[w] += 1
            widow = _sorted_cards(widow_cards) if n == 3 else None
            o = self.options
            details = [meld_breakdown(h, trump, o.extra_kq, o.one_point).to_json()
                       for h in hands]
            self._last_hand = {**summary, "meld_details": details, "last_trick": last_trick,
                               "last_trick_winner": last_winner, "tricks_won": won,
                               "widow": widow}
        return self._last_hand

    @last_hand.setter
    def last_hand(self, value: dict[str, Any] | None) -> None:
        self._last_hand = value
        self._last_src = None

    def team(self, seat: int) -> int:
        """Scoring side of a seat: team 0 (N-S) / 1 (E-W), or the seat in cut-throat."""
        return seat % 2 if self.n == 4 else seat

    def partner_of(self, seat: int) -> int:
        """Partner seat (four hands only)."""
        return (seat + 2) % 4

    # -- protocol: turn and actions -------------------------------------------------------
    current_player = property(operator.attrgetter("turn"), doc="""Seat to act, or TERMINAL
        (``turn`` itself: the end of the game sets it to TERMINAL with the phase ``OVER``;
        read without a Python call, since a driver asks at every step).""")

    def next_bid_min(self) -> int:
        """Lowest bid allowed now."""
        return self.high_bid + self.step if self.high_bid else self.min_bid

    def legal_actions(self) -> list[Action]:
        """The legal actions of the player to act, in a stable order.

        While bidding this lists a pass and the lowest legal bid; jump bids (any higher
        multiple of the step up to :attr:`max_bid`, DECISION P-6) are legal too as
        ``(K_JUMP, amount)`` but are not enumerated, so a uniformly random player is not
        made to bid far beyond any likely score. Once the high bid is :attr:`max_bid` only
        the pass is left.
        """
        legal = self._legal
        if legal is not None:
            if type(legal) is list:
                return legal
            legal = self._legal = [*legal]  # the plays of one suit, left by apply: listed now
            return legal
        m = self._lmask  # not 0: the play step's legal cards, worked out by apply
        if m:
            if self._trick:
                suit = _SUIT_PLAYS.get(m)
                if suit is not None:  # cards of one suit
                    legal = self._legal = [*suit]
                    return legal
            legal = self._legal = [*_PLAY0[m & 4095], *_PLAY1[m >> 12 & 4095],
                                   *_PLAY2[m >> 24 & 4095], *_PLAY3[m >> 36]]
            return legal
        ph = self.phase
        if ph == PLAY:
            m = self._play_mask()
            if self._trick:
                suit = _SUIT_PLAYS.get(m)
                if suit is not None:  # cards of one suit
                    legal = self._legal = [*suit]
                    return legal
            legal = [*_PLAY0[m & 4095], *_PLAY1[m >> 12 & 4095],
                     *_PLAY2[m >> 24 & 4095], *_PLAY3[m >> 36]]
        elif ph == BIDDING:
            high = self.high_bid
            lo = high + self.step if high else self.min_bid  # next_bid_min()
            legal = [PASS, _BIDS.get(lo) or _bid_action(lo)] if lo <= self.max_bid else [PASS]
        elif ph == TRUMP:
            legal = _TRUMPS[:]
        elif ph == PASSING:
            m = self.hands[self.giver]
            legal = [*_GIVE0[m & 4095], *_GIVE1[m >> 12 & 4095], *_GIVE2[m >> 24 & 4095],
                     *_GIVE3[m >> 36]]
        elif ph == DISCARD:
            legal = _listed(_DISCARDS, self.hands[self.bidder])
        else:
            legal = []
        self._legal = legal
        return legal

    def _play_mask(self) -> int:
        """The cards the player to act may play (phase ``PLAY``), kept in ``_lmask`` until
        the next action (``0`` until worked out: a legal play always exists)."""
        hand = self.hands[self.turn]
        trick = self._trick
        if trick:  # sections 11.2/11.3: follow suit, else trump; beat the winner if able
            trump = self.trump
            w = self._win
            if w < 0:
                w = self._trick_winner()
            first = trick[0]
            must = hand & _LED_MASK[first] or hand & SUIT_MASK[trump]
            if must:  # cards of one suit
                if not self._beat_only_trump_leads or SUIT_OF[first] == trump:
                    must = must & BEATERS[trump][w] or must
                self._lmask = must
                return must
        self._lmask = hand
        return hand

    def apply(self, action: Action) -> None:
        """Apply a legal action; :class:`IllegalAction` (state unchanged) otherwise.

        The legality worked out for :meth:`legal_actions` serves: a legal card play or
        listed action is carried out at once, anything else is explained first."""
        if self._lmask or (self.phase == PLAY and self._play_mask()):
            # cards may be played (their mask worked out): a listed play is the one pair
            # object of its card (the most met), known without a lookup
            try:
                card = action[1]  # type: ignore[index]
                listed = action is _PLAYS[card]
            except Exception:  # not a listed play: see below
                listed = False
            if listed and self._lmask >> card & 1 and self.phase == PLAY:
                seat = self.turn
                self.history.append(_SEAT_PLAYS[seat][card])  # (seat, action)
                hands = self.hands
                hands[seat] ^= _BIT[card]
                trick = self._trick
                trump = self.trump
                beaters = BEATERS[trump]
                if trick:
                    k = len(trick)
                    trick.append(card)
                    w = self._win
                    if beaters[w] >> card & 1:
                        w = self._win = card
                        self._wpos = k
                    if k == self._nlast:  # the trick is full
                        self._end_trick(trick)
                        return
                    first = trick[0]
                else:
                    trick.append(card)
                    w = self._win = first = card
                    self._wpos = 0
                seat = self.turn = self._next[seat]
                # the next player's legal cards (_play_mask, inline), worked out at once;
                # their list is made when asked (the research adapters read the mask):
                # cards of one suit leave their tuple of actions to copy
                hand = hands[seat]
                must = hand & _LED_MASK[first] or hand & SUIT_MASK[trump]
                if must:  # cards of one suit
                    if not self._beat_only_trump_leads or SUIT_OF[first] == trump:
                        must = must & beaters[w] or must
                    self._lmask = must
                    self._legal = _SUIT_PLAYS[must]
                    return
                self._lmask = hand
                self._legal = None
                return
        try:
            card = _CARD_CODE[id(action)]
        except KeyError:
            card = -1
        if card < 48:  # (a listed play not legal now is explained below)
            if card < 0 and type(action) is tuple:
                if self.phase == BIDDING:
                    legal = self._legal
                    if legal is None:
                        legal = self.legal_actions()
                    if action in legal and type(action[0]) is int and type(action[1]) is int:
                        # the pass or the lowest bid (equal to a listed one)
                        seat = self.turn
                        self._legal = None
                        self.history.append((seat, action))
                        self._bid(action[1])
                        return
                if len(action) == 2:
                    self._apply_tuple(action)
                    return
        elif card >= _BID_CODE:  # the pass or a bid legal_actions() lists
            if self.phase == BIDDING:
                legal = self._legal
                if legal is None:
                    legal = self.legal_actions()
                # (the pass, or the lowest bid: the one object listed for its amount)
                if action is PASS or action is legal[-1]:
                    seat = self.turn
                    self._legal = None
                    self.history.append((seat, action))
                    self._bid(card - _BID_CODE)
                    return
        elif card < 96:  # one of the give actions legal_actions() lists
            card -= 48
            if self.phase == PASSING:
                g = self.giver
                hands = self.hands
                hand = hands[g]
                if hand >> card & 1:  # (_give, inline)
                    self.history.append((self.turn, action))
                    hand ^= _BIT[card]
                    hands[g] = hand
                    pending = self.pending | _BIT[card]
                    if pending.bit_count() == self.npass:
                        hands[g + 2 & 3] |= pending  # the partner receives them
                        self.given[g] = pending
                        self.pending = 0
                        if g == self.bidder:
                            self.giver = -1
                            self._legal = None
                            self._meld()
                            return
                        g = self.giver = self.turn = self.bidder
                        hand = hands[g]
                    else:
                        self.pending = pending
                    # the giver's legal actions, worked out at once
                    self._legal = [*_GIVE0[hand & 4095], *_GIVE1[hand >> 12 & 4095],
                                   *_GIVE2[hand >> 24 & 4095], *_GIVE3[hand >> 36]]
                    return
        elif card < 144:  # one of the discard actions legal_actions() lists
            if self.phase == DISCARD and self.hands[self.bidder] >> card - 96 & 1:
                self._legal = None
                self.history.append((self.turn, action))
                self._discard(card - 96)
                return
        elif self.phase == TRUMP:  # one of the trumps legal_actions() lists
            self._legal = None
            self.history.append((self.turn, action))
            self._name_trump(card - 144)
            return
        super().apply(action)

    def _apply_tuple(self, action: tuple[Any, Any]) -> None:
        """A pair that is none of the objects legal_actions() lists: carried out if legal,
        else explained (:class:`IllegalAction`, the state unchanged)."""
        kind, value = action
        if kind == K_GIVE and self.phase == PASSING and type(kind) is int \
                and type(value) is int and 0 <= value < 48 \
                and self.hands[self.giver] >> value & 1:  # a card of the giver's hand
            self._legal = None
            self.history.append((self.turn, action))
            self._give(value)
            return
        if type(kind) is int and type(value) is int:
            legal = self._legal
            if legal is None:
                legal = self.legal_actions()
            if kind == K_PLAY:
                if self.phase == PLAY and 0 <= value < 48 and self._lmask >> value & 1:
                    seat = self.turn
                    self._legal = None
                    self._lmask = 0
                    self._play(value)
                    self.history.append((seat, action))
                    return
            elif action in legal and self.phase != OVER:
                self.history.append((self.turn, action))
                self._apply(action)
                return
        super().apply(action)

    def card_reason(self, card: int) -> str | None:
        """Why the player to act may not play ``card`` now (None if legal)."""
        hand = self.hands[self.turn]
        if not hand >> card & 1:
            other = (card + 24) % 48
            if hand >> other & 1:
                return f"that copy of {card_text(card)} is not in your hand; play the other one"
            return f"You do not hold {card_text(card)}"
        trick = self.trick
        if not trick:
            return None
        trump = self.trump
        if legal_play_mask(hand, trick, trump, self.options.beat_only_trump_leads) >> card & 1:
            return None
        led = suit_of(trick[0])
        w = winning_card(trick, trump)
        follow = hand & SUIT_MASK[led]
        ls = SUIT_SYMBOLS[led]
        if follow:
            if suit_of(card) != led:
                return f"You must follow suit: you hold {ls}"
            higher = follow & ABOVE[led][w % 6]
            return (f"You must beat the winning {card_text(w)} with a higher {ls}: "
                    f"you hold {cards_text(higher)}")
        trumps = hand & SUIT_MASK[trump]
        ts = SUIT_SYMBOLS[trump]
        if suit_of(card) != trump:
            return f"You are void in {ls}, so you must trump: you hold {ts}"
        higher = trumps & ABOVE[trump][w % 6]
        return f"You must over-trump the winning {card_text(w)}: you hold {cards_text(higher)}"

    def illegal_card_reasons(self) -> dict[int, str]:
        """Reasons for every card of the acting hand that cannot be played now."""
        if self.phase != PLAY:
            return {}
        hand = self.hands[self.turn]
        legal = legal_play_mask(hand, self.trick, self.trump, self.options.beat_only_trump_leads)
        out = {}
        for c in bit_list(hand & ~legal):
            reason = self.card_reason(c)
            if reason:
                out[c] = reason
        return out

    def illegal_reason(self, action: Action) -> str | None:
        """Precise reason why ``action`` is illegal now, or None."""
        if self.phase == OVER:
            return "the game is over"
        if (not isinstance(action, tuple) or len(action) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in action)):
            return f"{safe_repr(action)} is not a Pinochle action"
        kind, value = action
        ph = self.phase
        if kind in (K_BID, K_JUMP) and ph == BIDDING and value > self.max_bid:
            return self.bid_limit_reason()
        if kind == K_JUMP and ph == BIDDING:
            if value % self.step:
                return f"Bids go up in steps of {self.step}"
            lo = self.next_bid_min()
            if value <= lo:
                return (f"A jump bid must be above {lo}" if value == lo
                        else f"Your bid must be at least {lo}")
            return None
        want = {BIDDING: K_BID, TRUMP: K_TRUMP, PASSING: K_GIVE, DISCARD: K_DISCARD,
                PLAY: K_PLAY}[ph]
        if kind != want:
            what = {BIDDING: "bid or pass", TRUMP: "name trump",
                    PASSING: "choose a card to pass", DISCARD: "choose a card to discard",
                    PLAY: "play a card"}[ph]
            return f"It is time to {what}, not to {KIND_NAMES[kind] if 0 <= kind < 6 else '?'}"
        if kind == K_BID:
            if value == 0:
                return None
            lo = self.next_bid_min()
            if value % self.step:
                return f"Bids go up in steps of {self.step}"
            if value < lo:
                if self.high_bid:
                    return f"Your bid must be higher than {self.high_bid}"
                return f"The first bid must be at least {self.min_bid}"
            if value > lo:
                return f"A bid above {lo} is a jump bid: kind {K_JUMP}"
            return None
        if kind == K_TRUMP:
            return None if 0 <= value < 4 else "Trump must be one of ♠ ♥ ♦ ♣"
        if not 0 <= value < 48:
            return f"{safe_repr(value)} is not a card (cards are 0 to 47)"
        if kind in (K_GIVE, K_DISCARD):
            holder = self.giver if kind == K_GIVE else self.bidder
            if not self.hands[holder] >> value & 1:
                return f"You do not hold {card_text(value)}"
            return None
        return self.card_reason(value)

    def bid_limit_reason(self) -> str:
        """Why no bid above :attr:`max_bid` is legal."""
        top = self.max_bid
        meld = top - self.trick_total
        who = "a team" if self.n == 4 else "a player"
        if self.high_bid >= top:
            return f"The bid stands at {top}, the most {who} can score in a hand: you can only pass"
        return (f"No bid above {top} is possible: the most {who} can score in a hand is the "
                f"largest possible meld ({meld}) plus every trick point ({self.trick_total})")

    # -- transitions ----------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        assert isinstance(action, tuple)
        self._legal = None
        self._lmask = 0
        kind, value = action
        if kind == K_PLAY:
            self._play(value)
        elif kind in (K_BID, K_JUMP):
            self._bid(value)
        elif kind == K_TRUMP:
            self._name_trump(value)
        elif kind == K_GIVE:
            self._give(value)
        else:
            self._discard(value)

    def _bid(self, amount: int) -> None:
        n, seat = self.n, self.turn
        self.bids.append((seat, amount))
        if amount == 0:
            passed = self.passed = self.passed | _BIT[seat]
        else:
            self.high_bid, self.high_bidder = amount, seat
            passed = self.passed
        passes = passed.bit_count()
        if passes < n - 1:  # the auction goes on: the next seat that has not passed
            following = self._next
            seat = following[seat]
            while passed >> seat & 1:
                seat = following[seat]
            self.turn = seat
        elif passes == n - 1 and self.high_bidder >= 0:
            self._win_bid(self.high_bidder, self.high_bid)
        elif passes == n - 1:
            if self.options.all_pass_redeal:
                self.turn = self.dealer
            else:
                self.stuck = True
                self._win_bid(self.dealer, self.min_bid)
        elif passes == n:
            self._record({"hand": self.hand_no, "dealer": self.dealer, "redeal": True,
                          "scores": list(self.scores)})
            if self.deal_limit is not None and self.hand_no >= self.deal_limit:
                self._stop()
            else:
                self._next_hand()

    def _win_bid(self, seat: int, amount: int) -> None:
        self.bidder, self.contract = seat, amount
        if self.n == 3:
            self.widow_cards = self.widow
            self.hands[seat] |= self.widow
            self.widow = 0
        self.phase = TRUMP
        self.turn = seat

    def _name_trump(self, suit: int) -> None:
        self.trump = suit
        if self.n == 3:
            self.phase = DISCARD
            self.turn = self.bidder
        elif self.npass:
            self.phase = PASSING
            self.giver = self.partner_of(self.bidder)
            self.turn = self.giver
            self.pending = 0
        else:
            self._meld()

    def _give(self, card: int) -> None:
        bit = 1 << card
        g = self.giver
        self.hands[g] ^= bit
        self.pending |= bit
        if self.pending.bit_count() == self.npass:
            receiver = self.partner_of(g)
            self.hands[receiver] |= self.pending
            self.given[g] = self.pending
            self.pending = 0
            if g != self.bidder:
                self.giver = self.turn = self.bidder
            else:
                self.giver = -1
                self._meld()

    def _discard(self, card: int) -> None:
        self.hands[self.bidder] ^= 1 << card
        self.discards |= 1 << card
        if self.discards.bit_count() == 3:
            self._meld()

    def _meld(self) -> None:
        o = self.options
        trump, extra, div = self.trump, o.extra_kq, self.div
        hands = self._meld_hands = tuple(self.hands)
        self._melds = None
        b = self.bidder
        totals = self.meld_totals = [meld_total(h, trump, extra) // div for h in hands]
        side = totals[b] + totals[b ^ 2] if self.n == 4 else totals[b]  # side_meld(b)
        if is_throw_in(side, self.contract, self.trick_total):
            self._score_hand(throw_in=True)
            return
        self.phase = PLAY
        self.leader = self.turn = self.bidder
        self._trick = []
        self._win = -1

    def side_meld(self, seat: int) -> int:
        """Meld of a seat's side (team in four hands, the seat alone in cut-throat)."""
        totals = self.meld_totals
        assert totals is not None
        if self.n == 4:
            return totals[seat] + totals[(seat + 2) % 4]
        return totals[seat]

    def _play(self, card: int) -> None:
        seat = self.turn
        hands = self.hands
        hands[seat] ^= 1 << card
        trick = self._trick
        if trick:
            w = self._win if self._win >= 0 else self._trick_winner()
            if BEATERS[self.trump][w] >> card & 1:
                self._win, self._wpos = card, len(trick)
        else:
            self._win, self._wpos = card, 0
        trick.append(card)
        n = self.n
        if len(trick) < n:
            self.turn = seat + 1 if seat + 1 < n else 0
            return
        self._end_trick(trick)

    def _end_trick(self, trick: list[int]) -> None:
        """The trick is full: its winner takes it and leads, or the hand is scored."""
        n = self.n
        leader = self.leader
        w = leader + self._wpos
        if w >= n:
            w -= n
        if n == 4:
            a, b, c, d = trick
            self.won[w] |= _BIT[a] | _BIT[b] | _BIT[c] | _BIT[d]
            self.tricks.append((leader, (a, b, c, d), w))
        else:
            a, b, c = trick
            self.won[w] |= _BIT[a] | _BIT[b] | _BIT[c]
            self.tricks.append((leader, (a, b, c), w))
        self._trick = []
        self._win = -1
        self._legal = None  # listed when asked (the research adapters read the mask)
        hand = self.hands[w]
        if hand:  # the winner leads any card it holds
            self.leader = self.turn = w
            self._lmask = hand
        else:
            self._lmask = 0
            self._score_hand(throw_in=False)

    def trick_points(self) -> list[int]:
        """Trick points of each side so far (with the last-trick bonus once the hand ends)."""
        sides = [0] * len(self.scores)
        for seat in range(self.n):
            sides[self.team(seat)] += mask_points(self.won[seat], self.counters)
        if self.n == 3 and self.bidder >= 0:
            sides[self.bidder] += mask_points(self.discards, self.counters)
        if self.tricks and not any(self.hands) and not self.trick:
            sides[self.team(self.tricks[-1][2])] += self.last_bonus
        return sides

    def _score_hand(self, throw_in: bool) -> None:
        totals = self.meld_totals
        hands = self._meld_hands
        assert totals is not None
        if hands is None:  # melds set from outside (a sampled world)
            assert self._melds is not None
            hands = tuple(m.cards for m in self._melds)
        b = self.bidder
        tp: list[int] | None = None
        won = self.won
        table = self.counters
        scores = self.scores
        if self.n == 4:  # two sides: hand_scores() worked out in place
            bside = b & 1
            m0 = totals[0] + totals[2]
            m1 = totals[1] + totals[3]
            side_melds = [m0, m1]
            c = self.contract
            if throw_in:
                made = False
                delta = [m0, -c] if bside else [-c, m1]
            else:  # trick_points() of the hand played out, in short
                t0 = mask_points(won[0] | won[2], table)
                t1 = mask_points(won[1] | won[3], table)
                if self.tricks[-1][2] & 1:
                    t1 += self.last_bonus
                else:
                    t0 += self.last_bonus
                tp = [t0, t1]
                if bside:
                    made = m1 + t1 >= c
                    delta = [m0 + t0 if t0 > 0 else 0, m1 + t1 if made else -c]
                else:
                    made = m0 + t0 >= c
                    delta = [m0 + t0 if made else -c, m1 + t1 if t1 > 0 else 0]
            scores[0] += delta[0]
            scores[1] += delta[1]
        else:
            bside = b
            side_melds = [totals[0], totals[1], totals[2]]
            if not throw_in:
                tp = [mask_points(won[0], table), mask_points(won[1], table),
                      mask_points(won[2], table)]
                if b >= 0:
                    tp[b] += mask_points(self.discards, table)
                tp[self.tricks[-1][2]] += self.last_bonus
            delta, made = hand_scores(self.contract, bside, side_melds, tp)
            for side in range(len(scores)):
                scores[side] += delta[side]
        summary: dict[str, Any] = {
            "hand": self.hand_no, "dealer": self.dealer, "redeal": False, "bidder": b,
            "bid": self.contract, "stuck_dealer": self.stuck, "trump": self.trump,
            "melds": list(totals), "side_melds": side_melds,
            "throw_in": throw_in, "made": made, "trick_points": tp, "score_change": delta,
            "scores": list(self.scores),
        }
        self._last_hand = None
        # The hand's tricks are never changed again (the next hand starts a new list): the
        # summary's details are worked out from them when read.
        self._last_src = (summary, hands, self.trump, self.tricks, self.widow_cards)
        self._record(summary)
        target = self.target
        self.winner = game_winner(scores, bside, target) if max(scores) >= target else -1
        if self.winner >= 0:
            self.phase = OVER
            self.is_terminal = True
            self.turn = TERMINAL
            return
        if self.deal_limit is not None and self.hand_no >= self.deal_limit:
            self._stop()
            return
        self._next_hand()

    def _stop(self) -> None:
        """End the game at its deal limit: the side ahead wins (-1 on equal scores)."""
        scores = self.scores
        best = max(scores)
        self.winner = scores.index(best) if scores.count(best) == 1 else -1
        self.phase = OVER
        self.is_terminal = True
        self.turn = TERMINAL

    def _record(self, summary: dict[str, Any]) -> None:
        self.log.append(summary)

    def _next_hand(self) -> None:
        self.dealer = (self.dealer + 1) % self.n
        self.hand_no += 1
        self._start_hand()

    def tricks_won(self) -> list[int]:
        """Number of tricks won by each seat this hand."""
        out = [0] * self.n
        for _, _, w in self.tricks:
            out[w] += 1
        return out

    # -- end of game ----------------------------------------------------------------------
    def returns(self) -> tuple[float, ...]:
        """Each seat's side score (partners share); see :meth:`winners` for who won."""
        return tuple(float(self.scores[self.team(s)]) for s in range(self.n))

    def winners(self) -> tuple[int, ...]:
        """The winning side's seats: the hand's bidder wins when both sides reach the target."""
        if self.winner < 0:  # a draw at the deal limit, or the game still runs
            return tuple(range(self.n)) if self.phase == OVER else ()
        return tuple(s for s in range(self.n) if self.team(s) == self.winner)

    # -- copies ---------------------------------------------------------------------------
    def clone(self) -> PinochleState:
        """Independent copy (lists copied shallowly, RNG copied)."""
        c = object.__new__(type(self))
        c.__dict__.update(self.__dict__)
        _consume(map(setattr, repeat(c, len(_SLOTS)), _SLOTS, _slot_values(self)), 0)
        c.hands = self.hands[:]
        c.scores = self.scores[:]
        c.log = self.log[:]
        c.bids = self.bids[:]
        c.given = self.given[:]
        c._melds = None if self._melds is None else self._melds[:]
        c._legal = None
        c._lmask = 0  # worked out again when asked (a copy's hands may be changed)
        c._trick = self._trick[:]
        c.tricks = self.tricks[:]
        c.won = self.won[:]
        c.history = self.history[:]
        self.share_rng(c)
        return c

    # -- observation ----------------------------------------------------------------------
    def observation(self, seat: int) -> dict[str, JSON]:
        """What ``seat`` may see (section 17); schema in the package docstring.

        A new dict with new lists at its top level on every call; the entries of its
        tricks, bids, melds, history and last hand are shared with later observations (and
        the state): read them, never change them."""
        n = self.n
        ph = self.phase
        bidder = self.bidder
        hands = self.hands
        display = _DISPLAY.get
        passing: dict[str, Any] | None = None
        if n == 4:
            mine = seat == bidder or (bidder >= 0 and seat == (bidder + 2) % 4)
            given = self.given
            pending = self.pending
            giver = self.giver
            if mine:
                gave = given[seat]
                got = given[(seat + 2) % 4]
            passing = {
                "count": self.npass,
                "giver": giver if ph == PASSING else None,
                "pending_count": pending.bit_count(),
                "selected": ([*(display(pending) or _display_order(pending))]
                             if seat == giver else []),
                "gave": [*(display(gave) or _display_order(gave))] if mine else [],
                "received": [*(display(got) or _display_order(got))] if mine else [],
                "done": [given[s] != 0 for s in range(n)],
            }
        options = self.options
        if options is _OPTIONS[0]:
            options_dict = _OPTIONS[1].copy()
        else:
            options_dict = options_to_dict(options)
            if type(options) in _FROZEN_OPTIONS and not any(type(v) is list
                                                           for v in options_dict.values()):
                _OPTIONS[:] = options, options_to_dict(options)
        tricks = self.tricks
        tricks_kept = _kept_list(_TRICKS, tricks, n, _trick_json)
        bids = self.bids
        bids_kept = _kept_list(_BIDS_JSON, bids, n, _bid_json)
        melds = self.melds
        passed = self.passed
        hand = hands[seat]
        trick = self.trick
        obs: dict[str, Any] = {
            "game": self.game_name,
            "seat": seat,
            "players": n,
            "options": options_dict,
            "hand_number": self.hand_no,
            "dealer": self.dealer,
            "phase": PHASE_NAMES[ph],
            "to_act": self.current_player,
            "scores": [*self.scores],
            "target": self.target,
            "winner": self.winner if self.winner >= 0 else None,
            "hand": [*(display(hand) or _display_order(hand))],
            "hand_sizes": [h.bit_count() for h in hands],
            "bids": [*bids_kept[2]],
            "passed": ([*_PASSED[n][passed]] if 0 <= passed < 1 << n
                       else [bool(passed >> s & 1) for s in range(n)]),
            "high_bid": self.high_bid or None,
            "high_bidder": self.high_bidder if self.high_bidder >= 0 else None,
            "min_bid": self.min_bid,
            "bid_step": self.step,
            "max_bid": self.max_bid,
            "bidder": bidder if bidder >= 0 else None,
            "contract": self.contract or None,
            "stuck_dealer": self.stuck,
            "trump": self.trump if self.trump >= 0 else None,
            "passing": passing,
            "widow": _sorted_cards(self.widow_cards) if n == 3 and self.widow_cards else None,
            "discards": (_sorted_cards(self.discards) if n == 3 and seat == bidder else None),
            "discard_count": self.discards.bit_count() if n == 3 else 0,
            "melds": None if melds is None else [*_kept_list(_MELDS, melds, n, _meld_json)[2]],
            "leader": self.leader if ph == PLAY else None,
            "trick": [[(self.leader + i) % n, c] for i, c in enumerate(trick)] if trick else [],
            "tricks": [*tricks_kept[2]],
            "tricks_won": [*tricks_kept[3]],
            "last_hand": self.last_hand,
            "history": [*self.log],
        }
        return obs

    # -- action forms ---------------------------------------------------------------------
    def public_action(self, action: Action, viewer: int) -> str | None:
        """Only the giver sees a card passed (the receiver's observation shows the passed
        cards together once all are given) and only the bid winner a card buried."""
        if viewer == self.current_player or not isinstance(action, tuple):
            return None
        kind = action[0]
        if kind == K_GIVE:
            return "passes a card"
        if kind == K_DISCARD:
            return "buries a card"
        return None

    def brings_to_light(self, before: GameState) -> bool:
        """Besides the default (a deal, cards passed or taken from the widow, the end), the
        melds laid open."""
        assert isinstance(before, PinochleState)
        if before._meld_hands is None and self._meld_hands is not None:
            return True
        return super().brings_to_light(before)

    def choices(self) -> list[Action]:
        """The numbered menu shown to a person (``1`` … ``len``); identical copies once."""
        ph = self.phase
        if ph == BIDDING:
            lo, st = self.next_bid_min(), self.step
            bids = [a for a in (lo, lo + st, lo + 2 * st, lo + 3 * st, lo + 5 * st,
                                lo + 10 * st) if a <= self.max_bid]
            menu: list[Action] = [PASS]
            menu += [(K_BID if a == lo else K_JUMP, a) for a in bids]
            return menu
        legal = self.legal_actions()
        seen: set[tuple[int, int]] = set()
        out: list[Action] = []
        for a in legal:
            assert isinstance(a, tuple)
            key = (a[0], a[1] % 24) if a[0] != K_TRUMP else a
            if key not in seen:
                seen.add(key)
                out.append(a)
        if ph in (PASSING, DISCARD, PLAY):
            out.sort(key=lambda a: (a[1] % 24 // 6, -(a[1] % 6)))  # type: ignore[index]
        return out

    def _card_action(self, kind: int, text: str) -> Action:
        try:
            f = PINOCHLE.parse_face(text)
        except CardParseError as exc:
            raise ActionParseError(str(exc)) from None
        holder = {K_GIVE: self.giver, K_DISCARD: self.bidder}.get(kind, self.turn)
        hand = self.hands[holder] if holder >= 0 else 0
        for c in (f, f + 24):
            if hand >> c & 1:
                return (kind, c)
        return (kind, f)

    def _card_text(self, card: int) -> str:
        return card_text(card)

    def _number_is_menu(self, typed: str, num: int, menu: list[Action]) -> bool:
        """A bare number that is a menu item picks it (larger numbers are bids)."""
        return 1 <= num <= len(menu)

    def _bid_action(self, amount: int) -> Action:
        """A bid of ``amount``: the minimum raise, or a jump bid above it."""
        return (K_JUMP, amount) if self.phase == BIDDING and amount > self.next_bid_min() \
            else (K_BID, amount)


def hands_dealt(state: GameState) -> int:
    """Hands dealt so far, the current one included (all-pass redeals count)."""
    assert isinstance(state, PinochleState)
    return state.hand_no


def hands_redealt(state: GameState) -> int:
    """Hands dealt so far that were redealt unplayed (everybody passed)."""
    assert isinstance(state, PinochleState)
    return sum(map(bool, map(_REDEAL, state.log)))


_REDEAL = operator.itemgetter("redeal")


class CutthroatState(PinochleState):
    """Three-hand cut-throat Pinochle (spec section 19)."""

    game_name: ClassVar[str] = "pinochle3"
    PLAYERS: ClassVar[int] = 3

    @classmethod
    def default_options(cls) -> Any:
        """The default options of this variant."""
        return CutthroatOptions()

