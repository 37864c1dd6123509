"""Compiled search kernels of both Pinochle variants against their Python forms.

The kernels' Python form is the reference: the compiled kernels must give identical
results on seeded positions, the play-out must be the plain-Python policy of ``fast``, and
the card search must be the Python dealer's search, world by world.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from p4_helpers import python_card_search, search_cards_both_forms

from cardplaza.ai.compiled import mt_state
from cardplaza.core.bench import random_steps
from cardplaza.core.registry import get_game
from cardplaza.games.pinochle4.engine import PLAY
from cardplaza.games.pinochle4.fast import play_out
from cardplaza.games.pinochle4.kernels import END_FRAME, KERNELS, WORK_ROWS
from cardplaza.games.pinochle4.players import (
    ExpertPlayer,
    _candidate_cards,
    _PlayView,
    card_search,
    make_player,
)
from cardplaza.games.pinochle4.rules import counter_table, deal, legal_play_mask
from cardplaza.games.pinochle4.world import Dealer


def _positions(count: int, seed: int) -> list[tuple[list[int], list[int], int, int, int, bool]]:
    """Random play positions: hands, the trick so far (legal cards), leader, seats,
    trump and option O5."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        n = rng.choice((3, 4))
        hands, _ = deal(rng, n)
        trump, leader, relaxed = rng.randrange(4), rng.randrange(n), rng.random() < 0.3
        tricks = rng.randrange(0, 10)
        for _t in range(tricks):  # whole tricks of random legal cards; same leader
            trick: list[int] = []
            for k in range(n):
                seat = (leader + k) % n
                legal = legal_play_mask(hands[seat], trick, trump, relaxed)
                c = rng.choice([b for b in range(48) if legal >> b & 1])
                hands[seat] ^= 1 << c
                trick.append(c)
        trick = []
        for k in range(rng.randrange(n)):
            seat = (leader + k) % n
            legal = legal_play_mask(hands[seat], trick, trump, relaxed)
            c = rng.choice([b for b in range(48) if legal >> b & 1])
            hands[seat] ^= 1 << c
            trick.append(c)
        out.append((hands, trick, leader, n, trump, relaxed))
    return out


@pytest.mark.parametrize("counters", ["A", "B"])
def test_play_out_kernel_is_the_python_policy(counters: str) -> None:
    values = counter_table(counters, False)
    va = np.array(values, np.int64)
    for hands, trick, leader, n, trump, relaxed in _positions(300, 11):
        want = play_out(hands[:], trick, leader, n, trump, relaxed, values)
        tr = np.zeros(4, np.int64)
        tr[:len(trick)] = trick
        for fn in (KERNELS.play_out, KERNELS.reference("play_out")):
            h = np.array(hands, np.int64)
            pts = np.zeros(4, np.int64)
            last = fn(h, tr, len(trick), leader, n, trump, int(relaxed), va, pts)
            assert (list(pts[:n]), last) == want
            assert not h.any()  # every card was played


def _play_states(game: str, seeds: range, steps: int = 60) -> list[object]:
    spec = get_game(game)
    out = []
    for seed in seeds:
        st = spec.new_game(None, seed)
        normal = make_player("normal")
        rng = random.Random(seed)
        while not st.is_terminal and st.phase != PLAY:  # type: ignore[attr-defined]
            st.apply(normal.choose(st.observation(st.current_player), st.legal_actions(), rng))
        random_steps(st, random.Random(seed), rng.randrange(0, 30))
        if not st.is_terminal and st.phase == PLAY and len(st.legal_actions()) > 1:  # type: ignore[attr-defined]
            out.append(st)
    return out


