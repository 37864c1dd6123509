"""``cardplaza advice-bench GAME``: how long hints, helpers and review decisions take."""

from __future__ import annotations

import json
import random
import time
from typing import Annotated, Any

import typer
from rich.table import Table

from cardplaza.ai.advice import helper_json, hint_json, timing
from cardplaza.ai.player import computer_player
from cardplaza.ai.review import review
from cardplaza.cli.style import make_console
from cardplaza.core.history import GameRecord
from cardplaza.core.protocol import GameState
from cardplaza.core.registry import get_game


def _positions(game: str, count: int, seed: int, level: str) -> list[GameState]:
    """Positions with a real choice, from games between computers at ``level``, spread
    over the game (every other decision, deals started from successive seeds)."""
    spec = get_game(game)
    out: list[GameState] = []
    g = seed
    while len(out) < count:
        state = spec.new_game(None, g)
        players = [computer_player(game, level, g + s) for s in range(state.num_players)]
        rng = random.Random(g)
        n = 0
        while not state.is_terminal and len(out) < count:
            seat = state.current_player
            legal = state.legal_actions()
            if len(legal) > 1:
                n += 1
                if n % 2 == 0:
                    out.append(state.clone())
            state.apply(players[seat].choose(state.observation(seat), legal, rng))
            if game.startswith("pinochle") and game != "pinochle2" and \
                    state.observation(0)["hand_number"] > 1:
                break
        g += 1
    return out


def _game_record(game: str, seed: int, level: str) -> tuple[GameRecord, int]:
    """A whole game (four-hand and cut-throat: its first hand) between computers at
    ``level``, and the seat to review (the first)."""
    spec = get_game(game)
    state = spec.new_game(None, seed)
    players = [computer_player(game, level, seed + s) for s in range(state.num_players)]
    rng = random.Random(seed)
    while not state.is_terminal:
        if game in ("pinochle4", "pinochle3") and state.observation(0)["hand_number"] > 1:
            break
        seat = state.current_player
        state.apply(players[seat].choose(state.observation(seat), state.legal_actions(),
                                         rng))
    return GameRecord.of(state), 0


def measure(game: str, positions: int = 40, seed: int = 0, level: str | None = None,
            review_decisions: int = 40) -> dict[str, Any]:
    """Median and p95 wall time of hints, of helpers where a decision has one, and of the
    review's decisions (a game between the same computers). One hint is asked first and
    not counted: it loads the compiled search (a server does that when it starts)."""
    spec = get_game(game)
    lv = level or next(x for x in ("normal", "2", "3") if x in spec.levels)
    states = _positions(game, positions, seed, lv)
    warm = time.perf_counter()
    if states:
        st = states[0]
        hint_json(game, st.observation(st.current_player), st.legal_actions())
    warm_up = time.perf_counter() - warm
    hints: list[float] = []
    helpers: list[float] = []
    for st in states:
        seat = st.current_player
        obs = st.observation(seat)
        legal = st.legal_actions()
        t = time.perf_counter()
        hint_json(game, obs, legal)
        hints.append(time.perf_counter() - t)
        t = time.perf_counter()
        if helper_json(game, obs, legal) is not None:
            helpers.append(time.perf_counter() - t)
    per_decision: list[float] = []
    g = seed
    while len(per_decision) < review_decisions and g < seed + 20:
        record, seat = _game_record(game, g, lv)
        per_decision += [d.seconds for d in review(record, seat).decisions]
        g += 1
    return {"game": game, "level": lv, "positions": len(states),
            "first hint seconds": round(warm_up, 3),
            "hint seconds": timing(hints), "helper seconds": timing(helpers),
            "review seconds per decision": timing(per_decision[:review_decisions])}


def advice_bench_command(
    game: Annotated[str, typer.Argument(help="Game name, e.g. pinochle4.")],
    positions: Annotated[int, typer.Option(help="Positions to ask a hint for.")] = 40,
    seed: Annotated[int, typer.Option(help="Seed of the first game.")] = 0,
    level: Annotated[str | None, typer.Option(help="Computer level that plays the games "
                                              "the positions come from.")] = None,
    review_decisions: Annotated[int, typer.Option(help="Review decisions to time.")] = 40,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Time the expert's hints, decision helpers and review (median, p95, max)."""
    try:
        get_game(game)
    except KeyError as exc:
        raise typer.BadParameter(str(exc.args[0])) from None
    if positions < 1:
        raise typer.BadParameter("at least one position", param_hint="'--positions'")
    console = make_console(stderr=as_json)
    with console.status(f"Timing hints on {positions} positions of {game}…"):
        out = measure(game, positions, seed, level, review_decisions)
    if as_json:
        print(json.dumps(out, indent=1))
        return
    table = Table(title=f"{game}: advice timings (wall seconds, {out['positions']} positions, "
                  f"games between level {out['level']}; the first hint, which loads the "
                  f"compiled search, took {out['first hint seconds']:.2f} s)",
                  title_justify="left")
    for col in ("measure", "count", "median", "p95", "max"):
        table.add_column(col, justify="left" if col == "measure" else "right")
    for key in ("hint seconds", "helper seconds", "review seconds per decision"):
        t = out[key]
        if not t["count"]:
            table.add_row(key, "0", "—", "—", "—")
            continue
        table.add_row(key, str(t["count"]), f"{t['median']:.3f}", f"{t['p95']:.3f}",
                      f"{t['max']:.3f}")
    console.print(table)


__all__ = ["advice_bench_command", "measure"]
