"""Two-hand Pinochle with a small abstraction, as an OpenSpiel game researchers can train
tabular methods on (``pip install cardplaza[research]``).

Exact information states of two-hand Pinochle hardly ever recur, so a table keyed by them
learns nothing that carries over to a new deal. ``python_cardplaza_pinochle2_abstract`` is
the same game (the same engine, the deal as the same chance nodes) with

* a handful of **move kinds** in place of cards: lead a low side card, a side ace, a low or
  a high trump; follow by winning as cheaply as possible, winning with a trump, or ducking
  with the cheapest card; after a won stock trick meld the best meld or nothing. Each kind
  stands for one card (or meld) worked out from the seat's hand; the legal actions are the
  kinds that exist in the position;
* an **information-state key** of a few coarse features of what the seat sees: the step,
  leading or following, stock or playoff, how much of the stock is left, trumps and side
  aces held, what was led (trump, a counter), the score so far (behind, level, ahead) and
  which move kinds exist.

Keys recur across deals, so outcome-sampling MCCFR or tabular Q-learning from
``open_spiel.python`` learn a policy that plays new deals. The abstraction is the game's
(its ``abstraction`` hook, :mod:`cardplaza.games.pinochle2.abstraction`); :func:`abstract`
gives its move kinds as action numbers, and is the one function both this game and a seat
program (:mod:`cardplaza.research.mccfr`) use.
"""

from __future__ import annotations

from typing import Any

import pyspiel  # type: ignore[import-not-found, unused-ignore]

from cardplaza.core.protocol import TERMINAL, GameState
from cardplaza.core.registry import get_game
from cardplaza.research.core import CHANCE, ChanceState, codec_of, uniform_outcomes
from cardplaza.research.openspiel import PlayerAction

NAME = "python_cardplaza_pinochle2_abstract"
_SPEC = get_game("pinochle2")
_CODEC = codec_of(_SPEC)
_ABSTRACT = _SPEC.hook("abstraction")
MOVES: tuple[str, ...] = _ABSTRACT.moves
"""The move kinds (action numbers of the abstract game)."""


def abstract(state: GameState) -> tuple[str, list[int | None]]:
    """The key of the seat to act and, per move kind, the action number it stands for
    (``None`` where the kind does not exist here)."""
    key, actions = _ABSTRACT.abstract(state)
    encode = _CODEC.encode
    return key, [None if a is None else encode(state, a) for a in actions]


# -- the OpenSpiel game --------------------------------------------------------------

_GAME_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name="Card Plaza two-hand Pinochle, abstracted moves and information states",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification={},
)


class AbstractGame(pyspiel.Game):  # type: ignore[misc]
    """Two-hand Pinochle with move kinds and coarse information-state keys."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        options = _SPEC.options_type()
        codec = codec_of(_SPEC)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(MOVES),
            max_chance_outcomes=48,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=codec.max_game_length(options),
        )
        super().__init__(_GAME_TYPE, info, params or {})
        self.initial = ChanceState(_SPEC, options)

    def new_initial_state(self) -> AbstractState:
        """The start of a game: the deal's chance nodes come first."""
        return AbstractState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> KeyObserver:
        """Strings only: the information-state key."""
        return KeyObserver()


class AbstractState(pyspiel.State):  # type: ignore[misc]
    """A position; decisions are move kinds, chance nodes are the deal's."""

    def __init__(self, game: AbstractGame, inner: ChanceState | None = None) -> None:
        super().__init__(game)
        self.inner = game.initial.clone() if inner is None else inner
        self._moves: tuple[str, list[int | None]] | None = None

    def _abstract(self) -> tuple[str, list[int | None]]:
        if self._moves is None:
            assert self.inner.engine is not None
            self._moves = abstract(self.inner.engine)
        return self._moves

    def current_player(self) -> int:
        """Seat to act, chance or terminal."""
        inner = self.inner
        if inner.need is not None:
            return int(pyspiel.PlayerId.CHANCE)
        p = inner.current_player
        return int(pyspiel.PlayerId.TERMINAL) if p == TERMINAL else p

    def is_chance_node(self) -> bool:
        """True while dealing."""
        return self.inner.need is not None

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.inner.over

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The move kinds that exist here (chance outcomes while dealing)."""
        inner = self.inner
        if inner.need is not None:
            return list(range(len(inner.left))) if player in (None, -1) else []
        if inner.over or (player is not None and player != inner.current_player):
            return []
        return [i for i, m in enumerate(self._abstract()[1]) if m is not None]

    def _legal_actions(self, player: int) -> list[int]:
        return self.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each card left equally likely next."""
        return list(uniform_outcomes(len(self.inner.left)))

    def apply_action(self, action: int) -> None:
        """Apply a chance outcome or a move kind."""
        inner = self.inner
        if inner.need is not None:
            inner._chance(action)
            return
        number = self._abstract()[1][action]
        if number is None:
            raise ValueError(f"move kind {action} ({MOVES[action]}) does not exist here")
        self._moves = None
        inner._decide(number)

    _apply_action = apply_action

    def information_state_string(self, player: int | None = None) -> str:
        """The key of the seat to act (the abstraction is asked of the seat to act only)."""
        if player is not None and player != self.current_player():
            raise ValueError("the abstract key is kept for the seat to act only")
        return self._abstract()[0]

    def observation_string(self, player: int | None = None) -> str:
        """The same key."""
        return self.information_state_string(player)

    def clone(self) -> AbstractState:
        """An independent copy."""
        new = AbstractState(self.get_game(), self.inner.clone())
        new._moves = self._moves
        return new

    def child(self, action: int) -> AbstractState:
        """A copy with ``action`` applied."""
        new = self.clone()
        new.apply_action(action)
        return new

    def history(self) -> list[int]:
        """The concrete action numbers and chance outcomes so far."""
        return [n for _, n in self.inner.history]

    def full_history(self) -> list[PlayerAction]:
        """``(player, number)`` of every step (player -1 for chance)."""
        return [PlayerAction(-1 if p == CHANCE else p, n) for p, n in self.inner.history]

    def move_number(self) -> int:
        """Steps so far."""
        return len(self.inner.history)

    def returns(self) -> list[float]:
        """+1 / -1 at the end (0 on a draw), zeros before."""
        return self.inner.utilities()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            return self.inner.action_string(CHANCE, action)
        return MOVES[action]

    def __str__(self) -> str:
        return str(self.inner)


class KeyObserver:
    """String views for OpenSpiel's C++ side: the information-state key."""

    def __init__(self) -> None:
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: AbstractState, player: int) -> None:
        """No tensor."""

    def string_from(self, state: AbstractState, player: int) -> str:
        """The key (for the seat to act; an empty string for the other seat)."""
        if state.is_chance_node() or state.is_terminal() or \
                player != state.current_player():
            return ""
        return state.information_state_string(player)


if NAME not in pyspiel.registered_names():
    pyspiel.register_game(_GAME_TYPE, AbstractGame)


__all__ = ["MOVES", "NAME", "AbstractGame", "AbstractState", "abstract"]
