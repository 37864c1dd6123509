"""Piquet rules: comparisons, class scoring, pique/repique clauses, hiding, odds, forms."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from piquet_helpers import c, deal, declare, layout_state, m, pending_of, play

from cardplaza.core.protocol import ActionParseError, IllegalAction
from cardplaza.games.piquet import PRESETS, SPEC
from cardplaza.games.piquet import combos as pc
from cardplaza.games.piquet.odds import (
    carte_blanche_probability,
    odds,
    simulate_carte_blanche,
)
from cardplaza.games.piquet.options import Options
from cardplaza.games.piquet.state import DECL, EXCH, OVER, PLAY, PiquetState

# --------------------------------------------------------------------------- comparisons
COMPARISONS = [
    # class, elder key, younger key, outcome
    (0, (5, 51), (4, 40), "elder"),            # more cards
    (0, (4, 30), (6, 50), "younger"),
    (0, (5, 49), (5, 48), "elder"),            # same count, higher pip
    (0, (5, 48), (5, 49), "younger"),
    (0, (5, 48), (5, 48), "equal"),            # full tie → nobody
    (0, (3, 29), (3, 29), "equal"),
    (1, (5, 7), (5, 6), "elder"),              # same length, higher top
    (1, (4, 5), (4, 6), "younger"),
    (1, (3, 7), (4, 3), "younger"),            # longer beats higher
    (1, (5, 6), (5, 6), "equal"),              # equal quints
    (1, (3, 2), None, "elder"),                # only one player holds one
    (1, None, (3, 2), "younger"),
    (1, None, None, "none"),
    (2, (4, 3), (3, 7), "elder"),              # quatorze of tens beats trio of aces
    (2, (3, 7), (4, 4), "younger"),
    (2, (3, 6), (3, 5), "elder"),              # higher rank among trios
    (2, (4, 5), (4, 6), "younger"),            # higher rank among quatorzes
    (2, None, (3, 3), "younger"),
    (2, (3, 3), None, "elder"),
    (2, None, None, "none"),
]


@pytest.mark.parametrize(("cls", "ke", "ky", "expected"), COMPARISONS)
def test_class_comparison_table(cls: int, ke: Any, ky: Any, expected: str) -> None:
    """Point / sequence / set comparison, every tie case included (spec 8.4, P-14)."""
    assert pc.class_outcome(cls, ke, ky) == expected


def test_equal_sets_are_impossible() -> None:
    """One rank cannot give both players three cards (spec 8.4)."""
    with pytest.raises(ValueError):
        pc.class_outcome(2, (3, 5), (3, 5))


def test_point_tie_suit_is_first_of_spades_hearts_diamonds_clubs() -> None:
    """P-10: two fully tied point suits → the first of ♠♥♦♣ is the point."""
    assert pc.best_point(m("A♥ 9♥ 8♥ A♦ 9♦ 8♦ 7♣ 8♣"))[2] == 1


def test_sequences_are_maximal_runs_and_ace_high_only() -> None:
    """P-11 and 8.2: a sixième is one sequence; K-A-7 is no sequence."""
    assert [q[:2] for q in pc.sequences(m("A♠ K♠ Q♠ J♠ 10♠ 9♠"))] == [(6, 7)]
    assert pc.sequences(m("A♠ K♠ 7♠")) == []
    assert [q[:2] for q in pc.sequences(m("A♥ K♥ Q♥ 10♥ 9♥ 8♥"))] == [(3, 7), (3, 3)]


def test_quatorze_is_not_also_a_trio() -> None:
    """P-13 and 8.3: four of a rank is one quatorze; 9s, 8s, 7s form no sets."""
    assert pc.sets(m("A♠ A♥ A♦ A♣ 9♠ 9♥ 9♦")) == [(4, 7, m("A♠ A♥ A♦ A♣"))]


def _random_declared(seed: int, opts: Options | None = None) -> PiquetState:
    st = PiquetState(opts or Options(), seed)
    rng = random.Random(seed)
    while st.phase != PLAY and not st.is_terminal:
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    return st


def _class_result(st: PiquetState, cls: int) -> str:
    say = [d for d in st.dialogue if d[1] == cls]
    last = say[-1][4]
    if last in ("Good",):
        return "elder"
    if last in ("Equal",):
        return "equal"
    if last in ("None",):
        return "none"
    return "younger"


@given(hs.integers(min_value=0, max_value=10**9))
@settings(max_examples=150, deadline=None)
def test_property_class_winner_scores_all_its_combinations(seed: int) -> None:
    """The class winner scores exactly the sum of all his combinations of that class,
    the loser nothing; the winner agrees with the comparison table (8.4, 8.5)."""
    st = _random_declared(seed)
    el, yo = st.elder, st.dealer
    labels = ("Point", "Sequences", "Sets")
    for cls in range(3):
        outcome = pc.class_outcome(cls, st._key(el, cls), st._key(yo, cls))
        assert _class_result(st, cls) == outcome
        for seat in (el, yo):
            hand = st.hands[seat]
            got = sum(p for s, p, lab in st.events + st.pending
                      if s == seat and lab == labels[cls])
            if cls == 0:
                expected = pc.best_point(hand)[0]
            elif cls == 1:
                expected = sum(pc.seq_score(q) for q in pc.sequences(hand))
            else:
                expected = sum(pc.set_score(t) for t in pc.sets(hand))
            winner = {"elder": el, "younger": yo}.get(outcome)
            assert got == (expected if seat == winner else 0)


# --------------------------------------------------------------------------- pique / repique
CLAUSE_OPTS = {
    "default": Options(),
    "four_deals": Options(four_deals=True),
    "au_cent": Options(au_cent=True),
}
EX4 = ("A♠ K♠ Q♠ J♠ 10♠ 9♠ 10♥ 9♥ 8♥ 7♥ 10♦ 7♣", "8♠ 7♠ A♥ K♥ A♦ K♦ 9♦ 8♦ Q♣ J♣ 10♣ 9♣")
EX5 = ("A♠ K♠ Q♠ J♠ 10♠ A♥ 9♥ A♦ 9♦ A♣ 9♣ 8♣", "9♠ 8♠ 7♠ K♥ Q♥ J♥ K♦ Q♦ 10♦ K♣ Q♣ J♣")
EX6 = ("A♠ K♠ Q♠ J♠ 10♠ A♥ 9♥ A♦ A♣ 9♣ 8♣ 7♣", "K♥ Q♥ J♥ 10♥ 8♥ 7♥ 9♠ 8♠ 7♠ K♦ Q♦ J♦")
EX7 = ("K♠ Q♠ 9♠ K♥ Q♥ 9♥ K♦ Q♦ 9♦ K♣ Q♣ 9♣", "A♠ J♠ 10♠ A♥ J♥ 10♥ A♦ J♦ 10♦ A♣ 10♣ 8♣")
EX12 = ("A♠ K♠ Q♠ J♠ 8♠ A♥ K♥ J♥ 10♥ 8♥ 7♥ A♦", "10♠ 9♠ Q♥ 9♥ K♦ Q♦ 10♦ 9♦ A♣ K♣ J♣ 9♣")
EX22 = ("Q♥ J♥ 9♥ 8♥ Q♦ J♦ 9♦ 8♦ A♣ K♣ Q♣ J♣", "A♠ K♠ Q♠ J♠ 10♠ A♥ K♥ 10♥ A♦ K♦ 10♦ 7♣")
EQUAL_POINT = ("A♠ K♠ Q♠ A♥ K♥ Q♥ A♦ K♦ 9♦ 8♦ A♣ K♣", "Q♣ J♣ 10♣ 8♣ J♠ 9♠ 7♠ J♥ 9♥ 7♥ Q♦ 10♦")


def _bonus_events(st: PiquetState) -> list[str]:
    return [lab for _s, _p, lab in st.events + st.pending if lab in ("Repique", "Pique")]


@pytest.mark.parametrize("name", list(CLAUSE_OPTS))
def test_12_1_repique_after_declarations(name: str) -> None:
    """12.1: 30 in declarations while the other has 0 → +60 at once (Example 5)."""
    st = deal(*EX5, CLAUSE_OPTS[name])
    declare(st)
    assert st.dscore[st.elder] == 94 and _bonus_events(st) == ["Repique"]


@pytest.mark.parametrize("name", list(CLAUSE_OPTS))
def test_12_1_repique_thresholds_on_undoubled_points(name: str) -> None:
    """12.1 with P-30: 29 undoubled is not 30 even in a doubled deal (Example 4 hands)."""
    st = deal(*EX4, CLAUSE_OPTS[name])
    declare(st)
    assert st.dscore[st.elder] == 29 and st.bonus is None
    assert st.deal_number == 1


@pytest.mark.parametrize("name", list(CLAUSE_OPTS))
def test_12_2_pique_on_a_play_point(name: str) -> None:
    """12.2: Elder at 29, Younger 0: the lead point to 30 scores pique +30 (Example 4)."""
    st = deal(*EX4, CLAUSE_OPTS[name])
    declare(st)
    play(st, "A♠")
    assert st.dscore[st.elder] == 60 and _bonus_events(st) == ["Pique"]


@pytest.mark.parametrize("name", list(CLAUSE_OPTS))
def test_12_3_at_most_one_bonus(name: str) -> None:
    """12.3 / P-21: after a repique, Elder's play at Younger 0 earns no pique as well."""
    st = deal(*EX5, CLAUSE_OPTS[name])
    declare(st)
    play(st, "A♠ 7♠ K♠ 8♠")
    assert st.dscore[st.dealer] == 0
    assert _bonus_events(st) == ["Repique"]


