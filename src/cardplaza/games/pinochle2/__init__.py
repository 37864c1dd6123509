"""Two-hand Pinochle (2人ピノクル): the human (seat 0) against the computer (seat 1).

Rules: ``rules/pinochle-two-hand.md``. One game = one deal; the higher total of counters
(A/10/K = 10), melds and the last trick (10) wins.

Seats and options
    Seat 0 is the human, seat 1 the computer. ``Options.dealer`` (default 1) deals, so by
    default seat 0 leads trick 1 (spec 2.3); front ends alternate ``dealer`` between games.
    ``double_melds`` (TO1, off), ``new_card_rule`` (TO2, on), ``level`` (TO3, ``"streak"`` or
    a fixed practice level ``"1"``…``"4"``; only exposed, the engine ignores it).

Cards and actions
    Card ``c`` in ``0..47``: ``face = c % 24``, ``copy = c // 24``, ``suit = face // 6``
    (0 ♠, 1 ♥, 2 ♦, 3 ♣), ``rank = face % 6`` (0 9, 1 J, 2 Q, 3 K, 4 10, 5 A). Actions: ``c``
    (play card ``c``), ``48`` (decline to meld), ``(meld_type, card_mask)`` with ``meld_type``
    an index of :data:`engine.MELD_NAMES`. JSON forms: ``{"type": "play", "card": c}``,
    ``{"type": "meld", "meld": "run", "cards": [..]}``, ``{"type": "no_meld"}``. Text forms:
    ``play 10♥``, ``meld run A♥ 10♥ K♥ Q♥ J♥``, ``meld dix 9♣``, ``no meld``; ``#1``/``#2``
    after a card names the physical copy where the two copies in hand differ.

Turn structure
    Step ``play``: leader then follower play one card each. After every stock-phase trick
    (1–12) the winner gets step ``meld``: one legal meld or ``no meld`` (always offered, also
    when no meld is possible, so neither the step sequence nor the observation tells whether
    the winner holds one); the draws are automatic. After trick 12's draws the playoff
    (13–24) starts. Step ``end`` after trick 24.

Observation schema (``state.observation(seat)``; cards are ints, lists sorted by suit then
rank high to low unless stated)
    ``game`` "pinochle2"; ``seat``; ``dealer``; ``options`` (dict); ``level``;
    ``step`` "play" | "meld" | "end"; ``phase`` "stock" | "playoff" | "end";
    ``to_act`` seat or -1; ``trump`` suit int and ``trump_symbol``; ``trick_number`` (1–24,
    the trick in progress or, in the meld step, the one just won);
    ``hand`` own cards (concealed + meld area); ``concealed`` own concealed cards;
    ``hand_sizes`` / ``concealed_sizes`` [seat0, seat1];
    ``meld_areas`` [[cards of seat 0], [cards of seat 1]] (face up, public);
    ``used`` {"sequence"|"pinochle"|"aces"|"kings"|"queens"|"jacks": [cards used in a meld
    of that group]} — the group history of every physical card (public);
    ``meld_area_history`` [[[card, [group keys]], ...] per seat] — the same, per meld-area card;
    ``melds`` list of {seat, meld (name), cards, points, trick (number won), received (card
    taken by a dix exchange or null)} in order made; ``meld_points`` [p0, p1] including
    ``nine_turned_up`` {seat, points: 10} | null (the dealer's 10 for a turned-up 9);
    ``turn_up`` card while under the stock, else null; ``stock_count``;
    ``tricks`` list of {number, leader, cards [led, followed], winner};
    ``current_trick`` {leader, cards [led] or []} or null (meld step, end);
    ``known_held`` [[...], [...]] each seat's concealed cards known to both players (taken
    by a dix exchange, the trick-12 face-down card shown, the trick-12 turn-up) until played;
    ``reveals`` log of {seat, card, how} for those events;
    ``unseen`` the cards whose place this seat cannot know (opponent's other concealed
    cards and the face-down stock; derived from the rest);
    ``result`` null until the end, then {counters [c0, c1], meld_points, last_trick (seat),
    totals, winner (seat or null for a draw), outcome_seat0 "win"|"loss"|"draw"}.
    Running trick points are not given before the end (T-21). The opponent's concealed
    cards and the stock order are never given.
"""

from __future__ import annotations

from cardplaza.core.registry import GameSpec, register
from cardplaza.games.pinochle2.engine import NO_MELD, Options, Pinochle2State
from cardplaza.games.pinochle2.world import check_invariants, permute_unseen, sample_world

__all__ = ["NO_MELD", "SPEC", "Options", "Pinochle2State"]

SPEC = register(GameSpec(
    name="pinochle2",
    title="Two-hand Pinochle",
    title_ja="2人ピノクル",
    options_type=Options,
    new_state=Pinochle2State,
    presets={
        "double_melds": Options(double_melds=True),
        "no_new_card_rule": Options(new_card_rule=False),
        "human_deals": Options(dealer=0),
        "practice_level_4": Options(level="4"),
    },
    check_invariants=check_invariants,
    permute_unseen=permute_unseen,
    sample_world=sample_world,
    levels=("1", "2", "3", "4", "5"),
    hooks={
        "terminal": "cardplaza.games.pinochle2.terminal:View",
        "bench": "cardplaza.games.pinochle2.bench:extra_benchmarks",
        "players": "cardplaza.games.pinochle2.players:make_player",
        "kernels": "cardplaza.games.pinochle2.kernels:KERNELS",
        "rematch": "cardplaza.games.pinochle2.streak:rematch_options",
        "advice": "cardplaza.games.pinochle2.advice:make_advisor",
        "research": "cardplaza.games.pinochle2.research:CODEC",
        "abstraction": "cardplaza.games.pinochle2.abstraction:ABSTRACTION",
    },
))
