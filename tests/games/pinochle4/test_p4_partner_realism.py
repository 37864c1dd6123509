"""Partner realism: fixed positions with a required or forbidden play (section 18.2).

Each position is built deterministically: the hands of the seats that matter are written
out, the remaining cards are dealt in card order to the other seats, and the cards of the
trick so far are played through the engine (so they are legal). The checked levels are
normal, strong and expert; weak plays at random and is exempt. Seat 0 is "me" unless a
test says otherwise; partners sit opposite (0-2, 1-3). Trump is ♠ unless stated.
"""

from __future__ import annotations

import random

import pytest
from p4_helpers import cards, faces

from cardplaza.core.cards import PINOCHLE
from cardplaza.games.pinochle4.engine import (
    BIDDING,
    K_BID,
    K_GIVE,
    K_PLAY,
    PASSING,
    PLAY,
    Options,
    PinochleState,
)
from cardplaza.games.pinochle4.meld import meld_breakdown, meld_total
from cardplaza.games.pinochle4.players import make_player

LEVELS = ("normal", "strong", "expert")
SEEDS = (0, 1)


def _deal(spec: dict[int, str]) -> list[int]:
    """Hands as masks: the given seats as written, the rest of the deck in card order."""
    seats = sorted(spec)
    groups = cards(*(spec[s] for s in seats))
    hands = [0] * 4
    used = 0
    for s, group in zip(seats, groups, strict=True):
        assert len(group) <= 12
        for c in group:
            hands[s] |= 1 << c
            used |= 1 << c
    rest = [c for c in range(48) if not used >> c & 1]
    for s in range(4):
        while hands[s].bit_count() < 12:
            hands[s] |= 1 << rest.pop(0)
    assert not rest
    return hands


def play_position(spec: dict[int, str], *, bidder: int, leader: int, plays: str = "",
                  trump: int = 0, options: Options | None = None) -> PinochleState:
    """A first-trick position: bidder, trump, melds shown, ``plays`` made from ``leader``."""
    opts = options or Options(passing=0)
    st = PinochleState(opts, 0)
    st.hands = _deal(spec)
    st.bids = [(bidder, 250)] + [((bidder + k) % 4, 0) for k in (1, 2, 3)]
    st.passed = sum(1 << ((bidder + k) % 4) for k in (1, 2, 3))
    st.high_bid, st.high_bidder = 250, bidder
    st.bidder, st.contract, st.trump = bidder, 250, trump
    st.melds = [meld_breakdown(h, trump, opts.extra_kq, opts.one_point) for h in st.hands]
    st.phase = PLAY
    st.leader = st.turn = leader
    st.trick = []
    for text in plays.split():
        f = PINOCHLE.parse_face(text)
        hand = st.hands[st.turn]
        c = f if hand >> f & 1 else f + 24
        assert hand >> c & 1, f"seat {st.turn} does not hold {text}"
        st.apply((K_PLAY, c))
    return st


def decisions(st: PinochleState) -> dict[str, str]:
    """The card each checked level plays (text), for every seed."""
    seat = st.current_player
    obs = st.observation(seat)
    legal = st.legal_actions()
    out = {}
    for level in LEVELS:
        for seed in SEEDS:
            a = make_player(level, seed).choose(obs, legal, random.Random(seed))
            assert a in legal
            assert isinstance(a, tuple)
            out[f"{level}/{seed}"] = PINOCHLE.text(a[1])
    return out


def legal_texts(st: PinochleState) -> set[str]:
    return {PINOCHLE.text(a[1]) for a in st.legal_actions() if isinstance(a, tuple)}


# -- (a) no early trump lead without a reason ---------------------------------------------

def test_bidder_with_side_aces_and_few_trumps_does_not_lead_trump() -> None:
    """First lead of the hand: three side aces, three low trumps -> lead a side card."""
    st = play_position({0: "A♥ A♦ A♣ 10♠ J♠ 9♠ K♥ Q♥ 10♦ 9♦ K♣ 9♣"}, bidder=0, leader=0)
    for who, card in decisions(st).items():
        assert not card.endswith("♠"), f"{who} led trump {card}"


