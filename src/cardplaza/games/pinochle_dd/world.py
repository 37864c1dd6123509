"""Invariants, hidden-card permutation and the determinizer (world sampler).

Hidden places seen from a seat: the other three hands and, while the partner or the
declarer is choosing cards to pass (unless that is the seat itself), the cards chosen so
far. What a seat knows of them (section 4.4 and the passing rules):

* a seat that showed meld still holds its meld cards, less what it has played since
  (a face shown ``m`` times and played ``p`` times is still held ``m - p`` times or more);
* the declarer and partner know the cards they passed each other: the receiver (or, while
  it is choosing its own cards, its hand and its choice together) still holds them, less
  what came back and what it played;
* the play (strict sampling only): a seat that did not follow suit holds none of the led
  suit, one that did not trump holds no trump, and under ``must_head`` one that did not
  beat when it had to holds no higher card of that suit.

:func:`sample_world` also prefers worlds whose hands give exactly the melds shown.
"""

from __future__ import annotations

import random
from typing import Any

from cardplaza.core.options import options_from_dict
from cardplaza.core.protocol import TERMINAL, GameState
from cardplaza.games.pinochle_dd.engine import (
    OVER,
    PASSING,
    PHASE_NAMES,
    PLAY,
    DoubleDeckState,
    Options,
)
from cardplaza.games.pinochle_dd.meld import MeldResult, meld_total
from cardplaza.games.pinochle_dd.rules import (
    ABOVE20,
    COPIES,
    FACES,
    SUIT20,
    SUIT_OF,
    counts,
    from_counts,
    winning_index,
)


def check_invariants(state: GameState) -> None:
    """Four copies of every face in all places; counters add to the hand's total in every
    played hand; the scores are the sum of the hand results."""
    assert isinstance(state, DoubleDeckState)
    s = state
    total = [0] * FACES
    for m in (*s.hands, s.pending, *s.won):
        for f, n in enumerate(counts(m)):
            total[f] += n
    for f in s.trick:
        total[f] += 1
    assert total == [COPIES] * FACES, "cards lost or duplicated"
    for entry in s.log:
        if entry.get("counters") is not None:
            assert sum(entry["counters"]) == s.total * s.k, "counters do not add up"
    sums = [0, 0]
    for entry in s.log:
        for i, d in enumerate(entry.get("score_change") or ()):
            sums[i] += d
    assert sums == [v * s.k for v in s.scores], "scores differ from the sum of hand results"
    if s.phase == PLAY:
        sizes = [h.bit_count() for h in s.hands]
        played = {(s.leader + i) % 4 for i in range(len(s.trick))}
        base = 20 - len(s.tricks)
        for p in range(4):
            assert sizes[p] == base - (p in played), "hand sizes out of step"


# -- what a seat knows -----------------------------------------------------------------

def _played_by_seat(obs: dict[str, Any]) -> list[list[int]]:
    """Per seat, the copies of each face it has played this hand."""
    out = [[0] * FACES for _ in range(4)]
    for t in obs["tricks"]:
        for seat, f in t["cards"]:
            out[seat][f] += 1
    for seat, f in obs["trick"]:
        out[seat][f] += 1
    return out


def _void_faces(obs: dict[str, Any]) -> list[int]:
    """Per seat, the faces it cannot hold according to the play so far."""
    trump = obs["trump"]
    must_head = obs["options"]["must_head"]
    forbid = [0, 0, 0, 0]
    tricks = [t["cards"] for t in obs["tricks"]]
    if obs["trick"]:
        tricks.append(obs["trick"])
    for cards in tricks:
        led = SUIT_OF[cards[0][1]]
        seq: list[int] = []
        for seat, f in cards:
            if seq:
                w = seq[winning_index(seq, trump)]
                ws = SUIT_OF[w]
                fs = SUIT_OF[f]
                if fs != led:
                    forbid[seat] |= SUIT20[led]
                    if fs != trump:
                        forbid[seat] |= SUIT20[trump]
                    elif must_head and ws == trump and not (fs == ws and f % 5 > w % 5):
                        forbid[seat] |= ABOVE20[w]
                elif must_head and ws == led and not f % 5 > w % 5:
                    forbid[seat] |= ABOVE20[w]
            seq.append(f)
    return forbid


