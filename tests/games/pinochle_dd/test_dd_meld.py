"""The meld calculator against a plain count of the meld table (section 4.2, 4.3), written
here independently: counts per card, the table's values looked up, nothing shared."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from dd_helpers import hand

from cardplaza.games.pinochle_dd.engine import MAX_SIDE_MELD
from cardplaza.games.pinochle_dd.meld import meld_breakdown, meld_total, meld_totals
from cardplaza.games.pinochle_dd.rules import DECK, FACES, from_counts

SUITS = "♠♥♦♣"
RANKS = ("J", "Q", "K", "10", "A")

# The table of section 4.2: value by multiple (single, double, triple, quadruple).
RUN = {1: 15, 2: 150, 3: 225, 4: 300}
AROUND = {"A": {1: 10, 2: 100, 3: 150, 4: 200}, "K": {1: 8, 2: 80, 3: 120, 4: 160},
          "Q": {1: 6, 2: 60, 3: 90, 4: 120}, "J": {1: 4, 2: 40, 3: 60, 4: 80}}
PINOCHLE = {1: 4, 2: 30, 3: 60, 4: 90}


def plain_meld(cards: list[str], trump: str | None) -> int:
    """Meld of a hand given as card texts like ``10♥``, by the rules' words."""
    n = Counter(cards)
    total = 0
    for suit in SUITS:
        pairs = min(n["K" + suit], n["Q" + suit])
        if suit == trump:
            runs = min(n[r + suit] for r in RANKS)
            total += RUN.get(runs, 0) + 4 * (pairs - runs)
        else:
            total += 2 * pairs
    for rank, values in AROUND.items():
        total += values.get(min(n[rank + s] for s in SUITS), 0)
    total += PINOCHLE.get(min(n["Q♠"], n["J♦"]), 0)
    return total


def random_hand(rng: random.Random) -> list[str]:
    pack = [r + s for s in SUITS for r in RANKS for _ in range(4)]
    return rng.sample(pack, 20)


def test_ten_thousand_random_hands_agree_with_the_plain_count() -> None:
    rng = random.Random(2024)
    for _ in range(10_000):
        cards = random_hand(rng)
        mask = hand(" ".join(cards))
        per_suit = meld_totals(mask)
        for t in range(4):
            want = plain_meld(cards, SUITS[t])
            assert meld_total(mask, t) == want, (cards, t)
            assert per_suit[t] == want, (cards, t)
        t = rng.randrange(4)
        result = meld_breakdown(mask, t)
        assert result.total == plain_meld(cards, SUITS[t])
        shown = Counter(result.cards)
        held = Counter(c % FACES for c in DECK.parse_cards(" ".join(cards)))
        assert all(shown[f] <= held[f] for f in shown), "meld shows a card the hand lacks"
        assert meld_total(mask, -1) == plain_meld(cards, None)


def test_hands_rich_in_meld_agree_too() -> None:
    """Random hands drawn from few faces, so multiple runs, arounds and pinochles occur."""
    rng = random.Random(7)
    seen_multiples: Counter[str] = Counter()
    for _ in range(3000):
        pool = rng.sample(range(FACES), rng.randrange(5, 9))
        counts = [0] * FACES
        for f in pool:
            counts[f] = 4
        chosen = rng.sample([f for f in range(FACES) for _ in range(counts[f])],
                            min(20, sum(counts)))
        cards = [DECK.text(f) for f in chosen]
        mask = from_counts([chosen.count(f) for f in range(FACES)])
        for t in range(4):
            assert meld_total(mask, t) == plain_meld(cards, SUITS[t]), (cards, t)
            for m in meld_breakdown(mask, t).melds:
                seen_multiples[m.key.split("_")[0]] += 1
    assert {"double", "triple", "quadruple"} <= set(seen_multiples)


@pytest.mark.parametrize(("text", "trump", "value"), [
    ("A♦ A♦ 10♦ 10♦ K♦ K♦ Q♦ Q♦ J♦ J♦ A♠ A♠ A♥ A♥ A♣ A♣ Q♠ Q♠ Q♥ Q♣", 2, 286),
    ("A♠ A♠ A♠ 10♠ 10♠ 10♠ K♠ K♠ K♠ Q♠ Q♠ Q♠ Q♠ J♠ J♠ J♠ J♦ J♦ J♦ J♦", 0, 315),
])
def test_the_largest_melds(text: str, trump: int, value: int) -> None:
    """The side maximum (two of the first hand: 572) and the best single hand (315)."""
    assert meld_total(hand(text), trump) == value == plain_meld(text.split(), SUITS[trump])
    if value == 286:
        assert 2 * value == MAX_SIDE_MELD
