"""Terminal view of two-hand Pinochle (Rich). Shows only the human seat's observation; every
text comes from the message catalog in the view's language. The hand is grouped by suit,
trump first, each suit high to low; of two copies of a card the one whose difference
matters is marked (the turn-up card you took, a copy shown or melded)."""

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
    POINTS,
    RANK_OF,
    SUIT_OF,
    display_order,
    meld_card_order,
)
from cardplaza.games.pinochle_common.view_parts import (
    engine_text,
    hand_groups,
    meld_label,
    play_line,
    say,
    sorted_hand,
    won_line,
)

_GROUP_MELD = {"sequence": "", "pinochle": "pinochle", "aces": "aces_around",
               "kings": "kings_around", "queens": "queens_around", "jacks": "jacks_around"}
"""The meld that names each group of melds (a card is used once per group)."""
_TURN_UP_WAYS = ("dix exchange", "trick 12 turn-up")
"""How a card reaches a hand as the turn-up (the exchange for the dix, or the last draw)."""


def card_text(c: int) -> str:
    """Text of a card, e.g. ``10♥``."""
    return PINOCHLE.text(c)


def _styled(c: int) -> Text:
    suit = (c % 24) // 6
    return Text(card_text(c), style=RED if suit in (1, 2) else BLACK)


def _suit(c: int) -> int:
    return SUIT_OF[c]


def _rank(c: int) -> int:
    return RANK_OF[c]


def meld_key(name: str) -> str:
    """The catalog key of a two-hand meld's name (``royal marriage`` → ``royal_marriage``)."""
    return name.replace(" ", "_")


