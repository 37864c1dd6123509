"""Two people at one room table, connected to two server processes on one PostgreSQL: every
state reaches both, and when the owning process is killed with SIGKILL mid-game no
acknowledged action is lost, both are seated again and the game finishes."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from web_helpers import Seat, open_socket
from web_servers import Server, check_log
from websockets.exceptions import ConnectionClosed

SharedServers = tuple[Server, Server, str]


class Person:
    """A person at one seat: every state step it was sent, its acknowledged actions."""

    def __init__(self, url: str, table: str, token: str) -> None:
        self.table = table
        self.token = token
        self.steps: list[int] = []
        self.acked: dict[int, Any] = {}
        self.connect(url)

    def connect(self, url: str) -> None:
        self.raw = open_socket(url)
        self.seat = Seat(self.raw)
        self.seat.send({"type": "join", "table": self.table, "token": self.token})
        self.msg = self.next_state()

    def next_state(self, timeout: float = 30) -> dict[str, Any]:
        while True:
            msg = self.seat.recv(timeout)
            if msg["type"] == "state":
                self.steps.append(msg["step"])
                return msg
            assert msg["type"] in ("notice", "error"), msg
            if msg["type"] == "error":
                assert msg["code"] in ("stale", "table_moved"), msg

    def catch_up(self, step: int) -> None:
        while self.msg["step"] < step and not self.msg["terminal"]:
            self.msg = self.next_state()

    def close(self) -> None:
        self.raw.close()


def drive(people: list[Person], moves: int | None = None) -> None:
    """The person to act plays (the last legal action) and both wait for the new state;
    ``moves`` actions, or to the end of the game."""
    done = 0
    while moves is None or done < moves:
        step = max(p.msg["step"] for p in people)
        for p in people:
            p.catch_up(step)
        now = people[0].msg
        if now["terminal"]:
            return
        actor = next(p for p in people if p.msg["seat"] == now["current"])
        msg = actor.msg
        action = msg["legal"][-1]["json"]
        actor.seat.send({"type": "act", "action": action, "step": msg["step"]})
        while actor.msg["step"] <= msg["step"]:
            actor.msg = actor.next_state()
        actor.acked[msg["step"]] = action
        done += 1


class Watcher(Person):
    """A spectator: joins with the room's watch token instead of a seat token."""

    def connect(self, url: str) -> None:
        self.raw = open_socket(url)
        self.seat = Seat(self.raw)
        self.seat.send({"type": "join", "table": self.table, "watch": self.token})
        self.shown: list[int] = []
        """Steps before the end at which a message held a hand or legal actions."""
        self.msg = self.next_state()

    def next_state(self, timeout: float = 30) -> dict[str, Any]:
        msg = super().next_state(timeout)
        if not msg["terminal"] and ("hand" in msg["obs"] or msg.get("legal")):
            self.shown.append(msg["step"])
        return msg


def _room_table(a: Server, b: Server, watch: list[str] | None = None) -> tuple[str, str, str]:
    """A two-hand room made on A, the friend seated through B, started on A (A owns the
    table): the table and the two seat tokens (the room's watch token added to ``watch``)."""
    r = httpx.post(f"{a.url}/api/rooms", json={"game": "pinochle2", "name": "Ann",
                                               "seats": ["me", "open"],
                                               "config": {"level": "1"}})
    assert r.status_code == 200, r.text
    room = r.json()
    if watch is not None:
        watch.append(room["watch"])
    r = httpx.post(f"{b.url}/api/rooms/join", json={"secret": room["code"], "seat": 1,
                                                    "name": "Ben"})
    assert r.status_code == 200, r.text
    friend = r.json()
    r = httpx.post(f"{a.url}/api/rooms/{room['room']}/start", json={},
                   headers={"X-Player-Key": room["key"]})
    assert r.status_code == 200, r.text
    return r.json()["table"], room["token"], friend["token"]


def _every_step(person: Person, first: int, last: int) -> None:
    assert set(range(first, last + 1)) <= set(person.steps), (
        f"steps missing: {sorted(set(range(first, last + 1)) - set(person.steps))}")


def test_two_people_on_two_processes_finish_a_game(shared_servers: SharedServers) -> None:
    a, b, pg_db = shared_servers
    table, host_token, friend_token = _room_table(a, b)
    host = Person(a.ws, table, host_token)     # straight to the owner
    friend = Person(b.ws, table, friend_token)  # relayed by B to A
    try:
        drive([host, friend])
        last = host.msg["step"]
        assert host.msg["terminal"] and friend.msg["terminal"]
        assert friend.msg["step"] == last and friend.msg["returns"] == host.msg["returns"]
        # Every state reached both, whichever process each is connected to.
        _every_step(host, 0, last)
        _every_step(friend, 0, last)
        assert host.acked and friend.acked
    finally:
        host.close()
        friend.close()
    check_log(pg_db, table, {**host.acked, **friend.acked}, last)
    assert f"table {table}: step {last}" in a.text()
    assert f"table {table}: step" not in b.text()  # B only relayed


def test_a_spectator_on_the_other_process_sees_every_step_and_no_hand(
        shared_servers: SharedServers) -> None:
    """Someone watching through B (the owner is A) is sent every step of the game, in the
    public view: no legal actions, no hand, before the end."""
    a, b, _db = shared_servers
    watch: list[str] = []
    table, host_token, friend_token = _room_table(a, b, watch)
    host = Person(a.ws, table, host_token)
    friend = Person(b.ws, table, friend_token)
    spectator = Watcher(b.ws, table, watch[0])
    try:
        assert spectator.msg["seat"] != 0 and spectator.msg["seat"] != 1
        drive([host, friend])
        last = host.msg["step"]
        spectator.catch_up(last)
        assert spectator.msg["terminal"] and spectator.msg["step"] == last
        _every_step(spectator, 0, last)
        assert spectator.shown == []
    finally:
        for p in (host, friend, spectator):
            p.close()


def test_sigkill_of_the_owner_mid_game_at_a_room_table(shared_servers: SharedServers) -> None:
    a, b, pg_db = shared_servers
    table, host_token, friend_token = _room_table(a, b)
    host = Person(a.ws, table, host_token)
    friend = Person(b.ws, table, friend_token)
    try:
        drive([host, friend], moves=12)
        killed_at = max(host.msg["step"], friend.msg["step"])
        a.kill()  # the owner dies, with no warning
        # The friend, relayed through B, is seated again by B once A's lease runs out.
        friend.msg = friend.next_state(timeout=40)
        assert friend.msg["step"] == killed_at  # two people: nobody else moves meanwhile
        # The host's socket died with A; the host comes back through B.
        with pytest.raises((ConnectionClosed, OSError, TimeoutError)):
            for _ in range(100):  # what A sent before it died, then the end
                host.seat.recv(5)
        host.close()
        host.connect(b.ws)
        assert host.msg["step"] == killed_at
        here = host.msg["room"]["seats"]
        assert here[0]["here"] and here[1]["here"]  # both seated again, on B
        drive([host, friend])
        last = host.msg["step"]
        assert host.msg["terminal"] and friend.msg["terminal"]
        _every_step(host, killed_at, last)
        _every_step(friend, killed_at, last)
    finally:
        host.close()
        friend.close()
    check_log(pg_db, table, {**host.acked, **friend.acked}, last)
    resumed = re.findall(rf"table {re.escape(table)}: resumed pinochle2 after (\d+) actions",
                         b.text())
    assert resumed == [str(killed_at)], resumed
