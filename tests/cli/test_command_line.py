"""The ``cardplaza`` command line: levels, arguments checked up front, help, replay,
arena and odds wording, the Makefile and README."""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from cardplaza.cli.levels import choose_level
from cardplaza.cli.main import app
from cardplaza.core.history import GameRecord
from cardplaza.core.registry import games, get_game, new_game

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


def _flat(text: str) -> str:
    """Output with box lines and line breaks folded into single spaces."""
    return re.sub(r"[\s│╭╮╰╯─]+", " ", text)


def _run(args: list[str], input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, args, input=input, terminal_width=200)
    return result.exit_code, _flat(result.output)


def _quit_at_once(args: list[str]) -> str:
    code, out = _run(args, "q\ny\n")
    assert code == 0, out
    return out


# -- levels (the options' own level, --level, the streak ladder) ---------------------------

def test_strength_option_sets_the_computer_level() -> None:
    out = _quit_at_once(["play", "pinochle4", "--options", "strength=weak", "--seed", "1"])
    assert "computer level weak" in out


def test_two_hand_level_option_sets_the_practice_level() -> None:
    out = _quit_at_once(["play", "pinochle2", "--options", "level=1", "--seed", "1"])
    assert "computer level 1" in out and "ladder" not in out


def test_level_flag_and_option_must_agree() -> None:
    code, out = _run(["play", "pinochle4", "--options", "strength=weak", "--level", "expert"])
    assert code != 0 and "disagree" in out


def test_default_levels() -> None:
    assert choose_level(get_game("pinochle4"), get_game("pinochle4").options(), None).level \
        == "normal"
    two = choose_level(get_game("pinochle2"), get_game("pinochle2").options(), None)
    assert two.streak and two.level == "1"
    assert choose_level(get_game("piquet"), get_game("piquet").options(), None).level == "4"


def test_two_hand_streak_ladder_sets_the_level(tmp_path: Path) -> None:
    """Each win raises the level: a saved streak of 2 plays level 3."""
    book = tmp_path / "streak.json"
    book.write_text(json.dumps({"streak": 2, "margin_sum": 130, "best": 20130}))
    out = _quit_at_once(["play", "pinochle2", "--streak-file", str(book)])
    assert "computer level 3" in out and "Winning streak: 2 wins" in out
    assert "Leaving the game ends your streak of 2" in out
    assert json.loads(book.read_text()) == {"streak": 0, "margin_sum": 0, "best": 20130}


def test_streak_game_refuses_a_chosen_seed() -> None:
    code, out = _run(["play", "pinochle2", "--seed", "3"])
    assert code != 0 and "dealt at random" in out


def test_a_win_continues_the_streak(tmp_path: Path) -> None:
    """After a won game the book counts it and names the next level."""
    from cardplaza.cli.streak import StreakBook

    state = None
    for seed in range(50):
        st = new_game("pinochle2", seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal:
            st.apply(rng.choice(list(st.legal_actions())))
        if st.observation(0)["result"]["winner"] == 0:
            state = st
            break
    assert state is not None
    out = io.StringIO()
    book = StreakBook(tmp_path / "s.json", Console(file=out))
    book.record(state)
    assert book.streak.streak == 1 and book.level_number() == 2
    assert "Next game: level 2" in out.getvalue()
    assert StreakBook(tmp_path / "s.json", Console(file=io.StringIO())).streak.streak == 1


# -- arguments checked before the game ---------------------------------------------------

def test_bad_save_path_is_refused_before_the_game(tmp_path: Path) -> None:
    code, out = _run(["play", "piquet", "--save", str(tmp_path / "no" / "x.json")])
    assert code == 2
    assert "cannot write" in out and "does not exist" in out
    assert "Traceback" not in out and "Deal 1" not in out


def test_bench_with_an_unknown_level_is_a_clear_error() -> None:
    code, out = _run(["bench", "pinochle2", "--ai", "9"])
    assert code == 2
    assert "unknown level '9'" in out and "Traceback" not in out


def test_players_points_to_the_other_game() -> None:
    code, out = _run(["play", "pinochle4", "--players", "3"])
    assert code == 2
    assert "cardplaza play pinochle3" in out
    assert "unexpected keyword" not in out


# -- help, version, games ------------------------------------------------------------------

@pytest.mark.parametrize("command", [[], ["play"], ["replay"], ["bench"], ["odds"],
                                     ["arena"], ["serve"], ["games"]])
def test_short_help_option(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "-h"])
    assert result.exit_code == 0 and "Usage" in result.output


def test_version() -> None:
    from cardplaza import __version__

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and __version__ in result.output


