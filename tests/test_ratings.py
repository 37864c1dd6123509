"""Rating updates (openskill Plackett–Luce) checked against the library itself, the
stand-in weight, the leaver's loss, and the Bradley–Terry fit of the computer levels.

Every expected value is computed here through openskill's public API from its own
defaults — ``PlackettLuce()`` with no argument, ratings made by ``model.rating(mu, sigma)``
and results given as openskill ranks or scores — not through ``cardplaza.core.ratings``."""

from __future__ import annotations

import math

import pytest
from openskill.models import PlackettLuce

from cardplaza.core.computers import load_table
from cardplaza.core.ratings import (
    BETA,
    MIN_WEIGHT,
    MU,
    SIGMA,
    Rating,
    SeatResult,
    display,
    places,
    rate_game,
)
from cardplaza.core.strengths import fit, to_rating

BEFORE = {"ann": Rating(27.0, 6.0), "ben": Rating(22.5, 7.5), "cai": Rating(30.0, 3.0),
          "dee": Rating(25.0, 8.0)}


def _lib(name: str) -> object:
    return PlackettLuce().rating(mu=BEFORE[name].mu, sigma=BEFORE[name].sigma)


def _close(got: Rating, mu: float, sigma: float) -> None:
    assert got.mu == pytest.approx(mu, abs=1e-9)
    assert got.sigma == pytest.approx(sigma, abs=1e-9)


def test_our_constants_are_openskills_defaults() -> None:
    m = PlackettLuce()
    assert (m.mu, m.sigma, m.beta) == (MU, SIGMA, BETA)


def test_two_against_two_matches_openskill() -> None:
    """Partners ann (seat 0) and cai (seat 2) beat ben and dee: one result for each side."""
    seats = [SeatResult("ann", 0, 1), SeatResult("ben", 1, 2), SeatResult("cai", 0, 1),
             SeatResult("dee", 1, 2)]
    got = {u.player: u.after for u in rate_game(seats, BEFORE)}
    lib = PlackettLuce()
    a, b, c, d = (_lib(n) for n in ("ann", "ben", "cai", "dee"))
    [[a2, c2], [b2, d2]] = lib.rate([[a, c], [b, d]], ranks=[1, 2])  # type: ignore[list-item]
    for name, r in (("ann", a2), ("cai", c2), ("ben", b2), ("dee", d2)):
        _close(got[name], r.mu, r.sigma)
    assert got["ann"].mu > BEFORE["ann"].mu and got["ben"].mu < BEFORE["ben"].mu


def test_three_player_cut_throat_matches_openskill_scores() -> None:
    """Scores 120, 310, 250: openskill ranks them from its ``scores`` argument itself."""
    scores = [120.0, 310.0, 250.0]
    ranks = places(scores, [1], [0, 1, 2])
    assert ranks == [3, 1, 2]
    seats = [SeatResult(n, i, ranks[i]) for i, n in enumerate(("ann", "ben", "cai"))]
    got = {u.player: u.after for u in rate_game(seats, BEFORE)}
    lib = PlackettLuce()
    out = lib.rate([[_lib("ann")], [_lib("ben")], [_lib("cai")]], scores=scores)  # type: ignore[list-item]
    for name, [r] in zip(("ann", "ben", "cai"), out, strict=True):
        _close(got[name], r.mu, r.sigma)


def test_a_stand_in_share_scales_the_change_both_ways() -> None:
    base = [SeatResult("ann", 0, 1), SeatResult("ben", 1, 2)]
    full = {u.player: u.after for u in rate_game(base, BEFORE)}
    half = [SeatResult("ann", 0, 1, standin_share=0.5), SeatResult("ben", 1, 2,
                                                                   standin_share=0.25)]
    got = {u.player: u for u in rate_game(half, BEFORE)}
    for name, w in (("ann", 0.5), ("ben", 0.75)):
        assert got[name].weight == w
        step = full[name].mu - BEFORE[name].mu
        assert got[name].after.mu - BEFORE[name].mu == pytest.approx(w * step, abs=1e-12)
        shrink = full[name].sigma ** 2 - BEFORE[name].sigma ** 2
        assert got[name].after.sigma ** 2 - BEFORE[name].sigma ** 2 == pytest.approx(
            w * shrink, abs=1e-12)
    # The winner gains less and the loser loses less than with full weight.
    assert BEFORE["ann"].mu < got["ann"].after.mu < full["ann"].mu
    assert full["ben"].mu < got["ben"].after.mu < BEFORE["ben"].mu
    # A seat a computer played throughout still counts a little (never zero or negative).
    [only] = rate_game([SeatResult("ann", 0, 1, standin_share=1.0),
                        SeatResult(None, 1, 2, fixed=Rating(25, 1))], BEFORE)
    assert only.weight == MIN_WEIGHT


