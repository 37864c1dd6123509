"""``cardplaza join LINK-OR-CODE``: a seat of a room, played from the terminal.

The seat is taken over HTTP as the browser takes it (:mod:`.netclient`), then the table is
followed over the WebSocket protocol. The game's own terminal view draws it, with the same
commands as ``cardplaza play`` (``help``, ``legal``, ``tricks``, ``rules``, ``undo``,
``quit``), from what the server sends this seat: its observation, its legal actions and the
public form of each move (:class:`.seatview.SeatState`). The others' moves, a computer
standing in for someone who is away and the hand-back, undo requests (``undo`` asks the
others; a request from someone else is answered with y or n) and the end of the game are
shown as they happen. Hints are the browser's at a shared table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from rich.console import Console
from rich.markup import escape

from cardplaza.cli.commands import Outcome, find_command
from cardplaza.cli.netclient import Seated, TableLink
from cardplaza.cli.seatview import SeatState, forms_engine
from cardplaza.cli.view import TerminalView, make_view, read_action
from cardplaza.core.protocol import Action, GameState, IllegalAction
from cardplaza.core.registry import GameSpec, get_game
from cardplaza.texts.catalog import catalog, has
from cardplaza.texts.catalog import text as catalog_text

__all__ = ["RoomSession", "join_room"]

LOCAL_ONLY = ("hint", "helper")
"""Commands that need the whole game on this machine: at a shared table they are the
server's (and the host's choice), so the terminal does not offer them."""

UNDO_ENDED = {"accepted": "cli.join.undo.accepted", "refused": "cli.join.undo.refused",
              "withdrawn": "cli.join.undo.withdrawn", "lapsed": "cli.join.undo.lapsed",
              "expired": "cli.join.undo.expired"}
"""How an undo request ended → what the terminal says."""
UNDO_MINE = {"accepted": "cli.join.undo.mine.accepted", "refused": "cli.join.undo.mine.refused",
             "lapsed": "cli.join.undo.mine.lapsed", "expired": "cli.join.undo.mine.lapsed"}
"""The same, for this seat's own request."""


