"""Whole games, options, information hiding and the determinizer of E-fuda-tori."""

from __future__ import annotations

import random

import pytest

from cardplaza.core.cards import bits
from cardplaza.core.history import GameRecord
from cardplaza.core.protocol import ActionParseError, IllegalAction
from cardplaza.games.efudatori import SPEC, EfudatoriState, Options, rules
from cardplaza.games.efudatori.state import rematch
from cardplaza.games.efudatori.worlds import (
    check_invariants,
    inferred_constraints,
    permute_unseen,
    sample_world,
)


def random_game(options: Options, seed: int) -> EfudatoriState:
    """Play a seeded random game to the end, checking invariants after every card."""
    s = EfudatoriState(options, seed)
    rng = random.Random(seed)
    check_invariants(s)
    while not s.is_terminal:
        legal = s.legal_actions()
        assert legal
        s.apply(legal[rng.randrange(len(legal))])
        check_invariants(s)
    return s


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_games_run_to_the_end(players: int) -> None:
    """Every player count plays to the end: hands and stock empty, scores add up."""
    for seed in range(15):
        s = random_game(Options(players=players), seed)
        assert s.is_terminal and not s.stock and not any(s.hands)
        assert len(s.tricks_log) == s.deck.bit_count() // players
        sets = sum(rules.complete_sets(m) for m in s.captured)
        assert sum(s.scores()) == 140 + 15 * sets
        obs = s.observation(0)
        assert obs["terminal"] and obs["ranking"] == rules.ranking(s.scores())


def test_simple_scoring_totals_140() -> None:
    """With simple scoring the face cards always total 140."""
    for seed in range(10):
        s = random_game(Options(simple_scoring=True), seed)
        assert sum(s.scores()) == 140


