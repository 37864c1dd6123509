"""What the load benchmark's two drivers share — over the network (:mod:`.generator`) and in
process (:mod:`.inproc`): the cap on tables, the budgets a benchmark server lifts, the
computer level of each table, the event loop they run on and the generator's HTTP pool."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

MAX_TABLES = 2_000

HTTP_CONNECTIONS = 16
"""Connections the load generator's HTTP client keeps to the servers for creating tables
(the ``/healthz`` probes have one of their own), whatever the number of tables: those
requests are few and short. The HTTP library looks over every pooled connection, for
each of them, at every request: with a connection per table, each request cost the
generator time growing with the square of the tables, on the machine the servers are
measured on."""

LOOPBACK_BUDGETS = (f"max_open_tables_per_address={10 * MAX_TABLES}",
                    f"tables_burst_per_address={10 * MAX_TABLES}",
                    f"tables_per_minute_per_address={60 * MAX_TABLES}",
                    f"address_rate_per_second={100 * MAX_TABLES}",
                    f"address_rate_burst={200 * MAX_TABLES}",
                    f"hints_per_minute_per_address={60 * MAX_TABLES}",
                    f"hints_burst_per_address={10 * MAX_TABLES}",
                    f"connections_per_minute_per_address={600 * MAX_TABLES}",
                    f"connections_burst_per_address={10 * MAX_TABLES}")
"""Every table of the benchmark is played from one address: its server lifts the budgets
of one address (and keeps those of one connection)."""


def http_limits(connections: int | None = None) -> Any:
    """A pool of the load generator's HTTP client: ``connections`` (by default
    :data:`HTTP_CONNECTIONS`), all kept alive."""
    import httpx

    n = HTTP_CONNECTIONS if connections is None else connections
    return httpx.Limits(max_connections=n, max_keepalive_connections=n)


def server_loop() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The event loop the server runs on (uvloop where installed), for the run to match."""
    from cardplaza.web.front.server import uvicorn_options
    from cardplaza.web.settings import Settings

    if uvicorn_options(Settings())["loop"] != "uvloop":
        return None
    import uvloop

    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def run_on_loop(main: Coroutine[Any, Any, T]) -> T:
    """Run a benchmark's ``main`` on the kind of event loop the server runs on (uvloop where
    installed): in process it is the server's own loop; over the network the generator
    shares the machine with the servers, and what it spends they lack."""
    with asyncio.Runner(loop_factory=server_loop()) as runner:
        return runner.run(main)


def table_levels(game: str, text: str) -> list[str]:
    """The computer level of each table in turn, from ``--level``: names separated by
    commas, ``expert`` for the game's strongest, ``all`` (the default) for each of the
    game's levels; an unknown level stops the run."""
    from cardplaza.core.registry import get_game

    spec = get_game(game)
    levels = [lv.strip() for lv in text.split(",") if lv.strip()]
    if levels == ["all"]:
        levels = [lv for lv in spec.levels if lv != "random"]
    levels = [spec.levels[-1] if lv == "expert" and "expert" not in spec.levels else lv
              for lv in levels]
    for lv in levels:
        if lv != "random" and lv not in spec.levels:
            raise SystemExit(f"unknown level {lv!r} for {game}: {', '.join(spec.levels)}")
    return levels
