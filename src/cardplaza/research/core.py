"""What both research adapters share: action numbering, tensors and explicit chance.

Our engines deal from their own seeded RNG. Research frameworks want the deal as chance
nodes, so a :class:`ChanceState` runs an engine with a *scripted* RNG: when the engine asks
to shuffle or to draw a number and no outcome is scripted, the request becomes chance
nodes — one per dealt position (which of the items left comes next, all equally likely:
outcome ``k`` is the ``k``-th of them in ascending order, so a node's outcomes are always
``0 … n - 1``) or one for a drawn number — and once every outcome is chosen the engine
repeats the step with them. Nothing in the engines changes; between deals a state is the
engine's own state.

Each game supplies a :class:`ResearchCodec` (its ``research`` hook): a fixed numbering of
its actions and a fixed-size tensor of an observation. Strings are the observation's JSON
(exactly what the seat may see); the information state adds the seat's own actions.
"""

from __future__ import annotations

import json
import operator
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

from cardplaza.core.protocol import TERMINAL, Action, GameState, IllegalAction, chance_from
from cardplaza.core.registry import GameSpec, games, get_game

CHANCE = -2
"""``current_player`` of a chance node."""


class ResearchCodec(ABC):
    """A game's fixed action numbering and observation tensor (its ``research`` hook)."""

    chance_at_deal_start_only: ClassVar[bool] = False
    """True if the game asks for chance only when a deal begins (its deal, a drawn dealer):
    then none follows once the last deal the deal limit allows is dealt, and the adapter
    keeps no list of that deal's actions to replay."""

    @abstractmethod
    def num_actions(self, options: Any) -> int:
        """How many action numbers exist (``0 … num_actions - 1``)."""

    @abstractmethod
    def encode(self, state: GameState, action: Action) -> int:
        """The number of a legal action in ``state``."""

    @abstractmethod
    def decode(self, state: GameState, number: int) -> Action:
        """The action a number stands for in ``state`` (``ValueError`` if none)."""

    def tensor_size(self, options: Any, perfect_recall: bool) -> int:
        """Length of the observation (or information-state) tensor."""
        key = (repr(options), perfect_recall)
        size = self._sizes.get(key)
        if size is None:
            state = self.spec().new_game(options, 0)
            size = self._sizes[key] = len(self.tensor(state.observation(0), options,
                                                      perfect_recall))
        return size

    @abstractmethod
    def spec(self) -> GameSpec:
        """The game this codec numbers."""

    @abstractmethod
    def tensor(self, observation: dict[str, Any], options: Any,
               perfect_recall: bool) -> list[float]:
        """Tensor of a seat's observation; with ``perfect_recall`` also the order of play
        of the current deal (which seat played each card, in which trick)."""

    def __init__(self) -> None:
        self._sizes: dict[tuple[str, bool], int] = {}

    @abstractmethod
    def max_game_length(self, options: Any, max_deals: int | None = None) -> int:
        """The most actions plus chance outcomes a game can take (a true bound): the deal's
        chance nodes (one per dealt place but the last, one per drawn number) and every
        decision. A game of several deals counts at most ``max_deals`` deals (redeals
        included; ``None``: the rules' own number, for games whose rules bound it)."""

    def deal_may_end(self, state: GameState) -> bool:
        """True if the next action may end the deal (a new deal then asks for chance, and
        the adapter keeps a copy of the position to go back to instead of replaying the
        deal). Only a matter of speed: a deal that ends unannounced is replayed."""
        return False

    def numbers(self, state: GameState, player: int | None = None) -> list[int]:
        """The numbers of the legal actions of ``state``, ascending (``player``: the same
        if it is the seat to act, none for another seat). Codecs whose numbers follow the
        engine's order of its legal actions return them without sorting."""
        if player is not None and player != state.current_player:
            return []
        encode = self.encode
        return sorted([encode(state, a) for a in state.legal_actions()])

    def fixed_actions(self, options: Any) -> tuple[int, Sequence[Action]]:
        """``(first, actions)``: number ``first + i`` stands for ``actions[i]`` in every
        position (cards to play, as a rule), so the adapter applies those numbers without
        :meth:`decode`. ``(0, ())``: none."""
        return 0, ()

    def shuffle_tail(self, options: Any, items: int) -> int:
        """How many places at the end of a shuffle of ``items`` items go together to one
        holder in no order that matters (the last hand dealt): once the items before them
        are chosen, those places take the items left (in ascending order) without chance
        nodes of their own. At least 1 (the last place is always what is left); games
        whose deal ends with a whole hand say so."""
        return 1

    def max_chance_outcomes(self, options: Any) -> int:
        """The most outcomes of one chance node: the cards of the game's pack (games whose
        pack has more than 53 cards say so)."""
        return 53


