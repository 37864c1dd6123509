"""Helpers to build exact two-hand Pinochle positions for the tests."""

from __future__ import annotations

import re

from cardplaza.core.cards import PINOCHLE
from cardplaza.games.pinochle2.engine import (
    NCARDS,
    RANK_OF,
    SUIT_OF,
    Options,
    Pinochle2State,
    generate_melds,
)


class Alloc:
    """Hands out physical copies: ``K♥`` takes the first free copy, ``K♥#2`` copy 2."""

    def __init__(self) -> None:
        self.taken = 0

    def card(self, text: str) -> int:
        m = re.match(r"^(.*?)(?:#([12]))?$", text.strip())
        assert m
        face = PINOCHLE.parse_face(m.group(1))
        copies = [int(m.group(2)) - 1] if m.group(2) else [0, 1]
        for k in copies:
            c = face + 24 * k
            if not (self.taken >> c) & 1:
                self.taken |= 1 << c
                return c
        raise AssertionError(f"no free copy of {text}")

    def cards(self, text: str) -> list[int]:
        return [self.card(t) for t in text.split()]


def mask(cards: list[int]) -> int:
    return sum(1 << c for c in cards)


def deal(h0: str, h1: str, turn_up: str, draws: str = "",
         options: Options | None = None) -> Pinochle2State:
    """A deal with exact hands (12 cards each), turn-up and the first stock cards.

    ``draws`` lists the stock from the top: the first card is drawn first (by the winner of
    trick 1), the second next, and so on. Remaining stock cards follow in a fixed order.
    """
    opts = options or Options()
    st = Pinochle2State(opts, 0)
    al = Alloc()
    hands = [al.cards(h0), al.cards(h1)]
    assert len(hands[0]) == len(hands[1]) == 12, [len(h) for h in hands]
    up = al.card(turn_up)
    top = al.cards(draws)
    rest = [c for c in range(NCARDS) if not (al.taken >> c) & 1]
    st.hands = [mask(hands[0]), mask(hands[1])]
    st.stock = [up, *rest, *reversed(top)]
    assert len(st.stock) == 24
    st.trump = SUIT_OF[up]
    st.meld_points = [0, 0]
    st.nine_bonus = -1
    if RANK_OF[up] == 0:
        st.nine_bonus = opts.dealer
        st.meld_points[opts.dealer] = 10
    return st


def act(st: Pinochle2State, text: str) -> None:
    """Parse and apply one action."""
    st.apply(st.parse_action(text))


def trick(st: Pinochle2State, lead: str, follow: str) -> int:
    """Play one trick; returns its winner."""
    act(st, lead)
    act(st, follow)
    return st.tricks[-1][3]


def meld_texts(st: Pinochle2State) -> list[str]:
    """Text of every legal meld now (excluding 'no meld')."""
    return [st.action_text(a) for a in st.legal_actions() if isinstance(a, tuple)]


def melds_of(st: Pinochle2State, seat: int) -> list[tuple[int, int]]:
    """Legal melds the seat would have if it won a trick now."""
    o = st.options
    return generate_melds(st.hands[seat], st.melded[seat], st.known[seat], st.used, st.trump,
                          o.double_melds, o.new_card_rule)


def cards_text(cards: int) -> str:
    return PINOCHLE.format_mask(cards)


def decline_if_meld(st: Pinochle2State) -> None:
    """Decline the meld step if there is one."""
    if st.step == 1:
        act(st, "no meld")


def position(trump: int, hand: str, melded: str = "", used: dict[int, str] | None = None,
             options: Options | None = None, turn_up: str | None = None) -> Pinochle2State:
    """An artificial meld-step position for seat 0 (legality tests only).

    ``hand`` are concealed cards, ``melded`` the meld area; ``used`` maps a group index to
    cards (from hand or meld area, by exact ``#copy``) already used in that group.
    """
    st = Pinochle2State(options or Options(), 0)
    al = Alloc()
    conc = mask(al.cards(hand))
    mel = mask(al.cards(melded))
    st.hands = [conc | mel, 0]
    st.melded = [mel, 0]
    st.known = [0, 0]
    st.trump = trump
    st.used = [0] * 6
    for g, text in (used or {}).items():
        for t in text.split():
            m = re.match(r"^(.*?)#([12])$", t)
            assert m, "used cards need an explicit copy"
            st.used[g] |= 1 << (PINOCHLE.parse_face(m.group(1)) + 24 * (int(m.group(2)) - 1))
    if turn_up is not None:
        st.stock = [al.card(turn_up), al.card("J♠"), al.card("J♣")]
    st.step = 1
    st.turn = 0
    st.pending = melds_of(st, 0)
    return st


def legal_meld_texts(st: Pinochle2State) -> list[str]:
    """Texts of the legal melds (position built by :func:`position`)."""
    return [st.action_text(a) for a in st.pending]
