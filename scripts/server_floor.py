"""What the web process spends per person action around the game's messages and storage.

``python scripts/server_floor.py [--game G] [--level L] [--tables N] [--seconds S]
[--rounds R] [--json]`` runs ``cardplaza loadtest --in-process`` (the web process's own
processor time per person action, the computers' replies included) in three ways, one
after another in each round, each in a fresh process:

* ``served``: as the server runs;
* ``bare messages``: every state message keeps its frame (number, table, seat, change
  against the last one, JSON text, one per connection) but carries a bare view: the
  seat's observation is its seat number and the number of actions so far, the legal
  actions are their JSON forms alone, no reasons are given for unplayable cards and the
  fair-play facts are the same three short texts every time;
* ``bare messages, nothing stored``: besides, the action log says at once that each
  action is stored, without writing it.

What the server does besides stays in all three: reading and checking each message,
budgets, moving on a copy, the computers' turns (their observation, decision and pause),
waking tasks, the garbage collector. The last way is therefore a floor: a server that
stores every action and sends each seat its view spends more than it. It prints the
median of the rounds for each way, the event loop's and the writing thread's shares
beside the whole. The last two ways are measurements only; the server never runs so.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import types
from typing import Any

WAYS = ("served", "bare messages", "bare messages, nothing stored")
FIGURES = ("web CPU ms per action (steady state)",
           "of it the event loop's thread ms per action",
           "of it the action log's writing thread ms per action")


def bare_messages() -> None:
    """State messages with bare views (their frame, change and JSON as served)."""
    from cardplaza.web.live import tables

    def seat_message(state: Any, seat: int) -> dict[str, Any]:
        current = state.current_player
        msg: dict[str, Any] = {
            "obs": {"seat": seat, "actions": len(state.history)},
            "current": current, "terminal": state.is_terminal, "extra": None,
            "legal": [{"json": state.action_to_json(a)} for a in state.legal_actions()]
            if current == seat else [],
            "illegal": {},
        }
        if state.is_terminal:
            msg["returns"] = list(state.returns())
            msg["winners"] = list(state.winners())
        return msg

    def fair(self: Any) -> dict[str, Any]:
        return {"deal": 1, "commitment": "-", "log": "-"}

    tables.seat_message = seat_message
    tables.LiveTable.fair = fair  # type: ignore[method-assign]


def nothing_stored() -> None:
    """An action log that says at once that every action is stored."""
    from cardplaza.web.store.action_log import ActionLog, Then
    from cardplaza.web.store.storage import Append

    async def append(self: ActionLog, item: Append, then: Then = None) -> None:
        self.transactions += 1
        self.appended += 1
        if then is not None:
            then()

    ActionLog.append = append  # type: ignore[method-assign]


def child(way: str, options: argparse.Namespace) -> dict[str, Any]:
    """One in-process run the given way (in this process)."""
    from cardplaza.web.loadtest.generator import run_loadtest

    if way != WAYS[0]:
        bare_messages()
    if way == WAYS[2]:
        nothing_stored()
    args = types.SimpleNamespace(
        tables=options.tables, level=options.level, seconds=options.seconds,
        warm=options.warm, pause=0.6, game=options.game, json=True, url=None, servers=1,
        kills=0, db=None, ai_workers=None, set=[], sweep=None, workers=None, profile=None,
        shared=0, in_process=True, humans_per_table=0, drop_rate=0.0, standin_seconds=5)
    out: dict[str, Any] = run_loadtest(args)
    from cardplaza.core.registry import get_game
    from cardplaza.web.live import tables

    # The view the run's messages were made from (the bare one, or the game's own).
    out["view keys"] = sorted(tables.seat_message(get_game(options.game).new_game(), 0)["obs"])
    return out


def main() -> None:
    """Measure and print (JSON with ``--json``)."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--game", default="pinochle2")
    ap.add_argument("--level", default="1,2,3,4")
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--warm", type=float, default=5.0)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--way", choices=WAYS, help=argparse.SUPPRESS)
    options = ap.parse_args()
    if options.way is not None:  # a run of its own
        print(json.dumps(child(options.way, options)))
        return
    common = ["--game", options.game, "--level", options.level, "--tables",
              str(options.tables), "--seconds", str(options.seconds), "--warm",
              str(options.warm)]
    runs: dict[str, list[dict[str, Any]]] = {way: [] for way in WAYS}
    for _ in range(options.rounds):
        for way in WAYS:
            done = subprocess.run([sys.executable, __file__, "--way", way, *common],
                                  capture_output=True, text=True, check=True)
            out = json.loads(done.stdout.strip().splitlines()[-1])
            if out["errors"]:
                raise SystemExit(f"{way}: {out['errors']} errors {out['error kinds']}")
            runs[way].append(out)
    result = {
        "game": options.game, "level": options.level, "tables": options.tables,
        "seconds": options.seconds, "rounds": options.rounds,
        "ways": {way: {key: round(statistics.median(r[key] for r in runs[way]), 3)
                       for key in FIGURES}
                 | {"runs": [r[FIGURES[0]] for r in runs[way]],
                    "view keys": runs[way][0]["view keys"]}
                 for way in WAYS},
    }
    if options.json:
        print(json.dumps(result))
        return
    print(f"{options.game}, levels {options.level}, {options.tables} tables, "
          f"{options.rounds} rounds of {options.seconds:g} s; ms per person action "
          "(median of the rounds):")
    print(f"  {'':>30} {'whole':>8} {'loop':>8} {'storing':>8}   runs")
    for way in WAYS:
        row = result["ways"][way]
        print(f"  {way:>30} " + " ".join(f"{row[key]:8.3f}" for key in FIGURES)
              + "   " + ", ".join(f"{v:.3f}" for v in row["runs"]))


if __name__ == "__main__":
    main()
