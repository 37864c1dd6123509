"""Fast trick-phase worlds: the opponent's hand sampled on bitmasks."""

from __future__ import annotations

import random

import pytest

from cardplaza.games.piquet.options import Options
from cardplaza.games.piquet.players import distinct_cards
from cardplaza.games.piquet.search import PlaySampler
from cardplaza.games.piquet.state import PLAY, PiquetState


def _position(seed: int) -> PiquetState | None:
    s = PiquetState(Options(), seed)
    rng = random.Random(seed)
    tricks = rng.randrange(0, 11)
    while not (s.phase == PLAY and len(s.tricks) == tricks):
        legal = s.legal_actions()
        s.apply(legal[rng.randrange(len(legal))])
        if s.deal_number > 1:
            return None
    return s


@pytest.mark.parametrize("block", range(4))
def test_sampled_hands_fit_the_observation(block: int) -> None:
    """The true hand passes the declaration check; every sampled hand has the right size,
    holds the cards the opponent is known to hold, avoids every card the seat has seen
    elsewhere and the suits the opponent failed to follow, and gives the same declaration record."""
    checked = 0
    for seed in range(block * 40, block * 40 + 40):
        s = _position(seed)
        if s is None:
            continue
        seat = s.current_player
        opp = 1 - seat
        obs = s.observation(seat)
        sp = PlaySampler(obs, random.Random(seed))
        assert sp.ok
        played = voids = 0
        for lead, a, b, _w in s.tricks:
            played |= 1 << (a if lead == opp else b)
            if lead == seat and a >> 3 != b >> 3:
                voids |= 0xFF << (8 * (a >> 3))
        if s.lead_card >= 0 and s.leader == opp:
            played |= 1 << s.lead_card
        assert sp.record(s.hands[opp] | played) == sp.target
        seen = s.hands[seat] | s.discards[seat] | played
        rng = random.Random(seed + 1)
        for _ in range(10):
            hand = sp.sample(rng)
            assert hand.bit_count() == s.hands[opp].bit_count()
            assert hand & sp.known == sp.known
            assert not hand & seen
            assert not hand & voids
            assert sp.record(hand | played) == sp.target
        checked += 1
    assert checked >= 30


def test_equivalent_cards_are_merged() -> None:
    """Touching cards of one suit in the hand (nothing unplayed between them) are one
    choice; a card still out between them splits them until it is played."""
    s = PiquetState(Options(), 5)
    obs = s.observation(0)
    obs["hand"] = [4, 5, 6, 7, 8]  # J♠ Q♠ K♠ A♠ 7♥ (♠ = 0..7, ♥ = 8..15)
    obs["tricks"], obs["trick"] = [], {"leader": 0, "cards": []}
    assert distinct_cards(obs, [4, 5, 6, 7, 8]) == [4, 8]
    obs["hand"] = [4, 6, 8]  # J♠ K♠ with Q♠ still out: two choices
    assert distinct_cards(obs, [4, 6, 8]) == [4, 6, 8]
    obs["tricks"] = [{"leader": 1, "cards": [5, 13], "winner": 1}]  # Q♠ played
    assert distinct_cards(obs, [4, 6, 8]) == [4, 8]
