"""The compiled E-fuda-tori kernels give exactly the numbers of the Python reference."""

from __future__ import annotations

import random

import numpy as np
import pytest

from cardplaza.core.bench import random_steps
from cardplaza.games.efudatori import SPEC, EfudatoriState, Options, kernels
from cardplaza.games.efudatori import players as ep
from cardplaza.games.efudatori.players import MaxNSolver, end_position, play_orders
from cardplaza.games.efudatori.search import SplitMix64, playout_values, shuffle_stock
from cardplaza.games.efudatori.worlds import HiddenDeals


def test_splitmix_stream_and_shuffle_are_the_same() -> None:
    """The generator and the stock shuffle draw the same numbers in both forms."""
    py = SplitMix64(2**63 - 25)
    state = np.array([2**63 - 25], dtype=np.uint64)
    assert [py.next() for _ in range(50)] == [int(kernels.KERNELS.splitmix_next(state))
                                              for _ in range(50)]
    stock = list(range(30))
    arr = np.arange(30, dtype=np.int64)
    state = np.array([99], dtype=np.uint64)
    shuffle_stock(stock, SplitMix64(99))
    kernels.KERNELS.shuffle(arr, 30, state)
    assert arr.tolist() == stock


def _position(seed: int) -> EfudatoriState:
    n = (2, 3, 4, 5, 6, 7)[seed % 6]
    s = EfudatoriState(Options(players=n, simple_scoring=seed % 5 == 0), seed)
    random_steps(s, random.Random(seed), random.Random(seed).randrange(0, 50))
    return s


@pytest.mark.parametrize("block", range(4))
def test_playouts_through_the_stock_match(block: int) -> None:
    """Seeded heuristic play-outs (2–7 players, simple and set scoring, several stock
    orders from one SplitMix64 seed) give the same margins compiled and in Python."""
    checked = 0
    for seed in range(block * 40, block * 40 + 40):
        s = _position(seed)
        if s.is_terminal:
            continue
        obs = s.observation(s.current_player)
        rng = random.Random(seed)
        deals = HiddenDeals(obs)
        worlds = [deals.sample(rng) for _ in range(4)]
        hands = [h for h, _s in worlds]
        stocks = [st for _h, st in worlds]
        cards = list(s.legal_actions())
        n, total = obs["players"], obs["tricks_total"]
        simple = obs["simple_scoring"]
        trick = [c for _, c in obs["trick"]]
        args = (s.leader, s.trick_number)
        want = playout_values(hands, stocks, 3, trick, *args, list(s.captured), cards,
                              s.current_player, n, total, simple, seed)
        got = kernels.KERNELS.playout_values(
            np.array(hands, dtype=np.int64),
            np.array(stocks, dtype=np.int64).reshape(len(stocks), -1), 3,
            np.array(trick, dtype=np.int64), *args, np.array(s.captured, dtype=np.int64),
            np.array(cards, dtype=np.int64), s.current_player, n, total, int(simple), seed)
        assert got.tolist() == want
        checked += 1
    assert checked >= 30


def test_hidden_deals_are_the_worlds_of_sample_world() -> None:
    """HiddenDeals draws the hands and stock that sample_world deals from the same RNG."""
    for seed in range(60):
        s = _position(seed)
        if s.is_terminal:
            continue
        obs = s.observation(s.current_player)
        a, b = random.Random(seed), random.Random(seed)
        deals = HiddenDeals(obs)
        for _ in range(3):
            world = SPEC.sample_world(obs, a)
            assert isinstance(world, EfudatoriState)
            assert deals.sample(b) == (world.hands, world.stock)


def test_end_solver_matches_values() -> None:
    """The compiled max-n end solver returns the Python solver's root values."""
    checked = 0
    for seed in range(400):
        s = _position(seed)
        if s.is_terminal or s.stock or play_orders([h.bit_count() for h in s.hands]) > 5000:
            continue
        cards = list(s.legal_actions())
        n = s.num_players
        want = MaxNSolver(n, s.tricks_total, s.options.simple_scoring).root_values(
            end_position(s), cards, s.current_player)
        got = kernels.KERNELS.solve_end(np.array(s.hands, dtype=np.int64),
                                np.array(s.trick, dtype=np.int64), s.leader, s.trick_number,
                                np.array(s.captured, dtype=np.int64),
                                np.array(cards, dtype=np.int64), s.current_player, n,
                                s.tricks_total, int(s.options.simple_scoring))
        assert got.tolist() == [want[c] for c in cards]
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize("level", ["3", "4", "expert"])
def test_compiled_and_python_searches_decide_alike(level: str) -> None:
    """Every search level decides the same with the kernels as with the Python reference
    (same RNG draws, same values), stock orders and the exact end included."""
    for seed in range(30):
        s = _position(seed)
        if s.is_terminal:
            continue
        obs, legal = s.observation(s.current_player), s.legal_actions()
        picks = []
        for compiled in (False, True):
            player = ep.make_player(level)
            assert isinstance(player, ep.SearchPlayer)
            player.compiled = compiled
            if level == "expert":
                player.sims, player.min_worlds, player.max_worlds = 60, 10, 20
                player.exact_worlds, player.cpu_seconds = 4, None
            picks.append((player.choose(obs, legal, random.Random(seed)), player.last_stats))
        assert picks[0] == picks[1]


def test_bench_reports_the_kernel_beside_the_reference() -> None:
    """``cardplaza bench efudatori`` reports search play-outs/s, the Python reference's
    rate measured in the same run, and the ratio of the two."""
    from cardplaza.games.efudatori.search_bench import search_benchmarks

    figures = search_benchmarks()
    assert figures["search play-outs/s"] > figures["search play-outs/s (Python reference)"]
    assert figures["search play-outs speed-up"] > 1


def test_evaluate_actions_gives_every_card_per_world() -> None:
    """``evaluate_actions`` returns each legal card's margin in every sampled world, and
    level 4's choice has the best total."""
    checked = 0
    for seed in range(40):
        s = _position(seed)
        if s.is_terminal or len(s.legal_actions()) < 2:
            continue
        obs, legal = s.observation(s.current_player), s.legal_actions()
        ev = ep.evaluate_actions(obs, legal, random.Random(seed), "4")
        assert ev is not None
        assert ev.actions == list(legal)
        assert len({len(v) for v in ev.values}) == 1 and ev.values[0]
        choice = ep.make_player("4").choose(obs, legal, random.Random(seed))
        means = ev.means()
        assert means[choice] >= max(means.values()) - 1e-9
        checked += 1
    assert checked >= 10
