"""Invariants, information-hiding permutation and the determinizer for two-hand Pinochle."""

from __future__ import annotations

import random
from typing import Any

from cardplaza.core.protocol import TERMINAL, GameState
from cardplaza.games.pinochle2.engine import (
    ALL_CARDS,
    GROUP_KEYS,
    MELD_NAMES,
    NCARDS,
    POINTS,
    REVEAL_HOW,
    STEP_END,
    STEP_MELD,
    STEP_NAMES,
    STEP_PLAY,
    SUIT_OF,
    Options,
    Pinochle2State,
    generate_melds,
)


def check_invariants(state: GameState) -> None:
    """Cards conserved, meld areas inside hands, points consistent; 250 at the end."""
    assert isinstance(state, Pinochle2State)
    st = state
    played = 0
    trick_points = 0
    for _, lead, follow, _ in st.tricks:
        played |= (1 << lead) | (1 << follow)
        trick_points += POINTS[lead] + POINTS[follow]
    if st.lead >= 0:
        played |= 1 << st.lead
    stock = 0
    for c in st.stock:
        stock |= 1 << c
    parts = [st.hands[0], st.hands[1], stock, played]
    total = sum(p.bit_count() for p in parts)
    union = 0
    for p in parts:
        union |= p
    assert total == NCARDS and union == ALL_CARDS, "the 48 cards are not conserved"
    assert len(st.stock) == len(set(st.stock))
    for s in (0, 1):
        assert st.melded[s] & ~st.hands[s] == 0, "meld area outside the hand"
        assert st.known[s] & ~(st.hands[s] & ~st.melded[s]) == 0, "known card not concealed"
    assert sum(st.counters) == trick_points, "trick points do not match the tricks"
    melds = [0, 0]
    for s, _, _, p, _, _ in st.melds:
        melds[s] += p
    if st.nine_bonus >= 0:
        melds[st.nine_bonus] += 10
    assert melds == st.meld_points, "meld points do not match the melds made"
    n = len(st.tricks)
    draws = min(n, 12) if st.step != STEP_MELD else n - 1
    assert len(st.stock) == 24 - 2 * draws, "stock size wrong"
    if st.stock:
        assert SUIT_OF[st.stock[0]] == st.trump, "turn-up not of trump suit"
    if st.step == STEP_PLAY and st.lead < 0:
        size = 12 if n < 12 else 24 - n
        assert st.hands[0].bit_count() == st.hands[1].bit_count() == size, "hand sizes wrong"
    if st.step == STEP_END:
        assert st.turn == TERMINAL and n == 24
        assert sum(st.counters) + 10 == 250, "counters + last trick must be 250"
        assert st.hands[0] == st.hands[1] == 0


def _hidden_places(st: Pinochle2State, seat: int) -> tuple[int, int, list[int]]:
    """(opponent's hidden card mask, number of face-down stock cards, pool)."""
    opp = 1 - seat
    hidden = st.hands[opp] & ~st.melded[opp] & ~st.known[opp]
    down = st.stock[1:]
    pool = [c for c in range(NCARDS) if (hidden >> c) & 1] + down
    return hidden, len(down), pool


def permute_unseen(state: GameState, seat: int, rng: random.Random) -> GameState:
    """Copy with the opponent's unseen concealed cards and the face-down stock re-dealt."""
    assert isinstance(state, Pinochle2State)
    st = state.clone()
    opp = 1 - seat
    hidden, ndown, pool = _hidden_places(st, seat)
    rng.shuffle(pool)
    k = hidden.bit_count()
    new_hidden = sum(1 << c for c in pool[:k])
    st.hands[opp] = (st.hands[opp] & ~hidden) | new_hidden
    if st.stock:
        st.stock[1:] = pool[k:]
    assert len(st.stock[1:]) == ndown
    if st.step == STEP_MELD and st.turn == opp:
        _refresh_pending(st)
    return st


def _refresh_pending(st: Pinochle2State) -> None:
    seat = st.turn
    st.pending = generate_melds(st.hands[seat], st.melded[seat], st.known[seat], st.used,
                                st.trump, st.options.double_melds, st.options.new_card_rule)
    st._legal = None


def _mask(cards: Any) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def sample_world(observation: dict[str, Any], rng: random.Random) -> GameState:
    """A full state consistent with ``observation``: the unseen cards are dealt at random
    between the opponent's concealed hand and the face-down stock (turn-up kept at the
    bottom)."""
    obs = observation
    seat = int(obs["seat"])
    opp = 1 - seat
    opts = Options(**obs["options"])
    st = object.__new__(Pinochle2State)
    GameState.__init__(st, opts, rng.getrandbits(32), 2)
    st.dealer = int(obs["dealer"])
    st.trump = int(obs["trump"])
    melded = [_mask(obs["meld_areas"][0]), _mask(obs["meld_areas"][1])]
    known = [_mask(obs["known_held"][0]), _mask(obs["known_held"][1])]
    pool = list(obs["unseen"])
    rng.shuffle(pool)
    opp_hidden = int(obs["concealed_sizes"][opp]) - known[opp].bit_count()
    hands = [0, 0]
    hands[seat] = _mask(obs["hand"])
    hands[opp] = melded[opp] | known[opp] | _mask(pool[:opp_hidden])
    down = pool[opp_hidden:]
    turn_up = obs["turn_up"]
    st.stock = [] if turn_up is None else [int(turn_up), *down]
    if len(st.stock) != int(obs["stock_count"]):
        raise ValueError("observation is inconsistent: stock count does not match unseen cards")
    st.hands = hands
    st.melded = melded
    st.known = known
    st.used = [_mask(obs["used"][k]) for k in GROUP_KEYS]
    st.meld_points = [int(x) for x in obs["meld_points"]]
    st.tricks = [(int(t["leader"]), int(t["cards"][0]), int(t["cards"][1]), int(t["winner"]))
                 for t in obs["tricks"]]
    counters = [0, 0]
    for _, lead, follow, winner in st.tricks:
        counters[winner] += POINTS[lead] + POINTS[follow]
    st.counters = counters
    nine = obs["nine_turned_up"]
    st.nine_bonus = -1 if nine is None else int(nine["seat"])
    st.melds = [(int(m["seat"]), MELD_NAMES.index(m["meld"]), _mask(m["cards"]),
                 int(m["points"]), int(m["trick"]),
                 -1 if m["received"] is None else int(m["received"])) for m in obs["melds"]]
    st.reveals = [(int(r["seat"]), int(r["card"]), REVEAL_HOW.index(r["how"]))
                  for r in obs["reveals"]]
    cur = obs["current_trick"]
    st.lead = int(cur["cards"][0]) if cur and cur["cards"] else -1
    st.step = STEP_NAMES.index(obs["step"])
    st.turn = int(obs["to_act"]) if st.step != STEP_END else TERMINAL
    st.is_terminal = st.turn == TERMINAL
    res = obs["result"]
    st.last_trick = int(res["last_trick"]) if res else -1
    st.pending = []
    if st.step == STEP_MELD:
        _refresh_pending(st)
    return st
