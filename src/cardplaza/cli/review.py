"""``cardplaza review FILE``: the expert's verdict on each decision of a saved game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from cardplaza.ai.review import Review, marks_text, review
from cardplaza.cli.style import make_console
from cardplaza.core.history import GameRecord
from cardplaza.texts.catalog import text

MARK_STYLE = {"good": "green", "inaccuracy": "yellow", "mistake": "dark_orange",
              "blunder": "bold red"}


def _fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "—"
    if unit == "chance":
        return f"{round(100 * value)}%"
    return f"{value:+.1f}"


def render_review(rev: Review, console: Console, names: list[str] | None = None) -> None:
    """Print a review as tables: every decision, then the per-hand summary."""
    table = Table(title=f"Review of {names[rev.seat] if names else f'seat {rev.seat}'}",
                  title_justify="left")
    for col, just in (("#", "right"), ("hand", "right"), ("played", "left"),
                      ("value", "right"), ("best", "left"), ("best value", "right"),
                      ("lost", "right"), ("mark", "left")):
        table.add_column(col, justify=just)  # type: ignore[arg-type]
    for d in rev.decisions:
        same = d.best == d.action or (d.loss is not None and d.loss < 1e-9)
        mark = d.mark or "—"
        style = MARK_STYLE.get(mark, "")
        lost = "—" if d.loss is None else (f"{round(100 * d.loss)}%" if d.unit == "chance"
                                           else f"{d.loss:.1f}")
        table.add_row(str(d.index + 1), str(d.hand), d.text, _fmt(d.value, d.unit),
                      "" if same else d.best_text, "" if same else _fmt(d.best_value, d.unit),
                      lost, f"[{style}]{mark}[/{style}]" + (" (exact)" if d.exact else ""))
    console.print(table)
    for unit in sorted({d.unit for d in rev.decisions}, reverse=True):
        key = "analysis.review.meaning.chance" if unit == "chance" else \
            "analysis.review.meaning.points"
        console.print(f"[dim]{text(key, 'en')}[/dim]")
    hands = Table(title="Per hand", title_justify="left")
    for col in ("hand", "decisions", "good", "inaccuracy", "mistake", "blunder",
                "points lost"):
        hands.add_column(col, justify="right")
    for h in rev.hands():
        hands.add_row(str(h["hand"]), str(h["decisions"]), str(h["good"]),
                      str(h["inaccuracy"]), str(h["mistake"]), str(h["blunder"]),
                      f"{h['lost']:.1f}")
    console.print(hands)
    s = rev.summary()
    console.print(f"{_n(s['decisions'], 'decision')}: {s['good']} good, "
                  f"{_n(s['inaccuracy'], 'inaccuracy', 'inaccuracies')}, "
                  f"{_n(s['mistake'], 'mistake')}, {_n(s['blunder'], 'blunder')}; "
                  f"{s['lost']:.1f} points lost in all.")
    console.print(f"[dim]{marks_text(rev.thresholds, rev.game)['en']}[/dim]")


def _n(count: int, one: str, many: str = "") -> str:
    return f"{count} {one if count == 1 else many or one + 's'}"


def review_command(
    file: Annotated[Path, typer.Argument(help="A saved game record (JSON), as written by "
                                         "`cardplaza play --save` or the browser.")],
    seat: Annotated[int | None, typer.Option(help="Seat to review (default: the first "
                                             "seat, where you sit in terminal play).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as JSON.")] = False,
    seconds_per_decision: Annotated[float | None, typer.Option(
        "--seconds-per-decision", help="Cap each decision's analysis at S seconds (default: "
        "the expert's full budget, about as long as it thinks in play).")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the analysis (default: the "
                                             "game's, the one its hints had).")] = None,
) -> None:
    """The expert's verdict on each decision of a saved game: the value of your move and
    of its best move, the points lost and a mark (good, inaccuracy, mistake, blunder)."""
    console = make_console(stderr=as_json)
    try:
        record = GameRecord.load(file)
        record.new_state()
    except (OSError, ValueError, KeyError) as exc:
        raise typer.BadParameter(f"cannot read {file}: {exc}") from None
    n = record.new_state().num_players
    chosen = 0 if seat is None else seat
    if not 0 <= chosen < n:
        raise typer.BadParameter(f"seat must be 0–{n - 1}", param_hint="'--seat'")
    if seconds_per_decision is not None and seconds_per_decision <= 0:
        raise typer.BadParameter("must be positive", param_hint="'--seconds-per-decision'")
    with Progress(TextColumn("[bold]Reviewing[/bold]"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console, transient=True) as bar:
        task = bar.add_task("review", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            rev = review(record, chosen, seconds_per_decision=seconds_per_decision,
                         base=None if seed is None else f"analysis:{seed}",
                         progress=progress)
        except Exception as exc:  # a record that does not replay
            raise typer.BadParameter(f"cannot review {file}: {exc}") from None
    if as_json:
        out: dict[str, Any] = rev.to_json()
        out["marks"] = marks_text(rev.thresholds, rev.game)
        print(json.dumps(out, ensure_ascii=False, indent=1))
        return
    render_review(rev, console)


__all__ = ["render_review", "review_command"]
