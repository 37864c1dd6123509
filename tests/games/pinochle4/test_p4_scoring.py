"""Hand scoring (section 13, examples S1–S11), throw-in (section 10) and end of game
(section 14, examples G1–G3)."""

from __future__ import annotations

import random

import pytest
from p4_helpers import new4

from cardplaza.core.registry import get_game
from cardplaza.games.pinochle4.engine import (
    K_BID,
    K_JUMP,
    PASS,
    PLAY,
    Options,
    game_winner,
    hand_scores,
    is_throw_in,
)
from cardplaza.games.pinochle4.meld import meld_total

# (case, bid, bidders meld, bidders trick pts, defenders meld, defenders trick pts,
#  bidders score, defenders score)
HANDS = [
    ("S1", 300, 160, 170, 40, 80, 330, 120),
    ("S2", 300, 120, 150, 50, 100, -300, 150),
    ("S4", 250, 100, 250, 80, 0, 350, 0),
    ("S5", 250, 120, 240, 80, 10, 360, 90),
    ("S6", 250, 130, 250, 60, 0, 380, 0),
    ("S7", 250, 260, 0, 30, 250, 260, 280),
    ("S8", 300, 110, 190, 20, 60, 300, 80),
]


@pytest.mark.parametrize(("case", "bid", "mb", "tb", "md", "td", "sb", "sd"), HANDS,
                         ids=[h[0] for h in HANDS])
def test_example_s_hand_scores(case: str, bid: int, mb: int, tb: int, md: int, td: int,
                               sb: int, sd: int) -> None:
    """Section 20.6 S1, S2, S4–S8 (10-point counting, scheme A); bidders are side 0."""
    assert not is_throw_in(mb, bid)
    delta, made = hand_scores(bid, 0, [mb, md], [tb, td])
    assert delta == [sb, sd], case
    assert made == (sb > 0)
    # The same with the bidders as side 1.
    assert hand_scores(bid, 1, [md, mb], [td, tb])[0] == [sd, sb]


def test_example_s3_seed003_set() -> None:
    """S3: bid 310, total 300 → −310."""
    delta, made = hand_scores(310, 0, [100, 0], [200, 50])
    assert delta[0] == -310 and not made


def test_example_s9_throw_in() -> None:
    """S9: bid 400, meld 140: 390 < 400 → bidders −400, defenders +70; meld 150 plays."""
    assert is_throw_in(140, 400)
    assert hand_scores(400, 0, [140, 70], None) == ([-400, 70], False)
    assert not is_throw_in(150, 400)


def test_example_s10_one_point() -> None:
    """S10: 1-point counting: bid 30, meld 16 + 17 → +33; defenders 4 + 8 → +12."""
    assert not is_throw_in(16, 30, 25)
    assert hand_scores(30, 0, [16, 4], [17, 8]) == ([33, 12], True)


def test_example_s11_scheme_b() -> None:
    """S11: scheme B: bid 250, 100 + 153 → +253; defenders 40 + 97 → +137."""
    assert hand_scores(250, 0, [100, 40], [153, 97]) == ([253, 137], True)


def test_example_g1_double_finish_bidders_win() -> None:
    """G1: N–S (bidders) 1510, E–W 1570: N–S win."""
    assert game_winner([1510, 1570], 0, 1500) == 0


def test_example_g2_set_bidders_opponents_win() -> None:
    """G2: N–S set to 1150, E–W 1540: E–W win."""
    assert game_winner([1150, 1540], 0, 1500) == 1


def test_example_g3_game_continues() -> None:
    """G3: N–S −200 after a set; nobody reached 1500: the game continues."""
    assert game_winner([-200, 900], 0, 1500) == -1


def _to_meld(st: object, trump: int) -> None:
    """Bid by seat 0 at the first bid, all others pass, name ``trump`` (no passing)."""
    st.apply((K_BID, st.next_bid_min()))  # type: ignore[attr-defined]
    for _ in range(3):
        st.apply(PASS)  # type: ignore[attr-defined]
    st.apply((1, trump))  # type: ignore[attr-defined]


def test_throw_in_through_the_engine() -> None:
    """An impossible bid ends the hand right after meld: −bid, defenders their meld."""
    st = new4(Options(passing=0), seed=5, dealer=3)
    trump = 0
    team = meld_total(st.hands[0], trump) + meld_total(st.hands[2], trump)
    other = meld_total(st.hands[1], trump) + meld_total(st.hands[3], trump)
    st.apply((K_JUMP, team + 260))
    for _ in range(3):
        st.apply(PASS)
    st.apply((1, trump))
    assert st.log[-1]["throw_in"]
    assert st.scores == [-(team + 260), other]
    assert st.hand_no == 2 and st.dealer == 0


def test_played_hand_scores_and_totals_through_the_engine() -> None:
    """Random play of many hands: trick points total 250 and scores follow section 13."""
    for seed in range(6):
        st = new4(Options(passing=0), seed=seed, dealer=3)
        _to_meld(st, seed % 4)
        assert st.phase == PLAY and st.turn == 0  # DECISION P-24: the bid winner leads
        rng = random.Random(seed)
        while st.hand_no == 1:
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
        entry = st.log[-1]
        tp = entry["trick_points"]
        assert sum(tp) == 250
        delta, _ = hand_scores(250, 0, entry["side_melds"], tp)
        assert entry["score_change"] == delta == st.scores


def test_double_finish_game_names_the_bidders_as_winners() -> None:
    """G1 in a whole game: both sides pass 500, the bidders with fewer points win.

    ``returns()`` stays the side scores; ``winners()`` follows section 14.
    """
    spec = get_game("pinochle4")
    st = spec.new_game(spec.options({"target": 500}), 273)
    rng = random.Random(273)
    while not st.is_terminal:
        st.apply(rng.choice(list(st.legal_actions())))
    assert st.returns() == (530.0, 570.0, 530.0, 570.0)
    assert st.last_hand is not None and st.last_hand["bidder"] in (0, 2)
    assert st.winners() == (0, 2)
