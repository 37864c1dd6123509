"""Options, dealing, observations (section 9), invariants and the determinizer."""

from __future__ import annotations

import json
import random

import pytest
from p2_helpers import act, deal, position, trick

from cardplaza.core.cards import PINOCHLE
from cardplaza.core.options import options_from_dict
from cardplaza.core.registry import get_game
from cardplaza.games.pinochle2 import SPEC
from cardplaza.games.pinochle2.engine import (
    NO_MELD,
    STEP_MELD,
    STEP_PLAY,
    TERMINAL,
    Options,
    Pinochle2State,
)
from cardplaza.games.pinochle2.world import check_invariants, permute_unseen, sample_world


def c(text: str) -> int:
    face, _, copy = text.partition("#")
    return PINOCHLE.parse_face(face) + 24 * (int(copy) - 1 if copy else 0)


def playout(st: Pinochle2State, rng: random.Random, check: bool = False) -> None:
    while not st.is_terminal:
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
        if check:
            check_invariants(st)


def test_registration() -> None:
    spec = get_game("pinochle2")
    assert spec is SPEC and spec.title == "Two-hand Pinochle" and spec.title_ja == "2人ピノクル"
    presets = spec.all_presets()
    assert presets["double_melds"].double_melds and not presets["no_new_card_rule"].new_card_rule
    assert presets["human_deals"].dealer == 0


def test_options_defaults_and_validation() -> None:
    o = Options()
    assert (o.double_melds, o.new_card_rule, o.level, o.dealer) == (False, True, "streak", 1)
    with pytest.raises(ValueError, match="dealer"):
        Options(dealer=2)
    with pytest.raises(ValueError, match="level"):
        Options(level="5")  # type: ignore[arg-type]
    parsed = options_from_dict(Options, {"double_melds": "on", "level": "3", "dealer": "0"})
    assert parsed == Options(double_melds=True, level="3", dealer=0)


def test_level_option_is_exposed_and_ignored_by_the_engine() -> None:
    """TO3 only travels with the game: same deal, same play, level visible."""
    a = Pinochle2State(Options(level="2"), 7)
    b = Pinochle2State(Options(), 7)
    assert a.observation(0)["level"] == "2" and b.observation(0)["level"] == "streak"
    playout(a, random.Random(1))
    playout(b, random.Random(1))
    assert a.returns() == b.returns()


@pytest.mark.parametrize("dealer", [0, 1])
def test_dealer_option_sets_first_leader(dealer: int) -> None:
    """2.3/5.1: the non-dealer leads trick 1; a turned-up 9 scores for the dealer."""
    for seed in range(60):
        st = Pinochle2State(Options(dealer=dealer), seed)
        assert st.current_player == 1 - dealer
        if st.stock[0] % 6 == 0:
            assert st.meld_points[dealer] == 10 and st.meld_points[1 - dealer] == 0
        else:
            assert st.meld_points == [0, 0]


def test_random_deals_keep_invariants_and_total_250() -> None:
    """8.3 and card conservation over random deals of every preset."""
    rng = random.Random(3)
    for name, opts in SPEC.all_presets().items():
        for seed in range(15):
            st = Pinochle2State(opts, seed)
            playout(st, rng, check=True)
            assert st.current_player == TERMINAL and len(st.tricks) == 24, name
            assert sum(st.counters) + 10 == 250
            totals = st.totals()
            assert totals == tuple(st.counters[s] + st.meld_points[s]
                                   + (10 if st.last_trick == s else 0) for s in (0, 1))


def test_same_seed_same_deal() -> None:
    assert Pinochle2State(Options(), 5).hands == Pinochle2State(Options(), 5).hands
    assert Pinochle2State(Options(), 5).hands != Pinochle2State(Options(), 6).hands


def test_melded_cards_can_be_played_and_stay_visible() -> None:
    """T-5/T-16: meld-area cards may be played; until then the opponent sees them, also
    in the playoff."""
    st = deal("A♥ A♥ A♦ A♦ K♣ Q♣ 9♥ 9♦ J♥ J♦ 10♥ 10♦",
              "9♣ 9♣ J♣ 10♣ 10♣ A♣ 9♥ 9♦ J♥ J♦ 10♥ 10♦", "J♠")
    trick(st, "A♥", "9♣")
    act(st, "meld marriage K♣ Q♣")
    assert st.observation(1)["meld_areas"][0] == [c("K♣"), c("Q♣")]
    assert st.observation(1)["meld_area_history"][0] == [[c("K♣"), ["sequence"]],
                                                         [c("Q♣"), ["sequence"]]]
    assert st.illegal_reason(c("K♣")) is None
    act(st, "K♣")
    assert st.melded[0] == 1 << c("Q♣")
    assert st.observation(1)["meld_areas"][0] == [c("Q♣")]
    assert st.observation(1)["used"]["sequence"] == [c("Q♣"), c("K♣")]
    rng = random.Random(0)
    while not st.playoff:
        legal = [a for a in st.legal_actions() if a != c("Q♣") and not isinstance(a, tuple)]
        st.apply(legal[rng.randrange(len(legal))] if legal else st.legal_actions()[0])
    if (st.hands[0] >> c("Q♣")) & 1:
        assert st.observation(1)["meld_areas"][0] == [c("Q♣")]


