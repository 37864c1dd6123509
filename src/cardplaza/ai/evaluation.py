"""What a search thinks of every candidate action: the form hints and reviews build on."""

from __future__ import annotations

from dataclasses import dataclass

from cardplaza.core.protocol import Action


@dataclass(frozen=True)
class ActionEvaluation:
    """One candidate action as the search sees it, from the deciding seat's side.

    ``points``: expected result in the game's points — the seat's (or its side's) score
    minus the mean of the others' — over the sampled worlds, or exact in a solved
    position. ``chance``: the probability of ``chance_of`` (e.g. ``"win"``: the deal is
    won; ``"contract made"``: the bidding side makes its bid) over the same worlds, or
    ``None``. ``worlds``: sampled worlds behind the figures (0 when ``exact``).
    """

    action: Action
    points: float
    chance: float | None
    chance_of: str | None
    worlds: int
    exact: bool = False
