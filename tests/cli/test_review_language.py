"""``cardplaza review --lang ja``: the review's tables, marks, unit sentence and summary in
Japanese, the moves worded by the game's view; English stays English."""

from __future__ import annotations

import io
import random
import re

import pytest
from rich.console import Console

from cardplaza.ai.review import review
from cardplaza.cli.review import render_review
from cardplaza.core.history import GameRecord
from cardplaza.core.registry import get_game

JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]")


@pytest.mark.parametrize(("game", "steps"), [("pinochle2", 16), ("piquet", 14)])
def test_a_review_in_japanese_has_no_english_word(game: str, steps: int) -> None:
    spec = get_game(game)
    state = spec.new_game(spec.options_type(), 3)
    rng = random.Random(3)
    for _ in range(steps):
        state.apply(rng.choice(list(state.legal_actions())))
    record = GameRecord.of(state)
    rev = review(record, 0, seconds_per_decision=0.02)
    assert rev.decisions
    told = {}
    for lang in ("en", "ja"):
        out = io.StringIO()
        render_review(rev, Console(file=out, width=200), lang=lang, record=record)
        told[lang] = out.getvalue()
    assert "Review of seat 0" in told["en"] and not JAPANESE.search(told["en"])
    assert "席0の振り返り" in told["ja"] and "判断" in told["ja"]
    assert re.findall(r"[A-Za-z]{2,}", told["ja"]) == [], told["ja"]
