"""Arena: paired deals, reproducibility, workers, ratings, commands (on a tiny game)."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "ai"))

import cp_tinygame

from cardplaza.arena import bradley_terry, run_arena
from cardplaza.arena.commands import arena_command, think_bench, think_bench_command
from cardplaza.arena.core import PairResult, seat_assignments
from cardplaza.core import registry


@pytest.fixture
def tiny(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setitem(registry._GAMES, cp_tinygame.NAME, cp_tinygame.SPEC)
    return cp_tinygame.NAME


def test_seat_assignments_give_every_hand_to_each_player() -> None:
    assert seat_assignments(2) == [(0, 1), (1, 0)]
    three = seat_assignments(3)
    assert len(three) == 6
    for seat in range(3):
        assert sorted(lineup[seat] for lineup in three) == [0, 0, 0, 1, 1, 1]


def test_each_deal_is_played_once_per_seat_assignment(tiny: str) -> None:
    """Two seats: every deal is played twice, with the hands swapped."""
    result = run_arena(tiny, ["1", "random"], deals=4, seed=3)
    pair = result.pairs[0]
    assert pair.deals == 4 and pair.games == 8
    assert pair.wins + pair.draws + pair.losses == 8
    assert len(pair.margins) == 4


def test_arena_is_reproducible_and_independent_of_jobs(tiny: str) -> None:
    seen: list[tuple[int, int]] = []
    one = run_arena(tiny, ["random", "2"], deals=6, seed=11, jobs=1,
                    progress=lambda d, t: seen.append((d, t)))
    again = run_arena(tiny, ["random", "2"], deals=6, seed=11, jobs=1)
    two = run_arena(tiny, ["random", "2"], deals=6, seed=11, jobs=2)
    assert one.pairs[0].margins == again.pairs[0].margins == two.pairs[0].margins
    assert seen[0] == (0, 6) and seen[-1] == (6, 6)


def test_search_beats_random_in_the_tiny_game(tiny: str) -> None:
    result = run_arena(tiny, ["2", "random"], deals=30, seed=0)
    pair = result.pairs[0]
    assert pair.mean_margin > 0
    assert pair.mean_margin - pair.ci95 > 0


def test_three_players_get_ratings_anchored_on_random(tiny: str) -> None:
    result = run_arena(tiny, ["random", "1", "2"], deals=8, seed=1)
    assert len(result.pairs) == 3
    assert result.ratings is not None and result.ratings["random"] == 0.0
    assert result.ratings["2"] > result.ratings["1"] - 200
    data = json.loads(json.dumps(result.to_json()))
    assert data["anchor"] == "random" and len(data["pairs"]) == 3
    assert result.pair("2", "random").mean_margin == -result.pair("random", "2").mean_margin


def test_bradley_terry_orders_by_wins() -> None:
    pairs = [PairResult("a", "b", 10, 10, 5.0, 1.0, 8, 0, 2),
             PairResult("b", "c", 10, 10, 5.0, 1.0, 8, 0, 2),
             PairResult("a", "c", 10, 10, 5.0, 1.0, 9, 0, 1)]
    r = bradley_terry(["a", "b", "c"], pairs, anchor="c")
    assert r["c"] == 0.0 and r["a"] > r["b"] > 0


def test_arena_rejects_bad_requests(tiny: str) -> None:
    with pytest.raises(ValueError, match="unknown level"):
        run_arena(tiny, ["random", "9"], deals=1)
    with pytest.raises(ValueError, match="at least two"):
        run_arena(tiny, ["random"], deals=1)


def test_arena_command_prints_tables_and_writes_json(tiny: str, tmp_path: Path) -> None:
    console = Console(record=True, width=150)
    out = tmp_path / "arena.json"
    arena_command(tiny, "random,1,2", 3, 5, 1, "hand_size=3", str(out), console)
    text = console.export_text()
    assert "Bradley–Terry" in text and "margin (A−B)" in text and "games" in text and "±" in text
    data = json.loads(out.read_text())
    assert data["options"] == {"hand_size": 3} and data["deals"] == 3


def test_think_bench_reports_times_and_simulations(tiny: str) -> None:
    figures = think_bench(tiny, "2", positions=5, seed=2)
    assert figures["positions"] == 5
    assert figures["p95_seconds"] >= figures["median_seconds"] > 0
    assert figures["simulations_per_decision_median"] >= 12
    console = Console(record=True, width=120)
    think_bench_command(tiny, "2", True, console, positions=3)
    assert json.loads(console.export_text())["positions"] == 3


def test_interrupted_arena_keeps_the_completed_deals(tiny: str) -> None:
    calls = []

    def progress(done: int, total: int) -> None:
        calls.append(done)
        if done == 5:
            raise KeyboardInterrupt

    result = run_arena(tiny, ["random", "1"], deals=8, seed=2, progress=progress)
    assert result.interrupted and result.deals == 5
    full = run_arena(tiny, ["random", "1"], deals=8, seed=2)
    assert result.pairs[0].margins == full.pairs[0].margins[:5]


def first_trick_points(state: Any) -> list[float] | None:
    """Test hook: treat the tiny game's first trick as its 'first deal'."""
    if not state.done:
        return None
    _leader, lead, reply, winner = state.done[0]
    points = [0.0, 0.0]
    points[winner] = float(cp_tinygame.POINTS[lead % 4] + cp_tinygame.POINTS[reply % 4])
    return points


