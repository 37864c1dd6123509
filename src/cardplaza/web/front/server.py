"""Running the web server: one process, or several on one port (``--workers N``).

``cardplaza serve`` and ``python -m cardplaza.web`` call :func:`serve`. With ``workers``
above one, uvicorn starts that many processes sharing the listening socket (and restarts
any that dies); each has its own tables, computer-player workers and relay, and they share
the database, so a client may reach any of them. With PostgreSQL any number of such
servers on any number of hosts can share one database the same way.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import json
import logging
import os
import socket
from typing import Any

from fastapi import FastAPI

from cardplaza.web.settings import SERVE_SWITCH_INTERVAL, Settings

ENV = "CARDPLAZA_SERVE"
"""Environment variable carrying the settings to each web worker process."""


def parse_settings(pairs: list[str] | None, base: Settings | None = None) -> Settings:
    """Settings from ``name=value`` texts (``--set``), converted to each field's type."""
    settings = base or Settings()
    changes: dict[str, Any] = {}
    fields = {f.name: f for f in dataclasses.fields(Settings)}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or name not in fields:
            raise ValueError(f"unknown setting {name!r}; settings: {', '.join(sorted(fields))}")
        current = getattr(settings, name)
        if isinstance(current, bool):
            changes[name] = value.strip().lower() in ("1", "true", "yes", "on")
        elif isinstance(current, int):
            changes[name] = int(value)
        elif isinstance(current, float):
            changes[name] = float(value)
        elif isinstance(current, tuple):
            changes[name] = tuple(v.strip() for v in value.split(",") if v.strip())
        else:
            changes[name] = value.strip()
    return settings.replace(**changes) if changes else settings


