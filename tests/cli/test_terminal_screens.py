"""Whole games of Piquet and E-fuda-tori at a pseudo-terminal, as a person sees them:
Japanese screens hold no English word, English screens no Japanese, and the table is
redrawn in place (the screen is cleared before each decision, and no screen is taller
than the terminal, so nothing scrolls away move after move)."""

from __future__ import annotations

import re

import pytest
from pty_driver import PtySession, strip_ansi

LINES = 50
CLEAR = "\x1b[2J"

GAMES = {
    "piquet": ["--seed", "5", "--level", "1", "--options", "four_deals=on"],
    "efudatori": ["--seed", "8", "--level", "1"],
}

# What a person types (command words, card letters, the typed moves the screens quote as
# examples): the only Latin words a Japanese screen may show.
TYPED = {"help", "quit", "exit", "hint", "helper", "odds", "legal", "moves", "tricks",
         "history", "undo", "rules", "cardplaza", "piquet", "efudatori", "lang", "ja",
         "discard", "add", "none", "good", "not", "making", "equal", "bid", "pass", "Jo", "QH",
         "TD", "as", "10h", "10d", "7c", "8d", "9d"}
FIRST = ["help", "tricks", "legal", "rules"]
"""Typed at the first prompts, so their screens are read too."""
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]")


def _play(game: str, lang: str) -> PtySession:
    session = PtySession(["play", game, *GAMES[game], "--lang", lang],
                         env={"LINES": str(LINES)})
    try:
        again = "もう一度遊びますか" if lang == "ja" else "Play again"
        for k in range(400):
            m = session.expect(r"> $|\(y/n\) $", timeout=120)
            if again in session.text[max(0, m.start() - 80):m.end()]:
                session.send("n")
                break
            session.send(FIRST[k] if k < len(FIRST) else "#1")
        else:
            raise AssertionError("the game did not end")
        assert session.wait() == 0
    finally:
        session.close()
    return session


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_japanese_game_shows_no_english_word(game: str) -> None:
    session = _play(game, "ja")
    text = session.text
    assert "Traceback" not in text
    english = sorted({w for w in LATIN_WORD.findall(text) if w not in TYPED})
    assert not english, english
    assert JAPANESE.search(text)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_an_english_game_shows_no_japanese(game: str) -> None:
    session = _play(game, "en")
    text = session.text
    assert "Traceback" not in text
    assert not JAPANESE.findall(text), sorted(set(JAPANESE.findall(text)))
    assert re.search(r"wins the trick|win the trick", text)


def test_the_table_is_redrawn_in_place() -> None:
    """Before each decision the screen is cleared and the cursor sent home; what is drawn
    between two clears fits the terminal, so the scrollback does not grow per move."""
    session = _play("efudatori", "en")
    screens = session.raw.split(CLEAR)
    assert len(screens) > 5                        # one screen per decision
    for screen in screens[1:]:
        assert screen.startswith("\x1b[H")         # drawn from the top left
        shown = strip_ansi(screen)
        before_prompt = shown.split("\n> ")[0]
        assert before_prompt.count("\n") < LINES, before_prompt


def test_piped_play_scrolls_plainly(tmp_path: object) -> None:
    """Without a terminal nothing is cleared: every line is printed once, in order."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "cardplaza", "play", "efudatori",
                          *GAMES["efudatori"]], input="#1\n" * 60 + "n\n", text=True,
                         capture_output=True, timeout=300, check=False).stdout
    assert CLEAR not in out and "\x1b[H" not in out
    assert "Trick 1:" in out and "Final result" in out


def test_a_redrawn_auction_turn_shows_the_whole_table() -> None:
    """When each turn is drawn on a fresh screen, a later turn of the cut-throat auction
    shows the hand and the bids again (piped, they are printed once a deal)."""
    session = PtySession(["play", "pinochle3", "--seed", "3", "--level", "weak"],
                         env={"LINES": str(LINES)})
    try:
        for _ in range(3):
            session.expect(r"> $", timeout=120)
            session.send("#2")  # the lowest bid
        session.expect(r"> $", timeout=120)
        session.send("quit")
        session.expect(r"\(y/n\) $", timeout=60)
        session.send("y")
        session.wait()
    finally:
        session.close()
    screens = [strip_ansi(s) for s in session.raw.split(CLEAR)[1:]]
    auction = [s for s in screens if "1) pass" in s]
    assert len(auction) >= 2, screens
    for screen in auction:
        assert "Your hand:" in screen and "Bids:" in screen, screen
