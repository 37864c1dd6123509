"""The Piquet page's tables agree with the engine: pip values, sequence scores, the exchange
limits, the Rubicon results and every declaration example (who wins each class, and how
many points), in English and Japanese."""

from __future__ import annotations

import pytest
from rules_helpers import cards, number, tables

from cardplaza.core.cards import PIQUET, mask_of
from cardplaza.games.piquet import combos as pc
from cardplaza.games.piquet.options import Options
from cardplaza.games.piquet.state import PiquetState, partie_result
from cardplaza.texts.rulepages import LANGUAGES

ELDER = {"en": "Elder", "ja": "エルダー"}
YOUNGER = {"en": "Younger", "ja": "ヤンガー"}
NOBODY = {"en": "nobody", "ja": "なし"}


def _table(lang: str, first: str) -> list[tuple[str, ...]]:
    return next(list(t.rows) for t in tables("piquet", lang) if t.head[0] == first)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_pip_values_are_the_engines(lang: str) -> None:
    t = next(t for t in tables("piquet", lang) if t.head[1:] == ("A", "K", "Q", "J", "10",
                                                                  "9", "8", "7"))
    assert tuple(number(c) for c in t.rows[0][1:]) == tuple(reversed(pc.PIP))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_sequence_scores_are_the_engines(lang: str) -> None:
    rows = _table(lang, {"en": "Length", "ja": "長さ"}[lang])
    assert {number(r[0]): number(r[2]) for r in rows} == pc.SEQ_SCORE
    if lang == "en":
        assert {number(r[0]): r[1] for r in rows} == {
            n: name.lower() for n, name in pc.SEQ_NAME.items()}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_exchange_limits_are_the_engines(lang: str) -> None:
    t = next(t for t in tables("piquet", lang) if len(t.head) == 6 and len(t.rows) == 2)
    for row, zero in zip(t.rows, ("off", "on"), strict=True):
        for e_cell, y_cell in zip(t.head[1:], row[1:], strict=True):
            state = PiquetState(Options(younger_may_exchange_zero=zero), 0)
            state.e = number(e_cell)
            lo, hi = (int(x) for x in y_cell.replace("〜", "–").split("–"))
            assert state.y_range() == (lo, hi)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rubicon_results_are_the_engines(lang: str) -> None:
    t = next(t for t in tables("piquet", lang) if len(t.head) == 3 and len(t.rows) == 4)
    for row in t.rows:
        w, lo, value = (number(c) for c in row)
        assert partie_result(w, lo) == (0, float(value), lo < 100), row


def _outcome(cls: int, e: int, y: int) -> tuple[str, int]:
    if cls == 0:
        pe, py = pc.best_point(e), pc.best_point(y)
        who = pc.class_outcome(0, pe[:2], py[:2])
        return who, {"elder": pe[0], "younger": py[0]}.get(who, 0)
    combos = (pc.sequences, pc.sets)[cls - 1]
    score = (pc.seq_score, pc.set_score)[cls - 1]
    ce, cy = combos(e), combos(y)
    who = pc.class_outcome(cls, ce[0][:2] if ce else None, cy[0][:2] if cy else None)
    return who, {"elder": sum(map(score, ce)), "younger": sum(map(score, cy))}.get(who, 0)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_declaration_examples_are_the_engines(lang: str) -> None:
    examples = [t for t in tables("piquet", lang)
                if t.head[:2] == (ELDER[lang], YOUNGER[lang]) and len(t.head) == 5]
    rows = [r for t in examples for r in t.rows]
    assert len(rows) == 5
    for row in rows:
        e, y = (mask_of(cards(PIQUET, c)) for c in row[:2])
        assert e.bit_count() == y.bit_count() == 12 and not e & y, row
        for cls, cell in enumerate(row[2:]):
            who, points = _outcome(cls, e, y)
            if who in ("none", "equal"):
                assert cell == NOBODY[lang], row
            else:
                name = (ELDER if who == "elder" else YOUNGER)[lang]
                assert cell.split()[0] == name and number(cell) == points, (cls, row)
