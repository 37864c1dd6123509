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


def play_command(spec: GameSpec, options: Any, seed: int | None, choice: LevelChoice,
                 console: Console, save: str | None = None, new_streak: bool = False,
                 streak_file: Path | None = None) -> None:
    """Play games until the person stops; every problem with the arguments is said first."""
    if save:
        try:
            check_save_path(save)
        except ValueError as exc:
            raise typer.BadParameter(f"cannot write {save}: {exc}",
                                     param_hint="'--save'") from None
    book = None
    if choice.streak:
        if seed is not None:
            raise typer.BadParameter(
                "a winning-streak game is dealt at random (a chosen deal would make the "
                "saved score meaningless); to play a chosen seed pick a practice level, "
                "e.g. --level 1", param_hint="'--seed'")
        book = StreakBook(streak_file or default_streak_path(), console)
        if new_streak:
            book.abandon()
    elif new_streak:
        raise typer.BadParameter("--new-streak is for two-hand Pinochle on the ladder "
                                 "(option level=streak, no --level)")

    def read(prompt: str) -> str:
        return console.input(prompt)

    play_series(spec.name, options, seed, choice.level, console, read, save=save,
                streak=book, results=default_results_path())
    if book is not None and book.streak.best:
        console.print(f"Best saved score: {book.streak.best:,}.")
