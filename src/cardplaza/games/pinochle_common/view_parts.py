"""Pieces of the Pinochle terminal views that read the same observation fields in every
Pinochle game: the menu, numbers typed in the auction, the header, trick lines, the hand's
history, a forced card, and the hand grouped by suit. A game's ``View`` mixes in
:class:`PinochleViewParts` before the terminal's ``ViewBase`` and supplies :meth:`_card` (a
card as Rich markup), :meth:`_scores` and :attr:`PLAY_KIND`; :meth:`_rich` turns a line into
what the console prints (the game's view may colour the cards in it).

Every text a Pinochle view shows comes from the message catalog (keys ``cli.pin.*``) in
the view's language (``lang``): English screens are all English, Japanese screens all
Japanese; card faces (``A♠``, ``10♥``), suit symbols and numbers are the same in both.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from rich.console import Console
from rich.text import Text

from cardplaza.core.protocol import Action, GameState, IllegalAction
from cardplaza.games.pinochle_common.actions import SUIT_SYMBOLS

PREFIX = "cli.pin."
"""The catalog keys of the Pinochle terminal views."""
PLACES = ("south", "west", "north", "east")
"""Seat names around a four-seat table, from the person (South) clockwise."""


class Speaker(Protocol):
    """What gives a view its texts: the terminal's view (``cli.view.ViewBase``) in the
    player's language. Games do not import the catalog; they ask their view."""

    lang: str

    def text(self, key: str, **params: Any) -> str:
        """The catalog's text of ``key`` in :attr:`lang`."""

    def has_text(self, key: str) -> bool:
        """Whether the catalog has ``key``."""


def say(sp: Speaker, key: str, **params: Any) -> str:
    """The catalog's text ``cli.pin.<key>`` in the speaker's language."""
    return sp.text(PREFIX + key, **params)


def place_name(sp: Speaker, place: str, you: bool) -> str:
    """``South``, ``West`` … (``South (you)`` for the person)."""
    name = say(sp, "place." + place)
    return say(sp, "you_mark", name=name) if you else name


def play_line(sp: Speaker, who: str, card: str, *, lead: bool, you: bool = False) -> str:
    """One card of a trick, worded alike in every Pinochle game: ``South leads A♠``,
    ``West plays 10♠`` (``You lead`` / ``You play`` when ``who`` is a bare "you")."""
    key = ("trick.leads" if lead else "trick.plays") + (".you" if you else "")
    return say(sp, key, who=who, card=card)


def won_line(sp: Speaker, who: str, points: int | None, *, you: bool = False) -> str:
    """The end of a trick: ``North wins the trick (+20)`` (no points: without them)."""
    key = "trick.wins" + (".you" if you else "") + (".plain" if points is None else "")
    return say(sp, key, who=who, points=points)


def hand_groups(cards: Sequence[int], trump: int | None, suit: Callable[[int], int],
                rank: Callable[[int], int]) -> list[tuple[int, list[int]]]:
    """The cards grouped by suit, trump first then ♠ ♥ ♦ ♣, each suit high to low (A 10 K
    Q J 9: ``rank`` is higher for a higher card); empty suits left out. Copies of one
    card keep their order."""
    order = sorted(range(4), key=lambda s: (s != trump, s))
    out = []
    for s in order:
        group = sorted((c for c in cards if suit(c) == s), key=lambda c: (-rank(c), c))
        if group:
            out.append((s, group))
    return out


def sorted_hand(cards: Sequence[int], trump: int | None, suit: Callable[[int], int],
                rank: Callable[[int], int]) -> list[int]:
    """The cards in :func:`hand_groups` order, one list."""
    return [c for _, group in hand_groups(cards, trump, suit, rank) for c in group]


# -- the engines' English texts in the view's language -----------------------------------

def _cards(sp: Speaker, cards: str) -> str:
    return cards.replace(" or ", sp.text("eng.or"))