@dataclass
class RoomSession:
    """One person's seat at a room's table, played in the terminal."""

    seated: Seated
    link: TableLink
    console: Console
    read: Callable[[str], str]
    lang: str = "en"
    streak: Any = None
    level: str = ""
    stopped: str | None = None
    spec: GameSpec = field(init=False)
    seat: int = field(init=False)
    msg: dict[str, Any] = field(default_factory=dict)
    seat_state: SeatState | None = None
    view: TerminalView = field(init=False)
    counters: dict[str, int] = field(default_factory=dict)
    shown_step: int = -1
    acted_step: int | None = None
    answered: tuple[int, int] | None = None
    away_told: set[int] = field(default_factory=set)
    forms: GameState | None = None

    def __post_init__(self) -> None:
        self.spec = get_game(self.seated.game)
        self.seat = self.seated.seat
        self.view = make_view(self.spec, self.console, self.seat, self.lang)

    # -- what the commands use (:class:`cardplaza.cli.commands.Session`) ------------------
    @property
    def state(self) -> GameState:
        """The seat's view in the shape the terminal views read (see :mod:`.seatview`)."""
        assert self.seat_state is not None
        return cast(GameState, self.seat_state)

    @property
    def observation(self) -> dict[str, Any]:
        """This seat's observation, as the server last sent it."""
        obs: dict[str, Any] = self.msg.get("obs") or {}
        return obs

    @property
    def is_streak_game(self) -> bool:
        """A room's game is never on the winning streak."""
        return False

    def current_menu(self) -> list[Action]:
        """The numbered choices of this seat's decision."""
        return self.view.menu(self.state, self.observation, self.state.legal_actions())

    def say(self, key: str, **params: Any) -> str:
        """A text of the message catalog in the session's language."""
        return catalog_text(key, self.lang, **params)

    def count(self, key: str) -> None:
        """Count one use of a help."""
        self.counters[key] = self.counters.get(key, 0) + 1

    def undo(self) -> str:
        """Ask the other people to take back this seat's last decision."""
        self.link.send({"type": "undo"})
        self.count("undo")
        return self.say("cli.join.undo.asked")

    # -- names ---------------------------------------------------------------------------
    def who(self, seat: int) -> str:
        """A seat's name at this table ("you" for this seat)."""
        if seat == self.seat:
            return self.say("cli.join.you")
        players = self.msg.get("players") or []
        if 0 <= seat < len(players):
            p = players[seat]
            if p.get("kind") == "computer":  # named as the browser names it, by seat
                roster = sum(1 for k in catalog(self.lang) if k.startswith("look.cpu."))
                return self.say("cli.join.computer", name=self.say(f"look.cpu.{seat % roster}"))
            return str(p.get("name") or seat + 1)
        return str(seat + 1)

    def tell(self, key: str, style: str = "", **params: Any) -> None:
        """Print a catalog text (escaped), optionally styled."""
        line = escape(self.say(key, **params))
        self.console.print(f"[{style}]{line}[/{style}]" if style else line)

    # -- running -------------------------------------------------------------------------
    def run(self) -> str:
        """Play until the game ends, the person quits or the connection is gone; why it
        stopped (``over``, ``quit``, ``input closed``, ``connection lost``)."""
        title = self.spec.title_ja if self.lang == "ja" else self.spec.title
        self.console.rule(f"[bold]{escape(title)}[/bold] — "
                          f"{escape(self.say('cli.join.title', seat=self.seat + 1))}")
        self.console.print(f"[dim]{escape(self.say('cli.start.help'))}[/dim]")
        try:
            while self.stopped is None:
                msg = self.link.get(timeout=0.5)
                if msg is not None:
                    self.handle(msg)
                    if self.link.pending():
                        continue
                if self.stopped is None and self.seat_state is not None:
                    self.prompt()
        except KeyboardInterrupt:
            self.stopped = "interrupted"
            self.console.print("\n" + escape(self.say("cli.interrupted")))
        if self.stopped in ("quit", "interrupted", "input closed"):
            self.tell("cli.join.left")
        return self.stopped or "over"

    def handle(self, msg: dict[str, Any]) -> None:
        """One message from the server."""
        kind = msg.get("type")
        if kind == "state":
            self.on_state(msg)
        elif kind == "notice":
            seat = int(msg.get("seat", -1))
            if msg.get("kind") == "standin":
                self.tell("cli.join.standin", "yellow", name=self.who(seat))
            elif msg.get("kind") == "back":
                self.away_told.discard(seat)
                self.tell("cli.join.back", "green", name=self.who(seat))
        elif kind == "undo_asked":
            self.tell("cli.join.undo.waiting", "dim")
        elif kind == "undo_ended":
            mine = msg.get("by") == self.seat
            key = (UNDO_MINE if mine else UNDO_ENDED).get(str(msg.get("reason")))
            if key is not None:
                self.tell(key, "yellow", name=self.who(int(msg.get("by", -1))))
        elif kind == "error":
            self.on_error(msg)
        elif kind == "reconnecting":
            if msg.get("attempt") == 1:
                self.tell("cli.join.reconnecting", "yellow")
        elif kind == "closed":
            self.tell("cli.join.closed", "red")
            self.stopped = "connection lost"

    def on_error(self, msg: dict[str, Any]) -> None:
        code = str(msg.get("code"))
        key = f"err.{code}"
        raw = msg.get("params")
        params: dict[str, Any] = raw if isinstance(raw, dict) else {}
        said = (catalog_text(key, self.lang, **params) if has(key, self.lang)
                else str(msg.get("message") or code))
        self.console.print(f"[red]{escape(said)}[/red]")
        self.acted_step = None  # the decision (if any) is still to be made
        if code == "bad_token":
            self.stopped = "refused"

    def on_state(self, msg: dict[str, Any]) -> None:
        """A new state of the table: the move that led to it, presence, requests, the end."""
        first = not self.msg
        if msg.get("step", 0) < self.msg.get("step", 0):
            # Taken back (an undo everyone accepted): the view starts afresh.
            self.tell("cli.join.undone", "yellow")
            self.view = make_view(self.spec, self.console, self.seat, self.lang)
            self.shown_step = int(msg.get("step", 0)) - 1
            self.acted_step = None  # a decision sent past this point was taken back too
        self.msg = msg
        if self.forms is None:
            self.forms = forms_engine(self.spec, msg.get("options") or {})
        self.seat_state = SeatState(self.spec, self.forms, msg)
        room = msg.get("room") or {}
        if first:
            names = ", ".join(f"{i + 1} {self.who(i)}" for i in range(len(msg["players"])))
            self.tell("cli.join.players", names=names)
            intro = self.view.intro(self.observation)
            if intro:
                self.console.print(intro)
            self.shown_step = int(msg.get("step", 0)) - 1
        self.show_move(room.get("move"))
        self.show_presence(room)
        if msg.get("terminal"):
            self.view.show_end(self.state, self.observation)
            self.tell("cli.join.over", "bold")
            self.stopped = "over"

    def show_move(self, move: Any) -> None:
        """The table's latest move, once, through the game's view."""
        if not isinstance(move, dict) or int(move.get("step", -1)) <= self.shown_step:
            return
        self.shown_step = int(move["step"])
        seat = int(move["seat"])
        assert self.seat_state is not None
        if "json" in move:
            try:
                action = self.seat_state.from_json(move["json"])
                self.view.show_action(self.state, seat, action, self.observation)
            except Exception:
                self.tell("cli.join.move", name=self.who(seat), text=str(move.get("text")))
        else:
            self.tell("cli.join.move", name=self.who(seat), text=str(move.get("text")))
        if move.get("standin"):
            self.tell("cli.join.standin_move", "dim", name=self.who(seat))

    def show_presence(self, room: dict[str, Any]) -> None:
        """Say once when a person's connection drops (with the stand-in's countdown)."""
        for i, entry in enumerate(room.get("seats") or []):
            if not isinstance(entry, dict) or i == self.seat:
                continue
            if entry.get("here"):
                self.away_told.discard(i)
            elif "left" in entry and i not in self.away_told:
                self.away_told.add(i)
                self.tell("cli.join.away", "yellow", name=self.who(i),
                          seconds=entry["left"])

    # -- this seat's decisions --------------------------------------------------------
    def prompt(self) -> None:
        """Answer an undo request, or make this seat's decision, when one is due."""
        msg = self.msg
        if msg.get("terminal"):
            return
        ask = (msg.get("room") or {}).get("undo")
        if isinstance(ask, dict):
            request = (int(ask["by"]), int(msg.get("step", 0)))
            if self.seat in ask.get("waiting", ()) and self.answered != request:
                self.answered = request
                self.answer_undo(int(ask["by"]))
            return
        step = int(msg.get("step", 0))
        if msg.get("current") != self.seat or not msg.get("legal") or self.acted_step == step:
            return
        state, obs = self.state, self.observation
        legal = state.legal_actions()
        menu = self.view.menu(state, obs, legal)
        if len(legal) == 1 or len(menu) == 1:
            only = menu[0] if len(menu) == 1 else legal[0]
            self.view.show_forced(state, obs, only)
            self.act(only, step)
            return
        self.view.show_turn(state, obs, legal)
        while self.stopped is None:
            try:
                text = self.read("> ").strip()
            except EOFError:
                self.console.print(escape(self.say("cli.input_closed")))
                self.stopped = "input closed"
                return
            if self.line(text, step) or self.link.pending():
                return

    def answer_undo(self, by: int) -> None:
        try:
            answer = self.read(self.say("cli.join.undo.ask", name=self.who(by))).strip()
        except EOFError:
            answer = "n"
        yes = answer.lower() in ("y", "yes", "はい")
        self.link.send({"type": "undo_answer", "accept": yes})

    def line(self, text: str, step: int) -> bool:
        """One line typed at this seat's turn; True when the turn is over for now."""
        if not text:
            self.console.print(escape(self.say("cli.prompt.empty")))
            return False
        word, _, rest = text.partition(" ")
        command = find_command(word)
        if command is not None and command.name in LOCAL_ONLY:
            self.tell("cli.join.no_hint", "yellow")
            return False
        if command is not None:
            outcome = command.run(cast(Any, self), rest.strip())
            return outcome is not Outcome.PROMPT
        try:
            action = self.parse(text)
            self.act(action, step)
        except IllegalAction as exc:
            self.console.print(f"[red]{escape(str(exc))}[/red]")
            return False
        return True

    def parse(self, text: str) -> Action:
        """The action ``text`` names (the grammar of ``cardplaza play``)."""
        return read_action(self.view, self.state, self.observation, self.current_menu(),
                           text, self.say)

    def act(self, action: Action, step: int) -> None:
        """Send a decision (the server's own JSON form of the legal action)."""
        assert self.seat_state is not None
        data = self.seat_state.json_of(action)
        self.acted_step = step
        self.link.send({"type": "act", "action": data, "step": step})


def join_room(seated: Seated, console: Console, read: Callable[[str], str],
              lang: str = "en") -> str:
    """Play a seat already taken (:func:`.netclient.claim_seat`); why it stopped."""
    link = TableLink(seated)
    try:
        return RoomSession(seated, link, console, read, lang).run()
    finally:
        link.close()
