"""Partnership Pinochle (ピノクル, four hands) and its cut-throat variant (three hands).

Rules: the partnership Pinochle specification (decisions P-1 … P-44, C-1 … C-11). A state
is a whole game: hands are dealt with the state's seeded RNG until a side reaches the target.

Cards are :data:`cardplaza.core.cards.PINOCHLE` ids ``face + 24 * copy`` with
``face = suit * 6 + rank``; suits 0..3 = ♠ ♥ ♦ ♣, rank positions 0..5 = 9 J Q K 10 A.
Seats are numbered clockwise; in four hands team 0 is seats 0 and 2 (N-S), team 1 seats 1
and 3 (E-W); in cut-throat every seat scores alone ("side" = seat).

Actions are pairs ``(kind, value)``: ``(0, 0)`` pass, ``(0, n)`` bid the lowest legal
amount n, ``(5, n)`` a jump bid n above it (legal but not enumerated by ``legal_actions``,
which lists only the pass and the lowest bid), ``(1, suit)`` name trump, ``(2, card)``
pass one card to partner (N cards one at a time), ``(3, card)`` discard one card
(cut-throat bid winner, three times), ``(4, card)`` play a card. No bid may exceed
``max_bid``, the most a side can ever score in a hand (its largest possible meld plus every
trick point; DECISION P-8 sets no maximum, but a higher bid could never be made).
JSON: ``{"kind": "pass"}``, ``{"kind": "bid", "amount": n}``, ``{"kind": "trump",
"suit": s}``, ``{"kind": "give" | "discard" | "play", "card": c}``. Text: ``pass``,
``bid 260`` (or ``260``), ``trump ♠`` (``♠``/``s`` when naming trump), ``give A♠``,
``discard A♠``, a card ``A♠``/``10h``, or ``1`` … a number of the menu
(:meth:`PinochleState.choices`). All amounts are in the active units (divided by 10 with
1-point counting).

Observation schema (``state.observation(seat)``; JSON-ready, exactly section 17):

``game``, ``seat``, ``players``    ``"pinochle4"``/``"pinochle3"``, observer, 4 or 3
``options``          the options as a dict
``hand_number``      1-based number of the current hand (redeals count)
``dealer``           dealer of the current hand
``phase``            ``bidding`` | ``trump`` | ``passing`` | ``discard`` | ``play`` | ``over``
``to_act``           seat to act, -1 when the game is over
``scores``           per side (teams in four hands, seats in cut-throat)
``target``           target in the active units
``winner``           winning side once over, else null
``hand``             the observer's own cards, sorted (suit ♠♥♦♣, high to low)
``hand_sizes``       cards held by each seat (cards being passed are not counted)
``bids``             ``[[seat, amount], …]`` of this hand in order; amount 0 = pass
``passed``           per seat, has passed in this auction
``high_bid``, ``high_bidder``   current high bid and its seat (null if none)
``min_bid``, ``bid_step``       first-bid minimum and step
``max_bid``          highest legal bid: the most a side can ever score in a hand (its
                     largest possible meld plus every trick point, ``rules.max_side_score``)
``bidder``, ``contract``        bid winner and contract once known (else null)
``stuck_dealer``     true if the dealer took the minimum after three (two) passes
``trump``            trump suit 0..3 once named, else null
``passing``          four hands only: ``{"count", "giver" (seat choosing now or null),
                     "pending_count", "selected" (the giver's own choice so far, only
                     for the giver), "gave", "received" (only for the bid winner and
                     partner: the cards this seat gave / got), "done" (per seat)}``
``widow``            cut-throat: the exposed widow once the bid is won, else null
``discards``         cut-throat: the discards, only for the bid winner (else null)
``discard_count``    cut-throat: number of cards discarded so far
``melds``            after meld, per seat ``{"value", "cards", "melds": [{"key", "name",
                     "class", "value", "cards", "suit"}]}``, else null
``leader``           leader of the current trick during play
``trick``            current trick ``[[seat, card], …]``
``tricks``           completed tricks of this hand ``{"leader", "cards", "winner"}``
``tricks_won``       tricks won by each seat this hand
``last_hand``        the previous hand's result (bid, melds with details, trick points,
                     score change, last trick, cut-throat widow) or null
``history``          one summary per finished hand: ``{"hand", "dealer", "redeal",
                     "bidder", "bid", "trump", "melds", "side_melds", "throw_in", "made",
                     "trick_points", "score_change", "scores", …}``

Hidden from everybody else: other hands, the giver's selection, which cards the other
side passed, the face-down widow, the cut-throat discards, and the seed.
"""