@pytest.mark.parametrize("name", list(CLAUSE_OPTS))
def test_12_4_younger_never_piques(name: str) -> None:
    """12.4 / P-22: Younger reaching 30 by a capture scores no pique (Example 22)."""
    st = deal(*EX22, CLAUSE_OPTS[name])
    declare(st)
    play(st, "8♥ 10♥")
    yo = st.dealer
    assert st.dscore[yo] == 30 and st.bonus is None
    play(st, "A♠ 9♥")
    assert st.bonus is None


@pytest.mark.parametrize("name", list(CLAUSE_OPTS))
def test_12_5_equal_protects_nothing(name: str) -> None:
    """12.5 / P-23: a tied point scores nothing and does not save the repique."""
    st = deal(*EQUAL_POINT, CLAUSE_OPTS[name])
    texts = declare(st)
    assert texts[:4] == ["Point of four", "Making?", "Making 38", "Equal"]
    el = st.elder
    assert st.dscore[el] == 6 + 28 + 60 and st.bonus == "repique"


@pytest.mark.parametrize("name", list(CLAUSE_OPTS))
def test_12_6_younger_earlier_score_prevents_elder_repique(name: str) -> None:
    """12.6 first clause: Younger's point (S2) prevents Elder's repique (Example 6)."""
    st = deal(*EX6, CLAUSE_OPTS[name])
    declare(st)
    assert st.dscore[st.elder] == 32 and st.bonus is None
    assert pending_of(st, st.dealer, "Point") == 6


