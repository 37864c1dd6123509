"""Computer players: legal at every level, and the heuristic beats the quick one."""

from __future__ import annotations

import random

import pytest
from piquet_helpers import m

from cardplaza.ai.player import computer_player
from cardplaza.games.piquet.options import Options
from cardplaza.games.piquet.players import LEVELS, hand_value, make_player
from cardplaza.games.piquet.state import PiquetState


def _play(levels: tuple[str, str], seed: int, opts: Options, deals: int = 99) -> PiquetState:
    players = [make_player(levels[0], seed), make_player(levels[1], seed + 1)]
    st = PiquetState(opts, seed)
    rng = random.Random(seed)
    while not st.is_terminal and len(st.sheets) < deals:
        seat = st.current_player
        legal = st.legal_actions()
        action = players[seat].choose(st.observation(seat), legal, rng)
        assert action in legal
        st.apply(action)
    return st


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_legal_deals(level: str) -> None:
    """Each level completes deals with legal actions (sinking on, to meet every choice)."""
    st = _play((level, "1"), 3, Options(sinking=True), deals=1)
    assert len(st.sheets) >= 1


def test_registry_offers_the_levels() -> None:
    """The game registers its levels and the players hook."""
    player = computer_player("piquet", "2", 1)
    assert player.name == "piquet-2"
    with pytest.raises(ValueError):
        make_player("9", 0)


def test_level_two_beats_level_one() -> None:
    """Over 16 parties with seats swapped, level 2 scores more than level 1."""
    total = 0.0
    for g in range(16):
        flip = g % 2
        st = _play(("2", "1") if flip == 0 else ("1", "2"), 500 + g // 2, Options())
        total += st.returns()[flip]
    assert total > 0


def test_hand_value_prefers_combinations() -> None:
    """A quint with a quatorze is worth more than a scattered hand."""
    strong = m("A♠ K♠ Q♠ J♠ 10♠ A♥ A♦ A♣ 7♥ 8♦ 9♣ 7♣")
    weak = m("7♠ 9♠ J♠ 8♥ 10♥ Q♥ 7♦ 9♦ J♦ 8♣ 10♣ Q♣")
    assert hand_value(strong) > hand_value(weak) + 30
