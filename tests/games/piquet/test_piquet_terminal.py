"""A person can play a whole partie of Piquet in the terminal."""

from __future__ import annotations

import io
import random
import re

import pytest
from rich.console import Console

from cardplaza.cli.terminal import play_terminal
from cardplaza.core.registry import get_game
from cardplaza.games.piquet.options import Options
from cardplaza.games.piquet.state import PiquetState


def _run(opts: Options, seed: int, lang: str = "en") -> tuple[PiquetState, str]:
    console = Console(file=io.StringIO(), width=110)
    rng = random.Random(seed)
    spec = get_game("piquet")
    holder: list[PiquetState] = []
    state = PiquetState(opts, seed)
    holder.append(state)

    def read(prompt: str) -> str:
        st = holder[0]
        if rng.random() < 0.03:
            return rng.choice(["nonsense", "discard Z♠", "play", "help", "legal"])
        legal = st.legal_actions()
        if len(legal) == 1 and rng.random() < 0.5:
            return ""
        return st.action_text(legal[rng.randrange(len(legal))])

    original = spec.new_state
    object.__setattr__(spec, "new_state", lambda o, s: holder[0])
    try:
        final = play_terminal("piquet", opts, seed, console=console, read=read, lang=lang)
    finally:
        object.__setattr__(spec, "new_state", original)
    assert isinstance(final, PiquetState)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    return final, out


def test_terminal_whole_partie_default() -> None:
    """A full partie: exchange, dialogue in words, running scores, sheet and Rubicon."""
    final, out = _run(Options(), 7)
    assert final.is_terminal
    assert "Deal 6/6" in out
    assert "Point of" in out and ("“Good”" in out or "“Not good”" in out)
    assert "You discarded" in out and "Trick 12" in out
    assert "Score sheet" in out and "wins the partie" in out
    assert "Traceback" not in out


def test_terminal_sinking_and_untaken_shown() -> None:
    """Sinking choices and the O2 reveal are shown in words."""
    final, out = _run(Options(sinking=True, show_untaken=True), 3)
    assert final.is_terminal
    assert "“Pass”" in out or "“Good”" in out
    assert "The untaken talon is shown" in out or "exchanges" in out


# Words a person types (commands, the moves the help quotes): the only Latin words a
# Japanese screen may show.
TYPED = {"help", "quit", "exit", "hint", "helper", "odds", "legal", "moves", "tricks",
         "history", "undo", "rules", "cardplaza", "piquet", "lang", "ja", "discard", "add",
         "none", "good", "not", "making", "equal", "bid", "pass", "play", "as", "10h", "7c", "8d",
         "9d"}


@pytest.mark.parametrize("opts", [Options(), Options(sinking=True, show_untaken=True,
                                                     carte_rouge=True),
                                  Options(au_cent=True), Options(four_deals=True)],
                         ids=["default", "sinking", "au_cent", "four_deals"])
def test_a_partie_in_japanese_has_no_english_word(opts: Options) -> None:
    """Every declaration, combination, score label, trick and result in Japanese."""
    final, out = _run(opts, 11, lang="ja")
    assert final.is_terminal
    english = sorted(set(re.findall(r"[A-Za-z]{2,}", out)) - TYPED)
    assert not english, english
    assert "トリック1：" in out and "得点表" in out
