"""The ``hint`` and ``helper`` commands of terminal play: the expert's analysis at the prompt.

``hint`` names the expert's choice with its reason and the top choices (expected points or
the chance of making a bid, and the share of sampled deals in which each was best);
``helper`` shows the decision helper where a decision has one: the chance of making each
bid per trump suit (four-hand and cut-throat), the best discards (Piquet), the melds (two-
hand). Both are refused in a two-hand streak game, whose saved score must stay honest, and
both are counted on the result screen. Their words come from the message catalog in the
session's language (the reason of a hint too); moves as the game's view words them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.markup import escape
from rich.table import Table

from cardplaza.ai.advice import Hint
from cardplaza.ai.analysis import Analysis, analyse_cached, game_base
from cardplaza.cli.commands import Command, Outcome, register_command
from cardplaza.texts.catalog import reason_texts

if TYPE_CHECKING:
    from cardplaza.cli.commands import Session

def _value(value: float | None, unit: str) -> str:
    if value is None:
        return "—"
    if unit == "chance":
        return f"{round(100 * value)}%"
    return f"{value:+.1f}"


def _pct(x: float | None) -> str:
    return "" if x is None else f"{round(100 * x)}%"


def render_hint(session: Session, h: Hint) -> None:
    """Print a hint: the suggestion (with its menu number), the reason and the top
    choices."""
    con = session.console
    state = session.state
    ev = h.evaluation
    menu = session.current_menu()
    number = next((i + 1 for i, a in enumerate(menu) if ev.best_choice().covers(a)), None)
    where = f"{number}. " if number is not None else ""
    con.print(f"[bold cyan]{escape(session.say('cli.hint.label'))}[/bold cyan] "
              f"{where}{session.view.action_words(state, h.best)}")
    reason = reason_texts(h.reason)
    con.print(reason.get(session.lang) or reason["en"])
    valued = [c for c in ev.choices if c.value is not None]
    if len(valued) < 2:
        return
    table = Table(show_header=True, header_style="dim", box=None, pad_edge=False)
    table.add_column(session.say("cli.hint.choice"))
    table.add_column(session.say("cli.hint.chance" if ev.unit == "chance"
                                 else "cli.hint.points"), justify="right")
    has_share = any(c.share is not None for c in ev.choices)
    has_trick = any("trick" in c.facts for c in ev.choices)
    table.add_column(session.say("analysis.col.gap"), justify="right")
    if has_share:
        table.add_column(session.say("cli.hint.best_in"), justify="right")
    if has_trick:
        table.add_column(session.say("cli.hint.wins_trick"), justify="right")
    top = ev.best_choice().value
    for c in ev.choices[:h.top]:
        shown = None if c.facts.get("reference") else c.value
        row = [session.view.action_words(state, c.action), _value(shown, ev.unit),
               gap(shown, top, ev.unit)]
        if has_share:
            row.append(_pct(c.share))
        if has_trick:
            row.append(_pct(c.facts.get("trick")))
        table.add_row(*row)
    con.print(table)
    con.print(f"[dim]{escape(session.say(meaning_key(ev.unit, ev.exact), n=ev.worlds))}[/dim]")


def gap(value: float | None, best: float | None, unit: str) -> str:
    """A choice's value against the best choice's: ``0`` for the best, ``−3.5`` for a choice
    3.5 points less (points of chance for a bid)."""
    if value is None or best is None:
        return "—"
    d = value - best
    size = round(100 * abs(d)) if unit == "chance" else round(abs(d), 1)
    if size == 0:
        return "0"
    return f"{'−' if d < 0 else '+'}{size:g}"


def meaning_key(unit: str, exact: bool) -> str:
    """The catalog key of the sentence that says what a hint's numbers measure."""
    if unit == "chance":
        return "analysis.chance.meaning"
    return "analysis.points.meaning.exact" if exact else "analysis.points.meaning"


def _hint(session: Session, rest: str) -> Outcome:
    if session.is_streak_game:
        session.console.print(f"[yellow]{escape(session.say('cli.streak.no_hint'))}[/yellow]")
        return Outcome.PROMPT
    with session.console.status(escape(session.say("cli.hint.busy")), spinner="dots"):
        h = analysis_now(session).hint()
    session.count("hint")
    render_hint(session, h)
    return Outcome.PROMPT


