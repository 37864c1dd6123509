"""The Piquet search kernels: compiled and run as Python they give the same numbers and
the same decisions; the declarations agree with the combinations' own functions."""

from __future__ import annotations

import itertools
import random
from typing import Any

import numpy as np
import pytest

from cardplaza.arena.commands import bench_positions
from cardplaza.games.piquet import combos as pc
from cardplaza.games.piquet import kernels
from cardplaza.games.piquet import players as pp
from cardplaza.games.piquet.kernels import KERNELS
from cardplaza.games.piquet.players import TrickRules, exact_values
from cardplaza.games.piquet.state import PiquetState

FORMS = (True, False)
"""Compiled, then the Python reference."""


def _deal(rng: random.Random, n: int) -> tuple[int, int]:
    cards = list(range(32))
    rng.shuffle(cards)
    return sum(1 << c for c in cards[:n]), sum(1 << c for c in cards[n:2 * n])


def _rules(rng: random.Random) -> TrickRules:
    return TrickRules(rng.randrange(2), rng.random() < 0.5, rng.choice([1, 10]))


def _legal(pos: tuple[int, ...]) -> list[int]:
    h0, h1, leader, lead = pos[:4]
    if lead < 0:
        hand = h0 if leader == 0 else h1
    else:
        hand = h1 if leader == 0 else h0
        hand = hand & (0xFF << (8 * (lead >> 3))) or hand
    return [c for c in range(32) if hand >> c & 1]


@pytest.mark.parametrize("block", range(4))
def test_rollouts_and_batched_card_values_match(block: int) -> None:
    """Seeded rollouts from random positions (every hand size, both leaders, pique
    trackers, lead-point rules) and the worlds × cards matrix of the PIMC search: the
    compiled kernels give the Python form's numbers, and each entry of the matrix is the
    card played then the rollout."""
    rng = random.Random(block)
    for t in range(150):
        n = rng.randrange(1, 13)
        h0, h1 = _deal(rng, n)
        rules = _rules(rng)
        pos = (h0, h1, rng.randrange(2), -1, rng.randrange(13 - n), 12 - n,
               rng.choice([-1, 0, 7, 20, 29]))
        want = KERNELS.reference("rollout")(*pos, *rules.args())
        assert KERNELS.rollout(*pos, *rules.args()) == want
        hands = [_deal(random.Random(rng.random()), n)[1] & ~h0 or h1 for _ in range(5)]
        hands = [h for h in hands if h.bit_count() == n] or [h1]
        cards = _legal(pos)
        opp = 1 - pos[2]
        got = [pp._rollout_values(pos, opp, hands, cards, rules, form) for form in FORMS]
        assert got[0] == got[1]
        if t % 10 == 0:
            for w, h in enumerate(hands):
                for i, c in enumerate(cards):
                    base = (h, pos[1]) if opp == 0 else (pos[0], h)
                    d, *nxt = kernels.play(*base, *pos[2:], c, *rules.args())
                    assert got[1][i][w] == d + kernels.rollout(*nxt, *rules.args())


@pytest.mark.parametrize("seed", range(3))
def test_endgame_solver_matches_values_and_node_counts(seed: int) -> None:
    """The compiled exact solver returns its Python form's root values and expands the
    same number of positions."""
    rng = random.Random(100 + seed)
    for _ in range(25):
        n = rng.randrange(1, 7)
        h0, h1 = _deal(rng, n)
        rules = _rules(rng)
        pos = (h0, h1, rng.randrange(2), -1, rng.randrange(13 - n), 12 - n,
               rng.choice([-1, 3, 25]))
        cards = _legal(pos)
        assert exact_values(pos, cards, rules, True) == exact_values(pos, cards, rules, False)