@pytest.mark.parametrize("game", ["pinochle4", "pinochle3"])
@pytest.mark.parametrize("infer", [False, True])
def test_card_search_kernel_is_the_python_search(game: str, infer: bool) -> None:
    """Compiled and Python kernels agree; both equal the Python dealer's search (same
    sums, same random numbers drawn)."""
    for st in _play_states(game, range(12)):
        obs = st.observation(st.current_player)  # type: ignore[attr-defined]
        cards = [b[1] for b in _candidate_cards(st.legal_actions())]  # type: ignore[attr-defined]
        worlds = 25
        rng = random.Random(5)
        found = card_search(_PlayView(obs), Dealer(obs, infer_bids=infer), cards, worlds, rng)
        # The pure-Python search: the dealer and the view, world by world.
        ref_rng = random.Random(5)
        view, dealer = _PlayView(obs), Dealer(obs, infer_bids=infer)
        totals, made = python_card_search(view, dealer, cards, worlds, ref_rng)
        assert found.worlds == worlds
        assert found.totals == totals and found.made == made
        assert rng.getstate() == ref_rng.getstate()
        # The compiled kernel against its Python form on the same arguments.
        outs = search_cards_both_forms(view, dealer, cards, 8, infer, (
            0, np.zeros((1, 7), np.int64), np.zeros((1, END_FRAME), np.int64)))
        assert outs[0] == outs[1]


def test_expert_time_cap_stops_early_after_the_minimum() -> None:
    st = _play_states("pinochle4", range(20))[0]
    obs = st.observation(st.current_player)  # type: ignore[attr-defined]
    player = ExpertPlayer(sims=10**7, min_worlds=40, max_worlds=10**6, seconds=0.05)
    player.choose(obs, st.legal_actions(), random.Random(1))  # type: ignore[attr-defined]
    assert 40 <= player.last_stats["worlds"] < 10**6


def test_expert_evaluates_every_card_with_the_chance_of_the_contract() -> None:
    player = ExpertPlayer(sims=200, min_worlds=20)
    st = _play_states("pinochle4", range(20))[0]
    obs = st.observation(st.current_player)  # type: ignore[attr-defined]
    legal = st.legal_actions()  # type: ignore[attr-defined]
    evals = player.evaluate(obs, legal, random.Random(3))
    assert [e.action for e in evals] == _candidate_cards(legal)
    assert all(0.0 <= e.chance <= 1.0 and e.chance_of == "contract made"  # type: ignore[operator]
               and e.worlds >= 20 for e in evals)


def test_meld_and_bid_kernels_are_the_python_rules() -> None:
    """meld_total, the partnership bidding simulation and the cut-throat bury play-outs
    against the Python meld calculator, pass/return rules, fast.play_out and hand_delta."""
    from cardplaza.games.pinochle4 import kernels as k
    from cardplaza.games.pinochle4.fast import hand_delta
    from cardplaza.games.pinochle4.meld import meld_total
    from cardplaza.games.pinochle4.players import _partner_pass_card, _return_card
    from cardplaza.games.pinochle4.rules import mask_points

    rng = random.Random(21)
    values = counter_table("A", False)
    va = np.array(values, np.int64)
    for _ in range(300):
        hand = deal(rng, 3)[0][0] | (deal(rng, 4)[0][0] if rng.random() < 0.3 else 0)
        for trump in range(4):
            for extra in (0, 1):
                assert k.meld_total(hand, trump, extra) == meld_total(hand, trump, bool(extra))
    worlds = [deal(rng, 4)[0] for _ in range(12)]
    me, npass = 1, 4
    table = np.zeros((4, len(worlds)), np.int64)
    parts = np.zeros((3, 4, len(worlds)), np.int64)
    for fn in (KERNELS.bid_totals, KERNELS.reference("bid_totals")):
        fn(np.array(worlds, np.int64), len(worlds), me, npass, 1, 1, 0, va, 10,
           *[np.zeros(4, np.int64) for _ in range(3)], table, parts)
        for w, base in enumerate(worlds):
            for s in range(4):
                hands = base[:]
                partner = (me + 2) % 4
                ph, give = hands[partner], 0
                for _k in range(npass):
                    c = _partner_pass_card(ph, s)
                    ph ^= 1 << c
                    give |= 1 << c
                hand, back = hands[me] | give, 0
                for _k in range(npass):
                    c = _return_card(hand, s, True)
                    hand ^= 1 << c
                    back |= 1 << c
                hands[me], hands[partner] = hand, ph | back
                own, theirs = meld_total(hands[me], s), meld_total(hands[partner], s)
                pts, last = play_out(hands, [], me, 4, s, False, values)
                took = pts[me] + pts[partner] + (10 if last in (me, partner) else 0)
                assert table[s][w] == own + theirs + took
                assert [parts[k][s][w] for k in range(3)] == [own, theirs, took]
    hands3, widow = deal(rng, 3)
    hand = hands3[0] | widow  # the bid winner's 18 cards
    rest = [c for c in range(48) if not hand >> c & 1]
    three = []
    for _ in range(10):
        rng.shuffle(rest)
        three.append([hand, sum(1 << c for c in rest[:15]), sum(1 << c for c in rest[15:])])
    mine = [c for c in range(48) if hand >> c & 1]
    plans = [(s, sum(1 << c for c in mine[3 * s:3 * s + 3]), 300 - 10 * s) for s in range(4)]
    for fn in (KERNELS.bury_values, KERNELS.reference("bury_values")):
        sums = np.zeros(4, np.float64)
        fn(np.array(three, np.int64), len(three), np.array([0, 1, 2, 3], np.int64), 4,
           np.array([p[0] for p in plans], np.int64), np.array([p[1] for p in plans], np.int64),
           np.array([p[2] for p in plans], np.int64), hand, 0, 0, va, 10, 20, 250, 1, 1,
           *[np.zeros(4, np.int64) for _ in range(6)], sums)
        want = [0.0] * 4
        for world in three:
            for i, (s, gone, meld) in enumerate(plans):
                hs = world[:]
                hs[0] = hand & ~gone
                side = [meld_total(h, s) for h in world]
                side[0] = meld
                pts, last = play_out(hs, [], 0, 3, s, False, values)
                pts[last] += 10
                pts[0] += 20 + mask_points(gone, values)
                delta = hand_delta(250, 0, side, pts)
                want[i] += delta[0] - (sum(delta) - delta[0]) / 2
        assert sums.tolist() == want