class Tensor:
    """Builds a flat tensor piece by piece (cards as 0/1 per card, one-hot numbers)."""

    def __init__(self) -> None:
        self.values: list[float] = []

    def cards(self, cards: Sequence[int] | None, size: int) -> None:
        """One value per card of a ``size``-card deck: 1.0 for the cards given."""
        piece = [0.0] * size
        for c in cards or ():
            piece[c] = 1.0
        self.values += piece

    def one_hot(self, k: int | None, n: int) -> None:
        """``n`` values, 1.0 at ``k`` (none when ``k`` is None or out of range)."""
        piece = [0.0] * n
        if k is not None and 0 <= k < n:
            piece[k] = 1.0
        self.values += piece

    def value(self, x: float) -> None:
        """One plain value."""
        self.values.append(float(x))

    def play_order(self, plays: Sequence[tuple[int, int, int]], deck: int, seats: int,
                   tricks: int) -> None:
        """For every card: which seat (relative) played it and in which trick (``plays`` =
        (relative seat, card, trick index)): the deal's order of play."""
        who = [0.0] * (deck * seats)
        when = [0.0] * deck
        for seat, card, trick in plays:
            who[card * seats + seat] = 1.0
            when[card] = (trick + 1) / tricks
        self.values += who
        self.values += when


_CODECS: dict[str, ResearchCodec] = {}


def codec_of(spec: GameSpec) -> ResearchCodec:
    """The game's research codec."""
    codec = _CODECS.get(spec.name)
    if codec is None:
        codec = _CODECS[spec.name] = spec.hook("research")
    return codec


DEFAULT_MAX_DEALS = 200
"""The ``max_deals`` of a game of several deals unless its caller chooses: a game to a
target score has no bound of its own (random play to 1,500 in partnership Pinochle takes 27
deals on average)."""


def deal_bound(spec: GameSpec, options: Any, max_deals: int | None) -> int | None:
    """The number of deals a game is cut at: ``max_deals`` for a game of several deals
    (:data:`DEFAULT_MAX_DEALS` if ``None``), ``None`` for a game of one deal."""
    if spec.deals_played is None:
        return None
    return DEFAULT_MAX_DEALS if max_deals is None else max_deals


_SEATS: dict[tuple[str, Any], int] = {}


def seats_of(spec: GameSpec, options: Any) -> int:
    """Seats of a game with these options."""
    key = (spec.name, options)
    n = _SEATS.get(key)
    if n is None:
        n = _SEATS[key] = spec.new_game(options, 0).num_players
    return n


def research_games() -> dict[str, GameSpec]:
    """Every registered game that has a research codec."""
    return {name: spec for name, spec in games().items() if "research" in spec.hooks}


# -- explicit chance ------------------------------------------------------------------

class NeedChance(Exception):
    """Raised by the scripted RNG when the engine draws and no outcome is scripted."""

    def __init__(self, kind: str, items: list[Any]) -> None:
        super().__init__(kind, len(items))
        self.kind = kind
        self.items = items


Draw = tuple[str, tuple[int, ...]]
"""A completed draw: ``("shuffle", order of the original positions)`` or ``("number", (k,))``."""


CHANCE_STEPS: tuple[tuple[int, int], ...] = tuple((CHANCE, k) for k in range(256))
"""The history entry of each chance outcome, made once (a step makes no new object)."""

_STEPS: dict[tuple[str, Any], tuple[tuple[tuple[int, int], ...], ...]] = {}


