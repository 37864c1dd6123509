"""The terminal's ``hint`` and ``helper`` commands."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest

from cardplaza.cli.commands import find_command
from cardplaza.cli.style import make_console
from cardplaza.cli.terminal import Session
from cardplaza.core.registry import get_game


def _run(game: str, answers: list[str], seed: int = 3, options: Any = None,
         **kw: Any) -> tuple[Session, str]:
    buf = io.StringIO()
    feed: Iterator[str] = iter(answers)
    spec = get_game(game)

    def read(prompt: str) -> str:
        if "(y/n)" in prompt:
            return "y"
        return next(feed, "q")

    session = Session(spec, spec.options_type() if options is None else options, seed,
                      "random", make_console(file=buf, width=120, color_system=None), read,
                      **kw)
    session.run()
    return session, buf.getvalue()


def test_hint_and_helper_are_commands() -> None:
    hint, helper = find_command("hint"), find_command("helper")
    assert hint is not None and helper is not None
    assert find_command("odds") is helper


@pytest.mark.parametrize("game", ["pinochle2", "pinochle4", "piquet", "efudatori"])
def test_hint_names_a_choice_with_its_reason_and_is_counted(game: str) -> None:
    first = "1" if game == "piquet" else "#1"
    session, text = _run(game, ["hint", first, "q"])
    assert "Hint:" in text
    assert "sampled" in text or "Exact" in text or "only" in text or "Bid" in text \
        or "Pass" in text
    assert session.counters.get("hint") == 1
    assert "Traceback" not in text


def test_helper_shows_the_bid_odds_during_the_auction() -> None:
    session, text = _run("pinochle4", ["helper", "q"], seed=5)
    assert "Chance of making each bid" in text
    assert "250" in text and "%" in text
    assert session.counters.get("helper") == 1


def test_helper_says_where_it_works_elsewhere() -> None:
    _session, text = _run("efudatori", ["helper", "q"])
    assert "No helper at this point" in text


def test_piquet_helper_lists_discards() -> None:
    _session, text = _run("piquet", ["helper", "q"], seed=2)
    assert "Best discards" in text and "expected points" in text


def test_hints_are_refused_in_a_streak_game(tmp_path: Any) -> None:
    from cardplaza.cli.streak import StreakBook

    buf = io.StringIO()
    spec = get_game("pinochle2")
    book = StreakBook(tmp_path / "s.json", make_console(file=buf, color_system=None))
    answers = iter(["hint", "helper", "q", "y"])
    session = Session(spec, spec.options(), 4, "1",
                      make_console(file=buf, width=120, color_system=None),
                      lambda p: next(answers), streak=book)
    session.run()
    text = buf.getvalue()
    assert "No hint in a streak game" in text and "No helper in a streak game" in text
    assert session.counters == {}


def test_advice_bench_reports_median_and_p95() -> None:
    import json

    from typer.testing import CliRunner

    from cardplaza.cli.main import app

    out = CliRunner().invoke(app, ["advice-bench", "piquet", "--positions", "3",
                                   "--review-decisions", "3", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["hint seconds"]["count"] == 3
    assert data["review seconds per decision"]["count"] == 3
    assert data["hint seconds"]["p95"] >= data["hint seconds"]["median"] > 0


def _hint_table(text: str) -> tuple[str, list[tuple[str, float]]]:
    """The hint's pick and its table's (choice, value) rows from a terminal transcript."""
    lines = text.splitlines()
    at = max(i for i, line in enumerate(lines) if "Hint:" in line)
    pick = lines[at].split("Hint:")[1].split(".", 1)[1].strip()
    rows: list[tuple[str, float]] = []
    header = False
    for line in lines[at + 1:]:
        parts = line.split()
        if len(parts) >= 2 and parts[0] == "choice":
            header = True
            continue
        if not header:  # the reason's sentence
            continue
        value = None
        for i, part in enumerate(parts[1:], 1):  # a choice's label may be several words
            try:
                value = float(part.replace("−", "-"))
            except ValueError:
                continue
            rows.append((" ".join(parts[:i]), value))
            break
        if value is None and rows:
            break
    return pick, rows


def test_cutthroat_hint_pick_is_the_best_of_its_own_table() -> None:
    """`printf 'pass\\n3\\n1\\n12\\n2\\nhint\\nquit\\ny\\n' | cardplaza play pinochle3 --seed 3
    --level expert`: the hint names the card its own table scores highest."""
    import os
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "cardplaza", "play", "pinochle3", "--seed",
                           "3", "--level", "expert"],
                          input="pass\n3\n1\n12\n2\nhint\nquit\ny\n", capture_output=True,
                          text=True, timeout=300, env={**os.environ, "COLUMNS": "120"},
                          check=False)
    pick, rows = _hint_table(done.stdout)
    assert len(rows) >= 2, done.stdout[-2000:]
    best = max(v for _c, v in rows)
    assert rows[0][0] == pick and rows[0][1] == best, (pick, rows)
    assert "is as good" not in done.stdout or rows[0][1] >= rows[1][1]