def test_bidders_partner_does_not_lead_trump_early() -> None:
    """Partner of the bidder wins trick 1 and leads: side aces and few trumps, so it does
    not lead trump (that would pull the bidder's trumps for nothing)."""
    spec = {0: "9♥ A♠ A♠ 10♠ K♠ Q♠ J♠ 9♠ K♦ Q♦ J♦ 9♦",
            1: "J♥",
            2: "A♥ A♦ A♣ J♠ 9♠ Q♠ 10♦ K♣ Q♥ K♥ Q♥ 10♣",
            3: "K♥"}
    st = play_position(spec, bidder=0, leader=0, plays="9♥ J♥ A♥ K♥")
    assert st.phase == PLAY and st.current_player == 2 and not st.trick
    for who, card in decisions(st).items():
        assert not card.endswith("♠"), f"{who} led trump {card}"


# -- (b) no wasted trump ace ----------------------------------------------------------------

def test_trump_ace_not_wasted_when_any_trump_wins_partners_trick() -> None:
    """Last to play, partner's A♥ is winning, void in hearts so a trump is due: any trump
    takes the trick for the side, so the trump ace is not spent."""
    spec = {0: "A♠ J♠ 9♠ A♦ 10♦ K♦ Q♦ J♦ 9♦ 10♣ Q♣ 9♣", 1: "K♥", 2: "A♥", 3: "9♥"}
    st = play_position(spec, bidder=0, leader=1, plays="K♥ A♥ 9♥")
    assert {"A♠", "J♠", "9♠"} <= legal_texts(st)
    for who, card in decisions(st).items():
        assert card != "A♠", f"{who} wasted the trump ace"


def test_trump_ace_not_wasted_when_a_lower_trump_overtrumps() -> None:
    """Last to play, an opponent trumped a counterless trick with 9♠: J♠ or 10♠ also
    over-trumps, so the A♠ is kept."""
    spec = {0: "A♠ 10♠ J♠ A♦ 10♦ K♦ Q♦ J♦ 9♦ 10♣ Q♣ 9♣", 1: "9♥", 2: "J♥",
            3: "9♠ 9♠ K♠ Q♠ A♦ 10♦ K♦ Q♦ J♦ 9♦ A♣ K♣"}
    st = play_position(spec, bidder=0, leader=1, plays="9♥ J♥ 9♠")
    assert legal_texts(st) == {"A♠", "10♠", "J♠"}
    for who, card in decisions(st).items():
        assert card != "A♠", f"{who} wasted the trump ace"


# -- (c) counters onto partner's sure trick ---------------------------------------------------

def test_smears_counter_of_led_suit_on_partners_sure_trick() -> None:
    """Last to play, partner's A♥ cannot be beaten: throw the 10♥ or K♥, not 9/J/Q."""
    spec = {0: "10♥ K♥ Q♥ 9♥ J♠ 9♠ K♦ Q♦ J♦ 9♦ J♣ 9♣", 1: "K♥", 2: "A♥", 3: "Q♥"}
    st = play_position(spec, bidder=2, leader=1, plays="K♥ A♥ Q♥")
    assert legal_texts(st) == {"10♥", "K♥", "Q♥", "9♥"}
    for who, card in decisions(st).items():
        assert card in ("10♥", "K♥"), f"{who} threw {card} on partner's sure trick"


def test_smears_a_counter_when_void_on_partners_sure_trick() -> None:
    """Last to play, void in hearts and trumps, partner's A♥ wins: a counter (A, 10, K of
    a side suit) goes on it, not a 9, J or Q."""
    spec = {0: "K♦ Q♦ J♦ 9♦ 10♣ Q♣ J♣ 9♣ 9♦ J♦ Q♣ A♣", 1: "K♥", 2: "A♥", 3: "9♥"}
    st = play_position(spec, bidder=2, leader=1, plays="K♥ A♥ 9♥")
    assert len(legal_texts(st)) == 9
    for who, card in decisions(st).items():
        assert card[:-1] in ("A", "10", "K"), f"{who} threw {card} on partner's sure trick"


# -- over-trumping partner ------------------------------------------------------------------

def test_does_not_overtrump_partner_needlessly() -> None:
    """Option O5 (must beat only on trump leads): partner trumped with 10♠ and the last
    opponent followed; last to play and void, any trump is legal: not the A♠."""
    spec = {0: "A♠ 9♠ J♠ A♦ 10♦ K♦ Q♦ J♦ 9♦ 10♣ Q♣ 9♣", 1: "9♥",
            2: "10♠ A♣ 10♣ K♣ Q♣ J♣ 9♦ K♠ A♦ 10♦ K♦ Q♦", 3: "J♥"}
    st = play_position(spec, bidder=0, leader=1, plays="9♥ 10♠ J♥",
                       options=Options(passing=0, beat_only_trump_leads=True))
    assert legal_texts(st) == {"A♠", "J♠", "9♠"}
    for who, card in decisions(st).items():
        assert card != "A♠", f"{who} over-trumped partner with the A♠"