def test_dix_exchange_after_trick_twelve() -> None:
    """T-15: the dix exchange after trick 12, before the draws; the loser then takes the 9."""
    st = position(1, "9♥ A♠", turn_up="K♥")
    king, down = st.stock[0], st.stock[2]
    st.stock = [king, down]
    st.hands[1] = 1 << c("A♣")
    st.apply(st.parse_action("meld dix 9♥"))
    assert st.playoff
    assert (st.hands[0] >> king) & 1 and (st.hands[0] >> down) & 1
    assert (st.hands[1] >> c("9♥")) & 1
    assert c("9♥") in st.observation(0)["known_held"][1]
    assert king in st.observation(1)["known_held"][0]


def test_observation_hides_opponent_and_stock() -> None:
    """Section 9: never the opponent's concealed cards nor the stock order; running trick
    points only at the end (T-21)."""
    st = Pinochle2State(Options(), 11)
    rng = random.Random(2)
    for _ in range(30):
        st.apply(st.legal_actions()[rng.randrange(len(st.legal_actions()))])
    for seat in (0, 1):
        obs = st.observation(seat)
        text = json.dumps(obs)
        assert "counters" not in text and obs["result"] is None
        hidden = st.hands[1 - seat] & ~st.melded[1 - seat] & ~st.known[1 - seat]
        shown = set(obs["hand"]) | set(obs["meld_areas"][1 - seat]) \
            | set(obs["known_held"][1 - seat])
        assert not any((hidden >> x) & 1 for x in shown)
        assert set(obs["unseen"]) == {x for x in range(48) if (hidden >> x) & 1} \
            | set(st.stock[1:])
        assert obs["stock_count"] == len(st.stock)
    playout(st, rng)
    res = st.observation(0)["result"]
    assert res is not None and sum(res["counters"]) + 10 == 250


def test_observation_is_a_fresh_copy_each_time() -> None:
    """Views share kept parts (sorted cards, group histories, trick views): changing every
    list and dict of one view in place leaves the next views as they were."""

    def scribble(x: object) -> None:
        if isinstance(x, dict):
            for v in x.values():
                scribble(v)
            x["scribbled"] = True
        elif isinstance(x, list):
            for v in x:
                scribble(v)
            x.append("scribbled")

    rng = random.Random(4)
    for seed in range(6):
        st = Pinochle2State(Options(double_melds=seed % 2 == 1), seed)
        while True:
            views = [json.dumps(st.observation(seat)) for seat in (0, 1)]
            for seat in (0, 1):
                scribble(st.observation(seat))
            assert [json.dumps(st.observation(seat)) for seat in (0, 1)] == views
            assert "scribbled" not in views[0] + views[1]
            if st.is_terminal:
                break
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])


def test_permute_unseen_keeps_the_seat_view() -> None:
    for seed in range(20):
        st = Pinochle2State(Options(double_melds=seed % 2 == 1), seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 60)):
            if st.is_terminal:
                break
            st.apply(st.legal_actions()[rng.randrange(len(st.legal_actions()))])
        for seat in (0, 1):
            other = permute_unseen(st, seat, random.Random(seed + 1))
            assert other.observation(seat) == st.observation(seat)
            check_invariants(other)


def test_sample_world_matches_and_plays_on() -> None:
    """The determinizer: same observation, same legal actions, and a playable deal."""
    for seed in range(25):
        st = Pinochle2State(Options(new_card_rule=seed % 3 != 0), seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 70)):
            if st.is_terminal:
                break
            st.apply(st.legal_actions()[rng.randrange(len(st.legal_actions()))])
        seat = st.current_player if not st.is_terminal else 0
        obs = st.observation(seat)
        world = sample_world(obs, random.Random(seed))
        assert world.observation(seat) == obs
        check_invariants(world)
        assert isinstance(world, Pinochle2State)
        if not st.is_terminal:
            assert world.legal_actions() == st.legal_actions()
            playout(world, rng, check=True)


