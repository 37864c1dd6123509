"""The ``cardplaza`` command end to end (Typer's runner, no subprocess)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardplaza.cli.main import app
from cardplaza.core.history import GameRecord
from cardplaza.core.registry import games, new_game

runner = CliRunner()
GAMES = list(games())


def test_games_lists_every_game_and_option() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0, result.output
    for name, spec in games().items():
        assert name in result.output
        assert spec.title in result.output


@pytest.mark.parametrize("game", GAMES)
def test_bench_json_reports_rates(game: str) -> None:
    # Each measurement runs at least once whatever the budget (a whole game, a thousand
    # fresh positions): a short one reports every figure as a long one does.
    result = runner.invoke(app, ["bench", game, "--json", "--seconds", "0.02"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["game"] == game
    for key in ("random full games/s", "legal_actions()/s", "clone()/s"):
        assert figures[key] > 0


def test_unknown_game_is_a_clear_error() -> None:
    result = runner.invoke(app, ["bench", "bridge"])
    assert result.exit_code != 0
    assert "unknown game" in result.output


def test_bad_option_is_a_clear_error() -> None:
    result = runner.invoke(app, ["play", GAMES[0], "--options", "no_such_option=1"])
    assert result.exit_code != 0
    assert "unknown option" in result.output


@pytest.mark.parametrize("game", GAMES)
def test_replay_prints_every_step(game: str, tmp_path: Path) -> None:
    # The double-deck game to its least target: a whole game still (14 deals here, where
    # the default target took 23).
    options = games()[game].options({"target": 250}) if game == "pinochle_dd" else None
    state = new_game(game, options, seed=4)
    rng = random.Random(4)
    while not state.is_terminal:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    path = tmp_path / "game.json"
    GameRecord.of(state).save(path)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "Result" in result.output
    assert GameRecord.load(path).final_state().returns() == state.returns()


def test_replay_of_a_broken_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code != 0
    assert "cannot read" in result.output


def test_generic_view_names_the_winners() -> None:
    """The fallback terminal view says who won, not only the scores (a Pinochle double
    finish: the bidders win with the lower score)."""
    import io

    from rich.console import Console

    from cardplaza.cli.view import GenericView
    from cardplaza.core.registry import get_game

    spec = get_game("pinochle4")
    st = spec.new_game(spec.options({"target": 500}), 273)
    rng = random.Random(273)
    while not st.is_terminal:
        st.apply(rng.choice(list(st.legal_actions())))
    out = io.StringIO()
    GenericView(Console(file=out, width=100), 0).show_end(st, st.observation(0))
    assert "Final scores: You 530, Seat 1 570, Seat 2 530, Seat 3 570" in out.getvalue()
    assert "Won by You, Seat 2" in out.getvalue()
