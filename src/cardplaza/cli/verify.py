"""``cardplaza verify RECORD``: check that a finished game's deals were fair.

The check itself is :func:`cardplaza.core.fairness.verify` (the web's check endpoint runs
the same code); this prints its outcome in the terminal's language and exits 0 when the
record passes, 1 when it does not, 2 when the file cannot be read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from cardplaza.cli.language import LangOption, terminal_language
from cardplaza.core.fairness import Outcome, verify
from cardplaza.texts.catalog import text


def outcome_text(outcome: Outcome, lang: str) -> str:
    """The one line that says what the check found."""
    if outcome.ok:
        return text("fair.ok.cli", lang, deals=outcome.deals, steps=outcome.steps)
    params: dict[str, Any] = {"step": "", "deal": "", "seat": "", "turn": "", "told": "",
                              "reason": "", **outcome.params}
    return text("fair.bad.cli", lang, reason=text(f"fair.fail.{outcome.code}", lang, **params))


def verify_command(
    record: Annotated[Path, typer.Argument(help="A finished game's record (JSON, as the "
                                           "browser downloads it).")],
    lang: LangOption = None,
) -> None:
    """Check a finished game's record: each deal's commitment against the revealed seed,
    every action legal, each deal as committed, the action log's digest and the result."""
    language = terminal_language(lang)
    try:
        data = json.loads(record.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        typer.echo(text("fair.unreadable.cli", language, file=str(record),
                        reason=type(exc).__name__), err=True)
        raise typer.Exit(2) from None
    outcome = verify(data)
    typer.echo(outcome_text(outcome, language), err=not outcome.ok)
    raise typer.Exit(0 if outcome.ok else 1)


__all__ = ["outcome_text", "verify_command"]
