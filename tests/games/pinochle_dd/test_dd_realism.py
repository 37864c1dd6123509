"""Realism scenarios: each habit players ask of a computer partner, as a constructed
position with the play a good player makes, checked for the expert (and the levels that
share the habit)."""

from __future__ import annotations

import random

import pytest
from dd_helpers import faces, new_dd, set_hands, win_auction

from cardplaza.games.pinochle_dd.engine import K_BID, K_GIVE, K_PLAY, PASS, Options, next_allowed
from cardplaza.games.pinochle_dd.players import ExpertPlayer, HeuristicPlayer
from cardplaza.games.pinochle_dd.rules import SUIT_OF

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
EXPERT = ExpertPlayer(worlds=48, seconds=5.0)

BIG_HAND = ("A♠ A♠ 10♠ K♠ K♠ Q♠ Q♠ J♠ J♠ "  # a double-ish run in spades: long trump
            "A♥ A♦ A♣ K♥ Q♥ J♦ 10♣ K♣ Q♣ 10♥ 10♦")


def _choose(player: HeuristicPlayer, st: object, seed: int = 0) -> tuple[int, int]:
    seat = st.current_player  # type: ignore[attr-defined]
    action = player.choose(st.observation(seat), st.legal_actions(),  # type: ignore[attr-defined]
                           random.Random(seed))
    assert isinstance(action, tuple)
    return action


def _after_opponents_passed() -> object:
    """South (0) opened 51, West passed, North (2) bid 60 to play, East passed: South
    speaks again with partner high and both opponents out."""
    st = new_dd(Options(), dealer=3)
    set_hands(st, {0: BIG_HAND})
    st.apply(st.parse_action("bid 51"))  # South
    st.apply(PASS)                       # West
    st.apply(st.parse_action("bid 60"))  # North
    st.apply(PASS)                       # East
    assert st.turn == 0
    return st


def test_partner_with_a_big_hand_bids_on_after_both_opponents_passed() -> None:
    """South holds a long spade run and far more meld than its opening 51 showed: passing
    now would leave partner to play 60 with the side's best hand unused; South bids on."""
    action = _choose(EXPERT, _after_opponents_passed())
    assert action[0] in (K_BID, 4, 6) and action[1] > 60, action


def test_partners_do_not_raise_each_other_again() -> None:
    """After South bid on over North's 60 and North raised once more, South has already
    spoken since the opponents passed: a made contract scores the same however high it
    is, so South lets North play rather than raise its own side again."""
    st = _after_opponents_passed()
    first = _choose(EXPERT, st)
    assert first[0] in (K_BID, 4, 6)
    st.apply(first)  # type: ignore[attr-defined]
    assert st.turn == 2  # type: ignore[attr-defined]
    high = st.high_bid  # type: ignore[attr-defined]
    steps = st.options.bid_steps  # type: ignore[attr-defined]
    st.apply(st.parse_action(f"bid {next_allowed(high, steps)}"))  # type: ignore[attr-defined]
    assert st.turn == 0  # type: ignore[attr-defined]
    assert _choose(EXPERT, st) == PASS


def test_the_normal_level_still_passes_there() -> None:
    """The habit players complain of, kept at the normal level so the levels differ."""
    assert _choose(HeuristicPlayer("normal"), _after_opponents_passed()) == PASS


