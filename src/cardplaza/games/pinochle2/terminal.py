"""Terminal view of two-hand Pinochle (Rich). Shows only the human seat's observation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from rich.console import Console
from rich.table import Table
from rich.text import Text

from cardplaza.cli.style import BLACK, RED
from cardplaza.cli.view import ViewBase
from cardplaza.core.cards import PINOCHLE
from cardplaza.core.protocol import Action, GameState
from cardplaza.games.pinochle2.engine import (
    GROUP_KEYS,
    MELD_NAMES,
    MELD_POINTS,
    NO_MELD,
    SUIT_SYMBOLS,
    display_order,
    meld_card_order,
)

_SHORT = {"sequence": "seq", "pinochle": "pin", "aces": "A-around", "kings": "K-around",
          "queens": "Q-around", "jacks": "J-around"}


def card_text(c: int) -> str:
    """Text of a card, e.g. ``10♥``."""
    return PINOCHLE.text(c)


def _styled(c: int) -> Text:
    suit = (c % 24) // 6
    return Text(card_text(c), style=RED if suit in (1, 2) else BLACK)


RULES = """\
Two players, 48 cards (two of each A 10 K Q J 9 in four suits), 12 cards each; the card
under the stock turned up names trump.
 • Tricks 1–12: play any card; the higher card of the led suit or a trump wins. The
   winner of a trick may meld once (run 150, royal marriage 40, marriage 20, dix 10,
   pinochle 40, arounds 100/80/60/40), then both draw from the stock.
 • Tricks 13–24 (no stock): follow suit and win the trick if you can, else trump.
 • A, 10 and K count 10 each, the last trick 10. The higher total of counters and
   melds wins the deal. Each win raises the computer's level (the streak ladder)."""


