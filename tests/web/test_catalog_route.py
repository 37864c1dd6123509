"""``GET /api/catalog/{lang}``: the front end's texts, revalidated by their entity tag."""

from __future__ import annotations

from fastapi.testclient import TestClient

from cardplaza.texts.catalog import catalog


def test_the_catalog_is_served_with_its_tag(client: TestClient) -> None:
    r = client.get("/api/catalog/ja")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    assert r.headers["cache-control"] == "no-cache"
    texts = r.json()
    assert texts["lobby.start"] == catalog("ja")["lobby.start"] == "コンピューターと対戦"
    assert "err.not_your_turn" in texts and not any(k.startswith("cli.") for k in texts)
    tag = r.headers["etag"]
    again = client.get("/api/catalog/ja", headers={"If-None-Match": tag})
    assert again.status_code == 304 and not again.content and again.headers["etag"] == tag
    en = client.get("/api/catalog/en", headers={"If-None-Match": tag})
    assert en.status_code == 200 and en.headers["etag"] != tag
    assert en.json()["lobby.start"] == "Play against the computer"


def test_an_unknown_language_is_not_found(client: TestClient) -> None:
    r = client.get("/api/catalog/fr")
    assert r.status_code == 404 and r.json()["code"] == "not_found"
