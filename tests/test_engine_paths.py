"""The engines' fast paths: legality worked out once per position, one registry scan, and
the benchmark loop a researcher would write."""

from __future__ import annotations

import pkgutil
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardplaza.core import new_game
from cardplaza.core.cards import bit_list, chunk_tables
from cardplaza.core.protocol import IllegalAction
from cardplaza.core.registry import games, get_game

NAMES = sorted(games())


def test_new_game_does_not_rescan_the_games_package(monkeypatch: pytest.MonkeyPatch) -> None:
    games()  # the first load

    def scan(*args: object, **kwargs: object) -> None:
        raise AssertionError("the games package was scanned again")

    monkeypatch.setattr(pkgutil, "iter_modules", scan)
    for name in NAMES:
        new_game(name, None, 1)
        get_game(name)
    assert sorted(games()) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_legal_actions_are_worked_out_once_per_position(name: str) -> None:
    """The same position answers with the same list; ``apply`` of a listed action, or of
    an equal copy of it, moves on; a clone works its own out."""
    rng = random.Random(5)
    state = new_game(name, None, 3)
    steps = 0
    while not state.is_terminal and steps < 400:
        legal = state.legal_actions()
        assert state.legal_actions() is legal
        twin = state.clone()
        assert list(twin.legal_actions()) == list(legal)
        action = rng.choice(legal)
        if steps % 2:  # an equal action that is not the listed object
            action = state.action_from_json(state.action_to_json(action))
        state.apply(action)
        assert state.history[-1][1] == action
        if not state.is_terminal:
            assert state.legal_actions() is not legal
        twin.apply(action)
        assert twin.observation(0) == state.observation(0)
        steps += 1


@pytest.mark.parametrize("name", NAMES)
def test_rejected_actions_after_legality_is_known(name: str) -> None:
    """Once a position's legality is cached, illegal actions are still refused with a
    reason and leave the state as it was."""
    rng = random.Random(8)
    state = new_game(name, None, 4)
    seen: dict[str, object] = {}
    for _ in range(120):
        if state.is_terminal:
            break
        legal = state.legal_actions()
        for a in legal:
            seen.setdefault(repr(a), a)
        before = state.observation(state.current_player)
        outsiders = [a for a in seen.values() if a not in legal][:5]
        for bad in [*outsiders, True, False, (4, True), (True, 0), -1, 10 ** 30]:
            if any(type(bad) is type(a) and bad == a for a in legal):
                continue
            with pytest.raises(IllegalAction):
                state.apply(bad)
            assert state.observation(state.current_player) == before
            assert state.legal_actions() is legal
        state.apply(rng.choice(legal))


@given(st.integers(min_value=0, max_value=(1 << 80) - 1))
def test_bit_list_matches_the_bit_loop(mask: int) -> None:
    expected = [i for i in range(mask.bit_length()) if mask >> i & 1]
    assert bit_list(mask) == expected


def test_chunk_tables_list_items_in_bit_order() -> None:
    items = [f"c{i}" for i in range(20)]
    t = chunk_tables(items)
    assert len(t) == 3
    for mask in (0, 1, 0b1011_0000_0001, (1 << 20) - 1, 1 << 19):
        got = [*t[0][mask & 255], *t[1][mask >> 8 & 255], *t[2][mask >> 16 & 255]]
        assert got == [items[i] for i in bit_list(mask)]
