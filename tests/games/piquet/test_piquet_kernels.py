"""The compiled Piquet kernels give exactly the numbers of the Python reference."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from cardplaza.arena.commands import bench_positions
from cardplaza.games.piquet import kernels
from cardplaza.games.piquet import players as pp
from cardplaza.games.piquet.players import (
    EndgameSolver,
    TrickRules,
    declaration_margin,
    hand_value,
    rollout,
)
from cardplaza.games.piquet.state import PiquetState


def _deal(rng: random.Random, n: int) -> tuple[int, int]:
    cards = list(range(32))
    rng.shuffle(cards)
    return sum(1 << c for c in cards[:n]), sum(1 << c for c in cards[n:2 * n])


def _rules(rng: random.Random) -> TrickRules:
    return TrickRules(rng.randrange(2), rng.random() < 0.5, rng.choice([1, 10]))


def _args(rules: TrickRules) -> tuple[int, int, int]:
    return rules.elder, int(rules.lead_ten), rules.last_points


@pytest.mark.parametrize("block", range(4))
def test_rollouts_and_batched_card_values_match(block: int) -> None:
    """Seeded rollouts from random positions (every hand size, both leaders, pique
    trackers, lead-point rules) and the worlds × cards matrix of the PIMC search agree
    with :func:`players.rollout` value for value."""
    rng = random.Random(block)
    for _ in range(150):
        n = rng.randrange(1, 13)
        h0, h1 = _deal(rng, n)
        rules = _rules(rng)
        pos = (h0, h1, rng.randrange(2), -1, rng.randrange(13 - n), 12 - n,
               rng.choice([-1, 0, 7, 20, 29]))
        assert kernels.KERNELS.rollout(*pos, *_args(rules)) == rollout(rules, pos)
        hands = [_deal(random.Random(rng.random()), n)[1] & ~h0 or h1 for _ in range(5)]
        hands = [h for h in hands if h.bit_count() == n] or [h1]
        cards = [c for c in range(32) if h0 >> c & 1] if pos[2] == 0 else \
            [c for c in range(32) if h1 >> c & 1]
        opp = 1 - pos[2]
        got = kernels.KERNELS.rollout_values(np.array(pos, dtype=np.int64), opp,
                                     np.array(hands, dtype=np.int64),
                                     np.array(cards, dtype=np.int64), *_args(rules))
        want = [[d + rollout(rules, nxt) for d, nxt in
                 (rules.play(pp._with_hand(pos, opp, h), c) for c in cards)] for h in hands]
        assert got.tolist() == want


@pytest.mark.parametrize("seed", range(3))
def test_endgame_solver_matches_values_and_node_counts(seed: int) -> None:
    """The compiled exact solver returns the Python solver's root values and expands the
    same number of positions (same move order, same merging of equivalent cards)."""
    rng = random.Random(100 + seed)
    for _ in range(25):
        n = rng.randrange(1, 7)
        h0, h1 = _deal(rng, n)
        rules = _rules(rng)
        pos = (h0, h1, rng.randrange(2), -1, rng.randrange(13 - n), 12 - n,
               rng.choice([-1, 3, 25]))
        legal = TrickRules.legal(pos)
        cards = [c for c in range(32) if legal >> c & 1]
        solver = EndgameSolver(rules)
        want = solver.root_values(pos, cards)
        got, nodes = kernels.solve_root(np.array(pos, dtype=np.int64),
                                        np.array(cards, dtype=np.int64), *_args(rules))
        assert got.tolist() == [want[c] for c in cards]
        assert nodes == solver.nodes


def test_declarations_hand_values_and_exchange_values_match() -> None:
    """Declaration margins, hand values (every discard of a hand, in combinations order)
    and exchange values over sampled decks agree with the Python functions."""
    rng = random.Random(7)
    for _ in range(300):
        a, b = _deal(rng, 12)
        assert kernels.KERNELS.declaration_margin(a, b) == declaration_margin(a, b)
        assert kernels.KERNELS.hand_value(a) == hand_value(a)
    hand, _ = _deal(rng, 12)
    cards = [c for c in range(32) if hand >> c & 1]
    for k in (0, 1, 3, 5):
        discs, vals = kernels.KERNELS.discard_values(hand, np.array(cards, dtype=np.int64), k)
        want = [(hand_value(hand & ~sum(1 << c for c in combo)) + 1.1 * k,
                 sum(1 << c for c in combo)) for combo in itertools.combinations(cards, k)]
        assert list(zip(vals.tolist(), discs.tolist(), strict=True)) == want
    unknown = [c for c in range(32) if not hand >> c & 1]
    decks = [rng.sample(unknown, len(unknown)) for _ in range(12)]
    for elder in (True, False):
        rules = TrickRules(0 if elder else 1, elder, 10)
        discards = [sum(1 << c for c in rng.sample(cards, k)) for k in (1, 2, 3, 5)]
        kept = np.array([hand & ~d for d in discards], dtype=np.int64)
        got = kernels.KERNELS.exchange_values(kept,
                                              np.array([d.bit_count() for d in discards],
                                                       dtype=np.int64),
                                      np.array(decks, dtype=np.int64), 2, 9, int(elder),
                                      int(rules.lead_ten), 10, 0)
        want = [[pp._exchange_value(hand & ~d, d.bit_count(), [deck], elder, rules)
                 for deck in decks[2:11]] for d in discards]
        assert got.tolist() == want


@pytest.mark.parametrize("level", ["3", "4", "expert"])
def test_compiled_and_python_searches_decide_alike(level: str) -> None:
    """Every search level makes the same decisions with the kernels as with the Python
    reference (same RNG draws, same values), over seeded positions of every phase."""
    small = {"expert": {"exchange_top": 20, "exchange_first": 8, "exchange_samples": 24,
                        "play_sims": 200, "min_worlds": 10, "max_worlds": 40,
                        "exact_worlds": 12, "exact_nodes": 20_000, "min_exact_worlds": 4}}
    for i, st in enumerate(bench_positions("piquet", 25, 3)):
        obs, legal = st.observation(st.current_player), st.legal_actions()
        picks = []
        for compiled in (False, True):
            budget = {**pp.BUDGETS[level], **small.get(level, {}), "compiled": compiled}
            player = pp.ExpertPlayer(name="p", **budget)
            picks.append((player.choose(obs, legal, random.Random(i)), player.last_stats))
        assert picks[0] == picks[1]


def test_bench_reports_the_kernel_beside_the_reference() -> None:
    """``cardplaza bench piquet`` reports search play-outs/s, the Python reference's rate
    measured in the same run, and the ratio of the two."""
    from cardplaza.games.piquet.search_bench import search_benchmarks

    figures = search_benchmarks()
    assert figures["search play-outs/s"] > figures["search play-outs/s (Python reference)"]
    assert figures["search play-outs speed-up"] > 1


def test_evaluate_actions_gives_every_candidate_per_world() -> None:
    """``evaluate_actions`` returns each distinct card's margin in every sampled world (or
    each discard's over the talons), and the expert's choice has the best total."""
    checked = 0
    for i, st in enumerate(bench_positions("piquet", 20, 4)):
        obs, legal = st.observation(st.current_player), st.legal_actions()
        ev = pp.evaluate_actions(obs, legal, random.Random(i), "4")
        if ev is None:
            continue
        assert len(ev.actions) == len(ev.values) >= 1
        full = [v for v in ev.values if len(v) == len(ev.values[0])]
        assert all(len(v) >= 1 for v in full)
        assert set(ev.means()) == set(ev.actions)
        choice = pp.make_player("4", 0).choose(obs, legal, random.Random(i))
        totals = {a: sum(v) for a, v in zip(ev.actions, ev.values, strict=True)
                  if len(v) == len(ev.values[0])}
        if choice in totals:
            assert totals[choice] >= max(totals.values()) - 1e-9
        checked += 1
    assert checked >= 5


def _observations(count: int) -> list[dict[str, object]]:
    """Trick-phase and declaration observations from seeded level-4 deals, with every
    preset's options."""
    from cardplaza.games.piquet import SPEC

    out = []
    presets = [None, *SPEC.presets.values()]
    for g in range(count):
        st = SPEC.new_game(presets[g % len(presets)], 300 + g)
        players = [pp.make_player("4", 0), pp.make_player("4", 1)]
        rng = random.Random(g)
        while st.deal_number == 1 and not st.is_terminal:  # type: ignore[attr-defined]
            seat = st.current_player
            legal = st.legal_actions()
            obs = st.observation(seat)
            if obs["phase"] in ("play", "declare") and rng.random() < 0.3:
                out.append(obs)
            st.apply(legal[0] if len(legal) == 1 else players[seat].choose(obs, legal, rng))
    return out