_ENGINE: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), k) for p, k in (
        (r"^You must follow (?P<suit>.) and win the trick: play (?P<cards>.+)$",
         "eng.follow_win"),
        (r"^You must follow (?P<suit>.): play (?P<cards>.+)$", "eng.follow"),
        (r"^You have no (?P<suit>.), so you must play a trump \((?P<trump>.)\): "
         r"play (?P<cards>.+)$", "eng.must_trump"),
        (r"^You are void in (?P<suit>.), so you must trump: you hold (?P<trump>.)$",
         "eng.void_trump"),
        (r"^You must beat the winning (?P<card>\S+) with a higher (?P<suit>.): "
         r"you hold (?P<cards>.+)$", "eng.beat"),
        (r"^You must over-trump the winning (?P<card>\S+): you hold (?P<cards>.+)$",
         "eng.overtrump"),
        (r"^Bids go up in steps of (?P<n>\d+)$", "cli.pin.why.step"),
        (r"^(?:Your bid must be at least|The first bid must be at least) (?P<n>\d+)$",
         "cli.pin.why.at_least"),
        (r"^Your bid must be higher than (?P<n>\d+)$", "cli.pin.why.higher"),
        (r"^A jump bid must be above (?P<n>\d+)$", "cli.pin.why.higher"),
    ))


def engine_text(sp: Speaker, message: str) -> str:
    """An engine's English reason (why a card or bid is not allowed) in the speaker's
    language; a reason without a Japanese form reads as a plain "not allowed now"."""
    if sp.lang == "en":
        return message
    for pattern, key in _ENGINE:
        m = pattern.match(message)
        if m:
            params = {k: _cards(sp, v) if k == "cards" else v
                      for k, v in m.groupdict().items()}
            return sp.text(key, **params)
    return say(sp, "why.other")


