"""Whole games through a pseudo-terminal, one per game, as a person plays them: commands
(`tricks`, `undo`, `help`, `legal`) between moves, colours, the result and "play again"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pty_driver import PtySession, play_through

from cardplaza.core.history import GameRecord

RED_HEART = "\x1b[1;31m"

GAMES = [
    ("pinochle2", ["--seed", "3", "--level", "1"], "The computer wins|You win|Draw"),
    ("pinochle4", ["--seed", "2", "--level", "random", "--options", "target=500"],
     "Game over"),
    ("pinochle3", ["--seed", "5", "--level", "random", "--options", "target=500"],
     "Game over"),
    ("piquet", ["--seed", "7", "--level", "1"], "wins the partie|Draw"),
    ("efudatori", ["--seed", "21", "--level", "1"], "Final result"),
    ("pinochle_dd", ["--seed", "4", "--level", "random", "--options", "target=250"],
     "Game over"),
]


@pytest.mark.parametrize(("game", "args", "end"), GAMES, ids=[g[0] for g in GAMES])
def test_a_whole_game_at_a_terminal(game: str, args: list[str], end: str,
                                    tmp_path: Path) -> None:
    """Play to the end with the first choice each time, asking for the trick history, an
    undo, the help and the list on the way; the record replays to the same result."""
    save = tmp_path / "game.json"
    session = PtySession(["play", game, *args, "--save", str(save)])
    try:
        play_through(session, extra={0: "tricks", 1: "legal", 2: "help", 4: "undo",
                                     6: "undo", 8: "tricks", 9: "nonsense"})
        code = session.wait()
    finally:
        session.close()
    text = session.text
    assert code == 0, text[-2000:]
    assert "Traceback" not in text
    assert "Taken back: your" in text          # undo worked
    assert "Type 'help'" in text and "The rules in short" in text
    assert "so far" in text                    # the tricks command
    import re
    assert re.search(end, text), text[-1500:]
    assert "Used: undo 2×" in text
    assert RED_HEART in session.raw            # hearts and diamonds in red
    assert "\x1b[1;36m" not in session.raw     # no automatic cyan numbers
    record = GameRecord.load(save)
    final = record.final_state()
    assert final.is_terminal
    assert json.loads(save.read_text())["players"][0]["kind"] == "human"


def test_two_hand_streak_game_refuses_undo_and_counts(tmp_path: Path) -> None:
    """On the ladder: the streak and level are shown, undo is refused, the result counts."""
    book = tmp_path / "streak.json"
    session = PtySession(["play", "pinochle2", "--streak-file", str(book)])
    try:
        play_through(session, extra={1: "undo"})
        session.wait()
    finally:
        session.close()
    text = session.text
    assert "level 1 of the ladder" in text
    assert "No undo in a streak game" in text
    assert "Streak:" in text or "The streak ends" in text
    saved = json.loads(book.read_text())
    assert set(saved) == {"streak", "margin_sum", "best"}


def test_ctrl_c_saves_the_unfinished_game(tmp_path: Path) -> None:
    """Ctrl-C at a prompt stops the game and saves what was played."""
    save = tmp_path / "cut.json"
    session = PtySession(["play", "efudatori", "--seed", "4", "--level", "1",
                          "--save", str(save)])
    try:
        session.expect(r"> $")
        session.send("1")
        session.expect(r"> $")
        session.interrupt()
        session.expect("Interrupted")
        session.expect(r"History saved to [\s\S]*?unfinished\s+game")  # a long path wraps
        session.wait()
    finally:
        session.close()
    record = GameRecord.load(save)
    assert record.actions and record.result is None


def test_quit_asks_first(tmp_path: Path) -> None:
    """`q` asks; `n` goes on, `y` stops."""
    session = PtySession(["play", "piquet", "--seed", "3", "--level", "1"])
    try:
        session.expect(r"> $")
        session.send("q")
        session.expect(r"Quit this game\? \(y/n\) $")
        session.send("n")
        session.expect("Go on, then.")
        session.expect(r"> $")
        session.send("q")
        session.expect(r"\(y/n\) $")
        session.send("y")
        session.expect("Game abandoned")
        assert session.wait() == 0
    finally:
        session.close()


def test_play_again_passes_the_efudatori_deal_left() -> None:
    """E-2: the second game's dealer sits left of the first's."""
    session = PtySession(["play", "efudatori", "--seed", "6", "--level", "1"])
    try:
        first = session.expect(r"(You\s+deal|(\w+)\s+deals),\s+so")
        for _ in range(400):
            m = session.expect(r"> $|Play again\? \(y/n\) $", timeout=120)
            if "Play again" in m.group(0):
                break
            session.send("#1")
        session.send("y")
        second = session.expect(r"(You\s+deal|(\w+)\s+deals),\s+so")
        session.expect(r"> $")
        session.send("q")
        session.expect(r"\(y/n\) $")
        session.send("y")
        session.wait()
    finally:
        session.close()
    order = ["You", "West", "North", "East"]
    d1 = "You" if first.group(1).startswith("You") else first.group(2)
    d2 = "You" if second.group(1).startswith("You") else second.group(2)
    assert order.index(d2) == (order.index(d1) + 1) % 4
