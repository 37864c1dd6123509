"""A state message is made once per seat and encoded once for every connection that gets
the same text; each seat's view is made once per state and made again after every
action; what a connection rebuilds is always exactly its seat's view; a waiting computer
keeps no observation."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

from cardplaza.core.delta import rebuild
from cardplaza.web.live import client as client_module
from cardplaza.web.live.client import Client, encode
from cardplaza.web.live.tables import LiveTable, TableManager, seat_message
from cardplaza.web.settings import Settings
from cardplaza.web.store.storage import Storage


class Inbox:
    """A fake connection's received texts."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.whole: dict[str, Any] | None = None

    async def send_text(self, text: str) -> None:
        self.texts.append(text)

    async def close(self, code: int) -> None:
        return None

    def rebuilt(self) -> dict[str, Any]:
        """Every text received so far applied in turn: the last whole state message."""
        for text in self.texts:
            msg = json.loads(text)
            if msg.get("type") == "state":
                self.whole = rebuild(self.whole, msg)
        self.texts.clear()
        assert self.whole is not None
        return self.whole


async def _manager(tmp: Path) -> TableManager:
    storage = Storage(f"sqlite:///{tmp / 'send.sqlite3'}")
    manager = TableManager(storage, Settings().replace(ai_workers=1, analysis_workers=1),
                           computer_pause=0.0)
    await manager.start()
    return manager


async def _settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def _attach(manager: TableManager, table: LiveTable, seat: int) -> tuple[Client, Inbox]:
    inbox = Inbox()
    conn = Client(manager.settings, inbox.send_text, inbox.close)
    manager.attach(table, seat, conn)
    conn.send_state(table.message(seat))
    return conn, inbox


def _whole_view(table: LiveTable, seat: int) -> dict[str, Any]:
    """What a seat must see now (everything but the message number)."""
    return {k: v for k, v in json.loads(encode(table.message(seat))).items() if k != "n"}


