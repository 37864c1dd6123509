"""Meld calculator (section 9.4): maximum meld of a hand for a trump suit, with breakdown.

A hand is a 48-bit mask of physical cards. Internally the two copies are split into two
24-bit face masks ``lo`` (copy 0) and ``hi`` (copy 1); ``any = lo | hi`` and
``both = lo & hi`` give, for a set of faces F, ``min n(f)`` over F as 2 if ``both ⊇ F``,
1 if ``any ⊇ F`` and 0 otherwise. The sequence class of each suit is a precomputed table
indexed by that suit's 6-bit ``any`` and ``both`` masks, so :func:`meld_total` is a handful
of integer operations. Values are in 10-point units unless ``one_point`` is asked for.

>>> from cardplaza.core.cards import PINOCHLE
>>> meld_total(PINOCHLE.parse_mask("A♠ 10♠ K♠ Q♠ J♠ J♦ A♥ 10♥ 10♣ J♣ 9♦ 9♥"), 0)
190
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardplaza.core.cards import bit_list
from cardplaza.games.pinochle4.rules import (
    ACE,
    DIAMONDS,
    JACK,
    KING,
    NINE,
    QUEEN,
    SPADES,
    SUIT_SYMBOLS,
    TEN,
    face,
)

_M24 = (1 << 24) - 1
_RUN = 0b111110  # J, Q, K, 10, A within a suit's 6 bits
_KQ = (1 << KING) | (1 << QUEEN)


def _trump_seq(a: int, b: int, extra_kq: bool) -> int:
    """Sequence-class value of one suit (6-bit any/both masks) when it is trump."""
    nine = ((a >> NINE) & 1) + ((b >> NINE) & 1)
    if b & _RUN == _RUN:
        seq = 1500
    elif a & _RUN == _RUN:
        ek, eq = (b >> KING) & 1, (b >> QUEEN) & 1
        seq = 150 + (40 * (ek + eq) if extra_kq else 40 * (ek & eq))
    else:
        seq = 40 * (2 if b & _KQ == _KQ else 1 if a & _KQ == _KQ else 0)
    return seq + 10 * nine


def _plain_seq(a: int, b: int) -> int:
    """Marriage value of one non-trump suit."""
    return 20 * (2 if b & _KQ == _KQ else 1 if a & _KQ == _KQ else 0)


def _build() -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    on, off, plain = [0] * 4096, [0] * 4096, [0] * 4096
    for a in range(64):
        b = a
        while True:  # every subset b of a
            i = a << 6 | b
            on[i] = _trump_seq(a, b, True)
            off[i] = _trump_seq(a, b, False)
            plain[i] = _plain_seq(a, b)
            if b == 0:
                break
            b = (b - 1) & a
    return tuple(on), tuple(off), tuple(plain)


TRUMP_SEQ_ON, TRUMP_SEQ_OFF, PLAIN_SEQ = _build()
"""Sequence-class tables indexed by ``any6 << 6 | both6`` of one suit."""

AROUND_VALUES = ((ACE, 100), (KING, 80), (QUEEN, 60), (JACK, 40))
"""Single around value of each around rank (doubles are ten times)."""
_AROUND_MASKS = tuple((sum(1 << face(s, r) for s in range(4)), v) for r, v in AROUND_VALUES)
_PIN = (1 << face(SPADES, QUEEN)) | (1 << face(DIAMONDS, JACK))
(_AA, _), (_KK, _), (_QQ, _), (_JJ, _) = _AROUND_MASKS
assert [v for _, v in _AROUND_MASKS] == [100, 80, 60, 40]


def _idx(a: int, b: int, suit: int) -> int:
    sh = 6 * suit
    return ((a >> sh) & 63) << 6 | ((b >> sh) & 63)


def meld_total(hand: int, trump: int, extra_kq: bool = True) -> int:
    """Maximum meld (10-point units) of ``hand`` with ``trump`` (section 9.4)."""
    lo = hand & _M24
    hi = hand >> 24
    a = lo | hi
    b = lo & hi
    plain = PLAIN_SEQ
    i0 = (a & 63) << 6 | (b & 63)
    i1 = (a >> 6 & 63) << 6 | (b >> 6 & 63)
    i2 = (a >> 12 & 63) << 6 | (b >> 12 & 63)
    i3 = (a >> 18 & 63) << 6 | (b >> 18 & 63)
    t = (i0, i1, i2, i3)[trump]
    total = plain[i0] + plain[i1] + plain[i2] + plain[i3] - plain[t]
    total += (TRUMP_SEQ_ON if extra_kq else TRUMP_SEQ_OFF)[t]
    # _trump_free_meld, inline: arounds (a face of each suit) and pinochles
    if a & _AA == _AA:
        total += 1000 if b & _AA == _AA else 100
    if a & _KK == _KK:
        total += 800 if b & _KK == _KK else 80
    if a & _QQ == _QQ:
        total += 600 if b & _QQ == _QQ else 60
    if a & _JJ == _JJ:
        total += 400 if b & _JJ == _JJ else 40
    if b & _PIN == _PIN:
        return total + 300
    if a & _PIN == _PIN:
        return total + 40
    return total


def _trump_free_meld(a: int, b: int) -> int:
    """Arounds and pinochles (they do not depend on trump) from the face masks held once
    (``a``) and twice (``b``)."""
    total = 0
    for m, v in _AROUND_MASKS:
        if b & m == m:
            total += 10 * v
        elif a & m == m:
            total += v
    if b & _PIN == _PIN:
        total += 300
    elif a & _PIN == _PIN:
        total += 40
    return total


def meld_totals(hand: int, extra_kq: bool = True) -> tuple[int, int, int, int]:
    """Meld (10-point units) of ``hand`` for each of the four possible trump suits."""
    lo = hand & _M24
    hi = hand >> 24
    a = lo | hi
    b = lo & hi
    seq = TRUMP_SEQ_ON if extra_kq else TRUMP_SEQ_OFF
    common = _trump_free_meld(a, b)
    i0, i1, i2, i3 = _idx(a, b, 0), _idx(a, b, 1), _idx(a, b, 2), _idx(a, b, 3)
    p0, p1, p2, p3 = PLAIN_SEQ[i0], PLAIN_SEQ[i1], PLAIN_SEQ[i2], PLAIN_SEQ[i3]
    plain = common + p0 + p1 + p2 + p3
    return (plain - p0 + seq[i0], plain - p1 + seq[i1], plain - p2 + seq[i2],
            plain - p3 + seq[i3])


# -- breakdown ----------------------------------------------------------------------------

MELD_NAMES: dict[str, str] = {
    "run": "Run",
    "run_extra_k": "Run with an extra trump K",
    "run_extra_q": "Run with an extra trump Q",
    "run_extra_kq": "Run with an extra trump K and Q",
    "double_run": "Double run",
    "royal_marriage": "Royal marriage",
    "marriage": "Marriage",
    "dix": "Dix",
    "aces_around": "Aces around",
    "kings_around": "Kings around",
    "queens_around": "Queens around",
    "jacks_around": "Jacks around",
    "double_aces": "Double aces",
    "double_kings": "Double kings",
    "double_queens": "Double queens",
    "double_jacks": "Double jacks",
    "pinochle": "Pinochle",
    "double_pinochle": "Double pinochle",
}
"""Display name (section 9.1) of each meld key."""

_AROUND_KEYS = {ACE: "aces", KING: "kings", QUEEN: "queens", JACK: "jacks"}


@dataclass(frozen=True, slots=True)
class Meld:
    """One counted meld: key, class (sequence/around/pinochle), value and the cards used."""

    key: str
    cls: str
    value: int
    cards: tuple[int, ...]
    suit: int | None = None

    @property
    def name(self) -> str:
        """Display name, with the suit of a marriage (e.g. ``Marriage ♥``)."""
        base = MELD_NAMES[self.key]
        if self.key == "marriage" and self.suit is not None:
            return f"{base} {SUIT_SYMBOLS[self.suit]}"
        return base

    def to_json(self) -> dict[str, object]:
        """JSON-ready form."""
        return {"key": self.key, "name": self.name, "class": self.cls, "value": self.value,
                "cards": list(self.cards),
                "suit": None if self.suit is None else SUIT_SYMBOLS[self.suit]}


@dataclass(frozen=True, slots=True)
class MeldResult:
    """A hand's meld: total, the counted melds and the union of the cards shown."""

    total: int
    melds: tuple[Meld, ...]
    cards: int

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MeldResult:
        """Inverse of :meth:`to_json`."""
        melds = tuple(
            Meld(m["key"], m["class"], m["value"], tuple(m["cards"]),
                 None if m["suit"] is None else SUIT_SYMBOLS.index(m["suit"]))
            for m in data["melds"])
        cards = 0
        for c in data["cards"]:
            cards |= 1 << c
        return cls(data["value"], melds, cards)

    def to_json(self) -> dict[str, object]:
        """JSON-ready form."""
        return {"value": self.total, "cards": bit_list(self.cards),
                "melds": [m.to_json() for m in self.melds]}



