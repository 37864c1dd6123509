"""The view interface each game's terminal play implements, and its base classes.

A game's view (``games/<game>/terminal.py``, reached through the registry's ``terminal``
hook) draws the table, the menu of choices and the end of a game, and reads moves typed in
words; :class:`ViewBase` gives the parts every game shares, :class:`GenericView` serves a
game without a view of its own.

A view speaks the player's language: :func:`make_view` makes it with ``lang`` (``en`` or
``ja``) — passed to ``__init__`` when the class takes a ``lang`` keyword, else set as the
attribute ``lang`` right after — and :meth:`ViewBase.say` gives the catalog's texts in it;
:meth:`ViewBase.engine_words` and :meth:`ViewBase.action_words` put the engines' English
texts into it.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from rich.console import Console

from cardplaza.core.protocol import Action, ActionParseError, GameState
from cardplaza.core.registry import GameSpec
from cardplaza.texts.catalog import has as catalog_has
from cardplaza.texts.catalog import text as catalog_text


class TerminalView(Protocol):
    """What a game shows a person in the terminal.

    Views display only the human seat's ``observation``; the live ``state`` is passed for
    the text forms of actions (``state.action_text``) and the numbered menu, and must not
    be read otherwise. Subclass :class:`ViewBase` for the optional parts.
    """

    console: Console
    seat: int
    lang: str
    """The language of what the view shows (``en`` or ``ja``; see :func:`make_view`)."""

    def show_turn(self, state: GameState, observation: dict[str, Any],
                  legal: Sequence[Action]) -> None:
        """Draw the table before the person acts: hand, trump, the numbered choices."""

    def show_action(self, state: GameState, seat: int, action: Action,
                    observation: dict[str, Any]) -> None:
        """Report an action just made by any seat (``observation`` is after it)."""

    def show_end(self, state: GameState, observation: dict[str, Any]) -> None:
        """Final summary and result."""

    def engine_words(self, text: str) -> str:
        """An engine's English text (a move, why a move is not legal) in ``lang``."""

    def action_words(self, state: GameState, action: Action) -> str:
        """An action's text as the view shows it, in ``lang``."""

    def help_text(self) -> str:
        """How to type this game's moves."""

    def rules_text(self) -> str:
        """The rules in a few lines."""

    def name(self, observation: dict[str, Any], seat: int) -> str:
        """How a seat is called ("You" for the person)."""

    def intro(self, observation: dict[str, Any]) -> str:
        """The person's seat and role, said at the start of a game."""

    def menu(self, state: GameState, observation: dict[str, Any],
             legal: Sequence[Action]) -> list[Action]:
        """The numbered choices, in the order ``show_turn`` numbers them."""

    def show_menu(self, state: GameState, observation: dict[str, Any],
                  menu: Sequence[Action]) -> None:
        """Print the numbered choices (the ``legal`` command)."""

    def parse_number(self, state: GameState, observation: dict[str, Any],
                     number: int) -> Action | None:
        """The action a bare number means here, or ``None`` for "menu item ``number``"."""

    def parse_text(self, state: GameState, observation: dict[str, Any],
                   text: str) -> Action | None:
        """A game-specific reading of ``text`` tried before the engine's, or ``None``."""

    def show_forced(self, state: GameState, observation: dict[str, Any],
                    action: Action) -> None:
        """Say that the person's only legal action is being taken for them."""

    def show_history(self, state: GameState, observation: dict[str, Any]) -> None:
        """Every trick of the current hand (leader, cards, winner) and the auction."""


