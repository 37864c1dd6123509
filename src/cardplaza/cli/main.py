"""The ``cardplaza`` command: play, replay, bench, odds, arena, serve, rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from cardplaza import __version__
from cardplaza.cli.advice_bench import advice_bench_command
from cardplaza.cli.language import LangOption, terminal_language
from cardplaza.cli.levels import choose_level, default_level, level_names, option_level
from cardplaza.cli.review import review_command
from cardplaza.cli.rules import rules as rules_command
from cardplaza.cli.stats import stats_command
from cardplaza.cli.style import make_console
from cardplaza.cli.verify import verify_command
from cardplaza.core.options import describe_options, parse_options_text
from cardplaza.core.registry import GameSpec, games, get_game


def _version(value: bool) -> None:
    if value:
        print(f"cardplaza {__version__}")
        raise typer.Exit()


app = typer.Typer(add_completion=False, no_args_is_help=True,
                  context_settings={"help_option_names": ["-h", "--help"]},
                  help="Card Plaza: classic trick-taking card games against the computer.")
console = make_console()


@app.callback()
def _root(version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True,
        help="Print the version and exit.")] = False) -> None:
    """Card Plaza: classic trick-taking card games against the computer."""


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
            from dataclasses import fields, replace
            names = {f.name for f in fields(opts)}
            for key, value in extra.items():
                if key not in names:
                    raise ValueError(_no_such_choice(spec, key, value))
            opts = replace(opts, **{k: v for k, v in extra.items() if v is not None})
        return opts
    except (ValueError, TypeError) as exc:
        raise typer.BadParameter(str(exc)) from None


def _no_such_choice(spec: GameSpec, key: str, value: Any) -> str:
    """Why --players (or another choice) does not apply, and which game it points to."""
    if key == "players":
        family = spec.name.rstrip("0123456789")
        for other in games().values():
            if other.name != spec.name and other.name.rstrip("0123456789") == family \
                    and other.new_game().num_players == value:
                return (f"{spec.title} ({spec.name}) is always played by "
                        f"{spec.new_game().num_players}; for {value} players play "
                        f"{other.title}: cardplaza play {other.name}")
        return (f"{spec.title} ({spec.name}) is always played by "
                f"{spec.new_game().num_players}: --players does not apply")
    return f"{spec.name} has no option {key}"


def _seed(seed: int | None) -> int:
    if seed is not None:
        return seed
    import secrets
    return secrets.randbelow(2**31)


def _levels_help() -> str:
    return "; ".join(f"{name}: {', '.join(level_names(spec))}"
                     for name, spec in games().items())


@app.command("games")
def list_games() -> None:
    """List the games with their options (what each means) and computer levels."""
    from cardplaza.cli.view import view_class

    for spec in games().values():
        meaning: dict[str, str] = getattr(view_class(spec), "OPTION_HELP", {})
        table = Table(title=f"{spec.name} — {spec.title} ({spec.title_ja})",
                      title_justify="left")
        table.add_column("option")
        table.add_column("values")
        table.add_column("default")
        table.add_column("meaning")
        for name, kind, default in describe_options(spec.options_type):
            table.add_row(name, kind, default, meaning.get(name, ""))
        console.print(table)
        own = option_level(spec, spec.options_type())
        said = ("the winning-streak ladder (option level)" if own and own.streak
                else f"{own.level} (option strength)" if own
                else default_level(spec))
        console.print(f"computer levels: {', '.join(level_names(spec))} "
                      f"(weakest first; default {said})\n")


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="Game name, e.g. pinochle2 (see `cardplaza "
                                        "games`).")] = "pinochle2",
    options: OptionsArg = None,
    seed: SeedArg = None,
    level: Annotated[str | None, typer.Option(
        help="Computer level. Default: the game's own option (two-hand: the winning-streak "
             "ladder, option level; four-hand and cut-throat: option strength, normal), "
             "else the strongest before expert. Levels, weakest first — "
             + _levels_help() + ".")] = None,
    players: Annotated[int | None, typer.Option(help="Number of players, where the game "
                                                "lets you choose (E-fuda-tori: 2–7).")] = None,
    save: Annotated[str | None, typer.Option(help="Save the game's history to this JSON file "
                                             "(the next games of the session: FILE-2.json "
                                             "…).")] = None,
    new_streak: Annotated[bool, typer.Option(
        "--new-streak", help="Two-hand: start a new winning streak (the best score is "
                             "kept).")] = False,
    streak_file: Annotated[Path | None, typer.Option(
        help="Two-hand: where the winning streak is kept (default: "
             "$XDG_DATA_HOME/cardplaza/terminal-streak.json).")] = None,
    lang: LangOption = None,
) -> None:
    """Play a game in the terminal against the computer; "play again" at the end."""
    from cardplaza.cli.play import play_command

    language = terminal_language(lang)
    spec = _spec(game)
    opts = _options(spec, options, {"players": players} if players is not None else None)
    typed = {part.partition("=")[0].strip().replace("-", "_")
             for part in (options or "").split(",") if part.strip()}
    try:
        choice = choose_level(spec, opts, level, typed)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    from cardplaza.ai.compiled import warm_up_in_background

    warm_up_in_background([game])  # the computer's kernels compile while you read the table
    play_command(spec, opts, seed, choice, console, save=save, new_streak=new_streak,
                 streak_file=streak_file, lang=language)


@app.command()
def join(
    invite: Annotated[str, typer.Argument(help="The invite link (…/#/join/…) or the room "
                                          "code you were given.", metavar="LINK-OR-CODE")],
    url: Annotated[str | None, typer.Option(help="The server's address, for a room code "
                                            "(default http://127.0.0.1:8000; a link "
                                            "names its own).")] = None,
    name: Annotated[str, typer.Option(help="Your name at the table.")] = "",
    seat: Annotated[int | None, typer.Option(help="The seat to take, counted from 1 "
                                             "(default: the first open one).")] = None,
    lang: LangOption = None,
) -> None:
    """Take a seat of a friend's room and play it in the terminal."""
    import getpass

    from cardplaza.cli.join import join_room
    from cardplaza.cli.netclient import JoinError, claim_seat, read_invite
    from cardplaza.texts.catalog import has
    from cardplaza.texts.catalog import text as say

    language = terminal_language(lang)
    if seat is not None and seat < 1:
        raise typer.BadParameter("seats are counted from 1", param_hint="'--seat'")

    def waiting(room: dict[str, Any]) -> None:
        mine = next((s["seat"] for s in room["seats"] if s.get("you")), 0)
        console.print(say("cli.join.waiting", language, seat=mine + 1))

    try:
        base, secret = read_invite(invite, url)
        seated = claim_seat(base, secret, name or getpass.getuser(),
                            None if seat is None else seat - 1, on_wait=waiting)
    except JoinError as exc:
        key = f"err.{exc.code}"
        reason = say(key, language) if has(key, language) else (exc.detail or exc.code)
        console.print(f"[red]{say('cli.join.failed', language, reason=reason)}[/red]")
        raise typer.Exit(1) from None
    join_room(seated, console, lambda prompt: console.input(prompt), language)


