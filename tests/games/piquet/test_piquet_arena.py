"""The first-deal hook the arena uses to measure Piquet one deal at a time."""

from __future__ import annotations

import random

import pytest

from cardplaza.arena.core import play_game, run_arena
from cardplaza.games.piquet import SPEC
from cardplaza.games.piquet.options import Options
from cardplaza.games.piquet.state import PiquetState, first_deal_returns


@pytest.mark.parametrize(("seed", "opts"), [
    (1, Options()), (2, Options()), (3, Options(four_deals=True)),
    (4, Options(au_cent=True)), (5, Options(sinking=True, carte_rouge=True)),
])
def test_first_deal_returns_is_the_first_score_sheet(seed: int, opts: Options) -> None:
    """None during the first deal; then each seat's counted points of that deal, which are
    its events' sum (doubled in a four-deal partie) and what the partie totals gained."""
    st = PiquetState(opts, seed)
    rng = random.Random(seed)
    points: list[int] = [0, 0]
    while not st.sheets:
        assert first_deal_returns(st) is None
        points = list(st.dscore)
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    got = first_deal_returns(st)
    assert got is not None
    sheet = st.sheets[0]
    mult = 2 if opts.four_deals else 1
    for k in (0, 1):
        assert got[k] == sum(p for q, p, _ in sheet["events"] if q == k) * mult
        assert got[k] == sheet["raw"][k] * mult
        assert got[k] >= points[k] * mult
    if not st.is_terminal:
        assert st.totals == [int(got[0]), int(got[1])]
        assert st.deal_number == 2


def test_hook_is_registered_and_paired_deals_swap_elder() -> None:
    """The registered hook is this function; the same deal seed keeps the first dealer, so
    the two seat assignments of a paired deal give each player the elder hand once."""
    assert SPEC.hook("first_deal_returns") is first_deal_returns
    a = PiquetState(Options(), 77)
    b = PiquetState(Options(), 77)
    assert a.elder == b.elder and a.hands == b.hands
    r1 = play_game("piquet", Options(), 77, (0, 1), ("1", "2"), 0, unit="deal")
    r2 = play_game("piquet", Options(), 77, (1, 0), ("1", "2"), 1, unit="deal")
    assert len(r1) == len(r2) == 2
    assert all(x >= 0 for x in r1 + r2)


def test_small_seeded_arena_per_deal() -> None:
    """A seeded per-deal arena of levels 1 and 2 runs in seconds, reproducibly, and level 2
    (sensible exchange and play) comes out ahead of level 1."""
    r1 = run_arena("piquet", ["1", "2"], 12, seed=3, unit="deal")
    r2 = run_arena("piquet", ["1", "2"], 12, seed=3, unit="deal")
    assert r1.pairs[0].margins == r2.pairs[0].margins
    assert r1.pairs[0].deals == 12
    assert r1.pairs[0].mean_margin < 0
