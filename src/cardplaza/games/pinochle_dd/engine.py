"""Double-deck partnership Pinochle: the engine (options, auction, passing, meld, play,
scoring). See the package docstring for the action forms and the observation schema."""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from cardplaza.core.cards import CardParseError, Deck
from cardplaza.core.options import options_from_dict, options_to_dict
from cardplaza.core.protocol import (
    JSON,
    TERMINAL,
    Action,
    ActionParseError,
    GameState,
    safe_repr,
)
from cardplaza.games.pinochle_common.actions import ActionForms, PinochleActionText
from cardplaza.games.pinochle_common.trick import KeptTrick
from cardplaza.games.pinochle_dd.meld import MeldResult, meld_breakdown, meld_total
from cardplaza.games.pinochle_dd.rules import (
    ABOVE20,
    BEATERS20,
    COLUMN,
    COUNTER_FACES,
    DECK,
    FACES,
    KING,
    LAST_TRICK,
    LOW20,
    QUEEN,
    SUIT20,
    SUIT_OF,
    SUIT_SYMBOLS,
    THERMO,
    card_text,
    count,
    counter_mask,
    counter_total,
    deal,
    face,
    faces_list,
    faces_text,
    remove,
    winning_index,
)

# -- options ------------------------------------------------------------------------------

MIN_BID = 50
"""Lowest opening bid (unit scale)."""
MELD_BIDS = 60
"""Bids below this, raising the bid by 1 to 5, are the meld bids of section 8."""
MIN_MELD = 20
"""A side's meld must reach this to count (sections 3.2, 6.2, 6.4, 6.5)."""
SAVE_COUNTERS = 20
"""Counters a side must take to save its meld under ``save_meld = 20-counters``."""
MAX_SIDE_MELD = 572
"""The largest meld two partners can show together (unit scale).

Found by an integer program over the copies of each face in both hands (20 cards each, at
most four copies of a face between them, every meld of section 4 with its card needs),
solved for each trump suit: with ♦ trump each partner holds A♦ 10♦ K♦ Q♦ J♦ A♠ A♥ A♣ Q♠
twice and Q♥ Q♣ once (double run 150 + double aces 100 + double pinochle 30 + queens
around 6 = 286 each). The best single hand melds 315; two hands cannot both reach it.
"""
TARGETS = tuple(range(250, 1501, 50))


