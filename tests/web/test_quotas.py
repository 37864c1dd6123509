"""Quotas on what one client may create: unfinished tables per address (abandoned ones
included, checked atomically), and token-bucket budgets of table creations per address and
per player key."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import create

from cardplaza.web import create_app
from cardplaza.web.live.budgets import LIMITS, Budgets, limits
from cardplaza.web.settings import Settings

pytestmark = pytest.mark.usefixtures("toy")

ROOMY = Settings(computer_pause=0.0, ai_workers=1, tables_burst_per_address=10_000,
                 tables_burst_per_player=10_000)


def app_with(db_url: str, **changes: Any) -> TestClient:
    return TestClient(create_app(db_url, settings=ROOMY.replace(**changes)))


def test_budget_settings_are_named_with_defaults() -> None:
    s = Settings()
    for (kind, who), (rate, burst, unit) in LIMITS.items():
        assert getattr(s, rate) > 0 and getattr(s, burst) >= 1 and unit > 0
        per_second, size = limits(s, kind, who)
        assert per_second == getattr(s, rate) / unit and size == getattr(s, burst)
    assert Settings.from_json(s.to_json()) == s


def test_a_player_key_does_not_lift_the_address_limit(db_url: str) -> None:
    """Opening table after table with one key abandons the oldest, and abandoned tables
    still count against the address: the database cannot grow without bound."""
    with app_with(db_url, max_open_tables_per_address=5,
                  max_open_tables_per_player=2) as client:
        key = client.post("/api/players", json={}).json()["key"]
        codes = []
        for seed in range(12):
            r = client.post("/api/tables", json={"game": "toy", "seed": seed,
                                                 "humans": [0, 1], "key": key})
            codes.append(r.status_code if r.status_code == 200 else r.json()["code"])
        assert codes == [200] * 5 + ["too_many_tables"] * 7
        storage = client.app.state.storage  # type: ignore[attr-defined]
        assert storage.count_open(0.0, statuses=("playing", "abandoned")) == 5


def test_concurrent_creations_stay_within_the_limit(db_url: str) -> None:
    with app_with(db_url, max_open_tables_per_address=5) as client:
        results: list[int] = []
        lock = threading.Lock()
        start = threading.Barrier(16)

        def one(seed: int) -> None:
            start.wait()
            r = client.post("/api/tables", json={"game": "toy", "seed": seed,
                                                 "humans": [0, 1]})
            with lock:
                results.append(r.status_code)

        threads = [threading.Thread(target=one, args=(i,)) for i in range(16)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert sorted(results) == [200] * 5 + [429] * 11
        storage = client.app.state.storage  # type: ignore[attr-defined]
        assert storage.count_open(0.0, statuses=("playing", "abandoned")) == 5


def test_table_creations_per_address_are_budgeted(db_url: str) -> None:
    with app_with(db_url, tables_burst_per_address=3,
                  tables_per_minute_per_address=0.001) as client:
        for seed in range(3):
            create(client, game="toy", seed=seed, humans=[0, 1])
        r = client.post("/api/tables", json={"game": "toy", "seed": 9, "humans": [0, 1]})
        assert r.status_code == 429 and r.json()["code"] == "too_many_requests"
        # new player keys come out of the same budget
        assert client.post("/api/players", json={}).json()["code"] == "too_many_requests"
        assert len(client.app.state.manager.tables) == 3  # type: ignore[attr-defined]


def test_table_creations_per_player_are_budgeted(db_url: str) -> None:
    with app_with(db_url, tables_burst_per_player=2,
                  tables_per_minute_per_player=0.001) as client:
        ann = client.post("/api/players", json={}).json()["key"]
        bob = client.post("/api/players", json={}).json()["key"]
        for seed in range(2):
            create(client, game="toy", seed=seed, humans=[0, 1], key=ann)
        r = client.post("/api/tables", json={"game": "toy", "seed": 5, "humans": [0, 1]},
                        headers={"X-Player-Key": ann})
        assert r.status_code == 429 and r.json()["code"] == "too_many_requests"
        create(client, game="toy", seed=6, humans=[0, 1], key=bob)


def test_buckets_refill_and_stay_bounded() -> None:
    budgets = Budgets(ROOMY.replace(tables_burst_per_address=2,
                                    tables_per_minute_per_address=6_000.0), max_keys=3)
    assert budgets.take("tables", "address", "a") and budgets.take("tables", "address", "a")
    assert not budgets.take("tables", "address", "a")
    import time

    time.sleep(0.05)  # 100 a second: five tokens back, two kept
    assert budgets.take("tables", "address", "a")
    for k in "bcde":
        budgets.take("tables", "address", k)
    assert len(budgets) == 3
    assert budgets.take("tables", "address", None)  # nothing to count without a key