class View(ViewBase):
    """Rich terminal view for the player at ``seat``."""

    OPTION_HELP = {  # noqa: RUF012 - read-only table
        "double_melds": "a double run and double arounds exist (and score more)",
        "new_card_rule": "every meld needs at least one card from your concealed hand",
        "level": "computer level: streak (the ladder: level 1, each win one more, up to "
                 "4) or a fixed practice level 1–4",
        "dealer": "who deals the first game: 1 the computer (you lead), 0 you",
    }

    def __init__(self, console: Console, seat: int) -> None:
        super().__init__(console, seat)
        self._tricks_seen = 0
        self._melds_seen = 0
        self._reveals_seen = 0
        self._hand: set[int] | None = None

    # -- helpers ----------------------------------------------------------------------
    def _who(self, seat: int) -> str:
        return "You" if seat == self.seat else "Computer"

    def name(self, observation: dict[str, Any], seat: int) -> str:
        """"You" or "Computer"."""
        return self._who(seat)

    def intro(self, observation: dict[str, Any]) -> str:
        """Who deals and who leads."""
        dealer = "The computer deals; you lead" if observation["dealer"] != self.seat \
            else "You deal; the computer leads"
        nine = observation["nine_turned_up"]
        bonus = ""
        if nine:
            who = "you" if nine["seat"] == self.seat else "the computer"
            bonus = (f" The card turned up is the 9 of trump: {nine['points']} for the dealer "
                     f"({who}).")
        return (f"You play against the computer. {dealer} the first trick. Trump is "
                f"{observation['trump_symbol']} (the turned-up card).{bonus}")

    def rules_text(self) -> str:
        """Two-hand Pinochle in short."""
        return RULES

    def menu(self, state: GameState, observation: dict[str, Any],
             legal: Sequence[Action]) -> list[Action]:
        """Cards by suit and rank (two copies alike in every way listed once), melds in
        the order shown."""
        obs = observation
        seen: set[tuple[Any, ...]] = set()
        out: list[Action] = []
        for a in display_order(legal):
            if isinstance(a, int) and a < 48:
                key = (a % 24, a in obs["meld_areas"][self.seat],
                       a in obs["known_held"][self.seat],
                       tuple(g for g in GROUP_KEYS if a in obs["used"][g]))
                if key in seen:
                    continue
                seen.add(key)
            out.append(a)
        return out

    @staticmethod
    def _card_choices(state: GameState, legal: Sequence[Action]) -> Text:
        choices = Text("Play: ")
        for i, a in enumerate(legal, 1):
            if i > 1:
                choices.append("  ")
            choices.append(f"{i})")
            card = cast(int, a)
            label = state.action_text(card).removeprefix("play ")
            choices.append(label, style=RED if (card % 24) // 6 in (1, 2) else BLACK)
        return choices

    def show_menu(self, state: GameState, observation: dict[str, Any],
                  menu: Sequence[Action]) -> None:
        """The numbered cards as the turn shows them (melds one per line)."""
        if observation["step"] == "meld":
            for i, a in enumerate(menu, 1):
                self.console.print(f"  {i}) {state.action_text(a)}")
            return
        self.console.print(self._card_choices(state, menu))

    def show_forced(self, state: GameState, observation: dict[str, Any],
                    action: Action) -> None:
        """A forced card, with the card led."""
        cur = observation["current_trick"]
        led = Text()
        if cur and cur["cards"]:
            led = Text("Led by the computer: ").append_text(_styled(cur["cards"][0]))
            led.append(".  ")
        if action == NO_MELD:
            return  # no meld to make: the draws follow at once
        if isinstance(action, int) and action < 48:
            self.console.print(led.append("Your only legal card: ").append_text(
                _styled(action)).append("."))
        else:
            super().show_forced(state, observation, action)

    def show_history(self, state: GameState, observation: dict[str, Any]) -> None:
        """Every trick and meld of the deal so far."""
        obs = observation
        self.console.rule(f"The deal so far (trump {obs['trump_symbol']})")
        if not obs["tricks"]:
            self.console.print("No trick has been played yet.")
        melds: dict[int, list[dict[str, Any]]] = {}
        for m in obs["melds"]:
            melds.setdefault(m["trick"], []).append(m)
        for t in obs["tricks"]:
            lead, follow = t["cards"]
            line = Text(f"Trick {t['number']:2d}: {self._who(t['leader'])} ")
            line.append_text(_styled(lead)).append(f", {self._who(1 - t['leader'])} ")
            line.append_text(_styled(follow)).append(f" → {self._who(t['winner'])}")
            for m in melds.get(t["number"], []):
                line.append(f"; meld {m['meld']} +{m['points']}", style="green")
            self.console.print(line)

    @staticmethod
    def _history(obs: dict[str, Any], c: int) -> str:
        groups = [_SHORT[g] for g in GROUP_KEYS if c in obs["used"][g]]
        return f" [used: {', '.join(groups)}]" if groups else ""

    def _cards_with_history(self, obs: dict[str, Any], cards: Sequence[int]) -> Text:
        out = Text()
        for i, c in enumerate(cards):
            if i:
                out.append("  ")
            out.append_text(_styled(c))
            hist = self._history(obs, c)
            if hist:
                out.append(hist, style="dim")
        return out

    # -- protocol ---------------------------------------------------------------------
    def show_turn(self, state: GameState, observation: dict[str, Any],
                  legal: Sequence[Action]) -> None:
        """Table, hand (sorted by suit then rank) and the numbered legal choices."""
        obs = observation
        me, opp = self.seat, 1 - self.seat
        con = self.console
        legal = self.menu(state, obs, legal)
        phase = "stock phase" if obs["phase"] == "stock" else "playoff"
        head = Text(f"Trick {obs['trick_number']} · {phase} · trump {obs['trump_symbol']}")
        if obs["turn_up"] is not None:
            head.append(" · turn-up ")
            head.append_text(_styled(obs["turn_up"]))
            head.append(f" · stock {obs['stock_count']} cards")
        head.append(f" · melds: you {obs['meld_points'][me]}, "
                    f"computer {obs['meld_points'][opp]}")
        con.rule(head)
        hidden = obs["concealed_sizes"][opp]
        con.print(Text(f"Computer: {hidden} concealed card{'s' if hidden != 1 else ''}"))
        if obs["meld_areas"][opp]:
            con.print(Text("  meld area: ").append_text(
                self._cards_with_history(obs, obs["meld_areas"][opp])))
        if obs["known_held"][opp]:
            con.print(Text("  known to hold: ").append_text(
                self._cards_with_history(obs, obs["known_held"][opp])))
        if obs["meld_areas"][me]:
            con.print(Text("Your meld area: ").append_text(
                self._cards_with_history(obs, obs["meld_areas"][me])))
        con.print(Text("Your hand: ").append_text(
            self._cards_with_history(obs, obs["hand"])))
        cur = obs["current_trick"]
        if cur and cur["cards"]:
            con.print(Text("Led by the computer: ").append_text(_styled(cur["cards"][0])))
        if obs["step"] == "meld":
            con.print("[bold]You won the trick: choose one meld, or decline.[/bold]")
            for i, a in enumerate(legal, 1):
                if a == NO_MELD:
                    con.print(f"  {i}) no meld")
                    continue
                t, mask = cast(tuple[int, int], a)
                cards = [c for c in range(48) if (mask >> c) & 1]
                line = Text(f"  {i}) {state.action_text(a)}  (+{MELD_POINTS[t]})")
                conc = [c for c in cards if c not in obs["meld_areas"][me]]
                line.append(f"  puts down {len(conc)} card{'' if len(conc) == 1 else 's'}",
                            style="dim")
                hist = [card_text(c) + self._history(obs, c) for c in cards
                        if self._history(obs, c)]
                if hist:
                    line.append("  " + "; ".join(hist), style="dim")
                con.print(line)
            return
        con.print(self._card_choices(state, legal))
        reasons = state.illegal_card_reasons()
        if reasons:
            con.print(f"[dim]{next(iter(reasons.values()))}[/dim]")

    def show_action(self, state: GameState, seat: int, action: Action,
                    observation: dict[str, Any]) -> None:
        """Report plays, completed tricks, melds, exchanges and the trick-12 cards."""
        obs = observation
        con = self.console
        if isinstance(action, int) and action < 48 and seat != self.seat:
            con.print(Text("Computer plays ").append_text(_styled(action)))
        for t in obs["tricks"][self._tricks_seen:]:
            lead, follow = t["cards"]
            line = Text(f"Trick {t['number']}: {self._who(t['leader'])} ")
            line.append_text(_styled(lead))
            line.append(f", {self._who(1 - t['leader'])} ")
            line.append_text(_styled(follow))
            line.append(f" — {'you win' if t['winner'] == self.seat else 'computer wins'}")
            con.print(line)
        self._tricks_seen = len(obs["tricks"])
        for m in obs["melds"][self._melds_seen:]:
            order = meld_card_order(MELD_NAMES.index(m["meld"]), sum(1 << c for c in m["cards"]))
            cards = " ".join(card_text(c) for c in order)
            verb = "meld" if m["seat"] == self.seat else "melds"
            text = f"{self._who(m['seat'])} {verb} {m['meld']} {cards} (+{m['points']})"
            if m["received"] is not None:
                text += f"; exchanged for the turn-up {card_text(m['received'])}"
            con.print(f"[green]{text}[/green]")
        self._melds_seen = len(obs["melds"])
        for r in obs["reveals"][self._reveals_seen:]:
            if r["how"] != "dix exchange":
                con.print(f"{self._who(r['seat'])} took {card_text(r['card'])} "
                          f"({r['how']}, shown)")
        self._reveals_seen = len(obs["reveals"])
        hand = set(obs["hand"])
        if self._hand is not None and obs["phase"] == "stock":
            new = sorted(hand - self._hand)
            received = {m["received"] for m in obs["melds"]}
            drawn = [c for c in new if c not in received]
            if drawn:
                con.print(f"You drew {' '.join(card_text(c) for c in drawn)}")
        self._hand = hand

    def show_end(self, state: GameState, observation: dict[str, Any]) -> None:
        """End-of-deal summary: counters, melds, last trick, totals and result."""
        res = observation["result"]
        me, opp = self.seat, 1 - self.seat
        table = Table(title="End of the deal")
        table.add_column("")
        table.add_column("You", justify="right")
        table.add_column("Computer", justify="right")
        table.add_row("Counters (A/10/K)", str(res["counters"][me]), str(res["counters"][opp]))
        table.add_row("Melds", str(res["meld_points"][me]), str(res["meld_points"][opp]))
        table.add_row("Last trick", "10" if res["last_trick"] == me else "0",
                      "10" if res["last_trick"] == opp else "0")
        table.add_row("Total", str(res["totals"][me]), str(res["totals"][opp]))
        self.console.print(table)
        for m in observation["melds"]:
            self.console.print(f"  {self._who(m['seat'])}: {m['meld']} (+{m['points']})")
        if observation["nine_turned_up"]:
            self.console.print(f"  {self._who(observation['nine_turned_up']['seat'])}: "
                               "9 turned up (+10)")
        winner = res["winner"]
        if winner is None:
            self.console.print("[bold]Draw.[/bold]")
        else:
            margin = abs(res["totals"][0] - res["totals"][1])
            who = "You win" if winner == me else "The computer wins"
            self.console.print(f"[bold]{who} by {margin}.[/bold]")

    def help_text(self) -> str:
        """How to type actions."""
        suits = " ".join(SUIT_SYMBOLS)
        return (
            "Play a card: its number in the list, or the card: 10h, 'play 10♥', qs, th, A♦.\n"
            f"Suits: s h d c or {suits}; ranks A 10 (or T) K Q J 9. When your two copies of a "
            "card differ (one melded, or used in a meld group), add #1 or #2 to pick a copy.\n"
            "After winning a stock-phase trick: pick a meld by its number, or type it: "
            "'meld run', 'meld royal marriage K♥ Q♥', 'meld K♠ Q♠', 'meld dix', "
            "'meld kings around'; or 'no meld'.\n"
            "Melds: run 150, royal marriage 40, marriage 20, dix 10, pinochle (Q♠ J♦) 40, "
            "double pinochle 300, aces/kings/queens/jacks around 100/80/60/40. A card may be "
            "reused only in a meld of another group; each meld needs a card from your "
            "concealed hand. In the playoff you must follow suit and win if you can, else "
            "trump."
        )
