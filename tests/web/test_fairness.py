"""Provably fair deals: every deal's commitment matches the seed the record reveals, the
check (``cardplaza verify``, ``POST /api/verify``) passes on a genuine record and fails on one
whose seed, actions or commitments were altered, the table sends the same commitments after a
reload, and no message gives the seed away before the end."""

from __future__ import annotations

import copy
import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner
from web_helpers import create

from cardplaza.cli.main import app as cli_app
from cardplaza.core import fairness
from cardplaza.core.history import GameRecord
from cardplaza.core.registry import games, get_game
from cardplaza.web.live.tables import TableManager

SEED = 0xC0FFEE_1234_5678_9ABC_DEF0_1122_3344
TABLE = "tbl-Fair_01"
LONG = {"pinochle4": {"target": 500}, "pinochle3": {"target": 500}}


def _played(game: str, options: dict[str, Any], seed: int, choices: int) -> dict[str, Any]:
    """A finished random game's record, as the server gives it (fairness included)."""
    spec = get_game(game)
    state = spec.new_game(spec.options(options), seed)
    rng = random.Random(choices)
    while not state.is_terminal:
        state.apply(rng.choice(list(state.legal_actions())))
    record = GameRecord.of(state)
    out = record.to_json()
    out["fairness"] = fairness.fairness_block(TABLE, record)
    return out


def _by_hand(table: str, deal: int, seed: int) -> str:
    """The commitment as the fairness page documents it, computed here by hand."""
    text = f'["cardplaza-deal/1","{table}",{deal},"{seed}"]'
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.fixture(scope="module")
def records() -> dict[str, dict[str, Any]]:
    return {name: _played(name, LONG.get(name, {}), SEED, 7) for name in games()}


def test_each_commitment_matches_the_revealed_seed(records: dict[str, dict[str, Any]]) -> None:
    many = 0
    for name, rec in records.items():
        deals = rec["fairness"]["deals"]
        assert [d["deal"] for d in deals] == list(range(1, len(deals) + 1)), name
        assert deals[0]["step"] == 0
        for d in deals:
            assert d["commitment"] == _by_hand(TABLE, d["deal"], int(rec["seed"])), name
            assert str(SEED) not in d["commitment"] and hex(SEED)[2:] not in d["commitment"]
        assert len({d["commitment"] for d in deals}) == len(deals)
        spec = get_game(name)
        if spec.deals_played is not None:
            final = GameRecord.from_json(rec).final_state()
            assert len(deals) == spec.deals_played(final), name
            many += len(deals) > 1
        outcome = fairness.verify(rec)
        assert outcome.ok and outcome.deals == len(deals), (name, outcome)
        assert outcome.steps == len(rec["actions"])
    assert many >= 3  # the games of several deals (four-hand, cut-throat, Piquet …)


def _fails(rec: dict[str, Any], code: str | None = None) -> None:
    outcome = fairness.verify(rec)
    assert not outcome.ok
    if code is not None:
        assert outcome.code == code, outcome