@dataclass(frozen=True)
class Options:
    """Double-deck Pinochle options (section 10); amounts are in unit scale."""

    target: int = field(default=500, metadata={"min": 250, "max": 1500, "step": 50})
    """Points a side needs to win (250 … 1500 in steps of 50, unit scale)."""
    bid_steps: Literal["1-then-5", "1", "5", "10-from-100"] = field(
        default="1-then-5", metadata={"more": True})
    """Allowed bid amounts (section 2.2)."""
    all_pass: Literal["stuck", "redeal"] = field(default="stuck", metadata={"more": True})
    """All four pass: the dealer plays at 50, or the hand is dealt again."""
    marriage_required: bool = field(default=False, metadata={"more": True})
    """A declarer without K and Q of trump (after passing) is set without play."""
    pass_count: Literal[0, 2, 3, 4] = 4
    """Cards the declarer's partner passes, and the declarer passes back."""
    must_head: bool = True
    """Beat the winning card when following suit, and a trump when trumping, if able."""
    first_lead_trump: bool = field(default=False, metadata={"more": True})
    """The declarer's first lead must be a trump (if held) when the contract is above 50."""
    counters: Literal["aces-tens-kings", "aces-tens"] = "aces-tens-kings"
    """Cards worth a counter: A, 10 and K (50 a hand with the last trick), or A and 10 (34)."""
    save_meld: Literal["20-counters", "one-trick", "always"] = "20-counters"
    """When a side's meld counts."""
    set_scoring: Literal["minus", "progressive"] = field(
        default="minus", metadata={"more": True})
    """A set side loses its contract, or scores 0 while the defenders gain the contract."""
    min_meld_20: bool = field(default=False, metadata={"more": True})
    """A declarer's side with less than 20 meld is set without play."""
    throw_in_award: Literal["meld", "meld-and-counters"] = field(
        default="meld", metadata={"more": True})
    """What the defenders score when the declarer throws the hand in."""
    scale: Literal["unit", "x10"] = "unit"
    """Show and enter every amount in units or multiplied by ten."""

    def __post_init__(self) -> None:
        if isinstance(self.target, bool) or self.target not in TARGETS:
            raise ValueError("target must be 250 to 1500 in steps of 50 (unit scale); "
                             f"got {self.target!r}")
        choices: dict[str, tuple[Any, ...]] = {
            "bid_steps": ("1-then-5", "1", "5", "10-from-100"),
            "all_pass": ("stuck", "redeal"),
            "pass_count": (0, 2, 3, 4),
            "counters": ("aces-tens-kings", "aces-tens"),
            "save_meld": ("20-counters", "one-trick", "always"),
            "set_scoring": ("minus", "progressive"),
            "throw_in_award": ("meld", "meld-and-counters"),
            "scale": ("unit", "x10"),
        }
        for name, values in choices.items():
            value = getattr(self, name)
            if value not in values or isinstance(value, bool):
                raise ValueError(f"{name} must be one of {', '.join(map(str, values))}; "
                                 f"got {value!r}")
        for name in ("marriage_required", "must_head", "first_lead_trump", "min_meld_20"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be on or off")


def options_from_obs(obs: dict[str, Any]) -> Options:
    """The options of an observation."""
    return options_from_dict(Options, dict(obs["options"]))


def bid_allowed(amount: int, steps: str) -> bool:
    """True if ``amount`` (unit scale) is an amount the ``bid_steps`` option allows."""
    if amount < MIN_BID:
        return False
    if steps == "1":
        return True
    if steps == "5":
        return amount % 5 == 0
    if steps == "1-then-5":
        return amount <= 60 or amount % 5 == 0
    return amount <= 100 or amount % 10 == 0


def next_allowed(high: int, steps: str) -> int:
    """The lowest allowed bid above ``high`` (``MIN_BID`` when there is no bid yet)."""
    amount = MIN_BID if high < MIN_BID else high + 1
    while not bid_allowed(amount, steps):
        amount += 1
    return amount


def bid_kind(amount: int, high: int, steps: str) -> int:
    """The action kind of a bid of ``amount`` over the high bid ``high`` (unit scale):
    ``K_BID`` for the lowest allowed bid, ``K_MELD_BID`` for a meld bid (a raise by 1 to 5
    below 60), ``K_JUMP`` for any other amount above."""
    lowest = next_allowed(high, steps)
    if amount <= lowest:
        return K_BID
    if amount < MELD_BIDS and amount - (high or MIN_BID) <= 5:
        return K_MELD_BID
    return K_JUMP


def hand_scores(contract: int, bidder_side: int, side_melds: Sequence[int],
                counters: Sequence[int] | None, tricks: Sequence[int] | None,
                options: Options, conceded: bool = False) -> tuple[list[int], bool]:
    """Score change of both sides for one hand (section 6), unit scale, and whether the
    declarer's side made its contract.

    ``counters``/``tricks`` per side are None when the hand was not played (thrown in,
    set for want of a marriage or of 20 meld); ``conceded`` marks a throw-in.
    """
    b, d = bidder_side, 1 - bidder_side
    delta = [0, 0]
    progressive = options.set_scoring == "progressive"
    if counters is None:
        delta[b] = 0 if progressive else -contract
        delta[d] = side_melds[d] if side_melds[d] >= MIN_MELD else 0
        if conceded and options.throw_in_award == "meld-and-counters":
            delta[d] += counter_total(options.counters)
        if progressive:
            delta[d] += contract
        return delta, False
    assert tricks is not None
    saved = [side_melds[s] if meld_saved(side_melds[s], counters[s], tricks[s], options)
             else 0 for s in (0, 1)]
    made = saved[b] + counters[b] >= contract
    if made:
        return [saved[0] + counters[0], saved[1] + counters[1]], True
    delta[b] = 0 if progressive else -contract
    delta[d] = saved[d] + counters[d] + (contract if progressive else 0)
    return delta, False


def meld_saved(meld: int, counters: int, tricks: int, options: Options) -> bool:
    """Section 6.2: whether a side's meld counts in a played hand."""
    if options.save_meld == "always":
        return True
    if options.save_meld == "one-trick":
        return tricks > 0
    return meld >= MIN_MELD and counters >= SAVE_COUNTERS


def game_winner(scores: Sequence[int], bidder_side: int, target: int) -> int:
    """Section 7.1: the winning side after a hand, or -1 while the game goes on."""
    reached = [s for s in (0, 1) if scores[s] >= target]
    if not reached:
        return -1
    return bidder_side if len(reached) == 2 else reached[0]


# -- actions ------------------------------------------------------------------------------

BIDDING, TRUMP, PASSING, PLAY, OVER = range(5)
PHASE_NAMES = ("bidding", "trump", "passing", "play", "over")
K_BID, K_TRUMP, K_GIVE, K_PLAY, K_JUMP, K_THROW_IN, K_MELD_BID = range(7)
KIND_NAMES = ("bid", "trump", "give", "play", "bid", "throw-in", "bid")
BID_KINDS = (K_BID, K_JUMP, K_MELD_BID)
PASS: tuple[int, int] = (K_BID, 0)
THROW_IN: tuple[int, int] = (K_THROW_IN, 0)
_FORMS = ActionForms(
    kind_names=KIND_NAMES, bid_kinds=frozenset(BID_KINDS),
    card_verbs={"give": K_GIVE, "pass": K_GIVE, "play": K_PLAY}, bid_example="55",
    words=dict.fromkeys(("throw in", "throw-in", "throwin", "concede"), THROW_IN),
    json_words={"throw-in": THROW_IN}, word_help=", 'throw in'", over_phase=OVER,
    play_kind=K_PLAY, card_kind_by_phase={PASSING: K_GIVE}, card_verb_texts={K_GIVE: "give"},
    word_texts={THROW_IN: ("throw in", "throw the hand in (concede the contract)")})

_PLAY_LIST = [(K_PLAY, f) for f in range(FACES)]
_PL0: tuple[list[Action], ...] = tuple(
    [_PLAY_LIST[f] for f in range(10) if m >> f & 1] for m in range(1024))
_PL1: tuple[list[Action], ...] = tuple(
    [_PLAY_LIST[10 + f] for f in range(10) if m >> f & 1] for m in range(1024))
"""The play actions of each 10-bit half of a 20-bit face mask (never handed out: a list
of legal actions is a new list, ``_PL0[low] + _PL1[high]``)."""
_LOW_LEVELS = 1 | 1 << FACES | 1 << 2 * FACES
"""Bit 0 of levels 0 to 2: ``fs * _LOW_LEVELS`` is a face mask repeated on them."""
_TOP_COPY = {THERMO[f][n]: THERMO[f][n] ^ THERMO[f][n - 1]
             for f in range(FACES) for n in range(1, 5)}
"""By the copies of a face held (its column of a multiset mask): the bit of the top copy."""
_LED20: tuple[int, ...] = tuple(SUIT20[SUIT_OF[f]] for f in range(FACES))
"""The faces of each face's suit."""
_NEXT_SEAT = (1, 2, 3, 0)
_NEXT_BIDDER = tuple(tuple(next((n for n in ((seat + i) % 4 for i in range(1, 4))
                                 if not passed >> n & 1), -1) for seat in range(4))
                     for passed in range(16))
"""By the seats that have passed (a mask) and the seat that just bid: the next seat that
has not passed, -1 if none."""
_SEAT_PLAYS = tuple(tuple((seat, a) for a in _PLAY_LIST) for seat in range(4))
"""The history entry of each seat's play of each face (made once)."""
_GIVE_LIST = [(K_GIVE, f) for f in range(FACES)]
_GV0: tuple[list[Action], ...] = tuple(
    [_GIVE_LIST[f] for f in range(10) if m >> f & 1] for m in range(1024))
_GV1: tuple[list[Action], ...] = tuple(
    [_GIVE_LIST[10 + f] for f in range(10) if m >> f & 1] for m in range(1024))
"""The give actions of each 10-bit half of a 20-bit face mask."""
_TRUMPS: list[Action] = [(K_TRUMP, s) for s in range(4)]
_COUNTER_VALUES = {counter_mask(scheme): tuple(counter_mask(scheme) >> f & 1 for f in range(FACES))
                   for scheme in COUNTER_FACES}
"""The counters of each face, by the counter mask of a ``counters`` option."""
_FIXED: dict[tuple[str, str], tuple[int, int, int]] = {}
"""Per (counters, bid_steps) options: counters in a hand, the highest bid, counter mask."""
_BID_MENUS: dict[tuple[str, int, int], dict[int, tuple[Action, ...]]] = {}
"""Per (bid_steps, scale, highest bid): the listed bids by the high bid (filled as met)."""
_TRUMP_CODE = 2 * FACES
_BID_CODE = _TRUMP_CODE + 4
_CODES: dict[int, int] = {id(a): FACES + a[1] for a in _GIVE_LIST}
_CODES.update({id(a): _TRUMP_CODE + s for s, a in enumerate(_TRUMPS)})
"""Each action object :meth:`DoubleDeckState.legal_actions` hands out but the plays (each
known by its face: ``_PLAY_LIST[face]``), by its ``id``: ``FACES`` + the face of a give,
``_TRUMP_CODE`` + the suit of a trump, ``_BID_CODE`` + the amount (shown scale) of a listed
bid (see :func:`_bid_object`); :meth:`DoubleDeckState.apply` knows them at once."""
_BID_OBJECTS: dict[tuple[int, int], Action] = {}
_OTHER = 1 << 40
"""The code of any other action (above every code)."""


def _bid_object(kind: int, shown: int) -> Action:
    """The one object of a listed bid (its ``id`` is known to :meth:`apply`)."""
    action = _BID_OBJECTS.get((kind, shown))
    if action is None:
        action = _BID_OBJECTS[(kind, shown)] = (kind, shown)
        _CODES[id(action)] = _BID_CODE + shown
    return action


_BID_OBJECTS[PASS] = PASS
_CODES[id(PASS)] = _BID_CODE


_RawEntry = tuple[Any, ...]
"""What :meth:`DoubleDeckState._end_hand` keeps of a hand for its entry of the log."""

_MASKED: list[Action] = []
"""The value of ``_legal`` once the legal faces of the player to act are known (in
``_lmask``) but their list is not yet built (a driver that numbers actions from the mask,
such as the research adapters, never needs the list). Never handed out."""


_PerOptions = tuple[int, str, int, int, int, int, bool, dict[int, tuple[Action, ...]]]


def _per_options(opts: Options) -> _PerOptions:
    """What a state keeps of its options: the scale, the bid steps, the counters in a hand,
    the highest bid, the counter mask, the cards passed, ``must_head`` and the listed bids
    by the high bid (shared by every state of the same options)."""
    global _LAST_OPTIONS
    k = 10 if opts.scale == "x10" else 1
    key = (opts.counters, opts.bid_steps)
    fixed = _FIXED.get(key)
    if fixed is None:
        total = counter_total(opts.counters)
        top = MAX_SIDE_MELD + total
        while not bid_allowed(top, opts.bid_steps):
            top -= 1
        fixed = _FIXED[key] = (total, top, counter_mask(opts.counters))
    total, top, bits = fixed
    menus = _BID_MENUS.setdefault((opts.bid_steps, k, top), {})
    found = (k, opts.bid_steps, total, top, bits, opts.pass_count, opts.must_head, menus)
    _LAST_OPTIONS = (opts, found)
    return found


_LAST_OPTIONS: tuple[Options | None, _PerOptions] = (None, (1, "1", 0, 0, 0, 0, True, {}))
"""The options of the last state made and :func:`_per_options` of them."""

_SLOTS = (
    "_bid_menus", "_bt", "_led", "_legal", "_lmask", "_meld_src", "_melds", "_must_head",
    "_trick", "_wbeat", "_win", "_wpos", "_wseat", "bidder", "bids", "contract", "counter_bits",
    "dealer", "drawn", "given", "giver", "hand_no", "hands", "high_bid", "high_bidder",
    "is_terminal", "k", "leader", "_log", "log_melds", "max_bid", "meld_totals",
    "no_trump_meld", "npass", "passed", "pending", "phase", "private", "scores", "steps",
    "stuck", "total", "_tm", "tricks", "tricks_won", "trump", "turn", "winner", "_won",
    "history", "options", "seed", "num_players", "_rng", "_rng_shared")
"""The state's attributes (held in slots: a driver reads them at every step)."""
_slot_values = operator.attrgetter(*_SLOTS)


class DoubleDeckState(KeptTrick, PinochleActionText, GameState):
    """A whole game of double-deck partnership Pinochle (hands until a side wins)."""

    game_name: ClassVar[str] = "pinochle_dd"
    FORMS: ClassVar[ActionForms] = _FORMS
    deck: ClassVar[Deck] = DECK
    __slots__ = _SLOTS
    _BEATERS = BEATERS20
    _legal: list[Action] | None
    """The legal actions of this position once worked out; :data:`_MASKED` when a card
    played has worked out only the next player's legal faces (:attr:`_lmask`): their list
    is built when asked for."""
    _lmask: int
    """While :attr:`_legal` is known: the faces the player to act may play (0 outside the
    play); :meth:`apply` takes a listed play whose face is in it at once."""
    is_terminal: bool
    """True when the game is over: set together with the phase ``OVER`` (an attribute, not
    a property, since every step of a driver reads it)."""
    """The cards that faces name (a face is the card id of its first copy)."""

    def __init__(self, options: Options | None = None, seed: int = 0, *,
                 _blank: bool = False) -> None:
        opts = options if options is not None else Options()
        self.is_terminal = False
        self._legal = None
        super().__init__(opts, seed, 4)
        last, per_options = _LAST_OPTIONS
        if opts is not last:
            per_options = _per_options(opts)
        (self.k, self.steps, self.total, self.max_bid, self.counter_bits, self.npass,
         self._must_head, self._bid_menus) = per_options
        self.scores = [0, 0]
        self._log: list[dict[str, Any] | _RawEntry] = []
        """Per hand, its entry of :attr:`log`, or what it is made from while nobody has
        read it."""
        self.private: list[dict[int, Any] | tuple[int, int, int, int]] = []
        """Per logged hand, the passes each of the two exchanging seats saw (or, until read,
        the declarer, its partner and the cards each gave)."""
        self.log_melds: list[Any] = []
        """Per logged hand, what its melds are worked out from while not yet shown."""
        self.winner = -1
        self.hand_no = 1
        self.drawn = False
        """Ended at its deal limit with equal scores."""
        self.dealer = 0
        if _blank:
            self._reset_hand()
        else:
            rng = self.rng
            if type(rng) is random.Random:  # rng.randrange(4), the same draws
                dealer = rng.getrandbits(3)
                while dealer > 3:
                    dealer = rng.getrandbits(3)
                self.dealer = dealer
            else:
                self.dealer = rng.randrange(4)
            self._start_hand()

    # -- hand set-up ----------------------------------------------------------------------
    def _reset_hand(self) -> None:
        self.hands = [0, 0, 0, 0]
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
        self.given = [0, 0, 0, 0]
        self._melds: list[MeldResult] | None = None
        self._meld_src: tuple[tuple[int, ...], int] | None = None  # hands shown, trump
        self.meld_totals: list[int] | None = None
        self.no_trump_meld = False
        self._trick: list[int] = []
        self._win = -1
        """-2 while the trick's winner is not worked out (the trick was set whole), else
        anything: :attr:`_wseat` and :attr:`_wbeat` tell the winner (see :meth:`_winner`)."""
        self._wbeat = 0
        """The faces that beat the winning card of the trick so far."""
        self._wpos = 0
        """Its position in the trick (set by :meth:`_trick_winner` only)."""
        self._wseat = 0
        """The seat that played it."""
        self._led = 0
        """The faces of the suit led (once the trick has a card)."""
        self._bt: tuple[int, ...] = BEATERS20[0]
        self._tm = 0
        """In the play: the faces that beat each face, and the trump faces (trump's
        :data:`BEATERS20` row and :data:`SUIT20` mask, kept for the hand)."""
        self.leader = -1
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []
        self._won: list[int] | None = None
        self.tricks_won = [0, 0, 0, 0]
        self.phase = BIDDING
        self.turn = (self.dealer + 1) % 4
        self._legal = None
        self._lmask = 0

    def _start_hand(self) -> None:
        self._reset_hand()
        self.hands = deal(self.rng)

    current_player = property(operator.attrgetter("turn"), doc="""Seat to act, or TERMINAL
        (the turn is TERMINAL once the game is over; read without a Python call, since a
        driver asks at every step).""")

    def next_bid_min(self) -> int:
        """Lowest bid allowed now (unit scale)."""
        return next_allowed(self.high_bid, self.steps)

    # -- legal actions --------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """The legal actions in a stable order.

        In the auction: a pass, the lowest allowed bid and the meld bids of section 8 (the
        allowed raises by up to 5 below 60, as ``(K_MELD_BID, amount)``). Higher jump bids
        (any allowed amount up to :attr:`max_bid`, as ``(K_JUMP, amount)``) are legal too
        but not listed, so a uniformly random player is not made to bid far beyond any
        likely score; an action once listed is illegal whenever it is not listed. At the declarer's
        first lead the throw-in is listed after the cards.
        """
        legal = self._legal
        if legal is _MASKED:  # a card played worked out the legal faces, not their list
            held = self._lmask
            if held < 1024:
                legal = self._legal = [*_PL0[held]]
            else:
                legal = self._legal = _PL0[held & 1023] + _PL1[held >> 10]
            return legal
        if legal:
            return legal
        self._lmask = 0
        ph = self.phase
        if ph == PLAY:
            held = self.hands[self.turn] & LOW20
            trick = self._trick
            trump = self.trump
            bt = self._bt = BEATERS20[trump]
            tm = self._tm = SUIT20[trump]
            if trick:  # section 5: follow suit, else trump; beat the winner if able
                w = self._winner()
                self._wbeat = bt[w]
                led = self._led = _LED20[trick[0]]
                must = held & led or held & tm
                if must:
                    # with must_head, beat the winner when following its suit or over-trumping
                    held = (must & bt[w] or must) if self._must_head else must
                self._lmask = held
                legal = self._legal = _PL0[held & 1023] + _PL1[held >> 10]
                return legal
            if not self.tricks:  # the first lead
                held = self._play_mask()
            self._lmask = held
            legal = _PL0[held & 1023] + _PL1[held >> 10]
            if not self.tricks:
                legal.append(THROW_IN)
        elif ph == BIDDING:
            menus = self._bid_menus
            menu = menus.get(self.high_bid)
            if menu is None:
                menu = menus[self.high_bid] = self._bid_menu()
            legal = [*menu]
        elif ph == TRUMP:
            legal = _TRUMPS[:]
        elif ph == PASSING:
            held = self.hands[self.giver] & LOW20
            legal = _GV0[held & 1023] + _GV1[held >> 10]
        else:
            legal = []
        self._legal = legal
        return legal

    def _bid_menu(self) -> tuple[Action, ...]:
        """The listed bids over the current high bid (see :meth:`legal_actions`)."""
        lo = self.next_bid_min()
        if lo > self.max_bid:
            return (PASS,)
        k = self.k
        base = self.high_bid or MIN_BID
        return (PASS, _bid_object(K_BID, lo * k), *[_bid_object(K_MELD_BID, a * k) for a in range(
            lo + 1, min(base + 5, MELD_BIDS - 1) + 1) if bid_allowed(a, self.steps)])

    def _play_mask(self) -> int:
        """Faces the player to act may play (section 5); kept until the next action."""
        held = self.hands[self.turn] & LOW20
        trick = self._trick
        trump = self.trump
        if trick:
            w = self._winner()
            bt = BEATERS20[trump]
            self._wbeat = bt[w]
            must = held & _LED20[trick[0]] or held & SUIT20[trump]
            if must:
                # with must_head, beat the winner when following its suit or over-trumping
                held = (must & bt[w] or must) if self.options.must_head else must
        elif (not self.tricks and self.options.first_lead_trump
              and self.contract > MIN_BID and held & SUIT20[trump]):
            held &= SUIT20[trump]
        self._lmask = held
        return held

    def apply(self, action: Action) -> None:
        """Apply a legal action; :class:`IllegalAction` (state unchanged) otherwise.

        A card play checked against the legality already worked out is carried out at once;
        anything else is explained first."""
        m = self._lmask
        if m:  # cards may be played: a listed play is the pair object of its face
            try:
                f = action[1]  # type: ignore[index]
                listed = action is _PLAY_LIST[f]
            except (TypeError, IndexError, KeyError):  # not a listed play: see below
                listed = False
            # a legal play (see _lmask; a position whose list was dropped is worked out below)
            if listed and m >> f & 1 and self._legal is not None:
                seat = self.turn
                self.history.append(_SEAT_PLAYS[seat][f])  # (seat, action)
                hands = self.hands
                h = hands[seat]
                hands[seat] = h ^ _TOP_COPY[h & COLUMN[f]]  # remove(h, f)
                trick = self._trick
                if trick:
                    beat = self._wbeat
                    if beat >> f & 1:  # it beats the winner so far
                        self._wseat = seat
                        beat = self._wbeat = self._bt[f]
                    trick.append(f)
                    if len(trick) == 4:  # the trick is full: its winner takes it and leads
                        self._end_trick(trick)
                        return
                    led = self._led
                else:  # the lead
                    trick.append(f)
                    self._wseat = seat
                    beat = self._wbeat = self._bt[f]
                    led = self._led = _LED20[f]
                seat = self.turn = seat + 1 & 3
                # the next player's legal faces (section 5), worked out at once: follow
                # suit, else trump; with must_head, beat the winner if able
                h = hands[seat]
                must = h & led or h & self._tm
                if must:
                    if self._must_head:
                        must = must & beat or must
                    self._lmask = must
                else:
                    self._lmask = h & LOW20
                self._legal = _MASKED
                return
        try:
            c = _CODES[id(action)]
        except KeyError:
            c = _OTHER
        if self._legal is None:
            self.legal_actions()
        if c < _TRUMP_CODE:
            c -= FACES
            if c >= 0 and self.phase == PASSING:
                hands = self.hands
                g = self.giver
                h = hands[g]
                if h >> c & 1:  # one of the give actions legal_actions() lists
                    self.history.append((self.turn, action))
                    h ^= _TOP_COPY[h & COLUMN[c]]  # remove(h, c): its top level goes
                    p = self.pending
                    p |= (p & COLUMN[c]) << FACES | 1 << c  # add(p, c): one level more
                    if p.bit_count() == self.npass:
                        hands[g] = h
                        self._legal = None
                        self._passed_on(g, p)
                        if self.phase == PASSING:  # the other giver's legal actions
                            h = hands[self.giver]
                            self._legal = _GV0[h & 1023] + _GV1[h >> 10 & 1023]
                        return
                    hands[g] = h
                    self.pending = p
                    # the giver's legal actions, worked out at once
                    self._legal = _GV0[h & 1023] + _GV1[h >> 10 & 1023]
                    return
        elif c < _BID_CODE:
            if self.phase == TRUMP:  # one of the trumps legal_actions() lists
                seat = self.turn
                self._legal = None
                self._name_trump(c - _TRUMP_CODE)
                self.history.append((seat, action))
                return
        elif (c < _OTHER and self.phase == BIDDING
              and action in self._legal):  # type: ignore[operator]  # (listed: not None)
            seat = self.turn
            self.history.append((seat, action))
            amount = (c - _BID_CODE) // self.k
            self.bids.append((seat, amount))
            passed = self.passed
            if amount:
                self.high_bid = amount
                self.high_bidder = seat
            else:
                passed = self.passed = passed | 1 << seat
            n = passed.bit_count()
            if n >= 3 and (n == 4 or self.high_bidder >= 0):
                self._legal = None
                self._auction_over(seat)
                return
            self.turn = _NEXT_BIDDER[passed][seat]
            # the next bidder's listed bids, worked out at once
            menu = self._bid_menus.get(self.high_bid)
            self._legal = [*menu] if menu is not None else None
            return
        if type(action) is tuple and len(action) == 2 and self.phase != OVER:
            kind, value = action
            if type(kind) is int and type(value) is int:
                legal = self.legal_actions()
                if kind == K_PLAY:
                    if self.phase == PLAY and 0 <= value < FACES and self._lmask >> value & 1:
                        seat = self.turn
                        self._legal = None
                        self._play(value)
                        self.history.append((seat, action))
                        return
                elif action in legal:
                    seat = self.turn
                    self._apply(action)
                    self.history.append((seat, action))
                    return
        super().apply(action)

    # -- reasons --------------------------------------------------------------------------
    def card_reason(self, f: int) -> str | None:
        """Why the player to act may not play face ``f`` now (None if legal)."""
        if self._legal is None:
            self.legal_actions()
        if self._lmask >> f & 1:
            return None
        hand = self.hands[self.turn]
        if not count(hand, f):
            return f"You do not hold {card_text(f)}"
        trick = self.trick
        trump = self.trump
        ts = SUIT_SYMBOLS[trump]
        if not trick:
            return (f"Your first lead must be a trump ({ts}): the option first_lead_trump "
                    "asks for it when the contract is above the minimum")
        led = SUIT_OF[trick[0]]
        w = trick[winning_index(trick, trump)]
        ls = SUIT_SYMBOLS[led]
        held = hand & LOW20
        if held & SUIT20[led]:
            if SUIT_OF[f] != led:
                return f"You must follow suit: you hold {ls}"
            higher = faces_text(held & SUIT20[led] & ABOVE20[w])
            return f"You must beat the winning {card_text(w)} with a higher {ls}: you hold {higher}"
        if SUIT_OF[f] != trump:
            return f"You are void in {ls}, so you must trump: you hold {ts}"
        higher = faces_text(held & ABOVE20[w])
        return f"You must over-trump the winning {card_text(w)}: you hold {higher}"

    def illegal_card_reasons(self) -> dict[int, str]:
        """Reasons for every face of the acting hand that cannot be played now."""
        if self.phase != PLAY:
            return {}
        self.legal_actions()
        out = {}
        for f in range(FACES):
            if self.hands[self.turn] >> f & 1 and not self._lmask >> f & 1:
                reason = self.card_reason(f)
                if reason:
                    out[f] = reason
        return out

    def illegal_reason(self, action: Action) -> str | None:
        """Precise reason why ``action`` is illegal now, or None."""
        if self.phase == OVER:
            return "the game is over"
        if (not isinstance(action, tuple) or len(action) != 2
                or not all(type(x) is int for x in action)):
            return f"{safe_repr(action)} is not a Pinochle action"
        kind, value = action
        ph = self.phase
        want = {BIDDING: BID_KINDS, TRUMP: (K_TRUMP,), PASSING: (K_GIVE,),
                PLAY: (K_PLAY, K_THROW_IN)}[ph]
        if kind not in want:
            what = {BIDDING: "bid or pass", TRUMP: "name trump",
                    PASSING: "choose a card to pass", PLAY: "play a card"}[ph]
            name = KIND_NAMES[kind] if 0 <= kind < len(KIND_NAMES) else "?"
            return f"It is time to {what}, not to {name}"
        if ph == BIDDING:
            if kind == K_BID and value == 0:
                return None
            return self._bid_reason(kind, value)
        if kind == K_TRUMP:
            return None if 0 <= value < 4 else "Trump must be one of ♠ ♥ ♦ ♣"
        if kind == K_THROW_IN:
            if value != 0:
                return "A throw-in has no amount"
            if self.tricks or self.trick:
                return "The declarer may throw the hand in only before the first lead"
            return None
        if not 0 <= value < FACES:
            return f"{safe_repr(value)} is not a card (faces are 0 to 19)"
        if kind == K_GIVE:
            if not count(self.hands[self.giver], value):
                return f"You do not hold {card_text(value)}"
            return None
        return self.card_reason(value)

    def _bid_reason(self, kind: int, shown: int) -> str | None:
        k = self.k
        if shown <= 0:
            return f"{shown} is not a bid: bids are positive amounts"
        if shown % k:
            return f"Bids are multiples of {k} at this table"
        amount = shown // k
        if amount > self.max_bid:
            return self.bid_limit_reason()
        lo = self.next_bid_min()
        if amount < lo:
            if self.high_bid:
                return f"Your bid must be higher than {self.high_bid * k}"
            return f"The first bid must be at least {MIN_BID * k}"
        if not bid_allowed(amount, self.steps):
            return f"{shown} is not an allowed amount: {self.steps_text()}"
        right = bid_kind(amount, self.high_bid, self.steps)
        if kind != right:
            what = {K_BID: "the lowest bid", K_MELD_BID: "a meld bid (a raise by 1 to 5 "
                    "below 60)", K_JUMP: "a jump bid"}[right]
            return f"A bid of {shown} is {what} now: kind {right}"
        return None

    def steps_text(self) -> str:
        """The allowed bid amounts in words (shown scale)."""
        k = self.k
        return {"1-then-5": f"every {k} from {50 * k} to {60 * k}, then steps of {5 * k}",
                "1": f"every {k} from {50 * k}",
                "5": f"steps of {5 * k} from {50 * k}",
                "10-from-100": f"every {k} from {50 * k} to {100 * k}, then steps of {10 * k}",
                }[self.steps]

    def bid_limit_reason(self) -> str:
        """Why no bid above :attr:`max_bid` is legal."""
        k = self.k
        top = self.max_bid * k
        if self.high_bid >= self.max_bid:
            return (f"The bid stands at {top}, the most a side can score in a hand: "
                    "you can only pass")
        return (f"No bid above {top} is possible: the most a side can score in a hand is the "
                f"largest possible meld ({MAX_SIDE_MELD * k}) plus every counter "
                f"({self.total * k})")

    # -- transitions ----------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        assert isinstance(action, tuple)
        self._legal = None
        kind, value = action
        if kind == K_PLAY:
            self._play(value)
        elif kind in BID_KINDS:
            self._bid(value // self.k)
        elif kind == K_TRUMP:
            self._name_trump(value)
        elif kind == K_GIVE:
            self._give(value)
        else:
            self._end_hand("throw_in")

    def _bid(self, amount: int) -> None:
        seat = self.turn
        self.bids.append((seat, amount))
        if amount == 0:
            self.passed |= 1 << seat
        else:
            self.high_bid, self.high_bidder = amount, seat
        self._auction_over(seat)

    def _auction_over(self, seat: int) -> None:
        """After a bid or pass: the auction ends (three passes after a bid, or four), or
        the next seat that has not passed bids."""
        passes = self.passed.bit_count()
        if passes == 3 and self.high_bidder >= 0:
            self._win_bid(self.high_bidder, self.high_bid)
        elif passes == 4:
            if self.options.all_pass == "stuck":
                self.stuck = True
                self._win_bid(self.dealer, MIN_BID)
            else:
                self._record({"hand": self.hand_no, "dealer": self.dealer, "redeal": True,
                              "bids": self._bids_json(), "scores": self._shown(self.scores)},
                             {})
                self._next_hand()
        else:
            self.turn = _NEXT_BIDDER[self.passed][seat]

    def _win_bid(self, seat: int, amount: int) -> None:
        self.bidder, self.contract = seat, amount
        self.phase = TRUMP
        self.turn = seat

    def _name_trump(self, suit: int) -> None:
        self.trump = suit
        if self.npass:
            self.phase = PASSING
            self.giver = self.turn = (self.bidder + 2) % 4
            self.pending = 0
        else:
            self._meld()

    def _give(self, f: int) -> None:
        g = self.giver
        hands = self.hands
        h = hands[g]
        hands[g] = h ^ _TOP_COPY[h & COLUMN[f]]  # remove(h, f): its top level goes
        p = self.pending
        p |= (p & COLUMN[f]) << FACES | 1 << f  # add(p, f): one level more
        self.pending = p
        if p.bit_count() == self.npass:
            self._passed_on(g, p)

    def _passed_on(self, g: int, p: int) -> None:
        """The giver ``g`` has chosen every card ``p`` it passes: its partner takes them."""
        hands = self.hands
        receiver = (g + 2) % 4
        h = hands[receiver]
        q = p
        while q:  # add each level of the cards passed: one copy more of each of its faces
            fs = q & LOW20
            h |= (h & fs * _LOW_LEVELS) << FACES | fs  # add(h, f) for every face f in fs
            q >>= FACES
        hands[receiver] = h
        self.given[g] = p
        self.pending = 0
        if g != self.bidder:
            self.giver = self.turn = self.bidder
        else:
            self.giver = -1
            self._meld()

    def _meld(self) -> None:
        """Show every seat's meld, then play, or end the hand unplayed (sections 3.2, 6.4)."""
        o = self.options
        b = self.bidder
        trump = self.trump
        hand = self.hands[b]
        no_marriage = o.marriage_required and not (
            count(hand, face(trump, KING)) and count(hand, face(trump, QUEEN)))
        self.no_trump_meld = no_marriage
        shown = -1 if no_marriage else trump
        self._melds = None
        self._meld_src = (tuple(self.hands), shown)
        self.meld_totals = [meld_total(h, shown) for h in self.hands]
        if no_marriage:
            self._end_hand("no_marriage")
            return
        if o.min_meld_20 and self.side_meld(b % 2) < MIN_MELD:
            self._end_hand("min_meld")
            return
        self.phase = PLAY
        self._bt = BEATERS20[trump]
        self._tm = SUIT20[trump]
        self.leader = self.turn = b
        self._trick = []
        self._win = -1

    def side_meld(self, side: int) -> int:
        """Meld of a side (unit scale) once shown."""
        totals = self.meld_totals
        assert totals is not None
        return totals[side] + totals[side + 2]

    @property
    def melds(self) -> list[MeldResult] | None:
        """Every seat's meld with its breakdown once shown, else None (the totals decide
        the play at once; the breakdowns are worked out when something reads them)."""
        if self._melds is None and self._meld_src is not None:
            hands, trump = self._meld_src
            self._melds = [meld_breakdown(h, trump) for h in hands]
        return self._melds

    @melds.setter
    def melds(self, value: list[MeldResult] | None) -> None:
        self._melds = value
        self._meld_src = None
        self.meld_totals = None if value is None else [m.total for m in value]

    def _winner(self) -> int:
        """The winning face of the current (non-empty) trick, worked out if the trick was
        set whole (then kept in :attr:`_wseat` and :attr:`_wbeat`)."""
        if self._win == -2:
            w = self._trick_winner()
            self._wseat = self.leader + self._wpos & 3
            self._wbeat = BEATERS20[self.trump][w]
            return w
        return self._trick[self._wseat - self.leader & 3]

    def _play(self, f: int) -> None:
        seat = self.turn
        self.hands[seat] = remove(self.hands[seat], f)
        trick = self._trick
        w = f
        if trick:
            w = self._winner()
            if BEATERS20[self.trump][w] >> f & 1:
                w = f
                self._wseat = seat
        else:
            self._wseat = seat
            self._led = _LED20[f]
        self._wbeat = BEATERS20[self.trump][w]
        trick.append(f)
        if len(trick) < 4:
            self.turn = (seat + 1) % 4
            return
        self._end_trick(trick)

    def _end_trick(self, trick: list[int]) -> None:
        """The trick is full: its winner takes it and leads, or the hand ends."""
        leader = self.leader
        w = self._wseat
        self._won = None
        self.tricks_won[w] += 1
        self.tricks.append((leader, tuple(trick), w))
        self._trick = []
        self._win = -1
        held = self.hands[w] & LOW20
        if held:  # the winner leads any card it holds
            self.leader = self.turn = w
            self._lmask = held
            self._legal = _MASKED
        else:
            self._legal = None
            self._end_hand("played")

    @property
    def won(self) -> list[int]:
        """The cards each side has taken this hand (multiset masks), worked out from the
        tricks when read."""
        won = self._won
        if won is None:
            won = [0, 0]
            for _, cards, w in self.tricks:
                m = won[w & 1]
                for f in cards:
                    m |= (m & COLUMN[f]) << FACES | 1 << f  # add(m, f): one level more
                won[w & 1] = m
            self._won = won
        return won

    @won.setter
    def won(self, value: list[int]) -> None:
        self._won = value

    def counters(self) -> list[int]:
        """Counters taken by each side so far (unit scale; the last trick's 2 once the
        hand is over)."""
        cv = _COUNTER_VALUES[self.counter_bits]
        s0 = s1 = 0
        for _, (a, b, c, d), w in self.tricks:
            if w & 1:
                s1 += cv[a] + cv[b] + cv[c] + cv[d]
            else:
                s0 += cv[a] + cv[b] + cv[c] + cv[d]
        out = [s0, s1]
        if len(self.tricks) == 20:
            out[self.tricks[-1][2] % 2] += LAST_TRICK
        return out

    def _played_counters(self) -> list[int]:
        """:meth:`counters` of a hand played to its end: the other side took the rest."""
        cv = _COUNTER_VALUES[self.counter_bits]
        tricks = self.tricks
        s1 = LAST_TRICK if tricks[-1][2] & 1 else 0
        for _, (a, b, c, d), w in tricks:
            if w & 1:
                s1 += cv[a] + cv[b] + cv[c] + cv[d]
        return [self.total - s1, s1]

    def _shown(self, values: Sequence[int]) -> list[int]:
        return [v * self.k for v in values]

    def _bids_json(self) -> list[list[int]]:
        k = self.k
        if k == 1:
            return list(map(list, self.bids))
        return [[s, a * k] for s, a in self.bids]

    def _end_hand(self, how: str) -> None:
        """Score the hand (``played``, ``throw_in``, ``no_marriage`` or ``min_meld``)."""
        b = self.bidder
        bside = b & 1
        options = self.options
        mt = self.meld_totals
        assert mt is not None
        m0, m1 = side_melds = [mt[0] + mt[2], mt[1] + mt[3]]
        counters: list[int] | None = None
        side_tricks: list[int] | None = None
        if how == "played":
            counters = self._played_counters()
            tw = self.tricks_won
            side_tricks = [tw[0] + tw[2], tw[1] + tw[3]]
        delta, made = hand_scores(self.contract, bside, side_melds, counters, side_tricks,
                                  options, conceded=how == "throw_in")
        s0 = self.scores[0] + delta[0]
        s1 = self.scores[1] + delta[1]
        self.scores = [s0, s1]
        tricks = self.tricks
        # the entry of the log, made into its dict when read (see log)
        self._log.append((self.hand_no, self.dealer, self.bids, b, self.contract, self.stuck,
                          self.trump, how, self.no_trump_meld, m0, m1, counters, side_tricks,
                          made, delta, s0, s1, tricks[-1] if tricks else None))
        given = self.given
        if self.npass and (given[0] or given[1] or given[2] or given[3]):
            partner = (b + 2) & 3
            # the declarer, its partner and what each gave: listed when read
            self.private.append((b, partner, given[b], given[partner]))
        else:
            self.private.append({})
        self.log_melds.append(self._meld_src if self._melds is None else self._melds)
        target = options.target
        if s0 >= target or s1 >= target:
            self.winner = game_winner(self.scores, bside, target)
            self.phase = OVER
            self.is_terminal = True
            self.turn = TERMINAL
            return
        self._next_hand()

    @property
    def log(self) -> list[dict[str, Any]]:
        """Per hand dealt and over, its summary (see the package docstring: the entries of
        the observation's ``history``, without the melds until worked out)."""
        for i in range(len(self._log)):
            self._logged(i)
        return self._log  # type: ignore[return-value]  # every entry is a dict now

    @log.setter
    def log(self, value: list[dict[str, Any]]) -> None:
        self._log = value  # type: ignore[assignment]  # a list of dicts is one of entries

    def _log_dict(self, raw: _RawEntry) -> dict[str, Any]:
        """The summary of a hand from what :meth:`_end_hand` kept."""
        (hand_no, dealer, bids, b, contract, stuck, trump, how, no_trump_meld, m0, m1,
         counters, side_tricks, made, delta, s0, s1, last) = raw
        k = self.k
        saved: list[bool] | None = None
        if counters is not None:
            assert side_tricks is not None
            options = self.options
            saved = [meld_saved(m0, counters[0], side_tricks[0], options),
                     meld_saved(m1, counters[1], side_tricks[1], options)]
        last_trick: list[list[int]] | None = None
        last_winner: int | None = None
        if last is not None:
            ld, (x0, x1, x2, x3), last_winner = last
            last_trick = [[ld, x0], [(ld + 1) & 3, x1], [(ld + 2) & 3, x2], [(ld + 3) & 3, x3]]
        return {
            "hand": hand_no, "dealer": dealer, "redeal": False,
            "bids": [[s, a * k] for s, a in bids], "bidder": b, "contract": contract * k,
            "stuck_dealer": stuck, "trump": trump,
            "how": how, "no_trump_meld": no_trump_meld,
            "melds": None, "side_melds": [m0 * k, m1 * k],
            "counters": None if counters is None else [counters[0] * k, counters[1] * k],
            "tricks": side_tricks, "made": made,
            "meld_saved": saved,
            "score_change": [delta[0] * k, delta[1] * k],
            "scores": [s0 * k, s1 * k],
            "last_trick": last_trick,
            "last_trick_winner": last_winner,
        }

    def _record(self, summary: dict[str, Any],
                passes: dict[int, Any] | tuple[int, int, int, int]) -> None:
        self._log.append(summary)
        self.private.append(passes)
        self.log_melds.append(None)

    def _logged(self, i: int) -> dict[str, Any]:
        """Logged hand ``i``'s summary, made from what :meth:`_end_hand` kept (once)."""
        entry = self._log[i]
        if isinstance(entry, tuple):
            entry = self._log[i] = self._log_dict(entry)
        return entry

    def _history_entry(self, i: int) -> dict[str, Any]:
        """Logged hand ``i`` with its melds worked out (once) if they are still due (this
        entry alone: :attr:`log` walks every hand)."""
        entry = self._logged(i)
        if entry.get("melds", 0) is None:
            src = self.log_melds[i]
            if isinstance(src, tuple):
                hands, trump = src
                melds = [meld_breakdown(h, trump) for h in hands]
            else:
                assert src is not None
                melds = src
            entry = self._log[i] = {**entry, "melds": [m.to_json(self.k) for m in melds]}
        return entry

    def _next_hand(self) -> None:
        if self.deal_limit is not None and self.hand_no >= self.deal_limit:
            # The deal limit (research adapters, benchmarks): the side ahead wins.
            s0, s1 = self.scores
            self.winner = 0 if s0 > s1 else 1 if s1 > s0 else -1
            self.drawn = s0 == s1
            self.phase = OVER
            self.is_terminal = True
            self.turn = TERMINAL
            return
        self.dealer = (self.dealer + 1) % 4
        self.hand_no += 1
        self._start_hand()

    # -- end of game ----------------------------------------------------------------------
    def returns(self) -> tuple[float, ...]:
        """Each seat's side score in the shown scale (partners share)."""
        k = self.k
        s0, s1 = self.scores
        return (float(s0 * k), float(s1 * k), float(s0 * k), float(s1 * k))

    def winners(self) -> tuple[int, ...]:
        """The winning side's seats: the declarer's side when both sides reach the target."""
        if self.drawn:
            return (0, 1, 2, 3)
        if self.winner < 0:
            return ()
        return (self.winner, self.winner + 2)

    # -- copies ---------------------------------------------------------------------------
    def clone(self) -> DoubleDeckState:
        """Independent copy (lists copied shallowly, RNG shared until either draws)."""
        c = object.__new__(type(self))
        c.__dict__.update(self.__dict__)
        for name, value in zip(_SLOTS, _slot_values(self), strict=True):
            setattr(c, name, value)
        c.hands = self.hands[:]
        c.scores = self.scores[:]
        c._log = self._log[:]
        c.private = self.private[:]
        c.log_melds = self.log_melds[:]
        c.bids = self.bids[:]
        c.given = self.given[:]
        c._trick = self._trick[:]
        c.tricks = self.tricks[:]
        c._won = None if self._won is None else self._won[:]
        c.tricks_won = self.tricks_won[:]
        c._legal = None
        c.history = self.history[:]
        self.share_rng(c)
        return c

    # -- observation ----------------------------------------------------------------------
    def observation(self, seat: int) -> dict[str, JSON]:
        """What ``seat`` may see; schema in the package docstring."""
        ph = self.phase
        b = self.bidder
        k = self.k
        mine = b >= 0 and seat % 2 == b % 2
        partner = (seat + 2) % 4
        passing = {
            "count": self.npass,
            "giver": self.giver if ph == PASSING else None,
            "pending_count": self.pending.bit_count(),
            "selected": faces_list(self.pending) if seat == self.giver else [],
            "gave": faces_list(self.given[seat]) if mine else [],
            "received": faces_list(self.given[partner]) if mine else [],
            "done": [self.given[s] != 0 for s in range(4)],
        }
        history = []
        for i, passes in enumerate(self.private):
            if isinstance(passes, tuple):
                decl, decl_partner, gave_d, gave_p = passes
                passes = self.private[i] = {
                    decl: {"gave": faces_list(gave_d), "received": faces_list(gave_p)},
                    decl_partner: {"gave": faces_list(gave_p), "received": faces_list(gave_d)}}
            history.append({**self._history_entry(i), "passes": passes.get(seat)})
        return {
            "game": self.game_name,
            "seat": seat,
            "players": 4,
            "options": options_to_dict(self.options),
            "scale": k,
            "hand_number": self.hand_no,
            "dealer": self.dealer,
            "phase": PHASE_NAMES[ph],
            "to_act": self.current_player,
            "scores": self._shown(self.scores),
            "target": self.options.target * k,
            "winner": self.winner if self.winner >= 0 else None,
            "hand": faces_list(self.hands[seat]),
            "hand_sizes": [h.bit_count() for h in self.hands],
            "bids": self._bids_json(),
            "passed": [bool(self.passed >> s & 1) for s in range(4)],
            "high_bid": self.high_bid * k or None,
            "high_bidder": self.high_bidder if self.high_bidder >= 0 else None,
            "min_bid": MIN_BID * k,
            "next_bid": (self.next_bid_min() * k if ph == BIDDING else None),
            "max_bid": self.max_bid * k,
            "bidder": b if b >= 0 else None,
            "contract": self.contract * k or None,
            "stuck_dealer": self.stuck,
            "trump": self.trump if self.trump >= 0 else None,
            "passing": passing,
            "melds": None if self.melds is None else [m.to_json(k) for m in self.melds],
            "counters_total": self.total * k,
            "leader": self.leader if ph == PLAY else None,
            "trick": [[(self.leader + i) % 4, c] for i, c in enumerate(self.trick)],
            "tricks": [{"leader": ld, "cards": [[(ld + i) % 4, c] for i, c in enumerate(cs)],
                        "winner": w} for ld, cs, w in self.tricks],
            "tricks_won": self.tricks_won[:],
            "history": history,
        }

    # -- action forms ---------------------------------------------------------------------
    def public_action(self, action: Action, viewer: int) -> str | None:
        """Only the giver sees a card passed while the passing goes on (the receiver's
        observation shows the passed cards together once all are given)."""
        if viewer == self.current_player or not isinstance(action, tuple):
            return None
        return "passes a card" if action[0] == K_GIVE else None

    def brings_to_light(self, before: GameState) -> bool:
        """Besides the default (a deal, cards received, the end), the melds laid open."""
        assert isinstance(before, DoubleDeckState)
        if before.meld_totals is None and self.meld_totals is not None:
            return True
        return super().brings_to_light(before)

    def choices(self) -> list[Action]:
        """The numbered menu shown to a person: in the auction a pass, the lowest bid and
        the meld-bid raises (+1 … +5 below 60) or a few higher amounts; else the legal
        actions with cards in display order."""
        if self.phase == BIDDING:
            lo = self.next_bid_min()
            if lo > self.max_bid:
                return [PASS]
            amounts = [lo]
            while len(amounts) < 6:
                nxt = next_allowed(amounts[-1], self.steps)
                if nxt > self.max_bid:
                    break
                amounts.append(nxt)
            menu: list[Action] = [PASS]
            menu += [(bid_kind(a, self.high_bid, self.steps), a * self.k) for a in amounts]
            return menu
        legal = list(self.legal_actions())
        if self.phase in (PASSING, PLAY):
            order = {f: i for i, f in enumerate(faces_list(
                sum(1 << f for f in range(FACES))))}
            legal.sort(key=lambda a: (a[0] == K_THROW_IN,  # type: ignore[index]
                                      order.get(a[1], 0)))  # type: ignore[index]
        return legal

    def _card_action(self, kind: int, text: str) -> Action:
        try:
            f = DECK.parse_face(text)
        except CardParseError as exc:
            raise ActionParseError(str(exc)) from None
        return (kind, f)

    def _card_text(self, card: int) -> str:
        return card_text(card)

    def _bid_action(self, shown: int) -> Action:
        """A bid of ``shown`` (shown scale): the lowest bid, or a jump bid above it."""
        if self.phase == BIDDING and shown % self.k == 0:
            return (bid_kind(shown // self.k, self.high_bid, self.steps), shown)
        return (K_BID, shown)


def hands_dealt(state: GameState) -> int:
    """Hands dealt so far, the current one included (all-pass redeals count)."""
    assert isinstance(state, DoubleDeckState)
    return state.hand_no