def analysis_now(session: Session) -> Analysis:
    """The analysis of the person's position now: computed once (seeded by the game's seed,
    the step and what the person sees) and kept, so the hint, the helper and a later review
    read the same numbers."""
    state = session.state
    mine = not state.is_terminal and state.current_player == session.seat
    return analyse_cached(session.analyses, session.spec.name, session.observation,
                          state.legal_actions() if mine else [], game_base(session.seed),
                          seat=session.seat, step=len(state.history))


def render_helper(session: Session, table: dict[str, Any]) -> None:
    """Print a decision helper's table."""
    con = session.console
    kind = table["kind"]
    if kind == "bids":
        suits = table["suits"]
        out = Table(title=escape(session.say("cli.helper.bids.title", n=table["worlds"])),
                    title_justify="left")
        out.add_column(session.say("cli.helper.bid"), justify="right")
        for row in suits:
            out.add_column(session.say("cli.helper.trump", suit=row["symbol"]),
                           justify="right")
        partner = table["players"] == 4
        melds = [f"{row['meld'] + row.get('partner_meld', 0.0):.0f}" for row in suits]
        out.add_row(escape(session.say("cli.helper.meld")), *melds, style="dim")
        out.add_row(escape(session.say("cli.helper.tricks")),
                    *[f"{row['tricks']:.0f}" for row in suits], style="dim")
        for i, a in enumerate(table["amounts"]):
            cells = []
            for row in suits:
                x = row["chances"][i]
                style = "green" if x >= table["make_prob"] else "red" if x < 0.3 else ""
                cells.append(f"[{style}]{round(100 * x)}%[/{style}]" if style else
                             f"{round(100 * x)}%")
            out.add_row(str(a), *cells)
        con.print(out)
        whose = session.say("cli.helper.whose.partner" if partner
                            else "cli.helper.whose.widow")
        note = session.say("cli.helper.bids.note", whose=whose, limit=table["limit"],
                           pct=round(100 * table["make_prob"]))
        con.print(f"[dim]{escape(note)}[/dim]")
    elif kind == "exchange":
        out = Table(title=escape(session.say("cli.helper.exchange.title", n=table["worlds"])),
                    title_justify="left")
        out.add_column(session.say("cli.helper.discard"))
        out.add_column(session.say("cli.hint.points"), justify="right")
        out.add_column(session.say("cli.hint.best_in"), justify="right")
        for row in table["rows"]:
            out.add_row(session.view.engine_words(row["text"]), _value(row["value"], "points"),
                        _pct(row["share"]))
        con.print(out)
        con.print(f"[dim]{escape(session.say('cli.helper.exchange.note'))}[/dim]")
        con.print(f"[dim]{escape(session.say('analysis.helper.points.meaning', n=table['worlds']))}"
                  "[/dim]")
    elif kind == "meld":
        out = Table(title=escape(session.say("cli.helper.melds.title", n=table["worlds"])),
                    title_justify="left")
        out.add_column(session.say("cli.hint.choice"))
        out.add_column(session.say("cli.helper.meld_points"), justify="right")
        out.add_column(session.say("cli.helper.margin"), justify="right")
        out.add_column(session.say("cli.hint.best_in"), justify="right")
        for row in table["rows"]:
            out.add_row(session.view.engine_words(row["text"]), str(row["points"]),
                        _value(row["value"], "points"),
                        _pct(row["share"]))
        con.print(out)
        con.print(f"[dim]{escape(session.say('analysis.helper.points.meaning', n=table['worlds']))}"
                  "[/dim]")


def _helper(session: Session, rest: str) -> Outcome:
    if session.is_streak_game:
        session.console.print(f"[yellow]{escape(session.say('cli.streak.no_helper'))}[/yellow]")
        return Outcome.PROMPT
    with session.console.status(escape(session.say("cli.helper.busy")), spinner="dots"):
        table = analysis_now(session).helper
    if table is None:
        session.console.print(escape(session.say("cli.helper.none")))
        return Outcome.PROMPT
    session.count("helper")
    render_helper(session, table)
    return Outcome.PROMPT


register_command(Command("hint", "", _hint, summary_key="cli.cmd.hint"))
register_command(Command("helper", "", _helper, aliases=("odds",),
                         summary_key="cli.cmd.helper"))

__all__ = ["analysis_now", "gap", "meaning_key", "render_helper", "render_hint"]
