"""Statistics: results of finished games, the summary per player and game, ``cardplaza
stats``."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from cardplaza.cli.main import app
from cardplaza.core.registry import get_game
from cardplaza.core.results import GameResult, ResultLog, opponents_of, result_of, summarize


def _finished(game: str, seed: int, options: object = None):  # type: ignore[no-untyped-def]
    state = get_game(game).new_game(options, seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def test_partners_are_not_opponents() -> None:
    assert opponents_of("pinochle4", 0, 4) == [1, 3]
    assert opponents_of("efudatori", 0, 4) == [1, 2, 3]


def test_result_of_a_finished_game_counts_win_loss_and_margin() -> None:
    state = _finished("pinochle2", 3)
    a = result_of(state, 0, "k", "Ann", "3", 1.0)
    b = result_of(state, 1, "c", "CPU", "3", 1.0)
    assert a.margin == -b.margin == state.returns()[0] - state.returns()[1]
    assert {a.outcome, b.outcome} in ({"win", "loss"}, {"draw"})
    four = _finished("pinochle4", 2, get_game("pinochle4").options({"target": 500}))
    r = [result_of(four, s, "k", "A", "x", 1.0) for s in range(4)]
    assert r[0].outcome == r[2].outcome != r[1].outcome == r[3].outcome
    assert r[0].margin == r[2].margin == -r[1].margin


def test_summary_per_player_and_game(tmp_path: Path) -> None:
    log = ResultLog(tmp_path / "r.jsonl")
    for i, (outcome, margin, level) in enumerate([("win", 20.0, "3"), ("loss", -10.0, "3"),
                                                  ("win", 50.0, "5"), ("draw", 0.0, "5")]):
        log.add(GameResult("k", "Ann", "pinochle2", level, outcome, margin, 100.0 + margin,
                           float(i)))
    log.add(GameResult("z", "Zoe", "piquet", "expert", "loss", -30.0, -30.0, 9.0))
    (tmp_path / "r.jsonl").open("a").write("not json\n")
    rows = summarize(log.results())
    ann = next(r for r in rows if r["player"] == "k")
    assert (ann["played"], ann["won"], ann["lost"], ann["drawn"]) == (4, 2, 1, 1)
    assert ann["average_margin"] == 15.0
    assert ann["best"]["3"]["margin"] == 20.0 and ann["best"]["5"]["margin"] == 50.0
    assert [r["player"] for r in summarize(log.results(), "z")] == ["z"]


def test_stats_command_reads_the_terminal_results(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    ResultLog(path).add(GameResult("me", "me", "efudatori", "2", "win", 15.0, 40.0, 1.0))
    runner = CliRunner()
    out = runner.invoke(app, ["stats", "--results-file", str(path), "--json"])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.output)["stats"]
    assert rows[0]["won"] == 1 and rows[0]["game"] == "efudatori"
    out = runner.invoke(app, ["stats", "--results-file", str(path)])
    assert "efudatori" in out.output and "2: +15" in out.output
    empty = runner.invoke(app, ["stats", "--results-file", str(tmp_path / "none.jsonl")])
    assert "No finished games yet" in empty.output


def test_terminal_series_counts_finished_games(tmp_path: Path) -> None:
    import io

    from cardplaza.cli.style import make_console
    from cardplaza.cli.terminal import play_series

    path = tmp_path / "r.jsonl"
    answers = iter(["n"])

    def read(prompt: str) -> str:
        if "again" in prompt:
            return next(answers)
        return "#1"

    play_series("efudatori", None, 5, "1", make_console(file=io.StringIO()), read,
                results=path)
    (r,) = ResultLog(path).results()
    assert r.game == "efudatori" and r.level == "1"


def test_a_game_played_with_hints_is_marked(tmp_path: Path) -> None:
    """A game in which the player asked for a hint is counted as such and its best result
    marked, in both languages; a game played without is not."""
    import io

    from rich.console import Console

    from cardplaza.cli.stats import record_session
    from cardplaza.cli.terminal import Session
    from cardplaza.texts.catalog import text

    path = tmp_path / "r.jsonl"
    spec = get_game("efudatori")
    for level, asked in (("1", True), ("2", False)):
        answers = iter((["hint"] if asked else []) + ["#1"] * 40)
        session = Session(spec, spec.options_type(), 21, level,
                          Console(file=io.StringIO(), width=120),
                          lambda prompt, a=answers: next(a))  # type: ignore[misc]
        session.run()
        assert record_session(session, path) is not None
    saved = ResultLog(path).results()
    assert [r.hinted for r in saved] == [True, False]
    row = summarize(saved)[0]
    assert row["hinted"] == 1
    assert row["best"]["1"]["hinted"] and not row["best"]["2"]["hinted"]
    runner = CliRunner()
    for lang in ("en", "ja"):
        out = runner.invoke(app, ["stats", "--results-file", str(path), "--lang", lang],
                            env={"COLUMNS": "200"}).output
        mark = text("cli.rest.stats.mark", lang)
        assert text("cli.rest.stats.hinted", lang) in out
        assert "1: " in out and "2: " in out
        best = out.split("1: ")[1]
        assert mark in best.split(",")[0]             # the hinted game's best is marked
        assert mark not in out.split("2: ")[1].split("\n")[0]
        assert text("cli.rest.stats.note", lang, mark=mark) in out