from __future__ import annotations

from dataclasses import fields

from cardplaza.core.registry import GameSpec, register
from cardplaza.games.pinochle4.engine import (
    CutthroatOptions,
    CutthroatState,
    Options,
    PinochleState,
    hands_dealt,
    hands_redealt,
)
from cardplaza.games.pinochle4.world import check_invariants, permute_unseen, sample_world

_ALTERNATIVES = {
    "strength": ("weak", "strong", "expert"),
    "target": (500, 1000, 2000, 2500),
    "one_point": (True,),
    "counters": ("B", "C"),
    "min_bid": (200, 150, 100),
    "passing": (3, 0),
    "beat_only_trump_leads": (True,),
    "extra_kq": (False,),
    "all_pass_redeal": (True,),
}


def _presets(cls: type) -> dict[str, object]:
    names = {f.name for f in fields(cls)}
    out: dict[str, object] = {}
    for key, values in _ALTERNATIVES.items():
        if key not in names:
            continue
        for v in values:
            label = key if isinstance(v, bool) and v else f"{key}_{str(v).lower()}"
            out[label] = cls(**{key: v})
    return out


_HOOKS = {
    "terminal": "cardplaza.games.pinochle4.terminal:View",
    "bench": "cardplaza.games.pinochle4.bench:extra_benchmarks",
    "odds": "cardplaza.games.pinochle4.odds:odds_table",
    "odds_render": "cardplaza.games.pinochle4.odds:render_odds",
    "players": "cardplaza.games.pinochle4.players:make_player",
    "first_deal_returns": "cardplaza.games.pinochle4.world:first_deal_returns",
    "kernels": "cardplaza.games.pinochle4.kernels:KERNELS",
    "advice": "cardplaza.games.pinochle4.advice:make_advisor",
    "seat_extras": "cardplaza.games.pinochle4.seat_helpers:seat_extras",
}

SPEC4 = register(GameSpec(
    name="pinochle4",
    title="Partnership Pinochle",
    title_ja="ピノクル",
    options_type=Options,
    new_state=PinochleState,
    presets=_presets(Options),
    check_invariants=check_invariants,
    permute_unseen=permute_unseen,
    sample_world=sample_world,
    levels=("random", "weak", "normal", "strong", "expert"),
    deals_played=hands_dealt,
    redeals=hands_redealt,
    hooks={**_HOOKS, "research": "cardplaza.games.pinochle4.research:CODEC4"},
))

SPEC3 = register(GameSpec(
    name="pinochle3",
    title="Cut-throat Pinochle",
    title_ja="3人ピノクル",
    options_type=CutthroatOptions,
    new_state=CutthroatState,
    presets=_presets(CutthroatOptions),
    check_invariants=check_invariants,
    permute_unseen=permute_unseen,
    sample_world=sample_world,
    levels=("random", "weak", "normal", "strong", "expert"),
    deals_played=hands_dealt,
    redeals=hands_redealt,
    hooks={**{k: v for k, v in _HOOKS.items() if not k.startswith("odds")},
           "bench": "cardplaza.games.pinochle4.bench:cutthroat_benchmarks",
           "research": "cardplaza.games.pinochle4.research:CODEC3"},
))

__all__ = ["SPEC3", "SPEC4", "CutthroatOptions", "CutthroatState", "Options", "PinochleState"]
