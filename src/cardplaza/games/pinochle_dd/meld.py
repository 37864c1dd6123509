"""Meld of a 20-card hand (section 4), unit values, with the cards that make it.

Hands are multiset masks (:mod:`rules`): level ``k`` (bits ``20k … 20k+19``) holds the faces
the hand has more than ``k`` copies of, so "``n`` copies of every face of a meld" is
"the meld's faces are all in level ``n - 1``", and the largest multiple of a meld the hand
holds is the number of levels containing all its faces.

Class A: with trump T, ``r`` runs (the fewest copies of A 10 K Q J of T) score the run table,
every further K-Q pair of T 4, every K-Q pair of another suit 2. Class B: the arounds.
Class C: the pinochle (Q♠ J♦). ``trump = -1`` counts no run and every marriage as plain
(a hand not played for want of a marriage, option ``marriage_required``).

>>> from cardplaza.games.pinochle_dd.rules import DECK, mask_of_faces
>>> hand = mask_of_faces(DECK.parse_cards(
...     "A♥ A♥ 10♥ 10♥ K♥ K♥ K♥ Q♥ Q♥ Q♥ J♥ J♥ A♠ A♦ A♣ Q♠ J♦ K♣ Q♣ J♠"))
>>> meld_total(hand, 1)
170
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardplaza.games.pinochle_dd.rules import (
    ACE,
    COPIES,
    DIAMONDS,
    FACES,
    JACK,
    KING,
    LOW20,
    QUEEN,
    SPADES,
    SUIT_SYMBOLS,
    TEN,
    THERMO,
    count,
    face,
    faces_list,
)

RUN_VALUES = (0, 15, 150, 225, 300)
"""Run value by the number of complete runs (single … quadruple)."""
ROYAL_MARRIAGE = 4
MARRIAGE = 2
AROUND_SINGLE = ((ACE, 10), (KING, 8), (QUEEN, 6), (JACK, 4))
"""Single around value of each around rank."""
AROUND_MULTIPLE = (0, 1, 10, 15, 20)
"""Around value as a multiple of the single value: single, double (×10), triple, quadruple."""
PINOCHLE_VALUES = (0, 4, 30, 60, 90)

_AROUND = tuple((sum(1 << face(s, r) for s in range(4)), r, v) for r, v in AROUND_SINGLE)
_PIN = 1 << face(SPADES, QUEEN) | 1 << face(DIAMONDS, JACK)
_RUN = tuple(sum(1 << face(s, r) for r in range(5)) for s in range(4))
_KQ = tuple(1 << face(s, KING) | 1 << face(s, QUEEN) for s in range(4))


def _levels(hand: int) -> tuple[int, int, int, int]:
    return (hand & LOW20, hand >> 20 & LOW20, hand >> 40 & LOW20, hand >> 60)


def _times(levels: tuple[int, int, int, int], m: int) -> int:
    """How many complete copies of the face set ``m`` the hand holds (0..4)."""
    l0, l1, l2, l3 = levels
    if l0 & m != m:
        return 0
    if l1 & m != m:
        return 1
    if l2 & m != m:
        return 2
    return 3 if l3 & m != m else 4


def _trump_free(levels: tuple[int, int, int, int]) -> int:
    """Classes B and C (they do not depend on trump)."""
    total = 0
    for m, _, v in _AROUND:
        total += v * AROUND_MULTIPLE[_times(levels, m)]
    return total + PINOCHLE_VALUES[_times(levels, _PIN)]


def _class_a(levels: tuple[int, int, int, int], trump: int) -> list[int]:
    """Class A per suit: the marriages of each suit, the trump suit with its runs."""
    out = []
    for s in range(4):
        pairs = _times(levels, _KQ[s])
        if s == trump:
            r = _times(levels, _RUN[s])
            out.append(RUN_VALUES[r] + ROYAL_MARRIAGE * (pairs - r))
        else:
            out.append(MARRIAGE * pairs)
    return out


def _steps(values: tuple[int, ...]) -> tuple[int, int, int, int]:
    """What each further copy of a meld adds, from its values by the number of copies."""
    return (values[1] - values[0], values[2] - values[1], values[3] - values[2],
            values[4] - values[3])


def _total_table(trump: int) -> tuple[tuple[int, tuple[int, int, int, int]], ...]:
    """The face sets of :func:`meld_total` with what each complete copy adds: the arounds,
    the pinochle, the K-Q pair of every suit and the trump run (a run counts its run
    value in place of the royal marriage its K-Q pair already added)."""
    items = [(m, _steps(tuple(v * x for x in AROUND_MULTIPLE))) for m, _, v in _AROUND]
    items.append((_PIN, _steps(PINOCHLE_VALUES)))
    for s in range(4):
        pair = ROYAL_MARRIAGE if s == trump else MARRIAGE
        items.append((_KQ[s], (pair, pair, pair, pair)))
    if trump >= 0:
        run = _steps(RUN_VALUES)
        items.append((_RUN[trump], (run[0] - ROYAL_MARRIAGE, run[1] - ROYAL_MARRIAGE,
                                    run[2] - ROYAL_MARRIAGE, run[3] - ROYAL_MARRIAGE)))
    return tuple(items)


_TOTAL_TABLES = tuple(_total_table(t) for t in (0, 1, 2, 3, -1))
"""Per trump (index 4: no trump) the face sets a hand's meld is counted from."""


