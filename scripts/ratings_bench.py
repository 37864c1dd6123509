"""Rating figures with many rated players: the leaderboard and player pages, and the
rating update of a game's end.

``python scripts/ratings_bench.py [--db URL|postgres] [--players N] [--requests R] [--json]``
seeds ``N`` rated players of four-hand Pinochle (default 100,000: players, rating rows with
1–60 games, a history row each) into the database — a throw-away PostgreSQL cluster
by default — then times through the web app (FastAPI's test client, so each time includes
routing and JSON):

* ``R`` leaderboard pages: half among the first ten pages, half anywhere in the board;
* ``R`` player pages of random players;
* ``R`` rating updates of a four-hand game of four random players: the part done while the
  action that ends the game is stored — who plays (:func:`plan`), reading their ratings
  and computing the update — and, separately, writing the update (the rating rows and
  history rows, in one transaction as the action's own would).

It prints the median and the 95th percentile of each, in milliseconds: the wall time, and,
since a shared machine's load stretches wall times far beyond the work done, the work
itself — this process's CPU time (the app, the test client, SQLAlchemy; the re-runs below
left out) plus, on PostgreSQL, the database's own time for the request's queries (planning
+ execution, from ``EXPLAIN (ANALYZE)`` of each ``SELECT`` right after it ran).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import secrets
import statistics
import time
from collections.abc import Iterator
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import event, insert

from cardplaza.core.protocol import GameState
from cardplaza.core.ratings import Rating, display
from cardplaza.core.registry import get_game
from cardplaza.web import create_app
from cardplaza.web.live.ratings import _read_and_rate, plan
from cardplaza.web.live.tables import LiveTable
from cardplaza.web.settings import Settings
from cardplaza.web.store.pgtemp import temporary_postgres
from cardplaza.web.store.ratings import RatingStore, rating_games_t, ratings_t, write_updates
from cardplaza.web.store.storage import SeatInfo, Storage, TableRow, hash_token, players_t

GAME = "pinochle4"


def seed(storage: Storage, players: int, rng: random.Random) -> list[str]:
    """Seed ``players`` rated players; their ids."""
    ids = [secrets.token_hex(8) for _ in range(players)]
    now = time.time()
    batch = 10_000
    for start in range(0, players, batch):
        chunk = ids[start:start + batch]
        people, rows, hist = [], [], []
        for n, pid in enumerate(chunk, start):
            people.append({"id": pid, "key_hash": hash_token(secrets.token_urlsafe(24)),
                           "name": f"Player {n}", "created": now, "seen": now})
            games = rng.randint(1, 60)
            r = Rating(rng.gauss(25, 4), max(0.8, 8.33 - games * 0.12))
            rows.append({"player": pid, "game": GAME, "kind": "rated", "mu": r.mu,
                         "sigma": r.sigma, "shown": display(r), "games": games,
                         "updated": now})
            for k in range(1):
                hist.append({"player": pid, "game": GAME, "kind": "rated",
                             "table_id": secrets.token_urlsafe(9), "at": now - 3600 * k,
                             "mu": r.mu, "sigma": r.sigma, "shown": display(r) - 5 * k,
                             "change": 5, "place": 1 + k % 2, "weight": 1.0})
        with storage.engine.begin() as conn:
            conn.execute(insert(players_t), people)
            conn.execute(insert(ratings_t), rows)
            conn.execute(insert(rating_games_t), hist)
    if storage.engine.dialect.name == "postgresql":
        # What autovacuum does on a live server: statistics and the visibility map (so
        # the leaderboard's index is read without visiting the table).
        with storage.engine.connect() as conn:
            conn.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql(
                "VACUUM ANALYZE")
    return ids


class Meter:
    """Database time of the SELECTs run while ``on`` (PostgreSQL: each is re-run under
    ``EXPLAIN (ANALYZE)``) and the CPU time those re-runs took here (left out)."""

    def __init__(self, engine: Any) -> None:
        self.on = False
        self.db = 0.0
        self.cpu_spent = 0.0
        self.postgres = engine.dialect.name == "postgresql"
        if self.postgres:
            event.listen(engine, "after_cursor_execute", self._after)

    def _after(self, conn: Any, cursor: Any, statement: str, parameters: Any, context: Any,
               executemany: bool) -> None:
        if not self.on or executemany or not statement.lstrip().upper().startswith("SELECT"):
            return
        c0 = time.process_time()
        with conn.connection.dbapi_connection.cursor() as cur:
            cur.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + statement, parameters)
            row = cur.fetchone()
        plan = row[0][0]
        self.db += (float(plan["Planning Time"]) + float(plan["Execution Time"])) / 1000
        self.cpu_spent += time.process_time() - c0

    def start(self) -> tuple[float, float]:
        """Begin one request."""
        self.on, self.db, self.cpu_spent = True, 0.0, 0.0
        return time.perf_counter(), time.process_time()

    def stop(self, at: tuple[float, float], wall: list[float], work: list[float]) -> None:
        """End one request: its wall time and its work (CPU here + database)."""
        self.on = False
        wall.append(time.perf_counter() - at[0])
        work.append(time.process_time() - at[1] - self.cpu_spent + self.db)


def _ms(xs: list[float]) -> dict[str, float]:
    xs = sorted(xs)
    return {"median_ms": round(statistics.median(xs) * 1000, 2),
            "p95_ms": round(xs[max(0, int(len(xs) * 0.95) - 1)] * 1000, 2),
            "n": len(xs)}


@contextlib.contextmanager
def _database(db: str) -> Iterator[str]:
    if db == "postgres":
        with temporary_postgres() as url:
            yield url
    else:
        yield db


def _finished_state(rng: random.Random) -> GameState:
    """A finished four-hand game (random play)."""
    spec = get_game(GAME)
    state = spec.new_game(spec.options({"target": 500}), rng.randrange(1 << 30))
    while not state.is_terminal:
        state.apply(rng.choice(list(state.legal_actions())))
    return state


def _finished_table(people: list[str], state: GameState) -> LiveTable:
    """A rated room's table of four people that has just ended."""
    spec = get_game(GAME)
    seats = [SeatInfo("human", f"P{i}", "normal", "x") for i in range(4)]
    row = TableRow(id=secrets.token_urlsafe(9), game=GAME, options={}, seed=0,
                   actions=[{"seat": 0, "action": None}] * 4, seats=seats,
                   extra={"room": {"id": "r", "rated": True, "players": people}})
    return LiveTable(row=row, spec=spec, state=state)


