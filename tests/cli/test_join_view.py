"""What ``cardplaza join`` shows from the messages of its seat: the others' moves through
the game's view, a dropped connection's countdown, a computer standing in and the
hand-back, and the seat's own decisions sent as the server's JSON forms."""

from __future__ import annotations

import io
import json
from typing import Any, cast

from cardplaza.cli.join import RoomSession
from cardplaza.cli.netclient import Seated, TableLink
from cardplaza.cli.style import make_console
from cardplaza.core.registry import get_game
from cardplaza.web.live.tables import seat_message


class FakeLink:
    """The table's messages, given by the test; what the session sends, kept."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def get(self, timeout: float | None = None) -> dict[str, Any] | None:
        return None

    def pending(self) -> bool:
        return False

    def send(self, msg: dict[str, Any]) -> None:
        self.sent.append(msg)


def _message(state: Any, seat: int, room: dict[str, Any]) -> dict[str, Any]:
    msg = seat_message(state, seat)
    msg.update({"type": "state", "seat": seat, "step": len(state.history),
                "players": [{"name": "Hana", "kind": "human", "level": "1"},
                            {"name": "Ken", "kind": "human", "level": "1"}],
                "options": {"level": "1"}, "room": room})
    out: dict[str, Any] = json.loads(json.dumps(msg))
    return out


def _move(state: Any, before: Any, standin: bool = False) -> dict[str, Any]:
    seat, action = state.history[-1]
    return {"step": len(state.history) - 1, "seat": seat, "standin": standin,
            "text": before.action_text(action), "json": before.action_to_json(action)}


def test_the_terminal_shows_moves_drops_stand_ins_and_hand_backs() -> None:
    spec = get_game("pinochle2")
    # A deal where the first card of our menu loses the trick, so the other seat (then a
    # stand-in) moves next.
    state = spec.new_game(spec.options({"level": "1"}), 11)
    me = 1 - state.current_player  # the other seat leads
    other = state.current_player
    out = io.StringIO()
    link = FakeLink()
    lines = iter(["legal", "1"])
    session = RoomSession(Seated("http://x", "r", me, "t", "k", "tab", "pinochle2"),
                          cast(TableLink, link),
                          make_console(file=out, width=120, color_system=None),
                          lambda prompt: next(lines))
    here: list[dict[str, Any]] = [{"here": True}, {"here": True}]
    session.handle(_message(state, me, {"seats": here}))
    # The other person leads, then drops: the countdown is told once.
    before = state.clone()
    state.apply(state.legal_actions()[0])
    gone: list[dict[str, Any]] = [dict(here[0]), dict(here[1])]
    gone[other] = {"here": False, "left": 5}
    session.handle(_message(state, me, {"seats": gone, "move": _move(state, before)}))
    session.handle(_message(state, me, {"seats": gone, "move": _move(state, before)}))
    # Our turn: "legal" shows the menu, "1" plays its first card, as the server's JSON.
    session.prompt()
    assert link.sent[-1]["type"] == "act" and link.sent[-1]["step"] == 1
    sent = link.sent[-1]["action"]
    assert sent in [e["json"] for e in session.msg["legal"]]
    state.apply(state.action_from_json(sent))
    session.handle({"type": "notice", "kind": "standin", "seat": other})
    # The computer plays for the absent person (the trick's winner melds or not) …
    while state.current_player == other and not state.is_terminal:
        before = state.clone()
        state.apply(state.legal_actions()[-1])
        session.handle(_message(state, me, {"seats": gone,
                                            "move": _move(state, before, True)}))
    # … until they come back.
    session.handle({"type": "notice", "kind": "back", "seat": other})
    screen = out.getvalue()
    assert "At the table: 1 Hana, 2 you." in screen or "At the table: 1 you, 2 Ken." in screen
    assert screen.count("lost the connection: a computer plays for them in 5 s") == 1
    assert "Computer plays " in screen or "Led by the computer" in screen
    assert "Play: 1)" in screen  # the view's menu, drawn from this seat's message
    assert "is away: a computer plays for them until they come back." in screen
    assert "(the computer made this move for Hana)" in screen
    assert "Hana is back and plays their own seat again." in screen


def test_a_hidden_move_is_said_in_the_words_the_others_see() -> None:
    out = io.StringIO()
    session = RoomSession(Seated("http://x", "r", 0, "t", "k", "tab", "pinochle2"),
                          cast(TableLink, FakeLink()),
                          make_console(file=out, width=120, color_system=None), input)
    spec = get_game("pinochle2")
    state = spec.new_game(spec.options({"level": "1"}), 3)
    msg = _message(state, 0, {"seats": [{"here": True}, {"here": True}]})
    session.handle(msg)
    msg = dict(msg, step=1, room={"seats": [{"here": True}, {"here": True}],
                                  "move": {"step": 0, "seat": 1, "standin": False,
                                           "text": "passes a card"}})
    session.handle(msg)
    assert "Ken: passes a card" in out.getvalue()


def test_join_says_why_no_seat_could_be_taken() -> None:
    """The command's wiring: an address where no server answers is told, exit code 1."""
    import socket

    from typer.testing import CliRunner

    from cardplaza.cli.main import app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    result = CliRunner().invoke(app, ["join", "K7MQ2PX", "--url",
                                      f"http://127.0.0.1:{port}", "--lang", "en"])
    assert result.exit_code == 1
    assert "Could not take a seat:" in result.output
    result = CliRunner().invoke(app, ["join", "K7MQ2PX", "--seat", "0"])
    assert result.exit_code == 2  # seats are counted from 1


