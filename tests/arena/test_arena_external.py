"""Arena seats played by another checkout's level through the seat protocol.

The "other checkout" here is this one, run by the test's own interpreter: the games must
then be exactly those of the level played in-process.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardplaza.arena import run_arena
from cardplaza.arena.external import (
    RemoteSeat,
    check_sources,
    checkout_command,
    parse_sources,
    program,
    split_player,
)
from cardplaza.arena.seat_driver import _Seat
from cardplaza.cli.main import app
from cardplaza.core.registry import get_game

SAME = {"same": checkout_command(sys.executable)}


def test_player_names_and_sources() -> None:
    assert split_player("baseline:5") == ("baseline", "5")
    assert split_player("5") == (None, "5")
    sources = parse_sources(sys.executable, [f"two={sys.executable}"], ["bot=mybot --fast"])
    assert set(sources) == {"baseline", "two", "bot"}
    assert sources["baseline"][0] == sys.executable and sources["baseline"][1] == "-P"
    assert sources["baseline"][2].endswith("seat_driver.py")
    assert sources["bot"] == ("mybot", "--fast")
    with pytest.raises(ValueError, match="NAME=DIR"):
        parse_sources(None, ["nodir"])
    with pytest.raises(ValueError, match="twice"):
        parse_sources(sys.executable, [f"baseline={sys.executable}"])
    with pytest.raises(ValueError, match="no Python"):
        checkout_command("/nonexistent/checkout")


def test_other_checkout_plays_the_same_games_as_this_one() -> None:
    local = run_arena("pinochle2", ["3", "2"], deals=4, seed=21)
    remote = run_arena("pinochle2", ["same:3", "2"], deals=4, seed=21, sources=SAME)
    both = run_arena("pinochle2", ["same:3", "same:2"], deals=2, seed=21, jobs=2,
                     sources=SAME)
    assert remote.pairs[0].margins == local.pairs[0].margins
    assert both.pairs[0].margins == local.pairs[0].margins[:2]
    assert remote.sources["same"]["cardplaza"].endswith("__init__.py")
    assert remote.to_json()["sources"]["same"]["command"] == list(SAME["same"])


def test_other_checkout_in_four_hand_one_deal_runs() -> None:
    """Two remote seats of one game (partners), a search level, one deal each."""
    local = run_arena("pinochle4", ["strong", "normal"], deals=1, seed=3, unit="deal")
    remote = run_arena("pinochle4", ["strong", "same:normal"], deals=1, seed=3, unit="deal",
                       sources=SAME)
    assert remote.pairs[0].margins == local.pairs[0].margins


def test_unknown_sources_and_levels_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown source 'old'"):
        run_arena("pinochle2", ["3", "old:3"], deals=1)
    with pytest.raises(ValueError, match="offers no level '9'"):
        run_arena("pinochle2", ["3", "same:9"], deals=1, sources=SAME)
    with pytest.raises(ValueError, match="stopped"):
        check_sources("pinochle2", ["bad:3"], {"bad": (sys.executable, "-c", "pass")})


def _record(game: str, seed: int, steps: int) -> tuple[list[dict[str, object]], object]:
    spec = get_game(game)
    state = spec.new_game(None, seed)
    rng = random.Random(seed)
    record: list[dict[str, object]] = []
    for _ in range(steps):
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        record.append({"seat": state.current_player, "action": state.action_to_json(action),
                       "forced": len(legal) == 1})
        state.apply(action)
    return record, state


def test_driver_bridges_steps_without_a_choice() -> None:
    """A forced step the driver's engine lacks is skipped; a forced step the record lacks
    is taken; either way the rebuilt position is the referee's."""
    record, state = _record("pinochle2", 5, 40)
    new = {"game": "pinochle2", "options": {}, "seed": 5, "seat": 0, "level": "3",
           "player_seed": 1, "rng_seed": 2}
    seat = _Seat(new)
    extra = {"seat": 0, "action": {"type": "no_meld"}, "forced": True}
    seat.replay([extra, *record[:10], extra, *record[10:]])
    assert seat.state.observation(0) == state.observation(0)  # type: ignore[attr-defined]
    forced = [i for i, r in enumerate(record) if r["forced"]]
    assert forced and forced[0] < len(record) - 1
    again = _Seat(new)
    again.replay([r for i, r in enumerate(record) if i != forced[0]])
    assert again.state.observation(0) == state.observation(0)  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="does not fit"):
        _Seat(new).replay([{"seat": 1, "action": {"type": "play", "card": 0},
                            "forced": False}])


def test_remote_seat_answers_a_legal_action() -> None:
    record, state = _record("pinochle2", 8, 6)
    seat = state.current_player  # type: ignore[attr-defined]
    remote = RemoteSeat(program(SAME["same"]), "pinochle2", {}, 8, seat, "3", 4, 5)
    data = remote.decide(record)
    assert state.action_from_json(data) in state.legal_actions()  # type: ignore[attr-defined]
    remote.close()


def test_arena_command_line_takes_a_baseline(tmp_path: Path) -> None:
    out = tmp_path / "arena.json"
    result = CliRunner().invoke(app, ["arena", "pinochle2", "--players", "3,baseline:2",
                                      "--baseline", sys.executable, "--deals", "2",
                                      "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "baseline:" in result.output
    data = json.loads(out.read_text())
    assert data["players"] == ["3", "baseline:2"] and "baseline" in data["sources"]
    bad = CliRunner().invoke(app, ["arena", "pinochle2", "--players", "3,old:2"])
    assert bad.exit_code != 0 and "unknown source" in bad.output
