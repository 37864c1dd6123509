"""Regenerate or check the golden perft counts in tests/data/perft.json.

    python scripts/perft.py            # check; prints per-action counts on a mismatch
    python scripts/perft.py --write    # regenerate the file from the current engines

Each entry names a game, a preset, a seed, a number of random-playout steps to reach the
position (with a fixed RNG) and a depth.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from cardplaza.core.bench import random_steps
from cardplaza.core.perft import divide, perft
from cardplaza.core.protocol import GameState
from cardplaza.core.registry import games

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "perft.json"

# Positions: (preset, seed, random steps before counting, depth), chosen per game so each
# count stays cheap (well under a second) yet crosses several decisions.
DEFAULT_POSITIONS: list[tuple[str, int, int, int]] = [
    ("default", 1, 0, 3),
    ("default", 2, 5, 3),
    ("default", 3, 20, 3),
]
POSITIONS: dict[str, list[tuple[str, int, int, int]]] = {
    "efudatori": [("default", 1, 0, 6), ("default", 2, 7, 6), ("default", 3, 20, 6)],
    "piquet": [("default", 1, 0, 1), ("default", 2, 8, 4), ("default", 3, 20, 4)],
    "pinochle3": [("default", 1, 0, 3), ("default", 2, 10, 3), ("default", 3, 30, 4)],
    "pinochle4": [("default", 1, 0, 4), ("default", 2, 12, 3), ("default", 3, 40, 4)],
    "pinochle2": [("default", 1, 0, 3), ("default", 2, 5, 3), ("default", 3, 40, 4)],
    "pinochle_dd": [("default", 1, 0, 6), ("default", 2, 4, 4), ("default", 3, 13, 4),
                    ("house_rules", 4, 14, 5), ("default", 5, 60, 5)],
}


def position(game: str, preset: str, seed: int, steps: int) -> GameState:
    """The position an entry names."""
    spec = games()[game]
    state = spec.new_game(spec.all_presets()[preset], seed)
    random_steps(state, random.Random(seed), steps)
    return state


def compute(entry: dict[str, Any]) -> int:
    """Perft count of an entry."""
    state = position(entry["game"], entry["preset"], entry["seed"], entry["steps"])
    return perft(state, entry["depth"])


def generate(names: list[str]) -> list[dict[str, Any]]:
    """Fresh entries for the named games."""
    entries = []
    for name in names:
        for preset, seed, steps, depth in POSITIONS.get(name, DEFAULT_POSITIONS):
            entry: dict[str, Any] = {"game": name, "preset": preset, "seed": seed,
                                     "steps": steps, "depth": depth}
            entry["count"] = compute(entry)
            entries.append(entry)
    return entries


def check(entries: list[dict[str, Any]]) -> int:
    """Compare counts; print a divide table for each mismatch. Returns mismatches."""
    bad = 0
    for entry in entries:
        got = compute(entry)
        if got != entry["count"]:
            bad += 1
            print(f"MISMATCH {entry}: got {got}")
            state = position(entry["game"], entry["preset"], entry["seed"], entry["steps"])
            for action, count in divide(state, entry["depth"]).items():
                print(f"  {action}: {count}")
    return bad


def main() -> int:
    """Command-line entry."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="regenerate the golden file")
    parser.add_argument("games", nargs="*", help="only these games (default: all)")
    args = parser.parse_args()
    names = args.games or list(games())
    old = json.loads(DATA.read_text(encoding="utf-8")) if DATA.exists() else []
    if args.write:
        kept = [e for e in old if e["game"] not in names]
        entries = sorted(kept + generate(names), key=lambda e: (e["game"], e["seed"]))
        DATA.write_text(json.dumps(entries, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {DATA}")
        return 0
    entries = [e for e in old if e["game"] in names]
    bad = check(entries)
    print(f"{len(entries) - bad} match, {bad} mismatch")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
