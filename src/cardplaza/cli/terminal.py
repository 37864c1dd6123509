"""Terminal play: the one play loop (the views each game implements: :mod:`.view`).

Every game is played with the same input grammar (stated by ``help``):

* a number picks that item of the numbered list (``#5`` always means item 5; during an
  auction a bare number is a bid amount, so there only ``#5`` picks item 5);
* a move can also be typed in words (``10h``, ``bid 260``, ``discard 7♣ 8♦``, ``good``);
* the commands of :mod:`cardplaza.cli.commands` (``help``, ``legal``, ``tricks``,
  ``undo``, ``rules``, ``quit`` …) work at every prompt.

When a person has only one legal action the loop takes it and says so; a wrong input prints
only the error, then the prompt again. The loop's own lines (prompts, errors, the result
lines) come from the message catalog in the session's language (``lang``: ``en``, ``ja``),
and the game's view is made in that language (:func:`cardplaza.cli.view.make_view`).

On a real terminal the table is redrawn in place: before each of the person's decisions the
screen is cleared and shows what happened since their last move (as many lines as fit)
above the table, so the screen does not scroll move after move. When the output is not a
terminal (a pipe, a file, the tests) every line is printed once, in order, as it happens.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from cardplaza.ai.analysis import AnalysisCache
from cardplaza.ai.player import Player, computer_player
from cardplaza.cli.style import make_console
from cardplaza.cli.view import TerminalView, make_view, read_action
from cardplaza.core.history import GameRecord
from cardplaza.core.protocol import Action, GameState, IllegalAction
from cardplaza.core.registry import GameSpec, get_game
from cardplaza.texts.catalog import has as has_text
from cardplaza.texts.catalog import text as catalog_text

# -- saving -----------------------------------------------------------------------------

def check_save_path(path: str, lang: str = "en") -> None:
    """Raise ``ValueError`` (with the reason) if a history cannot be written to ``path``."""
    target = Path(path)
    if target.is_dir():
        raise ValueError(catalog_text("cli.save.folder", lang, path=path))
    parent = target.parent
    if not parent.is_dir():
        raise ValueError(catalog_text("cli.save.no_folder", lang, folder=parent))
    try:
        with target.open("a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise ValueError(exc.strerror or str(exc)) from None


def numbered_path(path: str, number: int) -> str:
    """``game.json`` for the first game of a session, ``game-2.json`` for the second …"""
    if number <= 1:
        return path
    p = Path(path)
    return str(p.with_name(f"{p.stem}-{number}{p.suffix}"))


ANALYSES_KEPT = 64
"""Positions whose analysis a terminal game keeps."""


# -- the session ------------------------------------------------------------------------

@dataclass
class Session:
    """One game played by a person against computers, with its commands."""

    spec: GameSpec
    options: Any
    seed: int
    level: str
    console: Console
    read: Callable[[str], str]
    seat: int = 0
    save: str | None = None
    streak: Any = None
    """A :class:`cardplaza.cli.streak.StreakBook` when this game is on the two-hand ladder."""
    lang: str = "en"
    """The language of the loop's own lines and of the view (``en`` or ``ja``)."""
    redraw: bool | None = None
    """Redraw the screen before each decision (default: when the console is a terminal)."""
    state: GameState = field(init=False)
    view: TerminalView = field(init=False)
    decisions: list[int] = field(default_factory=list)
    """Indexes into ``state.history`` of the person's own decisions (not forced moves)."""
    counters: dict[str, int] = field(default_factory=dict)
    """How often the person used ``undo`` (and other helps): shown with the result."""
    stopped: str | None = None
    """Why the game stopped before its end (``"quit"``, ``"input closed"`` …)."""
    analyses: AnalysisCache = field(default_factory=lambda: AnalysisCache(ANALYSES_KEPT))
    """The analyses of the positions a hint or the helper looked at (asked again, they
    show the same numbers)."""

    def __post_init__(self) -> None:
        self.state = self.spec.new_game(self.options, self.seed)
        self.view = make_view(self.spec, self.console, self.seat, self.lang)
        if self.redraw is None:
            self.redraw = self.console.is_terminal
        self.keep_screen = False
        """Draw the next table below what is on the screen (after an undo's message)."""
        self.news: list[str] = []
        """Lines shown since the last screen (kept for the next one when redrawing)."""
        self.computers: dict[int, Player] = {
            s: computer_player(self.spec.name, self.level, self.seed * 7919 + s)
            for s in range(self.state.num_players) if s != self.seat
        }
        self.rngs = {s: random.Random(self.seed * 104729 + s) for s in self.computers}

    # -- information for commands -----------------------------------------------------
    @property
    def observation(self) -> dict[str, Any]:
        """The person's observation now."""
        return self.state.observation(self.seat)

    def current_menu(self) -> list[Action]:
        """The numbered choices of the person's current decision."""
        return self.view.menu(self.state, self.observation, self.state.legal_actions())

    @property
    def is_streak_game(self) -> bool:
        """True when the game counts on the two-hand winning streak."""
        return self.streak is not None

    def say(self, key: str, **params: Any) -> str:
        """A text of the message catalog in the session's language."""
        return catalog_text(key, self.lang, **params)

    def count(self, key: str) -> None:
        """Count one use of a help (``undo``, ``hint`` …) for the result screen."""
        self.counters[key] = self.counters.get(key, 0) + 1

    # -- running ----------------------------------------------------------------------
    def run(self) -> GameState:
        """Play until the end, a quit or closed input; save the history if asked."""
        obs = self.observation
        intro = self.view.intro(obs)
        # A streak game's seed would tell the computer's cards: it is said at the end.
        level = self.level
        if self.lang != "en" and has_text(f"level.{level}", self.lang):
            level = self.say(f"level.{level}")
        about = (self.say("cli.start", level=level) if self.streak is not None
                 else self.say("cli.start.seed", seed=self.seed, level=level))
        title = self.spec.title_ja if self.lang == "ja" else self.spec.title
        def start() -> None:
            self.console.rule(f"[bold]{escape(title)}[/bold] — {escape(about)}")
            if intro:
                self.console.print(intro)
            if self.streak is not None:
                self.console.print(self.streak.describe())
            self.console.print(f"[dim]{escape(self.say('cli.start.help'))}[/dim]")

        self.tell(start)
        try:
            while not self.state.is_terminal and self.stopped is None:
                if self.state.current_player == self.seat:
                    self._human_turn()
                else:
                    self._computer_turn()
        except KeyboardInterrupt:
            self.stopped = "interrupted"
            self.console.print("\n" + escape(self.say("cli.interrupted")))
        if self.state.is_terminal:
            self.view.show_end(self.state, self.observation)
            used = self.say("cli.used.sep").join(self.say("cli.used.item", what=k, n=v)
                                                 for k, v in sorted(self.counters.items()))
            if used:
                self.console.print(escape(self.say("cli.used", list=used)))
            if self.streak is not None:
                self.streak.record(self.state)
                self.console.print(f"[dim]{escape(self.say('cli.seed.told', seed=self.seed))}"
                                   "[/dim]")
        elif self.streak is not None:
            self.streak.abandon()
        self.write_record()
        return self.state

    def write_record(self) -> None:
        """Save the history (finished or not) if a file was given; report failures."""
        if not self.save:
            return
        try:
            GameRecord.of(self.state, players=self.players_json()).save(self.save)
        except OSError as exc:
            said = self.say("cli.save.failed", path=self.save, reason=exc.strerror or exc)
            self.console.print(f"[red]{escape(said)}[/red]")
            return
        key = "cli.save.done" if self.state.is_terminal else "cli.save.done.unfinished"
        self.console.print(escape(self.say(key, path=self.save)))

    def players_json(self) -> list[dict[str, str]]:
        """Who sat where, for the record."""
        obs = self.observation
        return [{"name": "You" if s == self.seat else self.view.name(obs, s),
                 "kind": "human" if s == self.seat else "computer",
                 "level": "" if s == self.seat else self.level}
                for s in range(self.state.num_players)]

    def _computer_turn(self) -> None:
        state = self.state
        seat = state.current_player
        obs = state.observation(seat)
        legal = state.legal_actions()
        with self._thinking(seat, len(legal)):
            action = self.computers[seat].choose(obs, legal, self.rngs[seat])
        state.apply(action)
        self.tell(lambda: self.view.show_action(state, seat, action, self.observation))

    # -- the screen -------------------------------------------------------------------
    def _captured(self, show: Callable[[], Any]) -> tuple[str, Any]:
        """What ``show`` prints, as the terminal's text, and what it returns."""
        self.console.begin_capture()
        try:
            result = show()
        finally:
            out = self.console.end_capture()
        return out, result

    def _write(self, out: str) -> None:
        self.console.file.write(out)
        self.console.file.flush()

    def tell(self, show: Callable[[], Any]) -> Any:
        """Print what ``show`` prints now; when redrawing, keep it for the next screen."""
        if not self.redraw:
            return show()
        out, result = self._captured(show)
        self._write(out)
        self.news.extend(out.splitlines())
        return result

    def draw_turn(self, obs: dict[str, Any], legal: list[Action]) -> None:
        """The table before a decision: on a terminal a fresh screen, the news since the
        last decision on top (as many lines as fit), then the table."""
        if not self.redraw:
            self.view.show_turn(self.state, obs, legal)
            return
        self.view.redrawing = True  # type: ignore[attr-defined]  # see ViewBase.redrawing
        table, _ = self._captured(lambda: self.view.show_turn(self.state, obs, legal))
        room = max(0, self.console.height - len(table.splitlines()) - 2)
        news = self.news[-room:] if room else []
        self.news = []
        if not self.keep_screen:
            self.console.clear()
        self.keep_screen = False
        self._write("".join(line + "\n" for line in news) + table)

    @contextmanager
    def _thinking(self, seat: int, choices: int) -> Iterator[None]:
        """A "thinking…" line while a computer decides (on a real terminal only)."""
        if choices < 2 or not self.console.is_terminal:
            yield
            return
        name = self.view.name(self.observation, seat)
        with self.console.status(escape(self.say("cli.thinking", name=name)), spinner="dots"):
            yield

    def _human_turn(self) -> None:
        state = self.state
        legal = state.legal_actions()
        obs = self.observation
        menu = self.view.menu(state, obs, legal)
        if len(legal) == 1 or len(menu) == 1:  # one action, or copies of one card
            only = menu[0] if len(menu) == 1 else legal[0]
            self.tell(lambda: self.view.show_forced(state, obs, only))
            self._apply(only, decision=False)
            return
        self.draw_turn(obs, list(legal))
        while self.stopped is None and state is self.state:
            try:
                text = self.read("> ").strip()
            except EOFError:
                self.console.print(escape(self.say("cli.input_closed")))
                self.stopped = "input closed"
                return
            if self._handle(text):
                return

    def _handle(self, text: str) -> bool:
        """Act on one line of input; True when the person's decision is made."""
        from cardplaza.cli.commands import Outcome, find_command

        if not text:
            self.console.print(escape(self.say("cli.prompt.empty")))
            return False
        word, _, rest = text.partition(" ")
        command = find_command(word)
        if command is not None:
            outcome = command.run(self, rest.strip())
            if outcome is Outcome.REDRAW:
                self.keep_screen = True  # what the command said stays above the table
                return True  # the turn starts again (after an undo)
            return outcome is Outcome.STOP
        try:
            action = self.parse(text)
        except IllegalAction as exc:
            self.console.print(f"[red]{escape(self.refusal(str(exc), text))}[/red]")
            return False
        try:
            self._apply(action, decision=True)
        except IllegalAction as exc:
            self.console.print(f"[red]{escape(self.refusal(str(exc), text))}[/red]")
            return False
        return True

    def refusal(self, reason: str, typed: str) -> str:
        """Why ``typed`` was not taken, in the session's language: the engine's reason as
        the view words it, or (when it has no words for it) a plain note in the language."""
        said = self.view.engine_words(reason)
        if self.lang != "en" and re.search(r"[A-Za-z]{2,}", said):
            return self.say("cli.rest.bad_move", text=typed)
        return said

    def parse(self, text: str) -> Action:
        """The action ``text`` names in the person's current decision (input grammar)."""
        return read_action(self.view, self.state, self.observation, self.current_menu(),
                           text, self.say)

    def _apply(self, action: Action, decision: bool) -> None:
        index = len(self.state.history)
        self.state.apply(action)
        if decision:
            self.decisions.append(index)
        self.tell(lambda: self.view.show_action(self.state, self.seat, action,
                                                self.observation))

    # -- undo -------------------------------------------------------------------------
    def undo(self) -> str:
        """Take back the person's last decision and every move after it; say what."""
        if not self.decisions:
            raise ValueError(self.say("cli.undo.none"))
        index = self.decisions.pop()
        _, action = self.state.history[index]
        later = len(self.state.history) - index - 1
        self.rebuild(index)
        taken = self.view.action_words(self.state, action)
        self.count("undo")
        if later:
            return self.say("cli.undo.done.more", action=taken, n=later)
        return self.say("cli.undo.done", action=taken)

    def rebuild(self, length: int) -> None:
        """Set the game back to its first ``length`` actions, with a view in step."""
        actions = [a for _, a in self.state.history[:length]]
        state = self.spec.new_game(self.options, self.seed)
        quiet = make_console(file=_Discard(), width=self.console.width)
        view: TerminalView = make_view(self.spec, quiet, self.seat, self.lang)
        for action in actions:
            seat = state.current_player
            state.apply(action)
            view.show_action(state, seat, action, state.observation(self.seat))
        view.console = self.console
        self.state, self.view = state, view


