"""Double-deck partnership Pinochle (80 cards, four hands of 20).

Rules: the double-deck specification (decisions D-1 … D-6; where it is silent, the
partnership specification). A state is a whole game: hands are dealt with the state's
seeded RNG (one shuffle a hand) until a side reaches the target.

Cards are named by their **face** ``suit * 5 + rank`` (suits 0..3 = ♠ ♥ ♦ ♣, ranks 0..4 =
J Q K 10 A); the four copies of a face are identical, so actions and observations name
faces and repeat a face as often as it is held. Inside the engine a set of cards is a
multiset mask (:mod:`rules`). Amounts are internally in unit scale; actions and
observations use the shown scale (×10 under ``scale = x10``).

Actions are pairs ``(kind, value)``: ``(0, 0)`` pass, ``(0, n)`` bid the lowest allowed
amount ``n``, ``(6, n)`` a meld bid (a raise by 1 to 5 below 60, listed), ``(4, n)`` any
higher jump bid (legal, not listed by ``legal_actions``), ``(1, suit)`` name trump, ``(2,
face)`` pass one card to partner (N cards one at a time), ``(3, face)`` play a card, ``(5,
0)`` throw the hand in (the declarer, before the first lead). JSON: ``{"kind": "pass"}``,
``{"kind": "bid", "amount": n}``, ``{"kind": "trump", "suit": s}``, ``{"kind": "give" |
"play", "card": face}``, ``{"kind": "throw-in"}``. Text: ``pass``, ``bid 52`` (or ``52`` in
the auction), ``trump ♠`` (``♠``/``s`` when naming trump), ``give A♠``, a card
``A♠``/``10h``, ``throw in``, or ``#3`` for item 3 of the menu
(:meth:`DoubleDeckState.choices`).

Observation schema (``state.observation(seat)``; JSON-ready, exactly what the seat sees):

``game``, ``seat``, ``players``   ``"pinochle_dd"``, observer, 4
``options``           the options as a dict
``scale``             1, or 10 under ``x10``: every amount below is in the shown scale
``hand_number``       1-based number of the current hand (redeals count)
``dealer``            dealer of the current hand
``phase``             ``bidding`` | ``trump`` | ``passing`` | ``play`` | ``over``
``to_act``            seat to act, -1 when the game is over
``scores``, ``target``, ``winner``   per side (0 = seats 0 and 2); winning side or null
``hand``              the observer's faces, sorted ♠ ♥ ♦ ♣ high to low, with repeats
``hand_sizes``        cards held by each seat (cards being passed are not counted)
``bids``              ``[[seat, amount], …]`` of this hand in order; amount 0 = pass
``passed``            per seat, has passed in this auction
``high_bid``, ``high_bidder``, ``min_bid``, ``next_bid`` (lowest allowed now, in the
                      auction), ``max_bid`` (the most a side can score in a hand)
``bidder``, ``contract``, ``stuck_dealer``, ``trump``
``passing``           ``{"count", "giver" (seat choosing now or null), "pending_count",
                      "selected" (the giver's own choice so far, only for the giver),
                      "gave", "received" (only the declarer and partner: the faces this
                      seat gave / got), "done" (per seat)}``
``melds``             after passing, per seat ``{"value", "cards", "melds": [{"key",
                      "name", "class", "value", "cards", "suit"}]}``, else null
``counters_total``    counters in a hand (50 or 34, shown scale)
``leader``, ``trick``, ``tricks``, ``tricks_won``   the play of this hand
``history``           one entry per finished hand: dealer, bids, bidder, contract,
                      trump, ``how`` (played, throw_in, no_marriage, min_meld), melds per
                      seat with cards, side melds, counters, tricks per side, made, score
                      change, scores, last trick; ``passes`` (this seat's gave/received)
                      only for the two seats that exchanged, else null

Hidden from everybody else: other hands, the giver's selection, which cards the other
side passed, and the seed.
"""

from __future__ import annotations

from cardplaza.core.registry import GameSpec, register
from cardplaza.games.pinochle_dd.engine import DoubleDeckState, Options, hands_dealt
from cardplaza.games.pinochle_dd.world import check_invariants, permute_unseen, sample_world

PRESETS = {
    "x10": Options(scale="x10"),
    "no_passing": Options(pass_count=0),
    "house_rules": Options(bid_steps="1", all_pass="redeal", marriage_required=True,
                           pass_count=3, must_head=False, first_lead_trump=True,
                           counters="aces-tens", save_meld="one-trick",
                           set_scoring="progressive", min_meld_20=True,
                           throw_in_award="meld-and-counters", target=250),
    "fives_and_tens": Options(bid_steps="5", pass_count=2, save_meld="always",
                              scale="x10", target=1000),
    "tens_from_100": Options(bid_steps="10-from-100", target=300),
}
"""Named tables the conformance suite also runs: the ×10 scale, no passing, and tables
that between them take every other value of every option."""

SPEC = register(GameSpec(
    name="pinochle_dd",
    title="Double-deck Pinochle",
    title_ja="ダブルデック・ピノクル",
    options_type=Options,
    new_state=DoubleDeckState,
    presets=PRESETS,
    check_invariants=check_invariants,
    permute_unseen=permute_unseen,
    sample_world=sample_world,
    levels=("random", "weak", "normal", "strong", "expert"),
    deals_played=hands_dealt,
    hooks={"terminal": "cardplaza.games.pinochle_dd.terminal:View",
           "players": "cardplaza.games.pinochle_dd.players:make_player",
           "advice": "cardplaza.games.pinochle_dd.advice:make_advisor",
           "odds": "cardplaza.games.pinochle_dd.odds:odds_table",
           "odds_render": "cardplaza.games.pinochle_dd.odds:render_odds",
           "kernels": "cardplaza.games.pinochle_dd.kernels:KERNELS",
           "research": "cardplaza.games.pinochle_dd.research:CODEC",
           "seat_extras": "cardplaza.games.pinochle_dd.seat_helpers:seat_extras",
           "first_deal_returns": "cardplaza.games.pinochle_dd.world:first_deal_returns"},
))

__all__ = ["SPEC", "DoubleDeckState", "Options"]
