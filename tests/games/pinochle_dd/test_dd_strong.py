"""The strong level's card search on the compiled kernel is the former pure-Python search
(the same worlds, each candidate played out by the same quick policy) run with all its
worlds: the same card in every position, with no clock involved."""

from __future__ import annotations

import random
from typing import Any

from cardplaza.games.pinochle_dd.engine import (
    K_PLAY,
    PLAY,
    DoubleDeckState,
    Options,
    hand_scores,
    options_from_obs,
)
from cardplaza.games.pinochle_dd.players import (
    STRONG_WORLDS,
    HeuristicPlayer,
    StrongPlayer,
    _rollout_card,
    _tally,
)
from cardplaza.games.pinochle_dd.rules import (
    LAST_TRICK,
    add,
    counter_mask,
    from_counts,
    remove,
    winning_index,
)
from cardplaza.games.pinochle_dd.world import Places


def python_search(obs: dict[str, Any], cards: list[int], worlds: int) -> int:
    """The strong card search as it was written in Python: ``worlds`` worlds dealt from
    the same seeded generator, every candidate played out card by card with
    :func:`_rollout_card`, the best total side margin (first candidate on ties)."""
    rng = random.Random(len(obs["tricks"]) * 131 + len(obs["trick"]) * 7 + obs["seat"])
    me = obs["seat"]
    trump = obs["trump"]
    options = options_from_obs(obs)
    k = obs["scale"]
    bits = counter_mask(options.counters)
    bside = obs["bidder"] % 2
    contract = obs["contract"] // k
    melds = obs["melds"]
    side_melds = [(melds[0]["value"] + melds[2]["value"]) // k,
                  (melds[1]["value"] + melds[3]["value"]) // k]
    won = [0, 0]
    tricks_taken = [0, 0]
    for t in obs["tricks"]:
        side = t["winner"] % 2
        tricks_taken[side] += 1
        for _, f in t["cards"]:
            won[side] = add(won[side], f)
    trick0 = [f for _, f in obs["trick"]]
    leader0 = obs["trick"][0][0] if obs["trick"] else me
    own = from_counts(_tally(obs["hand"]))
    places = Places(obs, strict=True)
    totals = [0.0] * len(cards)
    for _ in range(worlds):
        placed = places.place(rng)
        base = [from_counts(placed[p]) if p != me else own for p in range(4)]
        for i, card in enumerate(cards):
            hands = base[:]
            hands[me] = remove(hands[me], card)
            trick = [*trick0, card]
            w_won = won[:]
            w_tricks = tricks_taken[:]
            leader = leader0
            seat = (me + 1) % 4
            played = sum(len(t["cards"]) for t in obs["tricks"]) + len(trick)
            last_winner = -1
            while True:
                if len(trick) == 4:
                    winner = (leader + winning_index(trick, trump)) % 4
                    for f in trick:
                        w_won[winner % 2] = add(w_won[winner % 2], f)
                    w_tricks[winner % 2] += 1
                    trick = []
                    leader = seat = last_winner = winner
                    if not hands[winner]:
                        break
                f = _rollout_card(hands, seat, trick, trump, options.must_head,
                                  options.counters, bside, played)
                hands[seat] = remove(hands[seat], f)
                trick.append(f)
                played += 1
                seat = (seat + 1) % 4
            counters = [(w_won[0] & bits).bit_count(), (w_won[1] & bits).bit_count()]
            counters[last_winner % 2] += LAST_TRICK
            delta, _ = hand_scores(contract, bside, side_melds, counters, w_tricks, options)
            totals[i] += delta[me % 2] - delta[1 - me % 2]
    return cards[max(range(len(cards)), key=lambda i: (totals[i], -i))]


def test_kernel_search_picks_the_card_of_the_python_search() -> None:
    """Positions from hands the normal level plays (both counter schemes, with and
    without must-head), every fourth card decision with a choice: the strong player
    picks the card the Python search picks with all 40 worlds."""
    normal = HeuristicPlayer("normal")
    strong = StrongPlayer()
    assert strong.seconds == float("inf")
    checked = 0
    for seed, options in enumerate([Options(), Options(counters="aces-tens"),
                                    Options(must_head=False, pass_count=0)]):
        st = DoubleDeckState(options, 40 + seed)
        rng = random.Random(seed)
        before = st.hand_no
        step = 0
        while st.hand_no == before and not st.is_terminal:
            seat = st.current_player
            obs = st.observation(seat)
            legal = st.legal_actions()
            cards = [a[1] for a in legal if isinstance(a, tuple) and a[0] == K_PLAY]
            if st.phase == PLAY and len(cards) > 1 and len(obs["hand"]) > 1:
                step += 1
                if step % 4 == 1:
                    want = python_search(obs, cards, STRONG_WORLDS)
                    assert strong.play(obs, cards) == want, (seed, step)
                    checked += 1
            st.apply(normal.choose(obs, legal, rng))
    assert checked >= 20