# -- (d) passing ----------------------------------------------------------------------------

def _passing_position(bidder_hand: str, partner_hand: str, trump: int) -> PinochleState:
    """Bidder seat 0 named ``trump``; partner (seat 2) is to pass four cards."""
    st = play_position({0: bidder_hand, 2: partner_hand}, bidder=0, leader=0, trump=trump,
                       options=Options())
    st.melds = None
    st.phase = PASSING
    st.giver = st.turn = 2
    st.pending = 0
    return st


BIDDER = "Q♠ J♦ K♠ A♥ 10♥ K♥ Q♥ 9♦ 9♣ J♣ Q♣ 10♣"
PARTNER = "A♥ K♥ 9♥ A♦ A♣ 10♦ J♠ 9♠ 9♦ J♣ Q♦ K♣"


@pytest.mark.parametrize("level", LEVELS)
def test_partner_passes_trumps_then_aces(level: str) -> None:
    """Partner passes its highest trumps, then aces (section 18.2)."""
    st = _passing_position(BIDDER, PARTNER, trump=1)
    player = make_player(level, 0)
    rng = random.Random(0)
    given = []
    for _ in range(4):
        a = player.choose(st.observation(2), st.legal_actions(), rng)
        assert isinstance(a, tuple) and a[0] == K_GIVE
        given.append(PINOCHLE.text(a[1]))
        st.apply(a)
    assert given[:3] == ["A♥", "K♥", "9♥"]
    assert given[3] in ("A♦", "A♣")


@pytest.mark.parametrize("level", LEVELS)
def test_bidder_return_keeps_pinochle_and_meld(level: str) -> None:
    """The bidder returns four cards without breaking the pinochle (Q♠ J♦), the marriage
    or the royal run it melds: its meld after the return equals the 16-card meld."""
    st = _passing_position(BIDDER, PARTNER, trump=1)
    normal = make_player("normal", 0)
    rng = random.Random(0)
    for _ in range(4):
        st.apply(normal.choose(st.observation(2), st.legal_actions(), rng))
    assert st.phase == PASSING and st.giver == 0
    sixteen = st.hands[0]
    assert sixteen.bit_count() == 16
    player = make_player(level, 0)
    returned = []
    for _ in range(4):
        a = player.choose(st.observation(0), st.legal_actions(), random.Random(1))
        assert isinstance(a, tuple) and a[0] == K_GIVE
        returned.append(a[1])
        st.apply(a)
    assert not {"Q♠", "J♦"} & set(faces(returned)), faces(returned)
    assert meld_total(st.hands[0], 1) == meld_total(sixteen, 1)
    assert st.phase == PLAY


# -- (e) bidding on over partner once both opponents passed --------------------------------

def _after_opponents_passed(hand: str, seed: int = 0) -> PinochleState:
    """Seat 0 passed, seat 1 opened 250, seat 2 passed: seat 3 (seat 1's partner) speaks
    with ``hand``, both opponents out."""
    st = PinochleState(Options(), seed)
    st.hands = _deal({3: hand})
    st.dealer = 3
    st.turn = 0
    for amount in (0, 250, 0):
        st.apply(st.parse_action(f"bid {amount}") if amount else (K_BID, 0))
    assert st.phase == BIDDING and st.current_player == 3 and st.high_bidder == 1
    return st


@pytest.mark.parametrize("seed", SEEDS)
def test_expert_partner_with_a_big_hand_bids_on_after_both_opponents_passed(seed: int) -> None:
    """A run in spades, a pinochle and two more aces: the expert does not leave the
    contract at partner's 250 only because the opponents passed; it bids on."""
    st = _after_opponents_passed("A♠ 10♠ K♠ Q♠ J♠ 9♠ K♠ Q♦ J♦ A♥ A♣ 10♠", seed)
    a = make_player("expert", seed).choose(st.observation(3), st.legal_actions(),
                                           random.Random(seed))
    assert a == (K_BID, 260)


@pytest.mark.parametrize("seed", SEEDS)
def test_expert_partner_without_help_still_passes_there(seed: int) -> None:
    """No meld to speak of: partner's bid is left alone."""
    st = _after_opponents_passed("9♠ J♥ 9♥ Q♦ 9♦ J♣ 9♣ 10♦ J♠ Q♥ 9♣ K♣", seed)
    a = make_player("expert", seed).choose(st.observation(3), st.legal_actions(),
                                           random.Random(seed))
    assert a == (K_BID, 0)
