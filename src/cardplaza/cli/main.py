"""The ``cardplaza`` command: play, replay, bench, odds, arena, serve, rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from cardplaza.cli.rules import rules as rules_command
from cardplaza.core.options import describe_options, parse_options_text
from cardplaza.core.registry import GameSpec, games, get_game

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Card Plaza: classic trick-taking card games against the computer.")
console = Console()

OptionsArg = Annotated[str | None, typer.Option(
    "--options", "-o", help="Rule options as name=value,name=value (see `cardplaza games`).")]
SeedArg = Annotated[int | None, typer.Option("--seed", "-s", help="Deal seed (random if omitted).")]


def _spec(game: str) -> GameSpec:
    try:
        return get_game(game)
    except KeyError as exc:
        raise typer.BadParameter(str(exc.args[0])) from None


def _options(spec: GameSpec, text: str | None, extra: dict[str, Any] | None = None) -> Any:
    try:
        opts = parse_options_text(spec.options_type, text)
        if extra:
            from dataclasses import replace
            opts = replace(opts, **{k: v for k, v in extra.items() if v is not None})
        return opts
    except (ValueError, TypeError) as exc:
        raise typer.BadParameter(str(exc)) from None


def _seed(seed: int | None) -> int:
    if seed is not None:
        return seed
    import secrets
    return secrets.randbelow(2**31)


@app.command("games")
def list_games() -> None:
    """List the games with their options and computer levels."""
    for spec in games().values():
        table = Table(title=f"{spec.name} — {spec.title} ({spec.title_ja})")
        table.add_column("option")
        table.add_column("values")
        table.add_column("default")
        for row in describe_options(spec.options_type):
            table.add_row(*row)
        console.print(table)
        console.print(f"computer levels: {', '.join(spec.levels)}\n")


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="Game name, e.g. pinochle2.")] = "pinochle2",
    options: OptionsArg = None,
    seed: SeedArg = None,
    level: Annotated[str | None, typer.Option(help="Computer level (default: the strongest "
                                              "seed level the game offers).")] = None,
    players: Annotated[int | None, typer.Option(help="Number of players, where the game "
                                                "lets you choose.")] = None,
    save: Annotated[str | None, typer.Option(help="Save the hand history to this JSON file."
                                             )] = None,
) -> None:
    """Play a game in the terminal against the computer."""
    from cardplaza.cli.terminal import play_terminal

    spec = _spec(game)
    opts = _options(spec, options, {"players": players} if players is not None else None)
    chosen = level or _default_level(spec)
    if chosen != "random" and chosen not in spec.levels:
        raise typer.BadParameter(f"unknown level {chosen!r}; levels: {', '.join(spec.levels)}")
    play_terminal(game, opts, _seed(seed), level=chosen, console=console, save=save)


def _default_level(spec: GameSpec) -> str:
    """The strongest level below an expert one, or the only level."""
    levels = [lv for lv in spec.levels if lv not in ("expert", "5")]
    return levels[-1] if levels else spec.levels[-1]


@app.command()
def replay(file: Annotated[Path, typer.Argument(help="A saved hand history (JSON).")]) -> None:
    """Print a saved game step by step."""
    from cardplaza.core.history import GameRecord

    try:
        record = GameRecord.load(file)
    except (OSError, ValueError, KeyError) as exc:
        raise typer.BadParameter(f"cannot read {file}: {exc}") from None
    spec = _spec(record.game)
    console.print(f"[bold]{spec.title}[/bold] seed {record.seed} options {record.options}")
    tricks_seen = 0
    for step, (state, seat, action) in enumerate(record.replay(), start=1):
        console.print(f"{step:4d}. seat {seat}: {state.action_text(action)}")
        # The step is applied when the loop resumes; look at the public trick record after it.
        after = state.clone()
        after.apply(action)
        tricks = after.observation(0).get("tricks") or []
        if len(tricks) > tricks_seen:
            for trick in tricks[tricks_seen:]:
                number = trick.get("number", tricks_seen + 1)
                console.print(f"      [dim]⇒ trick {number} won by seat {trick['winner']}[/dim]")
            tricks_seen = len(tricks)
        elif len(tricks) < tricks_seen:  # a new deal started
            tricks_seen = len(tricks)
    console.print(f"Result: {record.result}")


@app.command()
def bench(
    game: Annotated[str, typer.Argument(help="Game name.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    seconds: Annotated[float, typer.Option(help="Seconds per measurement.")] = 2.0,
    options: OptionsArg = None,
    ai: Annotated[str | None, typer.Option("--ai", help="Measure a computer level's decision "
                                           "time instead.")] = None,
) -> None:
    """Measure engine speed on one core (or a computer level's think time with --ai)."""
    spec = _spec(game)
    if ai is not None:
        from cardplaza.arena.commands import think_bench_command
        think_bench_command(game, ai, as_json, console)
        return
    from cardplaza.core.bench import engine_benchmarks

    figures = engine_benchmarks(spec, _options(spec, options), seconds=seconds)
    if "bench" in spec.hooks:
        figures.update(spec.hook("bench")())
    if as_json:
        print(json.dumps({"game": game, **figures}, indent=1))
        return
    table = Table(title=f"{spec.title}: engine speed (one core)")
    table.add_column("measure")
    table.add_column("per second", justify="right")
    for name, value in figures.items():
        table.add_row(name, f"{value:,.0f}" if isinstance(value, float) else str(value))
    console.print(table)


@app.command()
def odds(
    game: Annotated[str, typer.Argument(help="Game name (pinochle4).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    simulate: Annotated[int | None, typer.Option(help="Check each row against N dealt hands."
                                                 )] = None,
    seed: Annotated[int, typer.Option(help="Seed of the simulation.")] = 0,
) -> None:
    """Exact meld odds for a freshly dealt hand."""
    spec = _spec(game)
    if "odds" not in spec.hooks:
        raise typer.BadParameter(f"{game} has no odds table")
    table: dict[str, Any] = spec.hook("odds")(simulate, seed)
    if as_json:
        print(json.dumps(table, indent=1))
        return
    if "odds_render" in spec.hooks:
        spec.hook("odds_render")(console, table)
        return
    out = Table(title=f"{spec.title}: meld odds, {table.get('hand_size')} cards from "
                f"{table.get('deck_size')}")
    cols = ["meld", "scope", "probability"] + (["simulated", "deviation_se"] if simulate else [])
    for col in cols:
        out.add_column(col, justify="right" if col not in ("meld", "scope") else "left")
    for row in table["rows"]:
        cells = []
        for col in cols:
            value = row.get(col, "")
            cells.append(f"{value:.6g}" if isinstance(value, float) else str(value))
        out.add_row(*cells)
    console.print(out)


@app.command()
def arena(
    game: Annotated[str, typer.Argument(help="Game name.")],
    players: Annotated[str, typer.Option(help="Comma-separated levels, e.g. random,1,2.")],
    deals: Annotated[int, typer.Option(help="Paired deals to play.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first deal.")] = 0,
    jobs: Annotated[int, typer.Option(help="Worker processes.")] = 1,
    options: OptionsArg = None,
    json_file: Annotated[str | None, typer.Option("--json", help="Write results as JSON."
                                                  )] = None,
    unit: Annotated[str, typer.Option(help="'game': play each game to its end; 'deal': only "
                                      "the first deal of a game of several (Piquet).")
                    ] = "game",
    baseline: Annotated[str | None, typer.Option(
        help="Another checkout (its .venv is used): players 'baseline:LEVEL' are its "
             "levels.")] = None,
    checkout: Annotated[list[str] | None, typer.Option(
        help="NAME=DIR: players 'NAME:LEVEL' are levels of the checkout DIR "
             "(repeatable).")] = None,
    program: Annotated[list[str] | None, typer.Option(
        help="NAME=COMMAND: players 'NAME:LEVEL' are played by a program speaking the "
             "arena's seat protocol (repeatable).")] = None,
) -> None:
    """Measure computer levels against each other on paired deals."""
    from cardplaza.arena.commands import arena_command
    from cardplaza.arena.core import check_arena
    from cardplaza.arena.external import parse_sources

    _spec(game)
    try:
        sources = parse_sources(baseline, checkout or (), program or ())
        check_arena(game, [p.strip() for p in players.split(",") if p.strip()], deals, unit,
                    sources)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    try:
        arena_command(game, players, deals, seed, jobs, options, json_file, console, unit,
                      sources)
    except ValueError as exc:
        if not sources:
            raise
        raise typer.BadParameter(str(exc)) from None
    except RuntimeError as exc:
        if not sources:
            raise
        console.print(f"[red]{exc}[/red]")
        raise typer.Exit(1) from None


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.")] = 8000,
    db: Annotated[str | None, typer.Option(help="SQLAlchemy database URL (default: SQLite "
                                           "in the user's data directory).")] = None,
) -> None:
    """Start the web app."""
    from cardplaza.web.server import serve as run_server

    run_server(host=host, port=port, db=db)


app.command("rules")(rules_command)


def main() -> None:
    """Console-script entry point."""
    app()
