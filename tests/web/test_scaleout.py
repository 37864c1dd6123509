"""Several server processes on one database: a game started through one process goes on
through another (its messages relayed to the owner), and when the owner is killed with
SIGKILL mid-game the other takes its tables over with no acknowledged action lost."""

from __future__ import annotations

import re
from typing import Any

import httpx
from web_helpers import Seat, open_socket
from web_servers import Server, check_log

from cardplaza.core import fairness
from cardplaza.web.store.storage import Storage


class Player:
    """A person at one seat: keeps every state it was sent (acknowledged actions)."""

    def __init__(self, url: str, table: dict[str, Any]) -> None:
        self.table = table
        self.acked: dict[int, Any] = {}
        self.connect(url)

    def connect(self, url: str) -> None:
        self.raw = open_socket(url)
        self.seat = Seat(self.raw)
        self.seat.send({"type": "join", "table": self.table["table"],
                        "token": self.table["token"]})
        self.msg = self.state()

    def state(self, timeout: float = 20) -> dict[str, Any]:
        while True:
            msg = self.seat.recv(timeout)
            if msg["type"] == "state":
                return msg
            assert msg["type"] == "error" and msg["code"] in ("stale",), msg

    def my_turn(self) -> dict[str, Any]:
        while not self.msg["terminal"] and self.msg["current"] != self.msg["seat"]:
            self.msg = self.state()
        return self.msg

    def play(self, moves: int) -> None:
        for _ in range(moves):
            msg = self.my_turn()
            if msg["terminal"]:
                return
            action = msg["legal"][-1]["json"]
            self.seat.send({"type": "act", "action": action, "step": msg["step"]})
            while True:
                self.msg = self.state()
                if self.msg["step"] > msg["step"]:
                    break
            self.acked[msg["step"]] = action  # our action is in the state we were sent

    def close(self) -> None:
        self.raw.close()


def check_fair(db: str, table: str, fair: dict[str, Any]) -> None:
    """The commitment and log digest a process sent are those of the stored table."""
    storage = Storage(db)
    try:
        row = storage.load_table(table)
    finally:
        storage.close()
    assert row is not None
    first = fairness.commitment(table, 1, row.seed)
    assert fair["commitment"] == fairness.commitment(table, fair["deal"], row.seed)
    assert fair["log"] == fairness.log_digest(table, first, [(a["seat"], a["action"])
                                                             for a in row.actions])


def test_a_game_goes_on_through_another_server(
        shared_servers: tuple[Server, Server, str]) -> None:
    a, b, pg_db = shared_servers
    r = httpx.post(f"{a.url}/api/tables", json={"game": "pinochle2", "level": "1",
                                                "options": {"level": "1"}, "name": "Ann"})
    assert r.status_code == 200, r.text
    t = r.json()
    p = Player(b.ws, t)  # joined through B: relayed to A, which owns the table
    try:
        p.play(4)
        p.close()
        p.connect(a.ws)  # and straight to the owner
        p.play(3)
        p.close()
        p.connect(b.ws)
        p.play(3)
        step = p.msg["step"]
        assert len(p.acked) == 10
    finally:
        p.close()
    assert f"table {t['table']}: step {step}" in a.text()
    assert f"table {t['table']}: step" not in b.text()  # B only relayed
    check_log(pg_db, t["table"], p.acked, step)


def test_sigkill_of_the_owner_mid_game(shared_servers: tuple[Server, Server, str]) -> None:
    a, b, pg_db = shared_servers
    r = httpx.post(f"{a.url}/api/tables", json={"game": "pinochle2", "level": "1",
                                                "options": {"level": "1"}, "name": "Ann"})
    t = r.json()
    relayed = Player(b.ws, t)      # through B
    direct = Player(a.ws, t)       # and the same seat straight on A
    try:
        relayed.play(5)
        before = relayed.msg["fair"]
        a.kill()  # the owner dies mid-game, with no warning
        killed_at = relayed.msg["step"]
        # The relayed client is seated again by B once A's lease runs out: a whole state.
        relayed.msg = relayed.state(timeout=30)
        assert "delta" not in relayed.msg  # seated again: a whole state
        # Computer moves A made after our last acknowledged one may be there too.
        assert relayed.msg["step"] >= killed_at
        resumed_at = relayed.msg["step"]
        # The process that took over sends the same commitment (and digest, at that step).
        assert relayed.msg["fair"]["commitment"] == before["commitment"]
        if resumed_at == killed_at:
            assert relayed.msg["fair"] == before
        relayed.play(5)
        # The direct client lost its socket; it reconnects to B.
        direct.close()
        direct.connect(b.ws)
        assert direct.msg["step"] >= relayed.msg["step"]
        direct.acked = relayed.acked
        while not direct.my_turn()["terminal"]:
            direct.play(1)
        assert direct.msg["terminal"] and len(direct.msg["returns"]) == 2
        check_log(pg_db, t["table"], direct.acked, direct.msg["step"])
        check_fair(pg_db, t["table"], direct.msg["fair"])
    finally:
        relayed.close()
        direct.close()
    # B resumed from the log: every acknowledged action, and at most what the client was then
    # sent (B may make a computer move between reading the log and seating the client).
    resumed = re.findall(rf"table {re.escape(t['table'])}: resumed pinochle2 after (\d+) actions",
                         b.text())
    assert len(resumed) == 1 and killed_at <= int(resumed[0]) <= resumed_at, resumed
