"""Piquet options: every local rule of the spec's section 14 (all off by default)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Literal

Tri = Literal["auto", "on", "off"]


@dataclass(frozen=True)
class Options:
    """Rule options of a partie of Piquet.

    ``younger_may_exchange_zero`` (O1) and ``lead_points_ten_or_higher`` (O7) take
    ``"auto"`` (on with Piquet au cent, off otherwise), ``"on"`` or ``"off"``.
    """

    younger_may_exchange_zero: Tri = "auto"
    """O1: Younger may exchange 0 cards (Elder's minimum stays 1)."""
    show_untaken: bool = False
    """O2: the untaken talon cards are shown to both after Elder's first lead."""
    four_deals: bool = False
    """O3: a four-deal partie; every score of deals 1 and 4 is doubled."""
    carte_rouge: bool = False
    """O4: 20 for a hand whose 12 cards all lie in scored combinations."""
    last_trick_ten: bool = False
    """O5: the last trick is worth 10 instead of 1."""
    sinking: bool = False
    """O6: declarations are chosen by the players (best-or-pass, concede, withhold)."""
    lead_points_ten_or_higher: Tri = "auto"
    """O7: only leads of A, K, Q, J or 10 score the lead point."""
    au_cent: bool = False
    """O8: Piquet au cent, the older game to 100 points."""

    def __post_init__(self) -> None:
        for name in ("younger_may_exchange_zero", "lead_points_ten_or_higher"):
            if getattr(self, name) not in ("auto", "on", "off"):
                raise ValueError(f"option {name} must be auto, on or off")
        if self.four_deals and self.au_cent:
            raise ValueError("four_deals (four-deal partie) and au_cent (Piquet au cent) "
                             "cannot be combined: au cent has no fixed number of deals")

    @cached_property
    def younger_zero(self) -> bool:
        """Whether Younger's minimum exchange is 0 (O1, on by default with au cent)."""
        v = self.younger_may_exchange_zero
        return v == "on" or (v == "auto" and self.au_cent)

    @cached_property
    def lead_ten(self) -> bool:
        """Whether only leads of 10 or higher score (O7, on by default with au cent)."""
        v = self.lead_points_ten_or_higher
        return v == "on" or (v == "auto" and self.au_cent)
