"""The Pinochle games' terminal views in the player's language: a whole game of each in a
pseudo-terminal shows no English word on a Japanese screen and no Japanese on an English
one; hands are grouped by suit with trump first and each suit high to low; the turn-up card
taken into a two-hand hand is marked; the cut-throat auction's table is drawn once a deal;
"no meld" is offered only when a meld can be made."""

from __future__ import annotations

import io
import random
import re
from typing import Any

import pytest
from pty_driver import PtySession
from rich.console import Console

from cardplaza.cli.terminal import play_terminal
from cardplaza.cli.view import ViewBase
from cardplaza.core import new_game
from cardplaza.core.registry import get_game
from cardplaza.games.pinochle2.engine import NO_MELD
from cardplaza.games.pinochle_common.view_parts import hand_groups, play_line, won_line
from cardplaza.texts.catalog import text

GAMES = [
    ("pinochle2", ["--seed", "3", "--level", "1"]),
    ("pinochle4", ["--seed", "2", "--level", "random", "--options", "target=500"]),
    ("pinochle3", ["--seed", "5", "--level", "random", "--options", "target=500"]),
    ("pinochle_dd", ["--seed", "4", "--level", "random", "--options", "target=250"]),
]

TYPED = {"help", "legal", "tricks", "undo", "hint", "helper", "rules", "quit", "pass", "bid",
         "trump", "play", "meld", "no", "run", "royal", "marriage", "kings", "around", "dix",
         "throw", "in", "qs", "th", "discard", "good", "moves", "history", "exit", "odds",
         "cardplaza", "lang", "ja", "random", "pinochle", "dd"}
"""Words a player types (commands and their other names, moves as typed, the game's name
and the level given on the command line), which a Japanese screen quotes as typed."""

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uff01-\uff60]")


def _play(game: str, args: list[str], lang: str) -> str:
    """A whole game with the first choice at each prompt (and the trick history and the
    help asked for on the way); the screen's text."""
    session = PtySession(["play", game, *args, "--lang", lang])
    extra = {1: "tricks", 3: "help", 5: "legal"}
    try:
        for k in range(3000):
            m = session.expect(r"> $|\(y/n\) $", timeout=120)
            if m.group(0).startswith("("):
                session.send("n")
                break
            session.send(extra.get(k, "#1"))
        else:
            raise AssertionError("the game did not end")
        assert session.wait() == 0
    finally:
        session.close()
    return session.text


@pytest.mark.parametrize(("game", "args"), GAMES, ids=[g for g, _ in GAMES])
def test_a_whole_game_in_japanese_shows_no_english(game: str, args: list[str]) -> None:
    shown = _play(game, args, "ja")
    assert "Traceback" not in shown
    assert text("cli.pin.act.pass", "ja") in shown or game == "pinochle2"
    words = {w for w in re.findall(r"[A-Za-z]{2,}", shown) if w.lower() not in TYPED}
    assert not words, sorted(words)
    assert "トリックを取る" in shown          # the trick lines, in Japanese


@pytest.mark.parametrize(("game", "args"), GAMES, ids=[g for g, _ in GAMES])
def test_a_whole_game_in_english_shows_no_japanese(game: str, args: list[str]) -> None:
    shown = _play(game, args, "en")
    assert "Traceback" not in shown
    assert not JAPANESE.findall(shown), sorted(set(JAPANESE.findall(shown)))
    assert re.search(r"\b(You lead|\S+ leads) (10|[AKQJ9])[♠♥♦♣]", shown)
    assert re.search(r"\b(You play|\S+ plays) (10|[AKQJ9])[♠♥♦♣]", shown)
    assert re.search(r"wins? the trick \(\+\d+\)", shown)


# -- the hand's order ---------------------------------------------------------------------

CARD = re.compile(r"(10|[AKQJ9])([♠♥♦♣])")
RANKS = ["A", "10", "K", "Q", "J", "9"]
SUITS = "♠♥♦♣"


def _console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=200, color_system=None), out


def _to_play(game: str, seed: int) -> Any:
    """A state where seat 0 chooses a card to play, with trump named."""
    state = new_game(game, seed=seed)
    rng = random.Random(seed)
    while True:
        obs = state.observation(0)
        if state.current_player == 0 and obs["phase"] in ("play", "stock", "playoff") \
                and obs.get("step", "play") != "meld" and len(state.legal_actions()) > 1:
            return state
        state.apply(rng.choice(state.legal_actions()))


