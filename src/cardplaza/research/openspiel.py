"""Every Card Plaza game as an OpenSpiel Python game (``pip install cardplaza[research]``).

Importing this module registers ``python_cardplaza_<game>`` for each game with a research
codec, so ``pyspiel.load_game("python_cardplaza_pinochle4")`` works; game parameters are
the game's options (``pyspiel.load_game("python_cardplaza_pinochle4", {"target": 500})``,
list options joined by ``/``). The deal is explicit chance: one chance node per dealt place
(and one for a drawn dealer); outcome ``k`` deals the ``k``-th (ascending) of the cards left,
so a node's outcomes are ``0 … n - 1`` (``state.inner.outcome_of(card)`` names the outcome
of a card, ``action_to_string`` the card). Information-state and observation strings are the seat's
observation as JSON (the information state adds the seat's own actions); tensors are the
codec's (the information-state tensor adds the current deal's order of play). A game of
several deals has the parameter ``max_deals`` (default 200): it ends after that many deals
(redeals count), the side ahead winning, so ``max_game_length()`` is a true bound. Returns are
zero-sum results: +1 / -1 between two, ``n / k - 1`` for each of ``k`` winners among
``n`` seats and -1 for the others. ``resample_from_infostate`` deals the hidden cards again
through the game's determinizer, so OpenSpiel's ISMCTS bot plays these games.

>>> import pyspiel
>>> import cardplaza.research.openspiel
>>> game = pyspiel.load_game("python_cardplaza_pinochle2")
>>> game.num_players(), game.new_initial_state().is_chance_node()
(2, True)
"""

from __future__ import annotations

import dataclasses
import operator
import random
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, NamedTuple

import numpy as np
import pyspiel  # type: ignore[import-not-found, unused-ignore]

from cardplaza.core.options import options_from_dict, options_to_dict
from cardplaza.core.protocol import TERMINAL
from cardplaza.core.registry import GameSpec
from cardplaza.research.core import (
    _UNIFORM,
    CHANCE,
    CHANCE_STEPS,
    DEFAULT_MAX_DEALS,
    ChanceState,
    codec_of,
    research_games,
    seats_of,
)

PREFIX = "python_cardplaza_"
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
MAX_CHANCE_OUTCOMES = 53
"""Cards of the largest single deck (E-fuda-tori's 52 + Joker); a drawn dealer has fewer.
A game with a bigger pack says so through its codec (``max_chance_outcomes``)."""


def game_name(name: str) -> str:
    """The OpenSpiel name of a Card Plaza game."""
    return PREFIX + name


def parameters(spec: GameSpec, options: Any = None) -> dict[str, Any]:
    """The OpenSpiel game parameters of ``options`` (the defaults if ``None``): list
    options joined by ``/``."""
    out: dict[str, Any] = {}
    for key, value in options_to_dict(options or spec.options_type()).items():
        out[key] = "/".join(map(str, value)) if isinstance(value, list) else value
    return out


def _defaults(spec: GameSpec) -> dict[str, Any]:
    out = parameters(spec)
    if spec.deals_played is not None:
        out["max_deals"] = DEFAULT_MAX_DEALS
    return out


def _players(spec: GameSpec) -> tuple[int, int]:
    counts = {spec.new_game(o, 0).num_players for o in spec.all_presets().values()}
    return min(counts), max(counts)


def _options(spec: GameSpec, params: dict[str, Any]) -> Any:
    fields = {f.name: f for f in dataclasses.fields(spec.options_type)}
    data = {k: v for k, v in params.items() if k in fields}
    for key, value in list(data.items()):
        if isinstance(value, str) and "tuple" in str(fields[key].type):
            data[key] = [v for v in value.split("/") if v]
    return options_from_dict(spec.options_type, data)


def _game_type(spec: GameSpec) -> Any:
    low, high = _players(spec)
    return pyspiel.GameType(
        short_name=game_name(spec.name),
        long_name=f"Card Plaza {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_defaults(spec),
    )


_OUTCOMES = operator.attrgetter("outcomes")
_FALSE: Callable[[], bool] = bool
"""``False`` when called without arguments: the cheapest call there is."""
_TRUE: Callable[[], bool] = True.__bool__
"""``True`` when called, without a Python frame. (Not a builtin method such as
``"a".isalpha``: OpenSpiel's C++ side takes one for its own base method and calls the
missing C++ one.)"""


def _no_actions(player: int | None = None) -> list[int]:
    """No legal actions (the end of the game)."""
    return []


def _chance_numbers(inner: ChanceState, player: int | None = None) -> list[int]:
    """The outcomes of a chance node as its legal actions (none for a seat)."""
    if player is None or player == _CHANCE:
        return list(range(len(inner.outcomes)))
    return []


class PlayerAction(NamedTuple):
    """One step of :meth:`CardPlazaState.full_history`."""

    player: int
    action: int


