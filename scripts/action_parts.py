"""The web process's own work for one person action, part by part, without the event loop.

``python scripts/action_parts.py [--game G] [--level L] [--deals N] [--json]`` plays ``N``
seeded games of ``G`` with a person at seat 0 who chooses at random and computers at
level ``L`` (by default the game's quick level, decided in the web process itself)
everywhere else, and calls, one after another, the functions the server calls for each
action: the copy and the move (:meth:`~cardplaza.web.live.tables.TableManager._apply`),
the person's state message with the table's facts and the log digest
(:meth:`~cardplaza.web.live.tables.LiveTable.message`), its change against the last one
and its JSON text (:meth:`~cardplaza.web.live.client.Client.send_state`), and for each
computer move the seat's observation and its decision
(:meth:`~cardplaza.web.live.tables.TableManager._computers`). It prints the microseconds
of each part per person action (the computers' replies included) and their sum.

That sum is the part of ``cardplaza loadtest --in-process --pause 0`` that no event loop,
database or connection adds: the difference between the two is what the server spends
around the game (storing the action, waking tasks, the session's checks, collecting
garbage). Run both at the same level to compare them.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

PARTS = ("copy and move", "state message", "change and JSON", "computer's view",
         "computer's decision")


def decision(game: str, level: str, seed: int, seat: int, obs: dict[str, Any],
             legal: list[Any], step: int) -> Any:
    """A computer's decision as the server makes it at a quick level (its seeds too)."""
    from cardplaza.web.live.computer import decide
    from cardplaza.web.live.tables import derived_seed

    return decide(game, level, derived_seed(seed, "player", seat), obs, legal,
                  derived_seed(seed, "choice", seat, step))


def move(state: Any, action: Any) -> tuple[Any, Any]:
    """The table's next state (the move played on a copy) and the action's JSON form."""
    new = state.clone()
    new.apply(action)
    return new, new.action_to_json(action)


def change(last: dict[str, Any] | None, msg: dict[str, Any]) -> bytes:
    """The text sent for ``msg`` after ``last``: the change between them, as JSON."""
    import orjson

    from cardplaza.core import delta

    return orjson.dumps(delta.encode(last, msg, msg["n"]))


def play(game: str, level: str, deals: int) -> tuple[dict[str, float], int]:
    """Seconds spent in each part over ``deals`` games, and the person actions made."""
    from cardplaza.core.registry import get_game
    from cardplaza.web.live.tables import LiveTable
    from cardplaza.web.store.storage import SeatInfo, TableRow

    spec = get_game(game)
    spent: dict[str, float] = dict.fromkeys(PARTS, 0.0)
    clock = time.perf_counter

    def timed(part: str, fn: Callable[..., Any], *args: Any) -> Any:
        t0 = clock()
        out = fn(*args)
        spent[part] += clock() - t0
        return out

    person_actions = 0
    for deal in range(deals):
        state = spec.new_game(spec.options({}), deal)
        seats = [SeatInfo("human", "Ann")] + [SeatInfo("computer", f"Bot {i}", level)
                                               for i in range(1, state.num_players)]
        row = TableRow(id=f"parts-{deal}", game=game, options={}, seed=deal, actions=[],
                       seats=seats)
        table = LiveTable(row=row, spec=spec, state=state)
        rng = random.Random(deal)
        last: dict[str, Any] | None = None
        while not table.state.is_terminal:
            state = table.state
            seat = state.current_player
            legal = list(state.legal_actions())
            if seat == 0:
                action = legal[rng.randrange(len(legal))]
                person_actions += 1
            elif len(legal) == 1:  # forced: no view, no decision (as on the server)
                action = legal[0]
            else:
                obs = timed("computer's view", state.observation, seat)
                action = timed("computer's decision", decision, game, level, deal, seat,
                               obs, legal, len(state.history))
            table.state, encoded = timed("copy and move", move, state, action)
            row.actions.append({"seat": seat, "action": encoded})
            msg = timed("state message", table.message, 0)
            timed("change and JSON", change, last, msg)
            last = msg
    return spent, person_actions


def main() -> None:
    """Measure and print (JSON with ``--json``)."""
    from cardplaza.core.registry import get_game
    from cardplaza.web.live.computer import QUICK_LEVELS

    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--game", default="pinochle2")
    ap.add_argument("--level", default=None, help="the computers' level (default: the "
                    "game's quick level)")
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    level = args.level or QUICK_LEVELS.get(args.game, "random")
    if level != "random" and level not in get_game(args.game).levels:
        raise SystemExit(f"unknown level {level!r} for {args.game}")
    play(args.game, level, 2)  # imports, caches and compiled code made before timing
    spent, acted = play(args.game, level, args.deals)
    per = {part: round(1e6 * spent[part] / acted, 1) for part in PARTS}
    out = {"game": args.game, "level": level, "deals": args.deals, "person actions": acted,
           "microseconds per person action": per,
           "sum": round(sum(per.values()), 1)}
    if args.json:
        print(json.dumps(out))
        return
    print(f"{args.game}, computers at level {level}: {acted} person actions in "
          f"{args.deals} games; microseconds per person action:")
    for part in PARTS:
        print(f"  {part:>20}: {per[part]:8.1f}")
    print(f"  {'sum':>20}: {out['sum']:8.1f}")


if __name__ == "__main__":
    main()