def test_unit_deal_stops_each_game_after_its_first_deal(
        tiny: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With unit='deal' the margin is the first deal's points, taken from the game's hook."""
    with pytest.raises(ValueError, match="--unit game"):
        run_arena(tiny, ["1", "random"], deals=2, unit="deal")
    with pytest.raises(ValueError, match="unknown unit"):
        run_arena(tiny, ["1", "random"], deals=2, unit="hand")
    hooks = {**cp_tinygame.SPEC.hooks, "first_deal_returns": f"{__name__}:first_trick_points"}
    monkeypatch.setitem(registry._GAMES, tiny, replace(cp_tinygame.SPEC, hooks=hooks))
    calls: list[int] = []
    real = first_trick_points

    def counting(state: Any) -> list[float] | None:
        calls.append(len(state.done))
        return real(state)

    monkeypatch.setattr(registry, "_HOOKS", {})  # the hook loaded afresh, then dropped
    monkeypatch.setattr(sys.modules[__name__], "first_trick_points", counting)
    deal = run_arena(tiny, ["1", "random"], deals=5, seed=4, unit="deal")
    game = run_arena(tiny, ["1", "random"], deals=5, seed=4)
    assert deal.unit == "deal" and deal.to_json()["unit"] == "deal"
    assert "first deal" in deal.to_json()["margin"]
    # The games stopped at the end of the first trick: the hook never saw a second one.
    assert calls and max(calls) == 1
    # One trick holds at most the two cards' points, far below a whole game's margin.
    first_trick_max = 2 * max(cp_tinygame.POINTS)
    assert all(abs(m) <= first_trick_max for m in deal.pairs[0].margins)
    assert deal.pairs[0].margins != game.pairs[0].margins


def test_wins_follow_the_games_winners_not_the_higher_score(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A Pinochle double finish: the bidders win with fewer points. The margin stays the
    score difference, but the game is counted as the bidders' win."""
    from cardplaza.arena import core

    def double_finish(game: str, options: Any, deal_seed: int, lineup: Any, levels: Any,
                      tag: int, unit: str, sources: Any = None,
                      ) -> tuple[tuple[float, ...], tuple[int, ...]]:
        return (530.0, 570.0, 530.0, 570.0), (0, 2)  # seats 0 and 2 bid and went out

    monkeypatch.setattr(core, "_play", double_finish)
    opts = registry.get_game("pinochle4").options({"target": 500})
    _, _, games = core._play_task(("pinochle4", opts, 0, 0, "weak", "normal", 0, "game", {}))
    # Lineup (A, B, A, B) gives A the winning seats; (B, A, B, A) gives them to B.
    assert games == [(-40.0, 1), (40.0, -1)]
    result = core._summarise("weak", "normal", [games])
    assert (result.wins, result.draws, result.losses, result.mean_margin) == (1, 0, 1, 0.0)
    assert core._outcome(5.0, None, (0, 1)) == 1  # a first deal alone: by its points
    assert core._outcome(0.0, (0, 1), (0, 1)) == 0  # both hold a winning seat: a draw
