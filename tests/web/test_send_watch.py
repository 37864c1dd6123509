"""A client's sends are watched by one timer per client, not a timer per send: a send that
takes longer than ``send_timeout_seconds`` drops the client within half that again, sends
that each end in time never do, however long the client lives, and a closed client's timer
is gone (and so is its last state message)."""

from __future__ import annotations

import asyncio

from cardplaza.web.live.client import Client
from cardplaza.web.settings import Settings

TIMEOUT = 0.2


class Socket:
    """A fake connection whose sends take ``delay`` seconds (forever if ``None``)."""

    def __init__(self, delay: float | None) -> None:
        self.delay = delay
        self.sent = 0
        self.closed_at: float | None = None

    async def send_text(self, text: str) -> None:
        if self.delay is None:
            await asyncio.Event().wait()
        await asyncio.sleep(self.delay)
        self.sent += 1

    async def close(self, code: int) -> None:
        self.closed_at = asyncio.get_running_loop().time()


def _settings() -> Settings:
    return Settings().replace(send_timeout_seconds=TIMEOUT)


def test_a_stuck_send_drops_the_client_within_half_the_timeout_again() -> None:
    async def run() -> tuple[float, bool]:
        loop = asyncio.get_running_loop()
        sock = Socket(None)
        client = Client(_settings(), sock.send_text, sock.close)
        start = loop.time()
        client.send_text("hello")
        while sock.closed_at is None and loop.time() - start < 5 * TIMEOUT:
            await asyncio.sleep(0.01)
        assert sock.closed_at is not None, "the stuck client was never dropped"
        return sock.closed_at - start, client.closed

    waited, closed = asyncio.run(run())
    assert closed
    assert TIMEOUT <= waited <= 1.5 * TIMEOUT + 0.1


def test_sends_that_each_end_in_time_never_drop_a_long_lived_client() -> None:
    async def run() -> tuple[int, bool, bool]:
        sock = Socket(TIMEOUT / 4)
        client = Client(_settings(), sock.send_text, sock.close)
        for _ in range(24):  # six timeouts' worth of sending, each send a quarter of one
            client.send_text("x")
            await asyncio.sleep(TIMEOUT / 4)
        await asyncio.sleep(TIMEOUT)
        dropped = client.closed
        await client.aclose()
        watch = client._watch
        return sock.sent, dropped, watch is not None and watch.cancelled()

    sent, dropped, cancelled = asyncio.run(run())
    assert not dropped
    assert sent >= 20
    assert cancelled, "a closed client's timer is still set"


def test_a_closed_client_keeps_no_state_message() -> None:
    """The last state message is kept only to send the next one as a change: a client that
    was closed (by its connection ending, or dropped) lets it go at once, so it does not
    wait with the connection's other objects for a pass of the garbage collector."""
    async def run() -> list[object]:
        kept = []
        for how in ("aclose", "drop"):
            sock = Socket(0.0)
            client = Client(_settings(), sock.send_text, sock.close)
            client.send_state({"type": "state", "n": 1, "step": 0, "obs": {"hand": [1, 2]}})
            assert client.last is not None
            if how == "aclose":
                await client.aclose()
            else:
                client.drop()
                await asyncio.sleep(0.01)
            kept.append(client.last)
        return kept

    assert asyncio.run(run()) == [None, None]