class Places:
    """The hidden places of ``obs['seat']`` (0..3 hands, 4 the pending choice): room,
    the hidden copies of each face, the least each place must hold, and the faces each
    hand cannot hold (with ``strict``)."""

    def __init__(self, obs: dict[str, Any], strict: bool) -> None:
        me = obs["seat"]
        self.me = me
        hidden = [COPIES] * FACES
        for f in obs["hand"]:
            hidden[f] -= 1
        played = _played_by_seat(obs)
        for p in range(4):
            for f in range(FACES):
                hidden[f] -= played[p][f]
        passing = obs["passing"]
        giver = passing["giver"]
        if giver == me:
            for f in passing["selected"]:
                hidden[f] -= 1
        self.hidden = hidden
        cap = [0] * 5
        for p in range(4):
            if p != me:
                cap[p] = obs["hand_sizes"][p]
        if giver is not None and giver != me:
            cap[4] = passing["pending_count"]
        self.cap = cap
        assert sum(cap) == sum(hidden), "observation does not account for every card"
        least = [[0] * FACES for _ in range(5)]
        if obs["melds"] is not None and obs["phase"] != "over":
            for p in range(4):
                if p == me:
                    continue
                shown = [0] * FACES
                for f in obs["melds"][p]["cards"]:
                    shown[f] += 1
                for f in range(FACES):
                    least[p][f] = max(least[p][f], shown[f] - played[p][f])
        partner = (me + 2) % 4
        if passing["gave"] and obs["phase"] != "over":
            gave = [0] * FACES
            for f in passing["gave"]:
                gave[f] += 1
            back = [0] * FACES
            for f in passing["received"]:
                back[f] += 1
            # The partner passed first when it received from me only afterwards.
            partner_first = obs["bidder"] == me
            for f in range(FACES):
                keep = gave[f] - played[partner][f] - (0 if partner_first else back[f])
                if keep > 0:
                    # While the partner chooses its own cards to pass, its hand and its
                    # choice hold them together: the hand is one way that fits.
                    least[partner][f] = max(least[partner][f], keep)
        self.least = least
        self.forbid = _void_faces(obs) if strict and obs["trump"] is not None else [0] * 4
        self.forbid[me] = (1 << FACES) - 1

    def assign(self, rng: random.Random, use_forbid: bool = True) -> list[list[int]] | None:
        """A random placement (per place, copies of each face), or None if this draw got
        stuck."""
        left = self.cap[:]
        out = [[0] * FACES for _ in range(5)]
        pool = self.hidden[:]
        for i in range(5):
            if not left[i]:
                continue
            for f in range(FACES):
                n = min(self.least[i][f], pool[f], left[i])
                if n > 0:
                    out[i][f] += n
                    pool[f] -= n
                    left[i] -= n
        cards = [f for f in range(FACES) for _ in range(pool[f])]
        rng.shuffle(cards)
        forbid = [*self.forbid, 0] if use_forbid else [0] * 5

        def room(f: int) -> list[int]:
            return [i for i in range(5) if left[i] and not forbid[i] >> f & 1]

        cards.sort(key=lambda f: len(room(f)))
        for f in cards:
            opts = room(f)
            if not opts:
                return None
            r = rng.randrange(sum(left[i] for i in opts))
            for i in opts:
                r -= left[i]
                if r < 0:
                    break
            left[i] -= 1
            out[i][f] += 1
        return out

    def place(self, rng: random.Random) -> list[list[int]]:
        """A placement respecting the play's inferences when one is found quickly, else
        only the room and what each place must hold."""
        for attempt in range(40):
            got = self.assign(rng, use_forbid=attempt < 30)
            if got is not None:
                return got
        raise AssertionError("no consistent placement of the hidden cards")


