"""``cardplaza play``: checks before the first card, then the series of games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from cardplaza.cli.levels import LevelChoice
from cardplaza.cli.stats import default_results_path
from cardplaza.cli.streak import StreakBook, default_streak_path
from cardplaza.cli.terminal import check_save_path, play_series
from cardplaza.core.registry import GameSpec
from cardplaza.texts.catalog import text as catalog_text

INTERRUPTED_STATUS = 130
"""The exit status after Ctrl-C (the shell's own for an interrupt: 128 + SIGINT)."""


def play_command(spec: GameSpec, options: Any, seed: int | None, choice: LevelChoice,
                 console: Console, save: str | None = None, new_streak: bool = False,
                 streak_file: Path | None = None, lang: str = "en") -> None:
    """Play games until the person stops; every problem with the arguments is said first.
    ``lang`` is the language of the play loop's own lines."""
    if save:
        try:
            check_save_path(save, lang)
        except ValueError as exc:
            raise typer.BadParameter(catalog_text("cli.save.cannot", lang, path=save,
                                                  reason=exc),
                                     param_hint="'--save'") from None
    book = None
    if choice.streak:
        if seed is not None:
            raise typer.BadParameter(catalog_text("cli.play.streak_seed", lang),
                                     param_hint="'--seed'")
        book = StreakBook(streak_file or default_streak_path(), console, lang)
        if new_streak:
            book.abandon()
    elif new_streak:
        raise typer.BadParameter(catalog_text("cli.play.new_streak", lang))

    def read(prompt: str) -> str:
        return console.input(prompt)

    played = play_series(spec.name, options, seed, choice.level, console, read, save=save,
                         streak=book, results=default_results_path(), lang=lang)
    if book is not None and book.streak.best:
        console.print(catalog_text("cli.streak.best_saved", lang, best=f"{book.streak.best:,}"))
    if played.interrupted:
        raise typer.Exit(INTERRUPTED_STATUS)
