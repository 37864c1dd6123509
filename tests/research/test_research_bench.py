"""``cardplaza bench GAME --vs-openspiel``: our deals/s beside pyspiel hearts, one run."""

from __future__ import annotations

import json
import sys

import pytest
from typer.testing import CliRunner

from cardplaza.cli.main import app

runner = CliRunner()


def test_bench_beside_openspiel_hearts() -> None:
    result = runner.invoke(app, ["bench", "pinochle4", "--vs-openspiel", "--seconds", "0.2",
                                 "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["random full deals/s"] > figures["random full games/s"] > 0
    assert figures["openspiel hearts games/s"] > 0
    ratio = figures["random full deals/s"] / figures["openspiel hearts games/s"]
    assert figures["deals/s ÷ openspiel hearts games/s"] == pytest.approx(ratio)


def test_bench_without_openspiel_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel raises ImportError
    result = runner.invoke(app, ["bench", "pinochle2", "--vs-openspiel", "--seconds", "0.1"])
    assert result.exit_code == 1
    assert "cardplaza[research]" in result.output