@pytest.mark.parametrize("name", list(CLAUSE_OPTS))
def test_12_6_elder_first_lead_does_not_prevent_younger_repique(name: str) -> None:
    """12.6 second clause: Elder's lead point is in S5, after Y's repique (Example 7)."""
    st = deal(*EX7, CLAUSE_OPTS[name])
    declare(st)
    play(st, "K♠")
    assert st.dscore[st.dealer] == 94 and st.bonus == "repique"


@pytest.mark.parametrize("name", list(CLAUSE_OPTS))
def test_12_6_cards_and_capot_never_count_toward_pique(name: str) -> None:
    """12.6 third clause: Elder's capot 40 comes after play; no pique (Example 12)."""
    opts = CLAUSE_OPTS[name]
    st = deal(*EX12, opts)
    declare(st)
    el = st.elder
    for lead in ["A♠", "K♠", "A♥", "K♥", "A♦", "Q♠", "J♠", "8♠", "J♥", "10♥", "8♥", "7♥"]:
        st.apply(c(lead))
        st.apply(st.legal_actions()[0])
    sheet = st.sheets[-1]
    labels = [lab for s, _p, lab in sheet["events"] if s == el]
    assert "Pique" not in labels and labels[-1] == "Capot"
    leads = 9 if opts.lead_ten else 12
    assert sheet["raw"][el] == 13 + leads + 1 + 40
    assert sheet["counted"][el] == sheet["raw"][el] * (2 if opts.four_deals else 1)


