"""``python -m cardplaza.web [--host H] [--port P] [--db URL] [--pause S] [--streak-seeds]``."""

from __future__ import annotations

import argparse

from cardplaza.web import serve


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and serve."""
    p = argparse.ArgumentParser(prog="python -m cardplaza.web", description="Card Plaza server")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--db", default=None, help="SQLAlchemy URL (default: SQLite in the data dir)")
    p.add_argument("--pause", type=float, default=0.6, help="seconds between computer plays")
    p.add_argument("--streak-seeds", action="store_true",
                   help="let requests choose the deal of streak games (tests only: a known "
                        "deal would let a player see the computer's cards)")
    a = p.parse_args(argv)
    serve(a.host, a.port, a.db, a.pause, a.streak_seeds)


if __name__ == "__main__":
    main()
