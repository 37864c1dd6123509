"""Worker functions for the web tests (importable by name in worker processes)."""

from __future__ import annotations

import time
from typing import Any

from cardplaza.ai.advice import Choice, Evaluation
from cardplaza.ai.analysis import Analysis, position_key


def _analysis(observation: dict[str, Any], legal: list[Any], seat: int, step: int,
              slow: bool) -> Analysis:
    """An analysis whose hint names the first action."""
    ev = Evaluation("play", "points", [Choice(a, 0.0) for a in legal], legal[0]) \
        if legal else None
    made = Analysis(seat, step, position_key(seat, step, observation), ev, None,
                    {"en": "", "ja": ""})
    if legal:
        made.forms["hint"] = {"best": legal[0], "choices": [], "slow": slow}
    return made


def slow_hint(game: str, observation: dict[str, Any], legal: list[Any], base: str,
              seat: int, step: int, seconds: float) -> Analysis:
    """A hint that takes its time (as an expert's search does), naming the first action."""
    time.sleep(0.8)
    return _analysis(observation, legal, seat, step, True)


def echo(value: Any) -> Any:
    """Answer at once."""
    return value


def quick_hint(game: str, observation: dict[str, Any], legal: list[Any], base: str,
               seat: int, step: int, seconds: float) -> Analysis:
    """A hint at once, naming the first action (no decision helper's table)."""
    return _analysis(observation, legal, seat, step, False)


def no_review(record: dict[str, Any], seat: int, index: int, seconds: float, base: str,
              analysis: Analysis | None) -> None:
    """A reviewed decision that turned out not to be a real choice (at once)."""
    return


def nap(seconds: float) -> float:
    """Sleep, then answer."""
    time.sleep(seconds)
    return seconds
