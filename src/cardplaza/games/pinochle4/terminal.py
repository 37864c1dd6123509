"""Terminal view (Rich) for partnership and cut-throat Pinochle.

The person sits at ``seat`` (South in four hands, partner North; South in cut-throat with
West on the left and East on the right). Everything shown comes from the person's
observation; the state is used only for the numbered menu of the person's own choices.
During the auction a bare number is a bid amount (``#2`` picks menu item 2), as everywhere
in terminal play. Every text comes from the message catalog in the view's language.
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
from cardplaza.games.pinochle4.rules import (
    RANK_OF,
    SUIT_OF,
    SUIT_SYMBOLS,
    card_text,
    counter_table,
)
from cardplaza.games.pinochle_common.view_parts import (
    PinochleViewParts,
    hand_groups,
    meld_label,
    sorted_hand,
)

PLACES4 = ("south", "west", "north", "east")
PLACES3 = ("south", "west", "east")
_RED = {1, 2}
K_PASS_KINDS = (0, 5)
"""A bid (0, amount 0 a pass) and a jump bid."""


def _card(c: int) -> str:
    text = card_text(c)
    return f"[red]{text}[/red]" if c % 24 // 6 in _RED else text


def _cards(cards: Sequence[int]) -> str:
    return " ".join(_card(c) for c in cards)


def _suit(c: int) -> int:
    return SUIT_OF[c]


def _rank(c: int) -> int:
    return RANK_OF[c]


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

    def __init__(self, console: Console, seat: int, lang: str = "en") -> None:
        super().__init__(console, seat, lang)
        self._shown_melds = -1
        self._hand_seen = -1
        self._stuck_told = -1
        self._received_told: tuple[int, tuple[int, ...]] = (-1, ())
        self._helper_shown: tuple[int, tuple[int, ...]] = (-1, ())
        self._players = 4

    # -- helpers --------------------------------------------------------------------------
    def name(self, obs: dict[str, Any], seat: int) -> str:
        """Display name of a seat ("South (you)" for the person)."""
        places = PLACES4 if obs["players"] == 4 else PLACES3
        place = places[(seat - self.seat) % len(places)] if self.seat >= 0 else places[seat]
        return self._place(place, seat == self.seat)

    def intro(self, obs: dict[str, Any]) -> str:
        """Your seat, partner and opponents."""
        self._players = obs["players"]
        key = "intro.p4" if obs["players"] == 4 else "intro.p3"
        return self.say(key, target=obs["target"])

    def rules_text(self) -> str:
        """Partnership or cut-throat rules in short."""
        return self.say("rules.p4" if self._players == 4 else "rules.p3")

    def help_text(self) -> str:
        """How to type actions."""
        return self.say("help.p4")

    def menu(self, state: GameState, observation: dict[str, Any],
             legal: Sequence[Action]) -> list[Action]:
        """The engine's numbered menu (bids include jumps; one copy of each card), cards in
        the order the hand shows them (trump first)."""
        self._players = observation["players"]
        menu = super().menu(state, observation, legal)
        cards = [a for a in menu if isinstance(a, tuple) and a[0] in (2, 3, 4)]
        if not cards:
            return menu
        order = sorted_hand([a[1] for a in cards],
                            observation["trump"], _suit, _rank)
        by_card = {a[1]: a for a in cards}
        return [a for a in menu if a not in cards] + [by_card[c] for c in order]

    def _side_names(self, obs: dict[str, Any]) -> list[str]:
        if obs["players"] == 4:
            return [self.say("side.ns"), self.say("side.ew")]
        return [self.name(obs, s) for s in range(3)]

    def _card(self, card: int) -> str:
        return _card(card)

    def _trick_points(self, obs: dict[str, Any], cards: Sequence[int]) -> int | None:
        opts = obs["options"]
        table = counter_table(opts["counters"], opts["one_point"])
        return sum(table[c] for c in cards)

    def _fallback_forced(self, state: GameState, observation: dict[str, Any],
                         action: Action) -> None:
        self.console.print(f"[dim]{self.say('forced', what=self._label(action))}[/dim]")

    def _scores(self, obs: dict[str, Any]) -> str:
        sides = self._side_names(obs)
        return self.say("scores", list="  ".join(
            self.say("score_item", who=n, n=v)
            for n, v in zip(sides, obs["scores"], strict=True)), target=obs["target"])

    def _label(self, a: Action) -> str:
        """A choice as the menu shows it: ``pass``, ``bid 260``, ``trump ♠``, a card."""
        assert isinstance(a, tuple)
        kind, value = a
        if kind in K_PASS_KINDS:
            return self.say("act.pass") if value == 0 else self.say("act.bid", n=value)
        if kind == 1:
            return self.say("act.trump", suit=SUIT_SYMBOLS[value])
        return _card(value)

    def action_words(self, state: GameState, action: Action) -> str:
        """An action in the view's language, plain text (``pass``, ``bid 260``, ``trump
        ♠``, ``play A♠``): for the loop's lines that name a move (undo, hints)."""
        assert isinstance(action, tuple)
        kind, value = action
        verbs = {2: "act.give", 3: "act.bury", 4: "act.play"}
        if kind in verbs:
            return self.say(verbs[kind], card=card_text(value))
        return self._label(action)

    def show_menu(self, state: GameState, observation: dict[str, Any],
                  menu: Sequence[Action]) -> None:
        """Numbered bids, suits or cards (a card choice shows just the card)."""
        self.console.print("  ".join(f"[bold]{i})[/bold] {self._label(a)}"
                                     for i, a in enumerate(menu, 1)))

    def _hand_line(self, obs: dict[str, Any]) -> str:
        """The hand by suit, trump first, each suit high to low."""
        groups = hand_groups(obs["hand"], obs["trump"], _suit, _rank)
        return "   ".join(_cards(g) for _, g in groups)

    def _helper(self, obs: dict[str, Any], title: str) -> None:
        hand = mask_of(obs["hand"])
        opts = obs["options"]
        rows = suit_melds(hand, opts["extra_kq"], opts["one_point"])
        four = obs["players"] == 4
        # The widow's cards are in the bidder's hand once the auction is won: nothing
        # is left to hope for from it.
        wanted_from = "partner" if four else ("widow" if obs["widow"] is None else None)
        table = Table(title=title, title_justify="left")
        table.add_column(self.say("col.trump"))
        table.add_column(self.say("col.meld"), justify="right")
        table.add_column(self.say("col.breakdown"))
        if wanted_from:
            table.add_column(self.say("col.wanted." + wanted_from))
        for row in rows:
            parts = self.say("sep").join(
                f"{meld_label(self, m['key'], m.get('suit'))} {m['value']}"
                for m in row["melds"]) or "—"
            cells = [row["symbol"], str(row["value"]), parts]
            if wanted_from:
                wants = completions(hand, row["suit"], 0, 12 if four else 3,
                                    opts["extra_kq"], opts["one_point"])[:3]
                cells.append(self.say("sep").join(
                    f"{w['card']} +{w['gain']} ({w['probability']:.0%})" for w in wants)
                    or "—")
            table.add_row(*(markup(c) for c in cells))
        self.console.print(table)

    def _melds(self, obs: dict[str, Any]) -> None:
        if obs["melds"] is None:
            return
        table = Table(title=self.say("melds.title"))
        table.add_column(self.say("col.player"))
        table.add_column(self.say("col.meld"), justify="right")
        table.add_column(self.say("col.breakdown"))
        for seat, m in enumerate(obs["melds"]):
            parts = self.say("sep2").join(f"{meld_label(self, x['key'], x.get('suit'))} "
                              f"{x['value']} ({_cards(x['cards'])})"
                              for x in m["melds"]) or "—"
            table.add_row(self.name(obs, seat), str(m["value"]), markup(parts))
        self.console.print(table)

    # -- protocol -------------------------------------------------------------------------
    def show_turn(self, state: GameState, observation: dict[str, Any],
                  legal: Sequence[Action]) -> None:
        """Draw the table and the numbered choices before the person acts. In the auction
        the table and the bidding helper are drawn once a hand; later turns of the same
        auction show only the bids since and the choices."""
        obs = observation
        self._players = obs["players"]
        phase = obs["phase"]
        deal = (obs["hand_number"], tuple(obs["hand"]))
        again = (phase == "bidding" and self._helper_shown == deal
                 and not self.redrawing)
        if not again:
            self._header(obs)
        if phase == "bidding":
            if not again:
                self.console.print(self.say("bids", bids=self._bids_line(obs)))
                self.console.print(self.say("your_hand", cards=self._hand_line(obs)))
                self._helper(obs, self.say("helper.bidding"))
                self._helper_shown = deal
        elif phase == "trump":
            self._helper(obs, self.say("helper.trump"))
        elif phase == "passing":
            p = obs["passing"]
            if p["received"]:
                self.console.print(self.say("received", cards=_cards(p["received"])))
            self.console.print(self.say("choose_pass", n=p["count"],
                                        cards=_cards(p["selected"]) or "—"))
        elif phase == "discard":
            self.console.print(self.say("bury", widow=_cards(obs["widow"] or []),
                                        cards=_cards(obs["discards"] or []) or "—"))
        elif phase == "play":
            if self.redrawing or self._shown_melds != obs["hand_number"]:
                self._melds(obs)
                self._shown_melds = obs["hand_number"]
            if obs["tricks"]:
                last = obs["tricks"][-1]
                self.console.print(self.say("last_trick", cards=self._trick_line(
                    obs, last["cards"]), who=self.name(obs, last["winner"])))
            won = obs["tricks_won"]
            self.console.print(self.say("tricks_won", list="  ".join(
                self.say("score_item", who=self.name(obs, s), n=won[s])
                for s in range(obs["players"]))))
            trick = self._trick_line(obs, obs["trick"])
            self.console.print(self.say("trick_now", trick=trick) if trick
                               else self.say("you_lead"))
        if phase != "bidding":
            self.console.print(self.say("your_hand", cards=self._hand_line(obs)))
        menu = self.menu(state, obs, legal)
        self.show_menu(state, obs, menu)
        if phase == "bidding" and len(menu) > 1:
            self.console.print(f"[dim]{self.say('bid_tip', n=menu[1][1])}[/dim]")  # type: ignore[index]

    def show_action(self, state: GameState, seat: int, action: Action,
                    observation: dict[str, Any]) -> None:
        """Report an action; announce trick winners, melds and hand results."""
        obs = observation
        assert isinstance(action, tuple)
        kind = action[0]
        who = self.name(obs, seat)
        if kind in K_PASS_KINDS:
            said = self.say("act.pass") if action[1] == 0 else self.say("bids_n", n=action[1])
            self.console.print(self.say("said", who=who, what=said))
        elif kind == 1:
            self.console.print(self.say("names_trump", who=who, suit=SUIT_SYMBOLS[action[1]]))
        elif kind == 2:
            self._give_news(obs, seat, who, action[1])
        elif kind == 3:
            if seat == self.seat:
                self.console.print(self.say("buries", who=who, card=_card(action[1])))
            elif obs["discard_count"] == 3:
                self.console.print(self.say("buries_3", who=who))
        else:
            self._play_news(obs, seat, action[1])
        self._auction_news(obs)
        if obs["phase"] == "play" and self._shown_melds != obs["hand_number"]:
            self._melds(obs)
            self._shown_melds = obs["hand_number"]
        if obs["history"] and self._hand_seen != len(obs["history"]):
            self._hand_seen = len(obs["history"])
            if obs["history"][-1].get("redeal") is True and obs["phase"] != "over":
                self.console.print(f"[yellow]{self.say('redeal')}[/yellow]")
            elif obs["last_hand"] is not None:
                self._hand_result(obs)

    def _auction_news(self, obs: dict[str, Any]) -> None:
        """A stuck dealer, and the cards your partner passed you."""
        hand = obs["hand_number"]
        if obs["bidder"] is not None and self._stuck_told != hand:
            self._stuck_told = hand
            who = self.name(obs, obs["bidder"])
            if obs["stuck_dealer"]:
                self.console.print(f"[yellow]{self.say('stuck', who=who, n=obs['contract'])}"
                                   "[/yellow]")
            else:
                self.console.print(self.say("wins_auction", who=who, n=obs["contract"]))
            if obs["widow"]:
                self.console.print(self.say("widow_taken", who=who, cards=_cards(obs["widow"])))
        p = obs.get("passing")
        if p and p["received"] and len(p["received"]) == p["count"]:
            got = (hand, tuple(p["received"]))
            if got != self._received_told:
                self._received_told = got
                partner = self.name(obs, (self.seat + 2) % 4)
                self.console.print(self.say("passes_you", who=partner,
                                            cards=_cards(p["received"])))

    def _hand_result(self, obs: dict[str, Any]) -> None:
        h = obs["last_hand"]
        sides = self._side_names(obs)
        bidder = self.name(obs, h["bidder"])
        if h["throw_in"]:
            self.console.print(f"[yellow]{self.say('throw_in', who=bidder, n=h['bid'])}"
                               "[/yellow]")
        else:
            if h["last_trick"]:
                self.console.print(self.say("last_trick.plain",
                                            cards=self._trick_line(obs, h["last_trick"])))
            verdict = self.say("made") if h["made"] else f"[red]{self.say('set')}[/red]"
            self.console.print(self.say("verdict", who=bidder, n=h["bid"], verdict=verdict))
        table = Table(title=self.say("result.title", n=h["hand"]))
        table.add_column(self.say("col.side"))
        table.add_column(self.say("col.meld"), justify="right")
        table.add_column(self.say("col.trick_points"), justify="right")
        table.add_column(self.say("col.score"), justify="right")
        table.add_column(self.say("col.total"), justify="right")
        for i, name in enumerate(sides):
            tp = "—" if h["trick_points"] is None else str(h["trick_points"][i])
            table.add_row(name, str(h["side_melds"][i]), tp, f"{h['score_change'][i]:+d}",
                          str(h["scores"][i]))
        self.console.print(table)
        if obs["players"] == 3 and h.get("widow"):
            self.console.print(self.say("widow_was", cards=_cards(h["widow"])))

    def show_end(self, state: GameState, observation: dict[str, Any]) -> None:
        """Final scores and the winner."""
        obs = observation
        self.console.rule(self.say("game_over"))
        self.console.print(self._scores(obs))
        winner = obs["winner"]
        sides = self._side_names(obs)
        if winner is not None:
            mine = winner == (self.seat % 2 if obs["players"] == 4 else self.seat)
            key = ("won" if mine else "wins") + (".side" if obs["players"] == 4 else "")
            self.console.print(f"[bold]{self.say(key, who=sides[winner])}[/bold]")
