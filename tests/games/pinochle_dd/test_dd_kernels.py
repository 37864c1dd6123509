"""The double-deck play-out kernel: its Python form is the strong level's quick policy card
for card, and the compiled form gives what the Python form gives."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cardplaza.games.pinochle_dd.kernels import KERNELS
from cardplaza.games.pinochle_dd.players import _rollout_card
from cardplaza.games.pinochle_dd.rules import (
    COUNTER_FACES,
    FACES,
    counts,
    deal,
    from_counts,
    remove,
)


def _position(seed: int) -> tuple[list[int], list[int], int, int, int]:
    """A random mid-hand position: hands (masks), the trick so far, leader, trump and the
    cards played before it (tricks were played with the policy itself)."""
    rng = random.Random(seed)
    hands = deal(rng)
    trump = rng.randrange(4)
    leader = rng.randrange(4)
    played = 0
    trick: list[int] = []
    stop = rng.randrange(60)
    seat = leader
    while played < stop:
        f = _rollout_card(hands, seat, trick, trump, True, "aces-tens-kings", 0, played)
        hands[seat] = remove(hands[seat], f)
        trick.append(f)
        played += 1
        seat = (seat + 1) % 4
        if len(trick) == 4:
            from cardplaza.games.pinochle_dd.rules import winning_index
            leader = seat = (leader + winning_index(trick, trump)) % 4
            trick = []
    return hands, trick, leader, trump, played


@pytest.mark.parametrize("scheme", ["aces-tens-kings", "aces-tens"])
@pytest.mark.parametrize("must_head", [True, False])
def test_rollout_card_kernel_is_the_python_policy(scheme: str, must_head: bool) -> None:
    counter = np.array([COUNTER_FACES[scheme] >> f & 1 for f in range(FACES)], np.int64)
    checked = 0
    for seed in range(40):
        hands, trick, leader, trump, played = _position(seed)
        seat = (leader + len(trick)) % 4
        want = _rollout_card(hands, seat, trick, trump, must_head, scheme, seed % 2, played)
        flat = np.array([n for h in hands for n in counts(h)], np.int64)
        buf = np.array([*trick, 0, 0, 0, 0][:4], np.int64)
        for fn in (KERNELS.rollout_card, KERNELS.reference("rollout_card")):
            got = fn(flat, seat, buf, len(trick), trump, int(must_head), counter, seed % 2,
                     played)
            assert got == want, (seed, got, want)
        checked += 1
    assert checked == 40


def test_card_values_compiled_and_python_agree_and_count_every_counter() -> None:
    """Both forms give the same outcome table; in every world and for every candidate the
    two sides' counters add to what is left of the hand's 50 and the tricks to 20."""
    scheme = "aces-tens-kings"
    counter = np.array([COUNTER_FACES[scheme] >> f & 1 for f in range(FACES)], np.int64)
    rng = random.Random(3)
    nworlds = 6
    hands0 = deal(rng)
    trump, me = 2, 0
    worlds = np.zeros((nworlds, 4 * FACES), np.int64)
    for w in range(nworlds):
        hands = deal(random.Random(100 + w))
        hands[me] = hands0[me]  # only the searching seat's hand is the same in every world
        # Re-deal the other seats from what is left after ``me``'s hand.
        left = [4 - n for n in counts(hands0[me])]
        pool = [f for f in range(FACES) for _ in range(left[f])]
        random.Random(w).shuffle(pool)
        for i, p in enumerate((1, 2, 3)):
            cnt = [0] * FACES
            for f in pool[20 * i:20 * i + 20]:
                cnt[f] += 1
            hands[p] = from_counts(cnt)
        worlds[w] = [n for h in hands for n in counts(h)]
    cards = [f for f in range(FACES) if counts(hands0[me])[f]]
    cands = np.array(cards, np.int64)
    results = []
    for fn in (KERNELS.card_values, KERNELS.reference("card_values")):
        out = np.zeros((nworlds, len(cards), 4), np.int64)
        fn(worlds, nworlds, me, cands, len(cards), np.zeros(4, np.int64), 0, me, trump, 1,
           counter, 0, 0, np.zeros(4 * FACES, np.int64), np.zeros(4, np.int64),
           np.zeros(4, np.int64), out)
        results.append(out)
    assert (results[0] == results[1]).all()
    assert (results[0][:, :, 0] + results[0][:, :, 1] == 50).all()
    assert (results[0][:, :, 2] + results[0][:, :, 3] == 20).all()


def test_expert_plays_legal_cards_from_its_observation_alone() -> None:
    """Part of a hand with the expert at every seat (few worlds): legal actions only, and
    the same card when the cards it cannot see are dealt again."""
    from cardplaza.games.pinochle_dd.engine import PLAY, DoubleDeckState, Options
    from cardplaza.games.pinochle_dd.players import ExpertPlayer
    from cardplaza.games.pinochle_dd.world import permute_unseen

    expert = ExpertPlayer(worlds=8, seconds=30.0)
    st = DoubleDeckState(Options(), 5)
    rng = random.Random(5)
    checked = 0
    while checked < 6 and not st.is_terminal:
        seat = st.current_player
        legal = st.legal_actions()
        action = expert.choose(st.observation(seat), legal, rng)
        assert action in legal
        if st.phase == PLAY and len(legal) > 2:
            other = permute_unseen(st, seat, random.Random(checked))
            assert expert.choose(other.observation(seat), other.legal_actions(),
                                 random.Random(9)) == action
            checked += 1
        st.apply(action)
    assert checked == 6