def test_a_leaver_loses_even_when_the_side_scored_more() -> None:
    """ann's side won on points, but ann left: her side is ranked last, she loses in full
    (her stand-in share does not soften it), her partner cai loses with her."""
    seats = [SeatResult("ann", 0, 1, standin_share=0.6, left=True), SeatResult("ben", 1, 2),
             SeatResult("cai", 0, 1), SeatResult("dee", 1, 2)]
    got = {u.player: u for u in rate_game(seats, BEFORE)}
    lib = PlackettLuce()
    a, b, c, d = (_lib(n) for n in ("ann", "ben", "cai", "dee"))
    [[a2, c2], [b2, d2]] = lib.rate([[a, c], [b, d]], ranks=[2, 1])  # type: ignore[list-item]
    for name, r in (("ann", a2), ("cai", c2), ("ben", b2), ("dee", d2)):
        _close(got[name].after, r.mu, r.sigma)
    assert got["ann"].weight == 1.0 and got["ann"].after.mu < BEFORE["ann"].mu
    assert got["ann"].rank == 3


def test_computers_take_part_at_their_fixed_rating_and_are_not_updated() -> None:
    cpu = Rating(28.0, 1.0)
    seats = [SeatResult("ann", 0, 2), SeatResult(None, 1, 1, fixed=cpu)]
    ups = rate_game(seats, BEFORE)
    assert [u.player for u in ups] == ["ann"]
    lib = PlackettLuce()
    [[a2], _] = lib.rate([[_lib("ann")], [lib.rating(mu=28.0, sigma=1.0)]], ranks=[2, 1])  # type: ignore[list-item]
    _close(ups[0].after, a2.mu, a2.sigma)


def test_shown_value_is_the_scaled_conservative_estimate() -> None:
    assert display(Rating()) == 1000
    assert display(Rating(35.0, 2.0)) == 1000 + 40 * 29
    assert display(Rating(20.0, 8.0)) < display(Rating(20.0, 4.0))


def test_places_put_winners_first_then_scores() -> None:
    # A bidder's side may win with fewer points: winners come first.
    assert places([100, 300, 100, 300], [0, 2], [0, 1, 0, 1]) == [1, 2, 1, 2]
    assert places([5, 5, 1], [0, 1], [0, 1, 2]) == [1, 1, 2]


# -- the computers' fixed ratings ------------------------------------------------------------

def test_bradley_terry_fit_recovers_known_strengths() -> None:
    """Win counts drawn from exact Bradley–Terry probabilities give back the strengths."""
    true = {"a": -1.0, "b": 0.0, "c": 1.0}
    n = 100_000
    pairs = []
    for x, y in (("a", "b"), ("a", "c"), ("b", "c")):
        p = 1 / (1 + math.exp(true[y] - true[x]))
        pairs.append({"a": x, "b": y, "wins": round(n * p), "draws": 0,
                      "losses": n - round(n * p)})
    got = fit(list(true), pairs)
    for k, v in true.items():
        assert got[k].theta == pytest.approx(v, abs=0.01)
        assert 0 < got[k].se < 0.02 and got[k].low < v < got[k].high


def test_fixed_ratings_reproduce_from_their_arena_table() -> None:
    """Fit every game's stored pair table again: the same strengths, intervals and
    ratings as published."""
    games = load_table()["games"]
    assert games, "the package has no calibration table"
    for game, entry in games.items():
        again = fit(entry["levels"], entry["pairs"])
        for level, s in again.items():
            stored = entry["strengths"][level]
            assert (s.theta, s.se) == (stored["theta"], stored["se"]), (game, level)
            assert (round(s.low, 6), round(s.high, 6)) == (stored["low"], stored["high"])
            r = to_rating(s)
            assert (r.mu, r.sigma) == (entry["ratings"][level]["mu"],
                                       entry["ratings"][level]["sigma"])
            assert entry["ratings"][level]["display"] == display(r)
        assert entry["command"].startswith(f"cardplaza arena {game} ")
        assert "--calibrate" in entry["command"]
        assert f"--deals {entry['deals']} " in entry["command"]
