"""Terminal view of E-fuda-tori (絵札とり) for one person against computers.

Every word it shows comes from the message catalog in the view's language (``cli.rest.*``,
the rule reasons ``eng.*``); the Joker is written ``Jo`` in English and ジョーカー in
Japanese.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from cardplaza.cli.style import cards_text as coloured
from cardplaza.cli.view import ViewBase
from cardplaza.core.protocol import Action, GameState
from cardplaza.games.efudatori import rules
from cardplaza.games.efudatori.rules import JOKER, SPADE_ACE, SPADE_THREE
from cardplaza.games.efudatori.state import obligation_kind

SUIT_KEYS = ("suit.S", "suit.H", "suit.D", "suit.C")
GROUP_GAP = "  "
"""Between the suits of a hand (the cards of one suit are one space apart)."""


def hand_key(trump: int | None) -> Any:
    """Sort key of a hand: the Joker, the trump suit, then ♠ ♥ ♦ ♣; each suit from the
    ace down."""
    def key(c: int) -> tuple[int, int, int]:
        if c == JOKER:
            return (0, 0, 0)
        suit = c // 13
        return (1 if suit == trump else 2, suit, -(c % 13))
    return key


def winner_reason_key(cards: Sequence[int], trick_number: int) -> str:
    """The catalog key of which of the rules W1–W5 decided a trick."""
    if JOKER in cards:
        return "cli.rest.ef.why.three" if SPADE_THREE in cards else "cli.rest.ef.why.joker"
    if SPADE_ACE in cards:
        return "cli.rest.ef.why.almighty"
    trump = rules.trump_of(trick_number)
    if any(c != JOKER and c // 13 == trump for c in cards):
        return "cli.rest.ef.why.trump"
    return "cli.rest.ef.why.led"


def _pictures(cards: Sequence[int]) -> list[int]:
    return [c for c in cards if c != JOKER and c % 13 in (rules.JACK, rules.QUEEN, rules.KING)]


class View(ViewBase):
    """Shows the table to the person at ``seat`` and reports every card played."""

    OPTION_HELP = {  # noqa: RUF012 - read-only table
        "players": "number of players, 2–7 (the deck is cut down for fewer than 4 or "
                   "more than 4)",
        "names": "a name per seat, separated by / (empty: Player 1 …)",
        "simple_scoring": "no 50 for a K-Q-J of one suit: every picture counts alone",
        "dealer": "the seat that deals (-1: drawn at random); 'play again' passes the deal "
                  "to the left",
    }

    def __init__(self, console: Console, seat: int, lang: str = "en") -> None:
        super().__init__(console, seat, lang)
        self._header_for = 0
        self._last_turn: tuple[int, int] | None = None

    # -- words ----------------------------------------------------------------------
    def card(self, c: int) -> str:
        """A card's text (the Joker in the view's language)."""
        return self.say("cli.rest.ef.joker") if c == JOKER else rules.text(c)

    def cards(self, cards: Sequence[int], trump: int | None = None,
              grouped: bool = False) -> str:
        """Cards in hand order; ``grouped``: a wider gap between the suits."""
        order = sorted(cards, key=hand_key(trump))
        if not grouped:
            return " ".join(self.card(c) for c in order) or "—"
        out: list[str] = []
        last = -2
        for c in order:
            suit = -1 if c == JOKER else c // 13
            out.append((GROUP_GAP if out and suit != last else " " if out else "")
                       + self.card(c))
            last = suit
        return "".join(out) or "—"

    def action_words(self, state: GameState, action: Action) -> str:
        """A card (the Joker in the view's language)."""
        return self.card(action) if isinstance(action, int) else super().action_words(
            state, action)

    def name(self, obs: dict[str, Any], seat: int) -> str:
        """Display name of a seat ("You" for the person unless a name was set)."""
        names = [str(n) for n in obs["names"]]
        if names != [f"Player {p + 1}" for p in range(len(names))]:
            return names[seat]
        if seat == self.seat:
            return self.say("cli.rest.you")
        if len(names) == 4:
            return self.say(("cli.rest.ef.west", "cli.rest.ef.north",
                             "cli.rest.ef.east")[(seat - self.seat) % 4 - 1])
        return self.say("cli.rest.ef.player", n=seat + 1)

    def _you(self, obs: dict[str, Any], seat: int) -> bool:
        return seat == self.seat and self.name(obs, seat) == self.say("cli.rest.you")

    def intro(self, observation: dict[str, Any]) -> str:
        """Where you sit, who deals and who leads."""
        obs = observation
        n = obs["players"]
        dealer, leader = obs["dealer"], (obs["dealer"] + 1) % n
        if n == 4:
            seats = self.say("cli.rest.ef.seats4")
        else:
            seats = self.say("cli.rest.ef.seats", n=n, left=self.name(obs, (self.seat + 1) % n),
                             right=self.name(obs, (self.seat - 1) % n))
        if dealer == self.seat:
            first = self.say("cli.rest.ef.you_deal", next=self.name(obs, leader))
        elif leader == self.seat:
            first = self.say("cli.rest.ef.deals_you_lead", who=self.name(obs, dealer))
        else:
            first = self.say("cli.rest.ef.deals_leads", who=self.name(obs, dealer),
                             lead=self.name(obs, leader))
        return f"{seats} {first}"

    def rules_text(self) -> str:
        """E-fuda-tori in short."""
        return self.say("cli.rest.ef.rules")

    def help_text(self) -> str:
        """How to type cards."""
        return self.say("cli.rest.ef.help")

    def menu(self, state: GameState, observation: dict[str, Any],
             legal: Sequence[Action]) -> list[Action]:
        """Legal cards in the hand's order (the Joker, trumps, then ♠ ♥ ♦ ♣)."""
        return sorted(legal, key=hand_key(observation.get("trump")))

    def _on_table(self, obs: dict[str, Any]) -> str:
        return self.say("cli.rest.list_sep").join(
            f"{self.name(obs, p)} {self.card(c)}" for p, c in obs["trick"])

    def show_forced(self, state: GameState, observation: dict[str, Any],
                    action: Action) -> None:
        """The trick so far and the only card you may play."""
        obs = observation
        self._header(obs, obs["trick_number"])
        assert isinstance(action, int)
        only = self.say("cli.rest.only_card", card=self.card(action))
        if obs["trick"]:
            only = self.say("cli.rest.then", first=self.say("cli.rest.ef.on_table",
                                                            cards=self._on_table(obs)),
                            then=only)
        self.console.print(only)

    def show_history(self, state: GameState, observation: dict[str, Any]) -> None:
        """Every trick of the game so far: trump, leader, cards and winner."""
        obs = observation
        self.console.rule(self.say("cli.rest.ef.so_far"))
        if not obs["tricks"]:
            self.console.print(self.say("cli.rest.ef.no_trick"))
        for t in obs["tricks"]:
            cards = [c for _, c in t["cards"]]
            played = self.say("cli.rest.list_sep").join(
                f"{self.name(obs, p)} {self.card(c)}" for p, c in t["cards"])
            self.console.print(self.say(
                "cli.rest.ef.history", n=t["number"], trump=rules.suit_symbol(t["trump"]),
                cards=played, who=self.name(obs, t["winner"]),
                reason=self.say(winner_reason_key(cards, t["number"]))))

    def _header(self, obs: dict[str, Any], number: int) -> None:
        if self._header_for >= number:
            return
        self._header_for = number
        trump = rules.trump_of(number)
        stock = obs["stock_size"]
        stock_text = (self.say("cli.rest.ef.stock", n=stock, up=stock - 1) if stock
                      else self.say("cli.rest.ef.stock_empty"))
        self.console.rule(self.say("cli.rest.ef.header", n=number, total=obs["tricks_total"],
                                   symbol=rules.suit_symbol(trump),
                                   suit=self.say(SUIT_KEYS[trump]), stock=stock_text))

    def _captured_table(self, obs: dict[str, Any], title: str) -> Table:
        table = Table(title=title)
        table.add_column(self.say("cli.rest.ef.col.player"))
        table.add_column(self.say("cli.rest.ef.col.pictures"))
        table.add_column(self.say("ef.setscol"), justify="right")
        table.add_column(self.say("ef.points"), justify="right")
        if obs["ranking"] is not None:
            table.add_column(self.say("cli.rest.ef.col.rank"), justify="right")
        for p in range(obs["players"]):
            row = [self.name(obs, p), self.cards(_pictures(obs["captured"][p])),
                   str(obs["sets"][p]), str(obs["scores"][p])]
            if obs["ranking"] is not None:
                row.append(str(obs["ranking"][p]))
            table.add_row(*(coloured(c) for c in row))
        return table

    def obligation(self, obs: dict[str, Any]) -> str | None:
        """The rule binding the person's next card, in words, or ``None``."""
        kind = obligation_kind(obs)
        if kind is None:
            return None
        return self.say(f"cli.rest.ef.ob.{kind}", trump=rules.suit_symbol(obs["trump"]))

    def illegal_reason(self, c: int, obs: dict[str, Any]) -> str | None:
        """Why a card of the hand cannot be played now, or ``None``."""
        hand = rules.mask_of_list(obs["hand"])
        trick = [t for _, t in obs["trick"]]
        if rules.legal_mask(hand, trick, obs["trick_number"]) >> c & 1:
            return None
        if not trick:
            return self.say("eng.first_lead_trump" if rules.suit_of(c) == rules.CLUBS
                            else "eng.first_lead_spade")
        played = rules.mask_of_list(trick)
        if played & rules.SPADE_THREE_BIT and hand & rules.JOKER_BIT:
            return self.say("eng.joker_due")
        if played & rules.JOKER_BIT and hand & rules.SUIT_MASK[obs["trump"]]:
            return self.say("eng.joker_forces")
        led = rules.suit_symbol(rules.suit_of(trick[0]))
        return self.say("eng.follow_or_joker" if hand & rules.JOKER_BIT else "eng.follow_play",
                        suit=led)

    # -- protocol -----------------------------------------------------------------
    def show_turn(self, state: GameState, observation: dict[str, Any],
                  legal: Sequence[Action]) -> None:
        """Trump, stock, captured pictures, the trick so far, the hand and numbered choices."""
        obs = observation
        self._header(obs, obs["trick_number"])
        turn = (obs["trick_number"], len(obs["trick"]))
        repeat = turn == self._last_turn
        self._last_turn = turn
        if not repeat:
            self._show_table(obs)
        self._show_hand(state, obs, legal)

    def show_menu(self, state: GameState, observation: dict[str, Any],
                  menu: Sequence[Action]) -> None:
        """``1) card  2) card …``."""
        self.console.print("  ".join(f"[bold]{i})[/bold] {self.card(a)}"  # type: ignore[arg-type]
                                     for i, a in enumerate(menu, 1)))

    def _show_table(self, obs: dict[str, Any]) -> None:
        self.console.print(self._captured_table(obs, self.say("cli.rest.ef.captured")))
        known = [f"{self.name(obs, p)}: {self.cards(obs['known_cards'][p])}"
                 for p in range(obs["players"]) if p != self.seat and obs["known_cards"][p]]
        if known:
            self.console.print(self.say("cli.rest.ef.known",
                                        list=self.say("cli.rest.list_sep").join(known)))
        if obs["trick"]:
            self.console.print(self.say("cli.rest.ef.on_table", cards=self._on_table(obs)))
        else:
            self.console.print(self.say("cli.rest.ef.you_lead"))

    def _show_hand(self, state: GameState, obs: dict[str, Any],
                   legal: Sequence[Action]) -> None:
        hand = obs["hand"]
        self.console.print(f"{self.say('cli.rest.your_hand')} "
                           f"[bold]{self.cards(hand, obs['trump'], grouped=True)}[/bold]")
        obligation = self.obligation(obs)
        if obligation:
            self.console.print(f"[yellow]{obligation}[/yellow]")
        choices = "  ".join(f"[bold]{i}[/bold]) {self.card(a)}"  # type: ignore[arg-type]
                            for i, a in enumerate(self.menu(state, obs, legal), 1))
        self.console.print(self.say("cli.rest.ef.choices", choices=choices))
        for c in sorted(hand, key=hand_key(obs["trump"])):
            if c not in legal:
                reason = self.illegal_reason(c, obs)
                if reason:
                    self.console.print(f"  [dim]{self.card(c)}: {reason}[/dim]")

    def show_action(self, state: GameState, seat: int, action: Action,
                    observation: dict[str, Any]) -> None:
        """Report a card; at the end of a trick the winner, the capture and the draws."""
        obs = observation
        assert isinstance(action, int)
        number = obs["trick_number"] if obs["trick"] else len(obs["tricks"])
        self._header(obs, number)
        played = [c for t in obs["tricks"] for _, c in t["cards"]]
        played += [c for _, c in obs["trick"]]
        joker_seen = played.index(JOKER) < played.index(action) if JOKER in played else False
        note = ""
        if action == JOKER:
            note = self.say("cli.rest.ef.note.joker")
        elif action == SPADE_THREE and not joker_seen and JOKER in played:
            note = self.say("cli.rest.ef.note.three_had")
        elif action == SPADE_THREE and not joker_seen:
            note = self.say("cli.rest.ef.note.three_must")
        elif action == SPADE_ACE:
            note = self.say("cli.rest.ef.note.almighty")
        current = obs["trick"] if obs["trick"] else obs["tricks"][-1]["cards"]
        leads = bool(current) and current[0][0] == seat and len(obs["trick"]) <= 1
        you = self._you(obs, seat)
        key = (("cli.rest.trick.lead.you" if you else "cli.rest.trick.lead") if leads
               else ("cli.rest.trick.plays.you" if you else "cli.rest.trick.plays"))
        self.console.print(self.say(key, who=self.name(obs, seat), card=self.card(action))
                           + note)
        if obs["trick"]:
            return
        trick = obs["tricks"][-1]
        cards = [c for _, c in trick["cards"]]
        w = trick["winner"]
        wins = self.say("cli.rest.trick.wins.you" if self._you(obs, w)
                        else "cli.rest.trick.wins", who=self.name(obs, w))
        line = self.say("cli.rest.trick.by", wins=wins,
                        reason=self.say(winner_reason_key(cards, trick["number"])))
        pics = _pictures(cards)
        if pics:
            line = self.say("cli.rest.trick.capturing", wins=line, cards=self.cards(pics))
        done = self.say("cli.rest.ef.trick_done", n=trick["number"], line=line)
        self.console.print(f"[green]{done}[/green]")
        if obs["draws"] and obs["draws"][-1]["after_trick"] == trick["number"]:
            d = obs["draws"][-1]
            if d["winner"] == self.seat:
                self.console.print(self.say("cli.rest.ef.draw.you",
                                            card=self.card(d["face_down"])))
            else:
                self.console.print(self.say("cli.rest.ef.draw.other",
                                            who=self.name(obs, d["winner"])))
            self.console.print(self.say("cli.rest.ef.draw.up", list=self.say(
                "cli.rest.list_sep").join(f"{self.name(obs, q)} {self.card(c)}"
                                          for q, c in d["face_up"])))

    def show_end(self, state: GameState, observation: dict[str, Any]) -> None:
        """Final captured pictures, points and ranking."""
        obs = observation
        self.console.print(self._captured_table(obs, self.say("cli.rest.ef.final")))
        ranking = obs["ranking"] or []
        winners = [self.name(obs, p) for p in range(obs["players"]) if ranking[p] == 1]
        if len(winners) == 1:
            self.console.print(f"[bold]{self.say('cli.rest.ef.winner', who=winners[0])}[/bold]")
        else:
            names = self.say("cli.rest.list_sep").join(winners)
            self.console.print(f"[bold]{self.say('cli.rest.ef.joint', names=names)}[/bold]")