@pytest.mark.parametrize("game", ["pinochle2", "piquet", "pinochle4"])
def test_altered_records_fail(records: dict[str, dict[str, Any]], game: str) -> None:
    good = records[game]
    n = len(good["actions"])

    bad = copy.deepcopy(good)
    bad["seed"] = str(int(good["seed"]) + 1)
    _fails(bad, "commitment")

    # The seed and its commitments both replaced: the log digest still gives it away.
    bad = copy.deepcopy(good)
    other = _played(game, LONG.get(game, {}), SEED + 1, 7)
    bad["seed"] = other["seed"]
    bad["fairness"]["deals"] = [{**d, "commitment": fairness.commitment(TABLE, d["deal"],
                                                                        SEED + 1)}
                                for d in good["fairness"]["deals"]]
    _fails(bad)

    bad = copy.deepcopy(good)
    del bad["actions"][n // 2]
    _fails(bad)
    bad = copy.deepcopy(good)
    del bad["actions"][-1]
    _fails(bad)

    bad = copy.deepcopy(good)
    i = next(i for i in range(n // 2, n - 1) if good["actions"][i] != good["actions"][i + 1])
    bad["actions"][i], bad["actions"][i + 1] = bad["actions"][i + 1], bad["actions"][i]
    _fails(bad)

    bad = copy.deepcopy(good)
    c = bad["fairness"]["deals"][-1]["commitment"]
    bad["fairness"]["deals"][-1]["commitment"] = ("0" if c[0] != "0" else "1") + c[1:]
    _fails(bad, "commitment")

    bad = copy.deepcopy(good)
    bad["fairness"]["deals"].append({"deal": 99, "step": n, "commitment": fairness.commitment(
        TABLE, 99, SEED)})
    _fails(bad, "extra_deal")

    bad = copy.deepcopy(good)
    bad["fairness"]["log"] = fairness.log_digest(TABLE, "x", [])
    _fails(bad, "log")

    bad = copy.deepcopy(good)
    bad["result"] = [x + 1 for x in good["result"]]
    _fails(bad, "result")

    bad = copy.deepcopy(good)
    del bad["fairness"]
    _fails(bad, "no_commitments")


def test_changed_actions_that_are_all_legal_fail_on_the_log(
        records: dict[str, dict[str, Any]]) -> None:
    """Another legal game from the same deal, with the genuine record's commitments and
    digest: every action is legal, yet the log digest gives it away."""
    good = records["pinochle2"]
    other = _played("pinochle2", {}, SEED, 8)
    assert other["actions"] != good["actions"]
    bad = {**other, "fairness": good["fairness"], "result": other["result"]}
    _fails(bad, "log")


def test_games_of_several_deals_commit_each_deal_where_it_starts(
        records: dict[str, dict[str, Any]]) -> None:
    good = records["piquet"]
    assert len(good["fairness"]["deals"]) >= 6
    bad = copy.deepcopy(good)
    bad["fairness"]["deals"][2]["step"] += 1
    _fails(bad, "deal_step")
    bad = copy.deepcopy(good)
    del bad["fairness"]["deals"][3]
    _fails(bad, "uncommitted")


def _play_all(client: TestClient, t: dict[str, Any], n: int, rng: random.Random,
              stop: int | None = None) -> list[list[dict[str, Any]]]:
    """Every seat (all people) plays at random; every message each seat got, in order."""
    seen: list[list[dict[str, Any]]] = [[] for _ in range(n)]
    sockets = [client.websocket_connect("/ws") for _ in range(n)]
    for ws in sockets:
        ws.__enter__()
    try:
        msgs = []
        for s, ws in enumerate(sockets):
            ws.send_json({"type": "join", "table": t["table"], "token": t["tokens"][str(s)]})
            msgs.append(ws.receive_json())
            seen[s].append(msgs[-1])
        while not msgs[0]["terminal"] and (stop is None or msgs[0]["step"] < stop):
            cur = msgs[0]["current"]
            sockets[cur].send_json({"type": "act", "action": rng.choice(msgs[cur]["legal"])[
                "json"], "step": msgs[cur]["step"]})
            msgs = [ws.receive_json() for ws in sockets]
            for s in range(n):
                seen[s].append(msgs[s])
        return seen
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)


def test_the_table_sends_commitments_and_the_record_checks_out(
        client: TestClient, tmp_path: Path) -> None:
    seed = 2**127 + 12345
    t = create(client, game="piquet", seed=seed, options={"four_deals": True},
               humans=[0, 1], level="random")
    table = t["table"]
    rng = random.Random(11)
    early = _play_all(client, t, 2, rng, stop=30)
    # Reloaded from storage (as another process or a restart would), the table sends the
    # same commitment and log digest as the last message did.
    app_state: Any = client.app.state  # type: ignore[attr-defined]
    storage = app_state.storage
    fresh = TableManager(storage)._replay(storage.load_table(table))
    assert fresh.fair() == early[0][-1]["fair"] == early[1][-1]["fair"]
    seen = _play_all(client, t, 2, rng)
    flat = [m for per_seat in (early, seen) for ms in per_seat for m in ms]
    assert all(m["fair"]["commitment"] == fairness.commitment(table, m["fair"]["deal"], seed)
               for m in flat)
    assert {m["fair"]["deal"] for m in flat} == {1, 2, 3, 4}
    text = json.dumps(flat)
    assert str(seed) not in text and hex(seed)[2:] not in text and str(seed)[:12] not in text
    last = seen[0][-1]
    assert last["terminal"]
    headers = {"X-Seat-Token": t["tokens"]["0"]}
    record = client.get(f"/api/tables/{table}/download", headers=headers).json()
    assert record["seed"] == str(seed)
    assert record["fairness"]["log"] == last["fair"]["log"]
    assert [d["commitment"] for d in record["fairness"]["deals"]] == [
        fairness.commitment(table, k, seed) for k in (1, 2, 3, 4)]
    stored = client.get(f"/api/tables/{table}/record", headers=headers).json()
    assert stored["fairness"] == record["fairness"] and fairness.verify(stored).ok

    r = client.post("/api/verify", json={"record": record}).json()
    assert r["ok"] and r["deals"] == 4 and r["steps"] == len(record["actions"])
    tampered = {**record, "actions": record["actions"][:-1]}
    r = client.post("/api/verify", json={"record": tampered}).json()
    assert not r["ok"] and r["code"] == "unfinished"

    runner = CliRunner()
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record), encoding="utf-8")
    out = runner.invoke(cli_app, ["verify", str(good), "--lang", "en"])
    assert out.exit_code == 0, out.output
    assert "Fair: every deal matches its commitment (4 in all)" in out.output
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**record, "seed": str(seed + 1)}), encoding="utf-8")
    out = runner.invoke(cli_app, ["verify", str(bad), "--lang", "ja"])
    assert out.exit_code == 1
    assert "第1ディールのコミットメントが明かされたシードと一致しません" in out.output
    out = runner.invoke(cli_app, ["verify", str(tmp_path / "missing.json")])
    assert out.exit_code == 2