def test_cut_throat_bid_kernel_is_the_python_rules() -> None:
    """The cut-throat discard rule and bidding simulation against the Python discard rule,
    meld calculator and fast.play_out: widow taken, three cards buried, meld + buried
    counters + trick points (last trick included)."""
    from cardplaza.games.pinochle4 import kernels as k
    from cardplaza.games.pinochle4.meld import meld_total
    from cardplaza.games.pinochle4.players import _discard_card, _return_card
    from cardplaza.games.pinochle4.rules import mask_points

    rng = random.Random(33)
    for _ in range(200):
        hands, widow = deal(rng, 3)
        for trump in range(4):
            for extra in (0, 1):
                hand = hands[0] | widow
                assert k.shed_card(hand, trump, extra, 1) == _discard_card(
                    hand, trump, bool(extra))
                assert k.shed_card(hand, trump, extra, 0) == _return_card(
                    hand, trump, bool(extra))
    for one_point in (False, True):
        div = 10 if one_point else 1
        values = counter_table("A", one_point)
        worlds = [deal(rng, 3)[0] for _ in range(12)]
        me = 2
        for fn in (KERNELS.bid_totals3, KERNELS.reference("bid_totals3")):
            table = np.zeros((4, len(worlds)), np.int64)
            parts = np.zeros((2, 4, len(worlds)), np.int64)
            fn(np.array(worlds, np.int64), len(worlds), me, 1, div, 0,
               np.array(values, np.int64), 10 // div,
               *[np.zeros(3, np.int64) for _ in range(3)], table, parts)
            for w, base in enumerate(worlds):
                full = base[me] | ((1 << 48) - 1) & ~(base[0] | base[1] | base[2])
                for s in range(4):
                    kept = full
                    for _k in range(3):
                        kept ^= 1 << _discard_card(kept, s, True)
                    assert (full & ~kept).bit_count() == 3
                    hs = base[:]
                    hs[me] = kept
                    pts, last = play_out(hs, [], me, 3, s, False, values)
                    meld = meld_total(kept, s) // div
                    took = (pts[me] + mask_points(full & ~kept, values)
                            + (10 // div if last == me else 0))
                    assert table[s][w] == meld + took
                    assert [parts[0][s][w], parts[1][s][w]] == [meld, took]


def _bidding_observations(count: int) -> list[dict[str, object]]:
    """Partnership observations while bidding or naming trump, after 0–6 normal bids."""
    spec = get_game("pinochle4")
    normal = make_player("normal")
    out = []
    for seed in range(count):
        st = spec.new_game(None, seed)
        rng = random.Random(seed)
        for _ in range(seed % 7):
            if st.phase not in (0, 1):  # type: ignore[attr-defined]
                break
            s = st.current_player
            st.apply(normal.choose(st.observation(s), st.legal_actions(), rng))
        if st.phase in (0, 1):  # type: ignore[attr-defined]
            out.append(st.observation(st.current_player))
    return out


@pytest.mark.parametrize("infer", [False, True])
def test_bidding_deals_kernel_is_the_python_sampler(infer: bool) -> None:
    """The compiled bidding deals are the Python sampler's, deal by deal, with the same
    random numbers drawn; compiled and Python kernels agree."""
    from cardplaza.games.pinochle4.players import bidding_deals
    from cardplaza.games.pinochle4.world import AuctionCheck

    observations = _bidding_observations(24)
    assert any(AuctionCheck(o).evidence for o in observations)
    for obs in observations:
        auction = AuctionCheck(obs) if infer else None
        rng, ref = random.Random(3), random.Random(3)
        got = bidding_deals(obs, rng, auction, 30)
        want = [ExpertPlayer._bidding_deal(obs, ref, auction) for _ in range(30)]
        assert got.tolist() == want
        assert rng.getstate() == ref.getstate()


def test_bidding_deals_compiled_and_python_agree() -> None:
    from cardplaza.games.pinochle4 import players

    calls: list[tuple[object, ...]] = []
    original = KERNELS.bidding_deals

    def spy(*args: object) -> int:
        calls.append(tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args))
        return int(original(*args))

    for obs in _bidding_observations(12):
        from cardplaza.games.pinochle4.world import AuctionCheck
        try:
            KERNELS.bidding_deals = spy  # type: ignore[method-assign]
            players.bidding_deals(obs, random.Random(8), AuctionCheck(obs), 10)
        finally:
            KERNELS.bidding_deals = original  # type: ignore[method-assign]
    assert calls
    for args in calls:
        outs = []
        for fn in (KERNELS.bidding_deals, KERNELS.reference("bidding_deals")):
            a = [x.copy() if isinstance(x, np.ndarray) else x for x in args]
            got = fn(*a)
            outs.append((got, a[-1].tolist(), a[-3].tolist()))
        assert outs[0] == outs[1]


@pytest.mark.parametrize("infer", [False, True])
def test_deal_worlds_kernel_is_the_python_dealer(infer: bool) -> None:
    """Worlds dealt in the kernel (the cut-throat bury search) are the Python dealer's,
    world by world, with the same random numbers drawn; compiled and Python agree."""
    from cardplaza.games.pinochle4.players import deal_worlds

    checked = 0
    for st in _play_states("pinochle3", range(8)) + _bury_states(8):
        obs = st.observation(st.current_player)  # type: ignore[attr-defined]
        trump = obs["trump"] if obs["trump"] is not None else 0
        rng, ref = random.Random(4), random.Random(4)
        got = deal_worlds(Dealer(obs, infer_bids=infer), trump, 20, rng)
        dealer = Dealer(obs, infer_bids=infer)
        want = [dealer.deal(ref)[0] for _ in range(20)]
        assert got.tolist() == want
        assert rng.getstate() == ref.getstate()
        setup = dealer.kernel_args()
        assert setup is not None
        outs = []
        for fn in (KERNELS.deal_worlds, KERNELS.reference("deal_worlds")):
            state = mt_state(random.Random(9))
            worlds = np.zeros((6, dealer.n), np.int64)
            n = fn(6, dealer.tries, int(infer), dealer.n, dealer.me, trump, *setup, state,
                   np.zeros((WORK_ROWS, 48), np.int64), worlds)
            outs.append((n, worlds.tolist(), state.tolist()))
        assert outs[0] == outs[1]
        checked += 1
    assert checked >= 10


def _bury_states(count: int) -> list[object]:
    """Cut-throat positions of the bid winner naming trump or burying."""
    spec = get_game("pinochle3")
    normal = make_player("normal")
    out = []
    for seed in range(count):
        st = spec.new_game(None, seed)
        rng = random.Random(seed)
        while not st.is_terminal and st.phase not in (1, 3):  # type: ignore[attr-defined]
            st.apply(normal.choose(st.observation(st.current_player), st.legal_actions(), rng))
        if not st.is_terminal:
            out.append(st)
    return out
