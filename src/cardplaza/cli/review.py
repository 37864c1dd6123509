"""``cardplaza review FILE``: the expert's verdict on each decision of a saved game."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from cardplaza.ai.review import Review, marks_text, review
from cardplaza.cli.language import LangOption, terminal_language
from cardplaza.cli.style import make_console
from cardplaza.cli.view import make_view
from cardplaza.core.history import GameRecord
from cardplaza.core.protocol import GameState
from cardplaza.core.registry import get_game
from cardplaza.texts.catalog import text

MARK_STYLE = {"good": "green", "inaccuracy": "yellow", "mistake": "dark_orange",
              "blunder": "bold red"}


def _fmt(value: float | None, unit: str) -> str:
    if value is None:
        return "—"
    if unit == "chance":
        return f"{round(100 * value)}%"
    return f"{value:+.1f}"


def render_review(rev: Review, console: Console, names: list[str] | None = None,
                  lang: str = "en", record: GameRecord | None = None) -> None:
    """Print a review as tables in ``lang``: every decision, then the per-hand summary
    (with the game's ``record``, moves are worded by the game's view in ``lang``)."""
    words = _words(rev, lang, record)
    who = names[rev.seat] if names else text("cli.review.seat", lang, n=rev.seat)
    table = Table(title=text("cli.review.title", lang, who=who), title_justify="left")
    for col, just in (("num", "right"), ("hand", "right"), ("played", "left"),
                      ("value", "right"), ("best", "left"), ("best_value", "right"),
                      ("lost", "right"), ("mark", "left")):
        table.add_column(text(f"cli.review.col.{col}", lang), justify=just)  # type: ignore[arg-type]
    for d in rev.decisions:
        same = d.best == d.action or (d.loss is not None and d.loss < 1e-9)
        style = MARK_STYLE.get(d.mark or "", "")
        mark = text(f"mark.{d.mark}", lang) if d.mark else "—"
        lost = "—" if d.loss is None else (f"{round(100 * d.loss)}%" if d.unit == "chance"
                                           else f"{d.loss:.1f}")
        exact = " " + text("cli.review.exact", lang) if d.exact else ""
        table.add_row(str(d.index + 1), str(d.hand), words(d.index, d.action, d.text),
                      _fmt(d.value, d.unit),
                      "" if same else words(d.index, d.best, d.best_text),
                      "" if same else _fmt(d.best_value, d.unit),
                      lost, f"[{style}]{escape(mark)}[/{style}]{exact}" if style
                      else escape(mark) + exact)
    console.print(table)
    for unit in sorted({d.unit for d in rev.decisions}, reverse=True):
        key = "analysis.review.meaning.chance" if unit == "chance" else \
            "analysis.review.meaning.points"
        console.print(f"[dim]{escape(text(key, lang))}[/dim]")
    hands = Table(title=text("cli.review.per_hand", lang), title_justify="left")
    for col in ("hand", "decisions", "good", "inaccuracy", "mistake", "blunder", "lost"):
        hands.add_column(text(f"cli.review.hcol.{col}", lang), justify="right")
    for h in rev.hands():
        hands.add_row(str(h["hand"]), str(h["decisions"]), str(h["good"]),
                      str(h["inaccuracy"]), str(h["mistake"]), str(h["blunder"]),
                      f"{h['lost']:.1f}")
    console.print(hands)
    s = rev.summary()
    console.print(escape(text("cli.review.summary", lang, decisions=s["decisions"],
                              good=s["good"], inaccuracy=s["inaccuracy"],
                              mistake=s["mistake"], blunder=s["blunder"],
                              lost=f"{s['lost']:.1f}")))
    console.print(f"[dim]{escape(marks_text(rev.thresholds, rev.game)[lang])}[/dim]")


def _words(rev: Review, lang: str,
           record: GameRecord | None) -> Callable[[int, Any, str], str]:
    """How a decision's move reads in ``lang``: the game's terminal view words it from the
    position before that step (English: the review's own text)."""
    if lang == "en":
        return lambda _index, _action, said: said
    view = make_view(get_game(rev.game), Console(file=io.StringIO()), -1, lang)
    wanted = {d.index for d in rev.decisions}
    before: dict[int, GameState] = {}
    if record is not None:
        for i, (state, _seat, _action) in enumerate(record.replay()):
            if i in wanted:
                before[i] = state.clone()

    def words(index: int, action: Any, said: str) -> str:
        state = before.get(index)
        if state is None:
            return str(view.engine_words(said))
        return str(view.action_words(state, action))

    return words


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
    lang: LangOption = None,
) -> None:
    """The expert's verdict on each decision of a saved game: the value of your move and
    of its best move, the points lost and a mark (good, inaccuracy, mistake, blunder)."""
    console = make_console(stderr=as_json)
    lang = terminal_language(lang)
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
    with Progress(TextColumn(f"[bold]{escape(text('cli.review.busy', lang))}[/bold]"),
                  BarColumn(), MofNCompleteColumn(),
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
    render_review(rev, console, lang=lang, record=record)


__all__ = ["render_review", "review_command"]