def test_clone_is_independent() -> None:
    st = Pinochle2State(Options(), 4)
    twin = st.clone()
    twin.apply(twin.legal_actions()[0])
    assert st.observation(0) != twin.observation(0) or st.history != twin.history
    assert st.history == [] and st.current_player == 0


def test_meld_step_after_every_stock_trick() -> None:
    """The winner of every stock-phase trick gets the meld step, with "no meld" offered
    also when no meld is possible; the draws follow the choice."""
    st = deal("A♥ A♥ A♦ A♦ J♣ Q♣ 9♥ 9♦ J♥ J♦ 10♥ 10♦",
              "9♣ 9♣ J♣ 10♣ 10♣ A♣ 9♥ 9♦ J♥ J♦ 10♥ 10♦", "J♠", draws="9♠ 9♠")
    trick(st, "A♥", "9♣")
    assert st.step == STEP_MELD and st.current_player == 0
    assert st.legal_actions() == [NO_MELD] and st.hands[0].bit_count() == 11
    act(st, "no meld")
    assert st.step == STEP_PLAY and st.hands[0].bit_count() == 12
    st2 = deal("A♥ A♥ A♦ A♦ K♣ Q♣ 9♥ 9♦ J♥ J♦ 10♥ 10♦",
               "9♣ 9♣ J♣ 10♣ 10♣ A♣ 9♥ 9♦ J♥ J♦ 10♥ 10♦", "J♠")
    trick(st2, "A♥", "9♣")
    assert st2.step == STEP_MELD and st2.legal_actions()[-1] == NO_MELD
    assert len(st2.legal_actions()) > 1


def test_meld_step_does_not_reveal_a_meld() -> None:
    """Whether the trick winner holds a meld changes nothing the loser sees: the same step,
    the same seat to act, the same observation."""
    # Seat 1 holds the same physical cards in both deals; seat 0 holds K♣ Q♣ (a marriage)
    # or J♣ Q♣, the other card lying in the face-down stock below the same top cards.
    with_meld = deal("A♥ A♥ A♦ A♦ K♣ Q♣ 9♥ 9♦ J♥ J♦ 10♥ 10♦",
                     "9♣ 9♣ J♣ 10♣ 10♣ A♣ 9♥ 9♦ J♥ J♦ 10♥ 10♦", "J♠", draws="9♠ 9♠")
    without = deal("A♥ A♥ A♦ A♦ J♣#2 Q♣ 9♥ 9♦ J♥ J♦ 10♥ 10♦",
                   "9♣ 9♣ J♣ 10♣ 10♣ A♣ 9♥ 9♦ J♥ J♦ 10♥ 10♦", "J♠", draws="9♠ 9♠")
    assert with_meld.hands[1] == without.hands[1]
    for st in (with_meld, without):
        trick(st, "A♥", "9♣")
    assert with_meld.step == without.step == STEP_MELD
    assert with_meld.current_player == without.current_player == 0
    assert with_meld.observation(1) == without.observation(1)
    assert len(with_meld.legal_actions()) > 1 and without.legal_actions() == [NO_MELD]


def test_clone_rng_is_independent() -> None:
    """clone() copies the RNG state (lazily): both continue identically and independently."""
    st = Pinochle2State(Options(), 9)
    twin = st.clone()
    first = st.rng.random()
    assert twin.rng.random() == first
    st.rng.random()
    third = twin.clone()
    assert twin.rng.random() == third.rng.random()
    assert st.rng.getstate() != Pinochle2State(Options(), 9).rng.getstate()


def test_meld_candidates_are_the_instances_the_hand_holds() -> None:
    """The look-up tables give exactly the meld instances whose faces a hand holds as many
    copies as each needs (the double melds only with their option)."""
    from cardplaza.games.pinochle2.engine import _BY_FACE, _meld_candidates

    rng = random.Random(7)
    for _ in range(400):
        hand = sum(1 << x for x in rng.sample(range(48), rng.randint(8, 30)))
        for trump in range(4):
            for dbl in (False, True):
                want = 0
                for k, (_t, _g, faces, need, _fmask) in enumerate(_BY_FACE[trump][dbl]):
                    if all((hand >> f & 1) + (hand >> (f + 24) & 1) >= need for f in faces):
                        want |= 1 << k
                assert _meld_candidates(hand, trump, dbl) == want
