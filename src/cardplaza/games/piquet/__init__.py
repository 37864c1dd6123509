"""Piquet (Rubicon Piquet, two players), with every local rule of the spec as an option.

Cards are ints 0..31: ``suit * 8 + r`` with suits ♠ ♥ ♦ ♣ = 0..3 and ``r`` = 0..7 for
7, 8, 9, 10, J, Q, K, A (``cardplaza.core.cards.PIQUET``). Seats are 0 and 1.

Actions
-------
* ``int`` card — play a card to the current trick.
* ``(0, mask)`` — exchange: discard the cards of ``mask`` and draw as many from the talon.
* ``(1, code)`` — a declaration call or reply; codes 0..6 = call, pass, good, not_good,
  ask ("Making?" / "To what?"), equal, show ("Making 48" / "To the king"). Without the
  sinking option each such step has exactly one legal action (the true call/reply).
* ``(2, mask)`` — sinking only: the sequence/set class winner adds further combinations
  (union of their cards; 0 = only the best).
* ``(3, suit)`` — sinking only: which of his equally best point suits the point winner
  shows. With sinking every class winner takes this step (often with a single choice), so
  the step itself reveals nothing.

JSON forms: ``{"play": c}``, ``{"discard": [c, …]}``, ``{"say": "good"}``,
``{"add": [c, …]}``, ``{"point_suit": s}``.

Observation schema (``observation(seat)``; lists of cards are sorted ints)
--------------------------------------------------------------------------
``game`` "piquet"; ``seat``; ``options`` (dict); ``phase`` one of ``exchange_elder``,
``exchange_younger``, ``declare``, ``play``, ``over``; ``to_act`` (seat, -1 at the end);
``deal`` (1-based number of the current deal); ``deals_scheduled`` (6, 4, 8/6 after a tie;
None for au cent); ``extra_deals`` (tie deals added); ``multiplier`` (2 for deals 1 and 4
of a four-deal partie); ``first_dealer``; ``dealer`` (= Younger); ``elder``; ``role``
("elder"/"younger"); ``hand``; ``hand_count`` [n0, n1]; ``dealt`` (own 12 dealt cards);
``discards`` (own discards, None before own exchange); ``drawn`` (own cards taken from the
talon); ``exchanged`` {"elder": e|None, "younger": y|None}; ``talon_count`` (cards still in
the talon, untaken ones after the exchange); ``talon_seen`` (Elder only: his untaken share
``[{"position": i, "card": c}]`` for T(e+1)..T5, in talon order); ``untaken`` (all untaken
cards once shown under option O2, else []); ``carte_blanche`` [bool, bool] (public);
``revealed_dealt`` {"seat": [12 cards]} carte-blanche hands this seat may see (Elder's at
once, Younger's after Elder's exchange; one's own always); ``dialogue`` list of
``{"seat", "class" ("point"/"sequence"/"set"), "kind" ("say"/"add"/"point_suit"/"choose"),
"value", "text"}`` ("choose" = the opponent's hidden sinking choice, not yet shown);
``declaring`` {"class", "stage"} or None; ``shown`` combinations shown so far
``[{"seat", "class", "label", "cards", "points"}]``; ``events`` the deal's credited scores
in order ``[{"seat", "points", "label"}]`` (labels: Carte blanche, Point, Sequences, Sets,
Carte rouge, Repique, Pique, Lead, Capture, Last trick, Cards, Capot); ``deal_score``
[a, b] (sum of ``events``); ``bonus`` "repique"/"pique"/None once credited; ``pending`` /
``pending_shown`` (Younger only, his own declaration scores and combinations not yet
credited/shown — they are credited when Elder leads to trick 1); ``trick`` {"leader",
"cards"}; ``tricks`` completed ``[{"leader", "cards": [lead, follow], "winner"}]``;
``tricks_won`` [a, b]; ``totals`` partie totals; ``sheets`` per finished deal
``{"deal", "dealer", "raw", "multiplier", "counted", "tricks", "complete", "bonus",
"events": [[seat, points, label], …], "last_trick": {"leader", "cards", "winner"}|None}``
(an au-cent partie's last sheet may be incomplete); ``result`` None or ``{"winner",
"double", "rubicon", "value", "text", "returns"}``.

Engine decisions beyond the spec's own
------------------------------------
* With sinking (O6) Elder's pass is always worded "Pass" (also when he holds nothing), a
  Younger who calls after Elder's pass names his best combination, and every class winner
  takes a choice step (what to score), so no step reveals more than the words said.
  Younger's choice is hidden from Elder until his combinations are shown.
* Younger sees his own pending declaration scores (``pending``); Elder does not. When they
  are credited at Elder's first lead they enter ``events`` before Elder's lead point, in
  the order of the deal timeline.
* ``returns()`` before the end are the partie totals; at the end +X / −X (Rubicon), +1/−1
  or +2/−2 (au cent), 0/0 for a draw.

Never in an observation: the opponent's hand, discards and drawn cards (beyond what carte
blanche, shown combinations and played cards reveal), talon cards one has not seen, a class
loser's combinations, and Younger's declaration scores before Elder's first lead.
"""

from __future__ import annotations

from cardplaza.core.registry import GameSpec, register
from cardplaza.games.piquet.options import Options
from cardplaza.games.piquet.state import PiquetState, deals_dealt
from cardplaza.games.piquet.world import check_invariants, permute_unseen, sample_world

PRESETS = {
    "younger_zero": Options(younger_may_exchange_zero="on"),
    "show_untaken": Options(show_untaken=True),
    "four_deals": Options(four_deals=True),
    "carte_rouge": Options(carte_rouge=True),
    "last_trick_ten": Options(last_trick_ten=True),
    "sinking": Options(sinking=True),
    "lead_ten": Options(lead_points_ten_or_higher="on"),
    "au_cent": Options(au_cent=True),
    "au_cent_plain": Options(au_cent=True, younger_may_exchange_zero="off",
                             lead_points_ten_or_higher="off"),
}

SPEC = register(GameSpec(
    name="piquet",
    title="Piquet",
    title_ja="ピケット",
    options_type=Options,
    new_state=PiquetState,
    presets=PRESETS,
    check_invariants=check_invariants,
    permute_unseen=permute_unseen,
    sample_world=sample_world,
    levels=("1", "2", "3", "4", "expert"),
    deals_played=deals_dealt,
    hooks={"terminal": "cardplaza.games.piquet.terminal:View",
           "bench": "cardplaza.games.piquet.bench:extra_benchmarks",
           "players": "cardplaza.games.piquet.players:make_player",
           "advice": "cardplaza.games.piquet.advice:make_advisor",
           "odds": "cardplaza.games.piquet.odds:odds",
           "first_deal_returns": "cardplaza.games.piquet.state:first_deal_returns",
           "kernels": "cardplaza.games.piquet.kernels:KERNELS",
           "research": "cardplaza.games.piquet.research:CODEC"},
))

__all__ = ["SPEC", "Options", "PiquetState"]
