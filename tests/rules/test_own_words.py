"""The players' rules pages are written in our own words: facts and rules carry over from
the original game sites' descriptions (``../shared/seeds`` beside the project, when it is
there), their sentences do not."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "src" / "cardplaza" / "texts" / "rules"
SEEDS = ROOT.parent / "shared" / "seeds"
RUN = 20
"""The longest run of characters (whitespace ignored) a page may share with a seed."""


def _squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def shared_runs(page: str, sources: dict[str, str], run: int = RUN) -> list[str]:
    """Every stretch of ``page`` of at least ``run`` characters (whitespace ignored) that
    appears word for word in one of ``sources``, each grown as long as it goes."""
    text = _squeeze(page)
    squeezed = [_squeeze(s) for s in sources.values()]
    found: list[str] = []
    i = 0
    while i + run <= len(text):
        source = next((s for s in squeezed if text[i:i + run] in s), None)
        if source is None:
            i += 1
            continue
        j = i + run
        while j < len(text) and text[i:j + 1] in source:
            j += 1
        found.append(text[i:j])
        i = j
    return found


def test_shared_runs_finds_a_copied_sentence() -> None:
    seed = {"site": "ピノクルは人気のゲームです。\nメルドを 見せてから トリックをします。"}
    page = "前置き。メルドを見せてからトリックをします。ここは違う文。"
    assert shared_runs(page, seed, run=10) == ["。メルドを見せてからトリックをします。"]
    assert shared_runs("まったく別の文章だけでできているページです。", seed, run=10) == []


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed documents are not beside the project")
@pytest.mark.parametrize("page", sorted(PAGES.rglob("*.md")),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_rules_page_repeats_a_seed_document(page: Path) -> None:
    sources = {p.name: p.read_text(encoding="utf-8") for p in sorted(SEEDS.iterdir())
               if p.is_file()}
    assert sources
    assert shared_runs(page.read_text(encoding="utf-8"), sources) == []
