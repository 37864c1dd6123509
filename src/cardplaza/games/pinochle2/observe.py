"""Observation of a seat (spec section 9); the schema is documented in the package docstring."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardplaza.core.protocol import JSON, TERMINAL
from cardplaza.games.pinochle2.engine import (
    ALL_CARDS,
    GROUP_KEYS,
    MELD_NAMES,
    POINTS,
    REVEAL_HOW,
    STEP_END,
    STEP_NAMES,
    SUIT_SYMBOLS,
    iter_bits,
    options_dict,
)

if TYPE_CHECKING:
    from cardplaza.games.pinochle2.engine import Pinochle2State


_POS = [0] * 48
for _i, _c in enumerate(sorted(range(48), key=lambda c: ((c % 24) // 6, -(c % 6), c))):
    _POS[_c] = _i


def _sorted(mask: int) -> list[int]:
    """Cards of a mask sorted by suit (♠♥♦♣), then rank high to low, then copy."""
    return sorted(iter_bits(mask), key=_POS.__getitem__)


def _course(st: Pinochle2State) -> list[list[int]]:
    """Both seats' totals (counters, melds, the turned-up nine, last trick) after each trick."""
    pts = [0, 0]
    if st.nine_bonus >= 0:
        pts[st.nine_bonus] += 10
    out: list[list[int]] = []
    for i, (_leader, lead, follow, winner) in enumerate(st.tricks):
        pts[winner] += POINTS[lead] + POINTS[follow]
        for s, _t, _m, p, n, _r in st.melds:
            if n == i + 1:
                pts[s] += p
        if i == len(st.tricks) - 1 and st.last_trick in (0, 1):
            pts[st.last_trick] += 10
        out.append(list(pts))
    return out


def observe(st: Pinochle2State, seat: int) -> dict[str, JSON]:
    """JSON-ready view of ``st`` for ``seat``."""
    if seat not in (0, 1):
        raise ValueError(f"seat must be 0 or 1, not {seat}")
    opp = 1 - seat
    ended = st.step == STEP_END
    played = 0
    tricks: list[JSON] = []
    for i, (leader, lead, follow, winner) in enumerate(st.tricks):
        played |= (1 << lead) | (1 << follow)
        tricks.append({"number": i + 1, "leader": leader, "cards": [lead, follow],
                       "winner": winner})
    current: JSON = None
    if not ended and st.step != 1:
        cards = [] if st.lead < 0 else [st.lead]
        leader = st.turn if st.lead < 0 else 1 - st.turn
        current = {"leader": leader, "cards": cards}
    if st.lead >= 0:
        played |= 1 << st.lead
    concealed_known = [st.known[s] & st.hands[s] & ~st.melded[s] for s in (0, 1)]
    turn_up = st.stock[0] if st.stock else None
    visible = st.hands[seat] | played | st.melded[opp] | concealed_known[opp]
    if turn_up is not None:
        visible |= 1 << turn_up
    obs: dict[str, JSON] = {
        "game": "pinochle2",
        "seat": seat,
        "dealer": st.dealer,
        "options": options_dict(st.options),
        "level": st.options.level,
        "step": STEP_NAMES[st.step],
        "phase": "end" if ended else ("playoff" if not st.stock else "stock"),
        "to_act": st.turn if st.turn != TERMINAL else -1,
        "trump": st.trump,
        "trump_symbol": SUIT_SYMBOLS[st.trump],
        "trick_number": st.trick_number,
        "hand": _sorted(st.hands[seat]),
        "concealed": _sorted(st.hands[seat] & ~st.melded[seat]),
        "hand_sizes": [st.hands[0].bit_count(), st.hands[1].bit_count()],
        "concealed_sizes": [(st.hands[s] & ~st.melded[s]).bit_count() for s in (0, 1)],
        "meld_areas": [_sorted(st.melded[0]), _sorted(st.melded[1])],
        "used": {GROUP_KEYS[g]: iter_bits(st.used[g]) for g in range(6)},
        "meld_area_history": [[[c, st.groups_of(c)] for c in _sorted(st.melded[s])]
                              for s in (0, 1)],
        "melds": [{"seat": s, "meld": MELD_NAMES[t], "cards": iter_bits(m), "points": p,
                   "trick": n, "received": None if r < 0 else r}
                  for s, t, m, p, n, r in st.melds],
        "meld_points": list(st.meld_points),
        "nine_turned_up": None if st.nine_bonus < 0 else {"seat": st.nine_bonus,
                                                          "points": 10},
        "turn_up": turn_up,
        "stock_count": len(st.stock),
        "tricks": tricks,
        "current_trick": current,
        "known_held": [_sorted(concealed_known[0]), _sorted(concealed_known[1])],
        "reveals": [{"seat": s, "card": c, "how": REVEAL_HOW[h]} for s, c, h in st.reveals],
        "unseen": iter_bits(ALL_CARDS & ~visible),
        "result": None,
    }
    if ended:
        totals = st.totals()
        obs["result"] = {
            "counters": list(st.counters),
            "meld_points": list(st.meld_points),
            "last_trick": st.last_trick,
            "totals": list(totals),
            "winner": 0 if totals[0] > totals[1] else 1 if totals[1] > totals[0] else None,
            "outcome_seat0": st.result(),
            "course": _course(st),
        }
    return obs
