"""Terminal view (Rich) of double-deck Pinochle.

The person sits South, partner North, West on the left and East on the right. Everything
shown comes from the person's observation; the state is used only for action texts and
the numbered menu. A 20-card hand is shown one suit a line, high to low, with the count
of each suit. During the auction a bare number is a bid amount (``#2`` picks item 2).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from cardplaza.cli.style import markup
from cardplaza.cli.view import ViewBase
from cardplaza.core.protocol import Action, GameState
from cardplaza.games.pinochle_common.view_parts import PinochleViewParts
from cardplaza.games.pinochle_dd.engine import (
    BID_KINDS,
    K_GIVE,
    K_PLAY,
    K_THROW_IN,
    K_TRUMP,
)
from cardplaza.games.pinochle_dd.meld import meld_breakdown
from cardplaza.games.pinochle_dd.players import meld_bids
from cardplaza.games.pinochle_dd.rules import SUIT_SYMBOLS, card_text, mask_of_faces

NAMES = ("South", "West", "North", "East")
_RED = {1, 2}

RULES = """\
Four players in two partnerships (you and North against West and East), 80 cards (four
of each A 10 K Q J in four suits), 20 cards each.
 • Auction from 50: each bids the points his side will make (meld + counters) or passes
   for good. Below 60 a raise of 1, 2, 3 … tells partner "I hold about 10, 20, 30 … meld".
 • The declarer names trump; partner passes him cards, he passes as many back.
 • Meld: runs (A 10 K Q J of trump), marriages (K Q), arounds (one of a rank in each
   suit), pinochle (Q♠ J♦); doubles and more score far more (double run 150, double
   aces 100). A side's meld counts only if it takes 20 counters (option save_meld).
 • Play: follow suit and beat the trick when you can, else trump (over-trump if able).
   A, 10 and K are one counter each, the last trick two: 50 in a hand.
 • The declarer's side must make its bid (meld + counters) or loses it. The declarer
   may throw the hand in before the first lead. First side to the target wins (the
   declarer's side when both reach it)."""


def _card(f: int) -> str:
    text = card_text(f)
    return f"[red]{text}[/red]" if f // 5 in _RED else text


def _cards(faces: Sequence[int]) -> str:
    return " ".join(_card(f) for f in faces)


def _by_suit(faces: Sequence[int]) -> list[tuple[int, list[int]]]:
    """Faces grouped by suit (♠ ♥ ♦ ♣, each high to low), empty suits left out."""
    out = []
    for s in range(4):
        group = sorted((f for f in faces if f // 5 == s), key=lambda f: -(f % 5))
        if group:
            out.append((s, group))
    return out


def hand_lines(faces: Sequence[int], trump: int | None = None) -> list[str]:
    """One line per suit: symbol, count and the cards (``*`` marks trump)."""
    lines = []
    for s, group in _by_suit(faces):
        mark = "*" if s == trump else " "
        sym = f"[red]{SUIT_SYMBOLS[s]}[/red]" if s in _RED else SUIT_SYMBOLS[s]
        ranks = " ".join(card_text(f)[:-1] for f in group)
        if s in _RED:
            ranks = f"[red]{ranks}[/red]"
        lines.append(f"  {sym}{mark} {len(group):2d}  {ranks}")
    return lines


def meld_bid_note(bids: Sequence[Sequence[int]], scale: int) -> dict[int, str]:
    """For each bid (by index) that reads as a meld bid (section 8): what it shows."""
    notes = {}
    for i, meld in meld_bids(bids, scale).items():
        notes[i] = f"about {meld * scale} meld"
        opening = all(a == 0 for _, a in bids[:i])
        if opening and meld == 10:
            notes[i] += ", often aces around"
    return notes


class View(PinochleViewParts, ViewBase):
    """Rich terminal view of double-deck Pinochle."""

    PLAY_KIND = K_PLAY

    OPTION_HELP = {  # noqa: RUF012 - read-only table
        "target": "points a side needs to win the game (unit scale; ×10 with scale x10)",
        "bid_steps": "allowed bids: 1-then-5 (50 … 60, then 65, 70 …), 1 (every amount), "
                     "5 (multiples of 5), 10-from-100 (every amount to 100, then tens)",
        "all_pass": "when all four pass: stuck (the dealer plays 50) or redeal",
        "marriage_required": "a declarer without K and Q of trump (after passing) is set "
                             "without play",
        "pass_count": "cards the declarer's partner passes him, and he passes back (0: none)",
        "must_head": "you must beat the trick when following suit, and over-trump a trump, "
                     "if you can",
        "first_lead_trump": "the declarer's first lead must be a trump when the bid is above 50",
        "counters": "cards worth a point in tricks: aces-tens-kings (50 a hand with the last "
                    "trick) or aces-tens (34)",
        "save_meld": "when a side's meld counts: 20-counters (20 meld and 20 counters taken), "
                     "one-trick (any trick taken), always",
        "set_scoring": "a set side: minus (loses its bid) or progressive (scores 0, the "
                       "defenders gain the bid)",
        "min_meld_20": "a declarer's side with less than 20 meld is set without play",
        "throw_in_award": "a thrown-in hand gives the defenders their meld, or their meld and "
                          "every counter",
        "scale": "unit (bids from 50) or x10 (every amount ×10: bids from 500)",
    }

    def __init__(self, console: Console, seat: int) -> None:
        super().__init__(console, seat)
        self._shown_melds = -1
        self._hand_seen = -1
        self._won_told = -1
        self._received_told: tuple[int, tuple[int, ...]] = (-1, ())

    # -- helpers --------------------------------------------------------------------------
    def name(self, obs: dict[str, Any], seat: int) -> str:
        """Display name of a seat ("South (you)" for the person)."""
        place = NAMES[(seat - self.seat) % 4] if self.seat >= 0 else NAMES[seat]
        return f"{place} (you)" if seat == self.seat else place

    def intro(self, obs: dict[str, Any]) -> str:
        """Your seat, partner and opponents."""
        return ("You are South; your partner is North. West (on your left) and East play "
                f"against you. First side to {obs['target']} wins.")

    def rules_text(self) -> str:
        """The rules in short."""
        return RULES

    def _bids_line(self, obs: dict[str, Any]) -> str:
        notes = meld_bid_note(obs["bids"], obs["scale"])
        parts = []
        for i, (s, a) in enumerate(obs["bids"]):
            text = f"{self.name(obs, s)} {'pass' if a == 0 else a}"
            if i in notes:
                text += f" ({notes[i]})"
            parts.append(text)
        return ", ".join(parts) or "no bids yet"

    def _card(self, card: int) -> str:
        return _card(card)

    def _rich(self, text: str) -> str | Text:
        return markup(text)

    _fallback_forced = ViewBase.show_forced

    def _scores(self, obs: dict[str, Any]) -> str:
        ns, ew = obs["scores"]
        us, them = (ns, ew) if self.seat % 2 == 0 else (ew, ns)
        return f"Your side: {us}   Opponents: {them}   (target {obs['target']})"

    def show_menu(self, state: GameState, observation: dict[str, Any],
                  menu: Sequence[Action]) -> None:
        """Numbered bids or suits on one line; numbered cards one suit a line."""
        cards = [(i, a) for i, a in enumerate(menu, 1)
                 if isinstance(a, tuple) and a[0] in (K_GIVE, K_PLAY)]
        if not cards:
            self.console.print("  ".join(f"[bold]{i})[/bold] {self._label(state, a)}"
                                         for i, a in enumerate(menu, 1)))
            return
        for s in range(4):
            row = [f"[bold]{i})[/bold] {_card(a[1])}"
                   for i, a in cards if a[1] // 5 == s]
            if row:
                self.console.print("  " + "  ".join(row))
        rest = [(i, a) for i, a in enumerate(menu, 1) if (i, a) not in cards]
        if rest:
            self.console.print("  " + "  ".join(f"[bold]{i})[/bold] {self._label(state, a)}"
                                                for i, a in rest))

    def _label(self, state: GameState, a: Action) -> str:
        assert isinstance(a, tuple)
        if a[0] == K_TRUMP:
            return SUIT_SYMBOLS[a[1]]
        if a[0] == K_THROW_IN:
            return "throw in (concede the bid)"
        return state.action_text(a)

    def _helper(self, obs: dict[str, Any], title: str) -> None:
        hand = mask_of_faces(obs["hand"])
        k = obs["scale"]
        table = Table(title=title, title_justify="left")
        table.add_column("Trump")
        table.add_column("Meld", justify="right")
        table.add_column("Breakdown")
        for s in range(4):
            r = meld_breakdown(hand, s)
            parts = ", ".join(f"{m.name} {m.value * k}" for m in r.melds) or "—"
            table.add_row(SUIT_SYMBOLS[s], str(r.total * k), markup(parts))
        self.console.print(table)

    def _melds(self, obs: dict[str, Any]) -> None:
        if obs["melds"] is None:
            return
        table = Table(title="Melds")
        table.add_column("Player")
        table.add_column("Meld", justify="right")
        table.add_column("Breakdown")
        for seat, m in enumerate(obs["melds"]):
            parts = "; ".join(f"{x['name']} {x['value']}" for x in m["melds"]) or "—"
            table.add_row(self.name(obs, seat), str(m["value"]), markup(parts))
        self.console.print(table)
        melds = obs["melds"]
        ns, ew = melds[0]["value"] + melds[2]["value"], melds[1]["value"] + melds[3]["value"]
        us, them = (ns, ew) if self.seat % 2 == 0 else (ew, ns)
        self.console.print(f"Meld: your side {us}, opponents {them}.")

    def _hand(self, obs: dict[str, Any]) -> None:
        self.console.print(f"Your hand ({len(obs['hand'])} cards):")
        for line in hand_lines(obs["hand"], obs["trump"]):
            self.console.print(markup(line))

    # -- protocol -------------------------------------------------------------------------
    def show_turn(self, state: GameState, observation: dict[str, Any],
                  legal: Sequence[Action]) -> None:
        """Draw the table and the numbered choices before the person acts."""
        obs = observation
        self._header(obs)
        phase = obs["phase"]
        if phase == "bidding":
            self.console.print(f"Bids: {self._bids_line(obs)}")
            self._helper(obs, "Your meld if each suit were trump")
        elif phase == "trump":
            self._helper(obs, "Name trump: your meld with each suit")
        elif phase == "passing":
            p = obs["passing"]
            partner = self.name(obs, (self.seat + 2) % 4)
            if p["received"]:
                self.console.print(markup(f"Received from {partner}: {_cards(p['received'])}"))
            self.console.print(markup(f"Choose {p['count']} cards to pass to {partner}; "
                                      f"chosen: {_cards(p['selected']) or '—'}"))
            meld = meld_breakdown(mask_of_faces(obs["hand"]), obs["trump"]).total
            self.console.print(f"Your meld with {SUIT_SYMBOLS[obs['trump']]} trump as you "
                               f"hold now: {meld * obs['scale']}")
        elif phase == "play":
            if self._shown_melds != obs["hand_number"]:
                self._melds(obs)
                self._shown_melds = obs["hand_number"]
            if obs["tricks"]:
                last = obs["tricks"][-1]
                self.console.print(markup(f"Last trick: {self._trick_line(obs, last['cards'])}"
                                          f" → {self.name(obs, last['winner'])}"))
            won = obs["tricks_won"]
            ns, ew = won[0] + won[2], won[1] + won[3]
            us, them = (ns, ew) if self.seat % 2 == 0 else (ew, ns)
            self.console.print(f"Tricks: your side {us}, opponents {them}")
            self.console.print(markup(
                f"Trick: {self._trick_line(obs, obs['trick']) or '(you lead)'}"))
        self._hand(obs)
        menu = self.menu(state, obs, legal)
        self.show_menu(state, obs, menu)
        if phase == "bidding" and len(menu) > 1:
            example = menu[1][1]  # type: ignore[index]
            self.console.print(f"[dim]Type an amount to bid it (e.g. {example}), 'pass', or "
                               "#2 for item 2.[/dim]")

    def show_action(self, state: GameState, seat: int, action: Action,
                    observation: dict[str, Any]) -> None:
        """Report an action; announce the auction's end, passes, melds, tricks, results."""
        obs = observation
        assert isinstance(action, tuple)
        kind = action[0]
        who = self.name(obs, seat)
        if kind in BID_KINDS:
            if action[1] == 0:
                self.console.print(f"{who}: pass")
            else:
                bids = obs["bids"]
                notes = meld_bid_note(bids, obs["scale"])
                note = f"  ({notes[len(bids) - 1]})" if len(bids) - 1 in notes else ""
                self.console.print(f"{who}: bids {action[1]}{note}")
        elif kind == K_TRUMP:
            self.console.print(f"{who} names trump {SUIT_SYMBOLS[action[1]]}")
        elif kind == K_GIVE:
            self._give_news(obs, seat, who, action[1])
        elif kind == K_THROW_IN:
            self.console.print(f"[yellow]{who} throws the hand in.[/yellow]")
        else:
            self._play_news(obs, who, action[1])
        self._auction_news(obs)
        if obs["phase"] == "play" and self._shown_melds != obs["hand_number"]:
            self._melds(obs)
            self._shown_melds = obs["hand_number"]
        if obs["history"] and self._hand_seen != len(obs["history"]):
            self._hand_seen = len(obs["history"])
            last = obs["history"][-1]
            if last["redeal"]:
                if obs["phase"] != "over":
                    self.console.print("[yellow]Everybody passed: the cards are dealt "
                                       "again.[/yellow]")
            else:
                self._hand_result(obs, last)

    def _auction_news(self, obs: dict[str, Any]) -> None:
        """The auction's winner, and the cards your partner passed you."""
        hand = obs["hand_number"]
        if obs["bidder"] is not None and self._won_told != hand:
            self._won_told = hand
            who = self.name(obs, obs["bidder"])
            if obs["stuck_dealer"]:
                self.console.print(f"[yellow]Everybody passed: the dealer, {who}, plays "
                                   f"the minimum bid of {obs['contract']}.[/yellow]")
            else:
                self.console.print(f"{who} wins the auction at {obs['contract']}.")
        p = obs["passing"]
        if p["received"] and len(p["received"]) == p["count"]:
            got = (hand, tuple(p["received"]))
            if got != self._received_told:
                self._received_told = got
                partner = self.name(obs, (self.seat + 2) % 4)
                self.console.print(markup(f"{partner} passes you: {_cards(p['received'])}"))

    def _hand_result(self, obs: dict[str, Any], h: dict[str, Any]) -> None:
        bidder = self.name(obs, h["bidder"])
        how = h["how"]
        if how == "throw_in":
            self.console.print(f"[yellow]{bidder} threw the hand in: the bid of "
                               f"{h['contract']} is lost.[/yellow]")
        elif how == "no_marriage":
            self.console.print(f"[yellow]{bidder} has no K and Q of trump: the bid of "
                               f"{h['contract']} is lost without play.[/yellow]")
            self._show_hand_melds(obs, h)
        elif how == "min_meld":
            self.console.print(f"[yellow]{bidder}'s side melds less than "
                               f"{20 * obs['scale']}: the bid of {h['contract']} is lost "
                               "without play.[/yellow]")
            self._show_hand_melds(obs, h)
        else:
            if h["last_trick"]:
                self.console.print(markup(
                    f"Last trick: {self._trick_line(obs, h['last_trick'])} → "
                    f"{self.name(obs, h['last_trick_winner'])}"))
            verdict = "made" if h["made"] else "[red]set[/red]"
            self.console.print(markup(f"{bidder} bid {h['contract']}: {verdict}."))
        table = Table(title=f"Hand {h['hand']} result")
        table.add_column("Side")
        table.add_column("Meld", justify="right")
        table.add_column("Counters", justify="right")
        table.add_column("Score", justify="right")
        table.add_column("Total", justify="right")
        for i, name in enumerate(("North–South", "East–West")):
            cp = "—" if h["counters"] is None else str(h["counters"][i])
            meld = str(h["side_melds"][i])
            if h["meld_saved"] is not None and not h["meld_saved"][i] and h["side_melds"][i]:
                meld += " (not saved)"
            table.add_row(name, meld, cp, f"{h['score_change'][i]:+d}", str(h["scores"][i]))
        self.console.print(table)

    def _show_hand_melds(self, obs: dict[str, Any], h: dict[str, Any]) -> None:
        if self._shown_melds != h["hand"]:
            self._shown_melds = h["hand"]
            self._melds({**obs, "melds": h["melds"]})

    def show_end(self, state: GameState, observation: dict[str, Any]) -> None:
        """Final scores and the winner."""
        obs = observation
        self.console.rule("Game over")
        self.console.print(self._scores(obs))
        winner = obs["winner"]
        if winner is not None:
            mine = winner == self.seat % 2
            side = "North–South" if winner == 0 else "East–West"
            self.console.print(f"[bold]{side} win"
                               f"{' — congratulations!' if mine else '.'}[/bold]")

    def help_text(self) -> str:
        """How to type actions."""
        return ("Type the number of a choice, or: 'pass', 'bid 55' (or just 55 in the "
                "auction; a raise of 1 to 5 below 60 tells partner your meld), 'trump ♠' (or "
                "s/h/d/c), a card such as A♠, 10h or qs to pass or play it, 'throw in' to "
                "concede before the first lead.")
