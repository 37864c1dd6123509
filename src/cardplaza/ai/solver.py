"""Exact solver for two-seat perfect-information play (e.g. a trick phase with known hands).

Alpha-beta over the game protocol with a transposition table and move ordering. A game
plugs in through a small interface:

* ``key(state)`` — a compact hashable key of everything that decides the *rest* of the
  game (hands, whose turn, cards on the table), but not the score so far;
* ``score(state, seat)`` — ``seat``'s margin so far (at the end: the final margin);
* ``moves(state)`` — optional: the legal actions with equivalent ones merged (identical
  copies, adjacent ranks in one hand) and the most promising first.

The search value is the exact final margin of ``seat`` under optimal play by both seats.
Games with a hot trick phase may provide faster dedicated code (see
``cardplaza.games.pinochle2.solver``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field

from cardplaza.ai.common import margin
from cardplaza.core.protocol import Action, GameState

_EXACT, _LOWER, _UPPER = 0, 1, 2


def default_score(state: GameState, seat: int) -> float:
    """``seat``'s margin from ``state.returns()`` (the score so far)."""
    return margin(state.returns(), seat)


@dataclass
class Solution:
    """Result of :func:`solve`: exact margin, an optimal action and search effort."""

    value: float
    action: Action | None
    nodes: int
    values: dict[Action, float] = field(default_factory=dict)


class _Search:
    def __init__(self, seat: int, key: Callable[[GameState], Hashable] | None,
                 score: Callable[[GameState, int], float],
                 moves: Callable[[GameState], Sequence[Action]] | None) -> None:
        self.seat = seat
        self.key = key
        self.score = score
        self.moves = moves
        self.table: dict[Hashable, tuple[int, float, Action | None]] = {}
        self.nodes = 0

    def future(self, state: GameState, alpha: float, beta: float) -> float:
        """Exact future margin (final margin minus margin so far) within (alpha, beta)."""
        self.nodes += 1
        if state.is_terminal:
            return 0.0
        k = self.key(state) if self.key is not None else None
        best_move: Action | None = None
        if k is not None:
            hit = self.table.get(k)
            if hit is not None:
                flag, val, best_move = hit
                if flag == _EXACT:
                    return val
                if flag == _LOWER and val >= beta:
                    return val
                if flag == _UPPER and val <= alpha:
                    return val
        moves = list(self.moves(state) if self.moves else state.legal_actions())
        if best_move is not None and best_move in moves:
            moves.remove(best_move)
            moves.insert(0, best_move)
        maximize = state.current_player == self.seat
        base = self.score(state, self.seat)
        a0, b0 = alpha, beta
        best = -math.inf if maximize else math.inf
        chosen: Action | None = None
        for move in moves:
            child = state.clone()
            child.apply(move)
            delta = self.score(child, self.seat) - base
            val = delta + self.future(child, alpha - delta, beta - delta)
            if maximize:
                if val > best:
                    best, chosen = val, move
                alpha = max(alpha, best)
            else:
                if val < best:
                    best, chosen = val, move
                beta = min(beta, best)
            if alpha >= beta:
                break
        if k is not None:
            flag = _UPPER if best <= a0 else _LOWER if best >= b0 else _EXACT
            self.table[k] = (flag, best, chosen)
        return best


def solve(state: GameState, seat: int, *, key: Callable[[GameState], Hashable] | None = None,
          score: Callable[[GameState, int], float] = default_score,
          moves: Callable[[GameState], Sequence[Action]] | None = None,
          all_values: bool = False) -> Solution:
    """Exact final margin of ``seat`` with both seats playing perfectly from ``state``.

    With ``all_values`` every root action's exact value is returned in ``values``
    (each searched with a full window), otherwise only the best action is guaranteed.
    """
    search = _Search(seat, key, score, moves)
    base = score(state, seat)
    if state.is_terminal:
        return Solution(base, None, 1)
    if not all_values:
        fut = search.future(state, -math.inf, math.inf)
        k = key(state) if key is not None else None
        action = search.table[k][2] if k is not None and k in search.table else None
        if action is None:
            action = _best_root(search, state, seat, base)[0]
        return Solution(base + fut, action, search.nodes)
    action, values = _best_root(search, state, seat, base)
    best = values[action] if action is not None else base
    return Solution(best, action, search.nodes, values)


def _best_root(search: _Search, state: GameState, seat: int,
               base: float) -> tuple[Action | None, dict[Action, float]]:
    values: dict[Action, float] = {}
    for move in state.legal_actions():
        child = state.clone()
        child.apply(move)
        delta = search.score(child, seat) - base
        values[move] = base + delta + search.future(child, -math.inf, math.inf)
    maximize = state.current_player == seat
    pick = max if maximize else min
    action = pick(values, key=lambda a: values[a]) if values else None
    return action, values


def brute_force(state: GameState, seat: int) -> float:
    """Plain minimax over every legal action (no pruning): the reference for tests."""
    if state.is_terminal:
        return margin(state.returns(), seat)
    vals = []
    for move in state.legal_actions():
        child = state.clone()
        child.apply(move)
        vals.append(brute_force(child, seat))
    return max(vals) if state.current_player == seat else min(vals)
