"""Terminal view of E-fuda-tori (絵札とり) for one person against computers."""

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
from cardplaza.games.efudatori.state import describe_obligation

SUIT_NAMES = {0: "spades", 1: "hearts", 2: "diamonds", 3: "clubs"}
SUIT_NAMES_JA = {0: "スペード", 1: "ハート", 2: "ダイヤ", 3: "クラブ"}

HELP = """\
Type the number of a choice (1, 2, …) or a card: QH, q♥, 10d, TD, Jo for the Joker."""

RULES = """\
絵札とり in short: 2–7 players, 4 cards each, a stock to draw from; only captured picture
cards score.
 • Trump (切り札) rotates every trick: ♣, ♦, ♥, ♣ … — spades are never trump.
 • Follow the led suit if you can; the Joker may be played at any turn.
 • Once the Joker is out, every later player holding a trump must play one.
 • Once the ♠3 is out, a later player holding the Joker must play it.
 • Strength: ♠3 (only together with the Joker) > Joker > ♠A (オールマイティ) > trumps >
   the led suit; other cards never win.
 • The first lead of the game may not be a club or a spade (unless nothing else is held).
 • The winner draws the face-down stock card (only he sees it); the others draw face-up
   cards, seen by all.
 • Captured pictures score K 20, Q 10, J 5; K-Q-J of one suit together 50."""