class View(ViewBase):
    """Rich terminal view for the player at ``seat``."""

    OPTION_HELP = {  # noqa: RUF012 - read-only table
        "double_melds": "a double run and double arounds exist (and score more)",
        "new_card_rule": "every meld needs at least one card from your concealed hand",
        "level": "computer level: streak (the ladder: level 1, each win one more, up to "
                 "4) or a fixed practice level 1–4",
        "dealer": "who deals the first game: 1 the computer (you lead), 0 you",
    }

    def __init__(self, console: Console, seat: int, lang: str = "en") -> None:
        super().__init__(console, seat, lang)
        self._tricks_seen = 0
        self._melds_seen = 0
        self._reveals_seen = 0
        self._hand: set[int] | None = None
        self._can_meld = False

    # -- helpers ----------------------------------------------------------------------
    def say(self, key: str, **params: Any) -> str:
        """The catalog's ``cli.pin.<key>`` in the view's language."""
        return say(self, key, **params)

    def _who(self, seat: int) -> str:
        return self.say("p2.you" if seat == self.seat else "p2.computer")

    def name(self, observation: dict[str, Any], seat: int) -> str:
        """"You" or "Computer"."""
        return self._who(seat)

    def intro(self, observation: dict[str, Any]) -> str:
        """Who deals and who leads."""
        key = "p2.intro.you_lead" if observation["dealer"] != self.seat else "p2.intro.you_deal"
        text = self.say(key, trump=observation["trump_symbol"])
        nine = observation["nine_turned_up"]
        if nine:
            key = "p2.intro.nine.you" if nine["seat"] == self.seat else "p2.intro.nine"
            text += self.say(key, points=nine["points"])
        return text

    def rules_text(self) -> str:
        """Two-hand Pinochle in short."""
        return self.say("rules.p2")

    def menu(self, state: GameState, observation: dict[str, Any],
             legal: Sequence[Action]) -> list[Action]:
        """Cards as the hand shows them (trump first, each suit high to low; two copies
        alike in every way listed once), then melds in the order shown."""
        obs = observation
        seen: set[tuple[Any, ...]] = set()
        cards: list[int] = []
        rest: list[Action] = []
        for a in display_order(legal):
            if isinstance(a, int) and a < 48:
                key = (a % 24, a in obs["meld_areas"][self.seat],
                       a in obs["known_held"][self.seat],
                       tuple(g for g in GROUP_KEYS if a in obs["used"][g]
                             and obs["phase"] == "stock"))
                if key in seen:
                    continue
                seen.add(key)
                cards.append(a)
            else:
                rest.append(a)
        self._can_meld = obs["step"] == "meld" and any(a != NO_MELD for a in rest)
        return [*sorted_hand(cards, obs["trump"], _suit, _rank), *rest]

    def _marks(self, obs: dict[str, Any], c: int, *, table: bool = False,
               used: bool = False) -> str:
        """What sets this copy of a card apart: the turn-up you took or a card you showed
        (always: the computer knows you hold it); with ``table`` a card of your meld area;
        with ``used`` the meld groups it was used in (they matter while melds are made)."""
        me = self.seat
        marks = []
        if c in obs["known_held"][me]:
            ways = [r["how"] for r in obs["reveals"] if r["card"] == c and r["seat"] == me]
            marks.append(self.say("p2.mark.turn_up" if any(w in _TURN_UP_WAYS for w in ways)
                                  else "p2.mark.shown"))
        if table and c in obs["meld_areas"][me]:
            marks.append(self.say("p2.mark.melded"))
        groups = [self._group(g) for g in GROUP_KEYS if c in obs["used"][g]] if used else []
        if groups:
            marks.append(self.say("p2.mark.used", groups=self.say("sep").join(groups)))
        return "".join(self.say("p2.mark", what=m) for m in marks)

    def _group(self, group: str) -> str:
        key = _GROUP_MELD[group]
        return self.say("p2.group.sequence") if not key else meld_label(self, key)

    def _card_label(self, obs: dict[str, Any], c: int, *, table: bool = False,
                    used: bool = False) -> Text:
        out = _styled(c)
        marks = self._marks(obs, c, table=table, used=used)
        if marks:
            out.append(marks, style="dim")
        return out

    def _meld_text(self, a: Action) -> str:
        t, mask = cast(tuple[int, int], a)
        cards = " ".join(card_text(c) for c in meld_card_order(t, mask))
        return f"{meld_label(self, meld_key(MELD_NAMES[t]))} {cards}"

    def action_words(self, state: GameState, action: Action) -> str:
        """An action in the view's language, plain text (``play A♠``, ``meld Marriage K♥
        Q♥``, ``no meld``): for the loop's lines that name a move (undo, hints)."""
        if action == NO_MELD:
            return self.say("p2.no_meld")
        if isinstance(action, int):
            return self.say("act.play", card=card_text(action))
        return self.say("act.meld", meld=self._meld_text(action))

    def _card_choices(self, obs: dict[str, Any], menu: Sequence[Action]) -> Text:
        choices = Text(self.say("p2.play") + " ")
        faces = [cast(int, a) % 24 for a in menu]
        stock = obs["phase"] == "stock"
        for i, a in enumerate(menu, 1):
            if i > 1:
                choices.append("  ")
            choices.append(f"{i}) ")
            twin = faces.count(cast(int, a) % 24) > 1  # two copies listed: say which
            choices.append_text(self._card_label(obs, cast(int, a), table=twin,
                                                 used=twin and stock))
        return choices

    def _meld_choices(self, obs: dict[str, Any], menu: Sequence[Action]) -> None:
        me = self.seat
        for i, a in enumerate(menu, 1):
            if a == NO_MELD:
                self.console.print(f"  {i}) {self.say('p2.no_meld')}")
                continue
            t, mask = cast(tuple[int, int], a)
            cards = [c for c in range(48) if (mask >> c) & 1]
            line = Text(f"  {i}) {self._meld_text(a)}  (+{MELD_POINTS[t]})")
            conc = [c for c in cards if c not in obs["meld_areas"][me]]
            line.append("  " + self.say("p2.puts_down", n=len(conc)), style="dim")
            hist = [card_text(c) + self._marks(obs, c, used=True) for c in cards
                    if self._marks(obs, c, used=True)]
            if hist:
                line.append("  " + self.say("sep2").join(hist), style="dim")
            self.console.print(line)

    def show_menu(self, state: GameState, observation: dict[str, Any],
                  menu: Sequence[Action]) -> None:
        """The numbered cards as the turn shows them (melds one per line)."""
        if observation["step"] == "meld":
            self._meld_choices(observation, menu)
            return
        self.console.print(self._card_choices(observation, menu))

    def show_forced(self, state: GameState, observation: dict[str, Any],
                    action: Action) -> None:
        """A forced card, with the card led."""
        cur = observation["current_trick"]
        if action == NO_MELD:
            return  # no meld to make: the draws follow at once
        line = Text()
        if cur and cur["cards"]:
            line = Text(self.say("p2.led") + " ").append_text(_styled(cur["cards"][0]))
            line.append(self.say("p2.stop") + "  ")
        if isinstance(action, int) and action < 48:
            self.console.print(line.append(self.say("p2.only_card") + " ").append_text(
                _styled(action)).append(self.say("p2.stop")))
        else:
            self.console.print(f"[dim]{self.say('forced', what=self._meld_text(action))}[/dim]")

    def show_history(self, state: GameState, observation: dict[str, Any]) -> None:
        """Every trick and meld of the deal so far."""
        obs = observation
        self.console.rule(self.say("p2.history.title", trump=obs["trump_symbol"]))
        if not obs["tricks"]:
            self.console.print(self.say("p2.history.none"))
        melds: dict[int, list[dict[str, Any]]] = {}
        for m in obs["melds"]:
            melds.setdefault(m["trick"], []).append(m)
        for t in obs["tricks"]:
            lead, follow = t["cards"]
            line = Text(self.say("p2.history.trick", n=f"{t['number']:2d}") + " ")
            line.append(self.say("trick_card", who=self._who(t["leader"]), card=""))
            line.append_text(_styled(lead)).append("  ")
            line.append(self.say("trick_card", who=self._who(1 - t["leader"]), card=""))
            line.append_text(_styled(follow)).append(f" → {self._who(t['winner'])}")
            for m in melds.get(t["number"], []):
                line.append(self.say("p2.history.meld", meld=meld_label(
                    self, meld_key(m["meld"])), points=m["points"]), style="green")
            self.console.print(line)

    def _hand_line(self, obs: dict[str, Any], cards: Sequence[int]) -> Text:
        """Cards by suit, trump first; the meld groups a card was used in while the stock
        lasts."""
        stock = obs["phase"] == "stock"
        out = Text()
        for i, (_, group) in enumerate(hand_groups(cards, obs["trump"], _suit, _rank)):
            if i:
                out.append("   ")
            for j, c in enumerate(group):
                if j:
                    out.append(" ")
                out.append_text(self._card_label(obs, c, used=stock))
        return out

    # -- protocol ---------------------------------------------------------------------
    def show_turn(self, state: GameState, observation: dict[str, Any],
                  legal: Sequence[Action]) -> None:
        """Table, hand (trump first, each suit high to low) and the numbered choices."""
        obs = observation
        me, opp = self.seat, 1 - self.seat
        con = self.console
        menu = self.menu(state, obs, legal)
        phase = self.say("p2.stock_phase" if obs["phase"] == "stock" else "p2.playoff")
        head = Text(self.say("p2.head", n=obs["trick_number"], phase=phase,
                             trump=obs["trump_symbol"]))
        if obs["turn_up"] is not None:
            head.append(self.say("p2.dot") + self.say("p2.turn_up") + " ")
            head.append_text(_styled(obs["turn_up"]))
            head.append(self.say("p2.dot") + self.say("p2.stock", n=obs["stock_count"]))
        head.append(self.say("p2.dot") + self.say("p2.melds", you=obs["meld_points"][me],
                                                   computer=obs["meld_points"][opp]))
        con.rule(head)
        con.print(self.say("p2.concealed", n=obs["concealed_sizes"][opp]))
        if obs["meld_areas"][opp]:
            con.print(Text("  " + self.say("p2.meld_area") + " ").append_text(
                self._other_cards(obs, obs["meld_areas"][opp])))
        if obs["known_held"][opp]:
            con.print(Text("  " + self.say("p2.known") + " ").append_text(
                self._other_cards(obs, obs["known_held"][opp])))
        if obs["meld_areas"][me]:
            con.print(Text(self.say("p2.your_meld_area") + " ").append_text(
                self._hand_line(obs, obs["meld_areas"][me])))
        con.print(Text(self.say("p2.your_hand") + " ").append_text(
            self._hand_line(obs, obs["concealed"])))
        cur = obs["current_trick"]
        if cur and cur["cards"]:
            con.print(Text(self.say("p2.led") + " ").append_text(_styled(cur["cards"][0])))
        if obs["step"] == "meld":
            con.print(f"[bold]{self.say('p2.meld_step')}[/bold]")
            self._meld_choices(obs, menu)
            return
        con.print(self._card_choices(obs, menu))
        reasons = state.illegal_card_reasons()
        if reasons:
            con.print(f"[dim]{engine_text(self, next(iter(reasons.values())))}[/dim]")

    def _other_cards(self, obs: dict[str, Any], cards: Sequence[int]) -> Text:
        """The computer's cards on the table or known, with the groups they were used in."""
        out = Text()
        for i, c in enumerate(sorted_hand(cards, obs["trump"], _suit, _rank)):
            if i:
                out.append("  ")
            out.append_text(_styled(c))
            groups = [self._group(g) for g in GROUP_KEYS if c in obs["used"][g]] \
                if obs["phase"] == "stock" else []
            if groups:
                out.append(self.say("p2.mark", what=self.say(
                    "p2.mark.used", groups=self.say("sep").join(groups))), style="dim")
        return out

    def show_action(self, state: GameState, seat: int, action: Action,
                    observation: dict[str, Any]) -> None:
        """Report plays, completed tricks, melds, exchanges and the trick-12 cards."""
        obs = observation
        con = self.console
        if isinstance(action, int) and action < 48:
            cur = obs["current_trick"]
            lead = bool(cur and len(cur["cards"]) == 1)
            con.print(play_line(self, self._who(seat), card_text(action), lead=lead,
                                you=seat == self.seat))
        for t in obs["tricks"][self._tricks_seen:]:
            points = sum(POINTS[c] for c in t["cards"])
            con.print("  " + won_line(self, self._who(t["winner"]), points,
                                      you=t["winner"] == self.seat))
        self._tricks_seen = len(obs["tricks"])
        for m in obs["melds"][self._melds_seen:]:
            order = meld_card_order(MELD_NAMES.index(m["meld"]), sum(1 << c for c in m["cards"]))
            cards = " ".join(card_text(c) for c in order)
            key = "p2.you_meld" if m["seat"] == self.seat else "p2.melds_news"
            text = self.say(key, who=self._who(m["seat"]), cards=cards, points=m["points"],
                            meld=meld_label(self, meld_key(m["meld"])))
            if m["received"] is not None:
                text += self.say("p2.exchanged", card=card_text(m["received"]))
            con.print(f"[green]{text}[/green]")
        self._melds_seen = len(obs["melds"])
        for r in obs["reveals"][self._reveals_seen:]:
            if r["how"] != "dix exchange":
                key = "p2.took_turn_up" if r["how"] in _TURN_UP_WAYS else "p2.took_last"
                con.print(self.say(key + (".you" if r["seat"] == self.seat else ""),
                                   who=self._who(r["seat"]), card=card_text(r["card"])))
        self._reveals_seen = len(obs["reveals"])
        hand = set(obs["hand"])
        if self._hand is not None and obs["phase"] == "stock":
            new = sorted(hand - self._hand)
            received = {m["received"] for m in obs["melds"]}
            drawn = [c for c in new if c not in received]
            if drawn:
                con.print(self.say("p2.drew", cards=" ".join(card_text(c) for c in drawn)))
        self._hand = hand

    def show_end(self, state: GameState, observation: dict[str, Any]) -> None:
        """End-of-deal summary: counters, melds, last trick, totals and result."""
        res = observation["result"]
        me, opp = self.seat, 1 - self.seat
        table = Table(title=self.say("p2.end.title"))
        table.add_column("")
        table.add_column(self._who(me), justify="right")
        table.add_column(self._who(opp), justify="right")
        table.add_row(self.say("p2.end.counters"), str(res["counters"][me]),
                      str(res["counters"][opp]))
        table.add_row(self.say("p2.end.melds"), str(res["meld_points"][me]),
                      str(res["meld_points"][opp]))
        table.add_row(self.say("p2.end.last_trick"), "10" if res["last_trick"] == me else "0",
                      "10" if res["last_trick"] == opp else "0")
        table.add_row(self.say("col.total"), str(res["totals"][me]), str(res["totals"][opp]))
        self.console.print(table)
        for m in observation["melds"]:
            self.console.print(f"  {self.say('trick_card', who=self._who(m['seat']), card='')}"
                               f"{meld_label(self, meld_key(m['meld']))} (+{m['points']})")
        if observation["nine_turned_up"]:
            who = self._who(observation["nine_turned_up"]["seat"])
            self.console.print(f"  {self.say('trick_card', who=who, card='')}"
                               f"{self.say('p2.end.nine')}")
        winner = res["winner"]
        if winner is None:
            self.console.print(f"[bold]{self.say('p2.end.draw')}[/bold]")
        else:
            margin = abs(res["totals"][0] - res["totals"][1])
            key = "p2.end.you_win" if winner == me else "p2.end.computer_wins"
            self.console.print(f"[bold]{self.say(key, n=margin)}[/bold]")

    def help_text(self) -> str:
        """How to type actions (declining a meld only when there is a meld to make)."""
        text = self.say("help.p2")
        if self._can_meld:
            text += "\n" + self.say("help.p2.meld")
        return text