@app.command()
def kernels(
    jobs: Annotated[int | None, typer.Option(help="Games compiled at once (default: one "
                                             "per core).")] = None,
) -> None:
    """Compile every game's search kernels into the cache (the computer players load them
    in a second from then on); `make play` runs it before serving."""
    import time

    from cardplaza.ai.compiled import cache_dir, compile_all, jit_enabled

    if not jit_enabled():
        print("Compilation is switched off (CARDPLAZA_NO_JIT): the search runs as Python.")
        return
    start = time.perf_counter()
    print("Preparing the computer players (compiling their search once; "
          "later starts load it in a second)…", flush=True)
    sets = compile_all(jobs=jobs)
    for name, seconds in sorted(sets.items()):
        print(f"  {name}: {seconds:.1f} s")
    print(f"Ready in {time.perf_counter() - start:.1f} s (cache: {cache_dir()}).")


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A saved game history (JSON, as written by "
                                         "`play --save`).")],
    step: Annotated[bool, typer.Option("--step", help="Wait for Enter after each step "
                                       "(a number skips that many, q stops).")] = False,
    lang: LangOption = None,
) -> None:
    """Tell a saved game step by step: seats by name, deals, trick winners, scores, result."""
    from cardplaza.cli.replay import replay_record
    from cardplaza.core.history import GameRecord
    from cardplaza.core.protocol import IllegalAction

    try:
        record = GameRecord.load(file)
        _spec(record.game)
        record.new_state()
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise typer.BadParameter(f"cannot read {file}: {exc}") from None
    try:
        replay_record(record, console, console.input if step else None,
                      terminal_language(lang))
    except IllegalAction as exc:
        console.print(f"[red]The record does not follow the rules: {exc}[/red]")
        raise typer.Exit(1) from None