class PinochleViewParts:
    """Shared parts of the Pinochle terminal views (see the module docstring)."""

    PLAY_KIND: ClassVar[int]
    console: Console
    seat: int
    lang: str

    # -- hooks ----------------------------------------------------------------------------
    def name(self, obs: dict[str, Any], seat: int) -> str:
        raise NotImplementedError

    def _card(self, card: int) -> str:
        raise NotImplementedError

    def _scores(self, obs: dict[str, Any]) -> str:
        raise NotImplementedError

    def _rich(self, text: str) -> str | Text:
        """A line as printed (plain Rich markup unless the view colours cards)."""
        return text

    def _trick_points(self, obs: dict[str, Any], cards: Sequence[int]) -> int | None:
        """The points a finished trick's cards are worth (``None``: not shown)."""
        return None

    if TYPE_CHECKING:  # given by the terminal's ViewBase, later in the view's bases
        def text(self, key: str, **params: Any) -> str: ...

        def has_text(self, key: str) -> bool: ...

    def say(self, key: str, **params: Any) -> str:
        """The catalog's ``cli.pin.<key>`` in the view's language."""
        return say(self, key, **params)

    def _place(self, place: str, you: bool) -> str:
        return place_name(self, place, you)

    def _bid_word(self, amount: int) -> str:
        """``pass`` or the amount, as the auction's lines show a bid."""
        return self.say("act.pass") if amount == 0 else str(amount)

    def _bids_line(self, obs: dict[str, Any]) -> str:
        """The auction so far, one ``seat amount`` a bid."""
        return self.say("sep").join(self.say("bid_item", who=self.name(obs, s),
                                             bid=self._bid_word(a))
                                    for s, a in obs["bids"]) or self.say("no_bids")

    def _fallback_forced(self, state: GameState, observation: dict[str, Any],
                         action: Action) -> None:
        raise NotImplementedError

    # -- shared parts ---------------------------------------------------------------------
    def menu(self, state: GameState, observation: dict[str, Any],
             legal: Sequence[Action]) -> list[Action]:
        """The engine's numbered menu."""
        return list(state.choices())  # type: ignore[attr-defined]

    def parse_number(self, state: GameState, observation: dict[str, Any],
                     number: int) -> Action | None:
        """In the auction a bare number is a bid amount."""
        if observation["phase"] != "bidding":
            return None
        action = state.parse_action(f"bid {number}")
        reason = state.illegal_reason(action)
        if reason is not None:
            raise IllegalAction(self.say("bid_number", reason=engine_text(self, reason),
                                         number=number))
        return action

    def show_forced(self, state: GameState, observation: dict[str, Any],
                    action: Action) -> None:
        """A forced card: the trick so far and the card."""
        obs = observation
        if obs["phase"] == "play" and isinstance(action, tuple) and action[0] == self.PLAY_KIND:
            trick = self._trick_line(obs, obs["trick"])
            line = self.say("forced_card", card=self._card(action[1]))
            if trick:
                line = self.say("trick_now", trick=trick) + "  " + line
            self.console.print(self._rich(line))
            return
        self._fallback_forced(state, observation, action)

    def show_history(self, state: GameState, observation: dict[str, Any]) -> None:
        """The auction and every trick of this hand."""
        obs = observation
        self.console.rule(self.say("history.title", n=obs["hand_number"]))
        self.console.print(self.say("history.auction", bids=self._bids_line(obs)))
        if obs["bidder"] is not None:
            line = self.say("contract", n=obs["contract"], who=self.name(obs, obs["bidder"]))
            if obs["stuck_dealer"]:
                line += self.say("stuck_mark")
            if obs["trump"] is not None:
                line += self.say("trump_mark", suit=SUIT_SYMBOLS[obs["trump"]])
            self.console.print(line)
        if not obs["tricks"]:
            self.console.print(self.say("history.none"))
        for i, t in enumerate(obs["tricks"], 1):
            self.console.print(self._rich(self.say(
                "history.trick", n=f"{i:2d}", cards=self._trick_line(obs, t["cards"]),
                who=self.name(obs, t["winner"]))))

    def _header(self, obs: dict[str, Any]) -> None:
        trump = "—" if obs["trump"] is None else SUIT_SYMBOLS[obs["trump"]]
        line = self.say("header", n=obs["hand_number"], dealer=self.name(obs, obs["dealer"]),
                        trump=trump)
        if obs["bidder"] is not None:
            line += "  " + self.say("contract", n=obs["contract"],
                                    who=self.name(obs, obs["bidder"]))
        self.console.rule(line)
        self.console.print(self._scores(obs))

    def _trick_line(self, obs: dict[str, Any], cards: list[list[int]]) -> str:
        return "  ".join(self.say("trick_card", who=self.name(obs, s), card=self._card(c))
                         for s, c in cards)

    def _play_news(self, obs: dict[str, Any], seat: int, card: int) -> None:
        """A card played (``South leads A♠``, ``West plays 10♠``), and ``North wins the
        trick (+20)`` when it completes the trick."""
        done = not obs["trick"] and bool(obs["tricks"]) and obs["phase"] == "play"
        lead = len(obs["trick"]) == 1
        self.console.print(self._rich(play_line(self, self.name(obs, seat),
                                                self._card(card), lead=lead)))
        if done:
            last = obs["tricks"][-1]
            points = self._trick_points(obs, [c for _, c in last["cards"]])
            self.console.print("  " + won_line(self, self.name(obs, last["winner"]), points))

    def _give_news(self, obs: dict[str, Any], seat: int, who: str, card: int) -> None:
        """A card passed: shown to the giver, counted for the others once all are given."""
        if seat == self.seat:
            self.console.print(self._rich(self.say("you_pass", who=who,
                                                   card=self._card(card))))
        elif obs["passing"]["done"][seat] and (seat + 2) % 4 != self.seat:
            to = self.name(obs, (seat + 2) % 4)
            self.console.print(self.say("passes_cards", who=who, n=obs["passing"]["count"],
                                        to=to))


_MULTIPLES = ("double", "triple", "quadruple")


def meld_label(sp: Speaker, key: str, suit: int | str | None = None) -> str:
    """A meld's name in the speaker's language from its key (``royal_marriage``,
    ``double_run``, ``triple_aces_around`` …), with the suit of a run or marriage
    (``Marriage ♦``)."""
    if sp.has_text("meld." + key):
        base = sp.text("meld." + key)
    else:
        base = key.replace("_", " ")
        for word in _MULTIPLES:
            rest = key.removeprefix(word + "_")
            if rest != key and sp.has_text("meld." + rest):
                inner = sp.text("meld." + rest)
                if sp.lang == "en":
                    inner = inner[:1].lower() + inner[1:]
                base = sp.text("pd.mult." + word, m=inner)
                break
    if suit is not None and key.endswith(("run", "marriage")) and "royal" not in key:
        symbol = SUIT_SYMBOLS[suit] if isinstance(suit, int) else suit
        base += " " + symbol
    return base
