"""The generic advice pieces: marks, shares, ranking, hints on the tiny test game."""

from __future__ import annotations

import random

import pytest
from cp_tinygame import SPEC, Options, TinyState

from cardplaza.ai.advice import (
    Choice,
    Effort,
    Evaluation,
    SampledAdvisor,
    Thresholds,
    build_choices,
    comparison,
    hint,
    ranked,
    seed_for,
    shares,
    timing,
)
from cardplaza.core.bench import random_steps


def test_marks_follow_the_thresholds() -> None:
    t = Thresholds(5, 15, 30, 0.1, 0.2, 0.4)
    assert [t.mark(x) for x in (0, 4.99, 5, 14.9, 15, 29.9, 30, 300)] == [
        "good", "good", "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]
    assert [t.mark(x, "chance") for x in (0.05, 0.1, 0.25, 0.5)] == [
        "good", "inaccuracy", "mistake", "blunder"]


def test_shares_split_ties_and_sum_to_one() -> None:
    rows = [[1.0, 1.0, 0.0], [0.0, 2.0, 1.0], [5.0, 0.0, 0.0], [0.0, 0.0, 3.0]]
    sh = shares(rows)
    assert sh == [0.375, 0.375, 0.25]
    assert sum(sh) == pytest.approx(1.0)


def test_ranked_keeps_the_experts_tie_break_and_group() -> None:
    choices = build_choices(["a", "b", "c"], [[1.0, 3.0, 3.0], [1.0, 3.0, 3.0]],
                            {"c": ("c2",)})
    ordered, best = ranked(choices, "c2")
    assert best == "c2" and ordered[0].action == "c2" and "c" in ordered[0].same
    assert [c.value for c in ordered] == [3.0, 3.0, 1.0]
    # A preference worse than the top by more than the tolerance does not stand.
    ordered, best = ranked(build_choices(["a", "b"], [[1.0, 2.0]]), "a")
    assert best == "b"
    ordered, best = ranked(build_choices(["a", "b"], [[1.0, 2.0]]), "a",
                           tolerance=float("inf"))
    assert best == "a"


def test_loss_is_measured_against_the_best_choice() -> None:
    from cardplaza.ai.advice import Evaluation

    ev = Evaluation("play", "points", [Choice("x", 10.0, same=("x2",)), Choice("y", 4.0),
                                       Choice("z", None)], "x")
    assert ev.loss("y") == 6.0 and ev.loss("x2") == 0.0 and ev.loss("z") is None
    assert ev.loss("w") is None


def test_seed_depends_only_on_the_observation() -> None:
    a = {"seat": 0, "hand": [1, 2]}
    assert seed_for(a) == seed_for({"hand": [1, 2], "seat": 0})
    assert seed_for(a) != seed_for({"seat": 0, "hand": [1, 3]})


def test_timing_median_and_p95() -> None:
    out = timing([float(x) for x in range(1, 101)])
    assert out["median"] == 50.5 and out["p95"] == 95.0 and out["count"] == 100


def test_sampled_advisor_on_a_game_without_its_own() -> None:
    state = TinyState(Options(4), 3)
    random_steps(state, random.Random(3), 1)
    seat = state.current_player
    obs = state.observation(seat)
    legal = state.legal_actions()
    h = hint(SPEC, obs, legal, seed=5, effort=Effort(0.5))
    assert h.best in legal
    assert h.evaluation.worlds == 20
    assert {c.action for c in h.evaluation.choices} == set(legal)
    again = hint(SPEC, obs, legal, seed=5, effort=Effort(0.5))
    assert [c.value for c in again.evaluation.choices] == [
        c.value for c in h.evaluation.choices]
    assert h.reason["en"] and h.reason["ja"]
    assert isinstance(SampledAdvisor(SPEC).thresholds_for(obs), Thresholds)


def test_effort_clock_stops_after_the_minimum() -> None:
    e = Effort(1.0, seconds=0.0)
    assert e.more(0, 2) and e.more(1, 2) and not e.more(2, 2)
    assert Effort(2.0).worlds(10) == 20 and Effort(0.01).worlds(10, 3) == 3
    with pytest.raises(ValueError):
        Effort(0)


@pytest.mark.parametrize(("gap", "said"), [(1.0, "1 point less"), (1.04, "1 point less"),
                                           (0.5, "0.5 points less"), (2.0, "2 points less")])
def test_the_next_best_comparison_counts_its_points(gap: float, said: str) -> None:
    ev = Evaluation("play", "points", [Choice(1, 3.0), Choice(2, 3.0 - gap)], best=1)
    reason = comparison(ev, lambda a: f"card {a}")
    assert reason["en"] == f"The next best, card 2, scores on average {said}."
    assert reason["ja"].endswith("点少なくなります。")
