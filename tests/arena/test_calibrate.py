"""``arena --calibrate`` writes a game's entry of the computers' rating table: the command,
the deals, the pairs' counts, and strengths and ratings that fit back from those counts."""

from __future__ import annotations

import json
from pathlib import Path

from cardplaza.arena.calibrate import write_calibration
from cardplaza.arena.core import run_arena
from cardplaza.core import computers
from cardplaza.core.strengths import fit, to_rating


def test_calibration_writes_an_entry_that_fits_back(tmp_path: Path) -> None:
    table = tmp_path / "computers.json"
    table.write_text(json.dumps({"format": "cardplaza-computers/1",
                                 "games": {"piquet": {"kept": True}}}), encoding="utf-8")
    result = run_arena("pinochle2", ["1", "2"], 2, seed=5)
    entry = write_calibration(result, "cardplaza arena pinochle2 --players 1,2 --deals 2 "
                              "--seed 5 --unit game --calibrate", table)
    data = json.loads(table.read_text(encoding="utf-8"))
    assert data["games"]["piquet"] == {"kept": True}  # other games' entries stay
    stored = data["games"]["pinochle2"]
    assert stored == json.loads(json.dumps(entry))
    [pair] = stored["pairs"]
    assert pair["wins"] + pair["draws"] + pair["losses"] == result.pairs[0].games
    again = fit(stored["levels"], stored["pairs"])
    for level, s in again.items():
        assert stored["strengths"][level]["theta"] == s.theta
        assert stored["ratings"][level]["mu"] == to_rating(s).mu
    # The stronger side of the pair has the higher fixed rating.
    a_better = pair["wins"] > pair["losses"]
    assert (stored["ratings"]["1"]["mu"] > stored["ratings"]["2"]["mu"]) == a_better or \
        pair["wins"] == pair["losses"]
    computers.load_table.cache_clear()
