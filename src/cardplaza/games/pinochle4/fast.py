"""Fast play-outs of the trick phase on raw bitmasks (for the search players).

A position is the hands (48-bit masks), the cards of the current trick in play order, its
leader, trump and option O5. :func:`play_out` plays it to the end with the normal level's
card play (lead a side ace, else the cheapest card; smear counters on partner's trick as
last player; beat an opponent with the cheapest beating card; else the cheapest card) and
returns the counters each seat won plus the seat that won the last trick. Cards are
chosen by masks in a fixed preference order (lowest card id first within a group), with
no per-card objects.
"""

from __future__ import annotations

from cardplaza.games.pinochle4.rules import ABOVE, ACE, FULL_MASK, RANK_MASK, SUIT_MASK

_VAL_A = (0, 0, 0, 10, 10, 10)  # scheme A values decide "cheap" in the policy
_COUNT = RANK_MASK[3] | RANK_MASK[4] | RANK_MASK[5]
_ZERO = FULL_MASK & ~_COUNT
_NT = tuple(FULL_MASK & ~SUIT_MASK[t] for t in range(4))
_ORDER = sorted(((r, t) for r in range(6) for t in (0, 1)),
                key=lambda rt: (_VAL_A[rt[0]], rt[1], rt[0]))
CHEAP: tuple[tuple[int, ...], ...] = tuple(
    tuple(RANK_MASK[r] & (SUIT_MASK[tr] if t else _NT[tr]) for r, t in _ORDER)
    for tr in range(4))
"""Per trump: card groups from the least to the most valuable (value, trump, rank)."""
SMEAR: tuple[tuple[int, ...], ...] = tuple(
    (_COUNT & _NT[t], _COUNT & SUIT_MASK[t], _ZERO & _NT[t], _ZERO & SUIT_MASK[t])
    for t in range(4))
"""Per trump: groups for smearing (counters first, non-trump first)."""
BEAT: tuple[tuple[int, ...], ...] = tuple(
    tuple(RANK_MASK[r] & _NT[t] for r in range(6))
    + tuple(RANK_MASK[r] & SUIT_MASK[t] for r in range(6)) for t in range(4))
"""Per trump: groups for the cheapest beating card (non-trump first, low rank first)."""
SIDE_ACES = tuple(RANK_MASK[ACE] & _NT[t] for t in range(4))
SUIT_OF = tuple(c % 24 // 6 for c in range(48))
RANK_OF = tuple(c % 6 for c in range(48))


def low(m: int) -> int:
    """Lowest card of a non-empty mask."""
    return (m & -m).bit_length() - 1


def cheapest(m: int, trump: int) -> int:
    """The least valuable card of a non-empty mask (policy order)."""
    for g in CHEAP[trump]:
        x = m & g
        if x:
            return (x & -x).bit_length() - 1
    raise ValueError("empty mask")


def play_out(hands: list[int], trick: list[int], leader: int, n: int, trump: int,
             relaxed_opt: bool, values: tuple[int, ...]) -> tuple[list[int], int]:
    """Play to the end of the hand (``hands`` is modified); counters won per seat and
    the winner of the last trick (-1 if no trick was completed)."""
    pts = [0] * n
    cheap = CHEAP[trump]
    smear = SMEAR[trump]
    beat_order = BEAT[trump]
    tmask = SUIT_MASK[trump]
    aces = SIDE_ACES[trump]
    four = n == 4
    seat = (leader + len(trick)) % n
    last_winner = -1
    # Current trick state.
    if trick:
        led = SUIT_OF[trick[0]]
        w = trick[0]
        wpos = 0
        for i in range(1, len(trick)):
            c = trick[i]
            cs, ws = SUIT_OF[c], SUIT_OF[w]
            if (cs == ws and RANK_OF[c] > RANK_OF[w]) or (cs != ws and cs == trump):
                w, wpos = c, i
        wseat = (leader + wpos) % n
        tpts = 0
        for c in trick:
            tpts += values[c]
        count = len(trick)
        if count == n:
            pts[wseat] += tpts
            last_winner = seat = wseat
            tpts = count = 0
    else:
        led = w = wseat = -1
        tpts = count = 0
    while True:
        hand = hands[seat]
        if count == 0:
            if not hand:
                break
            x = hand & aces
            if not x:
                for g in cheap:
                    x = hand & g
                    if x:
                        break
            c = (x & -x).bit_length() - 1
            led = SUIT_OF[c]
            w, wseat = c, seat
        else:
            ws, wr = SUIT_OF[w], RANK_OF[w]
            relaxed = relaxed_opt and led != trump
            follow = hand & SUIT_MASK[led]
            if follow:
                legal = follow if relaxed or ws != led else (follow & ABOVE[led][wr] or follow)
            else:
                tr = hand & tmask
                if tr:
                    legal = tr if relaxed or ws != trump else (tr & ABOVE[trump][wr] or tr)
                else:
                    legal = hand
            x = 0
            if four and (wseat ^ seat) & 1 == 0:
                if count == 3:
                    for g in smear:
                        x = legal & g
                        if x:
                            break
                else:
                    for g in cheap:
                        x = legal & g
                        if x:
                            break
            else:
                b = legal & (ABOVE[trump][wr] if ws == trump else (ABOVE[ws][wr] | tmask))
                if b:
                    for g in beat_order:
                        x = b & g
                        if x:
                            break
                else:
                    for g in cheap:
                        x = legal & g
                        if x:
                            break
            c = (x & -x).bit_length() - 1
            cs = SUIT_OF[c]
            if (cs == ws and RANK_OF[c] > wr) or (cs != ws and cs == trump):
                w, wseat = c, seat
        hands[seat] = hand ^ (1 << c)
        tpts += values[c]
        count += 1
        if count == n:
            pts[wseat] += tpts
            last_winner = wseat
            seat = wseat
            tpts = count = 0
        else:
            seat = seat + 1 if seat + 1 < n else 0
    return pts, last_winner


def hand_delta(contract: int, bidder_side: int, side_melds: list[int],
               side_points: list[int]) -> list[int]:
    """Score change of every side (section 13 / 19.8) for played trick points."""
    made = side_melds[bidder_side] + side_points[bidder_side] >= contract
    out = []
    for s, (m, p) in enumerate(zip(side_melds, side_points, strict=True)):
        if s == bidder_side:
            out.append(m + p if made else -contract)
        else:
            out.append(m + p if p > 0 else 0)
    return out
