"""Text and JSON forms of Pinochle actions, shared by the single-deck and double-deck games.

Every Pinochle game codes an action as ``(kind, value)`` with kind 0 a bid (value 0 a pass),
kind 1 naming trump (value the suit 0..3) and kind 2 giving a card to partner; the other
kinds (discard, play, jump bid, throw-in …) differ between the games and are described by
an :class:`ActionForms` table. A state class mixes in :class:`PinochleActionText` (before
``GameState``) and supplies the few hooks it names.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from cardplaza.core.protocol import JSON, Action, ActionParseError, safe_repr

K_BID, K_TRUMP, K_GIVE = 0, 1, 2
PASS: tuple[int, int] = (K_BID, 0)
BIDDING, TRUMP = 0, 1
"""The two phase numbers every Pinochle engine shares (auction, naming trump)."""
MAX_DIGITS = 9
"""Longest amount (in digits) read as a bid or menu number."""

SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_WORDS = {
    "♠": 0, "S": 0, "SPADE": 0, "SPADES": 0, "♤": 0,
    "♥": 1, "H": 1, "HEART": 1, "HEARTS": 1, "♡": 1,
    "♦": 2, "D": 2, "DIAMOND": 2, "DIAMONDS": 2, "♢": 2,
    "♣": 3, "C": 3, "CLUB": 3, "CLUBS": 3, "♧": 3,
}
"""Words and symbols a player may type for a suit (upper case)."""
CARD_RE = re.compile(r"(10|[2-9TJQKA])[SHDC♠♥♦♣♤♡♢♧]")
"""A card as typed (upper case): rank then suit letter or symbol."""


@dataclass(frozen=True)
class ActionForms:
    """How one Pinochle game names its action kinds."""

    kind_names: tuple[str, ...]
    """JSON name of each kind (bid kinds all ``"bid"``)."""
    bid_kinds: frozenset[int]
    """Kinds that are a bid or a pass."""
    card_verbs: Mapping[str, int]
    """Typed verbs before a card (``give A♠``) and the kind each makes."""
    bid_example: str
    """Amount quoted in the help line (``bid 260``)."""
    words: Mapping[str, Action] = field(default_factory=dict)
    """Extra typed words (lower case) that are an action by themselves (``throw in``)."""
    json_words: Mapping[str, Action] = field(default_factory=dict)
    """JSON kinds without a value (besides ``pass``), e.g. ``{"kind": "throw-in"}``."""
    word_help: str = ""
    """Extra words quoted in the help line (``'throw in'``)."""
    over_phase: int = -1
    """The phase number of a finished game (no menu)."""
    play_kind: int = -1
    """The kind of a card played to a trick."""
    card_kind_by_phase: Mapping[int, int] = field(default_factory=dict)
    """The kind of a bare card typed in a phase other than play (give, discard)."""
    card_verb_texts: Mapping[int, str] = field(default_factory=dict)
    """The verb written before a card of a kind other than play (``give``)."""
    word_texts: Mapping[Action, tuple[str, str]] = field(default_factory=dict)
    """Actions without a card or amount: their text form and their description."""


class PinochleActionText:
    """``parse_action``, ``action_to_json`` and ``action_from_json`` for a Pinochle state.

    The state provides :attr:`FORMS`, :attr:`phase`, :meth:`choices`,
    :meth:`bid_limit_reason`, :meth:`_bid_action` and :meth:`_card_action`;
    :meth:`_number_is_menu` decides whether a bare number typed
    during the auction picks a menu item or bids that amount.
    """

    FORMS: ClassVar[ActionForms]
    phase: int

    # -- hooks ----------------------------------------------------------------------------
    def choices(self) -> list[Action]:
        raise NotImplementedError

    def bid_limit_reason(self) -> str:
        raise NotImplementedError

    def _bid_action(self, amount: int) -> Action:
        raise NotImplementedError

    def _card_action(self, kind: int, text: str) -> Action:
        raise NotImplementedError

    def _card_text(self, card: int) -> str:
        """A card of this game as text (``A♠``)."""
        raise NotImplementedError

    def _number_is_menu(self, typed: str, num: int, menu: list[Action]) -> bool:
        """During the auction: does the bare number ``num`` pick a menu item?"""
        return False

    # -- the forms ------------------------------------------------------------------------
    def action_text(self, action: Action) -> str:
        """Text form: ``pass``, ``bid 260``, ``trump ♠``, ``give A♠``, ``A♠`` …"""
        forms = self.FORMS
        assert isinstance(action, tuple)
        kind, value = action
        if kind in forms.bid_kinds:
            return "pass" if value == 0 else f"bid {value}"
        if kind == K_TRUMP:
            return f"trump {SUIT_SYMBOLS[value]}"
        if action in forms.word_texts:
            return forms.word_texts[action][0]
        if kind in forms.card_verb_texts:
            return f"{forms.card_verb_texts[kind]} {self._card_text(value)}"
        return self._card_text(value)

    def describe(self, action: Action) -> str:
        """Readable description."""
        forms = self.FORMS
        try:
            assert isinstance(action, tuple)
            kind, value = action
            if kind == K_TRUMP:
                return f"trump {SUIT_SYMBOLS[value]} ({SUIT_NAMES[value]})"
            if kind == forms.play_kind:
                return f"play {self._card_text(value)}"
            if action in forms.word_texts:
                return forms.word_texts[action][1]
            return self.action_text(action)
        except Exception:
            return safe_repr(action)

    def parse_action(self, text: str) -> Action:
        """Parse ``pass``, ``bid N``/``N``, ``trump ♠``/``♠``, a card (with or without a
        verb), the game's extra words, or a menu number (``#3``)."""
        forms = self.FORMS
        t = text.strip()
        low = t.lower()
        if not t:
            raise ActionParseError("Type an action, a menu number, or 'help'")
        ph = self.phase
        m = re.fullmatch(r"#?\s*(\d+)", t)
        if m:
            if len(m.group(1).lstrip("0")) > MAX_DIGITS:
                if ph == BIDDING and not t.startswith("#"):
                    raise ActionParseError(self.bid_limit_reason())
                raise ActionParseError("That number is not on the menu")
            num = int(m.group(1))
            menu = self.choices() if ph != forms.over_phase else []
            if ph == BIDDING and not t.startswith("#") \
                    and not self._number_is_menu(t, num, menu):
                return self._bid_action(num)
            if 1 <= num <= len(menu):
                return menu[num - 1]
            raise ActionParseError(f"{num} is not a menu number (1–{len(menu)})")
        if low in ("pass", "p"):
            return PASS
        if low in forms.words:
            return forms.words[low]
        m = re.fullmatch(r"(?:bid|b)\s+(-?\d+)", low)
        if m:
            if len(m.group(1).lstrip("-0")) > MAX_DIGITS:
                raise ActionParseError(self.bid_limit_reason())
            amount = int(m.group(1))
            if amount <= 0:
                raise ActionParseError(f"{amount} is not a bid: bids are positive amounts")
            return self._bid_action(amount)
        m = re.fullmatch(r"(?:trump|t)\s+(\S+)", t, flags=re.IGNORECASE)
        word = m.group(1) if m else t
        if word.upper() in SUIT_WORDS and (m or ph == TRUMP):
            return (K_TRUMP, SUIT_WORDS[word.upper()])
        verbs = "|".join(forms.card_verbs)
        m = re.fullmatch(rf"({verbs})\s+(\S+)", t, flags=re.IGNORECASE)
        if m:
            return self._card_action(forms.card_verbs[m.group(1).lower()], m.group(2))
        if CARD_RE.fullmatch(t.upper()):
            return self._card_action(forms.card_kind_by_phase.get(ph, forms.play_kind), t)
        raise ActionParseError(
            f"Cannot read {text!r}: type a menu number, 'pass', 'bid {forms.bid_example}', "
            f"'trump ♠'{forms.word_help} or a card such as A♠ / 10h")

    def action_to_json(self, action: Action) -> JSON:
        """JSON form, e.g. ``{"kind": "bid", "amount": 52}`` or ``{"kind": "play",
        "card": 4}``."""
        forms = self.FORMS
        assert isinstance(action, tuple)
        kind, value = action
        if kind in forms.bid_kinds:
            return {"kind": "pass"} if value == 0 else {"kind": "bid", "amount": value}
        if kind == K_TRUMP:
            return {"kind": "trump", "suit": value}
        for name, word in forms.json_words.items():
            if word == action:
                return {"kind": name}
        return {"kind": forms.kind_names[kind], "card": value}

    def action_from_json(self, data: JSON) -> Action:
        """Inverse of :meth:`action_to_json`."""
        forms = self.FORMS
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
            raise ActionParseError(f"{safe_repr(data)} is not a Pinochle action")
        kind = data["kind"]
        if kind == "pass":
            return PASS
        if kind in forms.json_words:
            return forms.json_words[kind]
        if kind not in forms.kind_names:
            raise ActionParseError(f"unknown action kind {safe_repr(kind)}")
        key = {"bid": "amount", "trump": "suit"}.get(kind, "card")
        value = data.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise ActionParseError(f"{kind} needs an integer {key!r}")
        if kind == "bid":
            if value <= 0:
                raise ActionParseError("a bid must be positive")
            return self._bid_action(value)
        return (forms.kind_names.index(kind), value)
