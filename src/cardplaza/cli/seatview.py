"""A seat's view of a game played on a server, shaped as the terminal views expect.

The terminal views (``games/<game>/terminal.py``) draw from a seat's *observation*; they
take the game state only for the words of actions (``action_text``), the numbered menu
(``legal_actions``, ``choices``), reading typed moves (``parse_action``), why a card cannot
be played and the final result. At a table on a server the terminal holds no game state at
all: :class:`SeatState` answers those questions from what the server sent this seat — its
observation, its legal actions with their text and JSON forms, the illegal-card reasons,
the result — and from the public form of the last move (``room.move``). Nothing else is
known, so nothing else can be shown.

Actions are the engine's own values (the views test them, e.g. "a card is an int below
48"). They are read from the server's JSON forms with an engine of the same game and
options dealt from seed 0 (:attr:`SeatState.forms`): a deal that has nothing to do with the
table's, used only to turn a JSON form into an action value. What is sent back for a
decision is always the server's own JSON form of that legal action.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from cardplaza.core.protocol import Action, ActionParseError, GameState
from cardplaza.core.registry import GameSpec

__all__ = ["SeatState", "forms_engine", "same_words"]

SUIT_LETTERS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}


def same_words(text: str) -> str:
    """A move's words made comparable: lower case, suits as letters, 10 as t, no "play"."""
    out = text.strip().lower()
    for symbol, letter in SUIT_LETTERS.items():
        out = out.replace(symbol, letter)
    out = " ".join(out.replace("10", "t").split())
    return out.removeprefix("play ").removeprefix("p ")


def forms_engine(spec: GameSpec, options: dict[str, Any]) -> GameState:
    """An engine of the table's game and options, dealt from seed 0 (not the table's deal):
    it only turns JSON forms into action values."""
    return spec.new_game(spec.options(options), 0)


def _key(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


class SeatState:
    """What one seat knows of a game on a server (see the module's note)."""

    def __init__(self, spec: GameSpec, forms: GameState, msg: dict[str, Any]) -> None:
        self.spec = spec
        self.forms = forms
        self.msg = msg
        self.game_name = spec.name
        self.num_players = len(msg.get("players") or []) or forms.num_players
        self._legal: list[Action] = []
        self._json: dict[str, Any] = {}
        self._text: dict[str, str] = {}
        for entry in msg.get("legal") or []:
            action = self.from_json(entry["json"])
            key = _key(self._plain(action))
            self._legal.append(action)
            self._json[key] = entry["json"]
            self._text[key] = str(entry["text"])
        move = (msg.get("room") or {}).get("move")
        if isinstance(move, dict) and "json" in move:
            with_move = self.from_json(move["json"])
            self._text.setdefault(_key(self._plain(with_move)), str(move["text"]))

    @staticmethod
    def _plain(action: Action) -> Any:
        return list(action) if isinstance(action, tuple) else action

    def from_json(self, data: Any) -> Action:
        """The action value of a JSON form."""
        return self.forms.action_from_json(data)

    def json_of(self, action: Action) -> Any:
        """The server's JSON form of one of this seat's legal actions."""
        key = _key(self._plain(action))
        if key not in self._json:
            raise ActionParseError("that is not one of your choices now")
        return self._json[key]

    # -- what the views ask ------------------------------------------------------------
    @property
    def observation_now(self) -> dict[str, Any]:
        """This seat's observation."""
        obs: dict[str, Any] = self.msg.get("obs") or {}
        return obs

    @property
    def current_player(self) -> int:
        """The seat to act."""
        return int(self.msg.get("current", -1))

    @property
    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return bool(self.msg.get("terminal"))

    @property
    def history(self) -> list[Any]:
        """Only the number of actions is known here (``step``)."""
        return [None] * int(self.msg.get("step", 0))

    def legal_actions(self) -> Sequence[Action]:
        """This seat's legal actions (none when another seat is to act)."""
        return list(self._legal)

    def choices(self) -> list[Action]:
        """The numbered menu of the games that have one: the legal actions."""
        return list(self._legal)

    def action_text(self, action: Action) -> str:
        """The words of a legal action (the server's) or of the last move."""
        text = self._text.get(_key(self._plain(action)))
        if text is not None:
            return text
        try:
            return self.forms.action_text(action)
        except Exception:
            return repr(action)

    def describe(self, action: Action) -> str:
        """Same as :meth:`action_text`."""
        return self.action_text(action)

    def parse_action(self, text: str) -> Action:
        """The legal action whose words (or, for a card, whose card) ``text`` names."""
        want = same_words(text)
        if not self._legal:
            raise ActionParseError("it is not your turn")
        found = [a for a in self._legal
                 if same_words(self._text[_key(self._plain(a))]) == want]
        if not found:
            found = [a for a in self._legal
                     if same_words(self._text[_key(self._plain(a))]).split("#")[0] == want]
        if len(found) >= 1:
            return found[0]
        raise ActionParseError(f"{text!r} is not one of your choices now; type 'legal' "
                               "for the list")

    def illegal_reason(self, action: Action) -> str | None:
        """``None`` for a legal action, else a short reason."""
        if _key(self._plain(action)) in self._json:
            return None
        return "not one of your choices now"

    def illegal_card_reasons(self) -> dict[int, str]:
        """Why each of this seat's cards cannot be played now (the server's reasons)."""
        return {int(c): str(r) for c, r in (self.msg.get("illegal") or {}).items()}

    def returns(self) -> tuple[float, ...]:
        """The final scores (a finished game)."""
        return tuple(self.msg.get("returns") or ())

    def winners(self) -> tuple[int, ...]:
        """The winning seats (a finished game)."""
        return tuple(self.msg.get("winners") or ())

    def observation(self, seat: int) -> dict[str, Any]:
        """This seat's observation (no other seat's is known here)."""
        if seat != int(self.msg.get("seat", -1)):
            raise ValueError("only this seat's view is known at a table on a server")
        return self.observation_now
