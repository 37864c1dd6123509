"""The terminal's own lines in Japanese: ``cardplaza play --lang ja`` (or a Japanese locale)
gives the play loop's prompts, help, errors and questions from the Japanese catalog; the
command words stay the same."""

from __future__ import annotations

import re
from pathlib import Path

from pty_driver import PtySession
from typer.testing import CliRunner

from cardplaza.cli.main import app
from cardplaza.core.results import GameResult, ResultLog
from cardplaza.texts.catalog import catalog, text

JA = catalog("ja")


def test_lang_ja_gives_the_japanese_prompt_and_help() -> None:
    session = PtySession(["play", "efudatori", "--seed", "4", "--level", "1", "--lang", "ja"])
    try:
        session.expect("ルールとコマンドは help、やめるときは quit と入力してください。")
        session.expect(r"> $")
        session.send("help")
        session.expect(re.escape(JA["cli.help.rules"]))
        session.expect("答え方（どのゲームでも同じ）")
        session.expect(re.escape(JA["cli.cmd.legal"]))  # commands described in Japanese
        session.expect(re.escape(JA["cli.cmd.quit"]))
        session.expect(r"> $")
        session.send("undo")
        session.expect(re.escape(JA["cli.undo.none"]))
        session.expect(r"> $")
        session.send("99")
        session.expect(r"99 は一覧にありません。1～\d+ から選んでください")
        session.expect(r"> $")
        session.send("")
        session.expect(re.escape(JA["cli.prompt.empty"]))
        session.expect(r"> $")
        session.send("q")
        session.expect(r"このゲームをやめますか？ \(y/n\) $")
        session.send("n")
        session.expect(re.escape(JA["cli.quit.no"]))
        session.expect(r"> $")
        session.send("q")
        session.expect(r"\(y/n\) $")
        session.send("y")
        session.expect(re.escape(JA["cli.quit.done"]))
        assert session.wait() == 0
    finally:
        session.close()
    shown = session.text
    assert "絵札とり" in shown                       # the game's Japanese title on the first line
    for english in ("Type 'help'", "How to answer", "Quit this game", "Nothing to undo",
                    "is not on the list", "Game abandoned"):
        assert english not in shown, english


def test_a_japanese_locale_is_the_default_and_lang_en_overrides_it() -> None:
    for args, expected in (([], "ja"), (["--lang", "en"], "en")):
        session = PtySession(["play", "piquet", "--seed", "3", "--level", "1", *args],
                             env={"LANG": "ja_JP.UTF-8"})
        try:
            session.expect(re.escape(text("cli.start.help", expected)))
            session.expect(r"> $")
            session.send("q")
            session.expect(re.escape(text("cli.quit.ask", expected, warn="")) + "$")
            session.send("y")
            session.expect(re.escape(text("cli.quit.done", expected)))
            assert session.wait() == 0
        finally:
            session.close()


def test_stats_in_japanese(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    runner = CliRunner()
    empty = runner.invoke(app, ["stats", "--results-file", str(path), "--lang", "ja"])
    assert empty.exit_code == 0 and JA["cli.stats.none"] in empty.output
    ResultLog(path).add(GameResult("me", "me", "efudatori", "2", "win", 15.0, 40.0, 1.0))
    out = runner.invoke(app, ["stats", "--results-file", str(path), "--lang", "ja"],
                        env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    for key in ("cli.stats.title", "cli.stats.played", "cli.stats.margin"):
        assert JA[key] in out.output, key
    bad = runner.invoke(app, ["stats", "--results-file", str(path), "--lang", "fr"])
    assert bad.exit_code != 0 and "--lang" in bad.output