def test_a_full_table_keeps_the_values_exact() -> None:
    """Once the table is three quarters full, new positions are solved without being
    stored: a tiny table gives the values of a large one, expanding more positions."""
    rng = random.Random(5)
    rules = TrickRules(0, False, 10)
    for _ in range(4):
        h0, h1 = _deal(rng, 6)
        pos = [h0, h1, 0, -1, 3, 6, -1]
        cards = _legal(tuple(pos))
        got = []
        for bits in (16, 4):
            tab = [0] * (4 * (1 << bits) + 4)
            out = [0] * len(cards)
            nodes = kernels.solve_root(pos, cards, *rules.args(), tab,
                                       [[0] * 13 for _ in range(26)], out)
            got.append((out, nodes))
        assert got[0][0] == got[1][0]
        assert got[0][1] < got[1][1]


def oracle_declaration_margin(mine: int, opp: int) -> tuple[int, int]:
    """Declaration points of two final hands from the combinations' own functions."""
    a, b = pc.best_point(mine), pc.best_point(opp)
    pts = [0, 0]
    if a[:2] > b[:2]:
        pts[0] += a[0]
    elif b[:2] > a[:2]:
        pts[1] += b[0]
    for get, score in ((pc.sequences, pc.seq_score), (pc.sets, pc.set_score)):
        qa, qb = get(mine), get(opp)
        ka = qa[0][:2] if qa else (0, 0)
        kb = qb[0][:2] if qb else (0, 0)
        if ka > kb:
            pts[0] += sum(score(q) for q in qa)  # type: ignore[operator]
        elif kb > ka:
            pts[1] += sum(score(q) for q in qb)  # type: ignore[operator]
    for s in (0, 1):
        if pts[s] >= 30 and pts[1 - s] == 0:
            pts[s] += 60
    return pts[0], pts[1]


def test_declarations_hand_values_and_exchange_values_match() -> None:
    """Declaration margins agree with the combinations' own functions; they, hand values
    (every discard of a hand, in combinations order) and exchange values over sampled
    decks are the same compiled and as Python."""
    rng = random.Random(7)
    for _ in range(300):
        a, b = _deal(rng, 12)
        want = oracle_declaration_margin(a, b)
        assert KERNELS.declaration_margin(a, b) == want
        assert KERNELS.reference("declaration_margin")(a, b) == want
        assert pp.hand_value(a, True) == pp.hand_value(a, False)
    hand, _ = _deal(rng, 12)
    cards = [c for c in range(32) if hand >> c & 1]
    for k in (0, 1, 3, 5):
        got = [pp._discard_estimates(hand, cards, k, form) for form in FORMS]
        assert got[0] == got[1]
        assert [d for _v, d in got[0]] == [sum(1 << c for c in combo)
                                           for combo in itertools.combinations(cards, k)]
        assert [v for v, _d in got[0]] == [pp.hand_value(hand & ~d) + 1.1 * k
                                           for _v, d in got[0]]
    unknown = [c for c in range(32) if not hand >> c & 1]
    decks = [rng.sample(unknown, len(unknown)) for _ in range(12)]
    for elder in (True, False):
        rules = TrickRules(0 if elder else 1, elder, 10)
        discards = [sum(1 << c for c in rng.sample(cards, k)) for k in (1, 2, 3, 5)]
        got = [pp._exchange_values(hand, discards, decks, 2, 9, elder, rules, 0, form)
               for form in FORMS]
        assert got[0] == got[1]
        d = discards[2]
        mine = hand & ~d
        for j, deck in enumerate(decks[2:11]):
            me = mine | sum(1 << c for c in deck[:3])
            opp = sum(1 << c for c in deck[3:15])
            x, y = oracle_declaration_margin(me, opp)
            pq = -1
            if x + y < 30:
                pq = (x if elder else y) if (y if elder else x) == 0 else -1
            assert got[0][2][j] == x - y + kernels.rollout(me, opp, rules.elder, -1, 0, 0,
                                                           pq, *rules.args())


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
        for compiled in FORMS:
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


def _cmp(a: int, b: int) -> int:
    return (a > b) - (a < b)


