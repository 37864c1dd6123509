"""The engine's quick paths (a listed play or give carried out at once, the next player's
legal faces worked out as a card is played, the cards passed added level by level) against
the rules module's own functions, over seeded random deals of every table."""

from __future__ import annotations

import random

import pytest

from cardplaza.core.protocol import IllegalAction
from cardplaza.core.registry import get_game
from cardplaza.games.pinochle_dd.engine import (
    K_GIVE,
    K_PLAY,
    PASSING,
    PLAY,
    THROW_IN,
    DoubleDeckState,
)
from cardplaza.games.pinochle_dd.rules import (
    FACES,
    SUIT20,
    add,
    count,
    legal_faces,
    remove,
    winning_index,
)

SPEC = get_game("pinochle_dd")
PRESETS = sorted(SPEC.all_presets())


def _reference_faces(st: DoubleDeckState) -> int:
    """The faces the player to act may play, from the rules module alone."""
    hand = st.hands[st.turn]
    if not st.trick and not st.tricks and st.options.first_lead_trump \
            and st.contract > 50 and hand & SUIT20[st.trump]:
        return hand & SUIT20[st.trump]
    return legal_faces(hand, st.trick, st.trump, st.options.must_head)


@pytest.mark.parametrize("preset", PRESETS)
def test_quick_paths_follow_the_rules(preset: str) -> None:
    """At every step of 60 deals per table: the listed plays are the rules' legal faces,
    a play removes one copy from the hand and puts it in the trick (the winner as the
    rules find it), the cards passed reach the partner whole; a play the rules refuse is
    refused, the state unchanged. Listed objects and equal copies alternate."""
    options = SPEC.all_presets()[preset]
    rng = random.Random(PRESETS.index(preset))
    for seed in range(60):
        st = DoubleDeckState(options, seed)
        st.deal_limit = 1
        while not st.is_terminal:
            legal = st.legal_actions()
            seat = st.turn
            if st.phase == PLAY:
                allowed = _reference_faces(st)
                plays = [a[1] for a in legal if a[0] == K_PLAY]  # type: ignore[index]
                assert plays == [f for f in range(FACES) if allowed >> f & 1]
                assert (legal[-1] is THROW_IN) == (not st.trick and not st.tricks)
                refused = [f for f in range(FACES) if not allowed >> f & 1]
                if refused:
                    bad = rng.choice(refused)
                    before = st.observation(seat)
                    with pytest.raises(IllegalAction):
                        st.apply((K_PLAY, bad))
                    assert st.observation(seat) == before
            action = legal[rng.randrange(len(legal))]
            if rng.random() < 0.3:  # an equal copy, not the listed object
                action = st.action_from_json(st.action_to_json(action))
            kind, value = action  # type: ignore[misc]
            hands, trick, tricks = st.hands[:], st.trick[:], len(st.tricks)
            giver, pending, phase = st.giver, st.pending, st.phase
            st.apply(action)
            assert st.history[-1] == (seat, action)
            if kind == K_PLAY:
                assert st.hands[seat] == remove(hands[seat], value)
                played = [*trick, value]
                if len(played) < 4:
                    assert st.trick == played
                    assert st.turn == (seat + 1) % 4
                else:
                    leader, cards, won = st.tricks[tricks]
                    assert list(cards) == played
                    assert won == (leader + winning_index(played, st.trump)) % 4
            elif kind == K_GIVE and phase == PASSING:
                assert st.hands[giver] == remove(hands[giver], value)
                given = add(pending, value)
                if given.bit_count() < st.npass:
                    assert st.pending == given
                else:  # the partner has every card passed
                    receiver = (giver + 2) % 4
                    assert st.given[giver] == given
                    assert all(count(st.hands[receiver], f)
                               == count(hands[receiver], f) + count(given, f)
                               for f in range(FACES))


@pytest.mark.parametrize("preset", PRESETS)
def test_a_trick_set_whole_has_its_winner_worked_out_afresh(preset: str) -> None:
    """A copy made a trick earlier and set to a later position with its trick so far set
    whole (the winner it kept is then stale) lists the same plays, and playing on (listed
    objects and equal copies alike) takes every trick to the same winner as the original,
    through the end of the deal."""
    rng = random.Random(11)
    made = 0
    for seed in range(40):
        st = SPEC.new_game(SPEC.all_presets()[preset], seed)
        assert isinstance(st, DoubleDeckState)
        st.deal_limit = 1
        early: DoubleDeckState | None = None
        twin: DoubleDeckState | None = None
        while not st.is_terminal:
            legal = st.legal_actions()
            if st.phase == PLAY and twin is None:
                if early is None and len(st.tricks) > 2 and len(st.trick) == 2:
                    early = st.clone()  # its trick's winner is known and kept
                elif early is not None and len(st.trick) == 2 + rng.randrange(2):
                    twin = early  # the later position, set whole
                    twin.hands = st.hands[:]
                    twin.tricks = st.tricks[:]
                    twin.tricks_won = st.tricks_won[:]
                    twin.leader, twin.turn = st.leader, st.turn
                    twin.trick = list(st.trick)
            action = legal[rng.randrange(len(legal))]
            if twin is not None:
                assert list(twin.legal_actions()) == list(legal)
                twin_action = twin.legal_actions()[list(legal).index(action)]
                if rng.random() < 0.5:  # an equal copy, not the listed object
                    twin_action = twin.action_from_json(twin.action_to_json(twin_action))
                twin.apply(twin_action)
            st.apply(action)
            if twin is not None:
                assert twin.tricks == st.tricks and twin.trick == st.trick
                assert twin.hands == st.hands and twin.turn == st.turn
                for ld, cards, w in st.tricks:
                    assert w == (ld + winning_index(list(cards), st.trump)) % 4
        if twin is not None:  # (a deal thrown in or set without play has no trick)
            assert twin.scores == st.scores
            made += 1
    assert made >= 5