class _Discard:
    """A text sink (a view brought up to date silently)."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        """Nothing to flush."""


def play_terminal(game: str, options: Any, seed: int, level: str = "random",
                  human_seat: int = 0, console: Console | None = None,
                  read: Callable[[str], str] | None = None,
                  save: str | None = None, streak: Any = None,
                  lang: str = "en") -> GameState:
    """Let a person play one game of ``game`` at ``human_seat`` against computers."""
    spec = get_game(game)
    console = console or make_console()
    reader = read or (lambda prompt: console.input(prompt))
    session = Session(spec, spec.options_type() if options is None else options, seed,
                      level, console, reader, human_seat, save, streak, lang)
    return session.run()


class Series(list[GameState]):
    """The games of a series in order; ``interrupted`` when the person pressed Ctrl-C."""

    interrupted: bool = False


def play_series(game: str, options: Any, seed: int | None, level: str,
                console: Console, read: Callable[[str], str], save: str | None = None,
                streak: Any = None, human_seat: int = 0,
                results: Path | None = None, lang: str = "en") -> Series:
    """Games one after another while the person answers "play again" with yes.

    The next game's options come from the game's ``rematch`` hook (E-fuda-tori passes the
    deal to the left, two-hand Pinochle alternates the dealer); a chosen ``seed`` gives the
    next games the seeds after it, otherwise each deal is random. On the two-hand ladder
    the streak continues and sets each game's level. With ``results`` each finished game
    is counted in that statistics file (``cardplaza stats``). ``lang`` is the language of
    the loop's own lines.
    """
    import secrets

    spec = get_game(game)
    opts = spec.options_type() if options is None else options
    number = 1
    played = Series()
    current = secrets.randbelow(2**31) if seed is None else seed
    while True:
        game_level = streak.level_name(spec) if streak is not None else level
        session = Session(spec, opts, current, game_level, console, read, human_seat,
                          numbered_path(save, number) if save else None, streak, lang)
        state = session.run()
        played.append(state)
        if results is not None:
            from cardplaza.cli.stats import record_session

            record_session(session, results)
        played.interrupted = session.stopped == "interrupted"
        if session.stopped is not None:
            return played
        again = _ask_again(console, read, lang)
        if again is not True:
            played.interrupted = again is None
            return played
        opts = spec.rematch_options(opts, state)
        current = current + 1 if seed is not None else secrets.randbelow(2**31)
        number += 1


def _ask_again(console: Console, read: Callable[[str], str],
               lang: str = "en") -> bool | None:
    """Whether the person wants another game; ``None`` after Ctrl-C."""
    try:
        answer = read(catalog_text("cli.again", lang)).strip().lower()
    except EOFError:
        console.print()
        return False
    except KeyboardInterrupt:
        console.print()
        return None
    return answer in ("y", "yes")
