"""The site's own pages (not a game's rules): one Markdown file per page and language in
``texts/pages/<lang>/<name>.md``, drawn by the same reader as the rules pages
(:func:`cardplaza.texts.markdown.render`). ``fairness`` says how deals are made and checked."""

from __future__ import annotations

import re
from pathlib import Path

from cardplaza.texts.rulepages import language

PAGES_DIR = Path(__file__).resolve().parent / "pages"


def site_page_text(name: str, lang: str) -> str:
    """The Markdown of page ``name`` in ``lang``; ``FileNotFoundError`` if there is none."""
    if not re.fullmatch(r"[a-z0-9_-]{1,40}", name):
        raise FileNotFoundError(f"no page {name!r}")
    return (PAGES_DIR / language(lang) / f"{name}.md").read_text(encoding="utf-8")


def site_pages(lang: str = "en") -> list[str]:
    """The names of the pages in ``lang``."""
    return sorted(p.stem for p in (PAGES_DIR / language(lang)).glob("*.md"))


__all__ = ["PAGES_DIR", "site_page_text", "site_pages"]
