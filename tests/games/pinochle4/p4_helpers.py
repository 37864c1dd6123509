"""Shared helpers for the Pinochle tests."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

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


def python_card_search(view: Any, dealer: Any, cards: list[int], worlds: int,
                       rng: random.Random) -> tuple[list[float], list[int]]:
    """The card search in plain Python: per card the summed view values and the worlds in
    which the contract was made, over ``worlds`` worlds of ``dealer``."""
    totals = [0.0] * len(cards)
    made = [0] * len(cards)
    for _ in range(worlds):
        hands, disc = dealer.deal(rng)
        for i, c in enumerate(cards):
            hs = hands[:]
            hs[view.me] ^= 1 << c
            view.trick.append(c)
            totals[i] += view.value(hs, disc)
            made[i] += view.made
            view.trick.pop()
    return totals, made


def search_cards_both_forms(view: Any, dealer: Any, cards: list[int], worlds: int,
                            infer: bool, exact: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """``kernels.search_cards`` compiled and as Python on the same arguments (``exact``:
    its last three, the flag and the solver's buffers): per form the worlds dealt, the
    sums and the generator's state afterwards."""
    from cardplaza.ai.compiled import mt_state
    from cardplaza.games.pinochle4.kernels import KERNELS, WORK_ROWS

    setup = dealer.kernel_args()
    assert setup is not None
    outs = []
    for fn in (KERNELS.search_cards, KERNELS.reference("search_cards")):
        state = mt_state(random.Random(9))
        t = np.zeros(len(cards), np.float64)
        m = np.zeros(len(cards), np.int64)
        got = fn(worlds, dealer.tries, int(infer), np.array(cards, np.int64), len(cards),
                 *view.kernel_args(), *setup, state, np.zeros((WORK_ROWS, 48), np.int64),
                 t, m, *exact)
        outs.append((got, t.tolist(), m.tolist(), state.tolist()))
    return outs
