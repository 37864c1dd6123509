"""The commands a person can type at any prompt of terminal play, in every game.

A command is a word (with aliases) and a function of the running
:class:`~cardplaza.cli.terminal.Session` and the rest of the line. Modules add their own
with :func:`register_command`; the modules listed in :data:`COMMAND_MODULES` are imported
the first time a command is looked up. What the commands say comes from the message catalog
(``cli.*``) in the session's language; the command words themselves are the same in every
language.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

from rich.console import Console
from rich.markup import escape

from cardplaza.ai.analysis import AnalysisCache
from cardplaza.cli.view import TerminalView
from cardplaza.core.protocol import Action, GameState
from cardplaza.core.registry import GameSpec
from cardplaza.texts.catalog import text as catalog_text


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
    lang: str
    seed: int
    analyses: AnalysisCache

    @property
    def read(self) -> Callable[[str], str]: ...

    @property
    def observation(self) -> dict[str, Any]: ...

    @property
    def is_streak_game(self) -> bool: ...

    def current_menu(self) -> list[Action]: ...

    def say(self, key: str, **params: Any) -> str: ...

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
    """A word typed at the prompt: ``summary`` says what it does (in any language), or
    ``summary_key`` names that text in the message catalog."""

    name: str
    summary: str
    run: Callable[[Session, str], Outcome]
    aliases: tuple[str, ...] = ()
    usage: str = ""
    summary_key: str = ""

    def describe(self, lang: str = "en") -> str:
        """What the command does, for ``help``."""
        return catalog_text(self.summary_key, lang) if self.summary_key else self.summary


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


def commands_help(lang: str = "en") -> str:
    """One line per command, for ``help``."""
    lines = []
    for c in all_commands():
        words = " / ".join((c.usage or c.name, *c.aliases))
        lines.append(f"  {words:<18} {c.describe(lang)}")
    return "\n".join(lines)


def _whole_rules(session: Session) -> str:
    return f"[dim]{escape(session.say('cli.help.whole', game=session.spec.name))}[/dim]"


def _help(session: Session, rest: str) -> Outcome:
    con = session.console
    title = session.spec.title_ja if session.lang == "ja" else session.spec.title
    con.rule(escape(session.say("cli.help.title", game=title)))
    rules = session.view.rules_text()
    if rules:
        con.print(f"[bold]{escape(session.say('cli.help.rules'))}[/bold]")
        con.print(rules)
        con.print(_whole_rules(session))
        con.print()
    con.print(f"[bold]{escape(session.say('cli.help.typing'))}[/bold]")
    con.print(session.view.help_text())
    con.print(escape(session.say("cli.help.grammar")))
    con.print()
    con.print(f"[bold]{escape(session.say('cli.help.commands'))}[/bold]"
              f"{escape(session.say('cli.help.anywhere'))}")
    con.print(escape(commands_help(session.lang)))
    return Outcome.PROMPT


def _legal(session: Session, rest: str) -> Outcome:
    session.view.show_menu(session.state, session.observation, session.current_menu())
    return Outcome.PROMPT


def _tricks(session: Session, rest: str) -> Outcome:
    session.view.show_history(session.state, session.observation)
    return Outcome.PROMPT


def _undo(session: Session, rest: str) -> Outcome:
    if session.is_streak_game:
        session.console.print(f"[yellow]{escape(session.say('cli.streak.no_undo'))}[/yellow]")
        return Outcome.PROMPT
    try:
        said = session.undo()
    except ValueError as exc:
        session.console.print(f"[yellow]{escape(str(exc))}[/yellow]")
        return Outcome.PROMPT
    session.console.rule(f"[yellow]{escape(session.say('cli.undo.title'))}[/yellow]")
    session.console.print(said)
    return Outcome.REDRAW


def _rules(session: Session, rest: str) -> Outcome:
    rules = session.view.rules_text() or escape(session.say("cli.rules.none"))
    session.console.print(rules)
    session.console.print(_whole_rules(session))
    return Outcome.PROMPT


def _quit(session: Session, rest: str) -> Outcome:
    warn = ""
    wins = session.streak.streak.streak if session.streak is not None else 0
    if wins:
        warn = session.say("cli.quit.warn", n=wins)
    try:
        answer = session.read(session.say("cli.quit.ask", warn=warn)).strip().lower()
    except EOFError:
        answer = "y"
    if answer not in ("y", "yes"):
        session.console.print(escape(session.say("cli.quit.no")))
        return Outcome.PROMPT
    session.console.print(escape(session.say("cli.quit.done")))
    session.stopped = "quit"
    return Outcome.STOP


register_command(Command("help", "", _help, aliases=("?",), summary_key="cli.cmd.help"))
register_command(Command("legal", "", _legal, aliases=("moves",),
                         summary_key="cli.cmd.legal"))
register_command(Command("tricks", "", _tricks, aliases=("history",),
                         summary_key="cli.cmd.tricks"))
register_command(Command("undo", "", _undo, summary_key="cli.cmd.undo"))
register_command(Command("rules", "", _rules, summary_key="cli.cmd.rules"))
register_command(Command("quit", "", _quit, aliases=("q", "exit"),
                         summary_key="cli.cmd.quit"))
