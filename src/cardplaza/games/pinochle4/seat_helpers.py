"""Facts computed for a seat from its own observation only (the registry's ``seat_extras``
hook): during the auction and the choice of trump, the meld of the seat's hand for each
possible trump suit, which the bidding helper shows."""

from __future__ import annotations

from typing import Any

from cardplaza.core.cards import mask_of
from cardplaza.games.pinochle4.meld import meld_totals


def seat_extras(obs: dict[str, Any]) -> dict[str, Any] | None:
    """``{"meld_by_suit": [♠, ♥, ♦, ♣]}`` while bidding or naming trump, else ``None``."""
    if obs.get("phase") not in ("bidding", "trump"):
        return None
    options = obs.get("options") or {}
    totals = meld_totals(mask_of(obs.get("hand") or []), bool(options.get("extra_kq", True)))
    div = 10 if options.get("one_point") else 1
    return {"meld_by_suit": [t // div for t in totals]}
