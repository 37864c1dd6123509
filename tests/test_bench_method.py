"""The benchmark's method: deals (not games, not redeals), paired rounds, the stopping rule."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from cardplaza.core.bench import (
    DEALS_KEY,
    GAMES_KEY,
    Counts,
    RandomDeals,
    Ratio,
    compare,
    engine_benchmarks,
    t975,
)
from cardplaza.core.registry import get_game, new_game
from cardplaza.games.pinochle4.engine import CutthroatOptions, Options, PinochleState


class Fake(Counts):
    """A sampler whose rounds give the rates of a script (deals per CPU second)."""

    def __init__(self, rates: list[float]) -> None:
        super().__init__()
        self.rates = rates
        self.calls = 0

    def run(self, seconds: float) -> None:
        rate = self.rates[self.calls % len(self.rates)]
        self.calls += 1
        self.deals += round(rate * seconds)
        self.cpu += seconds


def test_steady_rates_stop_after_the_minimum_rounds_with_the_exact_ratio() -> None:
    a, b = Fake([3000.0]), Fake([2000.0])
    result = compare({"a": a, "b": b}, [("a", "b")], round_seconds=1.0, min_rounds=4)
    assert result.converged and result.rounds == 4
    assert result.ratios[0].value == pytest.approx(1.5)
    assert result.ratios[0].interval() == pytest.approx((1.5, 1.5))
    assert a.calls == b.calls == 4


def test_noisy_ratios_run_to_the_round_cap_and_say_so() -> None:
    # Ratios 1.2 and 0.8 in turn: the interval stays far wider than ±5%.
    a, b = Fake([1200.0, 800.0]), Fake([1000.0])
    result = compare({"a": a, "b": b}, [("a", "b")], round_seconds=1.0, max_rounds=9,
                     max_seconds=1e9)
    assert not result.converged and result.rounds == 9
    assert not result.ratios[0].within(0.05)
    assert result.figures()["converged"] is False


def test_the_time_cap_stops_the_rounds() -> None:
    a, b = Fake([1200.0, 800.0]), Fake([1000.0])
    result = compare({"a": a, "b": b}, [("a", "b")], round_seconds=1.0, max_rounds=1000,
                     max_seconds=10.0)
    assert result.rounds == 5 and not result.converged  # 2 CPU s a round


def test_a_little_noise_converges_once_the_interval_is_narrow() -> None:
    rng = random.Random(5)
    noisy = [1000.0 * math.exp(rng.gauss(0, 0.06)) for _ in range(200)]
    a, b = Fake(noisy), Fake([1000.0])
    result = compare({"a": a, "b": b}, [("a", "b")], round_seconds=1.0, max_rounds=200,
                     max_seconds=1e9)
    assert result.converged and 5 <= result.rounds < 200
    lo, hi = result.ratios[0].interval()
    value = result.ratios[0].value
    assert hi <= value * 1.05 and lo >= value * 0.95
    # One round fewer was not yet within ±5% (or below the minimum of rounds).
    shorter = Ratio("a", "b", result.ratios[0].per_round[:-1])
    assert result.rounds == 5 or not shorter.within(0.05)


def test_interval_is_students_t_over_the_log_ratios() -> None:
    r = Ratio("a", "b", [1.1, 0.9, 1.0, 1.2])
    logs = [math.log(x) for x in r.per_round]
    half = 3.182 * statistics.stdev(logs) / 2
    lo, hi = r.interval()
    assert lo == pytest.approx(math.exp(statistics.fmean(logs) - half))
    assert hi == pytest.approx(math.exp(statistics.fmean(logs) + half))
    assert t975(1) == pytest.approx(12.706) and t975(30) == pytest.approx(2.042)
    assert t975(60) == pytest.approx(2.000, abs=2e-3)
    assert t975(1000) == pytest.approx(1.962, abs=2e-3)


def test_rounds_rotate_the_order_of_the_contenders() -> None:
    order: list[str] = []

    class Named(Fake):
        def __init__(self, name: str) -> None:
            super().__init__([1000.0])
            self.name = name

        def run(self, seconds: float) -> None:
            order.append(self.name)
            super().run(seconds)

    samplers = {n: Named(n) for n in "abc"}
    compare(samplers, [("a", "b"), ("c", "b")], round_seconds=1.0, min_rounds=3)
    assert order == list("abcbcacab")


def test_a_deal_is_the_first_deal_of_a_fresh_game_and_the_next_is_never_dealt() -> None:
    deals = RandomDeals(get_game("pinochle4"))
    for _ in range(5):
        state = deals.play()
        assert isinstance(state, PinochleState)
        assert state.is_terminal and state.hand_no == 1 and len(state.log) == 1
        assert state.log[0]["throw_in"] or not any(state.hands)  # every card played
    assert deals.deals == 5 and deals.redeals == 0


def test_redealt_deals_are_counted_apart_not_as_deals() -> None:
    spec = get_game("pinochle4")
    deals = RandomDeals(spec, Options(all_pass_redeal=True), seed=11)
    redealt = 0
    for _ in range(120):
        state = deals.play()
        assert isinstance(state, PinochleState)
        redealt += state.log[0]["redeal"]
        if state.log[0]["redeal"]:  # four passes: no bidder, no play
            assert state.bidder == -1 and not state.tricks
    assert redealt > 0  # random passing: a redeal is 1 in 16
    assert deals.redeals == redealt and deals.deals == 120 - redealt


def test_deal_limit_stops_before_the_next_deal_and_changes_no_deal() -> None:
    rng = random.Random(3)
    free = new_game("pinochle3", CutthroatOptions(), 42)
    limited = new_game("pinochle3", CutthroatOptions(), 42)
    limited.deal_limit = 2
    assert isinstance(free, PinochleState) and isinstance(limited, PinochleState)
    while not limited.is_terminal:
        action = rng.choice(limited.legal_actions())
        limited.apply(action)
        free.apply(action)
        if limited.hand_no == 2 and not limited.bids:  # the second deal just dealt
            assert limited.hands == free.hands
    assert limited.hand_no == 2 and len(limited.log) == 2
    assert free.hand_no == 3 and not free.is_terminal  # the rules deal a third hand
    assert limited.scores == free.scores
    best = max(limited.scores)
    tops = [s for s in range(3) if limited.scores[s] == best]
    assert limited.winners() == (tuple(tops) if len(tops) == 1 else (0, 1, 2))


def test_piquet_deal_limit_ends_the_partie_by_the_difference() -> None:
    state = new_game("piquet", None, 7)
    state.deal_limit = 1
    rng = random.Random(1)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    a, b = state.totals  # type: ignore[attr-defined]
    assert state.deal_number == 1  # type: ignore[attr-defined]
    assert state.returns() == (float(a - b), float(b - a))


def test_engine_benchmark_keys() -> None:
    figures = engine_benchmarks(get_game("pinochle3"), None, seconds=0.05)
    assert set(figures) == {GAMES_KEY, DEALS_KEY, "legal_actions()/s", "clone()/s"}
    assert all(v > 0 for v in figures.values())
    assert figures[DEALS_KEY] > figures[GAMES_KEY]  # a game to 1500 has many deals