def _safe_url(url: str) -> str:
    """The URL without a password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


SHUTDOWN_SECONDS = 20.0
"""How long ``serve --workers N`` waits for its web processes to stop after SIGTERM or
SIGINT before it kills them."""


def app_from_env() -> FastAPI:
    """The app of one web worker process (settings from :data:`ENV`). The process stops
    (SIGTERM: a graceful shutdown) when the supervising process dies, however it dies, so
    no web process, nor the resource tracker they share, outlives it."""
    import signal

    from cardplaza.web.front.app import create_app
    from cardplaza.web.live.workers import die_with_parent

    config = json.loads(os.environ[ENV])
    die_with_parent(signal.SIGTERM, config.get("supervisor"))
    settings = Settings.from_json(config["settings"])
    _logging(settings.log_level)
    return create_app(config["db"], settings=settings)


def _logging(level_name: str) -> None:
    level = logging.getLevelName(level_name.upper())
    if not isinstance(level, int):
        raise SystemExit(f"unknown log level {level_name!r}: debug, info, warning or error")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("cardplaza.web").setLevel(level)
    logging.getLogger("cardplaza.kernels").setLevel(level)


def bind_port(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; ``SystemExit`` with a clear reason if busy."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise SystemExit(f"Cannot listen on {host}:{port}: {exc.strerror or exc}. Is another "
                         f"server using the port? Choose another one: make play PORT="
                         f"{port + 1} (or cardplaza serve --port {port + 1}).") from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def _installed(module: str) -> bool:
    """Whether a module can be imported here (uvloop has no Windows build)."""
    return importlib.util.find_spec(module) is not None


def uvicorn_options(settings: Settings, forwarded_allow_ips: str = "",
                    max_connections: int = 4000) -> dict[str, Any]:
    """The options of uvicorn's server. A client's address is the connection's own unless
    ``forwarded_allow_ips`` names the reverse proxies (addresses, comma-separated) whose
    ``X-Forwarded-For`` is then believed: no proxy is trusted by default, not even one on
    this machine (anything local could otherwise choose its address, and its budgets)."""
    proxies = ",".join(p.strip() for p in forwarded_allow_ips.split(",") if p.strip())
    options: dict[str, Any] = {
        "log_level": "warning", "ws": "websockets-sansio",
        # The event loop and the HTTP parser in C (uvloop, httptools): a message's trip
        # through the loop, its socket write and a request's parsing cost a fraction.
        "loop": "uvloop" if _installed("uvloop") else "asyncio",
        "http": "httptools" if _installed("httptools") else "h11",
        "ws_max_size": settings.ws_max_size, "proxy_headers": bool(proxies),
        "limit_concurrency": max_connections, "server_header": False,
    }
    if proxies:
        options["forwarded_allow_ips"] = proxies
    return options


WARM_UP = "cardplaza.ai.compiled:warm_up_while_serving"
"""Each computer-player process compiles or loads the search kernels when it starts, in the
background: it takes decisions at once (the search runs as Python until its kernels are
ready)."""


def served(settings: Settings) -> dict[str, Any]:
    """The changes to ``settings`` of a process that serves (``serve``, and the benchmarks
    that measure it as it serves): the computer players started and warming up at once,
    the server's GC schedule and its thread switch interval (unless one is given)."""
    preload = settings.ai_preload
    if settings.ai_warm_up and WARM_UP not in preload:
        preload = (WARM_UP, *preload)
    return {"ai_prestart": True, "ai_preload": preload, "gc_schedule": True,
            "switch_interval": settings.switch_interval or SERVE_SWITCH_INTERVAL}


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None,
          computer_pause: float | None = None, streak_seeds: bool = False,
          workers: int = 1, ai_workers: int | None = None,
          settings: Settings | None = None, forwarded_allow_ips: str = "",
          max_connections: int = 4000) -> None:
    """Run the server until interrupted; prints the address and logs table events.

    ``ai_workers`` computer-player processes in all (default one per core), shared out
    among the ``workers`` web processes.
    """
    import uvicorn

    from cardplaza.web.store.storage import Storage, default_db_url

    settings = settings or Settings()
    _logging(settings.log_level)
    workers = max(1, workers)
    total_ai = ai_workers if ai_workers is not None else settings.ai_workers
    changes: dict[str, Any] = {**served(settings),
                               "ai_workers": max(1, -(-total_ai // workers)),
                               "analysis_workers": max(1, -(-settings.analysis_workers
                                                            // workers))}
    if computer_pause is not None:
        changes["computer_pause"] = computer_pause
    if streak_seeds:
        changes["streak_seeds"] = True
    settings = settings.replace(**changes)
    url = db or default_db_url()
    sock = bind_port(host, port)  # before the address is printed: a busy port fails here
    Storage(url).close()  # creates or upgrades the schema once, before any worker starts
    shown = f"[{host}]" if ":" in host else host

    def announce() -> None:
        print(f"Card Plaza on http://{shown}:{port}/  (database: {_safe_url(url)}; "
              f"{workers} web process{'es' if workers > 1 else ''}, "
              f"{settings.ai_workers * workers} computer-player processes, "
              f"{settings.analysis_workers * workers} for hints and reviews)", flush=True)

    common = uvicorn_options(settings, forwarded_allow_ips, max_connections)
    if workers == 1:
        # The address is printed once the app has started and its computer players are
        # ready: a game started at once does not wait on anything.
        from cardplaza.web.front.app import create_app

        config = uvicorn.Config(create_app(url, settings=settings, on_ready=announce),
                                **common)
        uvicorn.Server(config).run(sockets=[sock])
        return
    announce()
    os.environ[ENV] = json.dumps({"db": url, "settings": settings.to_json(),
                                  "supervisor": os.getpid()})
    config = uvicorn.Config("cardplaza.web.front.server:app_from_env", factory=True,
                            workers=workers, **common)
    with contextlib.suppress(KeyboardInterrupt):
        _supervisor()(config, sockets=[sock]).run()


def _supervisor() -> Any:
    """uvicorn's supervisor of several web processes, waiting at most
    :data:`SHUTDOWN_SECONDS` for them to stop before it kills them (a process stuck in its
    shutdown would otherwise hold the supervisor, and the resource tracker, for ever)."""
    import time

    from uvicorn.supervisors import Multiprocess

    class Supervisor(Multiprocess):
        def join_all(self) -> None:
            until = time.monotonic() + SHUTDOWN_SECONDS
            for process in self.processes:
                process.process.join(max(0.0, until - time.monotonic()))
            for process in self.processes:
                if process.process.is_alive():
                    logging.getLogger("cardplaza.web").warning(
                        "a web process did not stop in %.0f s; it is killed",
                        SHUTDOWN_SECONDS)
                    process.kill()
                    process.join()

    return Supervisor


__all__ = ["ENV", "app_from_env", "bind_port", "parse_settings", "serve", "served",
           "uvicorn_options"]
