"""Shared helpers for the double-deck Pinochle tests."""

from __future__ import annotations

import random

from cardplaza.games.pinochle_dd.engine import PASS, DoubleDeckState, Options
from cardplaza.games.pinochle_dd.rules import DECK, FACES, from_counts, mask_of_faces


def hand(text: str) -> int:
    """Multiset mask of a hand text (repeated faces take successive copies)."""
    return mask_of_faces(DECK.parse_cards(text))


def faces(text: str) -> list[int]:
    """Faces of a card text, in the order written."""
    return [c % FACES for c in DECK.parse_cards(text)]


def new_dd(options: Options | None = None, seed: int = 1, dealer: int = 3) -> DoubleDeckState:
    """A fresh game whose current hand is dealt by ``dealer``."""
    st = DoubleDeckState(options or Options(), seed)
    st.dealer = dealer
    st.turn = (dealer + 1) % 4
    return st


def set_hands(st: DoubleDeckState, texts: dict[int, str]) -> None:
    """Give the seats of ``texts`` those cards and share the rest of the pack among the
    other seats (20 each, in face order)."""
    left = [4] * FACES
    for seat, text in texts.items():
        fs = faces(text)
        assert len(fs) == 20, f"seat {seat} needs 20 cards, has {len(fs)}"
        for f in fs:
            left[f] -= 1
        assert min(left) >= 0, "a face used more than four times"
        st.hands[seat] = hand(text)
    pool = [f for f in range(FACES) for _ in range(left[f])]
    others = [s for s in range(4) if s not in texts]
    for i, seat in enumerate(others):
        cnt = [0] * FACES
        for f in pool[20 * i:20 * i + 20]:
            cnt[f] += 1
        st.hands[seat] = from_counts(cnt)
    st._legal = None


def win_auction(st: DoubleDeckState, seat: int, amount: int = 50) -> None:
    """Everybody passes except ``seat``, which bids ``amount`` (shown scale) first."""
    while st.phase == 0:
        if st.turn == seat and st.high_bid == 0:
            st.apply(st.parse_action(f"bid {amount}"))
        else:
            st.apply(PASS)


def random_hand_play(st: DoubleDeckState, rng: random.Random) -> None:
    """Random legal actions until the current hand is over (never a throw-in)."""
    before = st.hand_no
    while st.hand_no == before and not st.is_terminal:
        legal = [a for a in st.legal_actions() if a != (5, 0)]
        st.apply(legal[rng.randrange(len(legal))])
