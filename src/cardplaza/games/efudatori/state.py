"""E-fuda-tori game state: deal, tricks, draw rounds, scoring (schema in the package doc)."""

from __future__ import annotations

import operator
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from cardplaza.core.cards import FULL_DECK, CardParseError, bit_list, bits, shuffle
from cardplaza.core.protocol import (
    JSON,
    TERMINAL,
    Action,
    ActionParseError,
    GameState,
)
from cardplaza.games.efudatori import rules
from cardplaza.games.efudatori.rules import HAND_SIZE, JOKER, Options

DrawRecord = tuple[int, int, int, tuple[tuple[int, int], ...]]
"""``(after_trick, winner, face_down_card, ((seat, face_up_card), …))``."""
TrickRecord = tuple[int, tuple[int, ...], int]
"""``(leader, cards in playing order, winner)``."""


def _suit_chunk(suit: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(13 * suit + i for i in range(13) if m >> i & 1) for m in range(8192))


_S0, _S1, _S2, _S3 = (_suit_chunk(s) for s in range(4))
"""The cards of each suit's 13 bits of a card mask."""
_S4: tuple[tuple[int, ...], ...] = ((), (JOKER,))
_ONE_SUIT: dict[int, tuple[int, ...]] = {
    m << 13 * s: cards for s, chunk in enumerate((_S0, _S1, _S2, _S3))
    for m, cards in enumerate(chunk) if m}
