"""The two-hand Pinochle winning streak in the terminal, kept in a small JSON file.

The rules are the engine's :class:`~cardplaza.games.pinochle2.streak.Streak` (level
min(s + 1, 4); a win adds the margin, a loss or draw ends the streak). The terminal keeps
one streak per user in ``$XDG_DATA_HOME/cardplaza/terminal-streak.json`` (or the file
given with ``--streak-file``); it continues across sessions, and leaving a game before its
end ends the streak. What it says comes from the message catalog in the book's language.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from cardplaza.core.protocol import GameState
from cardplaza.core.registry import GameSpec
from cardplaza.games.pinochle2.streak import Streak
from cardplaza.texts.catalog import text as catalog_text

STREAK_GAME = "pinochle2"


def default_streak_path() -> Path:
    """Where the terminal keeps the streak."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "cardplaza" / "terminal-streak.json"


class StreakBook:
    """A streak read from and written back to its file after every change."""

    def __init__(self, path: Path, console: Console, lang: str = "en") -> None:
        self.path = path
        self.console = console
        self.lang = lang
        self.streak = Streak()
        try:
            data: Any = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(data, dict):
                self.streak = Streak.from_dict(data)
        except (OSError, ValueError):
            pass

    def say(self, key: str, **params: Any) -> str:
        """A text of the message catalog in the book's language."""
        return catalog_text(key, self.lang, **params)

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
            head = self.say("cli.streak.none")
        else:
            head = self.say("cli.streak.one" if s.streak == 1 else "cli.streak.many",
                            n=s.streak, saved=f"{s.saved_score:,}")
        best = self.say("cli.streak.best", best=f"{s.best:,}") if s.best else ""
        return escape(self.say("cli.streak.describe", head=head, best=best,
                               level=self.level_number()))

    def record(self, state: GameState) -> None:
        """Apply a finished game's result and say what it did to the streak."""
        res = state.observation(0)["result"]
        human, computer = int(res["totals"][0]), int(res["totals"][1])
        outcome = self.streak.record_result(human, computer)
        s = self.streak
        if outcome == "win":
            said = self.say("cli.streak.won.one" if s.streak == 1 else "cli.streak.won.many",
                            n=s.streak, saved=f"{s.saved_score:,}", best=f"{s.best:,}",
                            level=self.level_number())
            self.console.print(f"[bold green]{escape(said)}[/bold green]")
        else:
            said = self.say("cli.streak.ended", outcome=self.say(f"cli.streak.outcome.{outcome}"),
                            best=f"{s.best:,}")
            self.console.print(f"[yellow]{escape(said)}[/yellow]")
        self._write()

    def abandon(self) -> None:
        """Leaving a game before its end ends the streak (the best score is kept)."""
        had = self.streak.streak
        self.streak.new()
        if had:
            self.console.print(f"[yellow]{escape(self.say('cli.streak.left', n=had))}[/yellow]")
        self._write()

    def _write(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(self.streak.to_dict()), encoding="utf-8")
        except OSError as exc:
            said = self.say("cli.streak.save_failed", path=self.path, reason=exc.strerror or exc)
            self.console.print(f"[red]{escape(said)}[/red]")