def cards_text(cards: Sequence[int]) -> str:
    """Cards sorted by suit and strength, e.g. ``K♥ Q♥ 5♦``."""
    order = sorted(cards, key=lambda c: (c // 13, -(c % 13)))
    return " ".join(rules.text(c) for c in order) or "—"


def winner_reason(cards: Sequence[int], trick_number: int) -> str:
    """Which of the rules W1–W5 decided a trick, in words."""
    if JOKER in cards:
        if SPADE_THREE in cards:
            return "the ♠3 catches the Joker"
        return "the Joker"
    if SPADE_ACE in cards:
        return "the Almighty ♠A"
    trump = rules.trump_of(trick_number)
    if any(c != JOKER and c // 13 == trump for c in cards):
        return "the highest trump"
    return "the highest card of the led suit"


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

    def __init__(self, console: Console, seat: int) -> None:
        super().__init__(console, seat)
        self._header_for = 0
        self._last_turn: tuple[int, int] | None = None

    # -- helpers ------------------------------------------------------------------
    def name(self, obs: dict[str, Any], seat: int) -> str:
        """Display name of a seat ("You" for the person unless a name was set)."""
        names = [str(n) for n in obs["names"]]
        if names != [f"Player {p + 1}" for p in range(len(names))]:
            return names[seat]
        if seat == self.seat:
            return "You"
        if len(names) == 4:
            return ("West", "North", "East")[(seat - self.seat) % 4 - 1]
        return names[seat]

    def intro(self, observation: dict[str, Any]) -> str:
        """Where you sit, who deals and who leads."""
        obs = observation
        n = obs["players"]
        dealer, leader = obs["dealer"], (obs["dealer"] + 1) % n
        if n == 4:
            seats = ("You sit South, with West on your left, North opposite and East on "
                     "your right (play goes to the left).")
        else:
            seats = (f"{n} players: {self.name(obs, (self.seat + 1) % n)} sits on your left "
                     f"and {self.name(obs, (self.seat - 1) % n)} on your right (play goes to "
                     "the left).")
        deals = "You deal" if dealer == self.seat else f"{self.name(obs, dealer)} deals"
        leads = "you lead" if leader == self.seat else f"{self.name(obs, leader)} leads"
        return f"{seats} {deals}, so {leads} the first trick."

    def rules_text(self) -> str:
        """E-fuda-tori in short."""
        return RULES

    def menu(self, state: GameState, observation: dict[str, Any],
             legal: Sequence[Action]) -> list[Action]:
        """Legal cards in the hand's order (suit, then strength; the Joker last)."""
        return sorted(legal, key=lambda c: (c // 13, -(c % 13)))  # type: ignore[operator]

    def show_forced(self, state: GameState, observation: dict[str, Any],
                    action: Action) -> None:
        """The trick so far and the only card you may play."""
        obs = observation
        self._header(obs, obs["trick_number"])
        table = ", ".join(f"{self.name(obs, p)} {rules.text(c)}" for p, c in obs["trick"])
        where = f"On the table: {table}.  " if table else ""
        assert isinstance(action, int)
        self.console.print(f"{where}Your only legal card: {rules.text(action)}.")

    def show_history(self, state: GameState, observation: dict[str, Any]) -> None:
        """Every trick of the game so far: trump, leader, cards and winner."""
        obs = observation
        self.console.rule("Tricks so far")
        if not obs["tricks"]:
            self.console.print("No trick has been played yet.")
        for t in obs["tricks"]:
            cards = [c for _, c in t["cards"]]
            played = ", ".join(f"{self.name(obs, p)} {rules.text(c)}" for p, c in t["cards"])
            self.console.print(f"Trick {t['number']:2d} (trump {rules.suit_symbol(t['trump'])}): "
                               f"{played} → {self.name(obs, t['winner'])} "
                               f"({winner_reason(cards, t['number'])})")

    def _header(self, obs: dict[str, Any], number: int) -> None:
        if self._header_for >= number:
            return
        self._header_for = number
        trump = rules.trump_of(number)
        stock = obs["stock_size"]
        stock_text = (f"stock {stock} cards: top face down, {stock - 1} face up below"
                      if stock else "stock empty: no more drawing")
        self.console.rule(f"Trick {number}/{obs['tricks_total']} — trump 切り札 "
                          f"{rules.suit_symbol(trump)} {SUIT_NAMES[trump]} "
                          f"({SUIT_NAMES_JA[trump]}) — {stock_text}")

    def _captured_table(self, obs: dict[str, Any], title: str) -> Table:
        table = Table(title=title)
        table.add_column("Player")
        table.add_column("Captured pictures")
        table.add_column("Sets", justify="right")
        table.add_column("Points", justify="right")
        if obs["ranking"] is not None:
            table.add_column("Rank", justify="right")
        for p in range(obs["players"]):
            pics = [c for c in obs["captured"][p] if c != JOKER and c % 13 in (9, 10, 11)]
            row = [self.name(obs, p), cards_text(pics), str(obs["sets"][p]),
                   str(obs["scores"][p])]
            if obs["ranking"] is not None:
                row.append(str(obs["ranking"][p]))
            table.add_row(*(coloured(c) for c in row))
        return table

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

    def _show_table(self, obs: dict[str, Any]) -> None:
        self.console.print(self._captured_table(obs, "Captured picture cards (絵札)"))
        known = [f"{self.name(obs, p)}: {cards_text(obs['known_cards'][p])}"
                 for p in range(obs["players"]) if p != self.seat and obs["known_cards"][p]]
        if known:
            self.console.print("Known in hands (drawn face up): " + "; ".join(known))
        if obs["trick"]:
            self.console.print("On the table: " + ", ".join(
                f"{self.name(obs, p)} {rules.text(c)}" for p, c in obs["trick"]))
        else:
            self.console.print("You lead this trick.")

    def _show_hand(self, state: GameState, obs: dict[str, Any],
                   legal: Sequence[Action]) -> None:
        hand = obs["hand"]
        trick = [c for _, c in obs["trick"]]
        self.console.print(f"Your hand: [bold]{cards_text(hand)}[/bold]")
        obligation = describe_obligation(obs)
        if obligation:
            self.console.print(f"[yellow]{obligation}[/yellow]")
        choices = "  ".join(f"[bold]{i}[/bold]) {state.action_text(a)}"
                            for i, a in enumerate(self.menu(state, obs, legal), 1))
        self.console.print(f"Choices: {choices}")
        hand_mask = rules.mask_of_list(hand)
        for c in hand:
            if c not in legal:
                reason = rules.illegal_card_reason(c, hand_mask, trick, obs["trick_number"])
                if reason:
                    self.console.print(f"  [dim]{rules.text(c)}: {reason}[/dim]")

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
        extra = ""
        if action == JOKER:
            extra = " (Joker: every later player holding a trump must play one)"
        elif action == SPADE_THREE and not joker_seen and JOKER in played:
            extra = " (♠3: the Joker's holder had to play it)"
        elif action == SPADE_THREE and not joker_seen:
            extra = " (♠3: whoever holds the Joker must play it now)"
        elif action == SPADE_ACE:
            extra = " (Almighty オールマイティ)"
        who = self.name(obs, seat)
        self.console.print(f"{who} {'play' if who == 'You' else 'plays'} "
                           f"{state.action_text(action)}{extra}")
        if obs["trick"]:
            return
        trick = obs["tricks"][-1]
        cards = [c for _, c in trick["cards"]]
        w = trick["winner"]
        pics = [c for c in cards if c != JOKER and c % 13 in (9, 10, 11)]
        gain = f", capturing {cards_text(pics)}" if pics else ""
        self.console.print(f"[green]{self.name(obs, w)} win{'' if w == self.seat else 's'} "
                           f"trick {trick['number']} by {winner_reason(cards, trick['number'])}"
                           f"{gain}.[/green]")
        if obs["draws"] and obs["draws"][-1]["after_trick"] == trick["number"]:
            d = obs["draws"][-1]
            if d["winner"] == self.seat:
                self.console.print(f"You draw the face-down card: {rules.text(d['face_down'])}")
            else:
                self.console.print(f"{self.name(obs, d['winner'])} draws the face-down card.")
            self.console.print("Face-up draws: " + ", ".join(
                f"{self.name(obs, q)} {rules.text(c)}" for q, c in d["face_up"]))

    def show_end(self, state: GameState, observation: dict[str, Any]) -> None:
        """Final captured pictures, points and ranking."""
        obs = observation
        self.console.print(self._captured_table(obs, "Final result"))
        ranking = obs["ranking"] or []
        winners = [self.name(obs, p) for p in range(obs["players"]) if ranking[p] == 1]
        if len(winners) == 1:
            self.console.print(f"[bold]Winner: {winners[0]}[/bold]")
        else:
            self.console.print(f"[bold]Joint winners: {', '.join(winners)}[/bold]")

    def help_text(self) -> str:
        """How to type cards, and the rules in short."""
        return HELP
