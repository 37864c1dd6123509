"""The one protocol every game speaks.

A :class:`GameState` is a complete, mutable game position. UI, AI, CLI, server and arena
use only the methods defined here; each game subclasses it in ``cardplaza.games.<game>``.

Rules of the protocol:

* ``apply`` validates first and raises :class:`IllegalAction` with a human-readable reason
  *before* any change, so a rejected action leaves the state exactly as it was.
* Chance only comes from the state's own ``random.Random`` seeded at creation, so a game
  is reproducible from (game name, options, seed) and its list of actions.
* ``observation(seat)`` returns a JSON-ready dict holding exactly what that seat may see.
* Every action has a text form (``action_text``/``parse_action``) and a JSON form
  (``action_to_json``/``action_from_json``).
"""

from __future__ import annotations

import _random
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from contextvars import ContextVar, Token
from typing import Any, ClassVar, TypeAlias

Action: TypeAlias = Hashable
"""A game action: a small int or a tuple of ints, hashable and comparable by value."""

JSON: TypeAlias = Any
"""A JSON-compatible value (dict/list/str/int/float/bool/None)."""

TERMINAL = -1
"""``current_player`` of a finished game."""

SPECTATOR = -2
"""The "seat" of someone who watches a game without playing (see
:meth:`GameState.public_observation`)."""


_RNG_FACTORY: ContextVar[Callable[[int], random.Random] | None] = ContextVar(
    "cardplaza_rng_factory", default=None)


class chance_from:  # noqa: N801 (used as a function: ``with chance_from(factory):``)
    """States created inside this block draw from ``factory(seed)`` instead of
    ``random.Random(seed)``: a way to hand a game's chance (its deals) to an outside driver,
    such as the research adapters' explicit chance nodes (a class rather than a generator:
    the adapters enter it once per deal)."""

    __slots__ = ("factory", "token")

    def __init__(self, factory: Callable[[int], random.Random]) -> None:
        self.factory = factory
        self.token: Token[Callable[[int], random.Random] | None] | None = None

    def __enter__(self) -> None:
        self.token = _RNG_FACTORY.set(self.factory)

    def __exit__(self, *exc: object) -> None:
        assert self.token is not None
        _RNG_FACTORY.reset(self.token)


class IllegalAction(ValueError):
    """An action that is not legal now; the message says why. The state is unchanged."""


class ActionParseError(IllegalAction):
    """A text or JSON form that does not name an action of this game."""


