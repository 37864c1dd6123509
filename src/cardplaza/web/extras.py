"""Helpers computed for a seat from its own observation only (never from the full state).

Four-hand and cut-throat Pinochle: the bidding helper's meld of the seat's hand for each
possible trump suit.
"""

from __future__ import annotations

from typing import Any

from cardplaza.core.cards import mask_of


def _pinochle_helper(obs: dict[str, Any]) -> dict[str, Any] | None:
    if obs.get("phase") not in ("bidding", "trump"):
        return None
    from cardplaza.games.pinochle4.meld import meld_totals

    options = obs.get("options") or {}
    totals = meld_totals(mask_of(obs.get("hand") or []), bool(options.get("extra_kq", True)))
    div = 10 if options.get("one_point") else 1
    return {"meld_by_suit": [t // div for t in totals]}


HELPERS = {"pinochle4": _pinochle_helper, "pinochle3": _pinochle_helper}


def extras(game: str, obs: dict[str, Any]) -> dict[str, Any] | None:
    """Extra facts for a seat's view, computed from its observation; ``None`` if none."""
    fn = HELPERS.get(game)
    return fn(obs) if fn is not None else None
