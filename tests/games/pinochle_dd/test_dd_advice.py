"""Double-deck advice: hints from the expert's kernel search, the bid helper from deals
that fit partner's meld bid, reasons that say what partner showed, all from the seat's
observation alone."""

from __future__ import annotations

import random

from dd_helpers import new_dd, set_hands

from cardplaza.ai.advice import Effort, advisor
from cardplaza.games.pinochle_dd.advice import DoubleDeckAdvisor
from cardplaza.games.pinochle_dd.engine import PASS, PLAY, DoubleDeckState, Options
from cardplaza.games.pinochle_dd.players import HeuristicPlayer
from cardplaza.games.pinochle_dd.world import permute_unseen
from cardplaza.texts.catalog import reason_texts


def _mid_play(seed: int) -> DoubleDeckState:
    st = DoubleDeckState(Options(), seed)
    p = HeuristicPlayer("normal")
    rng = random.Random(seed)
    while not (st.phase == PLAY and len(st.tricks) >= 2 and len(st.legal_actions()) > 2):
        st.apply(p.choose(st.observation(st.current_player), st.legal_actions(), rng))
    return st


def test_the_registry_gives_the_double_deck_advisor() -> None:
    assert isinstance(advisor("pinochle_dd"), DoubleDeckAdvisor)


def test_card_hint_values_every_card_and_ignores_hidden_cards() -> None:
    adv = DoubleDeckAdvisor()
    st = _mid_play(3)
    seat = st.current_player
    legal = st.legal_actions()
    ev = adv.evaluate(st.observation(seat), legal, random.Random(1), Effort(scale=0.2))
    assert ev.kind == "play" and ev.worlds == 24
    assert {c.action for c in ev.choices} == set(legal)
    assert ev.best in legal and ev.best_choice().value == max(c.value or 0 for c in ev.choices)
    other = permute_unseen(st, seat, random.Random(8))
    again = adv.evaluate(other.observation(seat), other.legal_actions(), random.Random(1),
                         Effort(scale=0.2))
    assert [(c.action, c.value) for c in again.choices] == \
        [(c.action, c.value) for c in ev.choices]
    reason = adv.reason(st.observation(seat), ev)
    assert reason["parts"][0][0] == "dd.reason.best"
    texts = reason_texts(reason)
    assert f"over {ev.worlds} sampled deals" in texts["en"]
    assert f"{ev.worlds}通りの配り" in texts["ja"]


def test_bid_helper_reads_partners_meld_bid() -> None:
    """North opened 53 (about 30 meld): the helper's deals give North about that much, the
    chances fall as the amount rises, and the hint's reason says what partner showed."""
    st = new_dd(Options(), dealer=1)  # North (2) speaks first, South (0) third
    set_hands(st, {2: "K♥ Q♥ K♥ Q♥ A♠ A♥ A♦ A♣ Q♠ J♦ J♠ Q♣ J♣ 10♠ K♠ J♥ 10♦ K♦ 10♣ K♣"})
    st.apply(st.parse_action("bid 53"))
    st.apply(PASS)
    assert st.turn == 0
    obs = st.observation(0)
    adv = DoubleDeckAdvisor()
    table = adv.helper(obs, st.legal_actions(), random.Random(2), Effort(scale=0.4))
    assert table is not None and table["partner_signal"] == 30
    # What the browser's bid table reads, as for the other Pinochle games.
    assert table["min_bid"] == 50 and table["players"] == 4
    assert table["note_key"] == "dd.helper.note"
    assert all(row["tricks"] == row["counters"] for row in table["suits"])
    assert max(row["partner_meld"] for row in table["suits"]) >= 25
    for row in table["suits"]:
        assert row["chances"] == sorted(row["chances"], reverse=True)
    ev = adv.evaluate(obs, st.legal_actions(), random.Random(2), Effort(scale=0.4))
    assert ev.kind == "bid"
    texts = reason_texts(adv.reason(obs, ev))
    assert "about 30 meld" in texts["en"]
    assert "約30点のメルド" in texts["ja"]


def test_every_double_deck_reason_comes_from_the_catalog_in_both_languages() -> None:
    """Bid, pass and card reasons are catalog sentences with every placeholder filled in
    English and Japanese (strict texts raise on a missing key or placeholder)."""
    adv = DoubleDeckAdvisor()
    seen: set[str] = set()
    for seed in range(3):
        st = DoubleDeckState(Options(), seed)
        p = HeuristicPlayer("normal")
        rng = random.Random(seed)
        while not st.is_terminal and len(st.tricks) < 1:
            seat = st.current_player
            obs, legal = st.observation(seat), st.legal_actions()
            if st.phase in (0, PLAY) and len(legal) > 1:
                ev = adv.evaluate(obs, legal, random.Random(seed), Effort(scale=0.1))
                reason = adv.reason(obs, ev)
                seen.update(key for key, _ in reason["parts"])
                texts = reason_texts(reason)
                assert texts["en"] and texts["ja"] and "{" not in texts["en"] + texts["ja"]
                assert texts["ja"] != texts["en"]
            st.apply(p.choose(obs, legal, rng))
    assert {"dd.reason.best", "dd.reason.bid", "dd.partner_shown"} <= seen


def test_meld_odds_are_exact_and_agree_with_dealt_hands() -> None:
    """The ``odds`` hook: exact chances from the counting formula, each within four
    standard errors of its frequency in hands dealt by the engine, any-suit runs above
    a named suit's, doubles below singles."""
    from fractions import Fraction
    from math import comb

    from cardplaza.core.registry import get_game
    from cardplaza.games.pinochle_dd.odds import at_least

    table = get_game("pinochle_dd").hook("odds")(1500, 5)
    rows = {(r["meld"], r["scope"]): r for r in table["rows"]}
    assert all(abs(r["deviation_se"]) < 4 for r in table["rows"])
    assert rows[("run", "any suit")]["probability"] > rows[("run", "named suit")]["probability"]
    assert rows[("double pinochle", "hand")]["probability"] < \
        rows[("pinochle", "hand")]["probability"]
    # Q♠ and J♦ at least once each: 1 − P(no Q♠) − P(no J♦) + P(neither).
    p = 1 - 2 * Fraction(comb(76, 20), comb(80, 20)) + Fraction(comb(72, 20), comb(80, 20))
    assert rows[("pinochle", "hand")]["fraction"] == f"{p.numerator}/{p.denominator}"
    assert at_least(frozenset({1, 2}), 1) == p
