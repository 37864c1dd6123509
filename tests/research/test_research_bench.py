"""``cardplaza bench GAME --vs-openspiel`` and ``--adapter``: ratios measured in one run."""

from __future__ import annotations

import json
import random
import sys

import pyspiel
import pytest
from typer.testing import CliRunner

from cardplaza.cli.main import app
from cardplaza.core.bench import REFERENCES, reference

runner = CliRunner()
QUICK = ["--round-seconds", "0.02", "--max-seconds", "1", "--json"]


def test_bench_beside_openspiel_hearts_skat_and_bridge() -> None:
    result = runner.invoke(app, ["bench", "pinochle4", "--vs-openspiel", *QUICK])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    for ref in ("hearts", "skat", "bridge"):
        assert figures[f"{ref} deals/s"] > 0
        ratio = figures["pinochle4 deals/s"] / figures[f"{ref} deals/s"]
        lo, hi = figures[f"pinochle4 ÷ {ref} 95% interval"]
        assert lo <= figures[f"pinochle4 ÷ {ref}"] <= hi
        # The ratio is of paired rounds (geometric mean), close to the pooled one.
        assert figures[f"pinochle4 ÷ {ref}"] == pytest.approx(ratio, rel=0.5)
    assert figures["rounds"] >= 1 and "chance_outcomes" in figures["method"]


def test_bench_of_the_adapter_beside_the_native_engine() -> None:
    result = runner.invoke(app, ["bench", "pinochle2", "--adapter", *QUICK])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["pinochle2 deals/s"] > 0
    assert figures["pinochle2 (OpenSpiel adapter) deals/s"] > 0
    assert "pinochle2 (OpenSpiel adapter) ÷ pinochle2" in figures


def test_bench_of_every_adapter_in_one_run() -> None:
    result = runner.invoke(app, ["bench", "all", "--adapter", "--round-seconds", "0.02",
                                 "--max-rounds", "1", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    from cardplaza.research.core import research_games

    for name in research_games():
        assert figures[f"{name} (OpenSpiel adapter) deals/s"] > 0
        assert figures[f"{name} (OpenSpiel adapter) ÷ {name}"] > 0


def test_bench_without_openspiel_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel raises ImportError
    result = runner.invoke(app, ["bench", "pinochle2", "--vs-openspiel", *QUICK])
    assert result.exit_code == 1
    assert "cardplaza[research]" in result.output


@pytest.mark.parametrize(("name", "calls"), [("skat", 3), ("bridge", 4)])
def test_passed_out_deals_are_told_apart(name: str, calls: int) -> None:
    game, params, passed_out = REFERENCES[name]
    assert passed_out is not None
    rng = random.Random(2)
    state = pyspiel.load_game(game, params).new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    played = state.clone()
    for _ in range(calls):  # everybody passes
        pass_action = next(a for a in state.legal_actions()
                           if "pass" in state.action_to_string(a).lower())
        state.apply_action(pass_action)
    assert state.is_terminal() and passed_out(state, calls)
    moves = 0
    while not played.is_terminal():
        if played.is_chance_node():
            played.apply_action(rng.choice(played.chance_outcomes())[0])
            continue
        legal = played.legal_actions()
        keep = [a for a in legal if "pass" not in played.action_to_string(a).lower()]
        played.apply_action(rng.choice(keep or legal))
        moves += 1
    assert not passed_out(played, moves)


def test_reference_chance_nodes_are_uniform() -> None:
    """One ``rng.choice`` over the outcomes samples OpenSpiel's chance nodes exactly."""
    rng = random.Random(4)
    for name in REFERENCES:
        sampler = reference(name)
        state = sampler.game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                probs = {p for _, p in state.chance_outcomes()}
                assert max(probs) - min(probs) < 1e-12
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
