"""The cards of a Pinochle mask (48 cards: ``copy * 24 + suit * 6 + rank``) in display
order, kept per mask: every seat's view at every step asks for the same few hands again."""

from __future__ import annotations

from cardplaza.core.cards import bit_list

DISPLAY: dict[int, tuple[int, ...]] = {}
"""The cards of each mask met lately, in display order (a function of the mask alone)."""
DISPLAY_LIMIT = 1 << 16
"""Masks :data:`DISPLAY` keeps at most (it starts again when full)."""


def _key(c: int) -> tuple[int, int, int]:
    return (c % 24 // 6, -(c % 6), c // 24)


def display_order(mask: int) -> tuple[int, ...]:
    """Cards of a mask by suit (♠♥♦♣), then rank high to low, then copy.

    >>> display_order(1 << 24 | 1 << 5 | 1 << 0 | 1 << 6)
    (5, 0, 24, 6)
    """
    cards = DISPLAY.get(mask)
    if cards is None:
        cards = tuple(sorted(bit_list(mask), key=_key))
        if len(DISPLAY) >= DISPLAY_LIMIT:
            DISPLAY.clear()
        DISPLAY[mask] = cards
    return cards