"""The cards of any non-empty set of cards of one suit, by its mask."""
_JOKER_ONLY = (JOKER,)
_DECKS: dict[int, tuple[int, list[int]]] = {}
"""The deck of each number of players, as a mask and as a list of cards."""
_FIRST_LEAD_OK = rules.FIRST_LEAD_OK
_SPADE_THREE = rules.SPADE_THREE
_SPADE_ACE = rules.SPADE_ACE
_SPADE_ACE_BIT = rules.SPADE_ACE_BIT
_JOKER_BIT = rules.JOKER_BIT
_SPADE_THREE_BIT = rules.SPADE_THREE_BIT
_SUIT_MASK = rules.SUIT_MASK
_TRUMPS = tuple(rules.trump_of(k) for k in (3, 1, 2))
"""Trump suit by trick number modulo 3."""
_TRUMP_MASKS = tuple(_SUIT_MASK[t] for t in _TRUMPS)
"""The trump suit's cards by trick number modulo 3."""
_KEEP = tuple(~(1 << c) for c in range(JOKER + 1))
"""Every card but one, as a mask to remove it with."""
_SEAT_CARD = tuple(tuple((seat, c) for c in range(JOKER + 1)) for seat in range(8))
"""The history entry of each seat's play of each card (made once)."""
_BIT = tuple(1 << c for c in range(JOKER + 1))
_THREE_OR_JOKER = _SPADE_THREE_BIT | _JOKER_BIT
_SUIT_OF_CARD = tuple(_SUIT_MASK[c // 13] for c in range(JOKER))
"""The cards of each card's suit (not the Joker's)."""
_AFTER = tuple(tuple(tuple((w + i) % n for i in range(1, n)) for w in range(n))
               for n in range(8))
"""By number of players and seat: the other seats in turn after it."""


class EfudatoriState(GameState):
    """A game of E-fuda-tori from the deal to the last trick."""

    game_name = "efudatori"

    def __init__(self, options: Options, seed: int, dealer: int | None = None) -> None:
        """Deal a new game; the dealer is drawn with the state's RNG unless ``dealer`` or
        the ``dealer`` option names one (a rematch, see :func:`rematch_options`)."""
        super().__init__(options, seed, options.players)
        n = options.players
        deck = _DECKS.get(n)
        if deck is None:
            deck = _DECKS[n] = rules.deck_mask(n), bit_list(rules.deck_mask(n))
        self.deck = deck[0]
        self.tricks_total = len(deck[1]) // n
        self.names = options.display_names()
        rng = self._rng  # (a new state's own RNG: self.rng without the call)
        drawn = rng.randrange(n)  # E-2: drawn in every case, so the deal is the same
        if dealer is None and options.dealer >= 0:
            dealer = options.dealer
        if dealer is not None and not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat from 0 to {n - 1}; got {dealer}")
        self.dealer = drawn if dealer is None else dealer
        cards = deck[1][:]
        shuffle(rng, cards)
        bit = _BIT.__getitem__
        hands: list[int] = []
        self.hands = hands
        for i in range(0, n * HAND_SIZE, HAND_SIZE):
            hands.append(sum(map(bit, cards[i:i + HAND_SIZE])))
        # Stock: S1 (top, face down) is the LAST element; S2 … below it.
        self.stock: list[int] = cards[n * HAND_SIZE:][::-1]
        self.trick_number = 1
        self.leader = (self.dealer + 1) % n  # E-1
        self._trick = []  # (the values the trick property sets, set at once)
        self._tmask = 0
        self._legal = None
        self._lmask = 0
        self.is_terminal = False
        self.cur = self.leader
        self.captured = [0] * n
        self.known = [0] * n  # face-up drawn cards still in each hand (public)
        self.tricks_log: list[TrickRecord] = []
        self.draws_log: list[DrawRecord] = []

    # -- turn and actions -----------------------------------------------------------
    _trick: list[int]
    _tmask = 0
    """The cards of the trick so far, as a mask (kept with ``_trick``)."""

    @property
    def trick(self) -> list[int]:
        """The cards of the trick so far, in play order (read-only: set it whole)."""
        return self._trick

    @trick.setter
    def trick(self, cards: list[int]) -> None:
        self._trick = cards
        m = 0
        for c in cards:
            m |= 1 << c
        self._tmask = m
        self._legal = None

    _legal: list[int] | None = None
    """The legal cards of this position, worked out once (None until asked)."""
    _lmask = 0
    """Their mask (valid while ``_legal`` is set)."""

    current_player = property(operator.attrgetter("cur"), doc="""Seat to play, or TERMINAL
        (``cur`` itself, read without a Python call: a driver asks at every step).""")

    is_terminal: bool = False
    """True after the last trick: set with ``cur = TERMINAL`` (an attribute, not a property,
    since every step of a driver reads it)."""

    @property
    def trump(self) -> int:
        """Trump suit index of the current trick."""
        return rules.trump_of(self.trick_number)

    def legal_mask(self) -> int:
        """Mask of the current player's legal cards (0 at the end)."""
        if self._legal is None:
            self.legal_actions()
        return self._lmask

    def legal_actions(self) -> Sequence[Action]:
        """Legal cards in increasing id order (♠, ♥, ♦, ♣, Joker); worked out once per
        position (treat the list as read-only)."""
        legal = self._legal
        if legal is None:
            cur = self.cur
            if cur == TERMINAL:
                m = 0
            else:  # rules.legal_mask, inline
                m = self.hands[cur]
                trick = self._trick
                if not trick:
                    if self.trick_number == 1:
                        m = (m & _FIRST_LEAD_OK) or m
                else:
                    played = self._tmask
                    if played & _THREE_OR_JOKER:
                        if played & _SPADE_THREE_BIT and m & _JOKER_BIT:  # F1
                            self._lmask = _JOKER_BIT
                            self._legal = legal = [*_JOKER_ONLY]
                            return legal
                        trumps = m & _TRUMP_MASKS[self.trick_number % 3] \
                            if played & _JOKER_BIT else 0  # F2
                        if trumps:  # cards of one suit
                            self._lmask = trumps
                            self._legal = legal = [*_ONE_SUIT[trumps]]
                            return legal
                    led = trick[0]
                    if led != JOKER:  # F3
                        follow = m & _SUIT_OF_CARD[led]
                        if follow:  # cards of one suit, and the Joker (the last card)
                            if m & _JOKER_BIT:
                                self._lmask = follow | _JOKER_BIT
                                self._legal = legal = [*_ONE_SUIT[follow], JOKER]
                            else:
                                self._lmask = follow
                                self._legal = legal = [*_ONE_SUIT[follow]]
                            return legal
            self._lmask = m
            self._legal = legal = [*_S0[m & 8191], *_S1[m >> 13 & 8191], *_S2[m >> 26 & 8191],
                                   *_S3[m >> 39 & 8191], *_S4[m >> 52]]
        return legal

    def apply(self, action: Action) -> None:
        """Apply a legal card; :class:`IllegalAction` (state unchanged) otherwise. The
        legality worked out for :meth:`legal_actions` decides at once."""
        if type(action) is int and action >= 0:
            if self._legal is None:
                self.legal_actions()
            if self._lmask >> action & 1:
                seat = self.cur
                self._legal = None
                self.history.append(_SEAT_CARD[seat][action])  # (seat, action)
                keep = _KEEP[action]
                self.hands[seat] &= keep
                self.known[seat] &= keep
                trick = self._trick
                trick.append(action)
                self._tmask |= 1 << action
                n = self.num_players
                if len(trick) < n:
                    self.cur = seat + 1 if seat + 1 < n else 0
                    return
                # The trick is complete.
                cards = tuple(trick)
                m = self._tmask
                # rules.trick_winner_index from the trick's mask: W1-W5 name the winning card.
                if m & _JOKER_BIT:
                    win = _SPADE_THREE if m & _SPADE_THREE_BIT else JOKER
                elif m & _SPADE_ACE_BIT:
                    win = _SPADE_ACE
                else:
                    win = (m & _TRUMP_MASKS[self.trick_number % 3]
                           or m & _SUIT_OF_CARD[cards[0]]).bit_length() - 1
                w = self.leader + cards.index(win)
                if w >= n:
                    w -= n
                self.captured[w] |= m
                self.tricks_log.append((self.leader, cards, w))
                self._trick = []
                self._tmask = 0
                stock = self.stock
                if stock:
                    fd = stock.pop()
                    hands, known = self.hands, self.known
                    hands[w] |= 1 << fd
                    ups = []
                    for q in _AFTER[n][w]:
                        bit = 1 << (c := stock.pop())
                        hands[q] |= bit
                        known[q] |= bit
                        ups.append(_SEAT_CARD[q][c])  # (q, c)
                    self.draws_log.append((self.trick_number, w, fd, tuple(ups)))
                self.leader = w
                if self.trick_number >= self.tricks_total:
                    self.cur = TERMINAL
                    self.is_terminal = True
                else:
                    self.trick_number += 1
                    self.cur = w
                return
        super().apply(action)

    def illegal_reason(self, action: Action) -> str | None:
        """Precise reason, e.g. "You hold a trump: the Joker forces you to play one"."""
        if self.cur == TERMINAL:
            return "the game is over"
        if not isinstance(action, int) or isinstance(action, bool):
            return f"{action!r} is not a card"
        if not 0 <= action <= JOKER or not self.deck >> action & 1:
            return f"{action!r} is not a card of this deck"
        if self.legal_mask() >> action & 1:
            return None
        return rules.illegal_card_reason(action, self.hands[self.cur], self.trick,
                                         self.trick_number)

    def illegal_card_reasons(self) -> dict[int, str]:
        """For each card in the acting player's hand that cannot be played now: why not."""
        if self.cur == TERMINAL:
            return {}
        hand = self.hands[self.cur]
        out: dict[int, str] = {}
        for c in bits(hand & ~self.legal_mask()):
            reason = rules.illegal_card_reason(c, hand, self.trick, self.trick_number)
            if reason is not None:
                out[c] = reason
        return out

    def _apply(self, action: Action) -> None:
        # GameState.apply's step, which it reaches only for a card illegal_reason lets
        # through that apply left to it (an int subclass): apply takes it as an int,
        # recording it; the caller records it here.
        assert isinstance(action, int)
        self.apply(int(action))
        self.history.pop()

    # -- end of game ----------------------------------------------------------------
    def scores(self) -> list[int]:
        """Points of each seat from the cards captured so far."""
        simple = self.options.simple_scoring
        return [rules.score(m, simple) for m in self.captured]

    def returns(self) -> tuple[float, ...]:
        """Scores (final at the end)."""
        return tuple(float(s) for s in self.scores())

    def ranking(self) -> list[int]:
        """Competition rank of each seat by the current scores."""
        return rules.ranking(self.scores())

    # -- copies and views -----------------------------------------------------------
    def clone(self) -> EfudatoriState:
        """Independent copy (lists copied, records are tuples, RNG copied)."""
        new = object.__new__(EfudatoriState)
        new.__dict__.update(self.__dict__)
        self.share_rng(new)
        new.history = list(self.history)
        new.hands = list(self.hands)
        new.stock = list(self.stock)
        new._trick = list(self._trick)
        new.captured = list(self.captured)
        new.known = list(self.known)
        new.tricks_log = list(self.tricks_log)
        new.draws_log = list(self.draws_log)
        new._legal = None
        return new

    def observation(self, seat: int) -> dict[str, JSON]:
        """What ``seat`` may see (spec 15; schema in the package docstring)."""
        n = self.num_players
        over = self.cur == TERMINAL
        scores = self.scores()
        hand = self.hands[seat]
        return {
            "game": self.game_name,
            "seat": seat,
            "players": n,
            "names": list(self.names),
            "simple_scoring": self.options.simple_scoring,
            "deck": list(bits(self.deck)),
            "tricks_total": self.tricks_total,
            "dealer": self.dealer,
            "trick_number": self.trick_number,
            "trump": self.trump,
            "leader": self.leader,
            "to_play": self.cur,
            "hand": list(bits(hand)),
            "hand_sizes": [m.bit_count() for m in self.hands],
            "known_cards": [list(bits(m)) for m in self.known],
            "stock_size": len(self.stock),
            "trick": [[(self.leader + i) % n, c] for i, c in enumerate(self.trick)],
            "tricks": [{"number": i + 1, "trump": rules.trump_of(i + 1), "leader": ld,
                        "cards": [[(ld + j) % n, c] for j, c in enumerate(cards)],
                        "winner": w}
                       for i, (ld, cards, w) in enumerate(self.tricks_log)],
            "draws": [{"after_trick": k, "winner": w,
                       "face_down": fd if w == seat else None,
                       "face_up": [[q, c] for q, c in ups]}
                      for k, w, fd, ups in self.draws_log],
            "captured": [list(bits(m)) for m in self.captured],
            "scores": scores,
            "sets": [rules.complete_sets(m) for m in self.captured],
            "legal": list(bits(self.legal_mask())) if self.cur == seat else [],
            "terminal": over,
            "ranking": rules.ranking(scores) if over else None,
            "course": self.course() if over else None,
        }

    def course(self) -> list[list[int]]:
        """Every seat's points after each trick (the score's course, for the result screen)."""
        simple = self.options.simple_scoring
        captured = [0] * self.num_players
        out: list[list[int]] = []
        for _leader, cards, w in self.tricks_log:
            for c in cards:
                captured[w] |= 1 << c
            out.append([rules.score(m, simple) for m in captured])
        return out

    # -- action forms ---------------------------------------------------------------
    def action_text(self, action: Action) -> str:
        """Card text, e.g. ``Q♥`` or ``Jo``."""
        assert isinstance(action, int)
        return rules.text(action)

    def parse_action(self, text: str) -> Action:
        """A card (``QH``, ``q♥``, ``10d``, ``jo``) or the number of a legal choice (1 …)."""
        t = text.strip()
        if not t:
            raise ActionParseError("type a card such as QH or 10♦, Jo for the Joker, "
                                   "or the number of a choice")
        if re.fullmatch(r"\d+", t):
            legal = self.legal_actions()
            i = int(t)
            if not 1 <= i <= len(legal):
                raise ActionParseError(f"choose a number from 1 to {len(legal)}")
            return legal[i - 1]
        try:
            face = FULL_DECK.parse_face(t)
        except CardParseError as exc:
            raise ActionParseError(f"{exc}; or type the number of a choice") from None
        return FULL_DECK.card(face)

    def action_to_json(self, action: Action) -> JSON:
        """The card id (FULL_DECK numbering)."""
        return action

    def action_from_json(self, data: JSON) -> Action:
        """A card id, or a card text."""
        if isinstance(data, bool):
            raise ActionParseError(f"{data!r} is not a card")
        if isinstance(data, int):
            if not 0 <= data <= JOKER:
                raise ActionParseError(f"{data!r} is not a card id (0 … 52)")
            return data
        if isinstance(data, str):
            try:
                return FULL_DECK.card(FULL_DECK.parse_face(data))
            except CardParseError as exc:
                raise ActionParseError(str(exc)) from None
        raise ActionParseError(f"{data!r} is not a card")


def rematch_options(options: Options, finished: GameState) -> Options:
    """Options of the next game at the same table: the deal passes to the left (E-2)."""
    assert isinstance(finished, EfudatoriState)
    return replace(options, dealer=(finished.dealer + 1) % finished.num_players)


def rematch(previous: EfudatoriState, seed: int) -> EfudatoriState:
    """The next game at the same table: same options, the deal passes to the left (E-2)."""
    return EfudatoriState(rematch_options(previous.options, previous), seed)


def obligation_kind(obs: dict[str, Any]) -> str | None:
    """The rule binding the observing seat's next card, or ``None``: ``first`` (the game's
    first lead: no trump or spade), ``first_any`` (the first lead with no ♦, ♥ or Joker:
    any card), ``joker_due`` (the ♠3 is out and the seat holds the Joker),
    ``joker_forces`` (the Joker is out and the seat holds a trump), ``free_any`` or
    ``free_follow`` (the Joker is out, no trump held: any card when the Joker was led,
    else follow suit)."""
    if obs["to_play"] != obs["seat"]:
        return None
    hand = rules.mask_of_list(obs["hand"])
    trick = [c for _, c in obs["trick"]]
    if not trick:
        if obs["trick_number"] != 1:
            return None
        return "first" if hand & rules.FIRST_LEAD_OK else "first_any"
    played = rules.mask_of_list(trick)
    if played & rules.SPADE_THREE_BIT and hand & rules.JOKER_BIT:
        return "joker_due"
    if played & rules.JOKER_BIT:
        if hand & rules.SUIT_MASK[obs["trump"]]:
            return "joker_forces"
        return "free_any" if trick[0] == JOKER else "free_follow"
    return None

