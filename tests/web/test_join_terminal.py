"""``cardplaza join``: a friend sits at a room's table from the terminal while the host
plays in a browser (here: the WebSocket protocol driven by the test), against a real
server process, to the end of a game of two-hand Pinochle; the terminal answers the
host's undo request and shows the host's moves and the result."""

from __future__ import annotations

import io
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from web_helpers import Seat, open_socket
from web_servers import Server

from cardplaza.cli.join import join_room
from cardplaza.cli.netclient import claim_seat, read_invite, rebuild
from cardplaza.cli.seatview import same_words
from cardplaza.cli.style import make_console
from cardplaza.web.store.storage import Storage


class Terminal:
    """``cardplaza join CODE`` in a thread: its screen, and scripted typing (the first
    choice of every menu, "y" to an undo request; a move is held while ``gate`` is
    clear)."""

    def __init__(self, base: str, code: str) -> None:
        self.out = io.StringIO()
        self.console = make_console(file=self.out, width=110, color_system=None)
        self.gate = threading.Event()
        self.gate.set()
        self.prompts: list[str] = []
        self.result: str | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._main, args=(base, code), daemon=True)
        self.thread.start()

    def read(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if "(y/n)" in prompt:
            return "y"
        assert self.gate.wait(60)
        return "1"

    def _main(self, base: str, code: str) -> None:
        try:
            seated = claim_seat(base, code, "Ken", wait_seconds=60)
            self.result = join_room(seated, self.console, self.read, "en")
        except BaseException as exc:  # reported by the test
            self.error = exc

    def screen(self) -> str:
        return self.out.getvalue()


def test_read_invite_takes_a_link_or_a_code() -> None:
    assert read_invite("https://cards.example/#/join/abcDEF123456789xyz", None) == (
        "https://cards.example", "abcDEF123456789xyz")
    assert read_invite("K7M-Q2P", "http://127.0.0.1:9000/") == ("http://127.0.0.1:9000",
                                                                "K7M-Q2P")


def test_the_client_rebuilds_the_servers_deltas() -> None:
    from cardplaza.core.delta import encode

    first = {"type": "state", "step": 1, "obs": {"hand": [1, 2], "tricks": [[1]]}, "x": 1}
    second = {"type": "state", "step": 2, "obs": {"hand": [2], "tricks": [[1], [2]]}}
    wire = encode({**first, "n": 1}, second, 2)
    assert rebuild({**first, "n": 1}, wire) == {**second, "n": 2}


def test_words_of_moves_compare_as_typed() -> None:
    assert same_words("play 10♥") == same_words("10h") == same_words("TH")
    assert same_words("play Q♠") != same_words("qh")


def _wait_seat_taken(base: str, room: str, key: str) -> None:
    deadline = time.time() + 30
    while time.time() < deadline:
        view = httpx.get(f"{base}/api/rooms/{room}", headers={"X-Player-Key": key}).json()
        if view["seats"][1]["kind"] == "human":
            return
        time.sleep(0.1)
    raise AssertionError("the terminal never took its seat")


def test_a_friend_plays_a_whole_game_from_the_terminal(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'join.sqlite3'}"
    server = Server(db, tmp_path)
    term: Terminal | None = None
    try:
        r = httpx.post(f"{server.url}/api/rooms", json={
            "game": "pinochle2", "name": "Hana", "seats": ["me", "open"],
            "config": {"level": "1"}})
        assert r.status_code == 200, r.text
        room = r.json()
        key = room["key"]
        term = Terminal(server.url, room["code"])
        _wait_seat_taken(server.url, room["room"], key)
        r = httpx.post(f"{server.url}/api/rooms/{room['room']}/start", json={},
                       headers={"X-Player-Key": key})
        assert r.status_code == 200, r.text
        table = r.json()["table"]
        host = Seat(open_socket(server.ws))
        host.send({"type": "join", "table": table, "token": room["token"]})
        undone = False
        asked_at: int | None = None
        msg: dict[str, Any] = {}
        last_acted = -1
        deadline = time.time() + 240
        while time.time() < deadline:
            msg = host.recv(30)
            if msg["type"] == "undone":
                undone = True
                term.gate.set()
                continue
            if msg["type"] == "undo_ended":
                assert msg["reason"] == "accepted", msg
                continue
            if msg["type"] != "state":
                assert msg["type"] in ("notice", "undo_asked", "error"), msg
                if msg["type"] == "error":
                    assert msg["code"] in ("stale", "not_your_turn", "undo_pending"), msg
                continue
            if msg["terminal"]:
                break
            room_facts = msg["room"]
            if room_facts.get("undo") or msg["current"] != 0 or not msg["legal"]:
                continue
            if msg["step"] == last_acted:
                continue
            obs = msg["obs"]
            leading = obs["phase"] != "stock" and not (obs["current_trick"] or {}).get("cards")
            if not undone and asked_at is None and leading and obs["step"] == "play":
                # Lead a card, then ask to take it back before the friend answers it.
                term.gate.clear()
                host.send({"type": "act", "action": msg["legal"][0]["json"],
                           "step": msg["step"]})
                while True:
                    nxt = host.recv(30)
                    if nxt["type"] == "state" and nxt["step"] > msg["step"]:
                        break
                asked_at = nxt["step"]
                host.send({"type": "undo"})
                while nxt["type"] != "undo_asked":
                    nxt = host.recv(30)
                    assert nxt["type"] != "error", nxt
                # The table now waits for the answer: the friend's move, typed meanwhile,
                # is refused, then the friend is asked.
                term.gate.set()
                continue
            last_acted = msg["step"]
            host.send({"type": "act", "action": msg["legal"][0]["json"], "step": msg["step"]})
        assert msg.get("terminal"), "the game did not end"
        assert undone, "the terminal did not accept the undo request"
        host.ws.close()
        term.thread.join(30)
        assert term.error is None, term.error
        assert term.result == "over"
        screen = term.screen()
        assert "At the table: 1 Hana, 2 you." in screen
        assert "Hana asks to take back their last decision. Accept? (y/n) " in term.prompts
        assert "Everyone accepted" in screen
        assert "The table was taken back." in screen
        assert "Computer plays " in screen  # the view's words for the other seat's card
        assert "End of the deal" in screen and "The game is over." in screen
        # The terminal's decisions are in the log as its own (no stand-in made any).
        storage = Storage(db)
        try:
            row = storage.load_table(table)
        finally:
            storage.close()
        assert row is not None and row.status == "finished"
        assert row.standins == []
        assert sum(1 for a in row.actions if a["seat"] == 1) > 10
    finally:
        if term is not None:
            term.gate.set()
        server.stop()