def _steps_of(spec: GameSpec, options: Any, seats: int,
              actions: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The history entry ``(seat, number)`` of every seat's every action number, made once
    per game and options."""
    key = (spec.name, options)
    steps = _STEPS.get(key)
    if steps is None:
        steps = _STEPS[key] = tuple(tuple((seat, k) for k in range(actions))
                                    for seat in range(seats))
    return steps


_QUICK: dict[tuple[str, Any], dict[int, Action]] = {}


def _quick_of(spec: GameSpec, options: Any, first: int,
              fixed: Sequence[Action]) -> dict[int, Action]:
    """The action of every number of the fixed table (:meth:`ResearchCodec.fixed_actions`)
    by its number: one look-up tells whether a number is in the table and what it stands
    for. Made once per game and options."""
    key = (spec.name, options)
    quick = _QUICK.get(key)
    if quick is None:
        quick = _QUICK[key] = {first + i: action for i, action in enumerate(fixed)}
    return quick


_NO_ACTIONS: dict[int, Action] = {}
"""No action numbers (shared: never changed)."""

_STARTS: dict[tuple[str, Any], dict[tuple[Draw, ...], NeedChance]] = {}


def _starts_of(spec: GameSpec, options: Any) -> dict[tuple[Draw, ...], NeedChance]:
    """The chance a new game of these options asks for after each list of drawn numbers
    (a first dealer, as a rule): the same every time (engines draw only from their RNG),
    so a new game skips running its engine up to there."""
    key = (spec.name, options)
    starts = _STARTS.get(key)
    if starts is None:
        starts = _STARTS[key] = {}
    return starts


class ScriptedRNG(random.Random):
    """An RNG that plays back chosen outcomes and raises :class:`NeedChance` otherwise.

    Engines draw only with ``shuffle`` and ``randrange``; any other draw is refused.
    """

    def __init__(self, draws: Sequence[Draw] = ()) -> None:
        # Not seeded (seeding costs more than the rest of a deal): it never draws itself.
        self._draws = list(draws)
        self.gauss_next = None

    def shuffle(self, x: Any) -> None:
        """Put ``x`` in the scripted order."""
        if not self._draws:
            raise NeedChance("shuffle", list(x))
        kind, order = self._draws.pop(0)
        if kind != "shuffle" or len(order) != len(x):
            raise RuntimeError("the engine's draws differ from the scripted ones")
        x[:] = operator.itemgetter(*order)(list(x)) if len(order) > 1 else list(x)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        """The scripted number below ``start`` (only ``randrange(n)`` is used)."""
        if stop is not None or step != 1:
            raise RuntimeError("only randrange(n) can be scripted")
        if not self._draws:
            raise NeedChance("number", list(range(start)))
        kind, (k,) = self._draws.pop(0)
        if kind != "number" or not 0 <= k < start:
            raise RuntimeError("the engine's draws differ from the scripted ones")
        return k

    def random(self) -> float:
        """Refused: only shuffles and numbers below n are chance nodes."""
        raise RuntimeError("the engine drew an unscripted random number")

    def getrandbits(self, k: int) -> int:
        """Refused (see :meth:`random`)."""
        raise RuntimeError("the engine drew unscripted random bits")


_STRICT = ScriptedRNG()


def _pin(state: GameState) -> GameState:
    """Make ``state`` draw from the strict script (no outcome: every draw asks for chance)."""
    state._rng = _STRICT
    state._rng_shared = False
    return state


def _copy(state: GameState) -> GameState:
    """An engine copy that keeps drawing from the script."""
    twin = state.clone()
    _pin(state)
    return _pin(twin)


def outcome_utilities(state: GameState) -> list[float]:
    """Zero-sum result of a finished game: with ``k`` winners among ``n`` seats each
    winner gets ``n / k - 1`` and every other seat ``-1`` (two players: +1 / -1, 0 on a
    draw; partners share their side's result)."""
    n = state.num_players
    won = state.winners()
    if not won:
        return [0.0] * n
    share = n / len(won) - 1
    return [share if s in won else -1.0 for s in range(n)]


_OUTCOME = operator.itemgetter(1)
"""The outcome (or number) of a history entry."""

_NEVER = 1 << 62
"""A number of items left no deal reaches."""

_UNIFORM: list[tuple[tuple[int, float], ...]] = [
    tuple((k, 1.0 / n) for k in range(n)) for n in range(129)]


def uniform_outcomes(n: int) -> tuple[tuple[int, float], ...]:
    """``(k, 1 / n)`` for ``k`` in ``0 … n - 1``: the outcomes of a draw among ``n``."""
    if n < len(_UNIFORM):
        return _UNIFORM[n]
    return tuple((k, 1.0 / n) for k in range(n))


def information_state_string(own: list[int], observation: dict[str, Any] | None) -> str:
    """A seat's information state between deals: the numbers of its own actions since the
    start of the game and its observation, as JSON."""
    return json.dumps({"own_actions": own}) + json.dumps(observation, sort_keys=True,
                                                         separators=(",", ":"))


class ChanceState:
    """A game with its deals as explicit chance nodes (see the module docstring).

    ``max_deals`` cuts a game of several deals after that many deals (the engine's
    ``deal_limit``; the result is then by the scores so far).
    """

    __slots__ = ("_final", "_first", "_fixed", "_may_end", "_numbers", "_quick", "_quiet",
                 "_starts", "_steps",
                 "chance", "codec", "deal_actions", "deal_start", "dealt", "draws", "engine",
                 "history", "left", "max_deals", "need", "options", "order", "outcomes", "over",
                 "pending", "pending_seat", "quick_deal", "quiet_actions", "seat", "seats",
                 "spec", "tail")
    # Slots, not a dict: the adapters read these fields at every step.

    _GAME_FIELDS = ("spec", "options", "max_deals", "codec", "_may_end", "_first", "_fixed",
                    "_numbers", "_quick", "_starts", "_steps", "seats")
    """Fields fixed for a game and its options, shared by every copy."""

    def __init__(self, spec: GameSpec, options: Any, max_deals: int | None = None) -> None:
        self._setup(spec, options, deal_bound(spec, options, max_deals))
        # No need to look for the deal's end before an action: the game has one deal or the
        # deal in progress is the last the deal limit allows.
        self._final = False
        # No chance can follow before the game's end (see chance_at_deal_start_only): the
        # deal's actions are not kept.
        self._quiet = False
        # The fixed table's actions by number while _quiet (and _final), else none: a number
        # found here is applied without a look at the deal's end or a list kept to replay.
        self.quiet_actions: dict[int, Action] = _NO_ACTIONS
        self.engine: GameState | None = None
        # The engine right after the last deal, or the draws that dealt the first one.
        self.deal_start: GameState | tuple[Draw, ...] | None = None
        self.deal_actions: list[Action] = []  # applied since then
        self.pending: Action | None = None  # the action waiting for chance outcomes
        self.pending_seat = -1
        self.draws: list[Draw] = []  # completed draws of the pending step
        self.need: NeedChance | None = None  # the draw in progress
        self.chance = False  # need is not None (a flag read at every step)
        self.order: list[int] = []  # its outcomes so far
        self.left: list[int] = []  # the items not dealt yet, ascending
        # The length of the history when order and left were last brought up to date (see
        # _sync): a card the OpenSpiel state deals itself only adds its history entry.
        self.dealt = 0
        self.outcomes: Sequence[tuple[int, float]] = ()  # uniform_outcomes(len(left))
        # A shuffle the OpenSpiel state deals card by card itself: while more items than
        # this are left, a card dealt leaves another chance node (no shuffle: never).
        self.quick_deal = _NEVER
        self.tail = 1  # the shuffle's outcomes are all chosen when this many items are left
        self.history: list[tuple[int, int]] = []  # (player or CHANCE, number)
        self.over = False  # the game is over
        self.seat = TERMINAL  # the engine's current_player, kept after every step
        self._advance()

    def _setup(self, spec: GameSpec, options: Any, max_deals: int | None) -> None:
        """The fields fixed for the game (:attr:`_GAME_FIELDS`)."""
        self.spec = spec
        self.options = options
        self.max_deals = max_deals
        self.codec = codec = codec_of(spec)
        self._may_end = (codec.deal_may_end if spec.deals_played is not None
                         and type(codec).deal_may_end is not ResearchCodec.deal_may_end
                         else None)
        self._first, self._fixed = codec.fixed_actions(options)
        self._quick = _quick_of(spec, options, self._first, self._fixed)
        self._numbers = codec.numbers
        self._starts = _starts_of(spec, options)
        self.seats = seats_of(spec, options)
        self._steps = _steps_of(spec, options, self.seats, codec.num_actions(options))

    def _ask(self, need: NeedChance) -> None:
        """Make ``need`` the chance node in progress."""
        self.need, self.order = need, []
        self.chance = True
        n = len(need.items)
        self.left = list(range(n))
        self.dealt = len(self.history)
        self.outcomes = uniform_outcomes(n)
        tail = self.codec.shuffle_tail(self.options, n) if need.kind == "shuffle" else 1
        self.tail = tail = tail if 1 <= tail < n else 1
        self.quick_deal = tail + 1 if need.kind == "shuffle" and n <= len(_UNIFORM) else _NEVER

    # -- chance -------------------------------------------------------------------
    def _advance(self) -> None:
        """Run the pending step (or the deal) with the completed draws; ask for the next."""
        engine = self.engine
        first = engine is None
        draws = self.draws
        if first and (not draws or draws[-1][0] == "number"):  # only these are remembered
            need = self._starts.get(tuple(draws))
            if need is not None:  # this start asked for this chance before
                self._ask(need)
                return
        script = ScriptedRNG(self.draws)
        try:
            if engine is None:
                with chance_from(lambda seed: script):
                    engine = self.spec.new_game(self.options, 0)
            else:
                engine._rng, engine._rng_shared = script, False
                assert self.pending is not None
                engine.apply(self.pending)
        except NeedChance as need:
            if not first:
                self._rebuild()
            elif all(kind == "number" for kind, _ in self.draws):  # a few numbers: remembered
                self._starts[tuple(self.draws)] = need.with_traceback(None)
            self._ask(need)
            return
        engine.deal_limit = self.max_deals
        self.engine = _pin(engine)
        self.seat = p = engine.current_player
        self.over = p == TERMINAL
        last = self._last_deal(engine)
        self._final = last or self._may_end is None
        self._quiet = quiet = last and self.codec.chance_at_deal_start_only
        self.quiet_actions = self._quick if quiet else _NO_ACTIONS
        # The first deal is dealt again from its draws if ever needed; a later one copied.
        self.deal_start = tuple(self.draws) if first else _copy(engine)
        self.deal_actions = []
        self.pending, self.pending_seat, self.draws = None, -1, []
        self.need = None
        self.chance = False

    def _rebuild(self) -> None:
        """The engine as it was before the step that asked for chance (that step stopped
        half-way): the deal's start replayed."""
        start = self.deal_start
        assert start is not None
        if isinstance(start, tuple):  # the game's first deal, dealt again from its draws
            script = ScriptedRNG(start)
            with chance_from(lambda seed: script):
                engine = self.spec.new_game(self.options, 0)
            engine.deal_limit = self.max_deals
            self.engine = _pin(engine)
        else:
            self.engine = _copy(start)
        for a in self.deal_actions:
            self.engine.apply(a)

    @property
    def current_player(self) -> int:
        """Seat to act, :data:`CHANCE` or :data:`cardplaza.core.protocol.TERMINAL`."""
        if self.need is not None:
            return CHANCE
        assert self.engine is not None
        return self.engine.current_player

    @property
    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.over

    def chance_outcomes(self) -> Sequence[tuple[int, float]]:
        """The outcomes of the chance node and their probabilities (all equally likely):
        ``k`` deals the ``k``-th (ascending) of the items left to the next place, or draws
        the number ``k`` (a tuple shared by every node with as many outcomes)."""
        assert self.need is not None
        return self.outcomes

    def chance_numbers(self) -> list[int]:
        """The outcomes of the chance node, without their (equal) probabilities."""
        assert self.need is not None
        return list(range(len(self.outcomes)))

    def outcome_of(self, item: int) -> int:
        """The outcome of this chance node that deals ``item`` (an index into the dealt
        list, as the engine's deck or drawn numbers are numbered) next."""
        assert self.need is not None
        if self.need.kind == "number":
            return item
        self._sync()
        return self.left.index(item)

    def _sync(self) -> None:
        """Bring order and left up to date with the history: the OpenSpiel state deals a
        card of a shuffle by its history entry and the outcomes left alone (entries since
        :attr:`dealt` are all outcomes of the shuffle in progress)."""
        history = self.history
        dealt = self.dealt
        if dealt < len(history):
            # Each outcome pops its item from what is left, in order (a loop in C).
            self.order += map(self.left.pop, map(_OUTCOME, history[dealt:]))
            self.dealt = len(history)

    def _chance(self, k: int) -> None:
        need = self.need
        assert need is not None
        self._sync()
        if type(k) is not int:
            k = operator.index(k)
        left = self.left
        if not 0 <= k < len(left):
            raise ValueError(f"{k} is not an outcome of this chance node")
        self.history.append(CHANCE_STEPS[k] if k < len(CHANCE_STEPS) else (CHANCE, k))
        self.dealt += 1
        if need.kind == "shuffle":
            order = self.order
            order.append(left.pop(k))
            if len(left) > self.tail:
                self.outcomes = uniform_outcomes(len(left))
                return
            self.draws.append(("shuffle", (*order, *left)))  # the tail: what is left
        else:
            self.draws.append(("number", (k,)))
        self.need = None
        self.chance = False
        self.left = []
        self.outcomes = ()
        self._advance()

    # -- decisions ----------------------------------------------------------------
    def legal_numbers(self) -> list[int]:
        """Action numbers legal for the player to act, ascending."""
        engine = self.engine
        assert engine is not None and self.need is None
        return self.codec.numbers(engine)

    def apply_number(self, number: int) -> None:
        """Apply a chance outcome or the action a number stands for."""
        if self.need is not None:
            self._chance(number)
        else:
            self._decide(number)

    def _decide(self, number: int) -> None:
        """Apply the action a number stands for (not at a chance node)."""
        engine = self.engine
        assert engine is not None
        if type(number) is not int:
            number = operator.index(number)
        i = number - self._first
        fixed = self._fixed
        seat = self.seat
        if seat < 0:
            raise IllegalAction("The game is over")
        steps = self._steps[seat]
        if 0 <= i < len(fixed):
            action = fixed[i]
        elif 0 <= number < len(steps):
            action = self.codec.decode(engine, number)
        else:
            raise ValueError(f"{number} is not an action number of this game")
        before = None
        if not self._final and self._may_end(engine):  # type: ignore[misc]
            before = _copy(engine)
        try:
            engine.apply(action)
        except NeedChance as need:
            self._stopped(need, action, steps[number], before)
            return
        self.history.append(steps[number])
        if not self._quiet:
            self.deal_actions.append(action)
        self.seat = p = engine.current_player
        self.over = p == TERMINAL

    def _stopped(self, need: NeedChance, action: Action, step: tuple[int, int],
                 before: GameState | None) -> None:
        """``action`` asked for chance half-way: the engine back to before it (``before``,
        or the deal replayed), the chance node asked, the action pending."""
        self.history.append(step)
        if before is None:
            self._rebuild()
        else:
            self.engine = before
        self.pending, self.pending_seat, self.draws = action, step[0], []
        self._ask(need)

    def _last_deal(self, engine: GameState) -> bool:
        """True if the deal in progress is the last one the deal limit allows (its end
        ends the game: no next deal asks for chance). Worked out once a deal is dealt; a
        deal that begins without chance is then taken for an earlier one (harmless: its
        end is announced for nothing). A game of one deal is always in its last."""
        played = self.spec.deals_played
        return played is None or (self.max_deals is not None
                                  and played(engine) >= self.max_deals)

    def clone(self) -> ChanceState:
        """An independent copy."""
        new = object.__new__(ChanceState)
        new.spec = self.spec
        new.options = self.options
        new.max_deals = self.max_deals
        new.codec = self.codec
        new._may_end = self._may_end
        new._first = self._first
        new._fixed = self._fixed
        new._quick = self._quick
        new._numbers = self._numbers
        new._starts = self._starts
        new._steps = self._steps
        new.seats = self.seats
        new._final = self._final
        new._quiet = self._quiet
        new.quiet_actions = self.quiet_actions
        new.seat = self.seat
        new.engine = None if self.engine is None else _copy(self.engine)
        new.deal_start = self.deal_start  # never changed in place: shared
        new.deal_actions = self.deal_actions[:]
        new.pending = self.pending
        new.pending_seat = self.pending_seat
        new.draws = self.draws[:]
        new.need = self.need
        new.chance = self.chance
        new.order = self.order[:]
        new.left = self.left[:]
        new.dealt = self.dealt
        new.outcomes = self.outcomes
        new.quick_deal = self.quick_deal
        new.tail = self.tail
        new.history = self.history[:]
        new.over = self.over
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> ChanceState:
        return self.clone()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with the game's name in place of its spec and codec."""
        data = {k: getattr(self, k) for k in ChanceState.__slots__
                if k not in ChanceState._GAME_FIELDS}
        return (_restore, (self.spec.name, self.options, self.max_deals, data))

    # -- results and views --------------------------------------------------------
    def utilities(self) -> list[float]:
        """Outcome utilities at the end (zeros before)."""
        if not self.is_terminal:
            return [0.0] * self.num_players
        assert self.engine is not None
        return outcome_utilities(self.engine)

    @property
    def num_players(self) -> int:
        """Seats of the game."""
        return self.seats

    def observation(self, seat: int) -> dict[str, Any] | None:
        """The seat's observation (None before the first deal is complete)."""
        return None if self.engine is None else self.engine.observation(seat)

    def observation_string(self, seat: int) -> str:
        """The seat's observation as JSON; while dealing, also how far the deal is."""
        obs = self.observation(seat)
        if self.need is not None:
            self._sync()
            obs = {"dealing": len(self.order) + sum(len(d[1]) for d in self.draws),
                   "before": obs}
        return json.dumps(obs, sort_keys=True, separators=(",", ":"))

    def information_state_string(self, seat: int) -> str:
        """The observation plus the seat's own actions since the start of the game."""
        own = [n for p, n in self.history if p == seat]
        if self.need is not None:
            return json.dumps({"own_actions": own}) + self.observation_string(seat)
        return information_state_string(own, self.observation(seat))

    def tensor(self, seat: int, perfect_recall: bool) -> list[float]:
        """The seat's observation tensor (zeros before the first deal)."""
        size = self.codec.tensor_size(self.options, perfect_recall)
        obs = self.observation(seat)
        if obs is None:
            return [0.0] * size
        out = self.codec.tensor(obs, self.options, perfect_recall)
        assert len(out) == size
        return out

    def action_string(self, player: int, number: int) -> str:
        """Text of an action number (or of a chance outcome)."""
        if player == CHANCE:
            need = self.need
            if need is not None:
                self._sync()
            if need is not None and need.kind == "shuffle" and 0 <= number < len(self.left):
                return f"deal item {need.items[self.left[number]]} to place {len(self.order)}"
            return f"chance {number}"
        assert self.engine is not None
        # Two copies of a card read alike: the number keeps every action's text unique.
        return f"{self.engine.describe(self.codec.decode(self.engine, number))} [{number}]"

    def resample(self, seat: int, rng: random.Random) -> ChanceState:
        """A copy whose hidden cards are dealt again consistently with the seat's view."""
        assert self.spec.sample_world is not None and self.engine is not None
        if self.need is not None:  # mid-deal: the dealt cards are all hidden yet
            return self.clone()
        world = self.spec.sample_world(self.engine.observation(seat), rng)
        world.history = list(self.engine.history)
        world.deal_limit = self.max_deals
        new = self.clone()
        new.engine = _pin(world)
        new.seat = p = world.current_player
        new.over = p == TERMINAL
        new.deal_start = _copy(world)
        new.deal_actions = []
        return new

    def __str__(self) -> str:
        if self.engine is None:
            return "dealing"
        return " ".join(f"{p}:{n}" for p, n in self.history[-12:])


def _restore(name: str, options: Any, max_deals: int | None,
             data: dict[str, Any]) -> ChanceState:
    state = object.__new__(ChanceState)
    state._setup(get_game(name), options, max_deals)
    for key, value in data.items():
        setattr(state, key, value)
    for engine in (state.engine, state.deal_start):
        if engine is not None and not isinstance(engine, tuple):
            _pin(engine)
    return state


def game_spec(name: str) -> GameSpec:
    """A registered game's spec (``KeyError`` with the known names)."""
    return get_game(name)


__all__ = ["CHANCE", "DEFAULT_MAX_DEALS", "TERMINAL", "ChanceState", "ResearchCodec",
           "ScriptedRNG", "Tensor", "codec_of", "deal_bound",
           "information_state_string", "outcome_utilities", "research_games", "seats_of",
           "uniform_outcomes"]
