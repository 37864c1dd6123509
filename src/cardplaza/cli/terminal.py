"""Terminal play: the view interface each game implements, and the generic play loop."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from rich.console import Console
from rich.panel import Panel

from cardplaza.ai.player import Player, computer_player
from cardplaza.core.history import GameRecord
from cardplaza.core.protocol import Action, GameState, IllegalAction
from cardplaza.core.registry import get_game


class TerminalView(Protocol):
    """What a game shows a person in the terminal.

    Views display only the human seat's ``observation``; the live ``state`` is passed for
    the text forms of actions (``state.action_text``) and must not be read otherwise.
    """

    def __init__(self, console: Console, seat: int) -> None: ...

    def show_turn(self, state: GameState, observation: dict[str, Any],
                  legal: Sequence[Action]) -> None:
        """Draw the table before the person acts: hand, trump, legal actions, scores."""

    def show_action(self, state: GameState, seat: int, action: Action,
                    observation: dict[str, Any]) -> None:
        """Report an action just made by any seat (``observation`` is after it)."""

    def show_end(self, state: GameState, observation: dict[str, Any]) -> None:
        """Final summary and result."""

    def help_text(self) -> str:
        """How to type actions in this game."""


class GenericView:
    """Fallback view: lists the legal actions by their text forms."""

    def __init__(self, console: Console, seat: int) -> None:
        self.console = console
        self.seat = seat

    def show_turn(self, state: GameState, observation: dict[str, Any],
                  legal: Sequence[Action]) -> None:
        """Show the legal actions."""
        self.console.print("Legal: " + "  ".join(state.action_text(a) for a in legal))

    def show_action(self, state: GameState, seat: int, action: Action,
                    observation: dict[str, Any]) -> None:
        """Echo the action."""
        self.console.print(f"Seat {seat}: {state.action_text(action)}")

    def show_end(self, state: GameState, observation: dict[str, Any]) -> None:
        """Print the final scores and the winning seats."""
        self.console.print(f"Final scores: {state.returns()}")
        self.console.print("Won by seat" + ("s " if len(state.winners()) > 1 else " ")
                           + ", ".join(str(s) for s in state.winners()))

    def help_text(self) -> str:
        """Generic help."""
        return "Type one of the legal actions as shown."


COMMANDS_HELP = "Commands: 'help' shows how to type actions, 'legal' lists them, 'quit' stops."


def play_terminal(game: str, options: Any, seed: int, level: str = "random",
                  human_seat: int = 0, console: Console | None = None,
                  read: Callable[[str], str] | None = None,
                  save: str | None = None) -> GameState:
    """Let a person play ``game`` at ``human_seat`` against computers until the end."""
    spec = get_game(game)
    console = console or Console()
    read = read or (lambda prompt: console.input(prompt))
    state = spec.new_game(options, seed)
    view_cls: Any = spec.hook("terminal") if "terminal" in spec.hooks else GenericView
    view: TerminalView = view_cls(console, human_seat)
    computers: dict[int, Player] = {
        s: computer_player(game, level, seed * 7919 + s)
        for s in range(state.num_players) if s != human_seat
    }
    rngs = {s: random.Random(seed * 104729 + s) for s in computers}
    console.print(Panel(f"{spec.title} — seed {seed}, computer: {level}\n{COMMANDS_HELP}"))
    while not state.is_terminal:
        seat = state.current_player
        if seat == human_seat:
            legal = state.legal_actions()
            view.show_turn(state, state.observation(seat), legal)
            try:
                text = read("> ").strip()
            except EOFError:
                console.print("Input closed: the game stops here.")
                break
            if text.lower() in ("quit", "exit", "q"):
                console.print("Game abandoned.")
                break
            if text.lower() in ("help", "?"):
                console.print(view.help_text())
                continue
            if text.lower() == "legal":
                console.print("  ".join(state.action_text(a) for a in legal))
                continue
            try:
                action = state.parse_action(text)
                state.apply(action)
            except IllegalAction as exc:
                console.print(f"[red]{exc}[/red] — type 'help' or 'legal'.")
                continue
        else:
            legal = state.legal_actions()
            action = computers[seat].choose(state.observation(seat), legal, rngs[seat])
            state.apply(action)
        view.show_action(state, seat, action, state.observation(human_seat))
    if state.is_terminal:
        view.show_end(state, state.observation(human_seat))
    if save:
        GameRecord.of(state).save(save)
        console.print(f"History saved to {save}")
    return state
