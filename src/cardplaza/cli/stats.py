"""``cardplaza stats``: games played, won, lost, average margin and best result per level.

Terminal games are counted in a results file in the user's data directory (one JSON line
per finished game). The table's words come from the message catalog (``--lang``).
"""

from __future__ import annotations

import getpass
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from cardplaza.cli.language import LangOption, terminal_language
from cardplaza.cli.style import make_console
from cardplaza.core.registry import games
from cardplaza.core.results import GameResult, ResultLog, result_of, summarize
from cardplaza.texts.catalog import text as catalog_text

if TYPE_CHECKING:
    from cardplaza.cli.commands import Session


def default_results_path() -> Path:
    """Where terminal play keeps its results."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "cardplaza" / "terminal-results.jsonl"


def terminal_player() -> str:
    """The name terminal games are counted under (the login name)."""
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "player"


def record_session(session: Session, path: Path | None = None) -> GameResult | None:
    """Count a finished terminal game (nothing for an unfinished one)."""
    if not session.state.is_terminal:
        return None
    who = terminal_player()
    counters = getattr(session, "counters", {})
    hinted = bool(counters.get("hint") or counters.get("helper"))
    result = result_of(session.state, session.seat, who, who, session.level, hinted=hinted)
    try:
        ResultLog(path or default_results_path()).add(result)
    except OSError:
        return None
    return result


STATS_COLUMNS = ("player", "game", "played", "won", "lost", "drawn", "margin", "best")
"""The table's columns (catalog keys ``cli.stats.<column>``); the count of games played
with hints (``cli.rest.stats.hinted``) stands before the margin."""


def render_stats(rows: list[dict[str, Any]], console: Any, lang: str = "en") -> None:
    """The statistics as a table."""
    if not rows:
        console.print(catalog_text("cli.stats.none", lang))
        return
    table = Table(title=catalog_text("cli.stats.title", lang), title_justify="left")
    for col in STATS_COLUMNS:
        if col == "margin":  # the games played with hints, before the margin
            table.add_column(catalog_text("cli.rest.stats.hinted", lang), justify="right")
        table.add_column(catalog_text(f"cli.stats.{col}", lang),
                         justify="left" if col in ("player", "game", "best") else "right",
                         no_wrap=col == "game")
    mark = catalog_text("cli.rest.stats.mark", lang)
    marked = False
    for r in rows:
        best = []
        for lv, b in r["best"].items():
            flag = mark if b.get("hinted") else ""
            marked = marked or bool(flag)
            best.append(f"{lv or '?'}: {b['margin']:+g}{flag}")
        hinted = r.get("hinted", 0)
        marked = marked or bool(hinted)
        table.add_row(r["name"], r["game"], str(r["played"]), str(r["won"]), str(r["lost"]),
                      str(r["drawn"]), f"{hinted}{mark}" if hinted else "0",
                      f"{r['average_margin']:+.1f}", ", ".join(best))
    console.print(table)
    if marked:
        console.print(catalog_text("cli.rest.stats.note", lang, mark=mark))


def stats_command(
    player: Annotated[str | None, typer.Option(help="Only this player (name in the terminal, "
                                               "or the browser's player key).")] = None,
    game: Annotated[str | None, typer.Option(help="Only this game.")] = None,
    results_file: Annotated[Path | None, typer.Option(
        "--results-file", help="The terminal's results file.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    lang: LangOption = None,
) -> None:
    """Games played, won, lost, average margin and best result per computer level."""
    if game is not None and game not in games():
        raise typer.BadParameter(
            catalog_text("cli.game.unknown", terminal_language(lang), name=game,
                         known=", ".join(sorted(games()))), param_hint="'--game'")
    results = ResultLog(results_file or default_results_path()).results()
    if game is not None:
        results = [r for r in results if r.game == game]
    rows = summarize(results, player)
    if as_json:
        print(json.dumps({"stats": rows}, ensure_ascii=False, indent=1))
        return
    render_stats(rows, make_console(), terminal_language(lang))


__all__ = ["default_results_path", "record_session", "render_stats", "stats_command"]
