"""Terminal view (Rich) for partnership and cut-throat Pinochle.

The person sits at ``seat`` (South in four hands, partner North). Everything shown comes
from the person's observation; the state is used only for action texts and the numbered
menu of the person's own choices.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from cardplaza.core.cards import mask_of
from cardplaza.core.protocol import Action, GameState
from cardplaza.games.pinochle4.helper import completions, suit_melds
from cardplaza.games.pinochle4.rules import SUIT_SYMBOLS, card_text

NAMES4 = ("South", "West", "North", "East")
NAMES3 = ("P0", "P1", "P2")
_RED = {1, 2}


def _card(c: int) -> str:
    text = card_text(c)
    return f"[red]{text}[/red]" if c % 24 // 6 in _RED else text


def _cards(cards: Sequence[int]) -> str:
    return " ".join(_card(c) for c in cards)


class View:
    """Rich terminal view of both Pinochle variants."""

    def __init__(self, console: Console, seat: int) -> None:
        self.console = console
        self.seat = seat
        self._shown_melds = -1
        self._hand_seen = -1

    # -- helpers --------------------------------------------------------------------------
    def name(self, obs: dict[str, Any], seat: int) -> str:
        """Display name of a seat ("You" for the person)."""
        names = NAMES4 if obs["players"] == 4 else NAMES3
        return f"{names[seat]} (you)" if seat == self.seat else names[seat]

    def _side_names(self, obs: dict[str, Any]) -> list[str]:
        if obs["players"] == 4:
            return ["North–South", "East–West"]
        return [self.name(obs, s) for s in range(3)]

    def _scores(self, obs: dict[str, Any]) -> str:
        sides = self._side_names(obs)
        return "  ".join(f"{n}: {v}" for n, v in zip(sides, obs["scores"], strict=True)) + \
            f"   (target {obs['target']})"

    def _header(self, obs: dict[str, Any]) -> None:
        trump = "—" if obs["trump"] is None else SUIT_SYMBOLS[obs["trump"]]
        contract = ""
        if obs["bidder"] is not None:
            contract = f"  Contract: {obs['contract']} by {self.name(obs, obs['bidder'])}"
        self.console.rule(f"Hand {obs['hand_number']} — dealer {self.name(obs, obs['dealer'])}"
                          f"  Trump: {trump}{contract}")
        self.console.print(self._scores(obs))

    def _menu(self, state: GameState) -> None:
        menu: list[Action] = state.choices()  # type: ignore[attr-defined]
        self.console.print("  ".join(f"[bold]{i}[/bold]) {state.action_text(a)}"
                                     for i, a in enumerate(menu, 1)))

    def _helper(self, obs: dict[str, Any], title: str) -> None:
        hand = mask_of(obs["hand"])
        opts = obs["options"]
        rows = suit_melds(hand, opts["extra_kq"], opts["one_point"])
        holder = 12 if obs["players"] == 4 else 3
        who = "partner" if obs["players"] == 4 else "widow"
        table = Table(title=title)
        table.add_column("Trump")
        table.add_column("Meld", justify="right")
        table.add_column("Breakdown")
        table.add_column(f"Wanted cards (chance the {who} has one)")
        for row in rows:
            parts = ", ".join(f"{m['name']} {m['value']}" for m in row["melds"]) or "—"
            wants = completions(hand, row["suit"], 0, holder, opts["extra_kq"],
                                opts["one_point"])[:3]
            wanted = ", ".join(f"{w['card']} +{w['gain']} ({w['probability']:.0%})"
                               for w in wants) or "—"
            table.add_row(row["symbol"], str(row["value"]), parts, wanted)
        self.console.print(table)

    def _melds(self, obs: dict[str, Any]) -> None:
        if obs["melds"] is None:
            return
        table = Table(title="Melds")
        table.add_column("Player")
        table.add_column("Meld", justify="right")
        table.add_column("Breakdown")
        for seat, m in enumerate(obs["melds"]):
            parts = "; ".join(f"{x['name']} {x['value']} ({_cards(x['cards'])})"
                              for x in m["melds"]) or "—"
            table.add_row(self.name(obs, seat), str(m["value"]), parts)
        self.console.print(table)

    def _trick_line(self, obs: dict[str, Any], cards: list[list[int]]) -> str:
        return "  ".join(f"{self.name(obs, s)}: {_card(c)}" for s, c in cards)

    # -- protocol -------------------------------------------------------------------------
    def show_turn(self, state: GameState, observation: dict[str, Any],
                  legal: Sequence[Action]) -> None:
        """Draw the table and the numbered choices before the person acts."""
        obs = observation
        self._header(obs)
        phase = obs["phase"]
        if phase == "bidding":
            bids = ", ".join(f"{self.name(obs, s)} {'pass' if a == 0 else a}"
                             for s, a in obs["bids"]) or "no bids yet"
            self.console.print(f"Bids: {bids}")
            self._helper(obs, "Bidding helper: your meld if each suit were trump")
        elif phase == "trump":
            self._helper(obs, "Name trump: your meld with each suit")
        elif phase == "passing":
            p = obs["passing"]
            if p["received"]:
                self.console.print(f"Received from partner: {_cards(p['received'])}")
            self.console.print(f"Choose {p['count']} cards to pass to your partner; chosen: "
                               f"{_cards(p['selected']) or '—'}")
        elif phase == "discard":
            self.console.print(f"Widow: {_cards(obs['widow'] or [])}.  Discard 3 cards; "
                               f"discarded: {_cards(obs['discards'] or []) or '—'}")
        elif phase == "play":
            if self._shown_melds != obs["hand_number"]:
                self._melds(obs)
                self._shown_melds = obs["hand_number"]
            if obs["tricks"]:
                last = obs["tricks"][-1]
                self.console.print(f"Last trick: {self._trick_line(obs, last['cards'])} → "
                                   f"{self.name(obs, last['winner'])}")
            won = obs["tricks_won"]
            self.console.print("Tricks: " + "  ".join(
                f"{self.name(obs, s)} {won[s]}" for s in range(obs["players"])))
            self.console.print(f"Trick: {self._trick_line(obs, obs['trick']) or '(you lead)'}")
        self.console.print(f"Your hand: {_cards(obs['hand'])}")
        self._menu(state)

    def show_action(self, state: GameState, seat: int, action: Action,
                    observation: dict[str, Any]) -> None:
        """Report an action; announce trick winners, melds and hand results."""
        obs = observation
        assert isinstance(action, tuple)
        kind = action[0]
        who = self.name(obs, seat)
        if kind == 0:
            self.console.print(f"{who}: {'pass' if action[1] == 0 else f'bids {action[1]}'}")
        elif kind == 5:
            self.console.print(f"{who}: bids {action[1]}")
        elif kind == 1:
            self.console.print(f"{who} names trump {SUIT_SYMBOLS[action[1]]}")
        elif kind == 2:
            text = f"passes {card_text(action[1])}" if seat == self.seat else "passes a card"
            self.console.print(f"{who} {text}")
        elif kind == 3:
            text = (f"discards {card_text(action[1])}" if seat == self.seat
                    else "discards a card")
            self.console.print(f"{who} {text}")
        else:
            self.console.print(f"{who} plays {_card(action[1])}")
            if not obs["trick"] and obs["tricks"] and obs["phase"] == "play":
                self.console.print(f"  → trick to {self.name(obs, obs['tricks'][-1]['winner'])}")
        if obs["phase"] == "play" and self._shown_melds != obs["hand_number"]:
            self._melds(obs)
            self._shown_melds = obs["hand_number"]
        if obs["history"] and self._hand_seen != len(obs["history"]):
            self._hand_seen = len(obs["history"])
            if obs["history"][-1].get("redeal") is True and obs["phase"] != "over":
                self.console.print("[yellow]Everybody passed: the cards are redealt.[/yellow]")
            elif obs["last_hand"] is not None:
                self._hand_result(obs)

    def _hand_result(self, obs: dict[str, Any]) -> None:
        h = obs["last_hand"]
        sides = self._side_names(obs)
        bidder = self.name(obs, h["bidder"])
        if h["throw_in"]:
            self.console.print(f"[yellow]Throw-in:[/yellow] {bidder}'s side cannot reach "
                               f"{h['bid']} (meld + all trick points); no play.")
        else:
            if h["last_trick"]:
                self.console.print(f"Last trick: {self._trick_line(obs, h['last_trick'])}")
            verdict = "made" if h["made"] else "[red]set[/red]"
            self.console.print(f"{bidder} bid {h['bid']}: {verdict}.")
        table = Table(title=f"Hand {h['hand']} result")
        table.add_column("Side")
        table.add_column("Meld", justify="right")
        table.add_column("Trick points", justify="right")
        table.add_column("Score", justify="right")
        table.add_column("Total", justify="right")
        for i, name in enumerate(sides):
            tp = "—" if h["trick_points"] is None else str(h["trick_points"][i])
            table.add_row(name, str(h["side_melds"][i]), tp, f"{h['score_change'][i]:+d}",
                          str(h["scores"][i]))
        self.console.print(table)
        if obs["players"] == 3 and h.get("widow"):
            self.console.print(f"Widow was: {_cards(h['widow'])}")

    def show_end(self, state: GameState, observation: dict[str, Any]) -> None:
        """Final scores and the winner."""
        obs = observation
        self.console.rule("Game over")
        self.console.print(self._scores(obs))
        winner = obs["winner"]
        sides = self._side_names(obs)
        if winner is not None:
            mine = winner == (self.seat % 2 if obs["players"] == 4 else self.seat)
            self.console.print(f"[bold]{sides[winner]} win{'s' if obs['players'] == 3 else ''}"
                               f"{' — congratulations!' if mine else '.'}[/bold]")

    def help_text(self) -> str:
        """How to type actions."""
        return ("Type the number of a choice, or: 'pass', 'bid 260' (or just 260; any "
                "higher multiple of the step is a jump bid), 'trump ♠' (or s/h/d/c), a card "
                "such as A♠, 10h or qs to pass, discard or play it.")
