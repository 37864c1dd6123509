"""The terminal view: a person can play a whole game; trumps, obligations and results show."""

from __future__ import annotations

import io
import random

import pytest
from efudatori_helpers import play, position
from rich.console import Console

from cardplaza.core.protocol import IllegalAction
from cardplaza.games.efudatori import EfudatoriState, Options
from cardplaza.games.efudatori.terminal import View


def run(options: Options, seed: int, inputs: list[str]) -> str:
    """Play a game with the person at seat 0 typing ``inputs`` then always ``1``."""
    buf = io.StringIO()
    console = Console(file=buf, width=110)
    view = View(console, 0)
    s = EfudatoriState(options, seed)
    rng = random.Random(seed)
    pending = list(inputs)
    while not s.is_terminal:
        seat = s.current_player
        legal = s.legal_actions()
        if seat == 0:
            view.show_turn(s, s.observation(0), legal)
            text = pending.pop(0) if pending else "1"
            try:
                action = s.parse_action(text)
                s.apply(action)
            except IllegalAction as exc:
                console.print(str(exc))
                continue
        else:
            action = legal[rng.randrange(len(legal))]
            s.apply(action)
        view.show_action(s, seat, action, s.observation(0))
    view.show_end(s, s.observation(0))
    return buf.getvalue()


@pytest.mark.parametrize("players", [4, 5])
def test_whole_game_in_the_terminal(players: int) -> None:
    """A full game: every trick announces its trump, the result shows ranks."""
    out = run(Options(players=players), 3, ["hello", "9", "Jo"])
    for k in range(1, 50 // players + 1):
        assert f"Trick {k}/" in out
    assert "trump ♣ clubs" in out and "♦ diamonds" in out and "♥ hearts" in out
    assert "Final result" in out and "Rank" in out
    assert "is not a card" in out and "choose a number" in out
    assert "draws the face-down card" in out or "You draw the face-down card" in out
    assert "Face-up draws" in out


def test_obligations_explained() -> None:
    """The Joker's trump obligation and the ♠3's demand are spelled out to the person."""
    buf = io.StringIO()
    view = View(Console(file=buf, width=110), 0)
    s = position(["JH QC 6D 4S", "10H 2S 3S 4D", "5H 8C 3D Jo", "8H KD 9S 2D"], 4, 1)
    play(s, "10H Jo 8H")
    view.show_turn(s, s.observation(0), s.legal_actions())
    out = buf.getvalue()
    assert "You hold a trump: the Joker forces you to play one" in out
    assert "trump ♣ clubs" in out
    buf.truncate(0)
    s = position(["Jo 7S 9H 8D", "4H 6S 7D 5C", "3S 2H 3H 5D", "JS 4D QH 9C"], 6, 2)
    play(s, "3S JS")
    view = View(Console(file=buf, width=110), 0)
    view.show_turn(s, s.observation(0), s.legal_actions())
    assert "you must play the Joker" in buf.getvalue()
    assert "Choices: 1) Jo" in buf.getvalue()


def test_play_terminal_loop() -> None:
    """The shared play loop runs a whole game with this view against level-2 computers."""
    from cardplaza.cli.terminal import play_terminal

    buf = io.StringIO()
    answers = iter(["legal", "help", "nonsense"])
    state = play_terminal("efudatori", Options(players=4), 21, level="2",
                          console=Console(file=buf, width=110),
                          read=lambda prompt: next(answers, "1"))
    assert state.is_terminal
    out = buf.getvalue()
    assert "Final result" in out and "Trick 13/13" in out
    assert "Winner" in out or "Joint winners" in out


def test_obligations_and_reasons_in_japanese() -> None:
    """The Joker's demand, the reasons a card cannot be played, the Joker's name: Japanese."""
    import re

    buf = io.StringIO()
    view = View(Console(file=buf, width=110), 0, lang="ja")
    s = position(["JH QC 6D 4S", "10H 2S 3S 4D", "5H 8C 3D Jo", "8H KD 9S 2D"], 4, 1)
    play(s, "10H Jo 8H")
    view.show_turn(s, s.observation(0), s.legal_actions())
    view.show_history(s, s.observation(0))
    out = buf.getvalue()
    assert "ジョーカーが出ました。切り札を持っているので" in out
    assert "切り札 ♣ クラブ" in out and "ジョーカー" in out
    assert not re.findall(r"[A-Za-z]{2,}", out), out
