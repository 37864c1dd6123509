"""The commands a person can type at any prompt of terminal play, in every game.

A command is a word (with aliases) and a function of the running
:class:`~cardplaza.cli.terminal.Session` and the rest of the line. Modules add their own
with :func:`register_command`; the modules listed in :data:`COMMAND_MODULES` are imported
the first time a command is looked up.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

from rich.console import Console

from cardplaza.cli.view import TerminalView
from cardplaza.core.protocol import Action, GameState
from cardplaza.core.registry import GameSpec


class Session(Protocol):
    """What a command may use of the game being played (:class:`.terminal.Session`)."""

    spec: GameSpec
    level: str
    seat: int
    console: Console
    streak: Any
    state: GameState
    view: TerminalView
    stopped: str | None

    @property
    def read(self) -> Callable[[str], str]: ...

    @property
    def observation(self) -> dict[str, Any]: ...

    @property
    def is_streak_game(self) -> bool: ...

    def current_menu(self) -> list[Action]: ...

    def count(self, key: str) -> None: ...

    def undo(self) -> str: ...


class Outcome(Enum):
    """What the play loop does after a command."""

    PROMPT = "prompt"
    """Ask for input again (nothing changed)."""
    REDRAW = "redraw"
    """The position changed (an undo): show the turn again."""
    STOP = "stop"
    """The game stops (``session.stopped`` says why)."""


@dataclass(frozen=True)
class Command:
    """A word typed at the prompt."""

    name: str
    summary: str
    run: Callable[[Session, str], Outcome]
    aliases: tuple[str, ...] = ()
    usage: str = ""


COMMAND_MODULES: tuple[str, ...] = ("cardplaza.cli.hints",)
"""Modules that register further commands when imported (e.g. hints)."""

_COMMANDS: dict[str, Command] = {}
_ORDER: list[Command] = []
_loaded = False


def register_command(command: Command) -> Command:
    """Add a command (replacing one of the same name)."""
    old = _COMMANDS.get(command.name)
    if old is not None:
        _ORDER.remove(old)
        for alias in old.aliases:
            _COMMANDS.pop(alias, None)
    _ORDER.append(command)
    for word in (command.name, *command.aliases):
        _COMMANDS[word] = command
    return command


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for module in COMMAND_MODULES:
            importlib.import_module(module)


def find_command(word: str) -> Command | None:
    """The command called ``word`` (case-insensitive), or ``None``."""
    _load()
    return _COMMANDS.get(word.lower())


def all_commands() -> list[Command]:
    """Every command, in the order they were registered."""
    _load()
    return list(_ORDER)


def commands_help() -> str:
    """One line per command, for ``help``."""
    lines = []
    for c in all_commands():
        words = " / ".join((c.usage or c.name, *c.aliases))
        lines.append(f"  {words:<18} {c.summary}")
    return "\n".join(lines)


GRAMMAR = """\
How to answer, in every game:
  a number           picks that item of the numbered list (during an auction a bare
                     number is a bid amount: 260 bids 260)
  #5                 always picks item 5 of the list
  a move in words    e.g. 10h or 10♥, bid 260, pass, discard 7♣ 8♦, good
When you have only one legal move it is made for you, and the game says which."""


def _help(session: Session, rest: str) -> Outcome:
    con = session.console
    con.rule(f"{session.spec.title}: help")
    rules = session.view.rules_text()
    if rules:
        con.print("[bold]The rules in short[/bold]")
        con.print(rules)
        con.print(f"[dim]The whole rules: cardplaza rules {session.spec.name} "
                  f"(--lang ja for Japanese).[/dim]")
        con.print()
    con.print("[bold]Typing your moves[/bold]")
    con.print(session.view.help_text())
    con.print(GRAMMAR)
    con.print()
    con.print("[bold]Commands[/bold] (at any prompt)")
    con.print(commands_help())
    return Outcome.PROMPT


def _legal(session: Session, rest: str) -> Outcome:
    session.view.show_menu(session.state, session.observation, session.current_menu())
    return Outcome.PROMPT


def _tricks(session: Session, rest: str) -> Outcome:
    session.view.show_history(session.state, session.observation)
    return Outcome.PROMPT


def _undo(session: Session, rest: str) -> Outcome:
    if session.is_streak_game:
        session.console.print("[yellow]No undo in a streak game: its saved score must stay "
                              "honest. Choose a practice level (--level 1 … 5) to use "
                              "undo.[/yellow]")
        return Outcome.PROMPT
    try:
        said = session.undo()
    except ValueError as exc:
        session.console.print(f"[yellow]{str(exc).capitalize()}.[/yellow]")
        return Outcome.PROMPT
    session.console.rule("[yellow]Undo[/yellow]")
    session.console.print(said)
    return Outcome.REDRAW


def _rules(session: Session, rest: str) -> Outcome:
    rules = session.view.rules_text() or "This game has no short rules."
    session.console.print(rules)
    session.console.print(f"[dim]The whole rules: cardplaza rules {session.spec.name} "
                          "(--lang ja for Japanese).[/dim]")
    return Outcome.PROMPT


def _quit(session: Session, rest: str) -> Outcome:
    warn = ""
    wins = session.streak.streak.streak if session.streak is not None else 0
    if wins:
        warn = f" Leaving now ends your winning streak of {wins}."
    try:
        answer = session.read(f"Quit this game?{warn} (y/n) ").strip().lower()
    except EOFError:
        answer = "y"
    if answer not in ("y", "yes"):
        session.console.print("Go on, then.")
        return Outcome.PROMPT
    session.console.print("Game abandoned.")
    session.stopped = "quit"
    return Outcome.STOP


register_command(Command("help", "the rules in short, how to type moves, these commands",
                         _help, aliases=("?",)))
register_command(Command("legal", "the numbered list of your legal moves", _legal,
                         aliases=("moves",)))
register_command(Command("tricks", "every trick of this hand, and the auction", _tricks,
                         aliases=("history",)))
register_command(Command("undo", "take back your last decision (not in a streak game)",
                         _undo))
register_command(Command("rules", "the rules in short", _rules))
register_command(Command("quit", "stop this game (asks first)", _quit,
                         aliases=("q", "exit")))