class GameState(ABC):
    """Base class of every game's state.

    Subclasses implement the abstract methods; :meth:`apply` wraps validation and the
    history record around the game's own :meth:`_apply`.
    """

    game_name: ClassVar[str]
    """Registry name of the game, e.g. ``"pinochle2"``."""

    deal_limit: int | None = None
    """For a game of several deals: once this many deals have been dealt, the game ends
    when the last of them is over (scored, or redealt after everybody passed) — the next
    deal is never dealt — and its result is the scores so far (equal scores: a draw, every
    seat among :meth:`winners`). ``None`` (the rules): play to the game's own end.

    Not a rule option (records do not keep it): research adapters and benchmarks set it
    right after creating a state, to bound a game or to play one deal alone.
    """

    def __init__(self, options: Any, seed: int, num_players: int) -> None:
        self.options = options
        self.seed = seed
        self.num_players = num_players
        factory = _RNG_FACTORY.get()
        self._rng = seeded_rng(seed) if factory is None else factory(seed)
        self._rng_shared = False
        self.history: list[tuple[int, Action]] = []

    # -- chance -----------------------------------------------------------------------
    @property
    def rng(self) -> random.Random:
        """The state's own seeded RNG; after :meth:`share_rng` it is copied on first use."""
        if self._rng_shared:
            self._rng = copy_rng(self._rng)
            self._rng_shared = False
        return self._rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value
        self._rng_shared = False

    def share_rng(self, other: GameState) -> None:
        """Give a fresh clone this state's RNG, copied lazily by whichever side draws first.

        Engines draw only while dealing, so search clones rarely pay for an RNG copy, yet
        every copy keeps an independent RNG state.
        """
        other._rng = self._rng
        other._rng_shared = self._rng_shared = True

    # -- turn and actions -------------------------------------------------------------
    @property
    @abstractmethod
    def current_player(self) -> int:
        """Seat to act, or :data:`TERMINAL` when the game is over."""

    @abstractmethod
    def legal_actions(self) -> Sequence[Action]:
        """Every legal action of the current player, in a stable order."""

    def illegal_reason(self, action: Action) -> str | None:
        """Why ``action`` is illegal now, or ``None`` if it is legal.

        Games override this to give precise reasons; the default checks membership.
        """
        if action in self.legal_actions():
            return None
        return f"{self.describe(action)} is not a legal action now"

    def illegal_card_reasons(self) -> dict[int, str]:
        """For cards in the acting seat's hand that cannot be played now: why not.

        Front ends show these next to disabled cards. Games without such cards return ``{}``.
        """
        return {}

    def apply(self, action: Action) -> None:
        """Apply a legal action; raise :class:`IllegalAction` (state unchanged) otherwise."""
        if self.is_terminal:
            raise IllegalAction("the game is over")
        reason = self.illegal_reason(action)
        if reason is not None:
            raise IllegalAction(reason)
        seat = self.current_player
        self._apply(action)
        self.history.append((seat, action))

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Carry out an already validated action."""

    # -- end of game ------------------------------------------------------------------
    @property
    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.current_player == TERMINAL

    @abstractmethod
    def returns(self) -> tuple[float, ...]:
        """Final score of each seat (partners share their team's score); higher is better.

        Before the end this is the score so far.
        """

    def winners(self) -> tuple[int, ...]:
        """Seats that won the finished game (partners together; several on a tie).

        ``()`` while the game runs. By default the seats with the highest return; a game
        whose winner is not simply the highest score (a bidder's priority) overrides this.
        """
        if not self.is_terminal:
            return ()
        returns = self.returns()
        best = max(returns)
        return tuple(s for s, r in enumerate(returns) if r == best)

    # -- copies and views -------------------------------------------------------------
    @abstractmethod
    def clone(self) -> GameState:
        """An independent deep copy (including the RNG state)."""

    @abstractmethod
    def observation(self, seat: int) -> dict[str, JSON]:
        """Everything ``seat`` may see, as a JSON-ready dict, and nothing more."""

    def public_observation(self) -> dict[str, JSON]:
        """What someone who holds no seat may see (a spectator): by default the part of
        the seats' observations that every seat sees alike (:func:`common_view`), so a
        hand, a passed card or a card shown to one seat alone never appears in it, and
        hands laid open to everyone at the end of a hand do. A game may override it with
        its own view, which must never hold more than that."""
        return common_view([self.observation(s) for s in range(self.num_players)])

    # -- action forms -----------------------------------------------------------------
    @abstractmethod
    def action_text(self, action: Action) -> str:
        """Short text form, accepted back by :meth:`parse_action`."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Parse a text form in the current context; :class:`ActionParseError` if unknown."""

    @abstractmethod
    def action_to_json(self, action: Action) -> JSON:
        """JSON form of an action."""

    @abstractmethod
    def action_from_json(self, data: JSON) -> Action:
        """Action from its JSON form; :class:`ActionParseError` if malformed."""

    def public_action(self, action: Action, viewer: int) -> str | None:
        """What ``viewer`` is shown of ``action`` by the seat to act now, as the game's own
        observation shows it: ``None`` when ``viewer`` sees the action whole (its text and
        JSON form), else the text it sees instead (``"passes a card"``). Records and replays
        given to a seat before the end use this, so they hold what that seat saw at the
        time and nothing more. By default every seat sees every action; a game with hidden
        choices (cards passed or buried, a discard, a declaration kept back) overrides it.
        """
        return None

    def brings_to_light(self, before: GameState) -> bool:
        """Whether the step from ``before`` (this game one action earlier) brought to light
        cards that the deal placed and no seat chose to show: a new deal, a draw from the
        stock or talon, cards received, a widow turned up, hands or melds laid open, the
        end of the game. Undo never goes back past such a step (the cards would then be
        known before the decision they follow). By default: the game ended or a seat's
        hand (its observation's ``hand``) gained a card; games that lay cards open in
        other ways add those."""
        if self.is_terminal:
            return True
        for seat in range(self.num_players):
            now = self.observation(seat).get("hand")
            then = before.observation(seat).get("hand")
            if isinstance(now, list) and isinstance(then, list) and set(now) - set(then):
                return True
        return False

    def describe(self, action: Action) -> str:
        """Human-readable description (defaults to the text form)."""
        try:
            return self.action_text(action)
        except Exception:  # a malformed action still deserves a message
            return safe_repr(action)


_ABSENT = object()


def _common(values: list[Any]) -> Any:
    first = values[0]
    if all(v == first and type(v) is type(first) for v in values[1:]):
        return first
    if all(isinstance(v, dict) for v in values):
        out = {}
        for key in first:
            if all(key in v for v in values):
                part = _common([v[key] for v in values])
                if part is not _ABSENT:
                    out[key] = part
        return out
    if all(isinstance(v, list) and len(v) == len(first) for v in values) and \
            all(isinstance(item, dict) for v in values for item in v):
        # Entries about each seat or each event, some of whose fields only some seats see.
        return [_common([v[i] for v in values]) for i in range(len(first))]
    return _ABSENT


def common_view(observations: Sequence[dict[str, JSON]]) -> dict[str, JSON]:
    """The part of several observations they all hold alike: a key kept only where every
    observation has it with an equal value (dicts compared key by key, lists of dicts entry
    by entry); anything one observation lacks or holds differently is left out."""
    if not observations:
        return {}
    out = _common(list(observations))
    return out if isinstance(out, dict) else {}


def safe_repr(value: object, limit: int = 60) -> str:
    """``repr`` cut to ``limit`` characters; never raises (an int too long to convert to
    text, a broken ``__repr__``)."""
    try:
        text = repr(value)
    except Exception:
        return f"<{type(value).__name__} that cannot be shown>"
    return text if len(text) <= limit else text[:limit - 1] + "…"


_new_random = random.Random.__new__
_seed_random = _random.Random.seed


def seeded_rng(seed: int) -> random.Random:
    """``random.Random(seed)`` in the very same state, at half the cost: ``Random(seed)``
    seeds its generator twice (once in ``__new__`` with no seed, once in ``__init__``), this
    seeds it once.

    >>> seeded_rng(7).getstate() == random.Random(7).getstate()
    True
    """
    if type(seed) is not int:
        return random.Random(seed)
    rng = _new_random(random.Random)
    _seed_random(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]  # as Random.__init__ sets it
    return rng


def copy_rng(rng: random.Random) -> random.Random:
    """An independent ``random.Random`` in the same state."""
    out = random.Random()
    out.setstate(rng.getstate())
    return out
