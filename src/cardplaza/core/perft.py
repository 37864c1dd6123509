"""Perft-style counting: the number of distinct legal action sequences to a fixed depth.

Like chess perft, the counts catch any change in move generation; ``divide`` splits the
count by first action so a mismatch points at the action whose subtree differs.
"""

from __future__ import annotations

from cardplaza.core.protocol import GameState


def perft(state: GameState, depth: int) -> int:
    """Distinct legal action sequences of length ``depth`` (shorter if the game ends)."""
    if depth == 0 or state.is_terminal:
        return 1
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for action in actions:
        child = state.clone()
        child.apply(action)
        total += perft(child, depth - 1)
    return total


def divide(state: GameState, depth: int) -> dict[str, int]:
    """Perft count below each first action, keyed by the action's text form."""
    out: dict[str, int] = {}
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        key = state.action_text(action)
        out[key] = out.get(key, 0) + perft(child, depth - 1)
    return out