@pytest.mark.parametrize("name", list(CLAUSE_OPTS))
def test_12_6_younger_capture_before_thirty_prevents_pique(name: str) -> None:
    """12.6 fourth clause: Younger's capture at E 28 stops any later pique (Example 1)."""
    st = deal("A♠ K♠ Q♠ J♠ 10♠ K♥ 9♥ 7♥ K♦ 8♦ 9♣ 7♣",
              "9♠ 8♠ Q♥ J♥ 10♥ 8♥ Q♦ J♦ 10♦ K♣ Q♣ 10♣", CLAUSE_OPTS[name])
    declare(st)
    el, yo = st.elder, st.dealer
    play(st, "9♣ K♣")  # Younger captures first
    assert st.dscore[yo] == 1 and st.dscore[el] < 30
    while st.phase == PLAY and st.deal_number == 1:
        st.apply(st.legal_actions()[0])
    assert st.sheets[0]["bonus"] is None


@pytest.mark.parametrize("name", list(CLAUSE_OPTS))
def test_12_6_twenty_nine_and_first_lead_is_pique_whatever_the_trick(name: str) -> None:
    """12.6 fifth clause: 29 → first lead point → 30 → pique, though Y wins the trick."""
    st = deal(*EX4, CLAUSE_OPTS[name])
    declare(st)
    play(st, "10♥ A♥")
    assert st.bonus == "pique" and st.dscore[st.elder] == 60 and st.dscore[st.dealer] == 1


# --------------------------------------------------------------------------- hiding
def _cards_in(obs: dict[str, Any]) -> set[int]:
    """Every card id the observation mentions in card-valued fields."""
    out: set[int] = set()
    for key in ("hand", "dealt", "discards", "drawn", "untaken"):
        out |= set(obs[key] or [])
    out |= {d["card"] for d in obs["talon_seen"]}
    for cards in obs["revealed_dealt"].values():
        out |= set(cards)
    for key in ("shown", "pending_shown"):
        for sh in obs[key]:
            out |= set(sh["cards"])
    for t in obs["tricks"]:
        out |= set(t["cards"])
    out |= set(obs["trick"]["cards"])
    for d in obs["dialogue"]:
        if d["kind"] == "add":
            out |= set(d["value"])
    return out


@pytest.mark.parametrize("preset", ["default", "sinking", "younger_zero"])
def test_younger_never_learns_elder_untaken_cards_or_discards(preset: str) -> None:
    """Spec 7, P-5–P-7: Elder's discards and his untaken share never reach Younger."""
    opts = SPEC.all_presets()[preset]
    for seed in range(25):
        st = PiquetState(opts, seed)
        rng = random.Random(seed)
        while not st.is_terminal and st.deal_number == 1:
            if st.e >= 0 and not st.cb[st.elder]:
                yo = st.dealer
                secret = st.discards[st.elder]
                if st.y >= 0:
                    secret |= sum(1 << x for x in st.talon[st.e + st.y:5])
                else:
                    secret |= sum(1 << x for x in st.talon[st.e:5])
                seen = _cards_in(st.observation(yo))
                assert not any(secret >> x & 1 for x in seen)
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])