def _assert_grouped(cards: list[tuple[str, str]], trump: str) -> None:
    suits = [s for _, s in cards]
    runs = [s for i, s in enumerate(suits) if i == 0 or suits[i - 1] != s]
    assert len(runs) == len(set(runs)), f"a suit split in two: {cards}"
    if trump in suits:
        assert runs[0] == trump, f"trump {trump} not first: {cards}"
    others = [s for s in runs if s != trump]
    assert others == sorted(others, key=SUITS.index)
    for s in runs:
        ranks = [RANKS.index(r) for r, t in cards if t == s]
        assert ranks == sorted(ranks), f"{s} not high to low: {cards}"


@pytest.mark.parametrize("game", ["pinochle2", "pinochle4", "pinochle3"])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_hand_and_the_card_menu_are_grouped_with_trump_first(game: str, lang: str) -> None:
    for seed in (1, 2, 3):
        state = _to_play(game, seed)
        obs = state.observation(0)
        console, out = _console()
        view = get_game(game).hook("terminal")(console, 0, lang=lang)
        view.show_turn(state, obs, state.legal_actions())
        label = text("cli.pin.p2.your_hand" if game == "pinochle2" else "cli.pin.your_hand",
                     lang, cards="")
        line = next(ln for ln in out.getvalue().splitlines() if ln.startswith(label))
        hand = CARD.findall(line)
        shown = obs["concealed"] if game == "pinochle2" else obs["hand"]
        assert len(hand) == len(shown)
        trump = SUITS[obs["trump"]]
        _assert_grouped(hand, trump)
        menu = view.menu(state, obs, state.legal_actions())
        faces = [CARD.fullmatch(state.action_text(a).removeprefix("play ").split("#")[0])
                 for a in menu]
        _assert_grouped([m.groups() for m in faces if m], trump)


def test_double_deck_hand_lines_put_trump_first() -> None:
    from cardplaza.games.pinochle_dd.terminal import hand_lines

    state = _to_play("pinochle_dd", 2)
    obs = state.observation(0)
    lines = hand_lines(obs["hand"], obs["trump"])
    assert lines[0].lstrip().startswith(SUITS[obs["trump"]]) or \
        SUITS[obs["trump"]] in lines[0]
    assert "*" in lines[0] and not any("*" in ln for ln in lines[1:])
    for ln in lines:
        ranks = re.findall(r"10|[AKQJ]", ln.split("  ", 3)[-1])
        assert [RANKS.index(r) for r in ranks] == sorted(RANKS.index(r) for r in ranks)


def test_hand_groups_order() -> None:
    cards = [(s, r) for s in range(4) for r in (0, 5, 3, 4)]
    groups = hand_groups(list(range(16)), 2, lambda c: cards[c][0], lambda c: cards[c][1])
    assert [s for s, _ in groups] == [2, 0, 1, 3]
    assert [cards[c][1] for c in groups[0][1]] == [5, 4, 3, 0]


# -- two-hand: the turn-up card -----------------------------------------------------------

def _with_turn_up() -> Any:
    """Two-hand, seed 9, random play: after the computer melds the dix and takes the
    turn-up … the person holds the turn-up J♠ and its twin, both playable."""
    state = new_game("pinochle2", seed=9)
    rng = random.Random(9)
    while not state.is_terminal:
        obs = state.observation(0)
        took = [r["card"] for r in obs["reveals"]
                if r["seat"] == 0 and r["how"] == "dix exchange"]
        legal = state.legal_actions()
        if state.current_player == 0 and took and took[0] in legal \
                and (took[0] + 24) % 48 in legal:
            return state, took[0]
        state.apply(rng.choice(legal))
    raise AssertionError("no position with the turn-up and its twin")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_turn_up_copy_is_marked(lang: str) -> None:
    state, card = _with_turn_up()
    obs = state.observation(0)
    console, out = _console()
    view = get_game("pinochle2").hook("terminal")(console, 0, lang=lang)
    view.show_turn(state, obs, state.legal_actions())
    face = state.action_text(card).removeprefix("play ").split("#")[0]
    mark = text("cli.pin.p2.mark", lang, what=text("cli.pin.p2.mark.turn_up", lang))
    shown = out.getvalue()
    hand_line = next(ln for ln in shown.splitlines()
                     if ln.startswith(text("cli.pin.p2.your_hand", lang)))
    menu_line = next(ln for ln in shown.splitlines()
                     if ln.startswith(text("cli.pin.p2.play", lang)))
    for line in (hand_line, menu_line):
        assert line.count(face) == 2, line          # both copies …
        assert line.count(mark) == 1, line          # … one of them marked
        assert face + mark in line
    menu = view.menu(state, obs, state.legal_actions())
    number = re.search(r"(\d+)\) " + re.escape(face + mark), menu_line)
    assert number and menu[int(number.group(1)) - 1] == card