def main() -> None:
    """Seed, measure and print."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--db", default="postgres")
    ap.add_argument("--players", type=int, default=100_000)
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rng = random.Random(1)
    out: dict[str, Any] = {"players": args.players}
    load = [round(os.getloadavg()[0], 1)]
    with _database(args.db) as url:
        storage = Storage(url)
        t0 = time.perf_counter()
        ids = seed(storage, args.players, rng)
        out["seed_seconds"] = round(time.perf_counter() - t0, 1)
        settings = Settings(computer_pause=0.0, rate_per_second=1e6, rate_burst=1_000_000,
                            address_rate_burst=1_000_000, address_rate_per_second=1e6)
        with TestClient(create_app(url, settings=settings)) as client:
            size = settings.leaderboard_page_size
            first = client.get(f"/api/ratings/{GAME}").json()
            pages = first["pages"]
            out["listed"] = first["total"]
            meter = Meter(client.app.state.storage.engine)  # type: ignore[attr-defined]
            board: tuple[list[float], list[float]] = ([], [])
            page: tuple[list[float], list[float]] = ([], [])
            for i in range(args.requests):
                p = rng.randrange(10) if i % 2 == 0 else rng.randrange(pages)
                at = meter.start()
                r = client.get(f"/api/ratings/{GAME}?page={p}")
                meter.stop(at, *board)
                assert r.status_code == 200 and len(r.json()["rows"]) <= size
            for _ in range(args.requests):
                pid = rng.choice(ids)
                at = meter.start()
                r = client.get(f"/api/ratings/{GAME}/players/{pid}")
                meter.stop(at, *page)
                assert r.status_code == 200, r.text
            out["leaderboard"] = _ms(board[0])
            out["leaderboard_work"] = _ms(board[1])
            out["player_page"] = _ms(page[0])
            out["player_page_work"] = _ms(page[1])
        store = RatingStore(storage)
        meter = Meter(storage.engine)
        rate_t: tuple[list[float], list[float]] = ([], [])
        write_t: tuple[list[float], list[float]] = ([], [])
        state = _finished_state(rng)
        for _ in range(args.requests):
            people = rng.sample(ids, 4)
            table = _finished_table(people, state)
            at = meter.start()
            planned = plan(table, table.state)
            assert planned is not None
            kind, seats = planned
            updates, games = _read_and_rate(store, GAME, kind, seats)
            meter.stop(at, *rate_t)
            at = (time.perf_counter(), time.process_time())
            with storage._tx() as conn:
                write_updates(conn, GAME, kind, table.id, updates, games)
            write_t[0].append(time.perf_counter() - at[0])
            write_t[1].append(time.process_time() - at[1])
        out["update_read_and_compute"] = _ms(rate_t[0])
        out["update_read_and_compute_work"] = _ms(rate_t[1])
        out["update_write"] = _ms(write_t[0])
        out["update_write_cpu_here"] = _ms(write_t[1])
        storage.close()
    out["load"] = [*load, round(os.getloadavg()[0], 1)]
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"load average before/after: {out['load']}")
    print(f"{out['players']:,} rated players ({out['listed']:,} listed), seeded in "
          f"{out['seed_seconds']} s")
    for name in ("leaderboard", "leaderboard_work", "player_page", "player_page_work",
                 "update_read_and_compute", "update_read_and_compute_work", "update_write",
                 "update_write_cpu_here"):
        f = out[name]
        print(f"{name:>30}: median {f['median_ms']} ms, p95 {f['p95_ms']} ms ({f['n']} runs)")


if __name__ == "__main__":
    main()
