"""The legal actions a seat is sent name the same cards whether the cards an action names
are worked out afresh or taken from what was worked out before for the same action."""

from __future__ import annotations

import random

import pytest

from cardplaza.core.registry import get_game
from cardplaza.web.live import tables
from cardplaza.web.live.gameinfo import deck_of
from cardplaza.web.live.tables import action_card, action_cards, legal_entries

GAMES = ["pinochle2", "pinochle4", "pinochle3", "piquet", "efudatori", "pinochle_dd"]


@pytest.mark.parametrize("game", GAMES)
def test_remembered_cards_are_the_cards_worked_out_afresh(game: str) -> None:
    spec = get_game(game)
    rng = random.Random(7)
    tables._NAMED.clear()
    checked = 0
    for seed in range(6):
        state = spec.new_game(spec.options({}), seed)
        while not state.is_terminal and checked < 400:
            deck = deck_of(state)
            for _ in range(2):  # the second time every entry comes from memory
                entries = legal_entries(state, deck)
                for a, entry in zip(state.legal_actions(), entries, strict=True):
                    data = state.action_to_json(a)
                    text = state.action_text(a)
                    assert entry["json"] == data and entry["text"] == text
                    assert entry["card"] == action_card(state, deck, a, text, data)
                    assert entry.get("cards") == action_cards(data, deck)
                    checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked >= 100
    assert tables._NAMED, "nothing was remembered"


def test_the_memory_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = get_game("pinochle2")
    monkeypatch.setattr(tables, "NAMED_LIMIT", 3)
    tables._NAMED.clear()
    rng = random.Random(1)
    state = spec.new_game(spec.options({}), 1)
    for _ in range(30):
        if state.is_terminal:
            break
        legal_entries(state, deck_of(state))
        assert len(tables._NAMED) <= 3
        state.apply(rng.choice(state.legal_actions()))