def test_class_loser_cards_stay_hidden() -> None:
    """P-17: only the class winner shows; the loser's combinations stay hidden (Ex. 10a)."""
    st = deal("A♠ 10♠ 8♠ A♥ 10♥ 8♥ A♦ 10♦ 7♦ 9♣ 8♣ 7♣",
              "J♠ J♥ J♦ J♣ K♠ Q♠ 9♠ Q♥ 9♥ 7♥ 9♦ K♣")
    declare(st)
    play(st, "A♠ 9♠")
    obs_y = st.observation(st.dealer)
    e_sets = m("A♠ A♥ A♦ 10♠ 10♥ 10♦")
    shown = {x for sh in obs_y["shown"] for x in sh["cards"]}
    assert not any(e_sets >> x & 1 for x in shown - {c("A♠")})
    assert {sh["seat"] for sh in obs_y["shown"] if sh["class"] == "set"} == {st.dealer}


@given(hs.integers(min_value=0, max_value=10**9))
@settings(max_examples=60, deadline=None)
def test_property_shown_combinations_belong_to_class_winners(seed: int) -> None:
    """No seat ever shows a combination of a class it did not win."""
    st = _random_declared(seed, Options(sinking=seed % 2 == 1))
    if st.is_terminal:
        return
    st.apply(st.legal_actions()[0])
    for cls, name in enumerate(("point", "sequence", "set")):
        seats = {sh[0] for sh in st.shown if sh[1] == cls}
        assert len(seats) <= 1
        for s in seats:
            assert any(lab == ("Point", "Sequences", "Sets")[cls]
                       for q, _p, lab in st.events if q == s), name


@pytest.mark.parametrize("preset", ["default", *PRESETS])
def test_permute_and_sample_keep_the_observation(preset: str) -> None:
    """permute_unseen / sample_world give the same observation to the seat."""
    opts = SPEC.all_presets()[preset]
    changed = 0
    for seed in range(6):
        st = PiquetState(opts, seed)
        rng = random.Random(seed)
        steps = 0
        while not st.is_terminal and steps < 120:
            if steps % 9 == 0:
                seat = steps // 9 % 2
                perm = SPEC.permute_unseen(st, seat, rng)  # type: ignore[misc]
                assert perm.observation(seat) == st.observation(seat)
                changed += perm.observation(1 - seat) != st.observation(1 - seat)
                world = SPEC.sample_world(st.observation(seat), rng)  # type: ignore[misc]
                assert world.observation(seat) == st.observation(seat)
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
            steps += 1
    assert changed > 0


def test_worlds_after_a_point_of_three_and_no_combinations() -> None:
    """Elder called "Point of three" and passed sequence and set: his hand is 3-3-3-3
    with no run of three and no trio, rare among random hands; worlds are still found."""
    from cardplaza.core.bench import random_steps
    from cardplaza.games.piquet import world

    st = PiquetState(SPEC.all_presets()["younger_zero"], 96076)
    random_steps(st, random.Random(96076), 41)
    obs = st.observation(1)
    elder_said = [d["text"] for d in obs["dialogue"] if d["seat"] == 0]
    assert elder_said == ["Point of three", "No sequence", "No set"]
    for k in range(3):
        perm = SPEC.permute_unseen(st, 1, random.Random(k))  # type: ignore[misc]
        assert perm.observation(1) == obs
        assert isinstance(perm, PiquetState)
        declared = perm.hands[0] | 1 << obs["trick"]["cards"][0]  # Elder has led one card
        assert pc.best_point(declared)[0] == 3
        assert not pc.sequences(declared) and not pc.sets(declared)
    fits = world._bounds(obs, 0)
    assert fits is not None
    assert fits(m("A♠ K♠ 9♠ A♥ Q♥ 8♥ 10♦ 8♦ 7♦ K♣ 10♣ 8♣"))
    assert not fits(m("A♠ K♠ 9♠ 7♠ Q♥ 8♥ 10♦ 8♦ 7♦ K♣ 10♣ 8♣"))  # four spades
    assert not fits(m("A♠ K♠ Q♠ A♥ Q♥ 8♥ 10♦ 8♦ 7♦ K♣ 10♣ 8♣"))  # a tierce
    assert not fits(m("A♠ K♠ 9♠ A♥ Q♥ 8♥ A♦ 8♦ 7♦ K♣ 10♣ 8♣"))  # three aces
    assert world._bounds(dict(obs, options={**obs["options"], "sinking": True}), 0) is None


