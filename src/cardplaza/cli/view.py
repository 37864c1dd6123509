"""The view interface each game's terminal play implements, and its base classes.

A game's view (``games/<game>/terminal.py``, reached through the registry's ``terminal``
hook) draws the table, the menu of choices and the end of a game, and reads moves typed in
words; :class:`ViewBase` gives the parts every game shares, :class:`GenericView` serves a
game without a view of its own.
"""

from __future__ import annotations

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
    """The view's language (``en`` or ``ja``): ``View(console, seat, lang=…)``, or set
    after building a view whose constructor does not take it yet."""

    def show_turn(self, state: GameState, observation: dict[str, Any],
                  legal: Sequence[Action]) -> None:
        """Draw the table before the person acts: hand, trump, the numbered choices."""

    def show_action(self, state: GameState, seat: int, action: Action,
                    observation: dict[str, Any]) -> None:
        """Report an action just made by any seat (``observation`` is after it)."""

    def show_end(self, state: GameState, observation: dict[str, Any]) -> None:
        """Final summary and result."""

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


class ViewBase:
    """Defaults for the optional parts of a view; game views subclass it."""

    OPTION_HELP: dict[str, str] = {}  # noqa: RUF012 - read-only table per game
    """What each rule option means, for ``cardplaza games``."""

    def __init__(self, console: Console, seat: int, lang: str = "en") -> None:
        self.console = console
        self.seat = seat
        self.lang = lang
        """The language of the view's own texts (``en`` or ``ja``; games that have no
        catalog texts yet speak English)."""

    def text(self, key: str, **params: Any) -> str:
        """The message catalog's text of ``key`` in the view's language (a game's view
        reaches the catalog through its view, not by importing it)."""
        return catalog_text(key, self.lang, **params)

    def has_text(self, key: str) -> bool:
        """Whether the message catalog has ``key``."""
        return catalog_has(key)

    def help_text(self) -> str:
        """How to type moves (games override)."""
        return "Type the number of a choice, or the move in words as the list shows it."

    def rules_text(self) -> str:
        """The rules in a few lines (games override)."""
        return ""

    def name(self, observation: dict[str, Any], seat: int) -> str:
        """"You" for the person, "Seat n" for the others."""
        return "You" if seat == self.seat else f"Seat {seat}"

    def intro(self, observation: dict[str, Any]) -> str:
        """Seat number of the person."""
        return f"You play seat {self.seat}; the other seats are computers."

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
        self.console.print("  ".join(f"[bold]{i})[/bold] {state.action_text(a)}"
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
        self.console.print(f"[dim]Your only legal choice: {state.action_text(action)}.[/dim]")

    def show_history(self, state: GameState, observation: dict[str, Any]) -> None:
        """The public trick record, if the observation has one."""
        tricks = observation.get("tricks") or []
        if not tricks:
            self.console.print("No trick has been completed yet.")
        for i, t in enumerate(tricks, 1):
            self.console.print(f"Trick {t.get('number', i)}: led by "
                               f"{self.name(observation, t['leader'])}, won by "
                               f"{self.name(observation, t['winner'])}")


class GenericView(ViewBase):
    """Fallback view: lists the legal actions by their text forms."""

    def show_turn(self, state: GameState, observation: dict[str, Any],
                  legal: Sequence[Action]) -> None:
        """Show the numbered legal actions."""
        self.show_menu(state, observation, self.menu(state, observation, legal))

    def show_action(self, state: GameState, seat: int, action: Action,
                    observation: dict[str, Any]) -> None:
        """Echo the action."""
        self.console.print(f"{self.name(observation, seat)}: {state.action_text(action)}")

    def show_end(self, state: GameState, observation: dict[str, Any]) -> None:
        """Print the final scores and the winning seats."""
        self.console.print(f"Final scores: {state.returns()}")
        self.console.print("Won by seat" + ("s " if len(state.winners()) > 1 else " ")
                           + ", ".join(str(s) for s in state.winners()))


def view_class(spec: GameSpec) -> Any:
    """The game's terminal view class (the generic one if it has none)."""
    return spec.hook("terminal") if "terminal" in spec.hooks else GenericView


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


__all__ = ["GenericView", "TerminalView", "ViewBase", "read_action", "view_class"]
