"""A small abstraction of two-hand Pinochle for tabular learning (the research adapters'
``abstraction`` hook): a handful of move kinds in place of cards and an information-state
key of coarse features that recur from deal to deal.

Move kinds: lead a low side card, a side ace, a low or a high trump; follow by winning as
cheaply as possible, winning with a trump, or ducking with the cheapest card; after a won
stock trick meld the best meld or nothing. Each kind stands for one card (or meld) worked
out from the hand of the seat to act. The key: the step, leading or following, stock or
playoff, how much of the stock is left, trumps and side aces held, what was led (trump, a
counter, an ace), the score so far (behind, level, ahead) and which move kinds exist.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from cardplaza.core.cards import bit_list
from cardplaza.core.protocol import Action, GameState
from cardplaza.games.pinochle2.engine import (
    ACE,
    HIGHER,
    MELD_POINTS,
    NO_MELD,
    POINTS,
    RANK_OF,
    STEP_MELD,
    SUIT_MASK,
    SUIT_OF,
    Pinochle2State,
)

MOVES = ("lead low side card", "lead side ace", "lead low trump", "lead high trump",
         "win cheaply", "win with a trump", "duck", "meld the best", "no meld")
"""The move kinds (action numbers of the abstract game)."""
LEAD_LOW, LEAD_ACE, LEAD_LOW_TRUMP, LEAD_HIGH_TRUMP, WIN_CHEAP, WIN_TRUMP, DUCK, MELD, \
    PASS = range(len(MOVES))


def _cheapest(cards: list[int], trump: int) -> int:
    """The card one gives away most easily: no points, not a trump, low rank."""
    return min(cards, key=lambda c: (POINTS[c], SUIT_OF[c] == trump, RANK_OF[c], c))


def abstract(state: GameState) -> tuple[str, list[Action | None]]:
    """The key of the seat to act and, per move kind, the action it stands for (``None``
    where the kind does not exist here). Only the seat's own view is read: its hand, trump,
    the led card, the stock's size, the points taken and melded, the melds it may make."""
    assert isinstance(state, Pinochle2State)
    seat = state.turn
    moves: list[Action | None] = [None] * len(MOVES)
    trump = state.trump
    hand = state.hands[seat]
    trumps = hand & SUIT_MASK[trump]
    side_aces = sum(1 for c in bit_list(hand & ~trumps) if RANK_OF[c] == ACE)
    mine = state.counters[seat] + state.meld_points[seat]
    theirs = state.counters[1 - seat] + state.meld_points[1 - seat]
    score = "behind" if mine < theirs - 20 else "ahead" if mine > theirs + 20 else "level"
    stock = len(state.stock)
    common = (f"t{min(trumps.bit_count(), 5)}a{min(side_aces, 3)}s{(stock + 7) // 8}"
              f"{score[0]}")
    if state.step == STEP_MELD:
        if state.pending:
            best = max(state.pending, key=lambda m: (MELD_POINTS[m[0]], m))
            moves[MELD] = best
            worth = MELD_POINTS[best[0]]
            common += "m" + ("20" if worth <= 20 else "40" if worth <= 40 else
                             "100" if worth <= 100 else "big")
        moves[PASS] = NO_MELD
        return f"meld {common} {_available(moves)}", moves
    legal = bit_list(state.legal_mask())
    lead = state.lead
    if lead < 0:
        side = [c for c in legal if SUIT_OF[c] != trump]
        trump_cards = [c for c in legal if SUIT_OF[c] == trump]
        low_side = [c for c in side if RANK_OF[c] != ACE]
        if low_side:
            moves[LEAD_LOW] = _cheapest(low_side, trump)
        aces = [c for c in side if RANK_OF[c] == ACE]
        if aces:
            moves[LEAD_ACE] = aces[0]
        if trump_cards:
            moves[LEAD_LOW_TRUMP] = min(trump_cards, key=lambda c: (RANK_OF[c], c))
            moves[LEAD_HIGH_TRUMP] = max(trump_cards, key=lambda c: (RANK_OF[c], -c))
        role = "lead"
    else:
        led_suit = SUIT_OF[lead]
        winners = [c for c in legal
                   if (SUIT_OF[c] == led_suit and HIGHER[lead] >> c & 1)
                   or (SUIT_OF[c] == trump and led_suit != trump)]
        losers = [c for c in legal if c not in winners]
        if winners:
            moves[WIN_CHEAP] = min(winners, key=lambda c: (SUIT_OF[c] == trump, RANK_OF[c],
                                                          c))
            trump_winners = [c for c in winners if SUIT_OF[c] == trump]
            if trump_winners and led_suit != trump:
                moves[WIN_TRUMP] = min(trump_winners, key=lambda c: (RANK_OF[c], c))
        if losers:
            moves[DUCK] = _cheapest(losers, trump)
        role = ("follow " + ("T" if led_suit == trump else "s")
                + ("c" if POINTS[lead] else "n") + ("A" if RANK_OF[lead] == ACE else ""))
    phase = "stock" if stock else "playoff"
    return f"{role} {phase} {common} {_available(moves)}", moves


def _available(moves: Sequence[Action | None]) -> str:
    return "".join("1" if m is not None else "0" for m in moves)



class Abstraction(NamedTuple):
    """The hook: the move kinds' names and the function."""

    moves: tuple[str, ...]
    abstract: Callable[[GameState], tuple[str, list[Action | None]]]


ABSTRACTION = Abstraction(MOVES, abstract)

__all__ = ["ABSTRACTION", "DUCK", "LEAD_ACE", "LEAD_HIGH_TRUMP", "LEAD_LOW", "LEAD_LOW_TRUMP",
           "MELD", "MOVES", "PASS", "WIN_CHEAP", "WIN_TRUMP", "Abstraction", "abstract"]