# -- cut-throat: the auction's table once -------------------------------------------------

def test_the_cut_throat_bidding_table_is_drawn_once_a_deal() -> None:
    out = io.StringIO()
    console = Console(file=out, width=160, color_system=None)
    bids = iter(["#2"] * 6 + ["quit", "y"])

    def read(prompt: str) -> str:
        out.write(prompt + "\n")
        return next(bids, "y")

    options = get_game("pinochle3").options_type()
    play_terminal("pinochle3", options, 11, "random", console=console, read=read)
    shown = out.getvalue()
    auction = shown.split(" wins the auction at ")[0]
    turns = auction.count("\n> ")
    assert turns >= 2, "the person bid at least twice in the first auction"
    assert auction.count(text("cli.pin.helper.bidding", "en")) == 1
    assert auction.count("Hand 1 — dealer") == 1
    assert auction.count("Your hand:") == 1
    assert auction.count("1) pass  2) bid") == turns   # each turn: the choices …
    assert auction.count("South (you): bids ") == turns  # … and the bids since


# -- two-hand: "no meld" only with a meld to make -----------------------------------------

def test_no_meld_is_offered_only_when_a_meld_can_be_made() -> None:
    console, _ = _console()
    view = get_game("pinochle2").hook("terminal")(console, 0)
    meld_step = play_step = None
    for seed in range(40):
        state = new_game("pinochle2", seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal and (meld_step is None or play_step is None):
            obs = state.observation(0)
            legal = state.legal_actions()
            if state.current_player == 0:
                if obs["step"] == "meld" and len(legal) > 1 and meld_step is None:
                    meld_step = (state.clone(), obs)
                elif obs["step"] != "meld" and play_step is None:
                    play_step = (state.clone(), obs)
            state.apply(rng.choice(legal))
        if meld_step and play_step:
            break
    assert meld_step and play_step
    state, obs = meld_step
    menu = view.menu(state, obs, state.legal_actions())
    assert NO_MELD in menu and "no meld" in view.help_text()
    state, obs = play_step
    view.menu(state, obs, state.legal_actions())
    assert "no meld" not in view.help_text()


def test_trick_lines_are_worded_alike() -> None:
    console, _ = _console()
    en, ja = ViewBase(console, 0), ViewBase(console, 0, lang="ja")
    assert play_line(en, "South", "A♠", lead=True) == "South leads A♠"
    assert play_line(en, "West", "10♠", lead=False) == "West plays 10♠"
    assert won_line(en, "North", 20) == "North wins the trick (+20)"
    assert play_line(en, "You", "A♠", lead=True, you=True) == "You lead A♠"
    assert won_line(ja, "北", 20) == "北がトリックを取る（+20）"


@pytest.mark.parametrize("game", ["pinochle2", "pinochle4", "pinochle3", "pinochle_dd"])
def test_every_choice_has_words_in_each_language(game: str) -> None:
    """The views name any move in the player's language (for lines such as an undo's)."""
    state = new_game(game, seed=5)
    rng = random.Random(5)
    seen = 0
    while not state.is_terminal and seen < 300:
        for lang in ("en", "ja"):
            console, _ = _console()
            view = get_game(game).hook("terminal")(console, 0, lang=lang)
            for a in state.legal_actions():
                words = view.action_words(state, a)
                assert words and "[" not in words
                if lang == "ja":
                    assert not re.search(r"[A-Za-z]{2,}", words), words
                else:
                    assert not JAPANESE.search(words), words
        state.apply(rng.choice(state.legal_actions()))
        seen += 1
