"""Streak bookkeeping beyond the worked examples: T-25 persistence form and T-27."""

from __future__ import annotations

from cardplaza.games.pinochle2.streak import Streak


def test_fixed_practice_level_changes_nothing() -> None:
    """T-27: games at an explicitly chosen level change neither streak nor scores."""
    s = Streak(streak=2, margin_sum=235, best=20_235)
    assert s.record_result(400, 100, level_option="3") == "win"
    assert s.record_result(100, 400, level_option="1") == "loss"
    assert s == Streak(streak=2, margin_sum=235, best=20_235)
    assert s.level("2") == 2 and s.level() == 3


def test_round_trip_and_defaults() -> None:
    """T-25: the streak persists as a plain dict; missing keys default to zero."""
    s = Streak()
    s.record_result(380, 230)
    assert s.to_dict() == {"streak": 1, "margin_sum": 150, "best": 10_150}
    assert Streak.from_dict(s.to_dict()) == s
    assert Streak.from_dict({}) == Streak()


def test_loss_keeps_best_and_new_between_games() -> None:
    """10.3/T-23: a loss resets s and m but keeps the best; New between games too."""
    s = Streak()
    s.record_result(300, 200)
    s.record_result(250, 300)
    assert (s.streak, s.margin_sum, s.best, s.saved_score) == (0, 0, 10_100, 0)
    s.record_result(300, 290)
    s.new()
    assert (s.streak, s.margin_sum, s.best) == (0, 0, 10_100)
