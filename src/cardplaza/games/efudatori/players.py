"""Computer players for E-fuda-tori, levels "1" (random) to "4".

* ``1`` — uniformly random legal card.
* ``2`` — heuristic from the observation: wins tricks holding picture cards as cheaply and
  safely as it can (estimating which unseen Joker, ♠A and high trumps may still come),
  never feeds its own pictures to an opponent's trick, keeps cards of the suits that will be
  trump in the next tricks, hunts the Joker by leading the ♠3, spends the Joker once the
  ♠3 is gone and the ♠A when the Joker cannot beat it, and values completing K-Q-J sets.
* ``3`` — perfect-information Monte Carlo over sampled worlds, with fast rollouts.
* ``4`` — the same search with more worlds, breaking ties with the level-2 heuristic.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from cardplaza.ai.pimc import PIMCPlayer
from cardplaza.ai.player import Player, RandomPlayer
from cardplaza.core.cards import bits
from cardplaza.core.protocol import Action, GameState
from cardplaza.games.efudatori import rules
from cardplaza.games.efudatori.rules import (
    FACE_POINTS,
    JOKER,
    JOKER_BIT,
    SET_MASKS,
    SPADE_ACE,
    SPADE_THREE,
    SPADE_THREE_BIT,
)
from cardplaza.games.efudatori.state import EfudatoriState

LEVELS = ("1", "2", "3", "4")


def points(c: int) -> int:
    """Face points of one card (0 for non-pictures and the Joker)."""
    return 0 if c == JOKER else FACE_POINTS.get(c % 13, 0)


def _beats(challenger: int, best: int, trick_number: int, led: int,
           joker_in: bool, three_in: bool) -> bool:
    """Would ``challenger`` played later take the trick from the current ``best`` card?"""
    if best == SPADE_THREE and joker_in:
        return False
    if challenger == SPADE_THREE:
        return joker_in
    if challenger == JOKER:
        return best != SPADE_THREE
    if best == JOKER:
        return False
    if challenger == SPADE_ACE:
        return True
    if best == SPADE_ACE:
        return False
    trump = rules.trump_of(trick_number)
    cs, bs = challenger // 13, best // 13
    if cs == trump:
        return bs != trump or challenger > best
    if bs == trump:
        return False
    return cs == bs == led and challenger > best


class HeuristicPlayer:
    """Level 2: one-trick look-ahead with card-keeping values (observation only)."""

    name = "heuristic"

    def choose(self, observation: dict[str, Any], legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        """Best card by the estimated value of this trick minus the value of spending it."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        values = self.card_values(observation, legal_actions)
        best = max(values.values())
        return next(a for a in legal_actions if values[a] >= best - 1e-9)

    def card_values(self, obs: dict[str, Any], legal: Sequence[Action]) -> dict[Action, float]:
        """Heuristic value of playing each legal card."""
        n = obs["players"]
        me = obs["seat"]
        k = obs["trick_number"]
        hand = rules.mask_of_list(obs["hand"])
        trick = [c for _, c in obs["trick"]]
        played = rules.mask_of_list(trick)
        for t in obs["tricks"]:
            for _, c in t["cards"]:
                played |= 1 << c
        known_others = 0
        for p in range(n):
            if p != me:
                known_others |= rules.mask_of_list(obs["known_cards"][p])
        deck = rules.mask_of_list(obs["deck"])
        unseen = deck & ~played & ~hand & ~known_others
        unseen_n = max(unseen.bit_count(), 1)
        later = [(me + i) % n for i in range(1, n - len(trick))]
        later_known = 0
        slots = 0
        for p in later:
            later_known |= rules.mask_of_list(obs["known_cards"][p])
            slots += obs["hand_sizes"][p] - len(obs["known_cards"][p])
        q = min(1.0, slots / unseen_n)  # chance one unseen card sits with a later player
        captured_me = rules.mask_of_list(obs["captured"][me])
        trick_pts = sum(points(c) for c in trick)
        led = -1 if not trick or trick[0] == JOKER else trick[0] // 13
        out: dict[Action, float] = {}
        for a in legal:
            assert isinstance(a, int)
            c = a
            new_trick = [*trick, c]
            lead_suit = c // 13 if not trick and c != JOKER else led
            joker_in = JOKER in new_trick
            three_in = SPADE_THREE in new_trick
            win_now = rules.trick_winner_index(new_trick, k) == len(trick)
            value = 0.0
            pts = trick_pts + points(c)
            if win_now:
                p_beat = 0.0
                if later:
                    hold = 1.0
                    for t in bits((unseen | later_known) & ~(1 << c)):
                        if _beats(t, c, k, lead_suit, joker_in, three_in):
                            hold *= 1.0 - (1.0 if later_known >> t & 1 else q)
                    p_beat = 1.0 - hold
                expected_more = 3.0 * len(later)
                gain = pts + expected_more + self._set_bonus(captured_me, new_trick)
                value += (1.0 - p_beat) * gain - p_beat * (pts + 2.0 * points(c))
                if c == SPADE_THREE and joker_in:
                    value += 10.0  # the Joker captured
            else:
                value -= 1.5 * points(c)
                if trick and c == JOKER:
                    value -= 5.0
            # The ♠3 while the Joker is unseen forces a later holder to give it up (F1).
            if c == SPADE_THREE and unseen & JOKER_BIT and later:
                value += q * 25.0
            value -= self._keep_value(c, hand, played, k)
            out[a] = value
        return out

    @staticmethod
    def _set_bonus(captured: int, trick: list[int]) -> float:
        got = captured | rules.mask_of_list(trick)
        bonus = 0.0
        for m in SET_MASKS:
            if got & m == m and captured & m != m:
                bonus += 15.0
        return bonus

    @staticmethod
    def _keep_value(c: int, hand: int, played: int, k: int) -> float:
        """What the card is worth in later tricks (lost when it is played now)."""
        if c == JOKER:
            return 15.0 if played & SPADE_THREE_BIT or hand & SPADE_THREE_BIT else 10.0
        if c == SPADE_ACE:
            return 12.0 if played & JOKER_BIT or hand & JOKER_BIT else 8.0
        if c == SPADE_THREE:
            return 4.0 if not played & JOKER_BIT and not hand & JOKER_BIT else 0.0
        suit = c // 13
        rank = c % 13
        value = 0.3 * rank / 12.0
        for ahead in (1, 2, 3):
            if rules.trump_of(k + ahead) == suit:
                value += (4.0 - ahead) * rank / 12.0
        value += 0.25 * points(c)
        return value


