"""Shared helpers for the Pinochle tests."""

from __future__ import annotations

from cardplaza.core.cards import PINOCHLE
from cardplaza.games.pinochle4.engine import CutthroatState, Options, PinochleState


def cards(*texts: str) -> list[list[int]]:
    """Parse several card lists, giving repeated faces successive copies across all lists."""
    used: dict[int, int] = {}
    out = []
    for text in texts:
        group = []
        for token in text.split():
            f = PINOCHLE.parse_face(token)
            k = used.get(f, 0)
            assert k < 2, f"{token} used three times"
            used[f] = k + 1
            group.append(f + 24 * k)
        out.append(group)
    return out


def mask(text: str) -> int:
    """Mask of a hand text (repeated faces take both copies)."""
    return PINOCHLE.parse_mask(text)


def faces(mask_or_cards: int | list[int]) -> list[str]:
    """Sorted card texts of a mask or a list (copies are indistinguishable)."""
    if isinstance(mask_or_cards, int):
        items = [c for c in range(48) if mask_or_cards >> c & 1]
    else:
        items = list(mask_or_cards)
    return sorted(PINOCHLE.text(c) for c in items)


def new4(options: Options | None = None, seed: int = 1, dealer: int = 3) -> PinochleState:
    """A fresh four-hand game whose current hand is dealt by ``dealer``."""
    st = PinochleState(options or Options(), seed)
    st.dealer = dealer
    st.turn = (dealer + 1) % 4
    return st


def new3(options: object | None = None, seed: int = 1, dealer: int = 2) -> CutthroatState:
    """A fresh cut-throat game whose current hand is dealt by ``dealer``."""
    st = CutthroatState(options, seed)
    st.dealer = dealer
    st.turn = (dealer + 1) % 3
    return st