def test_computers_are_called_by_the_names_the_browser_gives_them() -> None:
    """A computer seat is named as the browser's table names it (one name per seat, in the
    session's language), not "computer 2"."""
    spec = get_game("pinochle4")
    state = spec.new_game(spec.options({}), 3)
    players = [{"name": "Hana", "kind": "human", "level": "1"}] + [
        {"name": f"Computer {s}", "kind": "computer", "level": "2"} for s in (1, 2, 3)]
    for lang, names in (("en", ["Mika", "Leo", "Nana"]), ("ja", ["ミカ", "レオ", "ナナ"])):
        session = RoomSession(Seated("http://x", "r", 0, "t", "k", "tab", "pinochle4"),
                              cast(TableLink, FakeLink()),
                              make_console(file=io.StringIO(), width=120, color_system=None),
                              lambda prompt: "", lang)
        msg = seat_message(state, 0)
        msg.update({"type": "state", "seat": 0, "step": 0, "players": players,
                    "options": {}, "room": {"seats": [{"here": True}] * 4}})
        session.handle(json.loads(json.dumps(msg)))
        assert [session.who(s) for s in (1, 2, 3)] == [
            f"{n} (computer)" if lang == "en" else f"{n}（コンピュータ）" for n in names]
        assert session.who(0) == ("you" if lang == "en" else "あなた")


def test_a_decision_taken_back_is_asked_again_at_the_same_step() -> None:
    """This seat played at step n, then everyone accepted an undo back to before it, and
    the table came back to this seat's turn at step n: the terminal decides again (it
    does not take the step for one already answered)."""
    spec = get_game("pinochle2")
    state = spec.new_game(spec.options({"level": "1"}), 11)
    me = state.current_player
    link = FakeLink()
    session = RoomSession(Seated("http://x", "r", me, "t", "k", "tab", "pinochle2"),
                          cast(TableLink, link),
                          make_console(file=io.StringIO(), width=120, color_system=None),
                          lambda prompt: "1")
    here: list[dict[str, Any]] = [{"here": True}, {"here": True}]
    session.handle(_message(state, me, {"seats": here}))
    session.prompt()
    assert [m["step"] for m in link.sent if m["type"] == "act"] == [0]
    played = state.clone()
    played.apply(played.action_from_json(link.sent[-1]["action"]))
    session.handle(_message(played, me, {"seats": here}))  # the other seat to play
    # Taken back to the start: this seat's turn at step 0 again.
    session.handle(_message(state, me, {"seats": here}))
    session.prompt()
    assert [m["step"] for m in link.sent if m["type"] == "act"] == [0, 0]