def fast_rollout(state: GameState, rng: random.Random) -> Action:
    """Cheap rollout policy on a complete state: win pictures cheaply, else discard low."""
    assert isinstance(state, EfudatoriState)
    legal = state.legal_mask()
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    if rng.random() < 0.1:
        cards = list(bits(legal))
        return cards[rng.randrange(len(cards))]
    trick = state.trick
    k = state.trick_number
    last = len(trick) == state.num_players - 1
    pts = 0
    for c in trick:
        pts += points(c)
    best_win, best_win_cost = -1, 1e9
    best_low, best_low_cost = -1, 1e9
    for c in bits(legal):
        cost = _static_cost(c, k)
        if trick:
            new = [*trick, c]
            wins = rules.trick_winner_index(new, k) == len(trick)
        else:
            wins = c in (JOKER, SPADE_ACE) or (c // 13 == rules.trump_of(k) and c % 13 >= 10)
        if wins and cost < best_win_cost:
            best_win, best_win_cost = c, cost
        low_cost = cost + 2.0 * points(c)
        if low_cost < best_low_cost:
            best_low, best_low_cost = c, low_cost
    if best_win >= 0 and (pts > 0 or (last and best_win_cost < 3.0) or not trick):
        return best_win
    return best_low


def _static_cost(c: int, k: int) -> float:
    if c == JOKER:
        return 12.0
    if c == SPADE_ACE:
        return 9.0
    if c == SPADE_THREE:
        return 3.0
    rank = c % 13
    cost = rank / 12.0
    if rules.trump_of(k + 1) == c // 13 or rules.trump_of(k + 2) == c // 13:
        cost += 1.5 * rank / 12.0
    return cost


def make_player(level: str, seed: int = 0) -> Player:
    """The computer player of a level ``"1"`` … ``"4"`` (``seed`` is unused: choices draw
    on the RNG the caller passes)."""
    from cardplaza.games.efudatori import SPEC

    if level == "1":
        return RandomPlayer()
    if level == "2":
        return HeuristicPlayer()
    if level == "3":
        return PIMCPlayer(SPEC, worlds=16, rollout=fast_rollout, name="efudatori-3")
    if level == "4":
        return PIMCPlayer(SPEC, worlds=48, rollout=fast_rollout, prefer=HeuristicPlayer(),
                          name="efudatori-4")
    raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")


__all__ = ["LEVELS", "HeuristicPlayer", "fast_rollout", "make_player"]