class _Picker:
    """Takes physical copies of faces for one meld class without re-use."""

    def __init__(self, hand: int) -> None:
        self.hand = hand
        self.used = 0

    def take(self, f: int) -> int:
        for c in (f, f + 24):
            bit = 1 << c
            if self.hand & bit and not self.used & bit:
                self.used |= bit
                return c
        raise AssertionError("meld uses a card the hand lacks")


def meld_breakdown(hand: int, trump: int, extra_kq: bool = True,
                   one_point: bool = False) -> MeldResult:
    """Maximum meld with every counted meld and the exact cards it uses (section 9.4.1).

    The total always equals :func:`meld_total` (divided by 10 with ``one_point``).
    """
    div = 10 if one_point else 1
    lo = hand & _M24
    hi = hand >> 24

    def n(f: int) -> int:
        return ((lo >> f) & 1) + ((hi >> f) & 1)

    melds: list[Meld] = []
    # Sequence class.
    seq = _Picker(hand)
    t = trump
    run_faces = [face(t, r) for r in (ACE, TEN, KING, QUEEN, JACK)]
    r_min = min(n(f) for f in run_faces)
    fk, fq = face(t, KING), face(t, QUEEN)
    if r_min == 2:
        cards = [seq.take(f) for f in run_faces for _ in range(2)]
        melds.append(Meld("double_run", "sequence", 1500, tuple(sorted(cards)), t))
    elif r_min == 1:
        cards = [seq.take(f) for f in run_faces]
        ek, eq = n(fk) - 1, n(fq) - 1
        if extra_kq and (ek or eq):
            if ek:
                cards.append(seq.take(fk))
            if eq:
                cards.append(seq.take(fq))
            key = "run_extra_kq" if ek and eq else "run_extra_k" if ek else "run_extra_q"
            melds.append(Meld(key, "sequence", 150 + 40 * (ek + eq), tuple(sorted(cards)), t))
        else:
            melds.append(Meld("run", "sequence", 150, tuple(sorted(cards)), t))
            if not extra_kq and ek and eq:
                pair = (seq.take(fk), seq.take(fq))
                melds.append(Meld("royal_marriage", "sequence", 40, tuple(sorted(pair)), t))
    else:
        for _ in range(min(n(fk), n(fq))):
            pair = (seq.take(fk), seq.take(fq))
            melds.append(Meld("royal_marriage", "sequence", 40, tuple(sorted(pair)), t))
    for s in range(4):
        if s == t:
            continue
        for _ in range(min(n(face(s, KING)), n(face(s, QUEEN)))):
            pair = (seq.take(face(s, KING)), seq.take(face(s, QUEEN)))
            melds.append(Meld("marriage", "sequence", 20, tuple(sorted(pair)), s))
    for _ in range(n(face(t, NINE))):
        melds.append(Meld("dix", "sequence", 10, (seq.take(face(t, NINE)),), t))
    # Around class.
    around = _Picker(hand)
    for r, v in AROUND_VALUES:
        m = min(n(face(s, r)) for s in range(4))
        if m == 2:
            cards = [around.take(face(s, r)) for s in range(4) for _ in range(2)]
            melds.append(Meld(f"double_{_AROUND_KEYS[r]}", "around", 10 * v,
                              tuple(sorted(cards))))
        elif m == 1:
            cards = [around.take(face(s, r)) for s in range(4)]
            melds.append(Meld(f"{_AROUND_KEYS[r]}_around", "around", v, tuple(sorted(cards))))
    # Pinochle class.
    pin = _Picker(hand)
    fqs, fjd = face(SPADES, QUEEN), face(DIAMONDS, JACK)
    p = min(n(fqs), n(fjd))
    if p == 2:
        cards = [pin.take(f) for f in (fqs, fjd) for _ in range(2)]
        melds.append(Meld("double_pinochle", "pinochle", 300, tuple(sorted(cards))))
    elif p == 1:
        cards = [pin.take(fqs), pin.take(fjd)]
        melds.append(Meld("pinochle", "pinochle", 40, tuple(sorted(cards))))
    if div != 1:
        melds = [Meld(m.key, m.cls, m.value // div, m.cards, m.suit) for m in melds]
    total = sum(m.value for m in melds)
    return MeldResult(total, tuple(melds), seq.used | around.used | pin.used)
