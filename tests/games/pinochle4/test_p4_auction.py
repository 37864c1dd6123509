"""The expert reads the auction: bounds from bids and passes, and worlds that honour them."""

from __future__ import annotations

import random
import statistics
from typing import Any

import pytest

from cardplaza.core.cards import mask_of
from cardplaza.core.registry import get_game
from cardplaza.games.pinochle4.auction import bid_evidence, hand_limit, violation
from cardplaza.games.pinochle4.engine import PinochleState
from cardplaza.games.pinochle4.players import ExpertPlayer, HeuristicPlayer, make_player
from cardplaza.games.pinochle4.world import AuctionCheck, Dealer


def _obs(bids: list[list[int]], seat: int = 0, players: int = 4) -> dict[str, Any]:
    return {"seat": seat, "players": players, "bid_step": 10, "min_bid": 250, "bids": bids}


def test_a_bid_is_a_floor_and_a_pass_a_ceiling() -> None:
    ev = bid_evidence(_obs([[1, 250], [2, 0], [3, 260], [0, 270], [1, 300], [3, 0],
                            [0, 0]], seat=1))
    # Seat 2 passed when 260 was the lowest bid; seat 3 bid 260 and then passed over its
    # partner's 300 (no ceiling); seat 0 bid 270 and passed when 310 was the lowest bid.
    assert ev == [(0, 270, 310), (2, 0, 260), (3, 260, 0)]


def test_passing_over_partner_says_nothing() -> None:
    ev = bid_evidence(_obs([[1, 250], [2, 0], [3, 0], [0, 260], [1, 0]], seat=2))
    # Seat 3 passed over partner 1's 250: no bound. Seat 1 passed over seat 0's 260.
    assert ev == [(0, 260, 0), (1, 250, 270)]


def test_cutthroat_passes_always_count() -> None:
    ev = bid_evidence(_obs([[1, 250], [2, 0], [0, 0]], seat=1, players=3))
    assert ev == [(0, 0, 260), (2, 0, 260)]


def test_everyone_passing_bounds_every_hand_below_the_minimum() -> None:
    assert bid_evidence(_obs([[1, 0], [2, 0], [3, 0]])) == [
        (1, 0, 250), (2, 0, 250), (3, 0, 250)]


def test_violation_counts_bid_units_beyond_the_slack() -> None:
    ev = [(1, 300, 0), (2, 0, 260)]
    assert violation({1: 300, 2: 250}, ev, 20) == 0
    assert violation({1: 280, 2: 279}, ev, 20) == 0  # both within the slack
    assert violation({1: 250, 2: 250}, ev, 20) == 30  # 300 bid on a 250 hand
    assert violation({1: 300, 2: 300}, ev, 20) == 21  # passed at 260 with a 300 hand


def test_hand_limit_is_the_normal_computers_limit() -> None:
    spec = get_game("pinochle4")
    normal = HeuristicPlayer("normal")
    for seed in range(20):
        st = spec.new_game(spec.options({}), seed)
        obs = st.observation(st.current_player)
        hand = mask_of(obs["hand"])
        assert hand_limit(hand, 4, 4, True, 1) == normal.bid_limit(obs)


def _after_bidding(name: str, seed: int) -> PinochleState:
    spec = get_game(name)
    st = spec.new_game(spec.options({}), seed)
    assert isinstance(st, PinochleState)
    players = [make_player("normal", s) for s in range(st.num_players)]
    rng = random.Random(seed)
    while st.observation(0)["phase"] == "bidding":
        s = st.current_player
        st.apply(players[s].choose(st.observation(s), st.legal_actions(), rng))
    return st


@pytest.mark.parametrize(("name", "seed"), [("pinochle4", 44), ("pinochle4", 92),
                                            ("pinochle3", 3)])
def test_worlds_follow_the_auction(name: str, seed: int) -> None:
    """A seat that bid high gets stronger hands in the sampled worlds, one that passed
    weaker ones, and every world still fits the observation."""
    st = _after_bidding(name, seed)
    me = 0
    obs = st.observation(me)
    evidence = bid_evidence(obs)
    assert evidence and any(made for _, made, _ in evidence)
    n = st.num_players

    def limit(hand: int) -> int:
        return hand_limit(hand, n, obs["options"].get("passing", 0), True, 1)

    def mean_limits(infer: bool) -> dict[int, float]:
        dealer = Dealer(obs, infer_bids=infer)
        rng = random.Random(7)
        seen: dict[int, list[int]] = {p: [] for p, _, _ in evidence}
        for _ in range(200):
            hands, _ = dealer.deal(rng)
            assert hands[me] == st.hands[me]
            assert sum(h.bit_count() for h in hands) == sum(h.bit_count() for h in st.hands)
            for p in seen:
                seen[p].append(limit(hands[p]))
        return {p: statistics.mean(v) for p, v in seen.items()}

    blind, informed = mean_limits(False), mean_limits(True)
    for p, made, declined in evidence:
        true = limit(st.hands[p])
        assert abs(informed[p] - true) < abs(blind[p] - true), (p, blind, informed, true)
        if made:
            assert informed[p] > blind[p] + 20
        if declined and not made:
            assert informed[p] < blind[p]


def test_auction_check_scores_the_true_deal_as_fitting() -> None:
    """Normal computers bid by the normal limit, so the real deal fits their auction."""
    for seed in (44, 92, 5, 6):
        st = _after_bidding("pinochle4", seed)
        check = AuctionCheck(st.observation(0))
        assert check.violation([*st.hands, 0, 0, 0]) == 0


def test_expert_bidding_deals_fit_partners_bid() -> None:
    """While bidding, the expert's sampled deals give a partner who bid more strength."""
    spec = get_game("pinochle4")
    for seed in range(60):
        st = spec.new_game(spec.options({}), seed)
        normal = make_player("normal")
        rng = random.Random(seed)
        while st.current_player != 3 or not st.observation(3)["bids"]:
            s = st.current_player
            st.apply(normal.choose(st.observation(s), st.legal_actions(), rng))
        obs = st.observation(3)
        if obs["phase"] != "bidding" or not any(s == 1 and a for s, a in obs["bids"]):
            continue
        check = AuctionCheck(obs)
        fits = [ExpertPlayer._bidding_deal(obs, random.Random(i), check)
                for i in range(40)]
        blind = [ExpertPlayer._bidding_deal(obs, random.Random(i), None) for i in range(40)]
        informed_partner = statistics.mean(hand_limit(h[1], 4, 4, True, 1) for h in fits)
        blind_partner = statistics.mean(hand_limit(h[1], 4, 4, True, 1) for h in blind)
        assert informed_partner > blind_partner
        assert sum(check.violation(h) for h in fits) < sum(check.violation(h) for h in blind)
        return
    pytest.fail("no deal in which seat 1 bids before seat 3")
