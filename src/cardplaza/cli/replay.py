"""``cardplaza replay``: a saved game told step by step, with seat names, deal breaks,
trick winners, running scores and the result in words.

Each deal begins with its trump and turn-up card (where the game has them) and the cards
dealt to every seat; then come the moves, the cards each seat gets (drawn from the stock or
the talon, or passed by a partner), meld points as they change, the winner of each trick
and the scores after it."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from rich.console import Console

from cardplaza.cli.style import make_console
from cardplaza.cli.view import make_view
from cardplaza.core.cards import FULL_DECK, PINOCHLE, PIQUET, Deck
from cardplaza.core.history import GameRecord
from cardplaza.core.options import options_to_dict
from cardplaza.core.protocol import GameState
from cardplaza.core.registry import get_game
from cardplaza.texts.catalog import text


def seat_names(record: GameRecord, state: GameState, lang: str = "en") -> list[str]:
    """The record's names if it has them, else the game's own seat names (South …)."""
    n = state.num_players
    if record.players and len(record.players) == n:
        out = []
        for s, p in enumerate(record.players):
            name = p.get("name") or text("cli.replay.player", lang, n=s + 1)
            if p.get("kind") == "computer":
                said = "computer" in name.lower()  # "Computer 2" needs no "(computer)"
                if p.get("level"):
                    key = "cli.replay.level" if said else "cli.replay.computer.level"
                    name = text(key, lang, name=name, level=p["level"])
                elif not said:
                    name = text("cli.replay.computer", lang, name=name)
            out.append(name)
        return out
    view = make_view(get_game(record.game), Console(file=io.StringIO()), -1, lang)
    obs = state.observation(0)
    names = [str(view.name(obs, s)) for s in range(n)]
    return names if len(set(names)) == n else [text("cli.replay.player", lang, n=s + 1)
                                                for s in range(n)]


def _deal_number(obs: dict[str, Any]) -> int | None:
    for key in ("hand_number", "deal"):
        value = obs.get(key)
        if isinstance(value, int):
            return value
    return None


def _last_trick_winner(before: dict[str, Any], after: dict[str, Any]) -> int | None:
    """Who won a deal's last trick, from the deal's summary (the next deal's observation
    no longer lists that trick): a Piquet score sheet names him; a Pinochle hand summary
    counts each seat's tricks."""
    sheets = after.get("sheets")
    if sheets and isinstance(sheets[-1].get("last_trick"), dict):
        return int(sheets[-1]["last_trick"]["winner"])
    last = after.get("last_hand")
    won_before = before.get("tricks_won")
    if isinstance(last, dict) and last.get("tricks_won") and won_before:
        grew = [s for s, (a, b) in enumerate(zip(won_before, last["tricks_won"], strict=True))
                if b > a]
        if len(grew) == 1:
            return grew[0]
    return None


DECKS: dict[str, Deck] = {"pinochle2": PINOCHLE, "pinochle4": PINOCHLE,
                         "pinochle3": PINOCHLE, "piquet": PIQUET, "efudatori": FULL_DECK}
"""How each game numbers its cards, unless its state names its own ``deck`` (a game with
neither is told without its hands)."""


def _hands(state: GameState) -> list[list[int]]:
    """Every seat's hand (the replay knows the whole deal)."""
    return [list(state.observation(s).get("hand") or []) for s in range(state.num_players)]


def _cards(deck: Deck, cards: list[int]) -> str:
    return deck.format_cards(cards, sort=True) or "—"


class DealDetails:
    """The details of a deal a replay tells: trump and turn-up, hands dealt, draws, meld
    points and the running scores."""

    def __init__(self, state: GameState, console: Console, names: list[str],
                 lang: str = "en") -> None:
        own = getattr(state, "deck", None)
        self.deck = own if isinstance(own, Deck) else DECKS.get(state.game_name)
        self.console = console
        self.names = names
        self.lang = lang
        self.trump: Any = None
        self.melds: Any = None
        self.scores: str | None = None

    def say(self, key: str, **params: Any) -> None:
        self.console.print(f"      [dim]{text(key, self.lang, **params)}[/dim]")

    def deal(self, state: GameState) -> None:
        """The start of a deal: trump, turn-up, each seat's cards."""
        obs = state.observation(0)
        self.trump = None
        self._trump(obs)
        if self.deck is not None:
            for seat, hand in enumerate(_hands(state)):
                if hand:
                    self.console.print("      " + text(
                        "cli.replay.dealt", self.lang, who=self.names[seat],
                        cards=_cards(self.deck, hand)))
        self.melds = None
        self._melds(obs)

    def _melds(self, obs: dict[str, Any]) -> None:
        melds = obs.get("meld_points")
        if melds is not None and melds != self.melds:
            if any(melds):
                self.say("cli.replay.meld", list=" · ".join(
                    f"{n} {p}" for n, p in zip(self.names, melds, strict=True)))
            self.melds = list(melds)

    def _trump(self, obs: dict[str, Any]) -> None:
        symbol = obs.get("trump_symbol")
        if symbol is None and isinstance(obs.get("trump"), int) and obs.get("trump", -1) >= 0:
            symbol = "♠♥♦♣"[obs["trump"]] if obs["game"] != "efudatori" else None
        if symbol is None or symbol == self.trump:
            return
        self.trump = symbol
        turn_up = obs.get("turn_up")
        if isinstance(turn_up, int) and self.deck is not None:
            self.console.print("      " + text("cli.replay.trump_up", self.lang, suit=symbol,
                                                card=self.deck.text(turn_up)))
        else:
            self.console.print("      " + text("cli.replay.trump", self.lang, suit=symbol))

    def step(self, before: GameState, after: GameState, new_deal: bool) -> None:
        """After a move: cards drawn, meld points, trump named (not at a new deal)."""
        if new_deal:
            return
        obs = after.observation(0)
        self._trump(obs)
        if self.deck is not None:
            for seat, (old, new) in enumerate(zip(_hands(before), _hands(after), strict=True)):
                drawn = [c for c in new if c not in old]
                if drawn:
                    self.say("cli.replay.gets", who=self.names[seat],
                             cards=_cards(self.deck, drawn))
        self._melds(obs)

    def running(self, state: GameState) -> None:
        """The scores after a trick, when they changed."""
        obs = state.observation(0)
        values = obs.get("deal_score") or state.returns()
        said = " · ".join(f"{n} {v:g}" for n, v in zip(self.names, values, strict=True))
        if said != self.scores:
            self.scores = said
            self.say("cli.replay.deal_score" if "deal_score" in obs else "cli.replay.score",
                     list=said)


