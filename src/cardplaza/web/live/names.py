"""Player names: NFKC-normalised text without control, invisible, blank-looking or
direction-changing characters, nor markup."""

from __future__ import annotations

import unicodedata
from typing import Any

from cardplaza.web.errors import WebError

MAX_NAME = 20
"""Most characters in a player name (after normalising)."""

REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode categories refused in names: controls, formats (zero-width and bidirectional
marks and overrides), surrogates, private use, unassigned, line and paragraph separators."""

BLANK_LOOKING = frozenset(
    [0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180F, 0x2800,
     0x3164, 0xFFA0, 0x1D159, *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)])
"""Characters that show as nothing though they are letters or marks to Unicode: fillers
(Hangul ``U+3164``, ``U+115F``, ``U+FFA0``), the blank Braille pattern, variation selectors,
the combining grapheme joiner. A name of them would look empty or hide another's."""

MARKUP = frozenset("<>")
"""Characters of markup, refused so that no name is ever read as HTML."""


def _visible(ch: str) -> bool:
    """A character that shows as itself: a letter, digit, punctuation or symbol."""
    return unicodedata.category(ch)[0] in "LNPS" and ord(ch) not in BLANK_LOOKING


def clean_name(name: Any, default: str = "Player") -> str:
    """A player name: NFKC-normalised, spaces collapsed, 1–20 characters (the default when
    empty); :class:`WebError` ``bad_name`` for anything else."""
    if name is None:
        return default
    if not isinstance(name, str):
        raise WebError("bad_name", limit=MAX_NAME)
    if len(name) > 4 * MAX_NAME:
        raise WebError("bad_name", limit=MAX_NAME)
    text = unicodedata.normalize("NFKC", name)
    if any((unicodedata.category(ch) in REFUSED_CATEGORIES and ch not in " \t\n")
           or ord(ch) in BLANK_LOOKING or ch in MARKUP for ch in text):
        raise WebError("bad_name", limit=MAX_NAME)
    cleaned = " ".join(text.split())
    if not cleaned:
        return default
    if not any(_visible(ch) for ch in cleaned):  # only marks: nothing to read
        raise WebError("bad_name", limit=MAX_NAME)
    if len(cleaned) > MAX_NAME:
        raise WebError("bad_name", limit=MAX_NAME)
    return cleaned
