"""Options, registration, action forms, visibility (section 17), invariants, the
hidden-card permutation and the determinizer, and terminal play."""

from __future__ import annotations

import io
import itertools
import json
import random

import pytest
from p4_helpers import new3, new4
from rich.console import Console

from cardplaza.cli.terminal import play_terminal
from cardplaza.core.options import options_from_dict
from cardplaza.core.protocol import ActionParseError, IllegalAction
from cardplaza.core.registry import get_game
from cardplaza.games.pinochle4.engine import (
    K_BID,
    K_DISCARD,
    K_GIVE,
    K_JUMP,
    K_PLAY,
    K_TRUMP,
    PASS,
    PLAY,
    PLAY_ACTIONS,
    CutthroatOptions,
    Options,
    PinochleState,
)
from cardplaza.games.pinochle4.world import check_invariants, permute_unseen, sample_world


def test_options_defaults_and_validation() -> None:
    """Section 16 defaults; invalid combinations raise with a clear message."""
    o = Options()
    assert (o.strength, o.target, o.one_point, o.counters, o.min_bid, o.passing,
            o.beat_only_trump_leads, o.extra_kq, o.all_pass_redeal) == (
        "normal", 1500, False, "A", 250, 4, False, True, False)
    with pytest.raises(ValueError, match="scheme A"):
        Options(one_point=True, counters="B")
    with pytest.raises(ValueError, match="target"):
        Options(target=1234)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="passing"):
        Options(passing=2)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="strength"):
        CutthroatOptions(strength="genius")  # type: ignore[arg-type]
    assert options_from_dict(Options, {"target": "500", "one_point": "on"}).target == 500
    assert not hasattr(CutthroatOptions(), "passing")  # DECISION C-11


def test_registration_and_presets() -> None:
    """Both games are registered; a preset per non-default option value."""
    s4, s3 = get_game("pinochle4"), get_game("pinochle3")
    assert s4.title == "Partnership Pinochle" and s4.title_ja == "ピノクル"
    assert s3.options_type is CutthroatOptions
    assert "passing_0" in s4.presets and "passing_3" in s4.presets
    assert "passing_0" not in s3.presets
    for spec in (s4, s3):
        assert {"one_point", "counters_b", "counters_c", "min_bid_100", "target_2500",
                "beat_only_trump_leads", "extra_kq_false", "all_pass_redeal",
                "strength_expert"} <= set(spec.presets)
        assert spec.hook("odds" if spec is s4 else "bench") is not None


def test_one_point_units() -> None:
    """Section 15: minimum 25, step 1, target 150, trick total 25."""
    st = PinochleState(Options(one_point=True, min_bid=200), 3)
    assert (st.min_bid, st.step, st.target, st.trick_total) == (20, 1, 150, 25)


def test_action_forms() -> None:
    """Text, numbered menu and JSON forms; bad input raises ActionParseError."""
    st = new4(dealer=3)
    assert st.parse_action("pass") == PASS
    assert st.parse_action("1") == PASS
    assert st.parse_action("2") == (K_BID, 250)
    assert st.parse_action("bid 250") == (K_BID, 250)
    assert st.parse_action("300") == (K_JUMP, 300)
    assert st.action_from_json({"kind": "bid", "amount": 300}) == (K_JUMP, 300)
    assert st.action_to_json((K_JUMP, 300)) == {"kind": "bid", "amount": 300}
    for bad in ("", "xyzzy", "bid -5", "play 11♠", "#99"):
        with pytest.raises(ActionParseError):
            st.parse_action(bad)
    for data in (None, 3, {"kind": "bid"}, {"kind": "bid", "amount": True}, {"kind": "x"}):
        with pytest.raises(ActionParseError):
            st.action_from_json(data)
    st.apply((K_BID, 250))
    for _ in range(3):
        st.apply(PASS)
    assert st.parse_action("♥") == (K_TRUMP, 1) == st.parse_action("trump hearts")
    st.apply((K_TRUMP, 1))
    card = st.legal_actions()[0][1]  # type: ignore[index]
    assert st.parse_action(st.action_text((K_GIVE, card))) in st.legal_actions()


