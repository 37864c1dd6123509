"""Helpers shared by the web tests."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient


def create(client: TestClient, **data: Any) -> dict[str, Any]:
    """Create a table, asserting success."""
    r = client.post("/api/tables", json=data)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out
