"""Player names: NFKC-normalised text without control, invisible or direction-changing marks."""

from __future__ import annotations

import unicodedata
from typing import Any

from cardplaza.web.errors import WebError

MAX_NAME = 20
"""Most characters in a player name (after normalising)."""

REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Unicode categories refused in names: controls, formats (zero-width and bidirectional
marks and overrides), surrogates, private use, unassigned, line and paragraph separators."""


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
    if any(unicodedata.category(ch) in REFUSED_CATEGORIES for ch in text
           if ch not in " \t\n"):
        raise WebError("bad_name", limit=MAX_NAME)
    cleaned = " ".join(text.split())
    if not cleaned:
        return default
    if len(cleaned) > MAX_NAME:
        raise WebError("bad_name", limit=MAX_NAME)
    return cleaned