_NUMBER_WORDS = {"three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
ENGINE_PATTERNS: tuple[tuple[str, str], ...] = (
    (r"play (?P<what>.+)", "eng.play"),
    (r"no meld", "eng.no_meld"),
    (r"meld (?P<what>.+)", "eng.meld"),
    (r"pass", "eng.pass"),
    (r"bid (?P<n>\d+)", "eng.bid"),
    (r"trump (?P<suit>.+)", "eng.trump"),
    (r"give (?P<cards>.+)", "eng.give"),
    (r"discard (?P<cards>.+)", "eng.discard"),
    (r"point of (?P<n>three|four|five|six|seven|eight)", "eng.point_of"),
    (r"You must follow suit: (?P<led>\S+) was led and you hold (?P<suit>.)", "eng.follow_led"),
    (r"You must follow suit: you hold (?P<suit>.) \(play a . or the Joker\)",
     "eng.follow_or_joker"),
    (r"You must follow suit: you hold (?P<suit>.) \(play a .\)", "eng.follow_play"),
    (r"You must follow suit: you hold (?P<suit>.)", "eng.follow_hold"),
    (r"You must follow (?P<suit>.) and win the trick: play (?P<cards>.+)", "eng.follow_win"),
    (r"You must follow (?P<suit>.): play (?P<cards>.+)", "eng.follow"),
    (r"You have no (?P<suit>.), so you must play a trump \((?P<trump>.)\): play (?P<cards>.+)",
     "eng.must_trump"),
    (r"You are void in (?P<suit>.), so you must trump: you hold (?P<trump>.)",
     "eng.void_trump"),
    (r"You must beat the winning (?P<card>\S+) with a higher (?P<suit>.): you hold "
     r"(?P<cards>.+)", "eng.beat"),
    (r"You must over-trump the winning (?P<card>\S+): you hold (?P<cards>.+)",
     "eng.overtrump"),
    (r"On the first lead of the game you may not lead a spade.*", "eng.first_lead_spade"),
    (r"On the first lead of the game you may not lead a trump.*", "eng.first_lead_trump"),
    (r"The ♠3 has been played and you hold the Joker.*", "eng.joker_due"),
    (r"You hold a trump: the Joker forces you to play one", "eng.joker_forces"),
    (r"You won the trick: make a meld or decline.*", "eng.meld_or_decline"),
    (r".*you must follow suit.*", "eng.must_follow"),
    (r".*not your turn.*", "eng.not_your_turn"),
    (r".*the game is over.*", "eng.game_over"),
)
"""The engines' English texts the catalog has in other languages (``eng.*``), as the
browser's ``engineText`` reads them: a whole text matched, its parts put into the key."""


def engine_words(text: str, lang: str) -> str:
    """An engine's English ``text`` in ``lang`` where a pattern knows it, else unchanged."""
    if lang == "en":
        return text
    for pattern, key in ENGINE_PATTERNS:
        m = re.fullmatch(pattern, text, flags=re.IGNORECASE)
        if m:
            params: dict[str, Any] = dict(m.groupdict())
            if key == "eng.point_of":
                params["n"] = _NUMBER_WORDS[params["n"].lower()]
            return catalog_text(key, lang, **params)
    return text


class ViewBase:
    """Defaults for the optional parts of a view; game views subclass it."""

    OPTION_HELP: dict[str, str] = {}  # noqa: RUF012 - read-only table per game
    """What each rule option means, for ``cardplaza games``."""

    redrawing = False
    """Set by the play loop when every turn is drawn on a fresh screen: a view then draws
    the whole table each time instead of only what changed since its last turn."""

    def __init__(self, console: Console, seat: int, lang: str = "en") -> None:
        self.console = console
        self.seat = seat
        self.lang = lang

    def text(self, key: str, **params: Any) -> str:
        """The message catalog's text of ``key`` in the view's language (a game's view
        reaches the catalog through its view, not by importing it)."""
        return catalog_text(key, self.lang, **params)

    def has_text(self, key: str) -> bool:
        """Whether the message catalog has ``key``."""
        return catalog_has(key)

    def say(self, key: str, **params: Any) -> str:
        """A text of the message catalog in the view's language (views whose keys share a
        prefix override it to add theirs)."""
        return self.text(key, **params)

    def engine_words(self, text: str) -> str:
        """An engine's English text (an action, a reason an action is not legal) in the
        view's language: the catalog's ``eng.*`` forms where one matches, else as it is.
        Games with words of their own extend it."""
        return engine_words(text, self.lang)

    def action_words(self, state: GameState, action: Action) -> str:
        """An action's text as this view shows it (in the view's language)."""
        return self.engine_words(state.action_text(action))

    def help_text(self) -> str:
        """How to type moves (games override)."""
        return self.text("cli.rest.help")

    def rules_text(self) -> str:
        """The rules in a few lines (games override)."""
        return ""

    def name(self, observation: dict[str, Any], seat: int) -> str:
        """"You" for the person, "Seat n" for the others."""
        return self.text("cli.rest.you") if seat == self.seat else self.text("cli.rest.seat",
                                                                           n=seat)

    def intro(self, observation: dict[str, Any]) -> str:
        """Seat number of the person."""
        return self.text("cli.rest.intro", n=self.seat)

    def menu(self, state: GameState, observation: dict[str, Any],
             legal: Sequence[Action]) -> list[Action]:
        """The legal actions in the engine's order."""
        return list(legal)

    def show_menu(self, state: GameState, observation: dict[str, Any],
                  menu: Sequence[Action]) -> None:
        """``1) text  2) text …`` (how to type the move when there is no list)."""
        if not menu:
            self.console.print(self.help_text())
            return
        self.console.print("  ".join(f"[bold]{i})[/bold] {self.action_words(state, a)}"
                                     for i, a in enumerate(menu, 1)))

    def parse_number(self, state: GameState, observation: dict[str, Any],
                     number: int) -> Action | None:
        """A bare number is a menu item."""
        return None

    def parse_text(self, state: GameState, observation: dict[str, Any],
                   text: str) -> Action | None:
        """No game-specific reading."""
        return None

    def show_forced(self, state: GameState, observation: dict[str, Any],
                    action: Action) -> None:
        """One line naming the only legal action."""
        said = self.text("cli.rest.only_choice", action=self.action_words(state, action))
        self.console.print(f"[dim]{said}[/dim]")

    def show_history(self, state: GameState, observation: dict[str, Any]) -> None:
        """The public trick record, if the observation has one."""
        tricks = observation.get("tricks") or []
        if not tricks:
            self.console.print(self.text("cli.rest.no_trick"))
        for i, t in enumerate(tricks, 1):
            self.console.print(self.text("cli.rest.trick.short", n=t.get("number", i),
                                        lead=self.name(observation, t["leader"]),
                                        wins=self.name(observation, t["winner"])))


class GenericView(ViewBase):
    """Fallback view: lists the legal actions by their text forms."""

    def show_turn(self, state: GameState, observation: dict[str, Any],
                  legal: Sequence[Action]) -> None:
        """Show the numbered legal actions."""
        self.show_menu(state, observation, self.menu(state, observation, legal))

    def show_action(self, state: GameState, seat: int, action: Action,
                    observation: dict[str, Any]) -> None:
        """Echo the action."""
        self.console.print(f"{self.name(observation, seat)}: "
                           f"{self.action_words(state, action)}")

    def show_end(self, state: GameState, observation: dict[str, Any]) -> None:
        """Print the final scores and the winning seats."""
        scores = self.text("cli.rest.list_sep").join(
            f"{self.name(observation, s)} {v:g}" for s, v in enumerate(state.returns()))
        self.console.print(self.text("cli.rest.final", scores=scores))
        winners = self.text("cli.rest.list_sep").join(self.name(observation, s)
                                                     for s in state.winners())
        self.console.print(self.text("cli.rest.won_by", names=winners))


def view_class(spec: GameSpec) -> Any:
    """The game's terminal view class (the generic one if it has none)."""
    return spec.hook("terminal") if "terminal" in spec.hooks else GenericView


def make_view(spec: GameSpec, console: Console, seat: int, lang: str = "en") -> Any:
    """The game's view for ``seat``, speaking ``lang``.

    A view class whose ``__init__`` takes a ``lang`` keyword gets it there; an older one
    (``__init__(console, seat)``) is made without it and has ``lang`` set afterwards, so
    every view can read ``self.lang`` once it is made (not inside its ``__init__``)."""
    cls = view_class(spec)
    try:
        takes_lang = "lang" in inspect.signature(cls).parameters
    except (TypeError, ValueError):
        takes_lang = False
    view = cls(console, seat, lang=lang) if takes_lang else cls(console, seat)
    view.lang = lang
    return view


def read_action(view: TerminalView, state: GameState, obs: dict[str, Any],
                menu: Sequence[Action], text: str, say: Callable[..., str]) -> Action:
    """The action a person's ``text`` names (the input grammar of terminal play): a number
    of the menu (or a number the game reads itself, such as a bid; ``#N`` is always the
    menu's), a number the game reads when there is no menu (Piquet: places in the hand),
    else the view's or the game's own words. ``say`` gives the catalog's texts."""
    m = re.fullmatch(r"(#)?\s*(\d+)", text)
    if m:
        number = int(m.group(2))
        if not m.group(1):
            special = view.parse_number(state, obs, number)
            if special is not None:
                return special
        if not menu:  # the numbers are the game's own (Piquet: places in the hand)
            special = view.parse_number(state, obs, number)
            if special is not None:
                return special
            raise ActionParseError(say("cli.parse.no_list"))
        if 1 <= number <= len(menu):
            return menu[number - 1]
        raise ActionParseError(say("cli.parse.not_listed", number=number, last=len(menu)))
    special = view.parse_text(state, obs, text)
    if special is not None:
        return special
    return state.parse_action(text)


__all__ = ["ENGINE_PATTERNS", "GenericView", "TerminalView", "ViewBase", "engine_words",
           "make_view", "read_action", "view_class"]