def test_level_help_lists_every_games_levels() -> None:
    _, text = _run(["play", "--help"])
    assert "pinochle2: random, 1, 2, 3, 4, 5" in text
    assert "strongest level" not in text


def test_games_lists_random_and_explains_every_option() -> None:
    from cardplaza.cli.view import view_class
    from cardplaza.core.options import describe_options

    _, out = _run(["games"])
    assert out.count("computer levels: random,") == len(games())
    for spec in games().values():
        meaning = view_class(spec).OPTION_HELP
        for name, _, _ in describe_options(spec.options_type):
            assert meaning.get(name), f"{spec.name}: option {name} is not explained"


# -- replay --------------------------------------------------------------------------------

def _record(game: str, seed: int, tmp_path: Path) -> Path:
    state = new_game(game, seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        state.apply(rng.choice(list(state.legal_actions())))
    path = tmp_path / f"{game}.json"
    GameRecord.of(state).save(path)
    return path


def test_replay_names_seats_breaks_deals_and_says_who_won(tmp_path: Path) -> None:
    out = runner.invoke(app, ["replay", str(_record("pinochle4", 4, tmp_path))]).output
    assert "seat 0" not in out and "South:" in out and "West:" in out
    assert "Deal 2 — dealer" in out and "Scores after deal 1:" in out
    assert "last trick of the deal won by" in out
    assert "Won by South and North" in out or "Won by West and East" in out
    assert "Result: [" not in out and "None" not in out


def test_replay_step_by_step_waits(tmp_path: Path) -> None:
    path = _record("piquet", 4, tmp_path)
    result = runner.invoke(app, ["replay", str(path), "--step"], input="\n3\nq\n")
    assert result.exit_code == 0
    assert "   5. " in result.output and "   6. " not in result.output
    assert "Won by" in result.output or "A draw" in result.output


# -- arena and odds wording ----------------------------------------------------------------

def test_arena_title_counts_games_and_pairs() -> None:
    from cardplaza.arena.commands import render
    from cardplaza.arena.core import run_arena

    result = run_arena("piquet", ["random", "1"], 1, 0, 1, get_game("piquet").options(),
                       None, "deal")
    console = Console(record=True, width=160)
    render(console, result)
    text = console.export_text()
    assert "1 paired single deals" in text and "games" in text
    pair = result.pairs[0]
    assert pair.wins + pair.draws + pair.losses == pair.games == 2 * pair.deals
    assert re.search(rf"│\s+{pair.deals} │\s+{pair.games} │", text)


def test_arena_unit_help_matches_the_readme() -> None:
    _, help_text = _run(["arena", "--help"])
    readme = re.sub(r"\s+", " ", (ROOT / "README.md").read_text())
    assert "stop each game after its first deal" in help_text
    assert "stops each game after its first deal" in readme


def test_odds_table_has_readable_names_and_a_legend() -> None:
    _, out = _run(["odds", "pinochle4"])
    assert "double_run" not in out and "rank_count_" not in out
    assert "Double run" in out and "Exactly 3 cards of a rank" in out and "any suit" in out
    assert "for at least one of them" in out


# -- make play, make test, README ----------------------------------------------------------

def test_make_play_installs_only_what_playing_needs() -> None:
    out = subprocess.run(["make", "-n", "-B", "play"], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert "pip install --quiet -e ." in out and "dev" not in out and "postgres" not in out
    assert "serve --port 8000" in out
    out = subprocess.run(["make", "-n", "-B", "play", "PORT=8123"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    assert "serve --port 8123" in out


def test_system_deps_installs_only_missing_packages() -> None:
    out = subprocess.run(["make", "-s", "system-deps", "SYSTEM_PACKAGES=coreutils"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert "already installed: coreutils" in out
    recipe = subprocess.run(["make", "-n", "system-deps"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout
    assert "--no-install-recommends" in recipe and "upgrade" not in recipe
    install = next(line for line in recipe.splitlines() if "apt-get install" in line)
    assert "--no-install-recommends $missing;" in install and "/dev/null" not in install
    assert "-qq" not in recipe


def test_serve_refuses_a_busy_port_before_printing_the_address() -> None:
    import socket

    from cardplaza.web import bind_port

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        with pytest.raises(SystemExit, match=f"Cannot listen on 127.0.0.1:{port}.*PORT="):
            bind_port("127.0.0.1", port)
    free = bind_port("127.0.0.1", 0)
    free.close()


def test_readme_documents_port_and_every_command() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "make play PORT=" in readme
    from typer.main import get_command

    names = sorted(get_command(app).commands)  # type: ignore[attr-defined]
    for name in names:
        assert f"`cardplaza {name}" in readme, f"README's command table lacks {name}"