def permute_unseen(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy where the cards ``seat`` cannot see are dealt again among their hidden
    places (keeping what the seat knows of them)."""
    assert isinstance(state, DoubleDeckState)
    obs = state.observation(seat)
    placed = Places(obs, strict=False).place(rng)
    out = state.clone()
    for p in range(4):
        if p != seat:
            out.hands[p] = from_counts(placed[p])
    giver = obs["passing"]["giver"]
    if giver is not None and giver != seat:
        out.pending = from_counts(placed[4])
    out._legal = None
    return out


def _melds_fit(obs: dict[str, Any], placed: list[list[int]]) -> bool:
    """True if every other hand, with what it played since, melds what it showed."""
    melds = obs["melds"]
    if melds is None or obs["phase"] == "over":
        return True
    played = _played_by_seat(obs)
    trump = obs["trump"]
    k = obs["scale"]
    for p in range(4):
        if p == obs["seat"]:
            continue
        full = from_counts([a + b for a, b in zip(placed[p], played[p], strict=True)])
        if meld_total(full, trump) * k != melds[p]["value"]:
            return False
    return True


def sample_world(obs: dict[str, Any], rng: random.Random) -> GameState:
    """A full state consistent with ``obs`` (the determinizer of the computer players)."""
    opts = options_from_dict(Options, dict(obs["options"]))
    st = DoubleDeckState(opts, 0, _blank=True)
    st.rng = random.Random(rng.getrandbits(64))
    k = st.k
    me = obs["seat"]
    st.dealer = obs["dealer"]
    st.hand_no = obs["hand_number"]
    st.phase = PHASE_NAMES.index(obs["phase"])
    st.is_terminal = st.phase == OVER
    st.turn = obs["to_act"] if obs["to_act"] != TERMINAL else TERMINAL
    st.scores = [v // k for v in obs["scores"]]
    st.winner = -1 if obs["winner"] is None else obs["winner"]
    st.log = [{key: v for key, v in e.items() if key != "passes"} for e in obs["history"]]
    st.private = [{me: e["passes"]} if e["passes"] is not None else {}
                  for e in obs["history"]]
    st.log_melds = [None] * len(st.log)
    st.bids = [(s, a // k) for s, a in obs["bids"]]
    st.passed = sum(1 << s for s in range(4) if obs["passed"][s])
    st.high_bid = (obs["high_bid"] or 0) // k
    st.high_bidder = -1 if obs["high_bidder"] is None else obs["high_bidder"]
    st.bidder = -1 if obs["bidder"] is None else obs["bidder"]
    st.contract = (obs["contract"] or 0) // k
    st.stuck = obs["stuck_dealer"]
    st.trump = -1 if obs["trump"] is None else obs["trump"]
    st.melds = (None if obs["melds"] is None
                else [MeldResult.from_json(m, k) for m in obs["melds"]])
    st.leader = obs["leader"] if obs["leader"] is not None else -1
    st.trick = [f for _, f in obs["trick"]]
    st.tricks = [(t["leader"], tuple(f for _, f in t["cards"]), t["winner"])
                 for t in obs["tricks"]]
    won = [[0] * FACES, [0] * FACES]
    for _, cs, w in st.tricks:
        for f in cs:
            won[w % 2][f] += 1
    st.won = [from_counts(won[0]), from_counts(won[1])]
    st.tricks_won = list(obs["tricks_won"])
    places = Places(obs, strict=True)
    placed = places.place(rng)
    for _ in range(30):  # prefer worlds whose hands give exactly the melds shown
        if _melds_fit(obs, placed):
            break
        placed = places.place(rng)
    for p in range(4):
        st.hands[p] = from_counts(placed[p])
    hand = [0] * FACES
    for f in obs["hand"]:
        hand[f] += 1
    st.hands[me] = from_counts(hand)
    passing = obs["passing"]
    giver = passing["giver"]
    st.giver = giver if giver is not None else -1
    if st.phase == PASSING:
        if giver == me:
            sel = [0] * FACES
            for f in passing["selected"]:
                sel[f] += 1
            st.pending = from_counts(sel)
        else:
            st.pending = from_counts(placed[4])
    partner = (me + 2) % 4
    if passing["gave"]:
        st.given[me] = from_counts(_tally(passing["gave"]))
    if passing["received"]:
        st.given[partner] = from_counts(_tally(passing["received"]))
    for p in range(4):
        if passing["done"][p] and not st.given[p]:
            # A pass this seat did not see: any cards of the count stand for it.
            st.given[p] = from_counts(_tally([p % FACES] * passing["count"]))
    if st.phase == OVER:
        st.turn = TERMINAL
    return st


def _tally(faces: list[int]) -> list[int]:
    out = [0] * FACES
    for f in faces:
        out[f] += 1
    return out


def first_deal_returns(state: GameState) -> list[float] | None:
    """Each seat's side score change in the game's first scored hand (None before)."""
    assert isinstance(state, DoubleDeckState)
    for entry in state.log:
        delta = entry.get("score_change")
        if delta is not None:
            return [float(delta[s % 2]) for s in range(4)]
    return None
