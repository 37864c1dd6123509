"""Terminal view (Rich) for partnership and cut-throat Pinochle.

The person sits at ``seat`` (South in four hands, partner North; South in cut-throat with
West on the left and East on the right). Everything shown comes from the person's
observation; the state is used only for action texts and the numbered menu of the
person's own choices. During the auction a bare number is a bid amount (``#2`` picks menu
item 2), as everywhere in terminal play.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from cardplaza.cli.style import markup
from cardplaza.cli.view import ViewBase
from cardplaza.core.cards import mask_of
from cardplaza.core.protocol import Action, GameState
from cardplaza.games.pinochle4.helper import completions, suit_melds
from cardplaza.games.pinochle4.rules import SUIT_SYMBOLS, card_text
from cardplaza.games.pinochle_common.view_parts import PinochleViewParts

NAMES4 = ("South", "West", "North", "East")
NAMES3 = ("South", "West", "East")
_RED = {1, 2}

RULES4 = """\
Four players in two partnerships (you and North against West and East), 48 cards (two
of each A 10 K Q J 9 in four suits), 12 cards each.
 • Auction: each bids the points his side will make (melds + counters) or passes; the
   high bidder names trump. Partner passes the bidder cards, the bidder passes as many
   back (option passing).
 • Meld: runs, marriages, pinochle (Q♠ J♦), arounds … count for the side.
 • Play: follow suit, beat the trick when you can, trump when void. A, 10 and K count
   (plus the last trick). The bidding side must make its bid or loses it.
 • The first side to reach the target wins (the bidding side first when both do)."""

RULES3 = """\
Cut-throat: three players each for himself, 15 cards each and a widow of 3.
 • Auction as in four hands; the high bidder takes the widow (shown to all), names trump
   and buries 3 cards.
 • Meld and play as in four hands; the two others play against the bidder, but score
   alone. The first to reach the target wins (the bidder first when several do)."""


def _card(c: int) -> str:
    text = card_text(c)
    return f"[red]{text}[/red]" if c % 24 // 6 in _RED else text


def _cards(cards: Sequence[int]) -> str:
    return " ".join(_card(c) for c in cards)


class View(PinochleViewParts, ViewBase):
    """Rich terminal view of both Pinochle variants."""

    PLAY_KIND = 4

    OPTION_HELP = {  # noqa: RUF012 - read-only table
        "target": "points a side needs to win the game",
        "one_point": "count in ones instead of tens (A/10/K = 1, bids and melds ÷ 10)",
        "counters": "card values in tricks: A (A, 10, K 10 each), B (A 11, 10 10, K 4, Q 3, "
                    "J 2), C (A and 10 10, K and Q 5)",
        "min_bid": "the lowest opening bid",
        "passing": "cards the bidder's partner passes him, and he passes back (0: none)",
        "beat_only_trump_leads": "you must beat the trick only when trump is led (else "
                                 "following suit is enough)",
        "extra_kq": "a run with an extra trump K or Q scores 190 (with both, 230)",
        "all_pass_redeal": "when everybody passes the cards are redealt "
                           "(off: the dealer is stuck with the minimum bid)",
        "strength": "computer level of every computer seat (as --level)",
    }

    def __init__(self, console: Console, seat: int) -> None:
        super().__init__(console, seat)
        self._shown_melds = -1
        self._hand_seen = -1
        self._stuck_told = -1
        self._received_told: tuple[int, tuple[int, ...]] = (-1, ())
        self._players = 4

    # -- helpers --------------------------------------------------------------------------
    def name(self, obs: dict[str, Any], seat: int) -> str:
        """Display name of a seat ("South (you)" for the person)."""
        names = NAMES4 if obs["players"] == 4 else NAMES3
        place = names[(seat - self.seat) % len(names)] if self.seat >= 0 else names[seat]
        return f"{place} (you)" if seat == self.seat else place

    def intro(self, obs: dict[str, Any]) -> str:
        """Your seat, partner and opponents."""
        self._players = obs["players"]
        if obs["players"] == 4:
            return ("You are South; your partner is North. West (on your left) and East "
                    f"play against you. First to {obs['target']} wins.")
        return ("You are South and play alone against West (on your left) and East. "
                f"First to {obs['target']} wins.")

    def rules_text(self) -> str:
        """Partnership or cut-throat rules in short."""
        return RULES4 if self._players == 4 else RULES3

    def menu(self, state: GameState, observation: dict[str, Any],
             legal: Sequence[Action]) -> list[Action]:
        """The engine's numbered menu (bids include jumps; one copy of each card)."""
        self._players = observation["players"]
        return super().menu(state, observation, legal)

    def _side_names(self, obs: dict[str, Any]) -> list[str]:
        if obs["players"] == 4:
            return ["North–South", "East–West"]
        return [self.name(obs, s) for s in range(3)]

    def _card(self, card: int) -> str:
        return _card(card)

    _fallback_forced = ViewBase.show_forced

    def _scores(self, obs: dict[str, Any]) -> str:
        sides = self._side_names(obs)
        return "  ".join(f"{n}: {v}" for n, v in zip(sides, obs["scores"], strict=True)) + \
            f"   (target {obs['target']})"

    def _menu(self, state: GameState) -> None:
        menu: list[Action] = state.choices()  # type: ignore[attr-defined]
        self.show_menu(state, {}, menu)

    def show_menu(self, state: GameState, observation: dict[str, Any],
                  menu: Sequence[Action]) -> None:
        """Numbered bids, suits or cards (a card choice shows just the card)."""
        def label(a: Action) -> str:
            assert isinstance(a, tuple)
            return _card(a[1]) if a[0] in (2, 3, 4) else state.action_text(a)

        self.console.print("  ".join(f"[bold]{i})[/bold] {label(a)}"
                                     for i, a in enumerate(menu, 1)))

    def _helper(self, obs: dict[str, Any], title: str) -> None:
        hand = mask_of(obs["hand"])
        opts = obs["options"]
        rows = suit_melds(hand, opts["extra_kq"], opts["one_point"])
        four = obs["players"] == 4
        # The widow's cards are in the bidder's hand once the auction is won: nothing
        # is left to hope for from it.
        wanted_from = "partner" if four else ("widow" if obs["widow"] is None else None)
        table = Table(title=title, title_justify="left")
        table.add_column("Trump")
        table.add_column("Meld", justify="right")
        table.add_column("Breakdown")
        if wanted_from:
            table.add_column(f"Wanted cards (chance the {wanted_from} has one)")
        for row in rows:
            parts = ", ".join(f"{m['name']} {m['value']}" for m in row["melds"]) or "—"
            cells = [row["symbol"], str(row["value"]), parts]
            if wanted_from:
                wants = completions(hand, row["suit"], 0, 12 if four else 3,
                                    opts["extra_kq"], opts["one_point"])[:3]
                cells.append(", ".join(f"{w['card']} +{w['gain']} ({w['probability']:.0%})"
                                       for w in wants) or "—")
            table.add_row(*(markup(c) for c in cells))
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
            table.add_row(self.name(obs, seat), str(m["value"]), markup(parts))
        self.console.print(table)

    # -- protocol -------------------------------------------------------------------------
    def show_turn(self, state: GameState, observation: dict[str, Any],
                  legal: Sequence[Action]) -> None:
        """Draw the table and the numbered choices before the person acts."""
        obs = observation
        self._players = obs["players"]
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
            self.console.print(f"Widow: {_cards(obs['widow'] or [])}.  Bury 3 cards (they "
                               f"count for you in tricks); buried: "
                               f"{_cards(obs['discards'] or []) or '—'}")
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
        if phase == "bidding":
            self.console.print("[dim]Type an amount to bid it (e.g. "
                               f"{state.choices()[1][1]}), 'pass', or #2 for item 2.[/dim]"  # type: ignore[attr-defined]
                               )

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
            self._give_news(obs, seat, who, action[1])
        elif kind == 3:
            if seat == self.seat:
                self.console.print(f"{who} buries {_card(action[1])}")
            elif obs["discard_count"] == 3:
                self.console.print(f"{who} buries 3 cards.")
        else:
            self._play_news(obs, who, action[1])
        self._auction_news(obs)
        if obs["phase"] == "play" and self._shown_melds != obs["hand_number"]:
            self._melds(obs)
            self._shown_melds = obs["hand_number"]
        if obs["history"] and self._hand_seen != len(obs["history"]):
            self._hand_seen = len(obs["history"])
            if obs["history"][-1].get("redeal") is True and obs["phase"] != "over":
                self.console.print("[yellow]Everybody passed: the cards are redealt.[/yellow]")
            elif obs["last_hand"] is not None:
                self._hand_result(obs)

    def _auction_news(self, obs: dict[str, Any]) -> None:
        """A stuck dealer, and the cards your partner passed you."""
        hand = obs["hand_number"]
        if obs["bidder"] is not None and self._stuck_told != hand:
            self._stuck_told = hand
            who = self.name(obs, obs["bidder"])
            if obs["stuck_dealer"]:
                self.console.print(f"[yellow]Everybody else passed: the dealer, {who}, is "
                                   f"stuck with the minimum bid of {obs['contract']}.[/yellow]")
            else:
                self.console.print(f"{who} wins the auction at {obs['contract']}.")
            if obs["widow"]:
                self.console.print(f"The widow, taken by {who}: {_cards(obs['widow'])}")
        p = obs.get("passing")
        if p and p["received"] and len(p["received"]) == p["count"]:
            got = (hand, tuple(p["received"]))
            if got != self._received_told:
                self._received_told = got
                partner = self.name(obs, (self.seat + 2) % 4)
                self.console.print(f"{partner} passes you: {_cards(p['received'])}")

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
