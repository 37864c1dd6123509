"""The two-hand Pinochle winning streak in the terminal, kept in a small JSON file.

The rules are the engine's :class:`~cardplaza.games.pinochle2.streak.Streak` (level
min(s + 1, 4); a win adds the margin, a loss or draw ends the streak). The terminal keeps
one streak per user in ``$XDG_DATA_HOME/cardplaza/terminal-streak.json`` (or the file
given with ``--streak-file``); it continues across sessions, and leaving a game before its
end ends the streak.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from rich.console import Console

from cardplaza.core.protocol import GameState
from cardplaza.core.registry import GameSpec
from cardplaza.games.pinochle2.streak import Streak

STREAK_GAME = "pinochle2"


def default_streak_path() -> Path:
    """Where the terminal keeps the streak."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "cardplaza" / "terminal-streak.json"


class StreakBook:
    """A streak read from and written back to its file after every change."""

    def __init__(self, path: Path, console: Console) -> None:
        self.path = path
        self.console = console
        self.streak = Streak()
        try:
            data: Any = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(data, dict):
                self.streak = Streak.from_dict(data)
        except (OSError, ValueError):
            pass

    def level_number(self) -> int:
        """Ladder level of the next game (1–4)."""
        return self.streak.level()

    def level_name(self, spec: GameSpec) -> str:
        """The registry name of the next game's level."""
        return str(self.level_number()) if str(self.level_number()) in spec.levels \
            else spec.levels[self.level_number() - 1]

    def describe(self) -> str:
        """The streak as the person sees it before a game."""
        s = self.streak
        if s.streak == 0:
            head = "Winning streak: none yet"
        else:
            head = (f"Winning streak: {s.streak} win{'s' if s.streak != 1 else ''} "
                    f"(saved score {s.saved_score:,})")
        best = f", best {s.best:,}" if s.best else ""
        return (f"{head}{best}. This game is at level {self.level_number()} of the ladder "
                "(each win raises it, up to 4; a loss starts again at 1).")

    def record(self, state: GameState) -> None:
        """Apply a finished game's result and say what it did to the streak."""
        res = state.observation(0)["result"]
        human, computer = int(res["totals"][0]), int(res["totals"][1])
        outcome = self.streak.record_result(human, computer)
        if outcome == "win":
            self.console.print(f"[bold green]Streak: {self.streak.streak} win"
                               f"{'s' if self.streak.streak != 1 else ''}, saved score "
                               f"{self.streak.saved_score:,} (best {self.streak.best:,}). "
                               f"Next game: level {self.level_number()}.[/bold green]")
        else:
            self.console.print(f"[yellow]The streak ends ({outcome}); best saved score "
                               f"{self.streak.best:,}. Next game: level 1.[/yellow]")
        self._write()

    def abandon(self) -> None:
        """Leaving a game before its end ends the streak (the best score is kept)."""
        had = self.streak.streak
        self.streak.new()
        if had:
            self.console.print(f"[yellow]Leaving the game ends your streak of {had}.[/yellow]")
        self._write()

    def _write(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(self.streak.to_dict()), encoding="utf-8")
        except OSError as exc:
            self.console.print(f"[red]Could not save the streak to {self.path}: "
                               f"{exc.strerror or exc}[/red]")