@app.command()
def bench(
    game: Annotated[str, typer.Argument(help="Game name ('all': every game, with "
                                        "--vs-openspiel or --adapter).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    seconds: Annotated[float, typer.Option(help="Seconds per measurement.")] = 2.0,
    options: OptionsArg = None,
    ai: Annotated[str | None, typer.Option("--ai", help="Measure a computer level's decision "
                                           "time instead.")] = None,
    vs_openspiel: Annotated[bool, typer.Option(
        "--vs-openspiel", help="Random deals/s beside OpenSpiel's hearts, skat and bridge "
        "(pyspiel), interleaved in one run until each ratio is known within ±5% "
        "(needs cardplaza[research]).")] = False,
    adapter: Annotated[bool, typer.Option(
        "--adapter", help="Random deals/s through our OpenSpiel adapter (pyspiel) beside the "
        "same engine driven natively, measured the same way (needs cardplaza[research]).")
    ] = False,
    round_seconds: Annotated[float, typer.Option(
        help="With --vs-openspiel/--adapter: CPU seconds of each contender per round.")] = 0.25,
    max_seconds: Annotated[float, typer.Option(
        help="With --vs-openspiel/--adapter: stop after this many CPU seconds in all.")
    ] = 150.0,
    max_rounds: Annotated[int, typer.Option(
        help="With --vs-openspiel/--adapter: stop after this many rounds.")] = 60,
) -> None:
    """Measure engine speed on one core (or a computer level's think time with --ai)."""
    if vs_openspiel or adapter:
        _compare_command(game, options, as_json, vs_openspiel, round_seconds, max_seconds,
                         max_rounds)
        return
    spec = _spec(game)
    if ai is not None:
        from cardplaza.arena.commands import think_bench_command

        if ai not in level_names(spec):
            raise typer.BadParameter(f"unknown level {ai!r} for {game}; levels: "
                                     f"{', '.join(level_names(spec))}", param_hint="'--ai'")
        think_bench_command(game, ai, as_json, console)
        return
    from cardplaza.core.bench import engine_benchmarks

    figures = engine_benchmarks(spec, _options(spec, options), seconds=seconds)
    if "bench" in spec.hooks:
        figures.update(spec.hook("bench")())
    if as_json:
        print(json.dumps({"game": game, **figures}, indent=1))
        return
    table = Table(title=f"{spec.title}: engine speed (one core, per CPU second)")
    table.add_column("measure")
    table.add_column("value", justify="right")
    for name, value in figures.items():
        text = f"{value:,.2f}" if "÷" in name else f"{value:,.0f}"
        table.add_row(name, text if isinstance(value, float) else str(value))
    console.print(table)


def _compare_command(game: str, options: str | None, as_json: bool, vs_openspiel: bool,
                     round_seconds: float, max_seconds: float, max_rounds: int) -> None:
    """``bench --vs-openspiel`` / ``bench --adapter``: ratios measured in one run."""
    from cardplaza.core.bench import versus_openspiel

    specs = list(games().values()) if game == "all" else [_spec(game)]
    if game == "all" and not vs_openspiel:
        specs = [s for s in specs if "research" in s.hooks]
    if options is not None and game == "all":
        raise typer.BadParameter("--options needs one game", param_hint="'--options'")
    chosen = {s.name: _options(s, options) for s in specs}
    try:
        if vs_openspiel:
            result = versus_openspiel(specs, chosen, round_seconds=round_seconds,
                                      max_seconds=max_seconds, max_rounds=max_rounds)
        else:
            from cardplaza.research.bench import adapters_versus_native

            result = adapters_versus_native(specs, chosen, round_seconds=round_seconds,
                                            max_seconds=max_seconds, max_rounds=max_rounds)
    except ImportError:
        console.print("OpenSpiel is not installed: pip install 'cardplaza[research]' "
                      "(pinned open_spiel) to compare with pyspiel.", markup=False)
        raise typer.Exit(1) from None
    figures = result.figures()
    if as_json:
        print(json.dumps({"game": game, **figures}, indent=1))
        return
    table = Table(title="Random deals per CPU second, measured in one run")
    table.add_column("measure")
    table.add_column("value", justify="right")
    for name, value in figures.items():
        if name == "method":
            continue
        if isinstance(value, list):
            text = f"{value[0]:.2f} – {value[1]:.2f}"
        elif isinstance(value, float):
            text = f"{value:,.2f}" if "÷" in name else f"{value:,.0f}"
        else:
            text = str(value)
        table.add_row(name, text)
    console.print(table)
    console.print(f"Method: {figures['method']}" + (
        "" if result.converged else " — NOT converged: the cap was reached first."),
        markup=False)


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
    deals: Annotated[int, typer.Option(help="Deals (seeds) to play; each is played once per "
                                       "seat rotation.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first deal.")] = 0,
    jobs: Annotated[int, typer.Option(help="Worker processes.")] = 1,
    options: OptionsArg = None,
    json_file: Annotated[str | None, typer.Option("--json", help="Write results as JSON."
                                                  )] = None,
    unit: Annotated[str, typer.Option(help="'game': play each game to its end (a whole "
                                      "Piquet partie, a Pinochle game to its target); "
                                      "'deal': stop each game after its first deal and "
                                      "score that deal alone (less noise, much faster).")
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
    calibrate: Annotated[bool, typer.Option(
        "--calibrate", help="Fit Bradley-Terry strengths of the levels and write them as "
        "the computers' fixed ratings into the package's ratings table.")] = False,
    table: Annotated[str | None, typer.Option(
        help="With --calibrate: the ratings table to write (default: the package's).")
    ] = None,
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
                      sources, calibrate, table)
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
                                           "in the user's data directory; "
                                           "postgresql+psycopg://… to share one database "
                                           "between servers).")] = None,
    pause: Annotated[float | None, typer.Option(
        help="Seconds between computer plays at the normal pace (default 0.6).")] = None,
    workers: Annotated[int, typer.Option(help="Web processes on this port.")] = 1,
    ai_workers: Annotated[int | None, typer.Option(
        help="Computer-player processes in all (default: one per core).")] = None,
    setting: Annotated[list[str] | None, typer.Option(
        "--set", help="Any server setting as name=value (see cardplaza.web.settings).")
    ] = None,
    forwarded_allow_ips: Annotated[str, typer.Option(
        help="Reverse proxies (comma-separated addresses) whose X-Forwarded-For header is "
             "trusted; none by default.")] = "",
    streak_seeds: Annotated[bool, typer.Option(
        help="Let requests choose the deal of streak games (tests only).")] = False,
) -> None:
    """Start the web app."""
    from cardplaza.web.front.server import parse_settings
    from cardplaza.web.front.server import serve as run_server

    try:
        settings = parse_settings(setting)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    run_server(host=host, port=port, db=db, computer_pause=pause, streak_seeds=streak_seeds,
               workers=workers, ai_workers=ai_workers, settings=settings,
               forwarded_allow_ips=forwarded_allow_ips)


