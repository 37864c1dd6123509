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
    checked = singles = 0
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
                    singles += "cards" not in entry
            state.apply(rng.choice(state.legal_actions()))
    assert checked >= 100
    # what names a card list is worked out each time (below); anything else remembered
    assert tables._NAMED or not singles, "nothing was remembered"


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


def test_card_lists_are_worked_out_each_time_not_remembered() -> None:
    """A Piquet exchange offers hundreds of discards, new at nearly every message: they
    are not remembered (the memory would fill with them), and their cards are named."""
    spec = get_game("piquet")
    state = spec.new_game(spec.options({}), 3)
    while "discard" not in str(state.action_to_json(state.legal_actions()[0])):
        state.apply(state.legal_actions()[0])
    deck = deck_of(state)
    tables._NAMED.clear()
    entries = legal_entries(state, deck)
    assert len(entries) > 100
    assert not tables._NAMED
    assert all(e["cards"] == e["json"]["discard"] and e["card"] is None for e in entries)
    # a card list names cards only: no flags, nothing outside the deck
    assert action_cards({"discard": [True]}, deck) is None
    assert action_cards({"discard": [0, deck.size]}, deck) is None
    assert action_cards({"discard": [0, deck.size - 1]}, deck) == [0, deck.size - 1]
