"""The weak and normal computer players: legal, deciding from the observation alone, the
meld bids of section 8, passing, trump control, smearing, and their strength order."""

from __future__ import annotations

import random

import pytest
from dd_helpers import faces, new_dd, set_hands, win_auction

from cardplaza.ai.player import computer_player
from cardplaza.arena.core import run_arena
from cardplaza.games.pinochle_dd.engine import (
    K_BID,
    K_GIVE,
    K_MELD_BID,
    K_PLAY,
    K_TRUMP,
    PASS,
    PLAY,
    DoubleDeckState,
    Options,
)
from cardplaza.games.pinochle_dd.players import HeuristicPlayer, meld_signals
from cardplaza.games.pinochle_dd.rules import ACE, RANK_OF, SUIT_OF
from cardplaza.games.pinochle_dd.world import permute_unseen

NORMAL = HeuristicPlayer("normal")

MELD_30 = "A♠ A♥ A♦ A♣ K♠ K♥ K♦ K♣ Q♠ J♦ 10♠ 10♥ 10♦ J♣ J♣ Q♦ Q♦ J♥ 10♣ 10♣"
"""Aces around 10 + kings around 8 + pinochle 4 + marriage ♦ 2 … about 30 meld."""


@pytest.mark.parametrize("level", ["weak", "normal"])
@pytest.mark.parametrize("options", [Options(), Options(pass_count=0, scale="x10"),
                                     Options(bid_steps="5", marriage_required=True,
                                             min_meld_20=True, first_lead_trump=True)])
def test_whole_games_with_legal_actions_only(level: str, options: Options) -> None:
    players = [computer_player("pinochle_dd", level, s) for s in range(4)]
    rng = random.Random(1)
    st = DoubleDeckState(options, 3)
    steps = 0
    while not st.is_terminal:
        seat = st.current_player
        action = players[seat].choose(st.observation(seat), st.legal_actions(), rng)
        assert st.illegal_reason(action) is None, action
        st.apply(action)
        steps += 1
        assert steps < 20_000
    assert st.winners()


def test_decisions_do_not_depend_on_hidden_cards() -> None:
    st = DoubleDeckState(Options(), 6)
    rng = random.Random(6)
    checked = 0
    while not st.is_terminal and checked < 300:
        seat = st.current_player
        legal = st.legal_actions()
        other = permute_unseen(st, seat, random.Random(checked))
        mine = NORMAL.choose(st.observation(seat), legal, random.Random(0))
        theirs = NORMAL.choose(other.observation(seat), other.legal_actions(), random.Random(0))
        assert mine == theirs
        st.apply(NORMAL.choose(st.observation(seat), legal, rng))
        checked += 1


def test_meld_bid_raises_one_per_ten_meld_in_the_first_round() -> None:
    st = new_dd(dealer=3)
    set_hands(st, {1: MELD_30})
    st.apply((K_BID, 50))  # seat 0 opens
    obs = st.observation(1)
    action = NORMAL.choose(obs, st.legal_actions(), random.Random(0))
    assert action == (K_MELD_BID, 53)  # 50 raised by 3: "about 30 meld"
    st.apply(action)
    assert meld_signals(st.observation(3)) == {1: 30}


def test_partner_s_meld_bid_is_read_and_the_long_trump_hand_takes_the_contract() -> None:
    st = new_dd(dealer=2)  # seat 3 speaks first, then 0, 1, 2
    set_hands(st, {0: "A♠ A♠ 10♠ 10♠ K♠ K♠ Q♠ J♠ J♠ A♥ 10♥ J♥ Q♦ J♦ K♣ J♣ J♣ Q♣ 10♦ 10♣",
                   2: MELD_30})
    st.apply(PASS)            # seat 3
    st.apply((K_BID, 50))     # seat 0 (the test's hand, bidding by hand here)
    st.apply(PASS)            # seat 1
    st.apply(NORMAL.choose(st.observation(2), st.legal_actions(), random.Random(0)))
    assert st.high_bidder == 2 and st.high_bid == 53  # partner's meld bid
    # The opponents have passed; seat 0 holds eight spades: it keeps bidding.
    action = NORMAL.choose(st.observation(0), st.legal_actions(), random.Random(0))
    assert action == (K_BID, 54)


