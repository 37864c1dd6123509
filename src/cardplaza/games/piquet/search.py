"""Fast worlds for Piquet card play: the opponent's hand sampled on bitmasks.

In the trick phase everything hidden that matters is the opponent's remaining hand. The
sampler deals it from the cards this seat has not seen (keeping the cards the opponent is
known to hold and the suits he is known to lack) and accepts a hand only if the opponent's
declaration hand (remaining cards + cards he played) yields exactly the public
declaration record — calls, replies and shown combinations — that the observation holds.
The record of the true deal is read off one world built by the engine's ``sample_world``,
so the sampler never has to parse the dialogue.

Not handled here (the caller falls back to ``sample_world``): sinking (O6), carte rouge
(O4) and an opponent with carte blanche, whose dealt hand is public. One small
simplification: an opponent without carte blanche must have been dealt a court card; the
sampler does not check that his discards could have held one (a hand where it matters is
vanishingly rare).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from cardplaza.core.cards import mask_of
from cardplaza.games.piquet import combos as pc
from cardplaza.games.piquet.kernels import KERNELS
from cardplaza.games.piquet.state import PiquetState

Record = tuple[int, ...]
"""The public record of the automatic declarations as :func:`.kernels.record_code` codes
it (equal records, equal codes)."""


class PlaySampler:
    """Samples the opponent's remaining hand for a trick-phase observation."""

    ref: PiquetState

    def __init__(self, obs: dict[str, Any], rng: random.Random,
                 compiled: bool | None = None) -> None:
        """Prepare from the observation; ``ok`` is False when the caller must use
        ``sample_world`` (the options or positions this sampler does not cover).
        ``compiled``: the form of the kernels that code and compare the records
        (:func:`.kernels.record_matches`; default as configured, the same answers)."""
        self.ok = False
        self._record_code = KERNELS.entry("record_code", compiled)
        self._record_matches = KERNELS.entry("record_matches", compiled)
        self._code = np.zeros(15, dtype=np.int64)
        self._work = np.zeros(15, dtype=np.int64)
        o = obs["options"]
        seat = obs["seat"]
        opp = 1 - seat
        el = obs["elder"]
        if o.get("sinking") or o.get("carte_rouge") or obs["carte_blanche"][opp] \
                or obs["phase"] != "play":
            return
        from cardplaza.games.piquet.world import sample_world

        try:
            ref = sample_world(obs, rng)
        except RuntimeError:
            return
        assert isinstance(ref, PiquetState)
        played = [0, 0]
        voids = 0
        for t in obs["tricks"]:
            a, b = t["cards"]
            lead = t["leader"]
            played[lead] |= 1 << a
            played[1 - lead] |= 1 << b
            if lead == seat and a >> 3 != b >> 3:
                voids |= pc.suit_mask(a >> 3)
        if obs["trick"]["cards"]:
            played[obs["trick"]["leader"]] |= 1 << obs["trick"]["cards"][0]
        mine = mask_of(obs["hand"]) | played[seat]
        known = 0
        for sh in obs["shown"]:
            if sh["seat"] == opp:
                known |= mask_of(sh["cards"])
        seen = 0
        e, y = obs["exchanged"]["elder"], obs["exchanged"]["younger"]
        for d in obs["talon_seen"]:
            seen |= 1 << d["card"]
            if d["position"] <= e + y:
                known |= 1 << d["card"]
        out = mine | mask_of(obs["discards"] or []) | seen | mask_of(obs["untaken"]) | played[opp]
        known &= ~played[opp]
        self.known = known
        self.need = obs["hand_count"][opp] - known.bit_count()
        self.pool = [c for c in range(32) if not (out | known | voids) >> c & 1]
        self.opp_played = played[opp]
        self.mine = mine
        self.seat_is_elder = seat == el
        self.younger_shown = seat != el or bool(obs["tricks"]) or bool(obs["trick"]["cards"])
        self.ref = ref
        """The consistent world the record was read from (its trick position serves the
        search)."""
        self.ref_hand = ref.hands[opp]
        self.target = self.record(ref.hands[opp] | played[opp])
        """The record the opponent's declaration hand must give."""
        self._code[:] = self.target
        self.ok = self.need >= 0 and len(self.pool) >= self.need and \
            ref.hands[opp] & known == known
        self.accepted = self.tried = 0
        self.chain = ref.hands[opp]

    def fits(self, opp_decl: int) -> bool:
        """Whether the opponent's declaration hand ``opp_decl`` gives the public record."""
        return bool(self._record_matches(self.mine, opp_decl, int(self.seat_is_elder),
                                         int(self.younger_shown), self._code, self._work))

    def record(self, opp_decl: int) -> Record:
        """The declaration record with the opponent holding ``opp_decl``."""
        elder, younger = (self.mine, opp_decl) if self.seat_is_elder else (opp_decl, self.mine)
        out = np.zeros(15, dtype=np.int64)
        self._record_code(elder, younger, int(self.younger_shown), out)
        return tuple(out.tolist())

    def sample(self, rng: random.Random, tries: int = 8, moves: int = 8) -> int:
        """The opponent's remaining hand in a world consistent with the observation.

        Up to ``tries`` independent proposals first; when the declarations make those
        rare, a Metropolis walk (swap one hidden card of the hand for one of the pool,
        kept if the record still matches; ``moves`` steps from the last world), whose
        stationary law is the same uniform law over consistent hands."""
        pool, need, known, played = self.pool, self.need, self.known, self.opp_played
        fits = self.fits
        for _ in range(tries):
            self.tried += 1
            hand: int = known
            for c in rng.sample(pool, need):
                hand |= 1 << c
            if fits(hand | played):
                self.accepted += 1
                self.chain = hand
                return hand
        hand = self.chain
        if need == 0 or need == len(pool):
            return hand
        inside = [c for c in pool if hand >> c & 1]
        outside = [c for c in pool if not hand >> c & 1]
        for _ in range(moves):
            i = rng.randrange(len(inside))
            j = rng.randrange(len(outside))
            a, b = inside[i], outside[j]
            cand = hand ^ (1 << a) ^ (1 << b)
            if fits(cand | played):
                hand = cand
                inside[i], outside[j] = b, a
        self.chain = hand
        return hand


__all__ = ["PlaySampler", "Record"]
