"""Time saving one action to the log at the 10th and at the 1,000th action of a table.

``python scripts/append_cost.py [--db URL] [--tables N]`` appends 1,010 actions to each of
``N`` fresh tables, interleaved as a server would, and prints the median time of the
appends with index 0–19 and 990–1,009 and their ratio (SQLite file in a temporary directory
unless ``--db`` is given: a database URL, or ``postgres`` for a throw-away PostgreSQL cluster).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import tempfile
import time
from pathlib import Path

from cardplaza.web.pgtemp import temporary_postgres
from cardplaza.web.storage import SeatInfo, Storage, TableRow

EARLY = range(20)
LATE = range(990, 1_010)


def main() -> None:
    """Run the measurement and print it (JSON with ``--json``)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
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
        ids = [f"append-cost-{time.time_ns()}-{t}" for t in range(args.tables)]
        for tid in ids:
            storage.insert_table(TableRow(id=tid, game="pinochle2", options={}, seed=1,
                                          actions=[], seats=[SeatInfo("human", "Ann")]),
                                 "bench")
        early: list[float] = []
        late: list[float] = []
        for i in range(LATE.stop):
            for tid in ids:
                t0 = time.perf_counter()
                storage.append_action(tid, i, i % 2, {"type": "play", "card": i % 48}, "bench")
                dt = time.perf_counter() - t0
                if i in EARLY:
                    early.append(dt)
                elif i in LATE:
                    late.append(dt)
        storage.close()
    e, la = statistics.median(early) * 1000, statistics.median(late) * 1000
    out = {"db": url.split(":")[0], "tables": args.tables, "append 10th ms": round(e, 3),
           "append 1000th ms": round(la, 3), "ratio": round(la / e, 3)}
    print(json.dumps(out) if args.json else
          f"{out['db']}: median append at actions 1–20 {e:.3f} ms, at 991–1,010 {la:.3f} ms, "
          f"ratio {la / e:.2f}")


if __name__ == "__main__":
    main()
