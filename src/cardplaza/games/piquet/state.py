"""The Piquet engine: a whole partie for two players (see the package docstring)."""

from __future__ import annotations

import itertools
import operator
import re
from collections.abc import Sequence
from typing import Any

from cardplaza.core.cards import PIQUET, CardParseError, bit_list, shuffle
from cardplaza.core.options import options_to_dict
from cardplaza.core.protocol import (
    JSON,
    TERMINAL,
    Action,
    ActionParseError,
    GameState,
)
from cardplaza.games.piquet import combos as pc
from cardplaza.games.piquet.options import Options

# phases
EX_E, EX_Y, DECL, PLAY, OVER = range(5)
PHASE_NAMES = ("exchange_elder", "exchange_younger", "declare", "play", "over")
# declaration classes
POINT, SEQ, SET = range(3)
CLASS_NAMES = ("point", "sequence", "set")
# dialogue stages
S_ECALL, S_YREPLY1, S_ESHOW, S_YREPLY2, S_YCALL, S_CHOOSE = range(6)
# dialogue codes (action (SAY, code))
CALL, PASS, GOOD, NOT_GOOD, ASK, EQUAL, SHOW = range(7)
CODE_NAMES = ("call", "pass", "good", "not_good", "ask", "equal", "show")
# action kinds (tuples); a bare int is a card played
EXCH, SAY, ADD, SUIT = range(4)
CHOICE_HIDDEN = "chooses which combinations to score"
"""What Elder sees of Younger's choice of combinations before the first lead."""

_MAX_SIZE = 8
# index-subsets of 12 positions by size, as 12-bit masks
_SUBSETS: list[list[int]] = [
    [sum(1 << i for i in combo) for combo in itertools.combinations(range(12), k)]
    for k in range(_MAX_SIZE + 1)
]
_POSITIONS = tuple(tuple(i for i in range(12) if m >> i & 1) for m in range(4096))
"""The positions set in each 12-bit index-subset."""

_REPLY_TEXT = {GOOD: "Good", NOT_GOOD: "Not good", EQUAL: "Equal"}
_OFFSETS: dict[tuple[int, int], tuple[list[int], list[int]]] = {}
"""The sizes of each range of exchanges and where each size starts in the list."""

Event = tuple[int, int, str]          # (seat, points, label)
_LEAD: tuple[Event, ...] = ((0, 1, "Lead"), (1, 1, "Lead"))
_CAPTURE: tuple[Event, ...] = ((0, 1, "Capture"), (1, 1, "Capture"))
"""The record of each seat's point for a lead and for a trick taken (made once)."""
_BIT = tuple(1 << c for c in range(32))
_KEEP = tuple(~(1 << c) for c in range(32))
"""Every card but one, as a mask to remove it with."""
_SEAT_CARD = tuple(tuple((seat, c) for c in range(32)) for seat in (0, 1))
"""The history entry of each seat's play of each card (made once)."""
_SAYS = tuple((SAY, code) for code in range(len(CODE_NAMES)))
"""The action of saying each dialogue code (made once)."""
Shown = tuple[int, int, str, int, int]  # (seat, class, label, mask, points)


class DiscardChoices(Sequence[Action]):
    """Every exchange action ``(0, mask)`` discarding ``lo``..``hi`` cards of a hand.

    A lazy, indexable sequence in a stable order (by size, then by card positions), so
    listing up to 3,301 discard sets costs nothing until they are read.
    """

    __slots__ = ("_cards", "_hi", "_hi_t", "_lo", "_lo_t", "_offsets", "_sizes", "hand")

    def __init__(self, hand: int, lo: int, hi: int) -> None:
        self.hand = hand
        known = _OFFSETS.get((lo, hi))
        if known is None:
            sizes = list(range(lo, hi + 1))
            offsets = [0]
            for k in sizes:
                offsets.append(offsets[-1] + len(_SUBSETS[k]))
            known = _OFFSETS[lo, hi] = sizes, offsets
        self._sizes, self._offsets = known  # shared, never changed
        self._cards: list[int] | None = None
        self._lo_t: list[int] = []
        self._hi_t: list[int] = []
        self._lo, self._hi = lo, hi

    def _tables(self) -> None:
        cards = [c for c in range(32) if self.hand >> c & 1]
        lo_t = [0] * 64
        hi_t = [0] * 64
        for i in range(1, 64):
            low = i & -i
            j = low.bit_length() - 1
            lo_t[i] = lo_t[i ^ low] | 1 << cards[j]
            hi_t[i] = hi_t[i ^ low] | 1 << cards[j + 6]
        self._cards, self._lo_t, self._hi_t = cards, lo_t, hi_t

    def __len__(self) -> int:
        return self._offsets[-1]

    def _at(self, i: int) -> tuple[int, int]:
        offsets = self._offsets
        for n, k in enumerate(self._sizes):
            if i < offsets[n + 1]:
                sub = _SUBSETS[k][i - offsets[n]]
                if self._cards is None:  # one item: map its positions to cards directly
                    h = self.hand  # bit_list(h), inline
                    cards = [*_C0[h & 2047], *_C1[h >> 11 & 2047], *_C2[h >> 22]]
                    m = 0
                    for j in _POSITIONS[sub]:
                        m |= 1 << cards[j]
                    return (EXCH, m)
                return (EXCH, self._lo_t[sub & 63] | self._hi_t[sub >> 6])
        raise IndexError(i)

    def __getitem__(self, i: Any) -> Any:
        n = self._offsets[-1]  # len(self)
        if type(i) is not int and isinstance(i, slice):
            return [self._at(j) for j in range(*i.indices(n))]
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        return self._at(i)

    def __iter__(self) -> Any:
        if self._cards is None:
            self._tables()
        for i in range(len(self)):
            yield self._at(i)

    def __contains__(self, action: object) -> bool:
        if not (isinstance(action, tuple) and len(action) == 2 and action[0] == EXCH):
            return False
        m = action[1]
        return (isinstance(m, int) and m >= 0 and not m & ~self.hand
                and self._lo <= m.bit_count() <= self._hi)