def test_partner_passes_trump_and_aces_declarer_returns_no_trump() -> None:
    st = new_dd(dealer=3)
    win_auction(st, 0)
    st.apply((K_TRUMP, 1))
    given = []
    while st.turn == 2:
        a = NORMAL.choose(st.observation(2), st.legal_actions(), random.Random(0))
        assert a[0] == K_GIVE  # type: ignore[index]
        given.append(a[1])  # type: ignore[index]
        st.apply(a)
    partner_hand = st.observation(2)["hand"]
    for f in given:
        assert SUIT_OF[f] == 1 or RANK_OF[f] == ACE or not any(
            SUIT_OF[g] == 1 or RANK_OF[g] == ACE for g in partner_hand)
    back = []
    while st.turn == 0 and st.phase != PLAY:
        a = NORMAL.choose(st.observation(0), st.legal_actions(), random.Random(0))
        back.append(a[1])  # type: ignore[index]
        st.apply(a)
    assert all(SUIT_OF[f] != 1 for f in back)
    assert all(RANK_OF[f] != ACE for f in back)


def test_declarer_cashes_side_aces_before_leading_trump() -> None:
    st = new_dd(Options(pass_count=0), dealer=3)
    set_hands(st, {0: "A♠ A♠ 10♠ 10♠ K♠ K♠ Q♠ Q♠ J♠ J♠ A♥ K♥ Q♥ A♣ J♣ J♦ J♦ Q♦ K♦ 10♣"})
    win_auction(st, 0, 60)
    st.apply((K_TRUMP, 0))
    lead = NORMAL.choose(st.observation(0), st.legal_actions(), random.Random(0))
    assert lead[0] == K_PLAY and SUIT_OF[lead[1]] != 0 and RANK_OF[lead[1]] == ACE  # type: ignore[index]


def test_throws_counters_on_partners_secured_trick() -> None:
    """East plays last to West's winning A♠: it throws its 10♠, not the J♠; against
    North's winning trick it would play cheap."""
    st = new_dd(Options(pass_count=0), dealer=3)
    set_hands(st, {3: "10♠ J♠ K♥ Q♥ J♥ A♦ A♦ 10♦ 10♦ K♦ K♦ Q♦ Q♦ J♦ J♦ Q♣ Q♣ J♣ J♣ J♣"})
    win_auction(st, 0, 50)
    st.apply((K_TRUMP, 2))
    assert st.phase == PLAY
    st.trick = faces("J♠ A♠ Q♠")
    st.leader, st.turn = 0, 3
    st._legal = None
    legal = st.legal_actions()
    assert {a[1] for a in legal if a[0] == K_PLAY} == set(faces("10♠ J♠"))  # type: ignore[index]
    card = NORMAL.choose(st.observation(3), legal, random.Random(0))
    assert card == (K_PLAY, faces("10♠")[0])
    st.trick = faces("J♠ Q♠ A♠")  # now North (an opponent) wins: East throws the J♠
    st._legal = None
    card = NORMAL.choose(st.observation(3), st.legal_actions(), random.Random(0))
    assert card == (K_PLAY, faces("J♠")[0])


def test_normal_beats_weak_and_weak_beats_random() -> None:
    result = run_arena("pinochle_dd", ["random", "weak", "normal"], 40, seed=5, unit="deal")
    for a, b in (("normal", "weak"), ("weak", "random")):
        pair = result.pair(a, b)
        assert pair.mean_margin - pair.ci95 > 0, (a, b, pair.mean_margin, pair.ci95)


def test_strong_plays_legal_cards_from_its_observation_alone() -> None:
    """A whole hand with the search player at every seat (few worlds): legal cards only,
    the same card for the same observation, none changed by re-dealing hidden cards."""
    from cardplaza.games.pinochle_dd.players import StrongPlayer

    strong = StrongPlayer(worlds=6, seconds=30.0)
    st = DoubleDeckState(Options(), 21)
    rng = random.Random(21)
    before = st.hand_no
    checked = 0
    while st.hand_no == before and not st.is_terminal:
        seat = st.current_player
        obs = st.observation(seat)
        legal = st.legal_actions()
        action = strong.choose(obs, legal, rng)
        assert action in legal
        if st.phase == PLAY and checked < 12 and len(legal) > 2:
            other = permute_unseen(st, seat, random.Random(checked))
            assert strong.choose(other.observation(seat), other.legal_actions(),
                                 random.Random(5)) == action
            checked += 1
        st.apply(action)
    assert checked == 12
