"""Time saving one action to the log at the 10th and at the 1,000th action of a table.

``python scripts/append_cost.py [--db URL] [--tables N] [--json]`` fills ``N`` tables with
990 actions and leaves ``N`` others empty, then appends 20 actions to each, short and long
tables in turn, so both are timed against the same database at the same moments; it
prints the median append of the short tables (actions 1–20) and of the long ones
(991–1,010) and their ratio. The database is a SQLite file in a temporary directory unless
``--db`` is given: a URL, or ``postgres`` for a throw-away PostgreSQL cluster.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import tempfile
import time
from pathlib import Path

from cardplaza.web.store.pgtemp import temporary_postgres
from cardplaza.web.store.storage import SeatInfo, Storage, TableRow

FILLED = 990
TIMED = 20


def main() -> None:
    """Run the measurement and print it (JSON with ``--json``)."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--db", default=None)
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        url = args.db or f"sqlite:///{Path(tmp) / 'append.sqlite3'}"
        if url == "postgres":
            url = stack.enter_context(temporary_postgres())
        storage = Storage(url)
        storage.register_server("bench", "127.0.0.1:0")
        stamp = time.time_ns()
        short = [f"append-cost-{stamp}-short-{t}" for t in range(args.tables)]
        long = [f"append-cost-{stamp}-long-{t}" for t in range(args.tables)]
        for tid in short + long:
            storage.insert_table(TableRow(id=tid, game="pinochle2", options={}, seed=1,
                                          actions=[], seats=[SeatInfo("human", "Ann")]),
                                 "bench")
        for i in range(FILLED):
            for tid in long:
                storage.append_action(tid, i, i % 2, {"type": "play", "card": i % 48}, "bench")
        times: dict[str, list[float]] = {"short": [], "long": []}
        for i in range(TIMED):
            for a, b in zip(short, long, strict=True):
                for kind, tid, index in (("short", a, i), ("long", b, FILLED + i)):
                    t0 = time.perf_counter()
                    storage.append_action(tid, index, index % 2,
                                          {"type": "play", "card": index % 48}, "bench")
                    times[kind].append(time.perf_counter() - t0)
        storage.close()
    e = statistics.median(times["short"]) * 1000
    la = statistics.median(times["long"]) * 1000
    out = {"db": url.split(":")[0], "tables": args.tables, "append 10th ms": round(e, 3),
           "append 1000th ms": round(la, 3), "ratio": round(la / e, 3)}
    print(json.dumps(out) if args.json else
          f"{out['db']}: median append at actions 1–20 {e:.3f} ms, at 991–1,010 {la:.3f} ms, "
          f"ratio {la / e:.2f}")


if __name__ == "__main__":
    main()
