"""Terminal view of Piquet (ピケット) for one person against the computer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from cardplaza.cli.view import ViewBase
from cardplaza.core.cards import PIQUET
from cardplaza.core.protocol import Action, ActionParseError, GameState

_YOU_VERBS = {"has": "have", "is": "are"}

HELP = """\
Exchange: type the cards to discard, e.g. 'discard 7♣ 8♦ 9♦' (or '7c 8d 9d'), or their
  places in your hand as numbered there: '1 4 7' (or 'discard 1 4 7');
  Younger may type 'discard none' when the option allows it.
Declarations: pick the number of an answer or type its words, e.g. 'good', 'not good',
  'making?', 'equal'. With sinking, the winner of a class may add combinations:
  'add 9♣ 8♣ 7♣' or 'add none'. An answer that is the only one possible is given for you.
Play: the number of a card in the list, or the card: 'A♠', 'as' or '10h'. You must
  follow suit when you can."""

RULES = """\
ピケット in short: 32 cards (A K Q J 10 9 8 7), 12 each, a talon of 8. Elder (エルダー,
the non-dealer) exchanges 1–5 cards first, Younger (ヤンガー, the dealer) up to the rest.
 • Declarations: point (most cards in a suit), sequence (longest run) and set (three or
   four of a kind, 10 or higher) are compared — "Good", "Not good", "Equal"; only the
   better player scores each class.
 • Then 12 tricks: follow suit if you can; no trumps. A point for each card you lead and
   each lead of the opponent's you win, 1 more for the last trick, 10 for most tricks
   (the cards), 40 for all twelve (capot).
 • 30 before the opponent scores: repique +60 (declarations) or pique +30 (Elder only).
 • After 6 deals the higher total wins; a loser under 100 is rubiconed (ルビコン): the
   winner scores both totals + 100."""


def cards_text(cards: Sequence[int]) -> str:
    """Cards sorted by suit and rank, e.g. ``A♠ K♠ 9♥``."""
    return PIQUET.format_cards(cards, sort=True) or "—"


class View(ViewBase):
    """Shows one seat's view of the partie, step by step."""

    OPTION_HELP = {  # noqa: RUF012 - read-only table
        "younger_may_exchange_zero": "whether Younger may keep all his cards (on/off, or "
                                     "as the rules' default)",
        "show_untaken": "the untaken talon cards are shown to both after Elder's first lead",
        "four_deals": "a partie of 4 deals (the 1st and 4th count double) instead of 6",
        "carte_rouge": "a hand where every card scores in a combination earns 20",
        "last_trick_ten": "the last trick counts 10 instead of 1",
        "sinking": "players choose what to declare: call or pass, concede, hold back "
                   "(sink) combinations",
        "lead_points_ten_or_higher": "a lead scores 1 only with a card of 10 or higher",
        "au_cent": "the old game to 100 points instead of the Rubicon partie",
    }

    def __init__(self, console: Console, seat: int) -> None:
        super().__init__(console, seat)
        self.deal = 0
        self.n_dialogue = 0
        self.n_events = 0
        self.n_shown = 0
        self.n_tricks = 0
        self.saw_exchange = [False, False]
        self.saw_talon = False
        self.saw_untaken = False

    # -- helpers ------------------------------------------------------------------
    def who(self, obs: dict[str, Any], seat: int) -> str:
        """"You (Elder)" or "Computer (Younger)"."""
        role = "Elder" if seat == obs.get("_elder", obs["elder"]) else "Younger"
        return f"{'You' if seat == self.seat else 'Computer'} ({role})"

    def does(self, obs: dict[str, Any], seat: int, verb: str) -> str:
        """"Computer (Younger) scores" or "You (Elder) score": a subject and its verb."""
        if seat == self.seat:
            first, _, rest = verb.partition(" ")
            first = _YOU_VERBS.get(first, first[:-1] if first.endswith("s") else first)
            verb = f"{first} {rest}".rstrip()
        return f"{self.who(obs, seat)} {verb}"

    def name(self, observation: dict[str, Any], seat: int) -> str:
        """"You" or "Computer"."""
        return "You" if seat == self.seat else "Computer"

    def intro(self, observation: dict[str, Any]) -> str:
        """Your role in the first deal."""
        obs = observation
        deals = obs["deals_scheduled"]
        length = f"a partie of {deals} deals" if deals else "a game to 100 (au cent)"
        if obs["elder"] == self.seat:
            role = "You are Elder in the first deal: the computer deals, you exchange first."
        else:
            role = "You are Younger (the dealer) in the first deal: the computer exchanges first."
        return f"You play Piquet against the computer, {length}. {role} Roles swap every deal."

    def rules_text(self) -> str:
        """Piquet in short."""
        return RULES

    def _hand_order(self, obs: dict[str, Any]) -> list[int]:
        return sorted(obs["hand"], key=lambda c: (c // 8, -(c % 8)))

    def menu(self, state: GameState, observation: dict[str, Any],
             legal: Sequence[Action]) -> list[Action]:
        """Answers and cards are numbered; the exchange is typed (cards or places)."""
        if observation["phase"].startswith("exchange"):
            return []
        if observation["phase"] == "play":
            return sorted(legal, key=lambda c: (c // 8, -(c % 8)))  # type: ignore[operator]
        return list(legal)

    def show_menu(self, state: GameState, observation: dict[str, Any],
                  menu: Sequence[Action]) -> None:
        """Numbered answers or cards; in the exchange, the numbered hand."""
        if menu:
            super().show_menu(state, observation, menu)
            return
        self.console.print("Discard by card or by place: " + self._numbered_hand(observation))

    def _numbered_hand(self, obs: dict[str, Any]) -> str:
        return "  ".join(f"{i}) {PIQUET.text(c)}" for i, c in enumerate(self._hand_order(obs), 1))

    def parse_number(self, state: GameState, observation: dict[str, Any],
                     number: int) -> Action | None:
        """In the exchange a number is a card's place in the hand."""
        return self.parse_text(state, observation, str(number))

    def parse_text(self, state: GameState, observation: dict[str, Any],
                   text: str) -> Action | None:
        """``1 4 7`` or ``discard 1 4 7`` in the exchange: cards by their places."""
        if not observation["phase"].startswith("exchange"):
            return None
        words = text.lower().split()
        if words and words[0] in ("discard", "d", "exchange", "x"):
            words = words[1:]
        if not words or not all(w.isdigit() for w in words):
            return None
        hand = self._hand_order(observation)
        places = [int(w) for w in words]
        bad = [p for p in places if not 1 <= p <= len(hand)]
        if bad:
            raise ActionParseError(f"your hand has places 1 to {len(hand)}, not {bad[0]}")
        if len(set(places)) != len(places):
            raise ActionParseError("a place is named twice")
        mask = 0
        for p in places:
            mask |= 1 << hand[p - 1]
        return (0, mask)

    def show_forced(self, state: GameState, observation: dict[str, Any],
                    action: Action) -> None:
        """A forced card is shown with the card led; a forced answer is heard anyway."""
        obs = observation
        if obs["phase"] != "play":
            self._new_deal(obs)
            self._exchange_news(obs)
            return
        trick = obs["trick"]["cards"]
        led = f"Computer led {PIQUET.text(trick[0])}.  " if trick else ""
        self.console.print(f"{led}Your only legal card: {PIQUET.text(action)}."  # type: ignore[arg-type]
                           )

    def show_history(self, state: GameState, observation: dict[str, Any]) -> None:
        """The deal's declarations, scores and every trick so far."""
        obs = observation
        self.console.rule(f"Deal {obs['deal']} so far")
        for d in obs["dialogue"]:
            text = d["text"] if d["kind"] == "choose" else f"“{d['text']}”"
            self.console.print(f"  {self.who(obs, d['seat'])}: {text}")
        for ev in obs["events"]:
            self.console.print(f"  {self.does(obs, ev['seat'], 'scores')} {ev['points']} for "
                               f"{ev['label'].lower()}")
        if not obs["tricks"]:
            self.console.print("No trick has been played yet in this deal.")
        for i, t in enumerate(obs["tricks"], 1):
            lead, follow = t["cards"]
            self.console.print(f"Trick {i:2d}: {self.who(obs, t['leader'])} "
                               f"{PIQUET.text(lead)}, {PIQUET.text(follow)} → "
                               f"{self.name(obs, t['winner'])}")

    def _score_line(self, obs: dict[str, Any]) -> str:
        me, opp = self.seat, 1 - self.seat
        ds = obs["deal_score"]
        return (f"deal: you {ds[me]} – computer {ds[opp]}   partie: you {obs['totals'][me]}"
                f" – computer {obs['totals'][opp]}")

    def _new_deal(self, obs: dict[str, Any]) -> None:
        if obs["deal"] == self.deal:
            return
        self.deal = obs["deal"]
        self.n_dialogue = self.n_events = self.n_shown = self.n_tricks = 0
        self.saw_exchange = [False, False]
        self.saw_talon = self.saw_untaken = False
        sched = obs["deals_scheduled"]
        of = f" of {sched}" if sched else ""
        mult = " (counts double)" if obs["multiplier"] == 2 else ""
        role = "Elder (エルダー)" if obs["elder"] == self.seat else "Younger (ヤンガー, dealer)"
        self.console.rule(f"Deal {obs['deal']}{of}{mult} — you are {role}")
        for s, flag in enumerate(obs["carte_blanche"]):
            if flag:
                self.console.print(f"[bold]{self.does(obs, s, 'has')} carte blanche "
                                   "(カルト・ブランシュ): 10[/bold]")
        self._events(obs)

    def _events(self, obs: dict[str, Any], events: list[dict[str, Any]] | None = None) -> None:
        evs = obs["events"] if events is None else events
        for ev in evs[self.n_events:]:
            if ev["label"] in ("Lead", "Capture"):
                continue
            style = "bold magenta" if ev["label"] in ("Repique", "Pique", "Capot") else "green"
            self.console.print(f"  [{style}]{self.does(obs, ev['seat'], 'scores')} "
                               f"{ev['points']} for {ev['label'].lower()}[/{style}]")
        self.n_events = len(evs)

    def _shown(self, obs: dict[str, Any]) -> None:
        for sh in obs["shown"][self.n_shown:]:
            self.console.print(f"  {self.does(obs, sh['seat'], 'shows')} {sh['label']}: "
                               f"{cards_text(sh['cards'])} ({sh['points']})")
        self.n_shown = len(obs["shown"])

    def _dialogue(self, obs: dict[str, Any]) -> None:
        for d in obs["dialogue"][self.n_dialogue:]:
            text = d["text"] if d["text"].endswith("?") else d["text"] + "."
            self.console.print(f"  {self.who(obs, d['seat'])}: “{text}”"
                               if d["kind"] != "choose" else
                               f"  {self.does(obs, d['seat'], text)}")
        self.n_dialogue = len(obs["dialogue"])

    def _exchange_news(self, obs: dict[str, Any]) -> None:
        ex = obs["exchanged"]
        elder, younger = obs["elder"], 1 - obs["elder"]
        for seat, n in ((elder, ex["elder"]), (younger, ex["younger"])):
            if n is not None and not self.saw_exchange[seat]:
                self.saw_exchange[seat] = True
                self.console.print(f"{self.does(obs, seat, 'exchanges')} {n} "
                                   f"card{'s' if n != 1 else ''}.")
                if seat == self.seat:
                    self.console.print(f"  You discarded {cards_text(obs['discards'])} and "
                                       f"drew {cards_text(obs['drawn'])}.")
        if obs["talon_seen"] and not self.saw_talon:
            self.saw_talon = True
            self.console.print("  You look at the rest of your share of the talon: "
                               + " ".join(f"T{d['position']} {PIQUET.text(d['card'])}"
                                          for d in obs["talon_seen"]))
        if obs["untaken"] and not self.saw_untaken:
            self.saw_untaken = True
            self.console.print(f"  The untaken talon is shown: {cards_text(obs['untaken'])}")
        for s, cards in obs["revealed_dealt"].items():
            if int(s) != self.seat and not getattr(self, f"_cb{s}_{self.deal}", False):
                setattr(self, f"_cb{s}_{self.deal}", True)
                self.console.print(f"  Carte blanche shown by {self.who(obs, int(s))}: "
                                   f"{cards_text(cards)}")

    def _tricks(self, obs: dict[str, Any], tricks: list[dict[str, Any]] | None = None) -> None:
        ts = obs["tricks"] if tricks is None else tricks
        for i, t in enumerate(ts[self.n_tricks:], start=self.n_tricks + 1):
            lead, follow = t["cards"]
            self.console.print(f"Trick {i}: {self.does(obs, t['leader'], 'leads')} "
                               f"{PIQUET.text(lead)}, {PIQUET.text(follow)} follows — "
                               f"{self.does(obs, t['winner'], 'wins')}.")
        self.n_tricks = len(ts)

    def _sheet(self, obs: dict[str, Any]) -> Table:
        me, opp = self.seat, 1 - self.seat
        table = Table(title="Partie score sheet")
        for col in ("Deal", "Dealer", "You", "Computer", "Bonus"):
            table.add_column(col)
        for sh in obs["sheets"]:
            mult = f" (×{sh['multiplier']})" if sh["multiplier"] != 1 else ""
            table.add_row(str(sh["deal"]) + mult,
                          "you" if sh["dealer"] == me else "computer",
                          str(sh["counted"][me]), str(sh["counted"][opp]),
                          sh["bonus"] or "")
        table.add_row("Total", "", str(obs["totals"][me]), str(obs["totals"][opp]), "")
        return table

    # -- protocol -----------------------------------------------------------------
    def show_turn(self, state: GameState, observation: dict[str, Any],
                  legal: Sequence[Action]) -> None:
        """Hand, scores and what to type now."""
        obs = observation
        self._new_deal(obs)
        self._exchange_news(obs)
        phase = obs["phase"]
        hand = (self._numbered_hand(obs) if phase.startswith("exchange")
                else cards_text(obs["hand"]))
        self.console.print(f"[bold]Your hand:[/bold] {hand}")
        self.console.print(f"[dim]{self._score_line(obs)}[/dim]")
        if phase == "exchange_elder":
            self.console.print("You are Elder: discard 1 to 5 cards; you draw as many from "
                               "the top of the talon. Type the cards or their places, e.g. "
                               "'discard 7♣ 8♦ 9♦' or '3 5 9'.")
        elif phase == "exchange_younger":
            sizes = sorted({a[1].bit_count() for a in legal
                            if isinstance(a, tuple)})
            self.console.print(f"Elder took {obs['exchanged']['elder']}. You are Younger: "
                               f"discard {sizes[0]} to {sizes[-1]} "
                               f"card{'s' if sizes[-1] != 1 else ''} (cards or places, "
                               "e.g. '2 7').")
        elif phase == "declare":
            decl = obs["declaring"] or {}
            choices = "  ".join(f"[bold]{i})[/bold] {state.action_text(a)}"
                                for i, a in enumerate(legal, 1))
            if decl.get("stage") == "choose":
                self.console.print(f"You won the {decl['class']}: choose what to score: "
                                   f"{choices}")
            else:
                self.console.print(f"{decl.get('class', '').capitalize()} — say: {choices}")
            if obs["pending"]:
                waiting = ", ".join(f"{e['label'].lower()} {e['points']}" for e in obs["pending"])
                self.console.print(f"  [dim]Your scores to be shown after Elder's first lead: "
                                   f"{waiting}[/dim]")
        elif phase == "play":
            trick = obs["trick"]["cards"]
            if trick:
                self.console.print(f"Computer led {PIQUET.text(trick[0])}.")
            menu = self.menu(state, obs, legal)
            self.console.print(f"Tricks: you {obs['tricks_won'][self.seat]} – computer "
                               f"{obs['tricks_won'][1 - self.seat]}.  Play: "
                               + "  ".join(f"[bold]{i})[/bold] {state.action_text(a)}"
                                           for i, a in enumerate(menu, 1)))

    def show_action(self, state: GameState, seat: int, action: Action,
                    observation: dict[str, Any]) -> None:
        """Report the consequences of an action: calls, shown cards, scores, tricks."""
        obs = observation
        if obs["deal"] != self.deal and self.deal and len(obs["sheets"]) >= self.deal:
            self._finish_deal(obs, obs["sheets"][self.deal - 1])
        if obs["phase"] == "over" and len(obs["sheets"]) >= self.deal and self.deal and \
                obs["sheets"][-1]["deal"] == self.deal:
            self._finish_deal(obs, obs["sheets"][-1])
            return
        self._new_deal(obs)
        self._exchange_news(obs)
        self._dialogue(obs)
        self._shown(obs)
        self._tricks(obs)
        if obs["trick"]["cards"] and seat == self.seat:
            self.console.print(f"You lead {PIQUET.text(obs['trick']['cards'][0])}.")
        before = self.n_events
        self._events(obs)
        if self.n_events != before and obs["phase"] != "play":
            self.console.print(f"  [dim]{self._score_line(obs)}[/dim]")

    def _finish_deal(self, obs: dict[str, Any], sheet: dict[str, Any]) -> None:
        events = [{"seat": s, "points": p, "label": lab} for s, p, lab in sheet["events"]]
        view = dict(obs, events=events, _elder=1 - sheet["dealer"])
        if obs["deal"] == self.deal:
            self._shown(obs)
        last = sheet.get("last_trick")
        if last and self.n_tricks < 12:
            self.n_tricks = 11
            self._tricks(view, [last] * 12)
        self._events(view, events)
        me, opp = self.seat, 1 - self.seat
        self.console.print(
            f"[bold]End of deal {sheet['deal']}:[/bold] tricks you {sheet['tricks'][me]} – "
            f"computer {sheet['tricks'][opp]}; deal score you {sheet['raw'][me]} – computer "
            f"{sheet['raw'][opp]}" + (f" (counted ×{sheet['multiplier']})"
                                      if sheet["multiplier"] != 1 else ""))
        if obs["phase"] != "over":
            self.console.print(self._sheet(obs))
        self.deal = -1 if obs["phase"] == "over" else self.deal

    def show_end(self, state: GameState, observation: dict[str, Any]) -> None:
        """Final score sheet and the Rubicon (or au cent) result."""
        obs = observation
        self.console.print(self._sheet(obs))
        res = obs["result"] or {}
        text = str(res.get("text", "Game over"))
        for seat in (0, 1):
            text = text.replace(f"Player {seat + 1}",
                                "You" if seat == self.seat else "The computer")
        text = text.replace("You wins", "You win").replace("You reaches", "You reach")
        self.console.print(f"[bold]{text}[/bold]")
        if res.get("winner") is not None:
            won = res["winner"] == self.seat
            self.console.print("You win!" if won else "The computer wins.")
            self.console.print(f"Result: you {res['returns'][self.seat]:+g}")

    def help_text(self) -> str:
        """How to type actions."""
        return HELP
