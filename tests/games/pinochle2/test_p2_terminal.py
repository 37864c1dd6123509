"""Terminal play of a whole deal through the generic loop with the pinochle2 view."""

from __future__ import annotations

import io
from collections.abc import Iterator

from rich.console import Console

from cardplaza.cli.terminal import play_terminal
from cardplaza.games.pinochle2.engine import Options


def _inputs() -> Iterator[str]:
    yield "help"
    yield "xyzzy"
    yield "7h"
    while True:
        yield "1"


def test_a_person_can_play_a_whole_deal() -> None:
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    feed = _inputs()
    state = play_terminal("pinochle2", Options(), seed=3, console=console,
                          read=lambda prompt: next(feed))
    text = out.getvalue()
    assert state.is_terminal
    assert "End of the deal" in text and "Total" in text
    assert "not a card or meld name" in text and "not in the Pinochle deck" in text
    assert "Play a card" in text  # help
    assert "wins the trick" in text and "Your hand:" in text


def test_meld_choices_are_numbered() -> None:
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    feed = iter(["1"] * 500)
    for seed in range(40):
        play_terminal("pinochle2", Options(), seed=seed, console=console,
                      read=lambda prompt: next(feed))
        if "You won the trick: choose one meld" in out.getvalue():
            break
    text = out.getvalue()
    assert "You won the trick: choose one meld" in text and ") no meld" in text
    assert "You meld" in text or "You drew" in text
