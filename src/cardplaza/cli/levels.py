"""Which computer level a terminal game uses.

In order: ``--level`` if given; else the game's own level option (two-hand Pinochle's
``level``: a fixed practice level, or ``streak`` for the winning-streak ladder;
partnership and cut-throat Pinochle's ``strength``); else the strongest level below the
expert one. ``--level`` and a level option that disagree are refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardplaza.core.registry import GameSpec

STREAK_GAME = "pinochle2"


@dataclass(frozen=True)
class LevelChoice:
    """The level of the computers, and whether the game is on the streak ladder."""

    level: str
    streak: bool = False


def level_names(spec: GameSpec) -> list[str]:
    """Every level ``--level`` accepts for a game, weakest first (``random`` first)."""
    return ["random", *[lv for lv in spec.levels if lv != "random"]]


def default_level(spec: GameSpec) -> str:
    """The strongest level below an expert one, or the only level."""
    levels = [lv for lv in spec.levels if lv not in ("expert", "5")]
    return levels[-1] if levels else spec.levels[-1]


def option_level(spec: GameSpec, options: Any) -> LevelChoice | None:
    """The level the game's own options ask for, or ``None`` if they have no such option."""
    fixed = getattr(options, "level", None)
    if spec.name == STREAK_GAME and isinstance(fixed, str):
        if fixed == "streak":
            return LevelChoice("1", streak=True)
        return LevelChoice(fixed)
    strength = getattr(options, "strength", None)
    if isinstance(strength, str) and strength in spec.levels:
        return LevelChoice(strength)
    return None


def choose_level(spec: GameSpec, options: Any, level: str | None,
                 options_named: set[str] | None = None) -> LevelChoice:
    """The level of a terminal game; ``ValueError`` with the reason if it is wrong.

    ``options_named`` are the option names the person typed: only those can disagree with
    ``--level`` (a default option value gives way to ``--level``).
    """
    names = level_names(spec)
    if level is not None and level not in names:
        raise ValueError(f"unknown level {level!r} for {spec.name}; levels: "
                         f"{', '.join(names)}")
    from_options = option_level(spec, options)
    named = options_named or set()
    if level is None:
        return from_options or LevelChoice(default_level(spec))
    if from_options is not None and named & {"level", "strength"} \
            and not from_options.streak and from_options.level != level:
        key = "level" if "level" in named else "strength"
        raise ValueError(f"--level {level} and the option {key}={from_options.level} "
                         "disagree: give one of them")
    return LevelChoice(level)
