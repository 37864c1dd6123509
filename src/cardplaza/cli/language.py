"""The terminal's language (``--lang en|ja``): the play loop's and the commands' own lines
come from the message catalog in it (:mod:`cardplaza.texts.catalog`)."""

from __future__ import annotations

from typing import Annotated

import typer

from cardplaza.texts.catalog import LANGUAGES, locale_language

LangOption = Annotated[str | None, typer.Option(
    "--lang", help="Language of the terminal's own lines: en or ja (default: ja when "
                   "LC_ALL, LC_MESSAGES or LANG starts with ja, else en).")]


def terminal_language(chosen: str | None) -> str:
    """``--lang``'s value checked (``en`` or ``ja``), else the locale's language."""
    if chosen is None:
        return locale_language()
    if chosen not in LANGUAGES:
        raise typer.BadParameter(f"choose one of {', '.join(LANGUAGES)}", param_hint="'--lang'")
    return chosen


__all__ = ["LangOption", "terminal_language"]
