"""Facts computed for a seat from its own observation only (the registry's ``seat_extras``
hook): the meld the seat's own cards would show with each trump suit, for the bidding and
the choice of trump."""

from __future__ import annotations

from typing import Any

from cardplaza.games.pinochle_dd.meld import meld_totals
from cardplaza.games.pinochle_dd.rules import mask_of_faces


def seat_extras(obs: dict[str, Any]) -> dict[str, Any] | None:
    """``{"meld_by_suit": [♠, ♥, ♦, ♣]}`` (shown scale) while bidding or naming trump, else
    ``None``."""
    if obs.get("phase") not in ("bidding", "trump"):
        return None
    scale = int(obs.get("scale") or 1)
    totals = meld_totals(mask_of_faces(obs.get("hand") or []))
    return {"meld_by_suit": [t * scale for t in totals]}
