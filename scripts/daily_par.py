"""CPU time of the daily deal's par for every game, as the server computes it once a day.

``python scripts/daily_par.py [--days N] [--json]`` draws ``N`` days' deals (seeds from a
random secret, as the server's) and computes each game's par in a fresh worker process, one
process per day, exactly as the server's analysis worker does (:func:`par_in_worker`: the
expert at the player's seat, the fixed computers elsewhere). It prints per day the CPU
seconds of each game's par and their total, the whole worker's CPU included (starting
Python, loading the search kernels from their cache).
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import resource
import secrets
import subprocess
import sys
from typing import Any

from cardplaza.web.live.daily import SETUPS


def one_day(day: str, secret: str) -> dict[str, Any]:
    """Every game's par of one day, in this process (run as the worker)."""
    from cardplaza.web.live.daily import par_in_worker

    out: dict[str, Any] = {"day": day, "games": {}}
    for game, setup in SETUPS.items():
        digest = hmac.new(secret.encode(), f"daily/{day}/{game}".encode(),
                          hashlib.sha256).digest()
        seed = int.from_bytes(digest[:16], "big")
        got = par_in_worker(game, setup.options, seed, setup.seat, setup.expert, setup.level)
        out["games"][game] = {"par": got["par"], "cpu": got["cpu"]}
    usage = resource.getrusage(resource.RUSAGE_SELF)
    out["process_cpu"] = round(usage.ru_utime + usage.ru_stime, 2)
    return out


def main() -> None:
    """Run the measurement and print it (JSON with ``--json``)."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--days", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--worker", nargs=2, metavar=("DAY", "SECRET"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(one_day(*args.worker)))
        return
    secret = secrets.token_urlsafe(32)
    results = []
    for d in range(args.days):
        day = f"2026-01-{d + 1:02d}"
        run = subprocess.run([sys.executable, __file__, "--worker", day, secret],
                             capture_output=True, text=True, check=True)
        results.append(json.loads(run.stdout.strip().splitlines()[-1]))
    if args.json:
        print(json.dumps(results, indent=1))
        return
    for r in results:
        parts = ", ".join(f"{g} {v['cpu']:.1f}" for g, v in r["games"].items())
        print(f"{r['day']}: whole worker {r['process_cpu']:.1f} CPU s  ({parts})")
    print(f"worst day: {max(r['process_cpu'] for r in results):.1f} CPU s (limit 60)")


if __name__ == "__main__":
    main()
