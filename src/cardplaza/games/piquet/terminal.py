"""Terminal view of Piquet (ピケット) for one person against the computer."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from cardplaza.core.cards import PIQUET
from cardplaza.core.protocol import Action, GameState

HELP = """\
Exchange: type the cards to discard, e.g. 'discard 7♣ 8♦ 9♦' (or '7c 8d 9d');
  Younger may type 'discard none' when the option allows it.
Declarations: press Enter (or type 'ok') when only one answer is possible; otherwise type
  the words, e.g. 'call', 'pass', 'good', 'not good', 'making?', 'equal'.
  With sinking, the winner of a class may add combinations: 'add 9♣ 8♣ 7♣' or 'add none'.
Play: type a card, e.g. 'A♠', 'as' or '10h'. You must follow suit when you can.
ピケット in short: 12 cards each, the talon of 8; Elder (エルダー) exchanges 1–5, Younger
(ヤンガー) the rest. Point, sequence and set are compared (Good / Not good / Equal); then
12 tricks. 30 before the opponent scores: repique +60 (declarations) or pique +30 (Elder).
After 6 deals, a loser under 100 is rubiconed (ルビコン): winner scores both totals + 100."""


def cards_text(cards: Sequence[int]) -> str:
    """Cards sorted by suit and rank, e.g. ``A♠ K♠ 9♥``."""
    return PIQUET.format_cards(cards, sort=True) or "—"


class View:
    """Shows one seat's view of the partie, step by step."""

    def __init__(self, console: Console, seat: int) -> None:
        self.console = console
        self.seat = seat
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
                self.console.print(f"[bold]{self.who(obs, s)} has carte blanche "
                                   "(カルト・ブランシュ): 10[/bold]")
        self._events(obs)

    def _events(self, obs: dict[str, Any], events: list[dict[str, Any]] | None = None) -> None:
        evs = obs["events"] if events is None else events
        for ev in evs[self.n_events:]:
            if ev["label"] in ("Lead", "Capture"):
                continue
            style = "bold magenta" if ev["label"] in ("Repique", "Pique", "Capot") else "green"
            self.console.print(f"  [{style}]{self.who(obs, ev['seat'])} scores "
                               f"{ev['points']} for {ev['label'].lower()}[/{style}]")
        self.n_events = len(evs)

    def _shown(self, obs: dict[str, Any]) -> None:
        for sh in obs["shown"][self.n_shown:]:
            self.console.print(f"  {self.who(obs, sh['seat'])} shows {sh['label']}: "
                               f"{cards_text(sh['cards'])} ({sh['points']})")
        self.n_shown = len(obs["shown"])

    def _dialogue(self, obs: dict[str, Any]) -> None:
        for d in obs["dialogue"][self.n_dialogue:]:
            text = d["text"] if d["text"].endswith("?") else d["text"] + "."
            self.console.print(f"  {self.who(obs, d['seat'])}: “{text}”"
                               if d["kind"] != "choose" else
                               f"  {self.who(obs, d['seat'])} {text}")
        self.n_dialogue = len(obs["dialogue"])

    def _exchange_news(self, obs: dict[str, Any]) -> None:
        ex = obs["exchanged"]
        elder, younger = obs["elder"], 1 - obs["elder"]
        for seat, n in ((elder, ex["elder"]), (younger, ex["younger"])):
            if n is not None and not self.saw_exchange[seat]:
                self.saw_exchange[seat] = True
                self.console.print(f"{self.who(obs, seat)} exchanges {n} card(s).")
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
            self.console.print(f"Trick {i}: {self.who(obs, t['leader'])} leads "
                               f"{PIQUET.text(lead)}, {PIQUET.text(follow)} follows — "
                               f"{self.who(obs, t['winner'])} wins.")
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
        self.console.print(f"[bold]Your hand:[/bold] {cards_text(obs['hand'])}    "
                           f"[dim]{self._score_line(obs)}[/dim]")
        phase = obs["phase"]
        if phase == "exchange_elder":
            self.console.print("You are Elder: discard 1 to 5 cards; you draw as many from "
                               "the top of the talon (e.g. 'discard 7♣ 8♦ 9♦').")
        elif phase == "exchange_younger":
            sizes = sorted({a[1].bit_count() for a in legal
                            if isinstance(a, tuple)})
            self.console.print(f"Elder took {obs['exchanged']['elder']}. You are Younger: "
                               f"discard {sizes[0]} to {sizes[-1]} card(s).")
        elif phase == "declare":
            decl = obs["declaring"] or {}
            choices = " / ".join(f"'{state.action_text(a)}'" for a in legal)
            if decl.get("stage") == "choose":
                enter = " (press Enter)" if len(legal) == 1 else ""
                self.console.print(f"You won the {decl['class']}: choose what to score: "
                                   f"{choices}{enter}")
            elif len(legal) == 1:
                self.console.print(f"{decl.get('class', '').capitalize()} — you say "
                                   f"{choices} (press Enter)")
            else:
                self.console.print(f"{decl.get('class', '').capitalize()} — say {choices}")
            if obs["pending"]:
                waiting = ", ".join(f"{e['label'].lower()} {e['points']}" for e in obs["pending"])
                self.console.print(f"  [dim]Your scores to be shown after Elder's first lead: "
                                   f"{waiting}[/dim]")
        elif phase == "play":
            trick = obs["trick"]["cards"]
            if trick:
                self.console.print(f"Computer led {PIQUET.text(trick[0])}.")
            self.console.print(f"Tricks: you {obs['tricks_won'][self.seat]} – computer "
                               f"{obs['tricks_won'][1 - self.seat]}.  Playable: "
                               + " ".join(state.action_text(a) for a in legal))

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
        self.console.print(f"[bold]{res.get('text', 'Game over')}[/bold]")
        if res.get("winner") is not None:
            won = res["winner"] == self.seat
            self.console.print("You win!" if won else "The computer wins.")
            self.console.print(f"Result: you {res['returns'][self.seat]:+g}")

    def help_text(self) -> str:
        """How to type actions."""
        return HELP
