"""Helpers for the Piquet tests: set up a deal from the hands after the exchange."""

from __future__ import annotations

from cardplaza.core.cards import PIQUET
from cardplaza.games.piquet.combos import COURT_MASK
from cardplaza.games.piquet.options import Options
from cardplaza.games.piquet.state import DECL, EXCH, PLAY, PiquetState


def m(text: str) -> int:
    """Mask of a hand text."""
    return PIQUET.parse_mask(text)


def c(text: str) -> int:
    """One card."""
    return PIQUET.parse_cards(text)[0]


def layout_state(opts: Options, de: int, dy: int, talon: list[int], seed: int = 0,
                 totals: tuple[int, int] | None = None) -> PiquetState:
    """A state whose current deal is dealt exactly as given (dealt Elder, Younger, talon)."""
    st = PiquetState(opts, seed)
    if totals is not None:
        st.totals = list(totals)
    st._start_deal((de, dy, talon))
    return st


def deal(e_hand: str, y_hand: str, opts: Options | None = None, seed: int = 0,
         totals: tuple[int, int] | None = None) -> PiquetState:
    """A deal in the declaration phase where Elder and Younger hold these hands.

    Each player exchanges one card: Elder draws T1 (a card of ``e_hand``), Younger draws
    T2 (a card of ``y_hand``); the cards they discard come from the rest of the deck.
    ``totals`` are the partie totals (by elder, younger) before the deal.
    """
    opts = opts or Options()
    eh, yh = m(e_hand), m(y_hand)
    assert eh.bit_count() == 12 and yh.bit_count() == 12 and eh & yh == 0
    rest = [x for x in range(32) if not (eh | yh) >> x & 1]

    def swap(hand: int) -> tuple[int, int]:
        cards = [x for x in range(32) if hand >> x & 1]
        for a in cards:
            for r in rest:
                if (COURT_MASK >> a & 1) == (COURT_MASK >> r & 1):
                    return a, r
        return cards[0], rest[0]

    a, r1 = swap(eh)
    rest.remove(r1)
    b, r2 = swap(yh)
    rest.remove(r2)
    talon = [a, b, *rest]
    st = PiquetState(opts, seed)
    elder = st.elder
    if totals is not None:
        st.totals[elder], st.totals[1 - elder] = totals
    st._start_deal((eh & ~(1 << a) | 1 << r1, yh & ~(1 << b) | 1 << r2, talon))
    st.apply((EXCH, 1 << r1))
    st.apply((EXCH, 1 << r2))
    assert st.phase == DECL
    assert st.hands[st.elder] == eh and st.hands[st.dealer] == yh
    return st


def declare(st: PiquetState) -> list[str]:
    """Apply the (forced) declarations; return the dialogue texts."""
    while st.phase == DECL:
        legal = st.legal_actions()
        assert len(legal) == 1, [st.action_text(x) for x in legal]
        st.apply(legal[0])
    return [d[4] for d in st.dialogue]


def say(st: PiquetState, text: str) -> None:
    """Apply the declaration typed as ``text``."""
    st.apply(st.parse_action(text))


def play(st: PiquetState, cards: str) -> None:
    """Play cards in order (each by whoever is to act)."""
    for t in cards.split():
        assert st.phase == PLAY
        st.apply(c(t))


def score_of(st: PiquetState, seat: int, label: str) -> int:
    """Credited points of a seat with a label in the current deal."""
    return sum(p for s, p, lab in st.events if s == seat and lab == label)


def pending_of(st: PiquetState, seat: int, label: str) -> int:
    """Younger's not-yet-credited points with a label."""
    return sum(p for s, p, lab in st.pending if s == seat and lab == label)