def meld_total(hand: int, trump: int) -> int:
    """Meld of ``hand`` with ``trump`` (unit values; ``trump = -1``: no trump).

    The levels of a multiset mask are nested, so a meld held ``t`` times is complete in
    the first ``t`` levels: each complete level adds that copy's value."""
    l0 = hand & LOW20
    l1 = hand >> 20 & LOW20
    total = 0
    for m, adds in _TOTAL_TABLES[trump]:
        if l0 & m == m:
            total += adds[0]
            if l1 & m == m:
                total += adds[1]
                if hand >> 40 & m == m:
                    total += adds[2]
                    if hand >> 60 & m == m:
                        total += adds[3]
    return total


def meld_totals(hand: int) -> tuple[int, int, int, int]:
    """Meld of ``hand`` for each of the four trump suits."""
    levels = _levels(hand)
    common = _trump_free(levels)
    plain = [MARRIAGE * _times(levels, _KQ[s]) for s in range(4)]
    base = common + sum(plain)
    out = []
    for s in range(4):
        r = _times(levels, _RUN[s])
        out.append(base - plain[s] + RUN_VALUES[r] + ROYAL_MARRIAGE * (plain[s] // 2 - r))
    return out[0], out[1], out[2], out[3]


# -- breakdown ----------------------------------------------------------------------------

_MULTIPLE_WORDS = ("", "", "Double ", "Triple ", "Quadruple ")
_MULTIPLE_KEYS = ("", "", "double_", "triple_", "quadruple_")
_AROUND_WORDS = {ACE: "aces", KING: "kings", QUEEN: "queens", JACK: "jacks"}


@dataclass(frozen=True, slots=True)
class Meld:
    """One counted meld: key, class (A, B or C), unit value, the faces it uses (with
    repeats) and its suit for runs and marriages."""

    key: str
    cls: str
    value: int
    cards: tuple[int, ...]
    suit: int | None = None

    @property
    def name(self) -> str:
        """Display name, e.g. ``Double run ♥``, ``Marriage ♣``, ``Triple aces around``."""
        found = _NAMES.get((self.key, self.suit))
        if found is None:
            found = _NAMES[self.key, self.suit] = self._name()
        return found

    def _name(self) -> str:
        key = self.key
        for k, word in zip(_MULTIPLE_KEYS[2:], _MULTIPLE_WORDS[2:], strict=True):
            if key.startswith(k):
                rest = _base_name(key[len(k):])
                base = word + rest[0].lower() + rest[1:]
                break
        else:
            base = _base_name(key)
        return f"{base} {SUIT_SYMBOLS[self.suit]}" if self.suit is not None else base

    def to_json(self, scale: int = 1) -> dict[str, Any]:
        """JSON-ready form, values multiplied by ``scale``."""
        return {"key": self.key, "name": self.name, "class": self.cls,
                "value": self.value * scale, "cards": list(self.cards),
                "suit": self.suit}


_NAMES: dict[tuple[str, int | None], str] = {}
""":attr:`Meld.name` by key and suit (a few dozen: every observation names its melds)."""


def _base_name(key: str) -> str:
    return {"run": "Run", "royal_marriage": "Royal marriage", "marriage": "Marriage",
            "pinochle": "Pinochle"}.get(key) or key.replace("_", " ").capitalize()


@dataclass(frozen=True, slots=True)
class MeldResult:
    """A hand's meld: unit total, the counted melds and the faces shown (each face as many
    times as the class using it most needs)."""

    total: int
    melds: tuple[Meld, ...]
    cards: tuple[int, ...]

    def to_json(self, scale: int = 1) -> dict[str, Any]:
        """JSON-ready form (values × ``scale``)."""
        return {"value": self.total * scale, "cards": list(self.cards),
                "melds": [m.to_json(scale) for m in self.melds]}

    @classmethod
    def from_json(cls, data: dict[str, Any], scale: int = 1) -> MeldResult:
        """Inverse of :meth:`to_json`."""
        melds = tuple(Meld(m["key"], m["class"], m["value"] // scale, tuple(m["cards"]),
                           m["suit"]) for m in data["melds"])
        return cls(data["value"] // scale, melds, tuple(data["cards"]))


def meld_breakdown(hand: int, trump: int) -> MeldResult:
    """Every counted meld of ``hand`` with ``trump`` (``-1``: none) and the faces shown.

    The total always equals :func:`meld_total`.
    """
    levels = _levels(hand)
    melds: list[Meld] = []
    shown = [0] * FACES

    def use(faces: list[int]) -> tuple[int, ...]:
        return tuple(sorted(faces, key=lambda f: (f // 5, -(f % 5))))

    a_used = [0] * FACES
    for s in range(4):
        pairs = _times(levels, _KQ[s])
        fk, fq = face(s, KING), face(s, QUEEN)
        if s == trump:
            r = _times(levels, _RUN[s])
            if r:
                run_faces = [face(s, rk) for rk in (ACE, TEN, KING, QUEEN, JACK)]
                for f in run_faces:
                    a_used[f] += r
                melds.append(Meld(f"{_MULTIPLE_KEYS[r]}run", "A", RUN_VALUES[r],
                                  use(run_faces * r), s))
            for _ in range(pairs - r):
                a_used[fk] += 1
                a_used[fq] += 1
                melds.append(Meld("royal_marriage", "A", ROYAL_MARRIAGE, (fk, fq), s))
        else:
            for _ in range(pairs):
                a_used[fk] += 1
                a_used[fq] += 1
                melds.append(Meld("marriage", "A", MARRIAGE, (fk, fq), s))
    b_used = [0] * FACES
    for m, rank, v in _AROUND:
        t = _times(levels, m)
        if t:
            fs = [face(s, rank) for s in range(4)]
            for f in fs:
                b_used[f] += t
            key = f"{_MULTIPLE_KEYS[t]}{_AROUND_WORDS[rank]}_around"
            melds.append(Meld(key, "B", v * AROUND_MULTIPLE[t], use(fs * t)))
    c_used = [0] * FACES
    p = _times(levels, _PIN)
    if p:
        fs = [face(SPADES, QUEEN), face(DIAMONDS, JACK)]
        for f in fs:
            c_used[f] += p
        melds.append(Meld(f"{_MULTIPLE_KEYS[p]}pinochle", "C", PINOCHLE_VALUES[p],
                          use(fs * p)))
    for f in range(FACES):
        shown[f] = max(a_used[f], b_used[f], c_used[f])
        assert shown[f] <= count(hand, f) <= COPIES
    total = sum(m.value for m in melds)
    shown_mask = 0
    for f, n in enumerate(shown):
        shown_mask |= THERMO[f][n]
    return MeldResult(total, tuple(melds), tuple(faces_list(shown_mask)))
