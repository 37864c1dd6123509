"""The expert's simulated auction: what the bids show of the other hands, and the sampled
deals that keep to it."""

from __future__ import annotations

import random

from dd_helpers import new_dd, set_hands

from cardplaza.games.pinochle_dd.bidsim import declare_outcomes, sample_deals
from cardplaza.games.pinochle_dd.engine import PASS, Options
from cardplaza.games.pinochle_dd.meld import meld_totals
from cardplaza.games.pinochle_dd.players import auction_signs
from cardplaza.games.pinochle_dd.rules import COPIES, FACES, from_counts

SOUTH = ("A♠ A♥ A♦ A♣ K♠ K♥ K♦ K♣ Q♠ J♦ "
         "10♠ 10♥ 10♦ J♣ J♣ Q♦ Q♦ J♥ 10♣ 10♣")


def test_meld_bids_and_first_passes_bound_the_bidders_meld() -> None:
    """South opens 52 (20 meld shown), West passes at once (under ten), North speaks: the
    signs seen by North; the sampled deals keep North's hand, hold every card four times
    and give South 20 to 29 meld and West under ten."""
    st = new_dd(Options(), dealer=3)
    set_hands(st, {0: SOUTH})
    st.apply(st.parse_action("bid 52"))
    st.apply(PASS)
    obs = st.observation(2)
    signs = auction_signs(obs)
    assert signs == {0: (20, 29), 1: (0, 9)}
    deals = sample_deals(obs, random.Random(3), 12, signs)
    own = [0] * FACES
    for f in obs["hand"]:
        own[f] += 1
    for hands in deals:
        assert hands[2] == own
        assert all(sum(h[f] for h in hands) == COPIES for f in range(FACES))
        assert all(sum(h) == 20 for h in hands)
        assert 20 <= max(meld_totals(from_counts(hands[0]))) <= 29
        assert max(meld_totals(from_counts(hands[1]))) <= 9
    out = declare_outcomes(deals, 2, st.options)
    for s in range(4):
        assert len(out.ours[s]) == len(deals)
        # The two sides' counters add to the hand's 50; saved meld comes on top.
        assert all(o + t >= 50 and min(o, t) >= 0
                   for o, t in zip(out.ours[s], out.theirs[s], strict=True))
        # A higher contract is never worth more.
        assert out.value(s, 50) >= out.value(s, 60) >= out.value(s, 80)
