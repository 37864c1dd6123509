"""Auction, passing, unplayed hands, play rules, scoring flow and what each seat sees."""

from __future__ import annotations

import json
import random

import pytest
from dd_helpers import faces, hand, new_dd, random_hand_play, set_hands, win_auction

from cardplaza.core.history import GameRecord
from cardplaza.core.protocol import IllegalAction
from cardplaza.core.registry import get_game
from cardplaza.games.pinochle_dd.engine import (
    K_BID,
    K_GIVE,
    K_JUMP,
    K_MELD_BID,
    K_PLAY,
    K_THROW_IN,
    K_TRUMP,
    MAX_SIDE_MELD,
    PASS,
    PASSING,
    PLAY,
    THROW_IN,
    TRUMP,
    DoubleDeckState,
    Options,
    bid_allowed,
    hand_scores,
    next_allowed,
)
from cardplaza.games.pinochle_dd.rules import (
    FACES,
    LOW20,
    counts,
    from_counts,
    legal_faces,
)
from cardplaza.games.pinochle_dd.world import check_invariants, permute_unseen, sample_world

# -- options and auction ------------------------------------------------------------------


def test_defaults_are_the_rules_table() -> None:
    o = Options()
    assert (o.target, o.bid_steps, o.all_pass, o.marriage_required, o.pass_count,
            o.must_head, o.first_lead_trump, o.counters, o.save_meld, o.set_scoring,
            o.min_meld_20, o.throw_in_award, o.scale) == (
        500, "1-then-5", "stuck", False, 4, True, False, "aces-tens-kings", "20-counters",
        "minus", False, "meld", "unit")
    spec = get_game("pinochle_dd")
    assert spec.title == "Double-deck Pinochle"
    assert {"x10", "no_passing"} <= set(spec.presets)
    assert spec.presets["x10"].scale == "x10" and spec.presets["no_passing"].pass_count == 0
    for bad in ({"target": 260}, {"target": 1550}, {"pass_count": 1}, {"scale": "x100"}):
        with pytest.raises(ValueError):
            spec.options(bad)


@pytest.mark.parametrize(("steps", "allowed", "refused"), [
    ("1-then-5", [50, 51, 59, 60, 65, 70, 100, 105], [49, 61, 64, 66, 101]),
    ("1", [50, 51, 61, 77, 101], [49]),
    ("5", [50, 55, 60, 65], [51, 52, 61, 49]),
    ("10-from-100", [50, 51, 99, 100, 110, 120], [49, 101, 105, 115]),
])
def test_bid_steps(steps: str, allowed: list[int], refused: list[int]) -> None:
    for a in allowed:
        assert bid_allowed(a, steps), a
    for a in refused:
        assert not bid_allowed(a, steps), a
    assert next_allowed(0, steps) == 50
    st = new_dd(Options(bid_steps=steps))  # type: ignore[arg-type]
    for a in refused:
        assert st.illegal_reason((K_JUMP, a)) is not None
    assert next_allowed(60, "1-then-5") == 65 and next_allowed(100, "10-from-100") == 110


def test_jump_and_meld_bids_are_legal_and_the_lowest_bid_is_listed() -> None:
    st = new_dd(dealer=3)
    # The lowest bid and the meld bids (raises by 1 to 5 below 60) are listed.
    assert st.legal_actions() == [PASS, (K_BID, 50),
                                  *[(K_MELD_BID, a) for a in range(51, 56)]]
    st.apply((K_BID, 50))                 # seat 0 opens 50
    st.apply((K_MELD_BID, 52))            # seat 1 raises by 2: "about 20 meld"
    assert st.illegal_reason((K_MELD_BID, 52)) is not None  # not above the high bid
    assert st.illegal_reason((K_BID, 54)) is not None   # a raise needs its own kind
    assert st.illegal_reason((K_JUMP, 54)) is not None  # a raise by 2 is a meld bid
    assert st.illegal_reason((K_MELD_BID, 58)) is not None  # a raise by 6 is a jump
    st.apply((K_JUMP, 70))                # seat 2 jumps to 70
    assert st.observation(3)["next_bid"] == 75
    assert st.legal_actions() == [PASS, (K_BID, 75)]
    assert st.illegal_reason((K_JUMP, 90)) is None  # a jump above 60 is legal, not listed
    top = st.max_bid
    assert top == 620 and MAX_SIDE_MELD + 50 == 622  # the highest allowed amount
    assert st.illegal_reason((K_JUMP, 625)) is not None
    assert st.illegal_reason((K_JUMP, 620)) is None