def oracle_record(elder: int, younger: int, younger_shown: bool) -> tuple[Any, ...]:
    """The public record of the automatic declarations of two declaration hands, from the
    combinations' own functions: Elder's calls, Younger's replies and the winners' shown
    cards (Younger's only once shown)."""
    pe, py = pc.best_point(elder), pc.best_point(younger)
    c1 = _cmp(py[0], pe[0])
    c2 = _cmp(py[1], pe[1]) if c1 == 0 else 0
    if c1 < 0 or (c1 == 0 and c2 < 0):
        shown = elder & pc.suit_mask(pe[2])
    elif c1 > 0 or c2 > 0:
        shown = younger & pc.suit_mask(py[2]) if younger_shown else -1
    else:
        shown = 0
    out: list[Any] = [pe[0], c1, pe[1] if c1 == 0 else -1, c2, shown]
    qe: Any
    qy: Any
    for qe, qy in ((pc.sequences(elder), pc.sequences(younger)),
                   (pc.sets(elder), pc.sets(younger))):
        ke = qe[0][:2] if qe else None
        ky = qy[0][:2] if qy else None
        first: Any
        if ke is None:
            first = -1
            c1 = 1 if ky is not None else 0
            c2 = 0
        else:
            first = ke[0] if len(qe[0]) == 4 else ke  # sequence: length; set: kind + rank
            if ky is None:
                c1, c2 = -1, 0
            else:
                c1 = _cmp(ky[0], ke[0])
                c2 = _cmp(ky[1], ke[1]) if c1 == 0 else 0
                if len(qe[0]) == 3:  # sets: the reply is only "Good" or "Not good"
                    c1, c2 = (1 if c1 > 0 or c2 > 0 else -1), 0
        if c1 < 0 or (c1 == 0 and c2 < 0):
            shown = sum(q[-1] for q in qe)
        elif c1 > 0 or c2 > 0:
            shown = sum(q[-1] for q in qy) if younger_shown else -1
        else:
            shown = 0
        top = ke[1] if ke is not None and c1 == 0 and len(qe[0]) == 4 else -1
        out += [first, c1, top, c2, shown]
    return tuple(out)


def test_record_codes_are_the_declaration_records() -> None:
    """The kernels' record code is a one-to-one image of the declaration record read off
    the combinations: two opponent hands get the same code exactly when they get the same
    record; the compiled and Python forms code alike and match alike."""
    rng = random.Random(11)
    by_record: dict[object, tuple[int, ...]] = {}
    by_code: dict[tuple[int, ...], object] = {}
    out = np.zeros(15, dtype=np.int64)
    work = np.zeros(15, dtype=np.int64)
    for t in range(3000):
        cards = list(range(32))
        rng.shuffle(cards)
        mine = sum(1 << c for c in cards[:12])
        # opponents of every shape, many sharing the record of a few calls
        opp = sum(1 << c for c in cards[12:24])
        shown = rng.random() < 0.5
        for elder, younger in ((mine, opp), (opp, mine)):
            rec = oracle_record(elder, younger, shown)
            KERNELS.record_code(elder, younger, int(shown), out)
            code = tuple(out.tolist())
            assert by_record.setdefault(rec, code) == code
            assert by_code.setdefault(code, rec) == rec
            if t % 20 == 0:
                py = np.zeros(15, dtype=np.int64)
                KERNELS.reference("record_code")(elder, younger, int(shown), py)
                assert tuple(py.tolist()) == code
                for form in FORMS:
                    match = KERNELS.entry("record_matches", form)
                    assert match(mine, opp, int(elder == mine), int(shown), out, work)
    assert len(by_record) > 1000


def test_compiled_sampler_draws_the_same_hands() -> None:
    """The trick-phase sampler with compiled record checks draws exactly the hands of the
    one checking with the Python form, from the same RNG."""
    from cardplaza.games.piquet.search import PlaySampler

    observations = [o for o in _observations(12) if o["phase"] == "play"]
    assert len(observations) >= 20
    for i, obs in enumerate(observations):
        a, b = random.Random(i), random.Random(i)
        sa, sb = PlaySampler(obs, a, False), PlaySampler(obs, b, True)
        assert sa.ok == sb.ok
        if sa.ok:
            assert sa.target == sb.target
            assert [sa.sample(a) for _ in range(20)] == [sb.sample(b) for _ in range(20)]
