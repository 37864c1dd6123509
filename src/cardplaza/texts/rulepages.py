"""The players' rules pages: one Markdown file per game and language.

Pages live in ``texts/rules/<lang>/<game>.md``, named by the game's registry name. A line
``{{include: name}}`` pulls in the shared part ``texts/rules/<lang>/_name.md`` (the two
Pinochle games with bidding share their meld and counting sections this way). The web
(:func:`cardplaza.texts.markdown.render`) and the terminal (``cardplaza rules``) show the
same text, read by the same Markdown reader.
"""

from __future__ import annotations

import re
from pathlib import Path

RULES_DIR = Path(__file__).resolve().parent / "rules"
LANGUAGES = ("en", "ja")
_INCLUDE = re.compile(r"^\{\{\s*include\s*:\s*([a-z0-9-]+)\s*\}\}\s*$", re.MULTILINE)


def language(lang: str | None) -> str:
    """``"ja"`` for any Japanese language tag (``ja``, ``ja-JP``), else ``"en"``."""
    return "ja" if (lang or "").lower().startswith("ja") else "en"


def page_path(game: str, lang: str) -> Path:
    """Where the page of ``game`` in ``lang`` lives (it may not exist)."""
    if not re.fullmatch(r"[a-z0-9_-]+", game):
        raise FileNotFoundError(f"no rules page for {game!r}")
    return RULES_DIR / language(lang) / f"{game}.md"


def has_page(game: str, lang: str) -> bool:
    """Whether ``game`` has a rules page in ``lang``."""
    try:
        return page_path(game, lang).is_file()
    except FileNotFoundError:
        return False


def page_text(game: str, lang: str) -> str:
    """The Markdown of a page with its shared parts included; ``FileNotFoundError`` if the
    game has no page in that language."""
    lang = language(lang)
    path = page_path(game, lang)
    text = path.read_text(encoding="utf-8")

    def include(m: re.Match[str]) -> str:
        part = RULES_DIR / lang / f"_{m.group(1)}.md"
        return part.read_text(encoding="utf-8").strip("\n")

    return _INCLUDE.sub(include, text)


def games_with_pages(lang: str = "en") -> list[str]:
    """Names of the games that have a page in ``lang``."""
    folder = RULES_DIR / language(lang)
    return sorted(p.stem for p in folder.glob("*.md") if not p.stem.startswith("_"))