def test_a_running_game_record_has_commitments_but_no_seed(client: TestClient) -> None:
    seed = 2**100 + 7
    t = create(client, game="pinochle4", seed=seed, options={"target": 500},
               humans=[0, 1, 2, 3], level="random")
    seen = _play_all(client, t, 4, random.Random(2), stop=20)
    headers = {"X-Seat-Token": t["tokens"]["1"]}
    partial = client.get(f"/api/tables/{t['table']}/download", headers=headers).json()
    assert "seed" not in partial
    assert partial["fairness"]["deals"][0]["commitment"] == fairness.commitment(
        t["table"], 1, seed)
    assert partial["fairness"]["log"] == seen[1][-1]["fair"]["log"]
    assert str(seed) not in json.dumps(partial)
    r = client.post("/api/verify", json={"record": partial}).json()
    assert not r["ok"] and r["code"] == "not_record"


def test_the_fairness_page_in_both_languages(client: TestClient) -> None:
    en = client.get("/api/pages/fairness?lang=en").json()
    ja = client.get("/api/pages/fairness?lang=ja").json()
    assert en["lang"] == "en" and "<h1" in en["html"] and "Fair deals" in en["html"]
    assert ja["lang"] == "ja" and "公正な配札" in ja["html"]
    for html in (en["html"], ja["html"]):
        # what the page documents is what the code does
        assert "cardplaza verify" in html and "cardplaza-deal/1" in html
        assert "cardplaza-log/1" in html
    assert client.get("/api/pages/nope").status_code == 404
    assert client.get("/api/pages/..%2Fen").status_code == 404


def test_the_documented_log_digest_is_the_one_computed() -> None:
    """The fairness page's recipe for the digest of the moves, by hand."""
    first = fairness.commitment(TABLE, 1, SEED)
    actions: list[tuple[int, Any]] = [(0, "KS"), (1, {"b": [1, 2], "a": 3}), (0, 5)]
    digest = hashlib.sha256(f'["cardplaza-log/1","{TABLE}","{first}"]'.encode()).hexdigest()
    for seat, action in actions:
        move = json.dumps(action, separators=(",", ":"), sort_keys=True)
        digest = hashlib.sha256(
            f'["cardplaza-log/1","{digest}",{seat},{move}]'.encode()).hexdigest()
    assert fairness.log_digest(TABLE, first, actions) == digest
    chain = fairness.LogChain(TABLE, first)
    assert chain.extend(actions[:2]) == fairness.log_digest(TABLE, first, actions[:2])
    assert chain.extend(actions) == digest
    assert chain.extend(actions[:1]) == fairness.log_digest(TABLE, first, actions[:1])


def test_the_running_digest_follows_undo() -> None:
    """A table's facts after actions, a rewind (undo) and a different action: always the
    digest of the log it holds then."""
    import dataclasses

    from cardplaza.web.live.tables import LiveTable
    from cardplaza.web.store.storage import TableRow

    spec = get_game("pinochle2")
    row = TableRow(id=TABLE, game="pinochle2", options={}, seed=SEED, actions=[], seats=[])
    table = LiveTable(row=row, spec=spec, state=spec.new_game(spec.options({}), SEED))

    def act(i: int) -> None:
        action = list(table.state.legal_actions())[i]
        table.row.actions.append({"seat": table.state.current_player,
                                  "action": table.state.action_to_json(action)})
        table.state.apply(action)

    def expected() -> str:
        return fairness.log_digest(TABLE, fairness.commitment(TABLE, 1, SEED),
                                   [(a["seat"], a["action"]) for a in table.row.actions])

    for _ in range(6):
        act(0)
        assert table.fair()["log"] == expected()
    sent = table.fair()
    table.row = dataclasses.replace(table.row, actions=table.row.actions[:4])
    table.state = GameRecord.from_json({**GameRecord.of(table.state).to_json(), "actions": [
        {"seat": a["seat"], "action": a["action"]} for a in table.row.actions]}).final_state()
    table.rewinds += 1
    assert table.fair()["log"] == expected() != sent["log"]
    act(1)
    assert table.fair()["log"] == expected()
    assert table.fair()["commitment"] == fairness.commitment(TABLE, 1, SEED)
