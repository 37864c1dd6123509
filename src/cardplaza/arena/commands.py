"""Front-end commands: ``cardplaza arena`` and ``cardplaza bench --ai`` (think time)."""

from __future__ import annotations

import json
import math
import random
import statistics
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cardplaza.ai.player import computer_player
from cardplaza.arena.core import ArenaResult, run_arena
from cardplaza.arena.external import Sources
from cardplaza.core.options import parse_options_text
from cardplaza.core.protocol import GameState
from cardplaza.core.registry import get_game


def render(console: Console, result: ArenaResult) -> None:
    """Print the pair table and, for three or more players, the rating table."""
    if result.unit == "game":
        what = "paired games (each game played to its end)"
    else:
        what = "paired single deals (each game stopped after its first deal)"
    table = Table(title=f"{get_game(result.game).title}: {result.deals} {what}, "
                        f"seed {result.seed}",
                  caption="Each deal is played once per seat rotation (games = pairs × "
                          "rotations); margins are A's points minus B's, per pair; win-draw-"
                          "loss counts games.", caption_justify="left")
    for col in ("A", "B", "pairs", "games", "margin (A−B) ± 95% CI", "A win-draw-loss",
                "A score"):
        table.add_column(col, justify="left" if col in ("A", "B") else "right")
    for p in result.pairs:
        ci = "" if math.isinf(p.ci95) else f" ± {p.ci95:.1f}"
        table.add_row(p.a, p.b, str(p.deals), str(p.games), f"{p.mean_margin:+.1f}{ci}",
                      f"{p.wins}-{p.draws}-{p.losses}", f"{p.score_rate:.1%}")
    console.print(table)
    if result.ratings:
        rt = Table(title=f"Bradley–Terry ratings (Elo scale, {result.anchor} = 0)")
        rt.add_column("player")
        rt.add_column("rating", justify="right")
        for name, value in sorted(result.ratings.items(), key=lambda kv: -kv[1]):
            rt.add_row(name, f"{value:+.0f}")
        console.print(rt)
    for name, info in result.sources.items():
        console.print(f"{name}: {info['cardplaza']}")
    if result.interrupted:
        console.print(f"[yellow]Interrupted: results of the first {result.deals} deals.[/yellow]")
    console.print(f"{result.seconds:.1f} s")