def _deal_title(deal: int, obs: dict[str, Any], names: list[str], lang: str) -> str:
    dealer = obs.get("dealer")
    if isinstance(dealer, int):
        return text("cli.replay.deal_dealer", lang, n=deal, who=names[dealer])
    return text("cli.replay.deal", lang, n=deal)


def _scores(state: GameState, names: list[str]) -> str:
    return " · ".join(f"{name} {score:g}" for name, score in
                      zip(names, state.returns(), strict=True))


def result_text(state: GameState, names: list[str], lang: str = "en") -> str:
    """Who won, in words, with the final scores."""
    scores = _scores(state, names)
    if not state.is_terminal:
        return text("cli.replay.unfinished", lang, scores=scores)
    winners = [names[s] for s in state.winners()]
    if not winners:
        return text("cli.replay.no_winner", lang, scores=scores)
    if len(winners) == len(names):
        return text("cli.replay.draw", lang, scores=scores)
    return text("cli.replay.won", lang, names=text("cli.replay.and", lang).join(winners),
                scores=scores)


def replay_record(record: GameRecord, console: Console,
                  pause: Callable[[str], str] | None = None, lang: str = "en") -> GameState:
    """Print every step of ``record`` in ``lang``; with ``pause``, wait after each one
    (Enter: next, a number: that many steps on, q: stop)."""
    spec = get_game(record.game)
    state = record.new_state()
    names = seat_names(record, state, lang)
    view = make_view(spec, Console(file=io.StringIO()), -1, lang)
    defaults = options_to_dict(spec.options_type())
    changed = {k: v for k, v in record.options.items() if defaults.get(k) != v}
    said = ", ".join(f"{k}={v}" for k, v in changed.items()) or text("cli.replay.default",
                                                                       lang)
    title = spec.title_ja if lang == "ja" else spec.title
    console.rule(f"[bold]{title}[/bold] — " + text("cli.replay.head", lang, seed=record.seed,
                                                    rules=said))
    console.print(text("cli.replay.seats", lang, list=", ".join(
        f"{s}: {name}" for s, name in enumerate(names))))
    deal = _deal_number(state.observation(0))
    details = DealDetails(state, console, names, lang)
    if deal is not None:
        console.rule(_deal_title(deal, state.observation(0), names, lang))
    details.deal(state)
    tricks_seen = 0
    skip = 0
    for step, (before, seat, action) in enumerate(record.replay(state), start=1):
        words = view.action_words(before, action)
        after = before.clone()
        after.apply(action)
        console.print(f"{step:4d}. {names[seat]}: {words}")
        obs = after.observation(0)
        new_deal = _deal_number(obs)
        details.step(before, after, new_deal is not None and new_deal != deal)
        tricks = obs.get("tricks") or []
        if len(tricks) > tricks_seen:
            for i, trick in enumerate(tricks[tricks_seen:], start=tricks_seen + 1):
                console.print("      [dim]" + text(
                    "cli.replay.trick", lang, n=trick.get("number", i),
                    who=names[trick["winner"]]) + "[/dim]")
            details.running(after)
        tricks_seen = len(tricks)
        if new_deal is not None and new_deal != deal:
            winner = _last_trick_winner(before.observation(0), obs)
            if winner is not None and len(tricks) <= tricks_seen:
                console.print("      [dim]" + text("cli.replay.last_trick", lang,
                                                      who=names[winner]) + "[/dim]")
        if new_deal is not None and new_deal != deal and not after.is_terminal:
            console.print("[bold]" + text("cli.replay.after_deal", lang, n=deal,
                                          scores=_scores(after, names)) + "[/bold]")
            deal = new_deal
            tricks_seen = len(tricks)
            console.rule(_deal_title(deal, obs, names, lang))
            details.deal(after)
        if pause is not None and not after.is_terminal:
            if skip > 0:
                skip -= 1
                continue
            answer = pause(text("cli.replay.pause", lang)).strip().lower()
            if answer in ("q", "quit"):
                break
            if answer.isdigit():
                skip = int(answer) - 1
    final = state if len(state.history) == len(record.actions) else record.final_state()
    console.rule(text("cli.replay.result", lang))
    console.print(result_text(final, names, lang))
    return final


def replay_console() -> Console:
    """The console replay prints to."""
    return make_console()
