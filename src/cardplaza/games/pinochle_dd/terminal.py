"""Terminal view (Rich) of double-deck Pinochle.

The person sits South, partner North, West on the left and East on the right. Everything
shown comes from the person's observation; the state is used only for the numbered menu.
A 20-card hand is shown one suit a line, trump first, high to low, with the count of each
suit. During the auction a bare number is a bid amount (``#2`` picks item 2). Every text
comes from the message catalog in the view's language.
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
from cardplaza.games.pinochle_common.view_parts import (
    PinochleViewParts,
    Speaker,
    hand_groups,
    meld_label,
    say,
    sorted_hand,
)
from cardplaza.games.pinochle_dd.engine import (
    BID_KINDS,
    K_GIVE,
    K_PLAY,
    K_THROW_IN,
    K_TRUMP,
)
from cardplaza.games.pinochle_dd.meld import meld_breakdown
from cardplaza.games.pinochle_dd.players import meld_bids
from cardplaza.games.pinochle_dd.rules import (
    COUNTER_FACES,
    SUIT_SYMBOLS,
    card_text,
    mask_of_faces,
)

PLACES = ("south", "west", "north", "east")
_RED = {1, 2}


def _card(f: int) -> str:
    text = card_text(f)
    return f"[red]{text}[/red]" if f // 5 in _RED else text


def _cards(faces: Sequence[int]) -> str:
    return " ".join(_card(f) for f in faces)


def _suit(f: int) -> int:
    return f // 5


def _rank(f: int) -> int:
    return f % 5


def hand_lines(faces: Sequence[int], trump: int | None = None) -> list[str]:
    """One line per suit, trump first (marked ``*``), each high to low: the symbol, the
    count and the ranks."""
    lines = []
    for s, group in hand_groups(faces, trump, _suit, _rank):
        mark = "*" if s == trump else " "
        sym = f"[red]{SUIT_SYMBOLS[s]}[/red]" if s in _RED else SUIT_SYMBOLS[s]
        ranks = " ".join(card_text(f)[:-1] for f in group)
        if s in _RED:
            ranks = f"[red]{ranks}[/red]"
        lines.append(f"  {sym}{mark} {len(group):2d}  {ranks}")
    return lines


def meld_bid_note(bids: Sequence[Sequence[int]], scale: int,
                  sp: Speaker) -> dict[int, str]:
    """For each bid (by index) that reads as a meld bid (section 8): what it shows."""
    notes = {}
    for i, meld in meld_bids(bids, scale).items():
        opening = all(a == 0 for _, a in bids[:i])
        key = "dd.meld_bid.aces" if opening and meld == 10 else "dd.meld_bid"
        notes[i] = say(sp, key, n=meld * scale)
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

    def __init__(self, console: Console, seat: int, lang: str = "en") -> None:
        super().__init__(console, seat, lang)
        self._shown_melds = -1
        self._hand_seen = -1
        self._won_told = -1
        self._received_told: tuple[int, tuple[int, ...]] = (-1, ())
        self._helper_shown: tuple[int, tuple[int, ...]] = (-1, ())

    # -- helpers --------------------------------------------------------------------------
    def name(self, obs: dict[str, Any], seat: int) -> str:
        """Display name of a seat ("South (you)" for the person)."""
        place = PLACES[(seat - self.seat) % 4] if self.seat >= 0 else PLACES[seat]
        return self._place(place, seat == self.seat)

    def intro(self, obs: dict[str, Any]) -> str:
        """Your seat, partner and opponents."""
        return self.say("intro.p4", target=obs["target"])

    def rules_text(self) -> str:
        """The rules in short."""
        return self.say("rules.dd")

    def help_text(self) -> str:
        """How to type actions."""
        return self.say("help.dd")

    def menu(self, state: GameState, observation: dict[str, Any],
             legal: Sequence[Action]) -> list[Action]:
        """The engine's numbered menu, cards in the order the hand shows them (trump
        first, each suit high to low)."""
        menu = super().menu(state, observation, legal)
        cards = [a for a in menu if isinstance(a, tuple) and a[0] in (K_GIVE, K_PLAY)]
        if not cards:
            return menu
        order = sorted_hand([a[1] for a in cards], observation["trump"], _suit, _rank)
        by_card = {a[1]: a for a in cards}
        return [a for a in menu if a not in cards] + [by_card[c] for c in order]

    def _bids_line(self, obs: dict[str, Any]) -> str:
        notes = meld_bid_note(obs["bids"], obs["scale"], self)
        parts = []
        for i, (s, a) in enumerate(obs["bids"]):
            text = self.say("bid_item", who=self.name(obs, s), bid=self._bid_word(a))
            if i in notes:
                text += self.say("note", note=notes[i])
            parts.append(text)
        return self.say("sep").join(parts) or self.say("no_bids")

    def _card(self, card: int) -> str:
        return _card(card)

    def _rich(self, text: str) -> str | Text:
        return markup(text)

    def _trick_points(self, obs: dict[str, Any], cards: Sequence[int]) -> int | None:
        faces = COUNTER_FACES[obs["options"]["counters"]]
        return sum((faces >> f) & 1 for f in cards) * int(obs["scale"])

    def _fallback_forced(self, state: GameState, observation: dict[str, Any],
                         action: Action) -> None:
        self.console.print(f"[dim]{self.say('forced', what=self._label(action))}[/dim]")

    def _scores(self, obs: dict[str, Any]) -> str:
        ns, ew = obs["scores"]
        us, them = (ns, ew) if self.seat % 2 == 0 else (ew, ns)
        return self.say("dd.scores", us=us, them=them, target=obs["target"])

    def show_menu(self, state: GameState, observation: dict[str, Any],
                  menu: Sequence[Action]) -> None:
        """Numbered bids or suits on one line; numbered cards one suit a line, trump
        first."""
        cards = [(i, a) for i, a in enumerate(menu, 1)
                 if isinstance(a, tuple) and a[0] in (K_GIVE, K_PLAY)]
        if not cards:
            self.console.print("  ".join(f"[bold]{i})[/bold] {self._label(a)}"
                                         for i, a in enumerate(menu, 1)))
            return
        trump = observation.get("trump")
        for s in sorted(range(4), key=lambda s: (s != trump, s)):
            row = [f"[bold]{i})[/bold] {_card(a[1])}"
                   for i, a in cards if a[1] // 5 == s]
            if row:
                self.console.print("  " + "  ".join(row))
        rest = [(i, a) for i, a in enumerate(menu, 1) if (i, a) not in cards]
        if rest:
            self.console.print("  " + "  ".join(f"[bold]{i})[/bold] {self._label(a)}"
                                                for i, a in rest))

    def action_words(self, state: GameState, action: Action) -> str:
        """An action in the view's language, plain text (``pass``, ``bid 55``, ``trump
        ♠``, ``play A♠``): for the loop's lines that name a move (undo, hints)."""
        assert isinstance(action, tuple)
        kind, value = action
        if kind in (K_GIVE, K_PLAY):
            return self.say("act.give" if kind == K_GIVE else "act.play",
                            card=card_text(value))
        return self._label(action)

    def _label(self, a: Action) -> str:
        assert isinstance(a, tuple)
        if a[0] == K_TRUMP:
            return self.say("act.trump", suit=SUIT_SYMBOLS[a[1]])
        if a[0] == K_THROW_IN:
            return self.say("act.throw_in")
        if a[0] in BID_KINDS:
            return self.say("act.pass") if a[1] == 0 else self.say("act.bid", n=a[1])
        return _card(a[1])

    def _helper(self, obs: dict[str, Any], title: str) -> None:
        hand = mask_of_faces(obs["hand"])
        k = obs["scale"]
        table = Table(title=title, title_justify="left")
        table.add_column(self.say("col.trump"))
        table.add_column(self.say("col.meld"), justify="right")
        table.add_column(self.say("col.breakdown"))
        for s in range(4):
            r = meld_breakdown(hand, s)
            parts = self.say("sep").join(f"{meld_label(self, m.key, m.suit)} "
                                         f"{m.value * k}" for m in r.melds) or "—"
            table.add_row(SUIT_SYMBOLS[s], str(r.total * k), markup(parts))
        self.console.print(table)

    def _melds(self, obs: dict[str, Any]) -> None:
        if obs["melds"] is None:
            return
        table = Table(title=self.say("melds.title"))
        table.add_column(self.say("col.player"))
        table.add_column(self.say("col.meld"), justify="right")
        table.add_column(self.say("col.breakdown"))
        for seat, m in enumerate(obs["melds"]):
            parts = self.say("sep2").join(
                f"{meld_label(self, x['key'], x.get('suit'))} {x['value']}"
                for x in m["melds"]) or "—"
            table.add_row(self.name(obs, seat), str(m["value"]), markup(parts))
        self.console.print(table)
        melds = obs["melds"]
        ns, ew = melds[0]["value"] + melds[2]["value"], melds[1]["value"] + melds[3]["value"]
        us, them = (ns, ew) if self.seat % 2 == 0 else (ew, ns)
        self.console.print(self.say("dd.meld_sides", us=us, them=them))

    def _hand(self, obs: dict[str, Any]) -> None:
        self.console.print(self.say("dd.hand", n=len(obs["hand"])))
        for line in hand_lines(obs["hand"], obs["trump"]):
            self.console.print(markup(line))

    # -- protocol -------------------------------------------------------------------------
    def show_turn(self, state: GameState, observation: dict[str, Any],
                  legal: Sequence[Action]) -> None:
        """Draw the table and the numbered choices before the person acts. In the auction
        the table, the hand and the meld helper are drawn once a deal; later turns of the
        same auction show only the bids since and the choices."""
        obs = observation
        phase = obs["phase"]
        deal = (obs["hand_number"], tuple(obs["hand"]))
        again = (phase == "bidding" and self._helper_shown == deal
                 and not self.redrawing)
        if not again:
            self._header(obs)
        if phase == "bidding":
            if not again:
                self.console.print(self.say("bids", bids=self._bids_line(obs)))
                self._helper(obs, self.say("dd.helper"))
        elif phase == "trump":
            self._helper(obs, self.say("helper.trump"))
        elif phase == "passing":
            p = obs["passing"]
            partner = self.name(obs, (self.seat + 2) % 4)
            if p["received"]:
                self.console.print(markup(self.say("dd.received", who=partner,
                                                   cards=_cards(p["received"]))))
            self.console.print(markup(self.say("dd.choose_pass", n=p["count"], who=partner,
                                               cards=_cards(p["selected"]) or "—")))
            meld = meld_breakdown(mask_of_faces(obs["hand"]), obs["trump"]).total
            self.console.print(self.say("dd.meld_now", suit=SUIT_SYMBOLS[obs["trump"]],
                                        n=meld * obs["scale"]))
        elif phase == "play":
            if self.redrawing or self._shown_melds != obs["hand_number"]:
                self._melds(obs)
                self._shown_melds = obs["hand_number"]
            if obs["tricks"]:
                last = obs["tricks"][-1]
                self.console.print(markup(self.say(
                    "last_trick", cards=self._trick_line(obs, last["cards"]),
                    who=self.name(obs, last["winner"]))))
            won = obs["tricks_won"]
            ns, ew = won[0] + won[2], won[1] + won[3]
            us, them = (ns, ew) if self.seat % 2 == 0 else (ew, ns)
            self.console.print(self.say("dd.tricks", us=us, them=them))
            trick = self._trick_line(obs, obs["trick"])
            self.console.print(markup(self.say("trick_now", trick=trick) if trick
                                      else self.say("you_lead")))
        if not again:
            self._hand(obs)
            if phase == "bidding":
                self._helper_shown = deal
        menu = self.menu(state, obs, legal)
        self.show_menu(state, obs, menu)
        if phase == "bidding" and len(menu) > 1:
            example = menu[1][1]  # type: ignore[index]
            self.console.print(f"[dim]{self.say('bid_tip', n=example)}[/dim]")

    def show_action(self, state: GameState, seat: int, action: Action,
                    observation: dict[str, Any]) -> None:
        """Report an action; announce the auction's end, passes, melds, tricks, results."""
        obs = observation
        assert isinstance(action, tuple)
        kind = action[0]
        who = self.name(obs, seat)
        if kind in BID_KINDS:
            if action[1] == 0:
                self.console.print(self.say("said", who=who, what=self.say("act.pass")))
            else:
                bids = obs["bids"]
                notes = meld_bid_note(bids, obs["scale"], self)
                what = self.say("bids_n", n=action[1])
                if len(bids) - 1 in notes:
                    what += self.say("note", note=notes[len(bids) - 1])
                self.console.print(self.say("said", who=who, what=what))
        elif kind == K_TRUMP:
            self.console.print(self.say("names_trump", who=who, suit=SUIT_SYMBOLS[action[1]]))
        elif kind == K_GIVE:
            self._give_news(obs, seat, who, action[1])
        elif kind == K_THROW_IN:
            self.console.print(f"[yellow]{self.say('dd.throws_in', who=who)}[/yellow]")
        else:
            self._play_news(obs, seat, action[1])
        self._auction_news(obs)
        if obs["phase"] == "play" and self._shown_melds != obs["hand_number"]:
            self._melds(obs)
            self._shown_melds = obs["hand_number"]
        if obs["history"] and self._hand_seen != len(obs["history"]):
            self._hand_seen = len(obs["history"])
            last = obs["history"][-1]
            if last["redeal"]:
                if obs["phase"] != "over":
                    self.console.print(f"[yellow]{self.say('redeal')}[/yellow]")
            else:
                self._hand_result(obs, last)

    def _auction_news(self, obs: dict[str, Any]) -> None:
        """The auction's winner, and the cards your partner passed you."""
        hand = obs["hand_number"]
        if obs["bidder"] is not None and self._won_told != hand:
            self._won_told = hand
            who = self.name(obs, obs["bidder"])
            if obs["stuck_dealer"]:
                self.console.print(f"[yellow]{self.say('dd.stuck', who=who, n=obs['contract'])}"
                                   "[/yellow]")
            else:
                self.console.print(self.say("wins_auction", who=who, n=obs["contract"]))
        p = obs["passing"]
        if p["received"] and len(p["received"]) == p["count"]:
            got = (hand, tuple(p["received"]))
            if got != self._received_told:
                self._received_told = got
                partner = self.name(obs, (self.seat + 2) % 4)
                self.console.print(markup(self.say("passes_you", who=partner,
                                                   cards=_cards(p["received"]))))

    def _hand_result(self, obs: dict[str, Any], h: dict[str, Any]) -> None:
        bidder = self.name(obs, h["bidder"])
        how = h["how"]
        if how == "throw_in":
            self.console.print(f"[yellow]{self.say('dd.threw_in', who=bidder, n=h['contract'])}"
                               "[/yellow]")
        elif how == "no_marriage":
            said = self.say("dd.no_marriage", who=bidder, n=h["contract"])
            self.console.print(f"[yellow]{said}[/yellow]")
            self._show_hand_melds(obs, h)
        elif how == "min_meld":
            said = self.say("dd.min_meld", who=bidder, m=20 * obs["scale"], n=h["contract"])
            self.console.print(f"[yellow]{said}[/yellow]")
            self._show_hand_melds(obs, h)
        else:
            if h["last_trick"]:
                self.console.print(markup(self.say(
                    "last_trick.won", cards=self._trick_line(obs, h["last_trick"]),
                    who=self.name(obs, h["last_trick_winner"]))))
            verdict = self.say("made") if h["made"] else f"[red]{self.say('set')}[/red]"
            self.console.print(markup(self.say("verdict", who=bidder, n=h["contract"],
                                               verdict=verdict)))
        table = Table(title=self.say("result.title", n=h["hand"]))
        table.add_column(self.say("col.side"))
        table.add_column(self.say("col.meld"), justify="right")
        table.add_column(self.say("col.counters"), justify="right")
        table.add_column(self.say("col.score"), justify="right")
        table.add_column(self.say("col.total"), justify="right")
        for i, name in enumerate((self.say("side.ns"), self.say("side.ew"))):
            cp = "—" if h["counters"] is None else str(h["counters"][i])
            meld = str(h["side_melds"][i])
            if h["meld_saved"] is not None and not h["meld_saved"][i] and h["side_melds"][i]:
                meld += self.say("dd.not_saved")
            table.add_row(name, meld, cp, f"{h['score_change'][i]:+d}", str(h["scores"][i]))
        self.console.print(table)

    def _show_hand_melds(self, obs: dict[str, Any], h: dict[str, Any]) -> None:
        if self._shown_melds != h["hand"]:
            self._shown_melds = h["hand"]
            self._melds({**obs, "melds": h["melds"]})

    def show_end(self, state: GameState, observation: dict[str, Any]) -> None:
        """Final scores and the winner."""
        obs = observation
        self.console.rule(self.say("game_over"))
        self.console.print(self._scores(obs))
        winner = obs["winner"]
        if winner is not None:
            mine = winner == self.seat % 2
            side = self.say("side.ns" if winner == 0 else "side.ew")
            key = "won.side" if mine else "wins.side"
            self.console.print(f"[bold]{self.say(key, who=side)}[/bold]")