def test_meld_bid_in_the_first_round_shows_the_meld() -> None:
    """South speaks first with about 30 meld and a modest hand: it opens with a meld bid
    (50 + 3 = 53), below 60, not a plain 50 nor a pass."""
    hand = ("K♥ Q♥ K♥ Q♥ A♠ A♥ A♦ A♣ Q♠ J♦ "
            "J♠ Q♣ J♣ 10♠ K♠ J♥ 10♦ K♦ 10♣ K♣")
    st = new_dd(Options(), dealer=3)
    set_hands(st, {0: hand})
    assert st.turn == 0
    from dd_helpers import hand as mask

    from cardplaza.games.pinochle_dd.meld import meld_totals
    meld = max(meld_totals(mask(hand)))
    action = _choose(EXPERT, st)
    assert action[1] == 50 + min(5, meld // 10) < 60, (meld, action)


def _to_passing(st: object, trump: int) -> None:
    win_auction(st, 0, 55)  # type: ignore[arg-type]
    st.apply((1, trump))  # type: ignore[attr-defined]


@pytest.mark.parametrize("level", ["normal", "expert"])
def test_partner_passes_trump_and_aces_to_the_declarer(level: str) -> None:
    """South declared spades; North passes its trumps (highest first) and aces, not its
    side-suit junk."""
    north = ("A♠ 10♠ A♥ A♦ J♥ J♥ Q♥ Q♦ J♦ J♣ "
             "Q♣ J♣ Q♣ K♦ K♥ Q♥ J♦ Q♦ J♥ J♣")
    st = new_dd(Options(), dealer=3)
    set_hands(st, {2: north})
    _to_passing(st, SPADES)
    player = ExpertPlayer(worlds=8) if level == "expert" else HeuristicPlayer(level)
    given = []
    while st.phase == 2 and st.turn == 2:
        action = _choose(player, st)
        assert action[0] == K_GIVE
        given.append(action[1])
        st.apply(action)
    assert sorted(given) == sorted(faces("A♠ 10♠ A♥ A♦"))


@pytest.mark.parametrize("level", ["normal", "expert"])
def test_partner_passes_a_pinochle_part_that_may_complete_the_declarers(level: str) -> None:
    """South declared hearts; North holds two trumps, one ace and a loose Q♠ (no J♦ to
    pair it). After the trumps and the ace it passes the Q♠, which likely makes a pinochle
    with a J♦ of South's, not side-suit junk that makes nothing."""
    north = ("A♥ 10♥ A♦ Q♠ J♠ J♠ 10♠ 10♠ 10♦ 10♦ "
             "Q♦ Q♦ J♣ J♣ J♣ 10♣ 10♣ 10♣ Q♣ Q♣")
    st = new_dd(Options(), dealer=3)
    set_hands(st, {2: north})
    _to_passing(st, HEARTS)
    player = ExpertPlayer(worlds=8) if level == "expert" else HeuristicPlayer(level)
    given = []
    while st.phase == 2 and st.turn == 2:
        action = _choose(player, st)
        given.append(action[1])
        st.apply(action)
    assert sorted(given) == sorted(faces("A♥ 10♥ A♦ Q♠"))


@pytest.mark.parametrize("level", ["normal", "expert"])
def test_declarer_returns_a_trump_to_save_an_around(level: str) -> None:
    """South declared spades: a run, marriages in the three side suits (so kings around
    and queens around) and aces around; North passes four trumps. Of its 24 cards South
    can spare two side tens and then only trumps or meld: it returns two trumps outside
    the meld rather than break the queens around, and keeps all its meld."""
    south = ("A♠ A♠ 10♠ 10♠ K♠ Q♠ J♠ J♠ J♠ K♥ "
             "K♦ K♣ Q♥ Q♦ Q♣ A♥ A♦ A♣ 10♥ 10♦")
    north = ("A♠ K♠ K♠ J♠ J♥ J♥ J♥ J♥ Q♥ Q♥ "
             "10♥ 10♥ J♦ J♦ Q♦ Q♦ J♣ J♣ Q♣ Q♣")
    st = new_dd(Options(), dealer=3)
    set_hands(st, {0: south, 2: north})
    _to_passing(st, SPADES)
    partner = HeuristicPlayer("normal")
    while st.phase == 2 and st.turn == 2:
        st.apply(_choose(partner, st))
    assert st.phase == 2 and st.turn == 0
    from cardplaza.games.pinochle_dd.meld import meld_total

    before = meld_total(st.hands[0], SPADES)
    player = ExpertPlayer(worlds=8) if level == "expert" else HeuristicPlayer(level)
    returned = []
    while st.phase == 2 and st.turn == 0:
        action = _choose(player, st)
        returned.append(action[1])
        st.apply(action)
    assert sorted(returned) == sorted(faces("10♥ 10♦ J♠ J♠"))
    assert meld_total(st.hands[0], SPADES) == before


def _first_lead_position(south: str, trump: int) -> object:
    st = new_dd(Options(pass_count=0), dealer=3)
    set_hands(st, {0: south})
    win_auction(st, 0, 50)
    st.apply((1, trump))
    assert st.phase == 3 and st.turn == 0
    return st


def test_declarer_with_few_trumps_does_not_lead_trump_at_once() -> None:
    """South declared hearts with five trumps (fewer than half of the twenty) and side
    aces: its first lead is a side card, keeping control of trump."""
    south = ("A♥ 10♥ K♥ Q♥ J♥ A♠ A♠ A♦ A♣ 10♠ "
             "K♠ Q♠ J♠ 10♦ K♦ Q♦ J♦ 10♣ K♣ Q♣")
    st = _first_lead_position(south, HEARTS)
    action = _choose(ExpertPlayer(worlds=12), st)
    assert action[0] == K_PLAY and SUIT_OF[action[1]] != HEARTS, action


@pytest.mark.parametrize("level", ["normal", "expert"])
def test_defender_throws_a_counter_on_partners_secured_trick(level: str) -> None:
    """South (declarer, spades) leads J♥, West (1) takes it with A♥, North follows; East
    (3) plays last holding K♥ and J♥ in hearts. The trick is partner's whatever East plays,
    so the counter goes on it (K♥), not the jack."""
    south = ("J♥ J♥ Q♥ A♠ A♠ 10♠ K♠ Q♠ J♠ A♦ "
             "10♦ K♦ Q♦ J♦ A♣ 10♣ K♣ Q♣ J♣ J♠")
    west = ("A♥ A♥ Q♥ A♠ 10♠ K♠ Q♠ J♠ A♦ 10♦ "
            "K♦ Q♦ J♦ A♣ 10♣ K♣ Q♣ J♣ K♦ Q♦")
    east = ("K♥ J♥ A♠ 10♠ K♠ Q♠ J♠ A♦ 10♦ K♦ "
            "Q♦ J♦ A♣ 10♣ K♣ Q♣ J♣ Q♠ J♦ 10♣")
    st = new_dd(Options(pass_count=0), dealer=3)
    set_hands(st, {0: south, 1: west, 3: east})
    win_auction(st, 0, 50)
    st.apply((1, SPADES))
    assert st.turn == 0
    st.apply((K_PLAY, faces("J♥")[0]))
    st.apply((K_PLAY, faces("A♥")[0]))
    st.apply((K_PLAY, st.legal_actions()[0][1]))  # type: ignore[index]
    assert st.turn == 3
    player = ExpertPlayer(worlds=16) if level == "expert" else HeuristicPlayer(level)
    action = _choose(player, st)
    assert action == (K_PLAY, faces("K♥")[0])


def test_realism_rates_are_counted_from_the_deals() -> None:
    """The statistics behind ``scripts/dd_realism.py`` on a few deals of the normal level:
    partners pass trump and aces, a short declarer never opens with trump, and every
    counted case is one the rules define (hits never exceed cases)."""
    from cardplaza.games.pinochle_dd.realism import measure

    h = measure("normal", 12, seed=4)
    assert h.deals == 12
    for _, rate in h.rows():
        assert 0 <= rate.hits <= rate.cases
    assert h.passed_trump_or_ace.cases >= 12 * 4 // 2
    assert h.passed_trump_or_ace.share > 0.9
    assert h.trump_first_lead_when_short.cases > 0
    assert h.trump_first_lead_when_short.hits == 0
    assert h.meld_bid_when_able.share > 0.9
    # The auction alone: the same bidding cases, nothing of the passing or the play.
    a = measure("normal", 12, seed=4, auction_only=True)
    assert a.meld_bid_when_able.cases == h.meld_bid_when_able.cases
    assert a.pass_after_opponents_passed.cases == h.pass_after_opponents_passed.cases
    assert a.passed_trump_or_ace.cases == a.trump_first_lead_when_short.cases == 0


def _after_east_opened(south: str, amount: int) -> object:
    """East (3) opened with a bid to play of ``amount``; South (0) speaks next."""
    st = new_dd(Options(), dealer=2)
    set_hands(st, {0: south})
    st.apply(st.parse_action(f"bid {amount}"))
    assert st.turn == 0
    return st


FLAT_HAND = ("Q♠ K♠ K♠ 10♠ 10♠ Q♥ K♥ 10♥ A♥ A♥ "
             "J♦ K♦ 10♦ 10♦ Q♣ Q♣ Q♣ K♣ K♣ K♣")
"""Kings and queens spread over four suits, two aces: marriages but no long trump suit."""

RUN_HAND = ("J♠ K♠ K♠ 10♠ A♠ Q♥ K♥ J♦ J♦ A♦ "
            "A♦ J♣ J♣ Q♣ K♣ 10♣ 10♣ A♣ A♣ A♣")
"""Nine clubs with three aces and two tens of them: the cards partner passes (its trumps,
highest first) often complete a double run."""


def test_expert_passes_a_flat_hand_the_normal_estimate_overrates() -> None:
    """The normal figure (meld, a guess of partner's, counters from length and aces)
    plus 12 reaches 61 with FLAT_HAND, but in the expert's simulated deals declaring 61
    loses: it passes over East's 60."""
    st = _after_east_opened(FLAT_HAND, 60)
    normal = HeuristicPlayer("normal")
    assert normal.limit(st.observation(0)) + 12 >= 61  # type: ignore[attr-defined]
    value = EXPERT.outcomes(st.observation(0), 0).best(61)[1]  # type: ignore[attr-defined]
    assert value < EXPERT.bid_floor
    assert _choose(EXPERT, st) == PASS


def test_expert_bids_on_a_hand_that_grows_with_partners_pass() -> None:
    """RUN_HAND: the normal figure stays below 80, yet over East's 100 the expert bids
    105 — in its simulated deals partner's trumps make a double run often enough; it
    names clubs when it gets the contract."""
    st = _after_east_opened(RUN_HAND, 100)
    normal = HeuristicPlayer("normal")
    assert normal.limit(st.observation(0)) < 100  # type: ignore[attr-defined]
    assert _choose(normal, st) == PASS
    action = _choose(EXPERT, st)
    assert action == (K_BID, 105), action
    st.apply(action)  # type: ignore[attr-defined]
    while st.phase == 0:  # type: ignore[attr-defined]
        st.apply(PASS)  # type: ignore[attr-defined]
    assert _choose(EXPERT, st) == (1, CLUBS)


ACELESS_HAND = ("J♠ Q♠ K♠ K♠ 10♠ J♥ Q♥ K♥ K♥ 10♥ "
                "J♦ Q♦ K♦ 10♦ 10♦ J♣ J♣ Q♣ K♣ 10♣")
"""Kings around and marriages (over 20 meld) but no ace and no long suit."""


def test_partner_without_aces_lets_partner_play_after_the_opponents_passed() -> None:
    """As above, South opened 51 and North bid 60 to play, both opponents out; but South
    holds ACELESS_HAND. Its meld counts for the side whoever declares, and in its
    simulated deals South declaring 61 loses while North playing 60 gains: it passes
    (the former rule, the normal figure + 12 reaching 61, bid on)."""
    st = new_dd(Options(), dealer=3)
    set_hands(st, {0: ACELESS_HAND})
    st.apply(st.parse_action("bid 51"))
    st.apply(PASS)
    st.apply(st.parse_action("bid 60"))
    st.apply(PASS)
    obs = st.observation(0)
    from cardplaza.games.pinochle_dd.players import meld_signals

    assert HeuristicPlayer("normal").limit(obs, meld_signals(obs).get(2)) + 12 >= 61
    assert EXPERT.outcomes(obs, 0).best(61)[1] < EXPERT.outcomes(obs, 2).best(60)[1]
    assert _choose(EXPERT, st) == PASS


class _Fixed:
    """Simulated deals replaced by a fixed mean margin."""

    def __init__(self, value: float) -> None:
        self.v = value

    def best(self, amount: int) -> tuple[int, float]:
        return SPADES, self.v


@pytest.mark.parametrize(("mine", "theirs", "bids"), [
    (40.0, 30.0, True),     # declaring itself is better
    (20.0, 30.0, True),     # worse by less than the margin: the deals cannot tell
    (15.0, 30.0, True),     # exactly the margin
    (14.0, 30.0, False),    # partner clearly plays it better
    (-39.0, 2.0, False),
])
def test_partner_passes_after_the_opponents_passed_only_when_clearly_worse(
        monkeypatch: pytest.MonkeyPatch, mine: float, theirs: float, bids: bool) -> None:
    """The partner with 20+ meld lets partner play only when partner's contract is worth
    more than its own by over ``EXPERT_PARTNER_MARGIN``: a big hand rarely passes there."""
    from cardplaza.games.pinochle_dd.players import EXPERT_PARTNER_MARGIN

    assert EXPERT_PARTNER_MARGIN == 15
    player = ExpertPlayer(worlds=8, seconds=1.0, bid_deals=8)
    monkeypatch.setattr(player, "outcomes",
                        lambda obs, declarer: _Fixed(mine if declarer == 0 else theirs))
    action = _choose(player, _after_opponents_passed())
    assert (action[0] in (K_BID, 4, 6) and action[1] > 60) == bids, action
    assert bids or action == PASS