def test_observation_hides_other_hands_and_seed() -> None:
    """Section 17: own cards only; no seed; partners' passed cards private."""
    st = new4(dealer=3)
    obs = st.observation(1)
    text = json.dumps(obs)
    assert "seed" not in obs and json.loads(text) == obs
    assert obs["hand"] == sorted(obs["hand"], key=lambda c: (c % 24 // 6, -(c % 6), c // 24))
    assert set(obs["hand"]) == {c for c in range(48) if st.hands[1] >> c & 1}


def test_widow_and_discard_visibility_three_hands() -> None:
    """Section 17: widow hidden until the bid is won, then shown; discards bidder only."""
    st = new3(dealer=2)
    assert all(st.observation(s)["widow"] is None for s in range(3))
    st.apply((K_BID, 250))
    st.apply(PASS)
    st.apply(PASS)
    assert all(st.observation(s)["widow"] is not None for s in range(3))


def _played_into_the_hand(name: str, seed: int, tricks: int) -> PinochleState:
    """A game of random legal actions stopped in play once ``tricks`` tricks are taken."""
    st = get_game(name).new_game(None, seed)
    rng = random.Random(seed)
    while not (st.phase == PLAY and len(st.tricks) >= tricks):  # type: ignore[attr-defined]
        legal = st.legal_actions()
        st.apply(legal[1] if legal[0] == PASS and rng.random() < 0.3 else rng.choice(legal))
    assert isinstance(st, PinochleState)
    return st


@pytest.mark.parametrize("name", ["pinochle4", "pinochle3"])
def test_observation_is_new_each_time_and_follows_the_state(name: str) -> None:
    """Changing an observation leaves the next one as it was; the parts kept between
    observations (sorted hands, tricks, bids, melds) follow any change of the state, even
    an entry of its lists replaced in place."""
    st = _played_into_the_hand(name, 11, 2)
    assert st.melds is not None  # worked out before the first observation
    first = json.dumps([st.observation(s) for s in range(st.n)])
    for s in range(st.n):
        obs = st.observation(s)
        for value in obs.values():
            if isinstance(value, list):
                value.append(99)
            elif isinstance(value, dict):
                value["changed"] = True
        obs.clear()
    assert json.dumps([st.observation(s) for s in range(st.n)]) == first

    leader, played, winner = st.tricks[0]
    swapped = (leader, tuple(reversed(played)), winner)
    st.tricks[0] = swapped
    st.bids[0] = (st.bids[0][0], st.bids[0][1] + 10)
    hand = st.hands[0] & (st.hands[0] - 1)  # without its lowest card
    st.hands[0] = hand
    melds = st.melds
    assert melds is not None
    st.melds = [melds[1], melds[0], *melds[2:]]
    obs = st.observation(0)
    assert obs["tricks"][0]["cards"] == [[(leader + i) % st.n, c]
                                         for i, c in enumerate(reversed(played))]
    assert obs["bids"][0] == list(st.bids[0])
    assert obs["hand"] == sorted((c for c in range(48) if hand >> c & 1),
                                 key=lambda c: (c % 24 // 6, -(c % 6), c // 24))
    assert obs["melds"] == [m.to_json() for m in (melds[1], melds[0], *melds[2:])]
    assert obs["melds"] != json.loads(first)[0]["melds"]


@pytest.mark.parametrize("name", ["pinochle4", "pinochle3"])
def test_observations_of_each_actions_copy_reuse_what_the_last_state_showed(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """As on the server, every action is played on a copy and every seat looks: each
    finished trick's form is made once (found again through the copies' new lists), and
    every observation equals one made with nothing kept."""
    import cardplaza.games.pinochle4.engine as engine

    made: list[object] = []
    make = engine._trick_json

    def counted(trick: tuple[object, ...], n: int) -> dict[str, object]:
        made.append(trick)
        return make(trick, n)

    monkeypatch.setattr(engine, "_trick_json", counted)
    spec = get_game(name)
    st = spec.new_game(None, 5)
    rng = random.Random(5)
    finished: set[int] = set()
    for _ in range(300):  # a few hands
        if st.is_terminal:
            break
        legal = st.legal_actions()
        copy = st.clone()
        copy.apply(legal[1] if legal[0] == PASS and rng.random() < 0.4
                   else rng.choice(legal))
        st = copy
        seen = [st.observation(s) for s in range(st.n)]
        finished.update(id(t) for t in st.tricks)
        for memo in (engine._TRICKS, engine._BIDS_JSON, engine._MELDS,
                     engine._TRICK_JSON, engine._MELD_JSON):
            memo.clear()
        assert [st.observation(s) for s in range(st.n)] == seen
        made.clear()  # the observations with nothing kept made every trick again
        for s in range(st.n):  # and kept them for the next copy
            st.observation(s)
        made.clear()
    assert finished
    # one more game, its tricks counted: each made once
    st = spec.new_game(None, 6)
    rng = random.Random(6)
    tricks = 0
    for _ in range(300):
        if st.is_terminal:
            break
        legal = st.legal_actions()
        before = len(st.tricks)
        copy = st.clone()
        copy.apply(legal[1] if legal[0] == PASS and rng.random() < 0.4
                   else rng.choice(legal))
        st = copy
        tricks += len(st.tricks) > before
        for s in range(st.n):
            st.observation(s)
    assert tricks > 10 and len(made) == tricks, (len(made), tricks)


def _random_game(name: str, options: object, seed: int, bid_prob: float = 0.4,
                 stop: int = 10**9) -> list[object]:
    """Play random legal actions (passing often in the auction); snapshot states."""
    spec = get_game(name)
    st = spec.new_game(options, seed)
    rng = random.Random(seed)
    snaps = []
    steps = 0
    while not st.is_terminal and steps < stop:
        legal = st.legal_actions()
        if legal[0] == PASS:
            a = legal[1] if rng.random() < bid_prob else PASS
        else:
            a = legal[rng.randrange(len(legal))]
        st.apply(a)
        check_invariants(st)
        steps += 1
        if rng.random() < 0.05:
            snaps.append(st.clone())
    return snaps


@pytest.mark.parametrize("name", ["pinochle4", "pinochle3"])
def test_permute_and_sample_world_keep_the_observation(name: str) -> None:
    """permute_unseen and sample_world reproduce the seat's observation exactly; sampled
    worlds respect revealed voids and are playable."""
    for st in _random_game(name, None, 4, stop=1500)[:40]:
        for seat in range(st.num_players):  # type: ignore[attr-defined]
            obs = st.observation(seat)  # type: ignore[attr-defined]
            p = permute_unseen(st, seat, random.Random(seat))  # type: ignore[arg-type]
            assert p.observation(seat) == obs
            check_invariants(p)
            w = sample_world(obs, random.Random(seat + 10))
            assert w.observation(seat) == obs
            check_invariants(w)
            if st.current_player == seat:  # type: ignore[attr-defined]
                assert w.legal_actions() == st.legal_actions()  # type: ignore[attr-defined]


def test_sample_world_respects_revealed_void() -> None:
    """A player who did not follow suit is never dealt that suit in a sampled world."""
    st = new4(Options(passing=0), seed=8, dealer=3)
    st.apply((K_BID, 250))
    for _ in range(3):
        st.apply(PASS)
    st.apply((K_TRUMP, 0))
    assert st.phase == PLAY
    rng = random.Random(1)
    while st.phase == PLAY and len(st.tricks) < 6:
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    voids: dict[int, set[int]] = {}
    for leader, cards, _ in st.tricks:
        led = cards[0] % 24 // 6
        for i, c in enumerate(cards[1:], 1):
            if c % 24 // 6 != led:
                voids.setdefault((leader + i) % 4, set()).add(led)
    seat = st.current_player
    obs = st.observation(seat)
    for k in range(20):
        w = sample_world(obs, random.Random(k))
        for p, suits in voids.items():
            if p != seat:
                for s in suits:
                    assert not any(w.hands[p] >> c & 1 and c % 24 // 6 == s  # type: ignore[attr-defined]
                                   for c in range(48))


def test_rejected_action_leaves_state_unchanged() -> None:
    """apply raises before any change."""
    st = new4(dealer=3)
    before = json.dumps([st.observation(s) for s in range(4)])
    for bad in ((K_PLAY, 3), (K_BID, 240), (K_JUMP, 250), (K_TRUMP, 0), (9, 9), "x",
                (K_BID, False), (K_BID, 0.0), (False, 0), (K_BID, 250.0)):
        with pytest.raises(IllegalAction):
            st.apply(bad)
    assert json.dumps([st.observation(s) for s in range(4)]) == before


@pytest.mark.parametrize("name", ["pinochle4", "pinochle3"])
def test_listed_card_actions_are_refused_out_of_their_phase(name: str) -> None:
    """The very give, discard and play objects legal_actions() hands out are refused in
    any other phase, or for a card the hand does not hold, with the state unchanged."""
    spec = get_game(name)
    rng = random.Random(4)
    kept: dict[int, list[object]] = {}
    refused = 0
    for seed in range(4):
        state = spec.new_game(None, seed)
        # The first deals of each game: every phase comes round in each deal.
        for _ in range(150):
            if state.is_terminal:
                break
            assert isinstance(state, PinochleState)
            legal = state.legal_actions()
            for a in legal:
                if isinstance(a, tuple) and a[0] in (K_GIVE, K_DISCARD, K_PLAY):
                    kept.setdefault(a[0], []).append(a)
            listed = set(map(id, legal))
            for objects in kept.values():
                for a in rng.sample(objects, min(3, len(objects))):
                    if id(a) in listed or a in legal:
                        continue
                    twin = state.clone()
                    before = twin.observation(twin.current_player)
                    with pytest.raises(IllegalAction):
                        twin.apply(a)  # type: ignore[arg-type]
                    assert twin.observation(twin.current_player) == before
                    refused += 1
            state.apply(rng.choice(legal))
    assert refused > 100
    assert set(kept) == ({K_GIVE, K_PLAY} if name == "pinochle4" else {K_DISCARD, K_PLAY})


@pytest.mark.parametrize("name", ["pinochle4", "pinochle3"])
def test_play_checked_without_asking_for_the_legal_list(name: str) -> None:
    """A card play applied to a position nobody asked for its legal actions (a fresh copy;
    the research adapter works out only the legal cards) is checked the same: every card of
    the hand that is not listed is refused with the state unchanged, every listed one is
    played, and the adapter's numbers are the listed plays."""
    from cardplaza.research.core import codec_of

    spec = get_game(name)
    codec = codec_of(spec)
    rng = random.Random(11)
    plays = 0
    # Two whole games of random play: some 40 deals, thousands of plays checked.
    for seed in range(2):
        state = spec.new_game(None, seed)
        while not state.is_terminal:
            blank = state.clone()  # nothing worked out yet
            legal = state.legal_actions()
            assert isinstance(state, PinochleState)
            if state.phase == PLAY:
                listed = {a[1] for a in legal}  # type: ignore[index]
                numbered = blank.clone()
                assert codec.numbers(numbered) == sorted(codec.encode(state, a) for a in legal)
                for c in range(48):
                    if state.hands[state.turn] >> c & 1 and c not in listed:
                        for fresh in (blank.clone(), numbered):
                            before = fresh.observation(state.turn)
                            with pytest.raises(IllegalAction):
                                fresh.apply(PLAY_ACTIONS[c])
                            assert fresh.observation(state.turn) == before
                card = rng.choice(sorted(listed))
                other = blank.clone()
                other.apply(PLAY_ACTIONS[card])
                numbered.apply(PLAY_ACTIONS[card])
                assert numbered.observation(0) == other.observation(0)
                state.apply(PLAY_ACTIONS[card])
                assert other.observation(0) == state.observation(0)
                plays += 1
            else:
                state.apply(rng.choice(legal))
    assert plays > 100


@pytest.mark.parametrize("name", ["pinochle4", "pinochle3"])
def test_terminal_play_whole_game_with_numbers(name: str) -> None:
    """A person can play a whole game in the terminal with numbered choices."""
    buf = io.StringIO()
    console = Console(file=buf, width=120)
    inputs = itertools.chain(["nonsense", "help", "legal"], itertools.repeat("#1"))
    st = play_terminal(name, None, 2, console=console, read=lambda _: next(inputs))
    out = buf.getvalue()
    assert st.is_terminal
    assert "Game over" in out and "Traceback" not in out
    assert "Cannot read" in out
    assert "Bidding helper" in out or "Name trump" in out
