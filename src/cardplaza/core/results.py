"""Statistics per player and game: games played, won, lost, average margin, best result per
computer level.

A finished game gives one :class:`GameResult` per person at the table; :func:`summarize`
folds results into one row per (player, game). The margin is the player's final score minus
the best score among the opponents (partners share their side's score), so a win has a
positive margin. The best result at a level is the game with the largest margin there.

>>> rs = [GameResult("k", "Ann", "piquet", "expert", "win", 12.0, 12.0, 1.0),
...       GameResult("k", "Ann", "piquet", "expert", "loss", -4.0, -4.0, 2.0),
...       GameResult("k", "Ann", "piquet", "4", "win", 30.0, 30.0, 3.0)]
>>> row = summarize(rs)[0]
>>> row["played"], row["won"], row["lost"], row["average_margin"]
(3, 2, 1, 12.67)
>>> row["best"]["expert"]["margin"], row["best"]["4"]["margin"]
(12.0, 30.0)
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from cardplaza.core.protocol import GameState

PARTNERSHIP_GAMES = frozenset({"pinochle4"})
"""Games whose seats across the table share one score."""


@dataclass(frozen=True)
class GameResult:
    """One person's result of one finished game."""

    player: str
    """The player's key (the browser's secret key, or a name in the terminal)."""
    name: str
    game: str
    level: str
    """The computer level(s) played against (``"expert"``, ``"normal/expert"`` …)."""
    outcome: str
    """``win``, ``loss`` or ``draw``."""
    margin: float
    score: float
    finished: float
    hinted: bool = False
    """Whether the player asked for hints (or a decision helper) during the game."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameResult:
        """Inverse of :meth:`to_json`."""
        return cls(str(data["player"]), str(data.get("name", data["player"])),
                   str(data["game"]), str(data.get("level", "")), str(data["outcome"]),
                   float(data["margin"]), float(data["score"]),
                   float(data.get("finished", 0.0)), bool(data.get("hinted", False)))


def opponents_of(game: str, seat: int, seats: int) -> list[int]:
    """The seats playing against ``seat`` (partners share a side in four-hand Pinochle)."""
    if game in PARTNERSHIP_GAMES and seats == 4:
        return [s for s in range(seats) if s % 2 != seat % 2]
    return [s for s in range(seats) if s != seat]


def result_of(state: GameState, seat: int, player: str, name: str, level: str,
              finished: float | None = None, hinted: bool = False) -> GameResult:
    """The result of ``seat`` in a finished game."""
    if not state.is_terminal:
        raise ValueError("the game is not over")
    returns = state.returns()
    own = float(returns[seat])
    best_other = max(float(returns[s]) for s in opponents_of(state.game_name, seat,
                                                              state.num_players))
    winners = state.winners()
    if seat in winners and len(winners) < state.num_players and not any(
            s in winners for s in opponents_of(state.game_name, seat, state.num_players)):
        outcome = "win"
    elif seat in winners:
        outcome = "draw"
    else:
        outcome = "loss"
    return GameResult(player, name, state.game_name, level, outcome, own - best_other, own,
                      time.time() if finished is None else finished, hinted)


def summarize(results: Iterable[GameResult], player: str | None = None) -> list[dict[str, Any]]:
    """One row per (player, game), most played first; ``hinted`` counts the games played
    with hints, and each best result says whether it was one."""
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for r in results:
        if player is not None and r.player != player:
            continue
        row = rows.setdefault((r.player, r.game), {
            "player": r.player, "name": r.name, "game": r.game, "played": 0, "won": 0,
            "lost": 0, "drawn": 0, "hinted": 0, "margin_sum": 0.0, "best": {}, "last": 0.0})
        row["played"] += 1
        row["hinted"] += int(r.hinted)
        row["won" if r.outcome == "win" else "lost" if r.outcome == "loss" else "drawn"] += 1
        row["margin_sum"] += r.margin
        if r.finished >= row["last"]:
            row["last"], row["name"] = r.finished, r.name
        best = row["best"].get(r.level)
        if best is None or r.margin > best["margin"]:
            row["best"][r.level] = {"margin": r.margin, "score": r.score,
                                    "outcome": r.outcome, "finished": r.finished,
                                    "hinted": r.hinted}
    out = []
    for row in rows.values():
        row["average_margin"] = round(row.pop("margin_sum") / row["played"], 2)
        row["best"] = dict(sorted(row["best"].items()))
        out.append(row)
    out.sort(key=lambda r: (-r["played"], r["game"], r["player"]))
    return out


class ResultLog:
    """Results kept as JSON lines in a file (terminal play keeps its own this way)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def add(self, result: GameResult) -> None:
        """Append one result."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(result.to_json(), ensure_ascii=False) + "\n")

    def results(self) -> list[GameResult]:
        """Every result, skipping lines that do not parse."""
        if not self.path.exists():
            return []
        out = []
        for line in self.path.read_text(encoding="utf-8").splitlines():
            try:
                out.append(GameResult.from_json(json.loads(line)))
            except (ValueError, KeyError, TypeError):
                continue
        return out


__all__ = ["PARTNERSHIP_GAMES", "GameResult", "ResultLog", "opponents_of",
           "result_of", "summarize"]