def _chunk11(offset: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(offset + i for i in range(11) if m >> i & 1) for m in range(2048))


_C0, _C1, _C2 = _chunk11(0), _chunk11(11), _chunk11(22)
"""The cards of each 11-bit third of a card mask."""


def _mult(deal_number: int, options: Options) -> int:
    return 2 if options.four_deals and deal_number in (1, 4) else 1


def partie_result(a: int, b: int) -> tuple[int, float, bool]:
    """Rubicon result of unequal totals: (winning seat, value, loser rubiconed?)."""
    if a == b:
        raise ValueError("equal totals have no winner")
    w = 0 if a > b else 1
    wt, lt = (a, b) if w == 0 else (b, a)
    rubicon = lt < 100
    return w, float(wt + lt + 100 if rubicon else wt - lt + 100), rubicon


_SLOTS = (
    "actor", "bonus", "bonus_pending", "cb", "choose_kind", "cls", "deal_number", "dealer",
    "dealt", "dialogue", "discards", "drawn", "dscore", "e", "elder", "events", "extra",
    "first_dealer", "first_lead_done", "hands", "info", "lead_card", "leader", "o", "pending",
    "pending_shown", "phase", "result", "result_info", "scheduled", "scored_mask", "sheets",
    "shown", "stage", "talon", "totals", "tricks", "untaken_shown", "won", "y",
    "history", "options", "seed", "num_players", "_rng", "_rng_shared")
"""The state's attributes held in slots (a driver reads them at every step); the legal
actions worked out and the end flag keep their class defaults."""
_slot_values = operator.attrgetter(*_SLOTS)