def test_one_encoding_per_broadcast_for_every_connection_of_a_seat(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def run() -> None:
        manager = await _manager(tmp_path)
        try:
            made = await manager.create({"game": "pinochle2", "level": "1",
                                         "options": {"level": "1"}}, "127.0.0.1")
            table = manager.tables[made["table"]]
            # Connections joined at different times, then each sent every broadcast.
            conns = [_attach(manager, table, 0) for _ in range(5)]
            await _settle()
            calls: list[str] = []

            def counting(msg: dict[str, Any]) -> str:
                text = encode(msg)
                calls.append(text)
                return text

            monkeypatch.setattr(client_module, "encode", counting)
            manager.broadcast(table)  # the joins' texts differ: one per connection
            assert len(calls) == 5
            for rounds in range(3):
                calls.clear()
                manager.broadcast(table)
                assert len(calls) == 1, rounds  # one text, made once, for all five
            await _settle()
            views = [inbox.rebuilt() for _, inbox in conns]
            assert all(v == views[0] for v in views)
            assert {k: v for k, v in views[0].items() if k != "n"} == _whole_view(table, 0)
        finally:
            await manager.close()
            manager.storage.close()

    asyncio.run(run())


def test_a_seat_view_is_made_once_per_state_and_again_after_every_action(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import cardplaza.web.live.tables as tables

    made_for: list[int] = []

    def counting(state: Any, seat: int) -> dict[str, Any]:
        made_for.append(len(state.history))
        return seat_message(state, seat)

    async def run() -> None:
        manager = await _manager(tmp_path)
        try:
            monkeypatch.setattr(tables, "seat_message", counting)
            made = await manager.create({"game": "pinochle2", "humans": [0, 1],
                                         "options": {"level": "1"}}, "127.0.0.1")
            table = manager.tables[made["table"]]
            rng = random.Random(3)
            for _ in range(25):
                state = table.state
                seat = state.current_player
                before = table.view(seat)
                assert table.view(seat) is before  # the same state: made once
                assert before == seat_message(state, seat)
                made_for.clear()
                action = rng.choice(state.legal_actions())
                await manager.act(table, seat, state.action_to_json(action),
                                  len(state.history))
                after = table.view(seat)
                assert after is not before
                assert after == seat_message(table.state, seat)
                assert made_for == [len(table.state.history)]  # made anew, once
        finally:
            await manager.close()
            manager.storage.close()

    asyncio.run(run())


@pytest.mark.parametrize("game", ["pinochle2", "pinochle4"])
def test_the_deltas_rebuild_each_seat_view_at_every_step(tmp_path: Path, game: str) -> None:
    """Forty of a person's actions (and the computers' between them): the messages to two
    connections of the person's seat, each rebuilt with core.delta, equal the seat's whole
    view whenever the person is to act."""
    async def run() -> None:
        manager = await _manager(tmp_path)
        try:
            data: dict[str, Any] = {"game": game, "level": "1", "options": {"level": "1"}}
            if game != "pinochle2":
                data = {"game": game, "level": "random", "seed": 21}
            made = await manager.create(data, "127.0.0.1")
            table = manager.tables[made["table"]]
            first = _attach(manager, table, 0)
            await _settle()
            second = _attach(manager, table, 0)
            rng = random.Random(1)
            steps = 0
            while not table.state.is_terminal and steps < 40:
                state = table.state
                if state.current_player != 0:
                    manager.kick(table)
                    await asyncio.sleep(0.001)
                    continue
                await manager.act(table, 0, state.action_to_json(
                    rng.choice(state.legal_actions())), len(state.history))
                steps += 1
                await _settle()
                if table.state.current_player == 0 or table.state.is_terminal:
                    want = _whole_view(table, 0)
                    for _, inbox in (first, second):
                        for _ in range(2000):  # the writer task delivers what is queued
                            if inbox.rebuilt()["step"] == want["step"]:
                                break
                            await asyncio.sleep(0.001)
                        got = {k: v for k, v in inbox.rebuilt().items() if k != "n"}
                        assert got == want, {k for k in set(got) | set(want)
                                             if got.get(k) != want.get(k)}
            assert steps == 40 or table.state.is_terminal
        finally:
            await manager.close()
            manager.storage.close()

    asyncio.run(run())


def test_a_computer_waiting_out_its_pause_holds_no_observation(tmp_path: Path) -> None:
    """A computer that has decided waits out its pause without the observation it decided
    from (with a computer waiting at every table, each would otherwise stay alive for the
    garbage collector's passes to walk)."""
    async def run() -> None:
        storage = Storage(f"sqlite:///{tmp_path / 'kept.sqlite3'}")
        manager = TableManager(storage, Settings().replace(ai_workers=1, analysis_workers=1),
                               computer_pause=0.5)
        await manager.start()
        try:
            made = await manager.create({"game": "pinochle2", "level": "1",
                                         "options": {"level": "1"}}, "127.0.0.1")
            table = manager.tables[made["table"]]
            rng = random.Random(5)
            checked = 0
            for _ in range(400):
                state = table.state
                if state.is_terminal or checked >= 3:
                    break
                if state.current_player == 0:
                    await manager.act(table, 0, state.action_to_json(
                        rng.choice(state.legal_actions())), len(state.history))
                    continue
                manager.kick(table)
                await asyncio.sleep(0.05)  # the computer has decided: it waits out its pause
                task = table.task
                if task is not None and not task.done() and len(
                        table.state.legal_actions()) > 1:
                    frame = task.get_coro().cr_frame
                    if frame is not None and "since" in frame.f_locals:
                        assert "obs" not in frame.f_locals and "legal" not in frame.f_locals
                        checked += 1
                await asyncio.sleep(0.5)
            assert checked >= 1
        finally:
            await manager.close()
            storage.close()

    asyncio.run(run())