def test_auction_ends_after_three_passes() -> None:
    st = new_dd(dealer=3)
    st.apply((K_BID, 50))
    st.apply(PASS)
    st.apply((K_BID, 51))
    st.apply(PASS)
    assert st.turn == 0  # seat 1 has passed for good
    st.apply(PASS)
    assert st.phase == TRUMP and st.bidder == 2 and st.contract == 51


def test_all_pass_stuck_dealer_plays_50() -> None:
    st = new_dd(dealer=3)
    for _ in range(3):
        st.apply(PASS)
    assert st.turn == 3 and st.phase == 0  # the dealer still speaks
    st.apply(PASS)
    assert st.phase == TRUMP and st.bidder == 3 and st.contract == 50 and st.stuck


def test_all_pass_redeal_deals_a_new_hand_without_score() -> None:
    st = new_dd(Options(all_pass="redeal"), dealer=3)
    old = st.hands[:]
    for _ in range(4):
        st.apply(PASS)
    assert st.hand_no == 2 and st.scores == [0, 0] and st.log[-1]["redeal"]
    assert st.dealer == 0 and st.phase == 0 and st.hands != old
    check_invariants(st)


def test_x10_scale_shows_and_takes_tens() -> None:
    st = new_dd(Options(scale="x10"), dealer=3)
    assert st.legal_actions()[:3] == [PASS, (K_BID, 500), (K_MELD_BID, 510)]
    assert st.parse_action("bid 520") == (K_MELD_BID, 520)
    assert st.illegal_reason((K_MELD_BID, 515)) is not None  # not a multiple of 10
    st.apply((K_MELD_BID, 520))
    obs = st.observation(0)
    assert obs["high_bid"] == 520 and obs["min_bid"] == 500 and obs["target"] == 5000
    assert obs["counters_total"] == 500 and st.high_bid == 52


# -- passing ------------------------------------------------------------------------------