def arena_command(game: str, players: str, deals: int, seed: int, jobs: int,
                  options_text: str | None, json_file: str | None, console: Console,
                  unit: str = "game", sources: Sources | None = None,
                  calibrate: bool = False, table: str | None = None) -> None:
    """Run an arena with a progress bar, print the tables and optionally write JSON.

    ``sources`` names the seat programs of players called ``SOURCE:LEVEL``. With
    ``calibrate`` the levels' Bradley–Terry strengths are written as the computers' fixed
    ratings (:mod:`cardplaza.arena.calibrate`)."""
    spec = get_game(game)
    options = parse_options_text(spec.options_type, options_text)
    levels = [p.strip() for p in players.split(",") if p.strip()]
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=console, transient=True) as bar:
        task = bar.add_task(f"{game} {' vs '.join(levels)}", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        result = run_arena(game, levels, deals, seed, jobs, options, progress, unit, sources)
    render(console, result)
    if json_file:
        Path(json_file).write_text(json.dumps(result.to_json(), indent=1), encoding="utf-8")
        console.print(f"Results written to {json_file}")
    if calibrate:
        from cardplaza.arena.calibrate import write_calibration

        command = (f"cardplaza arena {game} --players {','.join(levels)} --deals {result.deals} "
                   f"--seed {seed} --unit {unit}"
                   + (f" --options {options_text}" if options_text else "") + " --calibrate")
        entry = write_calibration(result, command, table)
        for level, s in sorted(entry["strengths"].items(),
                               key=lambda kv: -kv[1]["theta"]):
            r = entry["ratings"][level]
            console.print(f"{level}: theta {s['theta']:+.2f} [{s['low']:+.2f}, "
                          f"{s['high']:+.2f}]  mu {r['mu']:.1f} sigma {r['sigma']:.1f}  "
                          f"shown {r['display']}")
        console.print(f"Fixed ratings written for {game}")


def bench_positions(game: str, count: int, seed: int, options: Any = None) -> list[GameState]:
    """``count`` seeded decision positions (more than one legal action) from random games."""
    spec = get_game(game)
    out: list[GameState] = []
    i = 0
    while len(out) < count:
        rng = random.Random(seed * 1_000_003 + i)
        state = spec.new_game(options, seed + i)
        choices: list[GameState] = []
        while not state.is_terminal:
            legal = state.legal_actions()
            if len(legal) > 1:
                choices.append(state.clone())
            state.apply(legal[rng.randrange(len(legal))])
        if choices:
            out.append(choices[rng.randrange(len(choices))])
        i += 1
        if i > 100 * count + 100:
            break
    return out


def think_bench(game: str, level: str, positions: int = 30, seed: int = 0,
                options: Any = None) -> dict[str, Any]:
    """Decision time (wall clock and CPU) and simulations per decision of a level over
    ``positions`` seeded positions, each picked at random from a seeded random game."""
    from cardplaza.ai.compiled import warm_up

    warm_up([game])  # as the server and the terminal do before the first decision
    times: list[float] = []
    cpu: list[float] = []
    sims: list[float] = []
    for i, state in enumerate(bench_positions(game, positions, seed, options)):
        seat = state.current_player
        player = computer_player(game, level, seed * 7919 + i)
        obs = state.observation(seat)
        legal = state.legal_actions()
        start = time.perf_counter()
        start_cpu = time.process_time()
        action = player.choose(obs, legal, random.Random(seed * 104729 + i))
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        if action not in legal:
            raise RuntimeError(f"level {level} chose an illegal action")
        stats = getattr(player, "last_stats", None)
        if isinstance(stats, dict) and "simulations" in stats:
            sims.append(float(stats["simulations"]))
    return {
        "game": game, "level": level, "positions": len(times), "seed": seed,
        "median_seconds": statistics.median(times) if times else 0.0,
        "p95_seconds": _p95(times), "max_seconds": max(times, default=0.0),
        "mean_seconds": statistics.fmean(times) if times else 0.0,
        "median_cpu_seconds": statistics.median(cpu) if cpu else 0.0,
        "p95_cpu_seconds": _p95(cpu),
        "simulations_per_decision_median": statistics.median(sims) if sims else None,
        "simulations_per_decision_mean": statistics.fmean(sims) if sims else None,
    }


def _p95(values: list[float]) -> float:
    """95th percentile (nearest rank)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


def think_bench_command(game: str, level: str, json: bool, console: Console,
                        positions: int = 30, seed: int = 0) -> None:
    """Print a level's think-time figures (table, or JSON with ``json``)."""
    figures = think_bench(game, level, positions, seed)
    if json:
        console.print_json(data=figures)
        return
    table = Table(title=f"{get_game(game).title}: level {level} think time over "
                        f"{figures['positions']} positions (seed {seed})")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("median decision time", f"{figures['median_seconds'] * 1000:.1f} ms")
    table.add_row("95th percentile", f"{figures['p95_seconds'] * 1000:.1f} ms")
    table.add_row("max", f"{figures['max_seconds'] * 1000:.1f} ms")
    table.add_row("median CPU time", f"{figures['median_cpu_seconds'] * 1000:.1f} ms")
    table.add_row("95th percentile CPU time", f"{figures['p95_cpu_seconds'] * 1000:.1f} ms")
    sim = figures["simulations_per_decision_median"]
    table.add_row("simulations per decision (median)", "—" if sim is None else f"{sim:.0f}")
    sim = figures["simulations_per_decision_mean"]
    table.add_row("simulations per decision (mean)", "—" if sim is None else f"{sim:.1f}")
    console.print(table)
