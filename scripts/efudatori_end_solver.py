"""Time E-fuda-tori's exact end solver (``kernels.KERNELS.solve_end``) by size of the end.

    python scripts/efudatori_end_solver.py [--games N] [--players P] [--rounds R]
                                           [--against SRC] [--json]

Plays ``N`` seeded games (level-2 players) and, at every decision with two or more legal
cards once the stock is empty, solves the end for all legal cards. The calls are grouped
by :func:`play_orders` of the hands (the bound on the ways to play out) and timed in a
worker process per version: this checkout's, and with ``--against SRC`` (a ``src``
folder of another checkout, e.g. main's) that one's too, on the same positions, the
versions taking turns for ``R`` rounds (each call's fastest round counts). The workers'
values must be identical. Prints mean and max milliseconds per bucket and version.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

OWN_SRC = Path(__file__).resolve().parent.parent / "src"

Position = list[Any]
"""hands, trick, leader, trick number, captured, cards, seat, players, tricks, simple."""


def positions(games: int, players: int) -> list[Position]:
    """Every decision with two or more legal cards after the stock ran out, in ``games``
    seeded games of level-2 players."""
    from cardplaza.games.efudatori import EfudatoriState, Options
    from cardplaza.games.efudatori.players import HeuristicPlayer

    out: list[Position] = []
    bot = HeuristicPlayer()
    for seed in range(games):
        s = EfudatoriState(Options(players=players), seed)
        rng = random.Random(seed)
        while not s.is_terminal:
            seat = s.current_player
            legal = s.legal_actions()
            if not s.stock and len(legal) > 1:
                out.append([list(s.hands), list(s.trick), s.leader, s.trick_number,
                            list(s.captured), list(legal), seat, players, s.tricks_total,
                            int(s.options.simple_scoring)])
            s.apply(bot.choose(s.observation(seat), legal, rng))
    return out


def worker() -> None:
    """Read positions (JSON) on stdin; write each call's seconds and values on stdout."""
    import numpy as np

    from cardplaza.games.efudatori import kernels

    solve = kernels.KERNELS.solve_end
    arrays = []
    for hands, trick, leader, k, captured, cards, seat, n, total, simple in json.load(
            sys.stdin):
        arrays.append((np.array(hands, dtype=np.int64), np.array(trick, dtype=np.int64),
                       leader, k, np.array(captured, dtype=np.int64),
                       np.array(cards, dtype=np.int64), seat, n, total, simple))
    solve(*arrays[0])  # compile or load from the disk cache
    seconds, values = [], []
    for args in arrays:
        start = time.perf_counter()
        got = solve(*args)
        seconds.append(time.perf_counter() - start)
        values.append(got.tolist())
    json.dump({"seconds": seconds, "values": values}, sys.stdout)


def run(src: Path, data: str) -> dict[str, Any]:
    """One worker run on ``src``'s package."""
    env = dict(os.environ, PYTHONPATH=str(src))
    done = subprocess.run([sys.executable, __file__, "--worker"], input=data, env=env,
                          capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def main() -> None:
    """Generate the positions, time every version, print the table."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--against", type=Path, default=None)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker()
        return
    from cardplaza.games.efudatori.players import play_orders

    pos = positions(args.games, args.players)
    data = json.dumps(pos)
    versions = {"this": OWN_SRC}
    if args.against is not None:
        versions["against"] = args.against.resolve()
    best: dict[str, list[float]] = {}
    values: dict[str, list[list[float]]] = {}
    for _ in range(args.rounds):
        for name, src in versions.items():
            got = run(src, data)
            old = best.get(name)
            best[name] = got["seconds"] if old is None else list(map(min, old, got["seconds"]))
            values[name] = got["values"]
    if "against" in values and values["against"] != values["this"]:
        raise SystemExit("the versions' values differ")
    buckets: dict[int, list[int]] = {}
    for i, p in enumerate(pos):
        buckets.setdefault(play_orders([h.bit_count() for h in p[0]]), []).append(i)
    table = []
    for size in sorted(buckets):
        row: dict[str, Any] = {"play_orders": size, "calls": len(buckets[size])}
        for name in versions:
            ms = [best[name][i] * 1000 for i in buckets[size]]
            row[f"{name} mean ms"] = sum(ms) / len(ms)
            row[f"{name} max ms"] = max(ms)
        if "against" in versions:
            row["mean speed-up"] = row["against mean ms"] / row["this mean ms"]
        table.append(row)
    if args.json:
        print(json.dumps(table, indent=1))
        return
    heads = list(table[0])
    print("  ".join(f"{h:>16}" for h in heads))
    for row in table:
        print("  ".join(f"{row[h]:>16,.3f}" if isinstance(row[h], float) else f"{row[h]:>16,}"
                        for h in heads))


if __name__ == "__main__":
    main()
