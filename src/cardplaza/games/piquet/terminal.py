"""Terminal view of Piquet (ピケット) for one person against the computer.

Every word it shows comes from the message catalog in the view's language (``cli.rest.*``
and the engine's Piquet words ``eng.pq.*``): the engine's English declarations and score
labels are put into the view's language here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from cardplaza.cli.view import ViewBase
from cardplaza.core.cards import PIQUET
from cardplaza.core.protocol import Action, ActionParseError, GameState

SUITS = "♠♥♦♣"
GROUP_GAP = "  "
"""Between the suits of a hand (the cards of one suit are one space apart)."""

_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8}
_RANKS = {"seven": "7", "eight": "8", "nine": "9", "ten": "10", "jack": "J", "queen": "Q",
          "king": "K", "ace": "A", "sevens": "7", "eights": "8", "nines": "9", "tens": "10",
          "jacks": "J", "queens": "Q", "kings": "K", "aces": "A"}
_SEQ_LEN = {"Tierce": 3, "Quart": 4, "Quint": 5, "Sixième": 6, "Septième": 7, "Huitième": 8}
_SEQ = r"(?P<q>Tierce|Quart|Quint|Sixième|Septième|Huitième)"
_MINOR_TOP = {"Tierce": "9", "Quart": "10"}
_LABELS = {"Point": "eng.pq.ev.point", "Sequences": "eng.pq.ev.sequences",
           "Sets": "eng.pq.ev.sets", "Lead": "eng.pq.ev.lead", "Capture": "eng.pq.ev.capture",
           "Last trick": "eng.pq.ev.last_trick", "Cards": "eng.pq.ev.cards",
           "Capot": "eng.pq.ev.capot", "Pique": "eng.pq.ev.pique",
           "Repique": "eng.pq.ev.repique", "Carte blanche": "eng.pq.carte_blanche",
           "Carte rouge": "eng.pq.carte_rouge"}
_SAYINGS = {"Good": "eng.pq.good", "Not good": "eng.pq.not_good", "Equal": "eng.pq.equal",
            "Making?": "eng.pq.making_q", "To what?": "eng.pq.to_what",
            "How many?": "eng.pq.how_many", "No sequence": "eng.pq.no_sequence",
            "No set": "eng.pq.no_set", "None": "eng.pq.none", "add none": "eng.pq.add_none",
            "Pass": "eng.pass", "chooses which combinations to score": "eng.pq.choosing"}


def piquet_words(text: str, say: Callable[..., str]) -> str:
    """An engine text of Piquet (a declaration, a combination, a score label) as ``say``
    (the catalog in a language: ``say(key, **params)``) words it; unchanged when it is not
    one of Piquet's."""
    key = _SAYINGS.get(text) or _LABELS.get(text)
    if key:
        return say(key)
    m = re.fullmatch(r"Point of (\w+) in (.) \((\d+)\)", text)
    if m:
        return say("eng.pq.point", n=_NUMBERS[m[1]], suit=m[2], sum=m[3])
    m = re.fullmatch(r"Point of (\w+)", text)
    if m:
        return say("eng.point_of", n=_NUMBERS[m[1]])
    m = re.fullmatch(_SEQ + r" (?:to the (?P<r>\w+)|(?P<mm>major|minor)) \((?P<s>.)\)", text)
    if m:
        top = ("A" if m["mm"] == "major" else _MINOR_TOP[m["q"]] if m["mm"] == "minor"
               else _RANKS[m["r"]])
        return say("eng.pq.sequence", n=_SEQ_LEN[m["q"]], top=top, suit=m["s"])
    m = re.fullmatch(_SEQ, text)
    if m:
        return say("eng.pq.seqword", n=_SEQ_LEN[m["q"]])
    m = re.fullmatch(r"(Quatorze|Trio) of (\w+)", text)
    if m:
        key = "eng.pq.quatorze" if m[1] == "Quatorze" else "eng.pq.trio"
        return say(key, rank=_RANKS[m[2]])
    m = re.fullmatch(r"Making (\d+)", text)
    if m:
        return say("eng.pq.making", n=m[1])
    m = re.fullmatch(r"To the (\w+)", text)
    if m:
        return say("eng.pq.to_the", rank=_RANKS.get(m[1], m[1]))
    m = re.fullmatch(r"point (.)", text)
    if m:
        return say("eng.pq.point_suit", suit=m[1])
    m = re.fullmatch(r"add (.+)", text)
    if m:
        return say("eng.pq.add", what=m[1])
    m = re.fullmatch(r"discard (.+)", text)
    if m:
        return say("eng.discard", cards=m[1])
    return text


