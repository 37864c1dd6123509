"""Two-hand Pinochle engine: options, card tables, meld generator and the game state.

Cards are the 48 physical cards of :data:`cardplaza.core.cards.PINOCHLE`:
``card = face + 24 * copy`` and ``face = suit * 6 + rank``, rank ``0..5`` = 9, J, Q, K, 10, A
(low to high), suit ``0..3`` = ♠ ♥ ♦ ♣. Card sets are ``int`` bitmasks.

Actions (all hashable):

* ``c`` (``int`` 0..47) — play physical card ``c``;
* :data:`NO_MELD` (``48``) — decline to meld after a won stock-phase trick;
* ``(meld_type, mask)`` — meld the cards of ``mask`` as meld type ``meld_type`` (index into
  :data:`MELD_NAMES`).

Seats: seat 0 is the human, seat 1 the computer. ``Options.dealer`` names the dealer
(default 1: the computer deals, so seat 0 leads trick 1).
"""

from __future__ import annotations

import itertools
import operator
import re
from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Literal, cast

from cardplaza.core.cards import PINOCHLE, CardParseError, parse_face, shuffle
from cardplaza.core.protocol import (
    JSON,
    TERMINAL,
    Action,
    ActionParseError,
    GameState,
)
from cardplaza.games.pinochle_common.display import display_order as _sorted_cards

# --------------------------------------------------------------------------------------
# Options
# --------------------------------------------------------------------------------------

Level = Literal["streak", "1", "2", "3", "4"]


@dataclass(frozen=True)
class Options:
    """Rule options of two-hand Pinochle (spec section 12).

    ``double_melds`` (TO1): double run and the four double arounds exist.
    ``new_card_rule`` (TO2): every meld needs a card from the concealed hand.
    ``level`` (TO3): ``"streak"`` ladder or a fixed practice level; the engine only exposes it.
    ``dealer``: seat that deals (1 = the computer, so the human at seat 0 leads first).
    """

    double_melds: bool = False
    new_card_rule: bool = True
    level: Level = "streak"
    dealer: int = 1

    def __post_init__(self) -> None:
        if self.dealer not in (0, 1):
            raise ValueError(f"option dealer must be 0 (human deals) or 1 (computer deals); "
                             f"got {self.dealer!r}")
        if self.level not in ("streak", "1", "2", "3", "4"):
            raise ValueError(f"option level must be streak, 1, 2, 3 or 4; got {self.level!r}")
        for name in ("double_melds", "new_card_rule"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"option {name} must be on or off")


# --------------------------------------------------------------------------------------
# Card tables
# --------------------------------------------------------------------------------------

NCARDS = 48
ALL_CARDS = (1 << NCARDS) - 1
_BIT = tuple(1 << c for c in range(NCARDS))
_DECK = tuple(range(NCARDS))
NO_MELD = 48
NINE, JACK, QUEEN, KING, TEN, ACE = range(6)
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")