class CardPlazaGame(pyspiel.Game):  # type: ignore[misc]
    """A Card Plaza game for OpenSpiel (one class per game, made by :func:`register`)."""

    spec: GameSpec
    game_type: Any

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        spec = self.spec
        full = {**_defaults(spec), **(params or {})}
        self.options = _options(spec, full)
        self.max_deals: int | None = None
        if spec.deals_played is not None:
            self.max_deals = int(full["max_deals"])
            if self.max_deals < 1:
                raise ValueError(f"max_deals must be at least 1; got {self.max_deals}")
        codec = codec_of(spec)
        players = seats_of(spec, self.options)
        info = pyspiel.GameInfo(
            num_distinct_actions=codec.num_actions(self.options),
            max_chance_outcomes=max(MAX_CHANCE_OUTCOMES,
                                    codec.max_chance_outcomes(self.options)),
            num_players=players,
            min_utility=-1.0,
            max_utility=float(players - 1),
            utility_sum=0.0,
            max_game_length=codec.max_game_length(self.options, self.max_deals),
        )
        super().__init__(self.game_type, info, full)
        self.codec = codec
        self.initial = ChanceState(spec, self.options, self.max_deals)
        """The state before the first chance outcome; new states are copies of it."""

    def new_initial_state(self) -> CardPlazaState:
        """The start of a game: the deal's chance nodes come first."""
        return CardPlazaState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> Observer:
        """An observer of a seat's view (information state with perfect recall)."""
        perfect = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        if iig_obs_type is not None and iig_obs_type.private_info not in (
                pyspiel.PrivateInfoType.SINGLE_PLAYER,):
            raise ValueError("only a seat's own view is offered (single-player private info)")
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return Observer(self, perfect)