def test_deal_reproducible_and_dealer_random() -> None:
    """Same options and seed give the same deal; the dealer comes from the state's RNG."""
    a, b = EfudatoriState(Options(), 7), EfudatoriState(Options(), 7)
    assert a.hands == b.hands and a.stock == b.stock and a.dealer == b.dealer
    dealers = {EfudatoriState(Options(), seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    s = EfudatoriState(Options(), 3)
    assert s.current_player == (s.dealer + 1) % 4 and s.trump == rules.CLUBS
    assert all(m.bit_count() == 4 for m in s.hands)


def test_rematch_passes_the_deal_left() -> None:
    """E-2: in a rematch the player left of the previous dealer deals and leads second."""
    first = EfudatoriState(Options(players=5), 8)
    second = rematch(first, 9)
    assert second.dealer == (first.dealer + 1) % 5
    assert second.current_player == (first.dealer + 2) % 5
    assert second.hands == EfudatoriState(Options(players=5), 9).hands
    with pytest.raises(ValueError, match="dealer"):
        EfudatoriState(Options(), 1, dealer=4)


def test_options_validation() -> None:
    """Invalid options raise ValueError with a clear message; names are trimmed."""
    with pytest.raises(ValueError, match="2 to 7"):
        Options(players=8)
    with pytest.raises(ValueError, match="2 to 7"):
        Options(players=1)
    with pytest.raises(ValueError, match="whole number"):
        Options(players=True)
    with pytest.raises(ValueError, match="one name per player"):
        Options(players=3, names=("A", "B"))
    with pytest.raises(ValueError, match="1 to 20"):
        Options(players=2, names=("A", "   "))
    with pytest.raises(ValueError, match="1 to 20"):
        Options(players=2, names=("A", "x" * 21))
    with pytest.raises(ValueError, match="on or off"):
        Options(simple_scoring="yes")  # type: ignore[arg-type]
    o = Options(players=2, names=("  Hanako ", "Taro"))
    assert o.names == ("Hanako", "Taro")
    assert Options(players=3).display_names() == ("Player 1", "Player 2", "Player 3")
    spec = SPEC
    assert spec.options({"players": "5", "simple_scoring": "on"}) == \
        Options(players=5, simple_scoring=True)


def test_registration_and_presets() -> None:
    """The game is registered with a preset per player count and simple scoring."""
    spec = SPEC
    assert (spec.title, spec.title_ja) == ("E-fuda-tori", "絵札とり")
    presets = spec.all_presets()
    assert {o.players for o in presets.values()} == {2, 3, 4, 5, 6, 7}
    assert any(o.simple_scoring for o in presets.values())
    assert spec.hook("terminal").__name__ == "View"
    assert callable(spec.hook("bench"))


def test_face_down_card_seen_by_winner_alone() -> None:
    """E-6: the face-down card a winner draws appears only in the winner's observation;
    the face-up cards drawn by the others are public."""
    for seed in range(20):
        s = EfudatoriState(Options(players=4 + seed % 2), seed)
        rng = random.Random(seed)
        while not s.draws_log:
            legal = s.legal_actions()
            s.apply(legal[rng.randrange(len(legal))])
        _, w, fd, ups = s.draws_log[0]
        for seat in range(s.num_players):
            obs = s.observation(seat)
            assert obs["draws"][0]["face_down"] == (fd if seat == w else None)
            assert obs["draws"][0]["face_up"] == [[q, card] for q, card in ups]
            if seat != w:
                assert fd not in obs["hand"]
                assert all(fd not in k for k in obs["known_cards"])
                # the other seats cannot tell which hidden card the winner drew
                other = permute_unseen(s, seat, random.Random(seed))
                assert other.observation(seat) == obs
        assert fd in s.observation(w)["hand"]


def test_permute_unseen_keeps_the_view() -> None:
    """permute_unseen keeps the seat's observation and usually changes another's."""
    changed = 0
    total = 0
    for seed in range(10):
        s = EfudatoriState(Options(players=2 + seed % 6), seed)
        rng = random.Random(seed)
        while not s.is_terminal:
            seat = s.current_player
            p = permute_unseen(s, seat, rng)
            check_invariants(p)
            assert p.observation(seat) == s.observation(seat)
            other = (seat + 1) % s.num_players
            total += 1
            changed += p.observation(other) != s.observation(other)
            legal = s.legal_actions()
            s.apply(legal[rng.randrange(len(legal))])
    assert changed > total // 2


def test_sample_world_consistent_and_sound() -> None:
    """sample_world reproduces the observation; revealed voids never exclude the truth and
    the sampled hands respect those that still bind."""
    for seed in range(12):
        s = EfudatoriState(Options(players=2 + seed % 6), seed)
        rng = random.Random(seed)
        while not s.is_terminal:
            seat = s.current_player
            obs = s.observation(seat)
            for p, forbid, allowance in inferred_constraints(obs):
                hidden = s.hands[p] & ~s.known[p]
                assert (hidden & forbid).bit_count() <= allowance
            w = sample_world(obs, rng)
            check_invariants(w)
            assert w.observation(seat) == obs
            for p, forbid, allowance in inferred_constraints(obs):
                if allowance == 0:
                    assert w.hands[p] & ~w.known[p] & forbid == 0
            legal = s.legal_actions()
            s.apply(legal[rng.randrange(len(legal))])


def test_sample_world_respects_known_cards_and_voids() -> None:
    """A face-up drawn card stays with its drawer; a void revealed after the stock ran out
    holds in every sampled world."""
    found = 0
    for seed in range(40):
        s = EfudatoriState(Options(), seed)
        rng = random.Random(seed)
        while len(s.tricks_log) < 11:
            legal = s.legal_actions()
            s.apply(legal[rng.randrange(len(legal))])
        obs = s.observation(0)
        leader, cards, _ = s.tricks_log[10]  # trick 11, after the last draw
        led = cards[0]
        voids = [(leader + i) % 4 for i, card in enumerate(cards)
                 if i and led != rules.JOKER and card != rules.JOKER
                 and card // 13 != led // 13 and rules.JOKER not in cards[:i]]
        voids = [p for p in voids if p != 0]
        for _ in range(10):
            w = sample_world(obs, rng)
            for p in range(4):
                assert w.hands[p] & s.known[p] == s.known[p]
            for p in voids:
                assert w.hands[p] & rules.SUIT_MASK[led // 13] == 0
        found += len(voids)
    assert found > 0


def test_clone_is_independent() -> None:
    """Changing a clone leaves the original untouched."""
    s = EfudatoriState(Options(), 11)
    before = [s.observation(p) for p in range(4)]
    t = s.clone()
    rng = random.Random(1)
    while not t.is_terminal:
        legal = t.legal_actions()
        t.apply(legal[rng.randrange(len(legal))])
    assert [s.observation(p) for p in range(4)] == before
    assert s.rng.getstate() == s.clone().rng.getstate()


def test_clone_rng_is_independent() -> None:
    """Clones carry the RNG state; drawing in one never moves another's generator."""
    s = EfudatoriState(Options(), 12)
    a = s.clone()
    b = a.clone()
    first = [a.rng.random() for _ in range(3)]
    assert [b.rng.random() for _ in range(3)] == first
    assert [s.rng.random() for _ in range(3)] == first
    assert a.rng is not b.rng and a.rng is not s.rng
    c = s.clone()  # taken after s drew: continues from there
    assert c.rng.random() == s.rng.random()


def test_history_round_trip() -> None:
    """A saved history replays to identical observations."""
    s = random_game(Options(players=5, names=("A", "B", "C", "D", "E")), 4)
    record = GameRecord.loads(GameRecord.of(s).dumps())
    replayed = SPEC.new_game(SPEC.options(record.options), record.seed)
    for _ in record.replay(replayed):
        pass
    for p in range(5):
        assert replayed.observation(p) == s.observation(p)
    assert record.result == list(s.returns())


def test_parse_action_and_json() -> None:
    """Cards parse from text or a choice number; junk gives a helpful error."""
    s = EfudatoriState(Options(), 2)
    legal = s.legal_actions()
    assert s.parse_action("1") == legal[0]
    assert s.parse_action(s.action_text(legal[-1])) == legal[-1]
    assert s.parse_action("jo") == rules.JOKER
    with pytest.raises(ActionParseError, match="choose a number"):
        s.parse_action("9")
    with pytest.raises(ActionParseError, match="not a card"):
        s.parse_action("hello")
    assert s.action_from_json(s.action_to_json(legal[0])) == legal[0]
    assert s.action_from_json("QH") == rules.card(rules.HEARTS, 12)
    with pytest.raises(ActionParseError):
        s.action_from_json(77)
    with pytest.raises(IllegalAction):
        s.apply(-3)


def test_illegal_actions_leave_state_unchanged() -> None:
    """Every card that is not legal now is rejected before any change."""
    s = EfudatoriState(Options(), 9)
    rng = random.Random(9)
    while not s.is_terminal:
        legal = set(s.legal_actions())
        before = ([s.observation(p) for p in range(4)], list(s.history))
        for card in bits(s.deck):
            if card not in legal:
                with pytest.raises(IllegalAction):
                    s.apply(card)
        assert ([s.observation(p) for p in range(4)], list(s.history)) == before
        s.apply(sorted(legal)[rng.randrange(len(legal))])
