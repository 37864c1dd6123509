"""``python -m cardplaza.web [--host H] [--port P] [--db URL] [--pause S] [--workers N]
[--ai-workers N] [--set name=value …] [--streak-seeds]``."""

from __future__ import annotations

import argparse

from cardplaza.web.front.server import parse_settings, serve


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and serve."""
    p = argparse.ArgumentParser(prog="python -m cardplaza.web", description="Card Plaza server")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--db", default=None, help="SQLAlchemy URL (default: SQLite in the data dir)")
    p.add_argument("--pause", type=float, default=None,
                   help="seconds between computer plays at the normal pace (default 0.6)")
    p.add_argument("--workers", type=int, default=1, help="web processes on this port")
    p.add_argument("--ai-workers", type=int, default=None,
                   help="computer-player processes in all (default: one per core)")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="any setting of cardplaza.web.settings.Settings")
    p.add_argument("--forwarded-allow-ips", default="",
                   help="proxies whose X-Forwarded-For is trusted (none by default)")
    p.add_argument("--streak-seeds", action="store_true",
                   help="let requests choose the deal of streak games (tests only: a known "
                        "deal would let a player see the computer's cards)")
    a = p.parse_args(argv)
    try:
        settings = parse_settings(a.set)
    except ValueError as exc:
        p.error(str(exc))
    serve(a.host, a.port, a.db, a.pause, a.streak_seeds, a.workers, a.ai_workers, settings,
          a.forwarded_allow_ips)


if __name__ == "__main__":
    main()
