"""Small terminal defects: flags in the help, an unknown game in ``stats``, Ctrl-C's exit
status, and counts written as proper plurals."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from cardplaza.cli.main import app, main
from cardplaza.cli.terminal import Session
from cardplaza.core.registry import get_game


def _help(args: list[str], monkeypatch: pytest.MonkeyPatch,
          capsys: pytest.CaptureFixture[str]) -> str:
    monkeypatch.setattr(sys, "argv", ["cardplaza", *args])
    monkeypatch.setenv("COLUMNS", "100")
    with pytest.raises(SystemExit) as stop:
        main()
    assert stop.value.code == 0
    return capsys.readouterr().out


def test_help_lists_flags_without_a_bool_type(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["-h"], ["play", "-h"], ["stats", "-h"]):
        out = _help(args, monkeypatch, capsys)
        assert "--help" in out and "<bool>" not in out, args
    play = _help(["play", "-h"], monkeypatch, capsys)
    assert "--new-streak" in play and "<int>" in play  # value options keep their type


def test_stats_names_an_unknown_game(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["stats", "--game", "chess", "--results-file",
                                      str(tmp_path / "r.jsonl")])
    assert result.exit_code == 2
    assert "chess" in result.output and "pinochle2" in result.output
    assert "No finished games" not in result.output
    ja = CliRunner().invoke(app, ["stats", "--game", "chess", "--lang", "ja",
                                  "--results-file", str(tmp_path / "r.jsonl")])
    assert ja.exit_code == 2 and "ゲームはありません" in ja.output


def test_ctrl_c_exits_with_the_interrupt_status(monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))

    def interrupt(self: Console, prompt: str = "", **_: object) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(Console, "input", interrupt)
    result = CliRunner().invoke(app, ["play", "pinochle2", "--seed", "3", "--level", "1"])
    assert result.exit_code == 130, result.output
    assert "Interrupted." in result.output


def test_undo_of_one_later_move_is_singular() -> None:
    spec = get_game("pinochle2")
    console = Console(record=True, width=100)
    session = Session(spec, spec.options_type(), 3, "1", console, lambda _: "", 0, None,
                      None, "en")
    for _ in range(200):
        if session.state.current_player == 0:
            break
        session.state.apply(session.state.legal_actions()[0])
    session.decisions.append(len(session.state.history))
    session.state.apply(session.state.legal_actions()[0])
    session.state.apply(session.state.legal_actions()[0])
    said = session.undo()
    assert "and the move after it" in said and "(s)" not in said


def test_no_counts_written_with_an_s_in_brackets() -> None:
    """Players read "1 card" and "3 cards", never "card(s)": no text of the catalogs, the
    engines or the terminal views writes a plural that way."""
    import re

    import cardplaza

    root = Path(cardplaza.__file__).parent
    pattern = re.compile(r"\b(?:card|move|set|trick|point|game|deal|meld|option|seat|table)\(s\)")
    files = [*root.glob("texts/catalogs/*.json"), *root.glob("core/*.py"),
             *root.glob("games/*/*.py"), *root.glob("cli/*.py"), *root.glob("web/**/*.py"),
             *root.glob("web/static/**/*.js")]
    assert len(files) > 20
    found = [f"{p.relative_to(root)}:{i}" for p in files
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if pattern.search(line)]
    assert found == []
