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


def _position(seed: int, at: int | None = None) -> tuple[list[int], list[int], int, int, int]:
    """A random mid-hand position (``at`` cards played, else a random number below 60):
    hands (masks), the trick so far, leader, trump and the cards played before it (tricks
    were played with the policy itself)."""
    rng = random.Random(seed)
    hands = deal(rng)
    trump = rng.randrange(4)
    leader = rng.randrange(4)
    played = 0
    trick: list[int] = []
    stop = rng.randrange(60) if at is None else at
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


def _minimax(hands: list[int], trick: list[int], leader: int, trump: int, must_head: bool,
             counter: list[int]) -> tuple[int, int]:
    """Side 0's (counters, tricks) from here under best play of both sides (side 0 the
    most counters then tricks, side 1 the same for itself), by plain recursion over the
    engine's rules: the reference the stack search is checked against."""
    from cardplaza.games.pinochle_dd.rules import legal_faces, winning_index

    seat = (leader + len(trick)) % 4
    legal = legal_faces(hands[seat], trick, trump, must_head)
    best: tuple[int, int] | None = None
    for f in range(FACES):
        if not legal >> f & 1:
            continue
        hands2 = hands[:]
        hands2[seat] = remove(hands2[seat], f)
        t = [*trick, f]
        gain = (0, 0)
        lead = leader
        if len(t) == 4:
            winner = (leader + winning_index(t, trump)) % 4
            pts = sum(counter[g] for g in t) + (2 if not any(hands2) else 0)
            gain = (pts, 1) if winner % 2 == 0 else (0, 0)
            t, lead = [], winner
        rest = (0, 0) if not any(hands2) else _minimax(hands2, t, lead, trump, must_head,
                                                        counter)
        value = (gain[0] + rest[0], gain[1] + rest[1])
        if best is None or (value > best if seat % 2 == 0 else value < best):
            best = value
    assert best is not None
    return best


@pytest.mark.parametrize("must_head", [True, False])
def test_end_values_are_the_exact_minimax_of_the_last_tricks(must_head: bool) -> None:
    """In positions with two or three tricks left, the stack search gives every candidate
    the value a plain recursive minimax gives (compiled and Python forms alike), and the
    sides' counters add to what is left of the hand."""
    from cardplaza.games.pinochle_dd.kernels import END_FIELDS
    from cardplaza.games.pinochle_dd.rules import legal_faces

    scheme = "aces-tens-kings"
    counter = [COUNTER_FACES[scheme] >> f & 1 for f in range(FACES)]
    arr = np.array(counter, np.int64)
    checked = 0
    for seed in range(12):
        hands, trick, leader, trump, _ = _position(seed, 68 + seed % 8)
        me = (leader + len(trick)) % 4
        legal = legal_faces(hands[me], trick, trump, must_head)
        cands = [f for f in range(FACES) if legal >> f & 1]
        left = sum(h.bit_count() for h in hands)
        world = np.array([[n for h in hands for n in counts(h)]], np.int64)
        trick0 = np.array([*trick, 0, 0, 0, 0][:4], np.int64)
        outs = []
        for fn in (KERNELS.end_values, KERNELS.reference("end_values")):
            out = np.zeros((1, len(cands), 4), np.int64)
            fn(world.copy(), 1, me, np.array(cands, np.int64), len(cands), trick0,
               len(trick), leader, trump, int(must_head), arr, np.zeros(4 * FACES, np.int64),
               np.zeros(4 + left, np.int64), np.zeros(4, np.int64),
               np.zeros((left, END_FIELDS), np.int64), out)
            outs.append(out)
        assert (outs[0] == outs[1]).all()
        pts = sum(counter[f] for h in hands for f in range(FACES)
                  for _ in range(counts(h)[f])) + sum(counter[f] for f in trick) + 2
        for i, f in enumerate(cands):
            h2 = hands[:]
            h2[me] = remove(h2[me], f)
            want = _minimax_after(h2, [*trick, f], leader, trump, must_head, counter)
            row = outs[0][0][i]
            assert (row[0], row[2]) == want, (seed, f, row, want)
            assert row[0] + row[1] == pts
            assert row[2] + row[3] == (len(trick) + left) // 4
        checked += 1
    assert checked == 12


def _minimax_after(hands: list[int], trick: list[int], leader: int, trump: int,
                   must_head: bool, counter: list[int]) -> tuple[int, int]:
    """:func:`_minimax` after a card was just added to ``trick``."""
    from cardplaza.games.pinochle_dd.rules import winning_index

    if len(trick) < 4:
        return _minimax(hands, trick, leader, trump, must_head, counter)
    winner = (leader + winning_index(trick, trump)) % 4
    pts = sum(counter[g] for g in trick) + (2 if not any(hands) else 0)
    gain = (pts, 1) if winner % 2 == 0 else (0, 0)
    if not any(hands):
        return gain
    rest = _minimax(hands, [], winner, trump, must_head, counter)
    return (gain[0] + rest[0], gain[1] + rest[1])