def test_observation_is_json_and_hides_opponent_hand() -> None:
    """Observations are JSON-ready and never hold the opponent's hand."""
    st = PiquetState(Options(), 9)
    for seat in (0, 1):
        obs = st.observation(seat)
        json.dumps(obs)
        assert not set(obs["hand"]) & {x for x in range(32) if st.hands[1 - seat] >> x & 1}


# --------------------------------------------------------------------------- odds
def test_carte_blanche_probability_exact_and_simulated() -> None:
    """C(20,12)/C(32,12) exactly; 20000 engine deals agree within 4 standard errors."""
    p = carte_blanche_probability()
    assert p == pytest.approx(math.comb(20, 12) / math.comb(32, 12))
    assert (p.numerator, p.denominator) == (323, 578956)
    hits, hands = simulate_carte_blanche(20000, 12345)
    se = math.sqrt(float(p) * (1 - float(p)) / hands)
    assert abs(hits / hands - float(p)) < 4 * se
    table = odds(2000, 1)
    assert table["rows"][0]["exact"] == "323/578956" and "simulated" in table["rows"][0]


def test_carte_blanche_announced_and_scored_at_s1() -> None:
    """5.1–5.4: a court-free hand scores 10 at once; Younger's is only announced."""
    dy = m("A♠ 10♠ 9♠ A♥ 10♥ 9♥ 8♥ 7♥ A♦ 10♦ 9♦ 8♦")
    de = m("K♠ Q♠ J♠ 8♠ K♥ Q♥ J♥ K♦ Q♦ J♦ K♣ Q♣")
    rest = [x for x in range(32) if not (de | dy) >> x & 1]
    st = layout_state(Options(), de, dy, rest)
    yo = st.dealer
    assert st.events == [(yo, 10, "Carte blanche")]
    assert st.observation(st.elder)["deal_score"][yo] == 10


# --------------------------------------------------------------------------- partie
def test_partie_six_deals_alternating_dealer_and_random_first_dealer() -> None:
    """3.1–3.3: six deals, the dealer alternates, the first dealer is random."""
    firsts = set()
    for seed in range(12):
        st = PiquetState(Options(), seed)
        rng = random.Random(seed)
        while not st.is_terminal:
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
        dealers = [sh["dealer"] for sh in st.sheets]
        assert len(dealers) in (6, 8)
        assert all(dealers[i] != dealers[i + 1] for i in range(len(dealers) - 1))
        firsts.add(dealers[0])
        assert st.totals == [sum(sh["counted"][k] for sh in st.sheets) for k in (0, 1)]
        SPEC.check_invariants(st)  # type: ignore[misc]
    assert firsts == {0, 1}


def test_four_deal_partie_doubles_deals_one_and_four() -> None:
    """O3: four deals; deals 1 and 4 counted double."""
    st = PiquetState(Options(four_deals=True), 4)
    rng = random.Random(4)
    while not st.is_terminal:
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    assert [sh["multiplier"] for sh in st.sheets][:4] == [2, 1, 1, 2]


def test_options_invalid_combination_raises() -> None:
    """P-27: four-deal partie and au cent cannot be combined."""
    with pytest.raises(ValueError, match="cannot be combined"):
        Options(four_deals=True, au_cent=True)
    assert Options(au_cent=True).younger_zero and Options(au_cent=True).lead_ten
    assert not Options(au_cent=True, younger_may_exchange_zero="off").younger_zero