def hand_order(cards: Sequence[int]) -> list[int]:
    """Cards by suit (♠ ♥ ♦ ♣), each suit from the ace down (Piquet has no trump)."""
    return sorted(cards, key=lambda c: (c // 8, -(c % 8)))


def cards_text(cards: Sequence[int], grouped: bool = False) -> str:
    """Cards by suit, each suit from the ace down: ``A♠ K♠ 9♥``, or with ``grouped`` a
    wider gap between the suits (a hand: ``A♠ K♠  9♥``)."""
    if not grouped:
        return " ".join(PIQUET.text(c) for c in hand_order(cards)) or "—"
    groups: list[list[str]] = []
    last = -1
    for c in hand_order(cards):
        if c // 8 != last:
            groups.append([])
            last = c // 8
        groups[-1].append(PIQUET.text(c))
    return GROUP_GAP.join(" ".join(g) for g in groups) or "—"


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

    def __init__(self, console: Console, seat: int, lang: str = "en") -> None:
        super().__init__(console, seat, lang)
        self.deal = 0
        self.n_dialogue = 0
        self.n_events = 0
        self.n_shown = 0
        self.n_tricks = 0
        self.saw_exchange = [False, False]
        self.saw_talon = False
        self.saw_untaken = False
        self.saw_blanche: set[tuple[int, int]] = set()

    # -- words ----------------------------------------------------------------------
    def words(self, text: str) -> str:
        """An engine text in the view's language."""
        return self.engine_words(text)

    def engine_words(self, text: str) -> str:
        """Piquet's words first, then the engines' common ones."""
        if self.lang == "en":
            return text
        said = piquet_words(text, self.say)
        return said if said != text else super().engine_words(text)

    def _you(self, seat: int) -> bool:
        return seat == self.seat

    def name(self, observation: dict[str, Any], seat: int) -> str:
        """"You" or "Computer"."""
        return self.say("cli.rest.you" if self._you(seat) else "cli.rest.pq.computer")

    def who(self, obs: dict[str, Any], seat: int) -> str:
        """"You (Elder)" or "Computer (Younger)"."""
        elder = seat == obs.get("_elder", obs["elder"])
        role = self.say("pq.elder" if elder else "pq.younger")
        return self.say("cli.rest.pq.who", name=self.name(obs, seat), role=role)

    def _scores(self, obs: dict[str, Any], seat: int, points: int, label: str) -> str:
        key = "cli.rest.pq.scores.you" if self._you(seat) else "cli.rest.pq.scores"
        what = label.lower() if self.lang == "en" else self.words(label)
        return self.say(key, who=self.who(obs, seat), n=points, what=what)

    def intro(self, observation: dict[str, Any]) -> str:
        """Your role in the first deal."""
        obs = observation
        deals = obs["deals_scheduled"]
        length = (self.say("cli.rest.pq.partie", n=deals) if deals
                  else self.say("cli.rest.pq.au_cent"))
        role = self.say("cli.rest.pq.intro.elder" if obs["elder"] == self.seat
                        else "cli.rest.pq.intro.younger")
        return self.say("cli.rest.pq.intro", length=length, role=role)

    def rules_text(self) -> str:
        """Piquet in short."""
        return self.say("cli.rest.pq.rules")

    def help_text(self) -> str:
        """How to type actions."""
        return self.say("cli.rest.pq.help")

    def _hand_order(self, obs: dict[str, Any]) -> list[int]:
        return hand_order(obs["hand"])

    def menu(self, state: GameState, observation: dict[str, Any],
             legal: Sequence[Action]) -> list[Action]:
        """Answers and cards are numbered; the exchange is typed (cards or places)."""
        if observation["phase"].startswith("exchange"):
            return []
        if observation["phase"] == "play":
            return list(hand_order(legal))  # type: ignore[arg-type]
        return list(legal)

    def _choices(self, state: GameState, menu: Sequence[Action]) -> str:
        return "  ".join(f"[bold]{i})[/bold] {self.action_words(state, a)}"
                         for i, a in enumerate(menu, 1))

    def show_menu(self, state: GameState, observation: dict[str, Any],
                  menu: Sequence[Action]) -> None:
        """Numbered answers or cards; in the exchange, the numbered hand."""
        if menu:
            self.console.print(self._choices(state, menu))
            return
        self.console.print(self.say("cli.rest.pq.by_place", hand=self._numbered_hand(observation)))

    def _numbered_hand(self, obs: dict[str, Any]) -> str:
        out = []
        last = -1
        for i, c in enumerate(self._hand_order(obs), 1):
            gap = GROUP_GAP if last >= 0 and c // 8 != last else ""
            last = c // 8
            out.append(f"{gap}{i}) {PIQUET.text(c)}")
        return " ".join(out)

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
            raise ActionParseError(self.say("cli.rest.pq.bad_place", n=len(hand), bad=bad[0]))
        if len(set(places)) != len(places):
            raise ActionParseError(self.say("cli.rest.pq.place_twice"))
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
        assert isinstance(action, int)
        only = self.say("cli.rest.only_card", card=PIQUET.text(action))
        if trick:
            led = self.say("cli.rest.trick.lead", who=self.name(obs, 1 - self.seat),
                           card=PIQUET.text(trick[0]))
            only = self.say("cli.rest.then", first=led, then=only)
        self.console.print(only)

    def show_history(self, state: GameState, observation: dict[str, Any]) -> None:
        """The deal's declarations, scores and every trick so far."""
        obs = observation
        self.console.rule(self.say("cli.rest.pq.so_far", n=obs["deal"]))
        for d in obs["dialogue"]:
            self.console.print(f"  {self._dialogue_line(obs, d)}")
        for ev in obs["events"]:
            self.console.print("  " + self._scores(obs, ev["seat"], ev["points"], ev["label"]))
        if not obs["tricks"]:
            self.console.print(self.say("cli.rest.pq.no_trick"))
        for i, t in enumerate(obs["tricks"], 1):
            self.console.print(self._trick_line(obs, i, t))

    def _trick_line(self, obs: dict[str, Any], number: int, trick: dict[str, Any]) -> str:
        """``Trick 3: You lead A♠, Computer plays 7♠ — You win the trick.``"""
        lead, follow = trick["cards"]
        leader, winner = trick["leader"], trick["winner"]
        return self.say(
            "cli.rest.trick.line", n=number,
            lead=self.say("cli.rest.trick.lead.you" if self._you(leader)
                          else "cli.rest.trick.lead", who=self.name(obs, leader),
                          card=PIQUET.text(lead)),
            plays=self.say("cli.rest.trick.plays.you_after" if self._you(1 - leader)
                           else "cli.rest.trick.plays", who=self.name(obs, 1 - leader),
                           card=PIQUET.text(follow)),
            wins=self.say("cli.rest.trick.wins.you_after" if self._you(winner)
                          else "cli.rest.trick.wins", who=self.name(obs, winner)))

    def _score_line(self, obs: dict[str, Any]) -> str:
        me, opp = self.seat, 1 - self.seat
        ds = obs["deal_score"]
        return self.say("cli.rest.pq.score_line", deal_you=ds[me], deal_them=ds[opp],
                        you=obs["totals"][me], them=obs["totals"][opp])

    def _new_deal(self, obs: dict[str, Any]) -> None:
        if obs["deal"] == self.deal:
            return
        self.deal = obs["deal"]
        self.n_dialogue = self.n_events = self.n_shown = self.n_tricks = 0
        self.saw_exchange = [False, False]
        self.saw_talon = self.saw_untaken = False
        sched = obs["deals_scheduled"]
        title = (self.say("pq.dealof", n=obs["deal"], total=sched) if sched
                 else self.say("pq.deal", n=obs["deal"]))
        if obs["multiplier"] == 2:
            title += self.say("cli.rest.pq.double")
        role = self.say("cli.rest.pq.you_elder" if obs["elder"] == self.seat
                        else "cli.rest.pq.you_younger")
        self.console.rule(f"{title} — {role}")
        for s, flag in enumerate(obs["carte_blanche"]):
            if flag:
                self.console.print(f"[bold]{self._scores(obs, s, 10, 'Carte blanche')}[/bold]")
        self._events(obs)

    def _events(self, obs: dict[str, Any], events: list[dict[str, Any]] | None = None) -> None:
        evs = obs["events"] if events is None else events
        for ev in evs[self.n_events:]:
            if ev["label"] in ("Lead", "Capture", "Carte blanche"):
                continue
            style = "bold magenta" if ev["label"] in ("Repique", "Pique", "Capot") else "green"
            said = self._scores(obs, ev["seat"], ev["points"], ev["label"])
            self.console.print(f"  [{style}]{said}[/{style}]")
        self.n_events = len(evs)

    def _shown(self, obs: dict[str, Any]) -> None:
        for sh in obs["shown"][self.n_shown:]:
            key = "cli.rest.pq.shows.you" if self._you(sh["seat"]) else "cli.rest.pq.shows"
            self.console.print("  " + self.say(key, who=self.who(obs, sh["seat"]),
                                               what=self.words(sh["label"]),
                                               cards=cards_text(sh["cards"]),
                                               n=sh["points"]))
        self.n_shown = len(obs["shown"])

    def _dialogue_line(self, obs: dict[str, Any], d: dict[str, Any]) -> str:
        if d["kind"] == "choose":
            key = "cli.rest.pq.chooses.you" if self._you(d["seat"]) else "cli.rest.pq.chooses"
            return self.say(key, who=self.who(obs, d["seat"]))
        return self.say("cli.rest.pq.says", who=self.who(obs, d["seat"]),
                        text=self.words(d["text"]))

    def _dialogue(self, obs: dict[str, Any]) -> None:
        for d in obs["dialogue"][self.n_dialogue:]:
            self.console.print("  " + self._dialogue_line(obs, d))
        self.n_dialogue = len(obs["dialogue"])

    def _exchange_news(self, obs: dict[str, Any]) -> None:
        ex = obs["exchanged"]
        elder, younger = obs["elder"], 1 - obs["elder"]
        for seat, n in ((elder, ex["elder"]), (younger, ex["younger"])):
            if n is not None and not self.saw_exchange[seat]:
                self.saw_exchange[seat] = True
                key = "cli.rest.pq.exchanges.you" if self._you(seat) else "cli.rest.pq.exchanges"
                self.console.print(self.say(key, who=self.who(obs, seat), n=n))
                if seat == self.seat:
                    self.console.print("  " + self.say("cli.rest.pq.drew",
                                                       out=cards_text(obs["discards"]),
                                                       new=cards_text(obs["drawn"])))
        if obs["talon_seen"] and not self.saw_talon:
            self.saw_talon = True
            seen = " ".join(self.say("cli.rest.pq.talon_card", n=d["position"],
                                     card=PIQUET.text(d["card"])) for d in obs["talon_seen"])
            self.console.print("  " + self.say("cli.rest.pq.talon_seen", cards=seen))
        if obs["untaken"] and not self.saw_untaken:
            self.saw_untaken = True
            self.console.print("  " + self.say("cli.rest.pq.untaken",
                                               cards=cards_text(obs["untaken"])))
        for s, cards in obs["revealed_dealt"].items():
            if int(s) != self.seat and (int(s), self.deal) not in self.saw_blanche:
                self.saw_blanche.add((int(s), self.deal))
                self.console.print("  " + self.say("cli.rest.pq.blanche_shown",
                                                   who=self.who(obs, int(s)),
                                                   cards=cards_text(cards)))

    def _tricks(self, obs: dict[str, Any], tricks: list[dict[str, Any]] | None = None) -> None:
        ts = obs["tricks"] if tricks is None else tricks
        for i, t in enumerate(ts[self.n_tricks:], start=self.n_tricks + 1):
            self.console.print(self._trick_line(obs, i, t))
        self.n_tricks = len(ts)

    def _sheet(self, obs: dict[str, Any]) -> Table:
        me, opp = self.seat, 1 - self.seat
        table = Table(title=self.say("pq.sheets"))
        for key in ("pq.dealcol", "cli.rest.pq.dealer", "cli.rest.you",
                    "cli.rest.pq.computer", "cli.rest.pq.bonus"):
            table.add_column(self.say(key))
        for sh in obs["sheets"]:
            mult = f" (×{sh['multiplier']})" if sh["multiplier"] != 1 else ""
            table.add_row(str(sh["deal"]) + mult,
                          self.name(obs, sh["dealer"]),
                          str(sh["counted"][me]), str(sh["counted"][opp]),
                          self.words(str(sh["bonus"]).capitalize()) if sh["bonus"] else "")
        table.add_row(self.say("pq.totals"), "", str(obs["totals"][me]),
                      str(obs["totals"][opp]), "")
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
                else cards_text(obs["hand"], grouped=True))
        self.console.print(f"[bold]{self.say('cli.rest.your_hand')}[/bold] {hand}")
        self.console.print(f"[dim]{self._score_line(obs)}[/dim]")
        if phase == "exchange_elder":
            self.console.print(self.say("cli.rest.pq.ask.elder"))
        elif phase == "exchange_younger":
            sizes = sorted({a[1].bit_count() for a in legal if isinstance(a, tuple)})
            self.console.print(self.say("cli.rest.pq.ask.younger",
                                        took=obs["exchanged"]["elder"], lo=sizes[0],
                                        hi=sizes[-1]))
        elif phase == "declare":
            decl = obs["declaring"] or {}
            choices = self._choices(state, legal)
            what = {"point": "cli.rest.pq.class.point", "sequence": "cli.rest.pq.class.sequence",
                    "set": "cli.rest.pq.class.set"}.get(str(decl.get("class")),
                                                       "cli.rest.pq.class.point")
            if decl.get("stage") == "choose":
                self.console.print(self.say("cli.rest.pq.ask.choose", what=self.say(what),
                                            choices=choices))
            else:
                self.console.print(self.say("cli.rest.pq.ask.say", what=self.say(what),
                                            choices=choices))
            if obs["pending"]:
                waiting = self.say("cli.rest.list_sep").join(
                    f"{self.words(e['label'])} {e['points']}" for e in obs["pending"])
                self.console.print("  [dim]" + self.say("cli.rest.pq.pending", list=waiting)
                                   + "[/dim]")
        elif phase == "play":
            trick = obs["trick"]["cards"]
            if trick:
                self.console.print(self.say("cli.rest.trick.lead",
                                            who=self.name(obs, 1 - self.seat),
                                            card=PIQUET.text(trick[0])))
            menu = self.menu(state, obs, legal)
            self.console.print(self.say("cli.rest.pq.ask.play",
                                        you=obs["tricks_won"][self.seat],
                                        them=obs["tricks_won"][1 - self.seat],
                                        choices=self._choices(state, menu)))

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
            self.console.print(self.say("cli.rest.trick.lead.you", who=self.name(obs, seat),
                                        card=PIQUET.text(obs["trick"]["cards"][0])))
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
        line = self.say("cli.rest.pq.deal_end", n=sheet["deal"], you=sheet["tricks"][me],
                        them=sheet["tricks"][opp], deal_you=sheet["raw"][me],
                        deal_them=sheet["raw"][opp])
        if sheet["multiplier"] != 1:
            line += self.say("cli.rest.pq.counted", m=sheet["multiplier"])
        self.console.print(f"[bold]{line}[/bold]")
        if obs["phase"] != "over":
            self.console.print(self._sheet(obs))
        self.deal = -1 if obs["phase"] == "over" else self.deal

    def result_line(self, obs: dict[str, Any]) -> str:
        """The partie's result in words (from the observation's numbers)."""
        res = obs["result"] or {}
        a = obs["totals"][0]
        winner = res.get("winner")
        value = int(res.get("value", 0))
        if obs["options"].get("au_cent") and winner is not None:
            how = self.say("cli.rest.pq.how.cent_double" if res.get("double")
                           else "cli.rest.pq.how.cent", total=obs["totals"][winner])
        elif str(res.get("text", "")).startswith("Stopped"):
            how = self.say("cli.rest.pq.how.stopped", n=len(obs["sheets"]),
                           you=obs["totals"][self.seat], them=obs["totals"][1 - self.seat])
        elif winner is None:
            return self.say("cli.rest.pq.draw", n=a)
        else:
            wt, lt = obs["totals"][winner], obs["totals"][1 - winner]
            how = self.say("cli.rest.pq.how.rubicon" if res.get("rubicon")
                           else "cli.rest.pq.how.plain", w=wt, l=lt, value=value)
        if winner is None:
            return how
        return self.say("cli.rest.pq.won.you" if self._you(winner) else "cli.rest.pq.won",
                        who=self.name(obs, winner), how=how)

    def show_end(self, state: GameState, observation: dict[str, Any]) -> None:
        """Final score sheet and the Rubicon (or au cent) result."""
        obs = observation
        self.console.print(self._sheet(obs))
        res = obs["result"] or {}
        self.console.print(f"[bold]{self.result_line(obs)}[/bold]")
        if res.get("winner") is not None:
            self.console.print(self.say("cli.rest.result.you", n=f"{res['returns'][self.seat]:+g}"))