SUIT_OF: tuple[int, ...] = tuple((c % 24) // 6 for c in range(NCARDS))
RANK_OF: tuple[int, ...] = tuple(c % 6 for c in range(NCARDS))
FACE_OF: tuple[int, ...] = tuple(c % 24 for c in range(NCARDS))
POINTS: tuple[int, ...] = tuple(10 if c % 6 >= KING else 0 for c in range(NCARDS))
SUIT_MASK: tuple[int, ...] = tuple(
    sum(1 << c for c in range(NCARDS) if SUIT_OF[c] == s) for s in range(4))
HIGHER: tuple[int, ...] = tuple(
    sum(1 << d for d in range(NCARDS) if SUIT_OF[d] == SUIT_OF[c] and RANK_OF[d] > RANK_OF[c])
    for c in range(NCARDS))
CARD_TEXT: tuple[str, ...] = tuple(PINOCHLE.text(c) for c in range(NCARDS))

# Meld groups (section 6.4): bit index of each group.
SEQ, PIN, ACES, KINGS, QUEENS, JACKS = range(6)
GROUP_NAMES = ("sequence", "pinochle", "aces around", "kings around", "queens around",
               "jacks around")
GROUP_KEYS = ("sequence", "pinochle", "aces", "kings", "queens", "jacks")

# Meld types: index -> (name, group, points, double-meld option).
RUN, ROYAL, MARRIAGE, DIX, PINOCHLE_MELD, DOUBLE_PINOCHLE = range(6)
ACES_AROUND, KINGS_AROUND, QUEENS_AROUND, JACKS_AROUND = range(6, 10)
DOUBLE_RUN, ACES_1000, KINGS_800, QUEENS_600, JACKS_400 = range(10, 15)
MELD_NAMES = ("run", "royal marriage", "marriage", "dix", "pinochle", "double pinochle",
              "aces around", "kings around", "queens around", "jacks around",
              "double run", "1000 aces", "800 kings", "600 queens", "400 jacks")
MELD_GROUP = (SEQ, SEQ, SEQ, SEQ, PIN, PIN, ACES, KINGS, QUEENS, JACKS,
              SEQ, ACES, KINGS, QUEENS, JACKS)
MELD_POINTS = (150, 40, 20, 10, 40, 300, 100, 80, 60, 40, 1500, 1000, 800, 600, 400)
MELD_IS_DOUBLE = tuple(t >= DOUBLE_RUN for t in range(15))
MELD_DESCRIPTION = (
    "A, 10, K, Q and J of trump", "K and Q of trump", "K and Q of one non-trump suit",
    "the 9 of trump", "Q♠ and J♦", "both Q♠ and both J♦", "one A of each suit",
    "one K of each suit", "one Q of each suit", "one J of each suit",
    "both copies of A, 10, K, Q and J of trump", "all eight aces", "all eight kings",
    "all eight queens", "all eight jacks")
AROUND_RANK = {ACES_AROUND: ACE, KINGS_AROUND: KING, QUEENS_AROUND: QUEEN,
               JACKS_AROUND: JACK, ACES_1000: ACE, KINGS_800: KING, QUEENS_600: QUEEN,
               JACKS_400: JACK}

# Meld instances per trump: (type, group, faces, copies needed per face).
Instance = tuple[int, int, tuple[int, ...], int]


def _instances(trump: int) -> tuple[Instance, ...]:
    out: list[Instance] = []
    run_faces = tuple(trump * 6 + r for r in (ACE, TEN, KING, QUEEN, JACK))
    out.append((RUN, SEQ, run_faces, 1))
    out.append((ROYAL, SEQ, (trump * 6 + KING, trump * 6 + QUEEN), 1))
    for s in range(4):
        if s != trump:
            out.append((MARRIAGE, SEQ, (s * 6 + KING, s * 6 + QUEEN), 1))
    out.append((DIX, SEQ, (trump * 6 + NINE,), 1))
    out.append((PINOCHLE_MELD, PIN, (0 * 6 + QUEEN, 2 * 6 + JACK), 1))
    out.append((DOUBLE_PINOCHLE, PIN, (0 * 6 + QUEEN, 2 * 6 + JACK), 2))
    for t in (ACES_AROUND, KINGS_AROUND, QUEENS_AROUND, JACKS_AROUND):
        out.append((t, MELD_GROUP[t], tuple(s * 6 + AROUND_RANK[t] for s in range(4)), 1))
    out.append((DOUBLE_RUN, SEQ, run_faces, 2))
    for t in (ACES_1000, KINGS_800, QUEENS_600, JACKS_400):
        out.append((t, MELD_GROUP[t], tuple(s * 6 + AROUND_RANK[t] for s in range(4)), 2))
    return tuple(out)


INSTANCES: tuple[tuple[Instance, ...], ...] = tuple(_instances(t) for t in range(4))
# Per (trump, double melds): (type, group, faces, need, mask of both copies of the faces,
# number of cards).
_FastInstance = tuple[int, int, tuple[int, ...], int, int, int]
_FAST: tuple[tuple[tuple[_FastInstance, ...], ...], ...] = tuple(
    tuple(tuple((t, g, faces, need, sum((1 << f) | (1 << (f + 24)) for f in faces),
                 need * len(faces))
                for t, g, faces, need in INSTANCES[trump]
                if dbl or not MELD_IS_DOUBLE[t])
          for dbl in (False, True))
    for trump in range(4))


_M24 = (1 << 24) - 1
_FaceInstance = tuple[int, int, tuple[int, ...], int, int]
_BY_FACE: tuple[tuple[tuple[_FaceInstance, ...], ...], ...] = tuple(
    tuple(tuple((t, g, faces, need, sum(1 << f for f in faces))
                for t, g, faces, need, _span, _size in _FAST[trump][dbl])
          for dbl in (False, True))
    for trump in range(4))
"""As :data:`_FAST`, with the mask of the instance's faces (24 bits) in place of the span."""


def _chunk(offset: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(offset + i for i in range(12) if (m >> i) & 1) for m in range(4096))


_CHUNK0, _CHUNK1, _CHUNK2, _CHUNK3 = (_chunk(12 * k) for k in range(4))
_KEEP = tuple(~(1 << c) for c in range(NCARDS))
"""Every card but one, as a mask to remove it with."""
_SEAT_CARD = tuple(tuple((seat, c) for c in range(NCARDS + 1)) for seat in (0, 1))
"""The history entry of each seat's play of each card and of its ``no meld`` (made
once)."""


STEP_PLAY, STEP_MELD, STEP_END = range(3)
STEP_NAMES = ("play", "meld", "end")

_MELD_ALIASES: dict[str, int] = {name: i for i, name in enumerate(MELD_NAMES)}
_MELD_ALIASES.update({
    "royal": ROYAL, "royal marriage": ROYAL, "rm": ROYAL, "double pinochle": DOUBLE_PINOCHLE,
    "aces": ACES_AROUND, "kings": KINGS_AROUND, "queens": QUEENS_AROUND, "jacks": JACKS_AROUND,
    "100 aces": ACES_AROUND, "80 kings": KINGS_AROUND, "60 queens": QUEENS_AROUND,
    "40 jacks": JACKS_AROUND, "double aces": ACES_1000, "double kings": KINGS_800,
    "double queens": QUEENS_600, "double jacks": JACKS_400, "double aces around": ACES_1000,
    "double kings around": KINGS_800, "double queens around": QUEENS_600,
    "double jacks around": JACKS_400, "sequence": RUN,
})
_MELD_ALIAS_WORDS = sorted(_MELD_ALIASES, key=lambda s: -len(s.split()))
_CARD_TOKEN = re.compile(r"^(10|[9tjqka])([shdc♠♥♦♣♤♡♢♧])(?:#([12]))?$", re.IGNORECASE)
_NO_MELD_WORDS = {"no meld", "no", "pass", "decline", "none", "nomeld", "no-meld", "n", "-"}


def mask_text(mask: int) -> str:
    """Cards of a mask, sorted by suit then rank high to low."""
    return PINOCHLE.format_mask(mask)


def iter_bits(mask: int) -> list[int]:
    """Set bit positions of ``mask`` as a list (fast path for small masks)."""
    if mask < 4096:
        return list(_CHUNK0[mask])
    return [*_CHUNK0[mask & 4095], *_CHUNK1[(mask >> 12) & 4095],
            *_CHUNK2[(mask >> 24) & 4095], *_CHUNK3[(mask >> 36) & 4095]]


def trick_winner(lead: int, follow: int, trump: int) -> bool:
    """True when the follower's card beats the led card (5.3)."""
    sf = SUIT_OF[follow]
    if sf == SUIT_OF[lead]:
        return RANK_OF[follow] > RANK_OF[lead]
    return sf == trump


_BEATS = tuple(tuple(tuple(trick_winner(lead, c, trump) for c in range(NCARDS))
                     for lead in range(NCARDS))
               for trump in range(4))
"""By trump and led card, :func:`trick_winner` of each answer."""


def playoff_follow_mask(hand: int, lead: int, trump: int) -> int:
    """Cards the follower may play in the playoff (7.2)."""
    same = hand & SUIT_MASK[SUIT_OF[lead]]
    if same:
        win = same & HIGHER[lead]
        return win or same
    trumps = hand & SUIT_MASK[trump]
    return trumps or hand


def display_order(actions: Sequence[Action]) -> list[Action]:
    """Legal actions in display order: plays by suit (♠♥♦♣) then rank high to low, melds in
    their legal order, ``no meld`` last. Numbers typed by a person index this list."""
    plays = sorted((a for a in actions if type(a) is int and a != NO_MELD),
                   key=lambda c: (SUIT_OF[c], -RANK_OF[c], c))
    melds = [a for a in actions if type(a) is not int]
    rest = [a for a in actions if a == NO_MELD]
    return [*plays, *melds, *rest]


def meld_card_order(t: int, mask: int) -> list[int]:
    """Cards of a meld in reading order (A 10 K Q J; arounds ♠♥♦♣; Q♠ before J♦)."""
    cards = iter_bits(mask)
    if t in AROUND_RANK:
        return sorted(cards, key=lambda c: (SUIT_OF[c], c))
    return sorted(cards, key=lambda c: (SUIT_OF[c] != 0, -RANK_OF[c], c))


def _presence(trump: int, need: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Three tables over the 8-bit thirds of a 24-bit face mask: the instances of
    ``INSTANCES[trump]`` (with the double melds) needing ``need`` copies whose faces in that
    third all lie in the mask, as bits by instance index."""
    insts = _BY_FACE[trump][True]
    out: list[tuple[int, ...]] = []
    for third in range(3):
        table = []
        for m in range(256):
            bits = 0
            for k, (_t, _g, _faces, nd, fmask) in enumerate(insts):
                part = fmask >> 8 * third & 255
                if nd == need and part & m == part:
                    bits |= 1 << k
            table.append(bits)
        out.append(tuple(table))
    return out[0], out[1], out[2]


_PRESENT = tuple((_presence(trump, 1), _presence(trump, 2)) for trump in range(4))
"""By trump and copies needed: which instances a hand's faces hold (:func:`_presence`)."""
_IN_TABLE = tuple(((1 << len(_BY_FACE[0][False])) - 1, (1 << len(_BY_FACE[0][True])) - 1)
                  for _ in range(4))
"""By trump, the instance bits of each setting of the double-melds option (the double melds
come last in the table)."""
_INSTANCE_BY_BIT = tuple({1 << k: inst for k, inst in enumerate(_BY_FACE[trump][True])}
                         for trump in range(4))
"""The instance of each instance bit, by trump."""


def _halves(trump: int, need: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """As :data:`_PRESENT`, over the two 12-bit halves of a face mask (the other half's
    faces taken as held)."""
    a0, a1, a2 = _PRESENT[trump][need - 1]
    low = tuple(a0[m & 255] & a1[m >> 8 | 0xF0] & a2[255] for m in range(4096))
    high = tuple(a0[255] & a1[(m & 15) << 4 | 0x0F] & a2[m >> 4] for m in range(4096))
    return low, high


def _masked(tables: tuple[tuple[int, ...], ...], keep: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(bits & keep for bits in table) for table in tables)


_HALVES = tuple(tuple(_masked((*_halves(trump, 1), *_halves(trump, 2)), _IN_TABLE[trump][dbl])
                      for dbl in (False, True))
                for trump in range(4))
"""By trump and double-melds option: which instances of the table needing one copy, then
two copies, the low and the high 12 bits of a face mask hold (:func:`_presence` by
halves, one look-up each)."""


def _meld_candidates(hand: int, trump: int, double_melds: bool) -> int:
    """The instance bits (of :data:`_INSTANCE_BY_BIT`) whose faces ``hand`` holds at all,
    as many copies as each needs; the melds of :func:`generate_melds` come from these."""
    low = hand & _M24
    high = hand >> 24
    once = low | high  # faces held (at least one copy)
    a0, a1, b0, b1 = _HALVES[trump][double_melds]
    cand = a0[once & 4095] & a1[once >> 12]
    twice = low & high  # faces held in both copies
    if twice:
        cand |= b0[twice & 4095] & b1[twice >> 12]
    return cand


def generate_melds(hand: int, melded: int, known: int, used: Sequence[int], trump: int,
                   double_melds: bool, new_card_rule: bool) -> list[tuple[int, int]]:
    """Every distinct legal meld ``(type, mask)`` of a hand (6.4), in display order.

    Identical copies with identical histories (group use, meld area, known to the
    opponent) are collapsed onto the lower copy. Order: meld table order, then fewer
    concealed cards, then mask.
    """
    cand = _meld_candidates(hand, trump, double_melds)
    if not cand:
        return []
    return _melds_from(cand, hand, melded, known, used, trump, new_card_rule)


def _melds_from(cand: int, hand: int, melded: int, known: int, used: Sequence[int],
                trump: int, new_card_rule: bool) -> list[tuple[int, int]]:
    """:func:`generate_melds` from the hand's candidate instances (:func:`_meld_candidates`,
    not 0)."""
    out: list[tuple[int, int]] = []
    by_bit = _INSTANCE_BY_BIT[trump]
    differ = -1  # faces whose two copies have different histories (worked out if needed)
    while cand:
        low = cand & -cand
        cand ^= low
        t, g, faces, need, fmask = by_bit[low]
        u = used[g]
        free = (hand | u) ^ u if u else hand  # hand & ~u (positive operands are quicker)
        upper = free >> 24  # faces whose upper copy is free
        if need == 2:
            if u and fmask & free & upper != fmask:
                continue
            m = fmask | fmask << 24
            if not new_card_rule or m & melded != m:  # (a card not melded yet)
                out.append((t, m))
            continue
        lower = fmask & free  # faces whose lower copy is free
        if u and (lower | fmask & upper) != fmask:
            continue
        m = lower | (fmask ^ lower) << 24  # the lower copy wherever it is free
        both = lower & upper  # faces with both copies free
        if both:
            if differ < 0:
                u0, u1, u2, u3, u4, u5 = used  # the six groups
                differ = ((melded ^ melded >> 24) | (known ^ known >> 24)
                          | (u0 ^ u0 >> 24) | (u1 ^ u1 >> 24) | (u2 ^ u2 >> 24)
                          | (u3 ^ u3 >> 24) | (u4 ^ u4 >> 24) | (u5 ^ u5 >> 24)) & _M24
            both &= differ
            if both & (both - 1):  # copies that differ on several faces give choices
                out.extend(_choices(t, faces, both, lower, melded, new_card_rule))
                continue
            if both:  # on one face: its lower copy (m) or its upper one, fewer concealed
                # cards first (then the lower mask)
                other = m ^ (both | both << 24)
                a = (m ^ (m & melded)).bit_count()  # concealed cards (m & ~melded)
                b = (other ^ (other & melded)).bit_count()
                if b < a:
                    if b or not new_card_rule:
                        out.append((t, other))
                    out.append((t, m))  # (a > b: a concealed card)
                else:
                    if a or not new_card_rule:
                        out.append((t, m))
                    if b or not new_card_rule:
                        out.append((t, other))
                continue
        if not new_card_rule or m & melded != m:  # one way only
            out.append((t, m))
    return out


def _choices(t: int, faces: tuple[int, ...], both: int, lower: int, melded: int,
             new_card_rule: bool) -> list[tuple[int, int]]:
    """The melds of instance type ``t`` when the copies of several faces (``both``) differ:
    every choice of copies, fewer concealed cards first, then by mask."""
    choices: list[tuple[int, ...]] = []
    for f in faces:
        bit = 1 << f
        if both & bit:
            choices.append((bit, bit << 24))
        else:
            choices.append((bit if lower & bit else bit << 24,))
    found: list[tuple[int, int]] = []
    for combo in itertools.product(*choices):
        m = sum(combo)
        conc = m ^ (m & melded)  # m & ~melded
        if new_card_rule and not conc:
            continue
        found.append((conc.bit_count(), m))
    found.sort()
    return [(t, m) for _, m in found]


def _signature(c: int, melded: int, known: int, used: Sequence[int]) -> int:
    sig = ((melded >> c) & 1) | (((known >> c) & 1) << 1)
    for g in range(6):
        sig |= ((used[g] >> c) & 1) << (g + 2)
    return sig


# --------------------------------------------------------------------------------------
# State
# --------------------------------------------------------------------------------------

Trick = tuple[int, int, int, int]
"""A completed trick: (leader, led card, follower's card, winner)."""
MeldRecord = tuple[int, int, int, int, int, int]
"""A meld made: (seat, type, mask, points, trick number, card received by exchange or -1)."""
Reveal = tuple[int, int, int]
"""A concealed card made known: (holder, card, how) with how 0 = dix exchange,
1 = trick-12 face-down card, 2 = trick-12 turn-up."""
REVEAL_HOW = ("dix exchange", "trick 12 face-down card", "trick 12 turn-up")


class Pinochle2State(GameState):
    """A two-hand Pinochle deal (one game)."""

    game_name = "pinochle2"
    options: Options
    def __init__(self, options: Options | None = None, seed: int = 0) -> None:
        super().__init__(options or Options(), seed, 2)
        opts = self.options
        deck = [*_DECK]
        shuffle(self._rng, deck)  # (a new state's own RNG: self.rng without the call)
        dealer = opts.dealer
        non_dealer = 1 - dealer
        self.dealer = dealer
        bits: tuple[int, ...] = itemgetter(*deck[:24])(_BIT)  # the dealt cards' bits
        first = sum(bits[:12])  # the non-dealer's
        second = sum(bits[12:])
        self.hands = [first, second] if non_dealer == 0 else [second, first]
        # stock[0] is the turn-up (bottom); stock[-1] is the top card.
        self.stock: list[int] = deck[24:]
        turn_up = deck[24]
        self.trump = SUIT_OF[turn_up]
        self.melded = [0, 0]
        self.known = [0, 0]
        self._marked = 0
        self.used = [0] * 6
        self.meld_points = [0, 0]
        self.counters = [0, 0]
        self.nine_bonus = -1
        if RANK_OF[turn_up] == NINE:
            self.nine_bonus = dealer
            self.meld_points[dealer] += 10
        self.tricks: list[Trick] = []
        self.melds: list[MeldRecord] = []
        self.reveals: list[Reveal] = []
        self.lead = -1
        self.step = STEP_PLAY
        self.turn = non_dealer
        self.last_trick = -1
        self.pending: list[tuple[int, int]] = []
        # Instance values of the class defaults, so a driver's reads find them at once.
        self.is_terminal = False
        self._legal = None
        self._lmask = 0

    # -- RNG ---------------------------------------------------------------------------
    # -- protocol ---------------------------------------------------------------------
    current_player = property(operator.attrgetter("turn"), doc="""Seat to act, or TERMINAL
        (``turn`` itself, read without a Python call: a driver asks at every step).""")

    @property
    def playoff(self) -> bool:
        """True once the stock is exhausted (tricks 13-24)."""
        return not self.stock

    @property
    def trick_number(self) -> int:
        """Number of the trick in progress (or just completed during the meld step)."""
        n = len(self.tricks)
        return n if self.step == STEP_MELD else min(n + 1, 24)

    def legal_mask(self) -> int:
        """Mask of the cards the player to act may play (0 outside the play step)."""
        if self.step != STEP_PLAY:
            return 0
        hand = self.hands[self.turn]
        if self.lead < 0 or self.stock:
            return hand
        return playoff_follow_mask(hand, self.lead, self.trump)

    _marked = ALL_CARDS
    """Cards that may lie in a meld area or be known (both seats): every card in
    ``melded`` or ``known`` is among them, so a card played outside them leaves both
    unchanged. A state made without :meth:`__init__` starts from every card."""

    _legal: list[Action] | None = None
    """The legal actions of this position, worked out once (None until asked)."""
    _lmask = 0
    """The legal cards of this position (valid while ``_legal`` is set)."""

    is_terminal: bool = False
    """True after trick 24: set with ``turn = TERMINAL`` (an attribute, not a property, since
    every step of a driver reads it)."""

    def legal_actions(self) -> list[Action]:
        """Cards (play step) or distinct melds followed by NO_MELD (meld step).

        Worked out once per position; treat the list as read-only."""
        legal = self._legal
        if legal is not None:
            return legal
        step = self.step
        if step == STEP_PLAY:
            hand = self.hands[self.turn]
            lead = self.lead
            if lead >= 0 and not self.stock:  # playoff_follow_mask, inline
                same = hand & SUIT_MASK[SUIT_OF[lead]]
                hand = (same & HIGHER[lead] or same) if same else \
                    (hand & SUIT_MASK[self.trump] or hand)
            self._lmask = hand
            low = hand & _M24  # (halves of one digit: quicker operations on them)
            high = hand >> 24
            legal = [*_CHUNK0[low & 4095], *_CHUNK1[low >> 12],
                     *_CHUNK2[high & 4095], *_CHUNK3[high >> 12]]
        else:
            self._lmask = 0
            if step != STEP_MELD:
                legal = []
            elif self.pending:
                legal = [*self.pending, NO_MELD]
            else:
                legal = [NO_MELD]
        self._legal = legal
        return legal

    def apply(self, action: Action) -> None:
        """Apply a legal action; IllegalAction leaves no change. The legality worked out
        for :meth:`legal_actions` decides plays and ``no meld`` at once."""
        if type(action) is int:
            if self._legal is None:
                self.legal_actions()
            # (the mask holds the legal cards, 0 outside the play step)
            if action >= 0 and self._lmask >> action & 1:
                # (every way on below lists the next legal actions or clears them)
                seat = self.turn
                self.history.append(_SEAT_CARD[seat][action])  # (seat, action)
                bit = _BIT[action]
                hands = self.hands
                hands[seat] ^= bit  # (a card held: the bit goes)
                if self._marked & bit:  # (a meld-area or known card, maybe)
                    keep = _KEEP[action]
                    self.melded[seat] &= keep
                    self.known[seat] &= keep
                lead = self.lead
                if lead < 0:
                    self.lead = action
                    other = self.turn = 1 - seat
                    hand = hands[other]
                    if not self.stock:  # playoff_follow_mask, inline
                        same = hand & SUIT_MASK[SUIT_OF[action]]
                        hand = (same & HIGHER[action] or same) if same else \
                            (hand & SUIT_MASK[self.trump] or hand)
                    # The follower's cards: listed now, while at hand (as legal_actions
                    # would list them; apply needs the list anyway).
                    self._lmask = hand
                    low = hand & _M24
                    high = hand >> 24
                    self._legal = [*_CHUNK0[low & 4095], *_CHUNK1[low >> 12],
                                   *_CHUNK2[high & 4095], *_CHUNK3[high >> 12]]
                    return
                # The trick is taken.
                leader = 1 - seat
                trump = self.trump
                winner = seat if _BEATS[trump][lead][action] else leader
                self.tricks.append((leader, lead, action, winner))
                self.counters[winner] += POINTS[lead] + POINTS[action]
                self.lead = -1
                if self.stock:
                    # Every stock-phase trick is followed by the winner's meld step, with
                    # "no meld" always among the choices, so the step sequence never tells
                    # whether a meld exists. Its legal actions are worked out here
                    # (_meld_candidates, inline: half the hands hold no meld at all).
                    hand = hands[winner]
                    low = hand & _M24  # the two copies' halves (operations on one digit)
                    high = hand >> 24
                    once = low | high
                    opts = self.options
                    a0, a1, b0, b1 = _HALVES[trump][opts.double_melds]
                    cand = a0[once & 4095] & a1[once >> 12]
                    twice = low & high
                    if twice:
                        cand |= b0[twice & 4095] & b1[twice >> 12]
                    if cand:
                        pend = _melds_from(cand, hand, self.melded[winner],
                                           self.known[winner], self.used, trump,
                                           opts.new_card_rule)
                        self._legal = [*pend, NO_MELD]
                    else:
                        pend = []
                        self._legal = [NO_MELD]
                    self._lmask = 0
                    self.pending = pend
                    self.step = STEP_MELD
                    self.turn = winner
                elif len(self.tricks) == 24:
                    self._legal = None
                    self.last_trick = winner
                    self.step = STEP_END
                    self.turn = TERMINAL
                    self.is_terminal = True
                else:
                    self.turn = winner  # the winner leads: any card (listed as above)
                    hand = self._lmask = hands[winner]
                    low = hand & _M24
                    high = hand >> 24
                    self._legal = [*_CHUNK0[low & 4095], *_CHUNK1[low >> 12],
                                   *_CHUNK2[high & 4095], *_CHUNK3[high >> 12]]
                return
            if action == NO_MELD and self.step == STEP_MELD:
                seat = self.turn
                self.history.append(_SEAT_CARD[seat][NO_MELD])
                stock = self.stock
                if len(stock) > 2:  # _draws, without shown cards (the last two are shown)
                    self._draw_and_lead(seat, stock)
                    return
                self._legal = None
                self._draws(seat)
                return
        elif type(action) is tuple and self.step == STEP_MELD and action in self.pending:
            seat = self.turn
            self.history.append((seat, action))
            t, mask = action
            stock = self.stock
            if t == DIX or len(stock) == 2:
                self._legal = None
                self._meld(t, mask)
                return
            # _meld and _draws, inline (no dix exchange, no cards shown)
            self.used[MELD_GROUP[t]] |= mask
            self.melded[seat] |= mask
            self._marked |= mask
            self.known[seat] &= ~mask
            pts = MELD_POINTS[t]
            self.meld_points[seat] += pts
            self.melds.append((seat, t, mask, pts, len(self.tricks), -1))
            self._draw_and_lead(seat, stock)
            return
        super().apply(action)

    def _draw_and_lead(self, seat: int, stock: list[int]) -> None:
        """After a meld step with more than two cards in the stock: the seat draws, then
        the other, and the seat leads any card (its list made at once)."""
        hands = self.hands
        hand = hands[seat] | _BIT[stock.pop()]
        hands[seat] = hand
        hands[1 - seat] |= _BIT[stock.pop()]
        self.step = STEP_PLAY
        self.pending = []
        self._lmask = hand
        low = hand & _M24
        high = hand >> 24
        self._legal = [*_CHUNK0[low & 4095], *_CHUNK1[low >> 12],
                       *_CHUNK2[high & 4095], *_CHUNK3[high >> 12]]

    def illegal_reason(self, action: Action) -> str | None:
        """None if legal, else a precise human-readable reason."""
        step = self.step
        if type(action) is int:
            if step == STEP_PLAY and 0 <= action < NCARDS \
                    and (self.legal_mask() >> action) & 1:
                return None
            if step == STEP_MELD and action == NO_MELD:
                return None
        elif step == STEP_MELD and type(action) is tuple and action in self.pending:
            return None
        return self._reason(action)

    def _reason(self, action: Action) -> str:
        if self.turn == TERMINAL:
            return "The deal is over"
        if type(action) is int:
            if action == NO_MELD:
                return "There is no meld to decline now: play a card"
            if not 0 <= action < NCARDS:
                return f"{action!r} is not an action of two-hand Pinochle"
            return self.card_reason(action) or "That card cannot be played now"
        if not (isinstance(action, tuple) and len(action) == 2
                and all(type(x) is int for x in action)):
            return f"{action!r} is not an action of two-hand Pinochle"
        t, mask = action
        if not 0 <= t < len(MELD_NAMES) or mask <= 0 or mask > ALL_CARDS:
            return f"{action!r} is not a meld of two-hand Pinochle"
        if self.step != STEP_MELD:
            if self.playoff:
                return "No melds are made in the playoff"
            return "Only the winner of a trick may meld, right after the trick and before " \
                   "the draws"
        return self.meld_reason(t, mask) or "That meld is not available"

    def card_reason(self, c: int) -> str | None:
        """Why card ``c`` cannot be played by the player to act now (None if it can)."""
        seat = self.turn
        if seat == TERMINAL:
            return "The deal is over"
        if not (self.hands[seat] >> c) & 1:
            return f"You don't hold {CARD_TEXT[c]}"
        if self.step == STEP_MELD:
            return "You won the trick: make a meld or decline ('no meld') before the draws"
        if self.lead < 0 or self.stock:
            return None
        hand = self.hands[seat]
        lead = self.lead
        legal = playoff_follow_mask(hand, lead, self.trump)
        if (legal >> c) & 1:
            return None
        s = SUIT_OF[lead]
        sym = SUIT_SYMBOLS[s]
        options = PINOCHLE.format_mask(legal).replace(" ", " or ")
        if hand & SUIT_MASK[s]:
            if legal & HIGHER[lead]:
                return f"You must follow {sym} and win the trick: play {options}"
            return f"You must follow {sym}: play {options}"
        return f"You have no {sym}, so you must play a trump ({SUIT_SYMBOLS[self.trump]}): " \
               f"play {options}"

    def illegal_card_reasons(self) -> dict[int, str]:
        """Reasons for the cards in the acting player's hand that cannot be played now."""
        if self.turn == TERMINAL:
            return {}
        out: dict[int, str] = {}
        for c in iter_bits(self.hands[self.turn] & ~self.legal_mask()):
            reason = self.card_reason(c)
            if reason:
                out[c] = reason
        return out

    def meld_reason(self, t: int, mask: int) -> str | None:
        """Why meld ``(t, mask)`` is illegal for the trick winner now (None if legal)."""
        if self.step != STEP_MELD:
            return "Only the winner of a trick may meld, right after the trick"
        if (t, mask) in self.pending:
            return None
        seat = self.turn
        name = MELD_NAMES[t]
        if MELD_IS_DOUBLE[t] and not self.options.double_melds:
            return f"The {name} exists only with the double-melds option"
        cards = iter_bits(mask)
        missing = [c for c in cards if not (self.hands[seat] >> c) & 1]
        if missing:
            return f"You don't hold {' '.join(CARD_TEXT[c] for c in missing)}"
        faces = sorted(FACE_OF[c] for c in cards)
        if not any(it[0] == t and sorted(f for f in it[2] for _ in range(it[3])) == faces
                   for it in INSTANCES[self.trump]):
            hint = ""
            if t == MARRIAGE and all(SUIT_OF[c] == self.trump for c in cards):
                hint = " (K and Q of trump are a royal marriage)"
            elif t == ROYAL and len(cards) == 2 and all(
                    SUIT_OF[c] != self.trump for c in cards):
                hint = " (K and Q of a non-trump suit are a marriage)"
            return f"Those cards are not a {name}: it needs exactly {MELD_DESCRIPTION[t]}{hint}"
        g = MELD_GROUP[t]
        used = [c for c in meld_card_order(t, mask) if (self.used[g] >> c) & 1]
        if used:
            return f"{' '.join(CARD_TEXT[c] for c in used)} already used in a " \
                   f"{GROUP_NAMES[g]} meld (each card counts once per group)"
        if self.options.new_card_rule and not mask & ~self.melded[seat]:
            return "At least one card must come from your concealed hand (new-card rule)"
        for a in self.pending:
            if a[0] == t and sorted(FACE_OF[c] for c in iter_bits(a[1])) == faces:
                return f"Identical copies: choose '{self.action_text(a)}' instead"
        return "That meld is not available"

    # -- transitions ------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        # GameState.apply's step, which it reaches only for an action illegal_reason lets
        # through: :meth:`apply` takes every such action itself, recording it; the caller
        # records it here.
        self.apply(action)
        self.history.pop()

    def _meld(self, t: int, mask: int) -> None:
        seat = self.turn
        g = MELD_GROUP[t]
        self.used[g] |= mask
        self.melded[seat] |= mask
        self._marked |= mask
        self.known[seat] &= ~mask
        pts = MELD_POINTS[t]
        self.meld_points[seat] += pts
        received = -1
        if t == DIX:
            turn_up = self.stock[0]
            if RANK_OF[turn_up] != NINE:
                # 6.6: the 9 goes under the stock, the old turn-up into the concealed hand.
                received = turn_up
                self.stock[0] = mask.bit_length() - 1
                self.hands[seat] = (self.hands[seat] & ~mask) | (1 << turn_up)
                self.melded[seat] &= ~mask
                self.known[seat] |= 1 << turn_up
                self._marked |= 1 << turn_up
                self.reveals.append((seat, turn_up, 0))
        self.melds.append((seat, t, mask, pts, len(self.tricks), received))
        self._draws(seat)

    def _draws(self, winner: int) -> None:
        loser = 1 - winner
        stock = self.stock
        if len(stock) == 2:
            down = stock.pop()
            up = stock.pop()
            self.hands[winner] |= 1 << down
            self.hands[loser] |= 1 << up
            self.known[winner] |= 1 << down
            self.known[loser] |= 1 << up
            self._marked |= 1 << down | 1 << up
            self.reveals.append((winner, down, 1))
            self.reveals.append((loser, up, 2))
        else:
            self.hands[winner] |= 1 << stock.pop()
            self.hands[loser] |= 1 << stock.pop()
        if self.step == STEP_MELD:
            self.step = STEP_PLAY
            self.pending = []
        self.turn = winner

    # -- results ----------------------------------------------------------------------
    def totals(self) -> tuple[int, int]:
        """Each seat's total so far: counters + melds (+ 10 for trick 24)."""
        t = [self.counters[s] + self.meld_points[s] for s in (0, 1)]
        if self.last_trick >= 0:
            t[self.last_trick] += 10
        return t[0], t[1]

    def returns(self) -> tuple[float, ...]:
        """Each seat's total (8.1)."""
        a, b = self.totals()
        return float(a), float(b)

    def result(self) -> str | None:
        """``"win"``, ``"loss"`` or ``"draw"`` for seat 0 at the end, else None."""
        if self.turn != TERMINAL:
            return None
        a, b = self.totals()
        return "win" if a > b else "loss" if a < b else "draw"

    # -- copies -----------------------------------------------------------------------
    def clone(self) -> Pinochle2State:
        """Independent copy, including the RNG."""
        new = object.__new__(Pinochle2State)
        d = self.__dict__.copy()
        new.__dict__ = d
        self.share_rng(new)
        d["history"] = self.history.copy()
        d["hands"] = self.hands.copy()
        d["stock"] = self.stock.copy()
        d["melded"] = self.melded.copy()
        d["known"] = self.known.copy()
        d["used"] = self.used.copy()
        d["meld_points"] = self.meld_points.copy()
        d["counters"] = self.counters.copy()
        d["tricks"] = self.tricks.copy()
        d["melds"] = self.melds.copy()
        d["reveals"] = self.reveals.copy()
        d["_legal"] = None
        return new

    # -- views ------------------------------------------------------------------------
    def groups_of(self, c: int) -> list[str]:
        """Group keys in which physical card ``c`` has been used."""
        return [GROUP_KEYS[g] for g in range(6) if (self.used[g] >> c) & 1]

    def observation(self, seat: int) -> dict[str, JSON]:
        """What ``seat`` may see (spec section 9); schema in the package docstring."""
        return observe(self, seat)

    # -- action forms -----------------------------------------------------------------
    def _card_pref(self, c: int) -> tuple[int, int, int]:
        seat = self.turn if self.turn != TERMINAL else 0
        uses = sum((self.used[g] >> c) & 1 for g in range(6))
        return (-uses, -((self.melded[seat] >> c) & 1), c)

    def _play_candidates(self, face: int) -> list[int]:
        """Held copies of a face, legal ones first, then by preference."""
        seat = self.turn
        if seat == TERMINAL:
            return []
        legal = self.legal_mask()
        held = [c for c in (face, face + 24) if (self.hands[seat] >> c) & 1]
        return sorted(held, key=lambda c: (0 if (legal >> c) & 1 else 1, *self._card_pref(c)))

    def action_text(self, action: Action) -> str:
        """``play 10♥`` (``#2`` names a copy when copies differ), ``meld run A♥ …``,
        ``no meld``."""
        if type(action) is int:
            if action == NO_MELD:
                return "no meld"
            if 0 <= action < NCARDS:
                text = CARD_TEXT[action]
                seat = self.turn
                hand = self.hands[seat] if seat != TERMINAL else 0
                if not (hand >> (action + 24 if action < 24 else action - 24)) & 1:
                    return f"play {text}"  # one copy held: nothing to tell apart
                cands = self._play_candidates(FACE_OF[action])
                if cands and cands[0] != action and action in cands:
                    other = cands[0]
                    if _signature(other, self.melded[seat], self.known[seat], self.used) != \
                            _signature(action, self.melded[seat], self.known[seat], self.used):
                        text += f"#{action // 24 + 1}"
                return f"play {text}"
            return repr(action)
        t, mask = cast(tuple[int, int], action)
        cards = meld_card_order(t, mask)
        marks = False
        if self.step == STEP_MELD and action in self.pending:
            faces = sorted(FACE_OF[c] for c in cards)
            for a in self.pending:
                if a[0] == t and sorted(FACE_OF[c] for c in iter_bits(a[1])) == faces:
                    marks = a != action
                    break
        seat = self.turn if self.turn != TERMINAL else 0
        parts = []
        for c in cards:
            s = CARD_TEXT[c]
            f = FACE_OF[c]
            if marks and (self.hands[seat] >> f) & 1 and (self.hands[seat] >> (f + 24)) & 1:
                s += f"#{c // 24 + 1}"
            parts.append(s)
        return f"meld {MELD_NAMES[t]} {' '.join(parts)}"

    def parse_action(self, text: str) -> Action:
        """Parse ``play 10♥``/``10h``/``10h#2``, ``meld run A♥ 10♥ K♥ Q♥ J♥``/``meld dix``/
        ``kh qh``, ``no meld``, or a 1-based number into :func:`display_order` of the legal
        actions."""
        if not isinstance(text, str):
            raise ActionParseError("an action must be text")
        raw = " ".join(text.strip().split())
        low = raw.lower()
        if not low:
            raise ActionParseError("Type a card to play (e.g. 10h or 'play 10♥'), a meld "
                                   "('meld run', 'meld K♥ Q♥'), 'no meld', or a number")
        legal = display_order(self.legal_actions())
        if low.isdigit():
            i = int(low)
            if 1 <= i <= len(legal):
                return legal[i - 1]
            raise ActionParseError(f"There is no choice number {i}: choose 1 to {len(legal)}")
        if low in _NO_MELD_WORDS:
            return NO_MELD
        words = low.split()
        is_meld = False
        if words[0] in ("meld", "m"):
            is_meld = True
            words = words[1:]
        elif words[0] in ("play", "p"):
            words = words[1:]
            if len(words) != 1:
                raise ActionParseError("Name one card to play, e.g. 'play 10♥' or '10h'")
        meld_type = -1
        rest = " ".join(words)
        for alias in _MELD_ALIAS_WORDS:
            if rest == alias or rest.startswith(alias + " "):
                meld_type = _MELD_ALIASES[alias]
                rest = rest[len(alias):].strip()
                is_meld = True
                break
        tokens = [w for w in re.split(r"[\s,]+", rest) if w]
        cards: list[tuple[int, int]] = []  # (face, copy or -1)
        for tok in tokens:
            m = _CARD_TOKEN.match(tok)
            if not m:
                try:
                    parse_face(tok)
                except CardParseError:
                    raise ActionParseError(
                        f"{tok!r} is not a card or meld name (cards look like A♠, 10h, qs; "
                        f"melds like 'meld run' or 'meld K♥ Q♥'; or type 'no meld')") from None
                raise ActionParseError(f"{tok} is not in the Pinochle deck (A 10 K Q J 9)")
            face = PINOCHLE.parse_face(m.group(1) + m.group(2))
            cards.append((face, int(m.group(3)) - 1 if m.group(3) else -1))
        if not is_meld and len(cards) == 1:
            return self._parse_play(*cards[0])
        if not cards and meld_type < 0:
            raise ActionParseError(f"Cannot read {text!r}: type e.g. 10h, 'meld run', 'no meld'")
        return self._parse_meld(meld_type, cards)

    def _parse_play(self, face: int, copy: int) -> int:
        if copy >= 0:
            c = face + 24 * copy
            if self.turn == TERMINAL or not (self.hands[self.turn] >> c) & 1:
                raise ActionParseError(f"You don't hold {CARD_TEXT[c]}#{copy + 1}")
            return c
        cands = self._play_candidates(face)
        if not cands:
            raise ActionParseError(f"You don't hold {CARD_TEXT[face]}")
        return cands[0]

    def _parse_meld(self, t: int, cards: list[tuple[int, int]]) -> Action:
        seat = self.turn
        if seat == TERMINAL:
            raise ActionParseError("The deal is over")
        faces = sorted(f for f, _ in cards)
        fixed = 0
        for f, k in cards:
            if k >= 0:
                fixed |= 1 << (f + 24 * k)
        matches = []
        for a in self.pending:
            at, am = a
            if t >= 0 and at != t:
                continue
            if cards and (sorted(FACE_OF[c] for c in iter_bits(am)) != faces
                          or am & fixed != fixed):
                continue
            matches.append(a)
        if matches:
            if not cards:
                distinct = {self.action_text(a) for a in matches}
                if len(distinct) > 1:
                    raise ActionParseError(
                        f"Several {MELD_NAMES[t]} melds are possible; name the cards: "
                        + " | ".join(sorted(distinct)))
            return matches[0]
        if not cards:
            if self.step != STEP_MELD:
                raise ActionParseError("You can meld only right after winning a trick in "
                                       "the stock phase")
            raise ActionParseError(f"No {MELD_NAMES[t]} can be melded now")
        # Build the action from the hand so that apply() explains why it is illegal.
        hand = self.hands[seat]
        mask = 0
        for f, k in cards:
            options = [f + 24 * k] if k >= 0 else [f, f + 24]
            options = [c for c in options if (hand >> c) & 1 and not (mask >> c) & 1]
            if not options:
                raise ActionParseError(f"You don't hold {CARD_TEXT[f]}"
                                       + (" twice" if (hand >> f) & 1 or (hand >> (f + 24)) & 1
                                          else ""))
            if t >= 0:
                g = MELD_GROUP[t]
                options.sort(key=lambda c: ((self.used[g] >> c) & 1, c))
            mask |= 1 << options[0]
        if t < 0:
            t = self._infer_type(faces)
        return (t, mask)

    def _infer_type(self, faces: list[int]) -> int:
        for t, _, fs, need in INSTANCES[self.trump]:
            if sorted(f for f in fs for _ in range(need)) == faces:
                return t
        raise ActionParseError("Those cards are not a meld; see 'help' for the meld table")

    def action_to_json(self, action: Action) -> JSON:
        """``{"type": "play", "card": c}``, ``{"type": "meld", "meld": name, "cards": [...]}``
        or ``{"type": "no_meld"}``."""
        if type(action) is int:
            if action == NO_MELD:
                return {"type": "no_meld"}
            return {"type": "play", "card": action, "text": CARD_TEXT[action]}
        t, mask = cast(tuple[int, int], action)
        return {"type": "meld", "meld": MELD_NAMES[t], "cards": iter_bits(mask)}

    def action_from_json(self, data: JSON) -> Action:
        """Inverse of :meth:`action_to_json`; :class:`ActionParseError` if malformed."""
        if not isinstance(data, dict):
            raise ActionParseError("an action must be an object with a 'type'")
        kind = data.get("type")
        if kind == "no_meld":
            return NO_MELD
        if kind == "play":
            c = data.get("card")
            if type(c) is not int or not 0 <= c < NCARDS:
                raise ActionParseError("'play' needs a card number 0..47")
            return c
        if kind == "meld":
            name = data.get("meld")
            cards = data.get("cards")
            if name not in MELD_NAMES:
                raise ActionParseError(f"unknown meld {name!r}")
            if not isinstance(cards, list) or not cards or any(
                    type(c) is not int or not 0 <= c < NCARDS for c in cards) \
                    or len(set(cards)) != len(cards):
                raise ActionParseError("'meld' needs a list of distinct card numbers 0..47")
            return (MELD_NAMES.index(name), sum(1 << c for c in cards))
        raise ActionParseError(f"unknown action type {kind!r}")

    def describe(self, action: Action) -> str:
        """Text form, with the points of a meld."""
        text = super().describe(action)
        if isinstance(action, tuple) and len(action) == 2 and type(action[0]) is int \
                and 0 <= action[0] < len(MELD_POINTS):
            text += f" (+{MELD_POINTS[action[0]]})"
        return text


# -- observation (spec section 9) -------------------------------------------------------


def _sorted(mask: int) -> list[int]:
    """Cards of a mask sorted by suit (♠♥♦♣), then rank high to low, then copy."""
    return list(_sorted_cards(mask))


def _course(st: Pinochle2State) -> list[list[int]]:
    """Both seats' totals (counters, melds, the turned-up nine, last trick) after each trick."""
    pts = [0, 0]
    if st.nine_bonus >= 0:
        pts[st.nine_bonus] += 10
    out: list[list[int]] = []
    for i, (_leader, lead, follow, winner) in enumerate(st.tricks):
        pts[winner] += POINTS[lead] + POINTS[follow]
        for s, _t, _m, p, n, _r in st.melds:
            if n == i + 1:
                pts[s] += p
        if i == len(st.tricks) - 1 and st.last_trick in (0, 1):
            pts[st.last_trick] += 10
        out.append(list(pts))
    return out


_GROUPS_OF_SIGNATURE = tuple(tuple(GROUP_KEYS[g] for g in range(6) if sig >> g & 1)
                             for sig in range(64))
"""The group keys of each set of groups (bit ``g`` for group ``g``)."""
_VIEW_PARTS: dict[tuple[int, ...], Any] = {}
"""Parts of views worked out from the meld groups' cards (and a meld area), by those masks:
``(*used)`` gives each group's cards in order, ``(meld area, *used)`` each meld-area card
with the keys of its groups. Views of both seats after every action ask for the same ones
again and again; the stored parts are tuples, handed out as new lists."""
_VIEW_PARTS_LIMIT = 1 << 14


def _used_cards(used: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    found = _VIEW_PARTS.get(used)
    if found is None:
        if len(_VIEW_PARTS) >= _VIEW_PARTS_LIMIT:
            _VIEW_PARTS.clear()
        found = _VIEW_PARTS[used] = tuple(tuple(iter_bits(u)) for u in used)
    return cast(tuple[tuple[int, ...], ...], found)


def _area_history(area: int, used: tuple[int, ...]) -> list[JSON]:
    """``meld_area_history`` of one seat: each meld-area card with its groups' keys."""
    if not area:
        return []
    key = (area, *used)
    found = _VIEW_PARTS.get(key)
    if found is None:
        if len(_VIEW_PARTS) >= _VIEW_PARTS_LIMIT:
            _VIEW_PARTS.clear()
        found = _VIEW_PARTS[key] = tuple(
            (c, _GROUPS_OF_SIGNATURE[sum(1 << g for g in range(6) if used[g] >> c & 1)])
            for c in _sorted_cards(area))
    return [[c, list(keys)] for c, keys in found]


_OPTIONS_JSON: dict[int, tuple[Options, dict[str, Any]]] = {}
""":func:`options_dict` of options seen, by ``id`` (each entry holds its options, so the
``id`` stays theirs); handed out as a new dict."""


def _options_json(options: Options) -> dict[str, Any]:
    found = _OPTIONS_JSON.get(id(options))
    if found is None or found[0] is not options:
        if len(_OPTIONS_JSON) >= 256:
            _OPTIONS_JSON.clear()
        found = _OPTIONS_JSON[id(options)] = (options, options_dict(options))
    return found[1].copy()


_TRICK_VIEWS: tuple[tuple[tuple[dict[str, JSON], ...], ...], ...] = tuple(
    tuple(tuple({"number": n, "leader": leader, "cards": None, "winner": winner}
                for winner in (0, 1)) for leader in (0, 1))
    for n in range(25))
"""A completed trick's view by number, leader and winner, its cards still to fill in (the
view of each trick is a copy: a fresh dict, its keys in order)."""


def observe(st: Pinochle2State, seat: int) -> dict[str, JSON]:
    """JSON-ready view of ``st`` for ``seat``."""
    if seat not in (0, 1):
        raise ValueError(f"seat must be 0 or 1, not {seat}")
    opp = 1 - seat
    step = st.step
    ended = step == STEP_END
    tricks: list[JSON] = []
    append = tricks.append
    played = 0
    i = 0
    for leader, lead, follow, winner in st.tricks:
        i += 1
        trick = _TRICK_VIEWS[i][leader][winner].copy()
        trick["cards"] = [lead, follow]
        append(trick)
        played |= _BIT[lead] | _BIT[follow]
    current: JSON = None
    lead = st.lead
    if not ended and step != STEP_MELD:
        current = {"leader": st.turn, "cards": []} if lead < 0 else \
            {"leader": 1 - st.turn, "cards": [lead]}
    if lead >= 0:
        played |= 1 << lead
    hands = st.hands
    melded = st.melded
    known = st.known
    hand0, hand1 = hands[0], hands[1]
    melded0, melded1 = melded[0], melded[1]
    concealed0 = hand0 & ~melded0
    concealed1 = hand1 & ~melded1
    known0 = known[0] & concealed0
    known1 = known[1] & concealed1
    stock = st.stock
    turn_up = stock[0] if stock else None
    visible = hands[seat] | played | melded[opp] | (known1 if seat == 0 else known0)
    if turn_up is not None:
        visible |= 1 << turn_up
    used = tuple(st.used)
    options = st.options
    u0, u1, u2, u3, u4, u5 = _used_cards(used)
    obs: dict[str, JSON] = {
        "game": "pinochle2",
        "seat": seat,
        "dealer": st.dealer,
        "options": _options_json(options),
        "level": options.level,
        "step": STEP_NAMES[step],
        "phase": "end" if ended else ("playoff" if not stock else "stock"),
        "to_act": st.turn if st.turn != TERMINAL else -1,
        "trump": st.trump,
        "trump_symbol": SUIT_SYMBOLS[st.trump],
        "trick_number": i if step == STEP_MELD else min(i + 1, 24),
        "hand": list(_sorted_cards(hands[seat])),
        "concealed": list(_sorted_cards(concealed0 if seat == 0 else concealed1)),
        "hand_sizes": [hand0.bit_count(), hand1.bit_count()],
        "concealed_sizes": [concealed0.bit_count(), concealed1.bit_count()],
        "meld_areas": [list(_sorted_cards(melded0)), list(_sorted_cards(melded1))],
        "used": {"sequence": list(u0), "pinochle": list(u1), "aces": list(u2),
                 "kings": list(u3), "queens": list(u4), "jacks": list(u5)},
        "meld_area_history": [_area_history(melded0, used), _area_history(melded1, used)],
        "melds": [{"seat": s, "meld": MELD_NAMES[t], "cards": iter_bits(m), "points": p,
                   "trick": n, "received": None if r < 0 else r}
                  for s, t, m, p, n, r in st.melds],
        "meld_points": list(st.meld_points),
        "nine_turned_up": None if st.nine_bonus < 0 else {"seat": st.nine_bonus,
                                                          "points": 10},
        "turn_up": turn_up,
        "stock_count": len(stock),
        "tricks": tricks,
        "current_trick": current,
        "known_held": [list(_sorted_cards(known0)), list(_sorted_cards(known1))],
        "reveals": [{"seat": s, "card": c, "how": REVEAL_HOW[h]} for s, c, h in st.reveals],
        "unseen": iter_bits(ALL_CARDS & ~visible),
        "result": None,
    }
    if ended:
        totals = st.totals()
        obs["result"] = {
            "counters": list(st.counters),
            "meld_points": list(st.meld_points),
            "last_trick": st.last_trick,
            "totals": list(totals),
            "winner": 0 if totals[0] > totals[1] else 1 if totals[1] > totals[0] else None,
            "outcome_seat0": st.result(),
            "course": _course(st),
        }
    return obs


def options_dict(options: Options) -> dict[str, Any]:
    """JSON form of options."""
    return {"double_melds": options.double_melds, "new_card_rule": options.new_card_rule,
            "level": options.level, "dealer": options.dealer}