class CardPlazaState(pyspiel.State):  # type: ignore[misc]
    """A position of a Card Plaza game, with the deal as explicit chance nodes.

    Called from Python, ``apply_action``, ``clone`` and ``child`` run in Python without a
    round trip through OpenSpiel's C++ ``State`` (two calls back into Python per action);
    the history is the adapter's own, so ``history()``, ``full_history()``,
    ``history_str()``, ``move_number()`` and ``is_initial_state()`` answer from it. Called
    from C++ (OpenSpiel's C++ algorithms and tests), every action still reaches the same
    state through ``_apply_action``.
    """

    __slots__ = ("__dict__", "_inner", "chance_outcomes", "is_chance_node", "is_terminal",
                 "legal_actions")

    chance_outcomes: Callable[[], Sequence[tuple[int, float]]]
    """Outcomes of the chance node (each remaining card equally likely): a tuple shared by
    every node with as many outcomes, not a new list each time."""

    is_chance_node: Callable[[], bool]
    """True while dealing (answered here, without a round trip through C++)."""
    is_terminal: Callable[[], bool]
    """True when the game is over."""
    legal_actions: Callable[..., list[int]]
    """``legal_actions(player=None)``: the legal action numbers of ``player`` (the player
    to act if ``None``; chance outcomes at a chance node), ascending; ``[]`` for anyone else
    and at the end."""
    # These are called at every step, and each answers with at most one Python frame:
    # set with ``inner`` and again whenever a step changes what they answer (a chance node
    # begins or ends, the game ends, the engine is another object), they are constant
    # callables (is_terminal, is_chance_node), a C-level partial of an attrgetter on the
    # adapter state's field (chance_outcomes) and the codec's numbers of the engine bound
    # to it (legal_actions).

    def __init__(self, game: CardPlazaGame, inner: ChanceState | None = None) -> None:
        super().__init__(game)
        self.inner = game.initial.clone() if inner is None else inner

    @property
    def inner(self) -> ChanceState:
        """The game with its deals as chance nodes (every call reads the slot ``_inner``:
        a pybind11 object's ``__dict__`` is slow to reach)."""
        return self._inner

    @inner.setter
    def inner(self, value: ChanceState) -> None:
        # Also in the dict, which OpenSpiel's C++ ``Clone`` copies (through this setter).
        self._inner = self.__dict__["inner"] = value
        self.chance_outcomes = partial(_OUTCOMES, value)
        self._track(value)

    def _track(self, inner: ChanceState) -> None:
        """Set the answers of is_chance_node, is_terminal and legal_actions for the step
        ``inner`` is at (after any step but a card dealt or played on the quick paths)."""
        if inner.chance:
            self.is_chance_node = _TRUE
            self.is_terminal = _FALSE
            self.legal_actions = partial(_chance_numbers, inner)
        elif inner.over:
            self.is_chance_node = _FALSE
            self.is_terminal = _TRUE
            self.legal_actions = _no_actions
        else:  # the seat kept after every step is the engine's
            self.is_chance_node = _FALSE
            self.is_terminal = _FALSE
            codec = inner.codec  # (its function, not a bound method: one call layer less)
            self.legal_actions = partial(type(codec).numbers, codec,
                                         inner.engine)  # type: ignore[arg-type]

    def current_player(self) -> int:
        """Seat to act, ``CHANCE`` or ``TERMINAL``."""
        inner = self._inner
        if inner.need is not None:
            return _CHANCE
        p = inner.seat
        return _TERMINAL if p == TERMINAL else p

    def _legal_actions(self, player: int) -> list[int]:
        return self.legal_actions(player)  # (the callable set for the step)

    def apply_action(self, action: int) -> None:
        """Apply an action number or a chance outcome (in Python; see the class).

        The quick paths take the number as it comes: an int (or a NumPy integer) finds its
        action and indexes the tables as the general path's ``operator.index`` would, and
        anything else raises ``TypeError`` at the first table it indexes, before any
        change."""
        inner = self._inner
        if inner.chance:
            n = len(inner.outcomes)  # the items left to deal
            if n > inner.quick_deal and 0 <= action < n:
                # A card dealt that is not the deal's last choice (ChanceState._chance,
                # inline): its history entry alone, the order and the items left brought
                # up to date from it when asked (ChanceState._sync).
                inner.history.append(CHANCE_STEPS[action])
                inner.outcomes = _UNIFORM[n - 1]
                return
            inner._chance(action)
            self._track(inner)
            return
        # An action of the fixed table where no chance can follow before the end
        # (ChanceState._decide, inline); anything else through _decide.
        played = inner.quiet_actions.get(action)
        if played is not None:
            seat = inner.seat
            if seat >= 0:
                step = inner._steps[seat][action]  # (TypeError here for a number not an int)
                engine = inner.engine
                engine.apply(played)  # type: ignore[union-attr]
                inner.history.append(step)  # (the deal's actions are not kept to replay)
                inner.seat = p = engine.current_player  # type: ignore[union-attr]
                if p == TERMINAL:  # (not over before: a seat was to act)
                    inner.over = True
                    self._track(inner)
                return
        inner._decide(action)
        self._track(inner)

    _apply_action = apply_action

    def clone(self) -> CardPlazaState:
        """An independent copy (the engine's own clone and the adapter's lists)."""
        return CardPlazaState(self.get_game(), self._inner.clone())

    def child(self, action: int) -> CardPlazaState:
        """A copy with ``action`` applied."""
        new = CardPlazaState(self.get_game(), self._inner.clone())
        new.apply_action(action)
        return new

    def history(self) -> list[int]:
        """Every action number and chance outcome so far, in order."""
        return [n for _, n in self._inner.history]

    def full_history(self) -> list[PlayerAction]:
        """``(player, action)`` of every step so far (``player`` -1 for chance)."""
        return [PlayerAction(_CHANCE if p == CHANCE else p, n) for p, n in self._inner.history]

    def history_str(self) -> str:
        """The history as OpenSpiel writes it."""
        return ", ".join(str(n) for _, n in self._inner.history)

    def move_number(self) -> int:
        """Steps taken so far (actions and chance outcomes)."""
        return len(self._inner.history)

    def is_initial_state(self) -> bool:
        """True before the first chance outcome."""
        return not self._inner.history

    def _action_to_string(self, player: int, action: int) -> str:
        p = CHANCE if player == int(pyspiel.PlayerId.CHANCE) else player
        return self._inner.action_string(p, int(action))

    def returns(self) -> list[float]:
        """Zero-sum results at the end, zeros before."""
        return self._inner.utilities()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state with the same information state for ``player_id``: the hidden cards
        dealt again by the game's determinizer."""
        seed = int(probability_sampler() * 2 ** 52)
        return CardPlazaState(self.get_game(), self._inner.resample(player_id, random.Random(seed)))

    def __str__(self) -> str:
        return str(self._inner)


class Observer:
    """A seat's view as a tensor (``tensor``, ``dict["observation"]``) and as a string."""

    def __init__(self, game: CardPlazaGame, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        size = game.codec.tensor_size(game.options, perfect_recall)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CardPlazaState, player: int) -> None:
        """Fill the tensor with ``player``'s view of ``state``."""
        self.tensor[:] = state.inner.tensor(player, self.perfect_recall)

    def string_from(self, state: CardPlazaState, player: int) -> str:
        """The view as a string (JSON)."""
        if self.perfect_recall:
            return state.inner.information_state_string(player)
        return state.inner.observation_string(player)


def register(spec: GameSpec) -> type[CardPlazaGame]:
    """Register one game with OpenSpiel (done for every game on import)."""
    game_type = _game_type(spec)
    cls = type(f"CardPlaza_{spec.name}", (CardPlazaGame,), {"spec": spec, "game_type": game_type})
    pyspiel.register_game(game_type, cls)
    return cls


GAMES = {name: register(spec) for name, spec in research_games().items()
         if game_name(name) not in pyspiel.registered_names()}
"""The registered game classes by Card Plaza name."""

__all__ = ["GAMES", "PREFIX", "CardPlazaGame", "CardPlazaState", "game_name", "parameters",
           "register"]