@app.command()
def loadtest(
    tables: Annotated[int, typer.Option(help="Tables, one scripted person each.")] = 20,
    level: Annotated[str, typer.Option(help="Computer level(s), comma-separated, one per "
                                       "table in turn ('expert': the strongest; 'all': "
                                       "each of the game's levels).")
                     ] = "all",
    seconds: Annotated[float, typer.Option(help="Measured time.")] = 60.0,
    pause: Annotated[float, typer.Option(help="The server's computer pause.")] = 0.6,
    game: Annotated[str, typer.Option(help="Game name.")] = "pinochle2",
    json_out: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")
                        ] = False,
    url: Annotated[str | None, typer.Option(help="A running server (loopback only); "
                                            "default: start one.")] = None,
    warm: Annotated[float, typer.Option(help="Seconds of play before measuring.")] = 10.0,
    servers: Annotated[int, typer.Option(help="Server processes on one database.")] = 1,
    kills: Annotated[int, typer.Option(help="SIGKILL a server this many times (each is "
                                       "restarted); acknowledged actions are checked.")
                     ] = 0,
    shared: Annotated[int, typer.Option(help="Tables with two people (seats 0 and 1), "
                                        "each on its own connection.")] = 0,
    db: Annotated[str | None, typer.Option(help="Database URL, or 'postgres' for a "
                                           "throw-away PostgreSQL cluster.")] = None,
    ai_workers: Annotated[int | None, typer.Option(help="Computer-player processes.")
                          ] = None,
    setting: Annotated[list[str] | None, typer.Option(
        "--set", help="A server setting as name=value.")] = None,
    sweep: Annotated[str | None, typer.Option(
        help="One run per table count, e.g. 50,100,200,400,800: the scale curve.")] = None,
    workers: Annotated[int | None, typer.Option(help="The server's web processes.")] = None,
    profile: Annotated[str | None, typer.Option(
        help="Run the server under cProfile (timing CPU, not the wall clock) and write its "
             "statistics to this file.")] = None,
    in_process: Annotated[bool, typer.Option(
        "--in-process", help="Drive the server's tables directly, without the network: "
                             "the web process's own CPU per action.")] = False,
    humans_per_table: Annotated[int, typer.Option(
        help="People at each table (a room; the other seats computers), each dropping "
             "the connection at random and coming back: measures stuck tables and lost "
             "actions.")] = 0,
    drop_rate: Annotated[float, typer.Option(
        help="With --humans-per-table: drops per person per minute while connected.")
                         ] = 0.0,
    standin_seconds: Annotated[int, typer.Option(
        help="With --humans-per-table: the server's standin_seconds for the run.")] = 5,
) -> None:
    """Load benchmark: round trips, time to the next turn, server CPU per action, errors,
    memory (loopback only)."""
    import types

    from cardplaza.web.loadtest.generator import (
        format_figures,
        format_sweep,
        run_loadtest,
        run_sweep,
    )

    args = types.SimpleNamespace(tables=tables, level=level, seconds=seconds, pause=pause,
                                 game=game, json=json_out, url=url, warm=warm,
                                 servers=servers, kills=kills, shared=shared, db=db,
                                 ai_workers=ai_workers,
                                 set=setting or [], sweep=sweep, workers=workers,
                                 profile=profile, humans_per_table=humans_per_table,
                                 drop_rate=drop_rate, standin_seconds=standin_seconds,
                                 in_process=in_process)
    if humans_per_table:
        from cardplaza.web.loadtest.shared import run_shared_loadtest

        out = run_shared_loadtest(args)
        console.print_json(json.dumps(out)) if json_out else print(format_figures(out))
        return
    if sweep:
        rows = run_sweep(args)
        console.print_json(json.dumps(rows)) if json_out else print(format_sweep(rows))
        return
    out = run_loadtest(args)
    console.print_json(json.dumps(out)) if json_out else print(format_figures(out))


app.command("rules")(rules_command)
app.command("review")(review_command)
app.command("advice-bench")(advice_bench_command)
app.command("stats")(stats_command)
app.command("verify")(verify_command)


def _quiet_flags(command: Any) -> Any:
    """Help lists on/off flags without a ``<bool>`` type after them (the help's type
    column is for options that take a value). ``command`` is the command Typer builds."""
    for param in command.params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    make_help = command.get_help_option

    def quiet_help(ctx: Any) -> Any:
        option = make_help(ctx)
        if option is not None and option.metavar is None:
            option.metavar = ""
        return option

    command.get_help_option = quiet_help
    for sub in getattr(command, "commands", {}).values():
        _quiet_flags(sub)
    return command


def main() -> None:
    """Console-script entry point."""
    _quiet_flags(typer.main.get_command(app))()