def test_dialogue_check_never_changes_the_sampled_world(monkeypatch: pytest.MonkeyPatch,
                                                        ) -> None:
    """The quick check of the declaration dialogue only rejects deals the engine's replay
    rejects too: sample_world returns the same worlds with and without it."""
    from cardplaza.games.piquet import world

    observations = _observations(24)
    assert len(observations) >= 40
    def hidden(check: bool) -> list[object]:
        out = []
        for i, o in enumerate(observations):
            rng = random.Random(i)
            w = world.sample_world(o, rng)
            assert isinstance(w, PiquetState)
            out.append((w.hands, w.dealt, w.talon, w.discards, rng.random()))
        return out

    fast = hidden(True)
    monkeypatch.setattr(world, "_say_codes", lambda obs: None)
    assert hidden(False) == fast


def test_record_codes_are_the_declaration_records() -> None:
    """The kernels' record code is a one-to-one image of the declaration record: two
    opponent hands get the same code exactly when they get the same record."""
    from cardplaza.games.piquet.search import declaration_record

    rng = random.Random(11)
    by_record: dict[object, tuple[int, ...]] = {}
    by_code: dict[tuple[int, ...], object] = {}
    out = np.zeros(15, dtype=np.int64)
    for _ in range(3000):
        cards = list(range(32))
        rng.shuffle(cards)
        mine = sum(1 << c for c in cards[:12])
        # opponents of every shape, many sharing the record of a few calls
        opp = sum(1 << c for c in cards[12:24])
        shown = rng.random() < 0.5
        for elder, younger in ((mine, opp), (opp, mine)):
            rec = declaration_record(elder, younger, shown)
            kernels.KERNELS.record_code(elder, younger, int(shown), out)
            code = tuple(out.tolist())
            assert by_record.setdefault(rec, code) == code
            assert by_code.setdefault(code, rec) == rec
    assert len(by_record) > 1000


def test_compiled_sampler_draws_the_same_hands() -> None:
    """The trick-phase sampler with compiled record checks draws exactly the hands of the
    Python one from the same RNG."""
    from cardplaza.games.piquet.search import PlaySampler

    observations = [o for o in _observations(12) if o["phase"] == "play"]
    assert len(observations) >= 20
    for i, obs in enumerate(observations):
        a, b = random.Random(i), random.Random(i)
        sa, sb = PlaySampler(obs, a, False), PlaySampler(obs, b, True)
        assert sa.ok == sb.ok
        if sa.ok:
            assert [sa.sample(a) for _ in range(20)] == [sb.sample(b) for _ in range(20)]