# --------------------------------------------------------------------------- forms
def test_parse_discard_and_reasons() -> None:
    """Typed discards, follow-suit reasons and JSON round trips."""
    st = PiquetState(Options(), 2)
    hand = [x for x in range(32) if st.hands[st.elder] >> x & 1]
    text = "discard " + " ".join(pc.cards_text(1 << x) for x in hand[:3])
    action = st.parse_action(text)
    assert action == (EXCH, sum(1 << x for x in hand[:3]))
    assert st.action_from_json(st.action_to_json(action)) == action
    with pytest.raises(ActionParseError):
        st.parse_action("discard banana")
    with pytest.raises(IllegalAction, match=r"1 to 5"):
        st.apply((EXCH, 0))
    st = deal(*EX4)
    declare(st)
    play(st, "A♠")
    reasons = st.illegal_card_reasons()
    assert reasons and all("follow suit" in r for r in reasons.values())
    assert st.illegal_reason(c("A♥")) is not None
    assert "follow suit" in str(st.illegal_reason(c("A♥")))
    with pytest.raises(IllegalAction, match="do not hold"):
        st.apply(c("K♠"))


def test_declaration_reply_must_be_truthful_without_sinking() -> None:
    """P-16: without sinking the only legal reply is the true one."""
    st = deal(*EX6)
    st.apply(st.legal_actions()[0])
    assert [st.action_text(a) for a in st.legal_actions()] == ["Not good"]
    with pytest.raises(IllegalAction, match="truthful"):
        st.apply(st.parse_action("good"))
    assert st.phase == DECL


def test_au_cent_game_ends_and_never_over_when_not_reached() -> None:
    """O8: random au-cent games end with a single or double game."""
    for seed in range(5):
        st = PiquetState(Options(au_cent=True), seed)
        rng = random.Random(seed)
        while not st.is_terminal:
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
        assert st.phase == OVER and st.result is not None
        assert abs(st.result[0]) in (1.0, 2.0)
        assert max(st.totals) >= 100


@pytest.mark.parametrize(("add", "expected"), [("add none", 15), ("add 9♣ 8♣ 7♣", 18)])
def test_sinking_winner_may_withhold_lesser_combinations(add: str, expected: int) -> None:
    """P-33.4: the winner scores his best and only the further combinations he adds;
    those he withholds score nothing and stay hidden."""
    st = deal(*EX6, Options(sinking=True))
    for text in ("call", "not good", "", "call", "good"):
        st.apply(st.parse_action(text))
    assert [st.action_text(a) for a in st.legal_actions()] == ["add none", "add 9♣ 8♣ 7♣"]
    st.apply(st.parse_action(add))
    el, yo = st.elder, st.dealer
    assert sum(p for s, p, lab in st.events if s == el and lab == "Sequences") == expected
    shown = {x for sh in st.observation(yo)["shown"] for x in sh["cards"]}
    assert (c("9♣") in shown) == (expected == 18)


def test_sinking_point_suit_choice_between_tied_suits() -> None:
    """P-10 with O6: the point winner chooses which of two fully tied suits to show."""
    st = deal("A♥ 9♥ 8♥ 7♥ A♦ 9♦ 8♦ 7♦ K♠ J♠ K♣ J♣",
              "Q♠ 10♠ 9♠ Q♥ 10♥ Q♦ 10♦ Q♣ 10♣ 9♣ 8♣ 7♠", Options(sinking=True))
    st.apply(st.parse_action("call"))
    st.apply(st.parse_action("good"))
    assert [st.action_text(a) for a in st.legal_actions()] == ["point ♥", "point ♦"]
    st.apply(st.parse_action("point d"))
    shown = [sh for sh in st.shown if sh[1] == 0]
    assert shown and shown[0][3] == m("A♦ 9♦ 8♦ 7♦")
