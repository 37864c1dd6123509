"""Terminal play in every game: the command framework, undo, the trick history, the input
grammar, forced moves, what each game's view says, colours, and "play again"."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from rich.console import Console

from cardplaza.cli.commands import Command, Outcome, find_command, register_command
from cardplaza.cli.style import make_console
from cardplaza.cli.terminal import Session, play_series, play_terminal
from cardplaza.core.registry import GameSpec, get_game

GAMES = ["pinochle2", "pinochle4", "pinochle3", "piquet", "efudatori", "pinochle_dd"]
FIRST = {"piquet": "1"}  # Piquet's exchange has no list: "1" discards the first card


def _console(buf: io.StringIO, colour: bool = False) -> Console:
    if colour:
        return make_console(file=buf, width=110, force_terminal=True, color_system="standard")
    return make_console(file=buf, width=110, color_system=None)


def _session(game: str, read: Callable[[str], str], seed: int = 3,
             options: Any = None, buf: io.StringIO | None = None, **kw: Any) -> Session:
    spec = get_game(game)
    opts = spec.options_type() if options is None else options
    return Session(spec, opts, seed, "random", _console(buf or io.StringIO()), read, **kw)


def _reader(answers: list[str]) -> Callable[[str], str]:
    feed = iter(answers)
    return lambda prompt: next(feed)


def _snapshot(session: Session) -> tuple[str, list[Any]]:
    return (json.dumps(session.observation, sort_keys=True),
            list(session.state.legal_actions()))


# -- undo ----------------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_undo_returns_to_the_state_before_your_last_decision(game: str) -> None:
    """After two decisions, undo: same observation and legal actions as before the second;
    the moves before it (the computers' too) are kept."""
    snaps: list[tuple[str, list[Any], list[Any]]] = []
    after: list[tuple[str, list[Any], list[Any]]] = []
    holder: list[Session] = []

    def read(prompt: str) -> str:
        s = holder[0]
        if "(y/n)" in prompt:
            return "y"
        if len(snaps) == 2 and not after:
            after.append((*_snapshot(s), list(s.state.history)))
            return "undo"
        if after and len(after) == 1:
            after.append((*_snapshot(s), list(s.state.history)))
            s.stopped = "test"
            return "#1"
        snaps.append((*_snapshot(s), list(s.state.history)))
        return FIRST.get(game, "#1")

    session = _session(game, read)
    holder.append(session)
    session.run()
    obs, legal, history = after[1]
    assert (obs, legal) == snaps[1][:2]
    assert history == snaps[1][2]
    assert after[0][2][:len(history)] == history  # nothing before your decision was undone
    assert session.counters == {"undo": 1}


def test_undo_across_a_hand_boundary() -> None:
    """In the first decision of hand 2, undo goes back to your last decision of hand 1."""
    last_of_hand1: list[tuple[str, list[Any]]] = []
    result: dict[str, Any] = {}
    holder: list[Session] = []

    def read(prompt: str) -> str:
        s = holder[0]
        hand = s.observation["hand_number"]
        if "undone" in result:
            result["after"] = _snapshot(s)
            result["hand"] = hand
            s.stopped = "test"
            return "#1"
        if hand == 1:
            last_of_hand1[:] = [_snapshot(s)]
            return "#1"
        result["undone"] = True
        return "undo"

    session = _session("pinochle4", read, seed=5)
    holder.append(session)
    session.run()
    assert result["hand"] == 1 and result["after"] == last_of_hand1[0]


def test_undo_is_refused_in_a_streak_game(tmp_path: Any) -> None:
    from cardplaza.cli.streak import StreakBook

    buf = io.StringIO()
    answers = iter(["#1", "undo", "q", "y"])
    spec = get_game("pinochle2")
    book = StreakBook(tmp_path / "s.json", _console(buf))
    session = Session(spec, spec.options(), 4, "1", _console(buf), lambda p: next(answers),
                      streak=book)
    session.run()
    assert "No undo in a streak game" in buf.getvalue()
    assert session.counters == {}
    assert len([1 for seat, _ in session.state.history if seat == 0]) >= 1


def test_nothing_to_undo_at_the_first_decision() -> None:
    buf = io.StringIO()
    answers = iter(["undo", "q", "y"])
    _session("efudatori", lambda p: next(answers), buf=buf).run()
    assert "Nothing to undo" in buf.getvalue()


# -- the trick history ---------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_tricks_lists_every_trick_of_the_hand(game: str) -> None:
    """After some tricks, `tricks` shows each with its leader and winner (and the auction)."""
    buf = io.StringIO()
    holder: list[Session] = []
    seen: dict[str, Any] = {}

    def read(prompt: str) -> str:
        s = holder[0]
        tricks = s.observation.get("tricks") or []
        if len(tricks) >= 3 and "asked" not in seen:
            seen["asked"] = True
            seen["tricks"] = tricks
            seen["mark"] = len(buf.getvalue())
            return "tricks"
        if "asked" in seen:
            s.stopped = "test"
        return FIRST.get(game, "#1")

    session = _session(game, read, buf=buf)
    holder.append(session)
    session.run()
    shown = buf.getvalue()[seen["mark"]:]
    for i in range(1, len(seen["tricks"]) + 1):
        assert re.search(rf"Trick\s+{i}\b", shown), shown
    assert (shown.count("→") >= len(seen["tricks"]) or shown.count("won by") >= 3
            or shown.count("the trick") >= len(seen["tricks"]))
    if game.startswith("pinochle") and game != "pinochle2":
        assert "Auction:" in shown and "Contract:" in shown


# -- the input grammar and what is printed -------------------------------------------------

def test_wrong_input_prints_only_the_error() -> None:
    buf = io.StringIO()
    marks: list[int] = []
    answers = iter(["xyzzy", "#99", "q", "y"])

    def read(prompt: str) -> str:
        marks.append(len(buf.getvalue()))
        return next(answers)

    _session("pinochle2", read, buf=buf).run()
    text = buf.getvalue()
    after_first = text[marks[0]:marks[1]]
    after_second = text[marks[1]:marks[2]].strip().splitlines()
    assert after_first.startswith("'xyzzy' is not a card")
    assert "Your hand" not in after_first and "Trick" not in after_first
    assert len(after_second) == 1
    assert re.fullmatch(r"99 is not on the list: choose 1 to \d+", after_second[0])


def test_in_the_auction_a_number_is_a_bid_and_hash_picks_the_list() -> None:
    spec = get_game("pinochle4")
    session = Session(spec, spec.options(), 1, "random", _console(io.StringIO()),
                      lambda p: "")
    while session.state.current_player != 0:
        st = session.state
        st.apply(st.legal_actions()[0])
    menu = session.current_menu()
    lowest = session.state.choices()[1][1]  # type: ignore[attr-defined]
    assert session.parse(str(lowest + 20)) == (5, lowest + 20)
    assert session.parse("#1") == menu[0] and session.parse("#2") == menu[1]
    from cardplaza.core.protocol import IllegalAction

    with pytest.raises(IllegalAction, match="#2 picks item 2"):
        session.parse("2")


@pytest.mark.parametrize("game", GAMES)
def test_legal_shows_the_same_numbered_list_as_the_turn(game: str) -> None:
    """`legal` numbers the choices exactly as the table does (same items, same order)."""
    buf = io.StringIO()
    marks: list[int] = []
    answers = iter(["legal", "q", "y"])

    def read(prompt: str) -> str:
        marks.append(len(buf.getvalue()))
        return next(answers)

    _session(game, read, buf=buf).run()
    text = buf.getvalue()
    turn, listed = text[:marks[0]], text[marks[0]:marks[1]]
    pairs = re.findall(r"(\d+)\) ?([^\s)][^ ]*(?: [^\s\d)][^ ]*)*)", listed)
    assert pairs, listed
    for number, item in pairs:
        assert f"{number}) {item}" in turn or f"{number}){item}" in turn, (number, item)
    assert len(listed.splitlines()) <= 3  # not hundreds of exchange combinations


def test_piquet_takes_menu_numbers_and_places_and_speaks_of_you_plainly() -> None:
    buf = io.StringIO()
    answers = iter(["2 4", *["1"] * 60])
    holder: list[Session] = []

    def read(prompt: str) -> str:
        if holder[0].state.observation(0)["phase"] == "play" and holder[0].state.observation(
                0)["tricks"]:
            holder[0].stopped = "test"
        return next(answers)

    session = _session("piquet", read, seed=7, buf=buf)
    holder.append(session)
    session.run()
    text = buf.getvalue()
    assert "You (Elder) exchange 2 cards." in text
    assert "You (Elder) exchanges" not in text and "You (Younger) scores" not in text
    assert "You (Elder) leads" not in text and "You (Younger) leads" not in text
    assert re.search(r"Trick 1: (You lead|Computer leads) .*, (you play|Computer plays) .* — "
                     r"(you win|Computer wins) the trick\.", text)


def test_forced_moves_are_made_and_said() -> None:
    buf = io.StringIO()
    play_terminal("efudatori", None, 21, console=_console(buf), read=lambda p: "#1")
    assert "Your only legal card:" in buf.getvalue()


@pytest.mark.parametrize(("game", "said"), [
    ("pinochle4", "You are South; your partner is North."),
    ("pinochle3", "You are South and play alone against West"),
    ("pinochle2", "You play against the computer."),
    ("piquet", "You are Elder in the first deal"),
    ("efudatori", "You sit South, with West on your left"),
])
def test_seat_and_role_are_said_at_the_start(game: str, said: str) -> None:
    buf = io.StringIO()
    seed = 7 if game == "piquet" else 3
    play_terminal(game, None, seed, console=_console(buf), read=lambda p: "q" if ")" not
                  in p else "y")
    assert said in re.sub(r"\s+", " ", buf.getvalue())


def test_help_gives_the_rules_and_points_to_the_rules_command() -> None:
    for game in GAMES:
        buf = io.StringIO()
        _session(game, _reader(["help", "q", "y"]), buf=buf).run()
        text = buf.getvalue()
        assert "The rules in short" in text and f"cardplaza rules {game}" in text
        assert "#5" in text and "undo" in text and "tricks" in text


def test_thinking_is_shown_while_a_computer_decides() -> None:
    buf = io.StringIO()
    answers = iter(["#1", "q", "y"])
    spec = get_game("efudatori")
    Session(spec, spec.options(), 3, "1", _console(buf, colour=True),
            lambda p: next(answers)).run()
    assert "is thinking…" in buf.getvalue()


def test_commands_can_be_added() -> None:
    """Another module adds a command to every game (as hints will)."""
    calls: list[str] = []

    def hello(session: Session, rest: str) -> Outcome:
        calls.append(rest)
        session.count("hello")
        return Outcome.PROMPT

    register_command(Command("hello", "say hello", hello))
    try:
        buf = io.StringIO()
        answers = iter(["hello there", "help", "q", "y"])
        _session("pinochle2", lambda p: next(answers), buf=buf).run()
        assert calls == ["there"] and "say hello" in buf.getvalue()
    finally:
        from cardplaza.cli import commands

        commands._ORDER[:] = [c for c in commands._ORDER if c.name != "hello"]
        commands._COMMANDS.pop("hello", None)
    assert find_command("hello") is None


# -- colours -------------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_red_suits_are_red_and_nothing_else_is_highlighted(game: str) -> None:
    buf2 = io.StringIO()
    answers = iter([FIRST.get(game, "#1")] * 8 + ["q", "y"])
    spec = get_game(game)
    Session(spec, spec.options(), 4, "random", _console(buf2, colour=True),
            lambda p: next(answers, "y")).run()
    raw = buf2.getvalue()
    red = re.findall(r"\x1b\[1;31m((?:10|[2-9JQKA])[♥♦])", raw)
    assert red, "no red heart or diamond"
    assert not re.search(r"\x1b\[(?:[0-9;]*;)?(?:31|36|9[1-7])m(?:10|[2-9JQKA])[♠♣]", raw), \
        "a black card is coloured"
    assert "\x1b[1;36m" not in raw and "\x1b[36m" not in raw  # no automatic number colour


# -- what the Pinochle views say -----------------------------------------------------------

def _phase(st: Any) -> str:
    return str(st.observation(0)["phase"])


def _drive(game: str, seed: int, choose: Callable[[Any, list[Any]], Any],
           until: Callable[[Any], bool], options: Any = None) -> tuple[Any, str]:
    from cardplaza.games.pinochle4.terminal import View

    spec = get_game(game)
    st = spec.new_game(options, seed)
    buf = io.StringIO()
    view = View(_console(buf), 0)
    while not until(st):
        legal = list(st.legal_actions())
        seat = st.current_player
        if seat == 0:
            view.show_turn(st, st.observation(0), legal)
        action = choose(st, legal)
        st.apply(action)
        view.show_action(st, seat, action, st.observation(0))
    return st, buf.getvalue()


def test_cut_throat_trump_helper_drops_the_widow_chance() -> None:
    """Once the widow is in the bidder's hand, no "chance the widow has one" column."""
    def choose(st: Any, legal: list[Any]) -> Any:
        if _phase(st) == "bidding":
            return legal[-1] if st.current_player == 0 else legal[0]
        return legal[0]

    for seed in range(20):
        _, text = _drive("pinochle3", seed, choose, lambda st: _phase(st) == "discard")
        if "Bidding helper" in text and "Name trump" in text:
            break
    trump_part = text[text.index("Name trump"):]
    assert "chance the widow" not in trump_part
    assert "chance the widow" in text[:text.index("Name trump")]  # still there in bidding


def test_stuck_dealer_is_announced() -> None:
    spec = get_game("pinochle4")
    opts = spec.options({"all_pass_redeal": False})
    st, text = _drive("pinochle4", 2, lambda st, legal: legal[0],
                      lambda st: _phase(st) != "bidding", opts)
    assert st.observation(0)["stuck_dealer"]
    assert "is stuck with the minimum bid" in text


def test_four_hand_shows_the_cards_partner_passes_back() -> None:
    """You are North's partner: North wins the auction, you pass, North passes back."""
    def choose(st: Any, legal: list[Any]) -> Any:
        if _phase(st) == "bidding":
            return legal[-1] if st.current_player == 2 else legal[0]
        return legal[0]

    st, text = _drive("pinochle4", 3, choose, lambda st: _phase(st) == "play")
    obs = st.observation(0)
    assert obs["bidder"] == 2
    got = obs["passing"]["received"]
    from cardplaza.games.pinochle4.rules import card_text

    assert f"North passes you: {' '.join(card_text(c) for c in got)}" in text


# -- play again ----------------------------------------------------------------------------

def _two_games(game: str, seed: int) -> list[Any]:
    prompts = iter(["y"])

    def read(prompt: str) -> str:
        if "Play again" in prompt:
            return next(prompts, "n")
        return FIRST.get(game, "#1")

    return play_series(game, None, seed, "random", _console(io.StringIO()), read)


def test_play_again_passes_the_deal_left_in_efudatori() -> None:
    first, second = _two_games("efudatori", 8)
    assert second.dealer == (first.dealer + 1) % 4  # type: ignore[attr-defined]
    assert second.seed == first.seed + 1


def test_play_again_alternates_the_two_hand_dealer() -> None:
    first, second = _two_games("pinochle2", 8)
    assert first.observation(0)["dealer"] == 1 and second.observation(0)["dealer"] == 0


def test_rematch_hook() -> None:
    spec: GameSpec = get_game("efudatori")
    st = spec.new_game(spec.options({"players": 5}), 3)
    nxt = spec.rematch_options(st.options, st)
    assert nxt.dealer == (st.dealer + 1) % 5  # type: ignore[attr-defined]
    assert spec.new_game(nxt, 4).dealer == nxt.dealer  # type: ignore[attr-defined]
    piquet = get_game("piquet")
    assert piquet.rematch_options(piquet.options(), piquet.new_game()) == piquet.options()


def test_streak_game_does_not_show_its_seed_before_the_end(tmp_path: Any) -> None:
    """The seed would tell the computer's cards: a streak game names it only at the end."""
    from cardplaza.cli.streak import StreakBook

    spec = get_game("pinochle2")
    buf = io.StringIO()
    book = StreakBook(tmp_path / "s.json", _console(buf))
    Session(spec, spec.options(), 987654, "1", _console(buf), _reader(["q", "y"]),
            streak=book).run()
    assert "987654" not in buf.getvalue()
    buf = io.StringIO()
    book = StreakBook(tmp_path / "s.json", _console(buf))
    Session(spec, spec.options(), 987654, "1", _console(buf), lambda p: "1",
            streak=book).run()
    text = buf.getvalue()
    assert text.index("That deal was seed 987654") > text.index("End of the deal")


def test_two_hand_says_why_the_dealer_has_ten_at_once() -> None:
    spec = get_game("pinochle2")
    seed = next(s for s in range(200)
                if spec.new_game(None, s).observation(0)["nine_turned_up"])
    buf = io.StringIO()
    _session("pinochle2", _reader(["q", "y"]), seed=seed, buf=buf).run()
    assert "9 of trump: 10 for the dealer (the computer)" in re.sub(r"\s+", " ",
                                                                    buf.getvalue())
