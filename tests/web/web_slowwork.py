"""Worker functions for the web tests (importable by name in worker processes)."""

from __future__ import annotations

import time
from typing import Any


def slow_hint(game: str, observation: dict[str, Any], legal: list[Any],
              seconds: float) -> dict[str, Any]:
    """A hint that takes its time (as an expert's search does), naming the first action."""
    time.sleep(0.8)
    return {"best": legal[0], "choices": [], "slow": True}


def echo(value: Any) -> Any:
    """Answer at once."""
    return value


def quick_hint(game: str, observation: dict[str, Any], legal: list[Any],
               seconds: float) -> dict[str, Any]:
    """A hint at once, naming the first action."""
    return {"best": legal[0], "choices": [], "slow": False}


def no_review(record: dict[str, Any], seat: int, index: int, seconds: float) -> None:
    """A reviewed decision that turned out not to be a real choice (at once)."""
    return


def nap(seconds: float) -> float:
    """Sleep, then answer."""
    time.sleep(seconds)
    return seconds


def quick_helper(game: str, observation: dict[str, Any], legal: list[Any],
                 seconds: float) -> None:
    """No decision helper's table (at once)."""
