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

It prints the median and the 95th percentile of each, in milliseconds.
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
from sqlalchemy import insert

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
            board, page = [], []
            for i in range(args.requests):
                p = rng.randrange(10) if i % 2 == 0 else rng.randrange(pages)
                t = time.perf_counter()
                r = client.get(f"/api/ratings/{GAME}?page={p}")
                board.append(time.perf_counter() - t)
                assert r.status_code == 200 and len(r.json()["rows"]) <= size
            for _ in range(args.requests):
                pid = rng.choice(ids)
                t = time.perf_counter()
                r = client.get(f"/api/ratings/{GAME}/players/{pid}")
                page.append(time.perf_counter() - t)
                assert r.status_code == 200, r.text
            out["leaderboard"] = _ms(board)
            out["player_page"] = _ms(page)
        store = RatingStore(storage)
        rate_t, write_t = [], []
        state = _finished_state(rng)
        for _ in range(args.requests):
            people = rng.sample(ids, 4)
            table = _finished_table(people, state)
            t = time.perf_counter()
            planned = plan(table, table.state)
            assert planned is not None
            kind, seats = planned
            updates, games = _read_and_rate(store, GAME, kind, seats)
            rate_t.append(time.perf_counter() - t)
            t = time.perf_counter()
            with storage._tx() as conn:
                write_updates(conn, GAME, kind, table.id, updates, games)
            write_t.append(time.perf_counter() - t)
        out["update_read_and_compute"] = _ms(rate_t)
        out["update_write"] = _ms(write_t)
        storage.close()
    out["load"] = [*load, round(os.getloadavg()[0], 1)]
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"load average before/after: {out['load']}")
    print(f"{out['players']:,} rated players ({out['listed']:,} listed), seeded in "
          f"{out['seed_seconds']} s")
    for name in ("leaderboard", "player_page", "update_read_and_compute", "update_write"):
        f = out[name]
        print(f"{name:>24}: median {f['median_ms']} ms, p95 {f['p95_ms']} ms ({f['n']} runs)")


if __name__ == "__main__":
    main()