class PiquetState(GameState):
    """A partie of Rubicon Piquet (or Piquet au cent) from a seed."""

    game_name = "piquet"
    __slots__ = _SLOTS

    def __init__(self, options: Options, seed: int, *, layout: Any = None) -> None:
        super().__init__(options, seed, 2)
        self.o: Options = options
        self.first_dealer = self._rng.randrange(2)  # (a new state's own RNG: self.rng)
        self.scheduled = 0 if options.au_cent else (4 if options.four_deals else 6)
        self.extra = False
        self.totals = [0, 0]
        self.sheets: list[dict[str, Any]] = []
        self.result: tuple[float, float] | None = None
        self.result_info: dict[str, Any] | None = None
        self._start_deal(layout)

    # ------------------------------------------------------------------ deal set-up
    def _start_deal(self, layout: Any = None) -> None:
        """Shuffle (or use ``layout`` = (dealt_elder, dealt_younger, talon list)) and deal."""
        n = len(self.sheets)
        self.deal_number = n + 1
        self.dealer = self.first_dealer if n % 2 == 0 else 1 - self.first_dealer
        self.elder = 1 - self.dealer
        el, yo = self.elder, self.dealer
        if layout is None:
            deck = list(range(32))
            shuffle(self.rng, deck)
            de = sum(map(_BIT.__getitem__, deck[:12]))
            dy = sum(map(_BIT.__getitem__, deck[12:24]))
            talon = deck[24:]
        else:
            de, dy, talon = layout[0], layout[1], list(layout[2])
        self.dealt = [de, dy] if el == 0 else [dy, de]
        self.hands = list(self.dealt)
        self.talon: list[int] = talon
        self.discards = [0, 0]
        self.drawn: list[list[int]] = [[], []]
        self.e = -1
        self.y = -1
        self.phase = EX_E
        self.dscore = [0, 0]
        self.events: list[Event] = []
        self.pending: list[Event] = []
        self.bonus: str | None = None
        self.bonus_pending = False
        self.dialogue: list[tuple[int, int, int, int, str]] = []  # seat, cls, kind, val, text
        self.shown: list[Shown] = []
        self.pending_shown: list[Shown] = []
        self.scored_mask = [0, 0]
        self.cls = POINT
        self.stage = S_ECALL
        self.actor = el
        self.choose_kind = -1
        self.info: list[Any] = [None] * 12  # combinations, then keys (_comb, _key)
        self.leader = el
        self.lead_card = -1
        self.tricks: list[tuple[int, int, int, int]] = []  # leader, lead, follow, winner
        self.won = [0, 0]
        self.first_lead_done = False
        self.untaken_shown = False
        self.cb = [self.dealt[0] & pc.COURT_MASK == 0, self.dealt[1] & pc.COURT_MASK == 0]
        for s in (el, yo):
            if self.cb[s] and self._score(s, 10, "Carte blanche"):
                return

    # ------------------------------------------------------------------ scoring core
    def _score(self, seat: int, pts: int, label: str) -> bool:
        """Credit ``pts``; returns True if the game ended (au cent reaching 100)."""
        self.dscore[seat] += pts
        ev = (seat, pts, label)
        if seat == self.dealer and self.phase == DECL:
            self.pending.append(ev)
        else:
            self.events.append(ev)
        if self.o.au_cent and self.totals[seat] + self.dscore[seat] >= 100:
            self._finish_au_cent(seat)
            return True
        return False

    def _check_repique(self) -> bool:
        if self.bonus is not None:
            return False
        for s in (self.elder, self.dealer):
            if self.dscore[s] >= 30 and self.dscore[1 - s] == 0:
                self.bonus = "repique"
                self.bonus_pending = s == self.dealer and self.phase == DECL
                return self._score(s, 60, "Repique")
        return False

    def _check_pique(self) -> bool:
        el = self.elder
        if self.bonus is None and self.dscore[el] >= 30 and self.dscore[1 - el] == 0:
            self.bonus = "pique"
            return self._score(el, 30, "Pique")
        return False

    def _reveal_pending(self) -> None:
        self.events.extend(self.pending)
        self.pending = []
        self.shown.extend(self.pending_shown)
        self.pending_shown = []
        self.bonus_pending = False

    def _finish_au_cent(self, winner: int) -> None:
        self._reveal_pending()
        self._append_sheet(complete=len(self.tricks) == 12)
        loser_total = self.totals[1 - winner]
        double = loser_total < 50
        x = 2.0 if double else 1.0
        res = [0.0, 0.0]
        res[winner], res[1 - winner] = x, -x
        self.result = (res[0], res[1])
        self.result_info = {
            "winner": winner, "double": double, "rubicon": False, "value": x,
            "text": f"Player {winner + 1} reaches {self.totals[winner]} and wins a "
                    f"{'double' if double else 'single'} game",
        }
        self.phase = OVER
        self.is_terminal = True

    def _append_sheet(self, complete: bool = True) -> None:
        m = 1 if self.o.au_cent else _mult(self.deal_number, self.o)
        if self.o.au_cent:
            m = 1
        raw = list(self.dscore)
        counted = [raw[0] * m, raw[1] * m]
        self.sheets.append({
            "deal": self.deal_number, "dealer": self.dealer, "raw": raw, "multiplier": m,
            "counted": counted, "tricks": list(self.won), "complete": complete,
            "bonus": self.bonus,
            "events": [[s, p, lab] for s, p, lab in self.events],
            "shown": [{"seat": s, "class": CLASS_NAMES[c], "label": lab, "cards": bit_list(m),
                       "points": p} for s, c, lab, m, p in self.shown],
            "last_trick": ({"leader": self.tricks[-1][0],
                            "cards": [self.tricks[-1][1], self.tricks[-1][2]],
                            "winner": self.tricks[-1][3]} if self.tricks else None),
        })
        self.totals[0] += counted[0]
        self.totals[1] += counted[1]

    def _end_deal(self) -> None:
        for s in (self.elder, self.dealer):
            if self.won[s] == 12:
                if self._score(s, 40, "Capot"):
                    return
            elif self.won[s] >= 7 and self._score(s, 10, "Cards"):
                return
        self._append_sheet()
        if self.o.au_cent or len(self.sheets) < self.scheduled:
            self._next_deal()
            return
        a, b = self.totals
        if a == b and not self.extra:
            self.extra = True
            self.scheduled += 2
            self._next_deal()
            return
        self.phase = OVER
        self.is_terminal = True
        if a == b:
            self.result = (0.0, 0.0)
            self.result_info = {"winner": None, "double": False, "rubicon": False,
                                "value": 0.0, "text": f"Draw at {a} each"}
            return
        w, x, rubicon = partie_result(a, b)
        wt, lt = self.totals[w], self.totals[1 - w]
        res = [0.0, 0.0]
        res[w], res[1 - w] = x, -x
        self.result = (res[0], res[1])
        how = (f"{wt} + {lt} + 100 = {int(x)} (rubiconed: under 100)" if rubicon
               else f"({wt} − {lt}) + 100 = {int(x)}")
        self.result_info = {"winner": w, "double": False, "rubicon": rubicon, "value": x,
                            "text": f"Player {w + 1} wins the partie: {how}"}

    def _next_deal(self) -> None:
        """Deal again, unless the deal limit is reached: then the partie stops, the
        difference of the totals its result."""
        if self.deal_limit is None or len(self.sheets) < self.deal_limit:
            self._start_deal()
            return
        a, b = self.totals
        self.phase = OVER
        self.is_terminal = True
        self.result = (float(a - b), float(b - a))
        w = None if a == b else (0 if a > b else 1)
        self.result_info = {
            "winner": w, "double": False, "rubicon": False, "value": float(abs(a - b)),
            "text": f"Stopped after {len(self.sheets)} deals at {a} to {b}"}

    # ------------------------------------------------------------------ turn
    @property
    def current_player(self) -> int:
        ph = self.phase
        if ph == PLAY:
            return self.leader if self.lead_card < 0 else 1 - self.leader
        if ph == DECL:
            return self.actor
        if ph == EX_E:
            return self.elder
        if ph == EX_Y:
            return self.dealer
        return TERMINAL

    def y_range(self) -> tuple[int, int]:
        """Younger's allowed exchange sizes (min, max) once Elder has exchanged."""
        return (0 if self.o.younger_zero else 1, 8 - max(self.e, 0))

    # ------------------------------------------------------------------ declarations
    def _comb(self, seat: int, cls: int) -> Any:
        """A seat's point, list of sequences or list of sets (cached for the deal)."""
        i = 3 * seat + cls
        v = self.info[i]
        if v is None:
            h = self.hands[seat]
            v = pc.best_point(h) if cls == POINT else pc.sequences(h) if cls == SEQ \
                else pc.sets(h)
            self.info[i] = v
        return v

    def _key(self, seat: int, cls: int) -> tuple[int, int] | None:
        """Comparison key of a seat's best combination of a class (None if none; cached
        with the combinations, ``()`` standing for none)."""
        i = 3 * seat + cls + 6
        key = self.info[i]
        if key is None:
            comb = self._comb(seat, cls)
            key = (comb[0], comb[1]) if cls == POINT else \
                (comb[0][0], comb[0][1]) if comb else ()
            self.info[i] = key
        return key or None

    def _truth(self) -> int:
        """Younger's truthful reply at the current stage."""
        el, yo = self.elder, self.dealer
        ke, ky = self._key(el, self.cls), self._key(yo, self.cls)
        if self.stage == S_YREPLY1:
            assert ke is not None
            if ky is None or ky[0] < ke[0]:
                return GOOD
            if ky[0] > ke[0]:
                return NOT_GOOD
            if self.cls == SET:
                return GOOD if ky[1] < ke[1] else NOT_GOOD
            return ASK
        assert ke is not None and ky is not None
        if ky[1] < ke[1]:
            return GOOD
        return NOT_GOOD if ky[1] > ke[1] else EQUAL

    def _others(self, seat: int, cls: int) -> list[int]:
        """Masks of a seat's combinations of a class other than the best (sinking extras)."""
        return [c[-1] for c in self._comb(seat, cls)[1:]]

    def _decl_legal(self) -> list[Action]:
        st, sink = self.stage, self.o.sinking
        if st in (S_ECALL, S_YCALL):
            seat = self.elder if st == S_ECALL else self.dealer
            has = self._key(seat, self.cls) is not None
            if not has:
                return [_SAYS[PASS]]
            return [_SAYS[CALL], _SAYS[PASS]] if sink else [_SAYS[CALL]]
        if st == S_ESHOW:
            return [_SAYS[SHOW]]
        if st == S_CHOOSE:
            if self.choose_kind == SUIT:
                return [(SUIT, s) for s in pc.tied_point_suits(self.hands[self.actor])]
            others = self._others(self.actor, self.cls)
            out: list[Action] = []
            for k in range(len(others) + 1):
                for combo in itertools.combinations(others, k):
                    out.append((ADD, sum(combo)))
            return out
        t = self._truth()
        if sink and t != GOOD:
            return [_SAYS[GOOD], _SAYS[t]]
        return [_SAYS[t]]

    def _say_text(self, seat: int, code: int) -> str:
        reply = _REPLY_TEXT.get(code)
        if reply is not None:
            return reply
        cls, st, sink = self.cls, self.stage, self.o.sinking
        comb = self._comb(seat, cls)
        pt = seqs = sts = comb
        if code == CALL:
            if st == S_YCALL and not sink:
                return "Not good"
            if cls == POINT:
                return pc.point_text(pt)
            return pc.seq_text(seqs[0]) if cls == SEQ else pc.set_text(sts[0])
        if code == PASS:
            if sink:
                return "Pass"
            if st == S_YCALL:
                return "None"
            return "No sequence" if cls == SEQ else "No set"
        if code == SHOW:
            if cls == POINT:
                return f"Making {pt[1]}"
            return f"To the {pc.RANK_WORD[seqs[0][1]]}"
        if code == ASK:
            return "Making?" if cls == POINT else "To what?"
        return _REPLY_TEXT[code]  # (KeyError: not a code)

    def _apply_decl(self, action: tuple[int, int]) -> None:
        kind, val = action
        seat = self.actor
        text = self._say_text(seat, val) if kind == SAY else self._action_text_decl(action)
        self.dialogue.append((seat, self.cls, kind, val, text))
        el, yo = self.elder, self.dealer
        st = self.stage
        if kind == SAY:
            if st == S_ECALL:
                self.stage, self.actor = (S_YREPLY1, yo) if val == CALL else (S_YCALL, yo)
                return
            if st == S_ESHOW:
                self.stage, self.actor = S_YREPLY2, yo
                return
            if st == S_YCALL:
                self._resolve(yo if val == CALL else None)
                return
            if val == ASK:
                self.stage, self.actor = S_ESHOW, el
                return
            self._resolve(el if val == GOOD else yo if val == NOT_GOOD else None)
            return
        self._finalize(seat, val)

    def _resolve(self, winner: int | None) -> None:
        if winner is not None and self.o.sinking:
            # With sinking the winner always gets a choice step (often a single option),
            # so the opponent cannot tell whether he holds further combinations.
            self.stage, self.actor = S_CHOOSE, winner
            self.choose_kind = SUIT if self.cls == POINT else ADD
            return
        if winner is None:
            self._next_class()
        else:
            self._finalize(winner, None)

    def _finalize(self, winner: int, choice: int | None) -> None:
        """Score the class for ``winner`` (``choice``: point suit or extras mask)."""
        cls = self.cls
        comb = self._comb(winner, cls)
        pt = seqs = sts = comb
        hand = self.hands[winner]
        items: list[tuple[str, int, int]] = []  # label, mask, points
        if cls == POINT:
            suit = pt[2] if choice is None else choice
            m = hand & pc.suit_mask(suit)
            pip = pc.PIPSUM[m >> (8 * suit) & 0xFF]
            items.append((f"Point of {pc.NUMBER_WORD[pt[0]]} in {pc.SUIT_SYMBOL[suit]} ({pip})",
                          m, pt[0]))
            label = "Point"
        elif cls == SEQ:
            for i, q in enumerate(seqs):  # the best, and the extras chosen
                if choice is None or i == 0 or q[3] & choice:
                    items.append((pc.seq_label(q), q[3], pc.seq_score(q)))
            label = "Sequences"
        else:
            for i, t in enumerate(sts):
                if choice is None or i == 0 or t[2] & choice:
                    items.append((pc.set_text(t), t[2], pc.set_score(t)))
            label = "Sets"
        total = 0
        for lab, m, p in items:
            sh = (winner, cls, lab, m, p)
            (self.pending_shown if winner == self.dealer else self.shown).append(sh)
            self.scored_mask[winner] |= m
            total += p
        if self._score(winner, total, label) or self._check_repique():
            return
        self._next_class()

    def _next_class(self) -> None:
        if self.cls < SET:
            self.cls += 1
            self.stage, self.actor, self.choose_kind = S_ECALL, self.elder, -1
            return
        if self.o.carte_rouge:
            for s in (self.elder, self.dealer):
                if self.scored_mask[s] == self.hands[s] and (
                        self._score(s, 20, "Carte rouge") or self._check_repique()):
                    return
        self.phase = PLAY
        self.leader = self.elder
        self.lead_card = -1

    # ------------------------------------------------------------------ legal actions
    _legal: Sequence[Action] | None = None
    """The legal actions of this position, worked out once (None until asked)."""
    _lmask = 0
    """The legal cards while playing (valid while ``_legal`` is set)."""

    is_terminal: bool = False
    """True when the partie is over: set together with the phase ``OVER`` (an attribute, not
    a property, since every step of a driver reads it)."""

    def legal_actions(self) -> Sequence[Action]:
        """Legal actions in a stable order; worked out once per position (read-only)."""
        legal = self._legal
        if legal is not None:
            return legal
        ph = self.phase
        if ph == PLAY:
            lead = self.lead_card
            if lead < 0:
                hand = self.hands[self.leader]
            else:
                hand = self.hands[1 - self.leader]
                follow = hand & 0xFF << (lead & ~7)  # the led suit's cards
                if follow:
                    hand = follow
            self._lmask = hand
            legal = [*_C0[hand & 2047], *_C1[hand >> 11 & 2047], *_C2[hand >> 22]]
        elif ph == DECL:
            legal = self._decl_legal()
        elif ph == EX_E:
            legal = self._discard_masks(1, 5)
        elif ph == EX_Y:
            legal = self._discard_masks(*self.y_range())
        else:
            legal = []
        self._legal = legal
        return legal

    def apply(self, action: Action) -> None:
        """Apply a legal action; :class:`IllegalAction` (state unchanged) otherwise. The
        legality worked out for :meth:`legal_actions` decides at once."""
        if type(action) is int:
            if self.phase == PLAY and action >= 0:
                if self._legal is None:
                    self.legal_actions()
                if self._lmask >> action & 1:  # a card played
                    self._legal = None
                    leader = self.leader
                    lead = self.lead_card
                    if lead < 0:
                        self.history.append(_SEAT_CARD[leader][action])
                        self.hands[leader] &= _KEEP[action]
                        if not self.first_lead_done:
                            self.first_lead_done = True
                            self._reveal_pending()
                            if self.o.show_untaken:
                                self.untaken_shown = True
                        self.lead_card = action
                        if action & 7 >= 3 or not self.o.lead_ten:
                            self._point(leader, _LEAD[leader])
                        return
                    p = 1 - leader
                    self.history.append(_SEAT_CARD[p][action])
                    self.hands[p] &= _KEEP[action]
                    winner = p if (action >> 3 == lead >> 3 and action > lead) else leader
                    tricks = self.tricks
                    tricks.append((leader, lead, action, winner))
                    self.won[winner] += 1
                    self.lead_card = -1
                    self.leader = winner
                    if winner == p and self._point(p, _CAPTURE[p]):
                        return
                    if len(tricks) == 12:
                        if self._score(winner, 10 if self.o.last_trick_ten else 1,
                                       "Last trick") or self._check_pique():
                            return
                        self._end_deal()
                    return
        elif (type(action) is tuple and len(action) == 2 and type(action[0]) is int
              and type(action[1]) is int and self.phase != OVER):
            legal = self._legal
            if legal is None:
                legal = self.legal_actions()
            if action in legal:  # _apply, by phase
                self._legal = None
                ph = self.phase
                if ph == DECL:
                    seat = self.actor
                    self._apply_decl(action)
                else:  # an exchange (no tuple is legal while playing)
                    seat = self.elder if ph == EX_E else self.dealer
                    self._exchange(action[1])
                self.history.append((seat, action))
                return
        super().apply(action)

    def _discard_masks(self, lo: int, hi: int) -> DiscardChoices:
        return DiscardChoices(self.hands[self.elder if self.phase == EX_E else self.dealer],
                              lo, hi)

    def illegal_reason(self, action: Action) -> str | None:
        ph = self.phase
        if ph == OVER:
            return "the partie is over"
        who = "Elder" if self.current_player == self.elder else "Younger"
        if isinstance(action, bool) or not isinstance(action, int | tuple):
            return f"{action!r} is not a Piquet action"
        if isinstance(action, int):
            if not 0 <= action < 32:
                return f"{action} is not a card"
            if ph != PLAY:
                return (f"no card can be played now: it is the {self._phase_words()}")
            hand = self.hands[self.current_player]
            if not hand >> action & 1:
                return f"You do not hold {PIQUET.text(action)}"
            if self.lead_card >= 0:
                ls = self.lead_card >> 3
                if action >> 3 != ls and hand & pc.suit_mask(ls):
                    return (f"You must follow suit: {PIQUET.text(self.lead_card)} was led "
                            f"and you hold {pc.SUIT_SYMBOL[ls]}")
            return None
        if len(action) != 2 or not all(isinstance(v, int) and not isinstance(v, bool)
                                       for v in action):
            return f"{action!r} is not a Piquet action"
        kind, val = action
        if kind == EXCH:
            if ph not in (EX_E, EX_Y):
                return f"there is no exchange now: it is the {self._phase_words()}"
            hand = self.hands[self.current_player]
            if val < 0 or val & ~hand:
                return "You can only discard cards from your hand"
            n = val.bit_count()
            if ph == EX_E:
                if not 1 <= n <= 5:
                    return f"Elder must exchange 1 to 5 cards, not {n}"
            else:
                lo, hi = self.y_range()
                if n > hi:
                    left = "only 1 remains" if hi == 1 else f"only {hi} remain"
                    cards = "1 card" if hi == 1 else f"{hi} cards"
                    return f"Younger may exchange at most {cards}: {left} in the talon"
                if n < lo:
                    return ("Younger must exchange at least 1 card (the option 'Younger may "
                            "exchange 0' is off)")
            return None
        if kind in (SAY, ADD, SUIT):
            if ph != DECL:
                return f"there is no declaration now: it is the {self._phase_words()}"
            if action in self._decl_legal():
                return None
            if kind == SAY and 0 <= val < len(CODE_NAMES):
                return self._say_reason(val)
            if kind in (ADD, SUIT) and self.stage != S_CHOOSE:
                return "there is nothing to choose now"
            if kind == ADD:
                return "You can only add your own further combinations of this class"
            if kind == SUIT:
                return "You can only show one of your equally best point suits"
            return f"{action!r} is not a declaration"
        return f"{who}: {action!r} is not a Piquet action"

    def _say_reason(self, code: int) -> str:
        st = self.stage
        legal = [a[1] for a in self._decl_legal() if isinstance(a, tuple) and a[0] == SAY]
        words = " or ".join(f"'{self._say_text(self.actor, v)}'" for v in legal)
        if st == S_CHOOSE:
            return "choose which combinations to score first"
        if code == CALL and st in (S_ECALL, S_YCALL):
            return f"You have no {CLASS_NAMES[self.cls]} to call; say {words}"
        if code == PASS and not self.o.sinking:
            return f"Declarations are complete without the sinking option; say {words}"
        if st in (S_YREPLY1, S_YREPLY2):
            if code in (CALL, PASS, SHOW):
                return f"Reply to Elder's call: {words}"
            return f"Your reply must be truthful: say {words}"
        return f"Now say {words}"

    def _phase_words(self) -> str:
        return {EX_E: "Elder's exchange", EX_Y: "Younger's exchange",
                DECL: "declarations", PLAY: "trick play", OVER: "end"}[self.phase]

    def illegal_card_reasons(self) -> dict[int, str]:
        if self.phase != PLAY or self.lead_card < 0:
            return {}
        hand = self.hands[self.current_player]
        ls = self.lead_card >> 3
        if not hand & pc.suit_mask(ls):
            return {}
        reason = (f"You must follow suit: {PIQUET.text(self.lead_card)} was led and you hold "
                  f"{pc.SUIT_SYMBOL[ls]}")
        return {c: reason for c in range(32) if hand >> c & 1 and c >> 3 != ls}

    # ------------------------------------------------------------------ transitions
    def _apply(self, action: Action) -> None:
        # GameState.apply's step, which it reaches only for an action illegal_reason lets
        # through that apply left to it (made of int subclasses): apply takes it made of
        # ints, recording it; the caller records it here.
        if isinstance(action, int):
            self.apply(int(action))
        else:
            assert isinstance(action, tuple)
            self.apply((int(action[0]), int(action[1])))
        self.history.pop()

    def _exchange(self, mask: int) -> None:
        p = self.elder if self.phase == EX_E else self.dealer  # current_player
        n = mask.bit_count()
        self.hands[p] &= ~mask
        self.discards[p] = mask
        if self.phase == EX_E:
            self.e = n
            take = self.talon[:n]
            self.drawn[p] = take
            for c in take:
                self.hands[p] |= 1 << c
            self.phase = EX_Y
            return
        self.y = n
        take = self.talon[self.e:self.e + n]
        self.drawn[p] = take
        for c in take:
            self.hands[p] |= 1 << c
        self.phase = DECL
        self.info = [None] * 12  # filled lazily by _comb and _key
        self.cls, self.stage, self.actor = POINT, S_ECALL, self.elder

    def _point(self, seat: int, event: Event) -> bool:
        """:meth:`_score` of one point while playing (``event``: its record), then
        :meth:`_check_pique`; True if the game ended."""
        dscore = self.dscore
        dscore[seat] += 1
        self.events.append(event)
        if self.o.au_cent and self.totals[seat] + dscore[seat] >= 100:
            self._finish_au_cent(seat)
            return True
        if self.bonus is None and dscore[self.elder] >= 30:
            return self._check_pique()
        return False

    # ------------------------------------------------------------------ results
    def returns(self) -> tuple[float, ...]:
        if self.result is not None:
            return self.result
        return (float(self.totals[0]), float(self.totals[1]))

    def clone(self) -> PiquetState:
        new = object.__new__(PiquetState)
        for name, value in zip(_SLOTS, _slot_values(self), strict=True):
            setattr(new, name, value)
        d = self.__dict__.copy()
        # Lists changed in place are copied; ``dealt``, ``talon`` and ``cb`` are
        # only ever replaced whole, and sheets/events entries are never mutated, so they
        # may be shared.
        d["history"] = self.history[:]
        d["totals"] = self.totals[:]
        d["sheets"] = self.sheets[:]
        d["hands"] = self.hands[:]
        d["discards"] = self.discards[:]
        d["drawn"] = self.drawn[:]
        d["dscore"] = self.dscore[:]
        d["events"] = self.events[:]
        d["pending"] = self.pending[:]
        d["dialogue"] = self.dialogue[:]
        d["shown"] = self.shown[:]
        d["pending_shown"] = self.pending_shown[:]
        d["scored_mask"] = self.scored_mask[:]
        d["tricks"] = self.tricks[:]
        d["won"] = self.won[:]
        d["info"] = self.info[:]
        d["_legal"] = None
        for name in _SLOTS:  # the copied lists go to the slots
            if name in d:
                setattr(new, name, d.pop(name))
        new.__dict__ = d
        self.share_rng(new)
        return new

    # ------------------------------------------------------------------ observation
    def untaken_cards(self) -> list[int]:
        """Talon cards nobody took (after Younger's exchange)."""
        if self.y < 0:
            return []
        return self.talon[self.e + self.y:]

    def observation(self, seat: int) -> dict[str, JSON]:
        el, yo = self.elder, self.dealer
        revealed: dict[str, list[int]] = {}
        for s in (0, 1):
            if not self.cb[s]:
                continue
            if s in (seat, el) or self.e >= 0:
                revealed[str(s)] = bit_list(self.dealt[s])
        seen: list[dict[str, int]] = []
        if seat == el and self.e >= 0:
            seen = [{"position": i + 1, "card": self.talon[i]} for i in range(self.e, 5)]
        pending_visible = self.phase == DECL
        dialogue = []
        for s, cls, kind, val, text in self.dialogue:
            hidden = kind in (ADD, SUIT) and self._choice_hidden(s, seat)
            entry: dict[str, JSON] = {"seat": s, "class": CLASS_NAMES[cls]}
            if hidden:
                entry.update(kind="choose", value=None, text=CHOICE_HIDDEN)
            else:
                entry.update(kind=("say", "say", "add", "point_suit")[kind],
                             value=CODE_NAMES[val] if kind == SAY else (
                                 bit_list(val) if kind == ADD else val),
                             text=text)
            dialogue.append(entry)
        declaring: dict[str, JSON] | None = None
        if self.phase == DECL:
            declaring = {"class": CLASS_NAMES[self.cls],
                         "stage": ("elder_call", "younger_reply", "elder_show",
                                   "younger_reply_2", "younger_call", "choose")[self.stage]}
        obs: dict[str, JSON] = {
            "game": "piquet",
            "seat": seat,
            "options": options_to_dict(self.o),
            "phase": PHASE_NAMES[self.phase],
            "to_act": self.current_player,
            "deal": self.deal_number,
            "deals_scheduled": self.scheduled or None,
            "extra_deals": self.extra,
            "multiplier": 1 if self.o.au_cent else _mult(self.deal_number, self.o),
            "first_dealer": self.first_dealer,
            "dealer": self.dealer,
            "elder": el,
            "role": "elder" if seat == el else "younger",
            "hand": bit_list(self.hands[seat]),
            "hand_count": [self.hands[0].bit_count(), self.hands[1].bit_count()],
            "dealt": bit_list(self.dealt[seat]),
            "discards": bit_list(self.discards[seat]) if (
                self.e if seat == el else self.y) >= 0 else None,
            "drawn": sorted(self.drawn[seat]),
            "exchanged": {"elder": self.e if self.e >= 0 else None,
                          "younger": self.y if self.y >= 0 else None},
            "talon_count": (8 if self.e < 0 else 8 - self.e if self.y < 0
                            else 8 - self.e - self.y),
            "talon_seen": seen,
            "untaken": sorted(self.untaken_cards()) if self.untaken_shown else [],
            "carte_blanche": [self.cb[0], self.cb[1]],
            "revealed_dealt": revealed,
            "dialogue": dialogue,
            "declaring": declaring,
            "shown": [{"seat": s, "class": CLASS_NAMES[c], "label": lab,
                       "cards": bit_list(m), "points": p} for s, c, lab, m, p in self.shown],
            "events": [{"seat": s, "points": p, "label": lab} for s, p, lab in self.events],
            "deal_score": [sum(p for s, p, _ in self.events if s == k) for k in (0, 1)],
            "bonus": None if self.bonus_pending else self.bonus,
            "pending": ([{"seat": s, "points": p, "label": lab} for s, p, lab in self.pending]
                        if seat == yo and pending_visible else []),
            "pending_shown": ([{"seat": s, "class": CLASS_NAMES[c], "label": lab,
                                "cards": bit_list(m), "points": p}
                               for s, c, lab, m, p in self.pending_shown]
                              if seat == yo and pending_visible else []),
            "trick": {"leader": self.leader,
                      "cards": [self.lead_card] if self.lead_card >= 0 else []},
            "tricks": [{"leader": lead_s, "cards": [a, b], "winner": w}
                       for lead_s, a, b, w in self.tricks],
            "tricks_won": list(self.won),
            "totals": list(self.totals),
            "sheets": [_copy_sheet(sh) for sh in self.sheets],
            "result": None if self.result_info is None else dict(
                self.result_info, returns=list(self.result or (0.0, 0.0))),
        }
        return obs

    def _choice_hidden(self, actor: int, viewer: int) -> bool:
        """Younger's choice of which combinations to score (with sinking) stays hidden from
        Elder until the first lead of the deal (or the end of the partie)."""
        return (actor != viewer and actor == self.dealer and not self.first_lead_done
                and self.phase != OVER)

    def public_action(self, action: Action, viewer: int) -> str | None:
        """The opponent's discards are seen as their number only; Younger's choice of
        combinations as the observation's dialogue shows it."""
        actor = self.current_player
        if actor == viewer or not isinstance(action, tuple):
            return None
        kind, val = action
        if kind == EXCH:
            k = int(val).bit_count()
            return f"exchanges {k} card{'s' if k != 1 else ''}"
        if kind in (ADD, SUIT) and self._choice_hidden(actor, viewer):
            return CHOICE_HIDDEN
        return None

    def brings_to_light(self, before: GameState) -> bool:
        """Besides the default (a deal, the talon drawn, the end), combinations shown and
        the untaken cards laid open."""
        assert isinstance(before, PiquetState)
        if (len(self.shown) + len(self.pending_shown)
                > len(before.shown) + len(before.pending_shown)):
            return True
        if self.untaken_shown and not before.untaken_shown:
            return True
        return super().brings_to_light(before)

    # ------------------------------------------------------------------ action forms
    def _action_text_decl(self, action: tuple[int, int]) -> str:
        kind, val = action
        if kind == SAY:
            return self._say_text(self.actor, val)
        if kind == SUIT:
            return f"point {pc.SUIT_SYMBOL[val]}"
        return "add " + (pc.cards_text(val) if val else "none")

    def action_text(self, action: Action) -> str:
        if isinstance(action, int):
            return PIQUET.text(action)
        assert isinstance(action, tuple)
        kind, val = action
        if kind == EXCH:
            return "discard " + (pc.cards_text(val) if val else "none")
        if self.phase == DECL:
            return self._action_text_decl((kind, val))
        return repr(action)

    def parse_action(self, text: str) -> Action:
        t = text.strip()
        low = t.lower()
        legal = self.legal_actions() if self.phase != OVER else []
        if self.phase == OVER:
            raise ActionParseError("the partie is over")
        if low in ("", "ok", "y", "yes") and len(legal) == 1:
            return legal[0]
        if self.phase in (EX_E, EX_Y):
            rest = re.sub(r"^(discard|d|exchange|x)\b", "", low).strip()
            if rest in ("none", "nothing", "0", "-"):
                return (EXCH, 0)
            try:
                mask = PIQUET.parse_mask(rest)
            except CardParseError as exc:
                raise ActionParseError(
                    f"{exc}. Type the cards to discard, e.g. 'discard 7♣ 8♦ 9♦'") from None
            if not rest:
                raise ActionParseError("Type the cards to discard, e.g. 'discard 7♣ 8♦ 9♦'")
            return (EXCH, mask)
        if self.phase == PLAY:
            rest = re.sub(r"^(play|p)\b", "", low).strip()
            try:
                cards = PIQUET.parse_cards(rest)
            except CardParseError as exc:
                raise ActionParseError(f"{exc}. Type one card, e.g. 'A♠' or 'as'") from None
            if len(cards) != 1:
                raise ActionParseError("Type exactly one card to play, e.g. 'K♥' or 'kh'")
            return cards[0]
        # declarations
        norm = _norm(low)
        for a in legal:
            if _norm(self.action_text(a).lower()) == norm:
                return a
        if self.stage == S_CHOOSE:
            if self.choose_kind == ADD:
                rest = re.sub(r"^(add|a)\b", "", low).strip()
                if rest in ("none", "nothing", "", "0"):
                    return (ADD, 0)
                try:
                    return (ADD, PIQUET.parse_mask(rest))
                except CardParseError as exc:
                    raise ActionParseError(f"{exc}. Type 'add' and the cards of the further "
                                           "combinations to score, or 'add none'") from None
            m = re.sub(r"^(point|suit)\b", "", low).strip().upper()
            syms = {"S": 0, "♠": 0, "H": 1, "♥": 1, "D": 2, "♦": 2, "C": 3, "♣": 3}
            if m in syms:
                return (SUIT, syms[m])
            raise ActionParseError("Type the suit to show, e.g. 'point ♥' or 'point h'")
        words = {"call": CALL, "pass": PASS, "good": GOOD, "notgood": NOT_GOOD,
                 "not": NOT_GOOD, "equal": EQUAL, "making": ASK, "towhat": ASK, "ask": ASK,
                 "show": SHOW, "none": PASS, "nosequence": PASS, "noset": PASS}
        if norm in words:
            code = words[norm]
            if self.stage == S_ESHOW and code == ASK:
                code = SHOW
            return (SAY, code)
        opts = " / ".join(self.action_text(a) for a in legal)
        raise ActionParseError(f"{text!r} is not a declaration now; say {opts}")

    def action_to_json(self, action: Action) -> JSON:
        if isinstance(action, int):
            return {"play": action}
        assert isinstance(action, tuple)
        kind, val = action
        name = ("discard", "say", "add", "point_suit")[kind]
        if kind == SAY:
            return {"say": CODE_NAMES[val]}
        if kind in (EXCH, ADD):
            return {name: bit_list(val)}
        return {name: val}

    def action_from_json(self, data: JSON) -> Action:
        if not isinstance(data, dict) or len(data) != 1:
            raise ActionParseError(f"not a Piquet action: {data!r}")
        (key, val), = data.items()
        try:
            if key == "play" and isinstance(val, int) and not isinstance(val, bool):
                return int(val)
            if key in ("discard", "add") and isinstance(val, list):
                if not all(isinstance(c, int) and 0 <= c < 32 for c in val):
                    raise ValueError
                return (EXCH if key == "discard" else ADD, sum(1 << c for c in set(val)))
            if key == "say" and val in CODE_NAMES:
                return (SAY, CODE_NAMES.index(val))
            if key == "point_suit" and val in (0, 1, 2, 3):
                return (SUIT, int(val))
        except (TypeError, ValueError):
            pass
        raise ActionParseError(f"not a Piquet action: {data!r}")


def _copy_sheet(sh: dict[str, Any]) -> dict[str, Any]:
    out = dict(sh, raw=list(sh["raw"]), counted=list(sh["counted"]), tricks=list(sh["tricks"]),
               events=[list(e) for e in sh["events"]],
               shown=[dict(x, cards=list(x["cards"])) for x in sh.get("shown", [])])
    last = sh.get("last_trick")
    if last is not None:
        out["last_trick"] = dict(last, cards=list(last["cards"]))
    return out


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9àèéìòùâêîôûäëïöüç]", "", text)


def first_deal_returns(state: GameState) -> list[float] | None:
    """Each seat's points of the partie's first deal once it is over (None before): what
    entered the score sheet for it — carte blanche, declarations, tricks, pique or
    repique, cards or capot (doubled when the deal counts double)."""
    assert isinstance(state, PiquetState)
    if not state.sheets:
        return None
    counted = state.sheets[0]["counted"]
    return [float(counted[0]), float(counted[1])]


def deals_dealt(state: GameState) -> int:
    """Deals dealt so far in the partie, the current one included."""
    assert isinstance(state, PiquetState)
    return state.deal_number