def test_passing_four_each_way_seen_only_by_the_two() -> None:
    st = new_dd(dealer=3)
    win_auction(st, 0)
    st.apply((K_TRUMP, 1))
    assert st.phase == PASSING and st.turn == 2  # partner passes first
    partner_before = counts(st.hands[2])
    given = []
    for i in range(4):
        a = st.legal_actions()[0]
        given.append(a[1])  # type: ignore[index]
        st.apply(a)
        if i < 3:
            assert st.observation(2)["passing"]["selected"] == sorted(
                given, key=lambda f: (f // 5, -(f % 5)))
            assert st.observation(2)["passing"]["pending_count"] == i + 1
        assert st.observation(0)["passing"]["selected"] == []
    assert st.turn == 0 and st.hands[0].bit_count() == 24
    back = [st.legal_actions()[-1][1] for _ in range(1)]  # type: ignore[index]
    for _ in range(4):
        st.apply(st.legal_actions()[-1])
    assert st.phase == PLAY
    assert all(h.bit_count() == 20 for h in st.hands)
    for seat in (1, 3):
        p = st.observation(seat)["passing"]
        assert p["gave"] == [] and p["received"] == [] and p["done"] == [True, False, True, False]
    mine = st.observation(2)["passing"]
    assert sorted(mine["gave"]) == sorted(given)
    assert len(mine["received"]) == 4 and back[0] in mine["received"]
    assert st.observation(0)["passing"]["received"] == mine["gave"]
    after = counts(st.hands[2])
    for f in range(FACES):
        assert after[f] == partner_before[f] - given.count(f) + mine["received"].count(f)


def test_no_passing_goes_straight_to_meld() -> None:
    st = new_dd(Options(pass_count=0), dealer=3)
    win_auction(st, 1)
    st.apply((K_TRUMP, 2))
    assert st.phase == PLAY and st.melds is not None and st.turn == 1


# -- unplayed hands ----------------------------------------------------------------------

NO_TRUMP_MARRIAGE = "A♠ A♠ A♥ A♥ A♦ A♦ A♣ A♣ 10♠ 10♠ 10♥ 10♥ J♠ J♠ J♥ J♥ K♠ K♠ K♥ Q♣"


def test_marriage_required_sets_a_declarer_without_k_and_q_of_trump() -> None:
    st = new_dd(Options(marriage_required=True, pass_count=0), seed=2, dealer=3)
    set_hands(st, {0: NO_TRUMP_MARRIAGE})
    win_auction(st, 0, 55)
    st.apply((K_TRUMP, 0))  # ♠: K♠ but no Q♠
    entry = st.observation(0)["history"][-1]
    assert entry["how"] == "no_marriage" and entry["counters"] is None
    assert entry["score_change"][0] == -55
    assert entry["no_trump_meld"]
    # Nobody's run counts, every marriage is plain: the melds are those without trump.
    from cardplaza.games.pinochle_dd.meld import meld_total
    dmeld = entry["side_melds"][1]
    assert entry["score_change"][1] == (dmeld if dmeld >= 20 else 0)
    assert entry["melds"][0]["value"] == meld_total(hand(NO_TRUMP_MARRIAGE), -1)


def test_marriage_required_is_checked_after_passing() -> None:
    st = new_dd(Options(marriage_required=True), seed=2, dealer=3)
    set_hands(st, {0: NO_TRUMP_MARRIAGE,
                   2: "Q♠ Q♠ Q♠ Q♠ J♣ J♣ J♣ J♣ J♦ J♦ J♦ J♦ Q♦ Q♦ Q♦ Q♦ K♦ K♦ K♦ K♦"})
    win_auction(st, 0)
    st.apply((K_TRUMP, 0))
    st.apply((K_GIVE, faces("Q♠")[0]))  # partner passes a Q♠: now a marriage
    for _ in range(3):
        st.apply((K_GIVE, faces("J♣")[0]))
    for f in faces("J♠ J♠ J♥ J♥"):
        st.apply((K_GIVE, f))
    assert st.phase == PLAY
    assert st.melds is not None and any(m.key == "royal_marriage" for m in st.melds[0].melds)


def test_min_meld_20_sets_at_once() -> None:
    st = new_dd(Options(min_meld_20=True, pass_count=0), seed=4, dealer=3)
    set_hands(st, {0: "J♠ J♠ J♠ J♠ J♥ J♥ J♥ J♥ 10♣ 10♣ 10♣ 10♣ 10♦ 10♦ 10♦ 10♦ K♠ K♠ K♠ K♠",
                   2: "J♣ J♣ J♣ J♣ Q♥ Q♥ Q♥ Q♥ 10♠ 10♠ 10♠ 10♠ K♣ K♣ K♣ K♣ K♦ K♦ K♦ K♦"})
    win_auction(st, 2)
    st.apply((K_TRUMP, 1))
    entry = st.log[-1]
    assert entry["side_melds"][0] < 20
    assert entry["how"] == "min_meld" and entry["score_change"][0] == -50


@pytest.mark.parametrize("award", ["meld", "meld-and-counters"])
def test_throw_in_before_the_first_lead(award: str) -> None:
    st = new_dd(Options(throw_in_award=award, pass_count=0), seed=6,  # type: ignore[arg-type]
                dealer=3)
    win_auction(st, 0, 60)
    st.apply((K_TRUMP, 3))
    assert st.legal_actions()[-1] == THROW_IN
    defenders = st.side_meld(1)
    st.apply(st.parse_action("throw in"))
    entry = st.log[-1]
    assert entry["how"] == "throw_in" and entry["score_change"][0] == -60
    want = (defenders if defenders >= 20 else 0) + (50 if award != "meld" else 0)
    assert entry["score_change"][1] == want


def test_throw_in_only_before_the_first_lead() -> None:
    st = new_dd(Options(pass_count=0), seed=6, dealer=3)
    win_auction(st, 0)
    st.apply((K_TRUMP, 3))
    st.apply(st.legal_actions()[0])
    assert THROW_IN not in st.legal_actions()
    with pytest.raises(IllegalAction, match="before the first lead"):
        st.apply((K_THROW_IN, 0))


def test_progressive_set_scoring() -> None:
    opts = Options(set_scoring="progressive")
    delta, made = hand_scores(62, 0, [34, 22], [26, 24], [11, 9], opts)
    assert not made and delta == [0, 22 + 24 + 62]
    delta, _ = hand_scores(70, 1, [10, 30], None, None, opts, conceded=True)
    assert delta == [70, 0]  # defenders: meld 10 under 20 counts nothing, plus 70


def test_save_meld_options() -> None:
    one = Options(save_meld="one-trick")
    assert hand_scores(50, 0, [40, 12], [50, 0], [20, 0], one)[0] == [90, 0]
    assert hand_scores(50, 0, [40, 12], [48, 2], [19, 1], one)[0] == [88, 14]
    always = Options(save_meld="always")
    assert hand_scores(50, 0, [40, 12], [50, 0], [20, 0], always)[0] == [90, 12]
    default = Options()
    assert hand_scores(50, 0, [15, 30], [31, 19], [12, 8], default)[0] == [-50, 19]


# -- play ----------------------------------------------------------------------------------

TRUMP_H = 1


def _faces_mask(text: str) -> int:
    return hand(text) & LOW20


@pytest.mark.parametrize(("trick", "held", "must_head", "legal"), [
    ("K♠", "A♠ J♠ 10♣", True, "A♠"),
    ("K♠", "A♠ J♠ 10♣", False, "A♠ J♠"),
    ("K♠ A♠", "A♠ 10♠ J♥", True, "A♠ 10♠"),          # an identical A♠ never beats
    ("K♠ J♥", "A♠ 10♠", True, "A♠ 10♠"),             # trumped: any spade
    ("K♠ Q♥", "A♥ J♥ A♣", True, "A♥"),               # void: over-trump
    ("K♠ A♥", "A♥ Q♥ A♣", True, "A♥ Q♥"),            # cannot beat: any trump
    ("K♠ J♥", "A♥ Q♥ A♣", False, "A♥ Q♥"),
    ("K♠", "A♣ Q♦", True, "A♣ Q♦"),
])
def test_legal_cards(trick: str, held: str, must_head: bool, legal: str) -> None:
    got = legal_faces(hand(held), faces(trick), TRUMP_H, must_head)
    assert got == _faces_mask(legal)


def test_first_lead_trump_option() -> None:
    st = new_dd(Options(first_lead_trump=True, pass_count=0), seed=9, dealer=3)
    win_auction(st, 0, 51)
    trump = max(range(4), key=lambda s: (st.hands[0] >> 5 * s) & 31)
    st.apply((K_TRUMP, trump))
    cards = [a[1] for a in st.legal_actions() if a[0] == K_PLAY]  # type: ignore[index]
    assert cards and all(f // 5 == trump for f in cards)
    assert THROW_IN in st.legal_actions()
    off = next(f for f in range(FACES) if st.hands[0] >> f & 1 and f // 5 != trump)
    assert "first lead must be a trump" in (st.illegal_reason((K_PLAY, off)) or "")
    st2 = new_dd(Options(first_lead_trump=True, pass_count=0), seed=9, dealer=3)
    win_auction(st2, 0, 50)  # a contract of 50: any lead
    st2.apply((K_TRUMP, trump))
    assert len(st2.legal_actions()) - 1 == (st2.hands[0] & LOW20).bit_count()


def test_a_played_hand_is_scored_as_the_rules_say() -> None:
    for seed in range(12):
        st = new_dd(Options(), seed=seed)
        random_hand_play(st, random.Random(seed))
        e = st.log[-1]
        if e["redeal"]:
            continue
        delta, made = hand_scores(e["contract"], e["bidder"] % 2, e["side_melds"],
                                  e["counters"], e["tricks"], Options())
        assert e["score_change"] == delta and e["made"] == made
        assert sum(e["tricks"]) == 20


# -- counters invariant -----------------------------------------------------------------


@pytest.mark.parametrize("options", [Options(), Options(counters="aces-tens"),
                                     Options(scale="x10", pass_count=0),
                                     Options(counters="aces-tens", must_head=False)])
def test_counters_always_add_to_the_total(options: Options) -> None:
    """Over 400 random hands per table, the two sides' counters add to 50 (34 under
    aces-tens; ×10 under x10), and every card is in exactly one place at every step."""
    total = (50 if options.counters == "aces-tens-kings" else 34) * (
        10 if options.scale == "x10" else 1)
    rng = random.Random(hash(repr(options)) & 0xFFFF)
    hands = 0
    st = DoubleDeckState(options, 1)
    while hands < 400:
        if st.is_terminal:
            st = DoubleDeckState(options, rng.randrange(1 << 30))
        before = len(st.log)
        random_hand_play(st, rng)
        for e in st.log[before:]:
            if e.get("counters") is not None:
                assert sum(e["counters"]) == total
                hands += 1
        check_invariants(st)
    assert hands >= 400


# -- what each seat sees ----------------------------------------------------------------


def test_observation_shows_only_the_own_hand() -> None:
    st = new_dd(dealer=3)
    for seat in range(4):
        obs = st.observation(seat)
        assert json.loads(json.dumps(obs)) == obs and "seed" not in obs
        assert from_counts([obs["hand"].count(f) for f in range(FACES)]) == st.hands[seat]
        assert obs["hand_sizes"] == [20, 20, 20, 20]


def test_an_observation_reads_each_logged_hand_once() -> None:
    """Late in a game the history is many hands long: an observation reads each logged
    hand once (it never walks the whole log per hand), and shows the same as a copy of the
    state that has worked every hand out before."""
    from cardplaza.games.pinochle_dd import meld

    class Counted(list):  # type: ignore[type-arg]
        walks = 0

        def __iter__(self):  # type: ignore[no-untyped-def]
            Counted.walks += 1
            return super().__iter__()

    st = DoubleDeckState(Options(), 3)
    rng = random.Random(3)
    for _ in range(6):
        random_hand_play(st, rng)
    assert not st.is_terminal and len(st._log) >= 6
    worked = st.clone()
    assert len(worked.log) == len(st._log)  # every entry worked out through ``log``
    st._log = Counted(st._log)
    seen = [st.observation(seat) for seat in range(4)]
    assert Counted.walks == 0, Counted.walks
    assert seen == [worked.observation(seat) for seat in range(4)]
    assert len(seen[0]["history"]) == len(st._log)
    # the melds' names are kept by key and suit, and are what the key and suit give
    shown = [m for entry in st._log for melds in entry["melds"] for m in melds["melds"]]
    assert shown and all(m["name"] == meld._NAMES[m["key"], m["suit"]] for m in shown)
    assert all(meld.Meld(k, "A", 1, (), suit).name == meld.Meld(k, "A", 1, (), suit)._name()
               for k, suit in meld._NAMES)


def _positions(options: Options, seed: int, count: int) -> list[DoubleDeckState]:
    st = DoubleDeckState(options, seed)
    rng = random.Random(seed)
    out: list[DoubleDeckState] = []
    while not st.is_terminal and len(out) < count:
        legal = [a for a in st.legal_actions() if a != THROW_IN]
        st.apply(legal[rng.randrange(len(legal))])
        if rng.random() < 0.08:
            out.append(st.clone())
    return out


@pytest.mark.parametrize("options", [Options(), Options(pass_count=3, scale="x10")])
def test_swapping_hidden_cards_never_changes_a_seats_view(options: Options) -> None:
    """Exchange cards between two other hands (or another hand and a choice being
    passed that the seat does not see): the seat's observation stays the same, while the
    seats whose cards moved see the change."""
    changed = 0
    for st in _positions(options, 5, 60):
        rng = random.Random(len(st.history))
        for seat in range(4):
            others = [p for p in range(4) if p != seat]
            p, q = rng.sample(others, 2)
            fp = [f for f in range(FACES) if st.hands[p] >> f & 1]
            fq = [f for f in range(FACES) if st.hands[q] >> f & 1 and f not in fp]
            if not fp or not fq:
                continue
            a, b = rng.choice(fp), rng.choice(fq)
            swapped = st.clone()
            from cardplaza.games.pinochle_dd.rules import add, remove
            swapped.hands[p] = add(remove(swapped.hands[p], a), b)
            swapped.hands[q] = add(remove(swapped.hands[q], b), a)
            swapped._legal = None
            assert swapped.observation(seat) == st.observation(seat)
            assert swapped.observation(p) != st.observation(p)
            changed += 1
            giver = st.giver if st.phase == PASSING else -1
            if giver not in (-1, seat) and st.pending and fp:
                pend = [f for f in range(FACES) if st.pending >> f & 1]
                x, y = pend[0], fp[0]
                if x != y and giver != p:
                    moved = st.clone()
                    moved.pending = add(remove(moved.pending, x), y)
                    moved.hands[p] = add(remove(moved.hands[p], y), x)
                    assert moved.observation(seat) == st.observation(seat)
    assert changed > 100


def test_permute_and_sample_world_keep_the_observation() -> None:
    for options in (Options(), Options(pass_count=2, must_head=False)):
        for st in _positions(options, 8, 40):
            for seat in range(4):
                obs = st.observation(seat)
                p = permute_unseen(st, seat, random.Random(seat))
                assert p.observation(seat) == obs
                check_invariants(p)
                w = sample_world(obs, random.Random(seat + 10))
                assert w.observation(seat) == obs
                check_invariants(w)
                if st.current_player == seat:
                    assert w.legal_actions() == st.legal_actions()


def test_sampled_worlds_respect_voids_and_shown_meld() -> None:
    st = new_dd(Options(pass_count=0), seed=8, dealer=3)
    win_auction(st, 0)
    st.apply((K_TRUMP, 0))
    rng = random.Random(1)
    voids: dict[int, set[int]] = {}
    while st.phase == PLAY and len(st.tricks) < 16 and len(voids) < 2:
        legal = [a for a in st.legal_actions() if a != THROW_IN]
        st.apply(legal[rng.randrange(len(legal))])
        for leader, cards, _ in st.tricks:
            led = cards[0] // 5
            for i, f in enumerate(cards[1:], 1):
                if f // 5 != led:
                    voids.setdefault((leader + i) % 4, set()).add(led)
    assert voids and st.phase == PLAY
    seat = st.current_player
    obs = st.observation(seat)
    played = [[0] * FACES for _ in range(4)]
    for t in obs["tricks"]:
        for s, f in t["cards"]:
            played[s][f] += 1
    for k in range(20):
        w = sample_world(obs, random.Random(k))
        assert isinstance(w, DoubleDeckState)
        for p, suits in voids.items():
            if p != seat:
                assert not any(w.hands[p] >> 5 * s & 31 for s in suits)
        for p in range(4):
            if p == seat:
                continue
            held = counts(w.hands[p])
            for f in set(obs["melds"][p]["cards"]):
                assert held[f] >= obs["melds"][p]["cards"].count(f) - played[p][f]


def test_record_replays_a_whole_game() -> None:
    st = DoubleDeckState(Options(pass_count=3), 12)
    rng = random.Random(12)
    while not st.is_terminal:
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    record = GameRecord.loads(GameRecord.of(st).dumps())
    again = record.final_state()
    assert again.returns() == st.returns() and again.observation(0) == st.observation(0)


def test_text_forms() -> None:
    st = new_dd(dealer=3)
    assert st.parse_action("pass") == PASS and st.parse_action("52") == (K_MELD_BID, 52)
    assert st.parse_action("70") == (K_JUMP, 70)
    assert st.parse_action("50") == (K_BID, 50) and st.parse_action("#1") == PASS
    win_auction(st, 0)
    assert st.parse_action("♥") == (K_TRUMP, 1) == st.parse_action("trump hearts")
    st.apply((K_TRUMP, 1))
    a = st.legal_actions()[0]
    assert st.parse_action(st.action_text(a)) == a and a[0] == K_GIVE  # type: ignore[index]
