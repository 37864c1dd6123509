"""Ratings of players from finished games: the rule, without any storage.

The model is openskill's **Plackett–Luce** (Weng–Lin Bayesian approximation): each player
has a skill belief ``mu`` ± ``sigma``; a game's result is a ranking of its sides (teams),
partners share their side's place. Plackett–Luce was chosen over Thurstone–Mosteller
because its win probability between two sides is exactly Bradley–Terry's,
``exp(mu_a / c) / (exp(mu_a / c) + exp(mu_b / c))`` with ``c = sqrt(2·beta² + σ_a² + σ_b²)``,
the same form the arena fits to the computer levels' paired deals
(:mod:`cardplaza.core.strengths`): a level's Bradley–Terry strength ``θ`` becomes
``mu = MU + c·θ`` without any conversion table. It also ranks any number of sides in one
step (three-hand cut-throat has three), which the pairwise Thurstone–Mosteller variants only
approximate.

One game's update (:func:`rate_game`):

* **Places.** The sides are ranked by the game's winners first (rules such as a bidder's
  priority), then by score; equal places share a rank.
* **Leavers.** A person who left and did not come back within the grace period (a
  computer was standing in for them when the game ended) loses: their side is ranked
  below every other side, and their own update is not softened by the stand-in share.
* **Stand-ins.** A seat whose decisions were partly made by a stand-in counts less: its
  weight is ``1 − share`` (at least :data:`MIN_WEIGHT`). openskill's own ``weights``
  argument describes how much each member contributed *within* a side — it rescales each
  side's weights into ``weight_bounds`` (a lone player always gets the top weight) and, on
  a loss, divides by the weight — so it cannot make one player's whole result count less.
  The weight is therefore applied to the library's update: ``mu`` moves by ``weight`` times
  the library's step, and the variance shrinks by ``weight`` times the library's shrink.
* **Computers** take part with their fixed ratings (published in
  ``cardplaza/core/computers.json``); they are never updated.

Shown value (:func:`display`): the conservative estimate ``mu − 3σ`` (openskill's
``ordinal``), scaled as ``DISPLAY_BASE + DISPLAY_SCALE · (mu − 3σ)``: a new player
(mu 25, σ 25/3) shows 1000; a settled player with mu 35, σ 2 shows 2160.

>>> seats = [SeatResult("a", 0, 1), SeatResult("b", 1, 2)]
>>> up = rate_game(seats, {"a": Rating(), "b": Rating()})
>>> up[0].after.mu > 25 > up[1].after.mu
True
>>> display(Rating())
1000
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

__all__ = [
    "BETA", "DISPLAY_BASE", "DISPLAY_SCALE", "MIN_WEIGHT", "MU", "SIGMA", "Rating",
    "SeatResult", "Update", "display", "model", "places", "rate_game", "seat_weight",
]

MU = 25.0
"""A new player's mean skill (openskill's default)."""
SIGMA = 25.0 / 3.0
"""A new player's uncertainty (openskill's default)."""
BETA = 25.0 / 6.0
"""Performance spread of one game (openskill's default)."""
DISPLAY_BASE = 1000
"""The shown value of a conservative estimate of 0 (a new player)."""
DISPLAY_SCALE = 40
"""Shown points per unit of ``mu − 3σ``."""
MIN_WEIGHT = 0.1
"""The least weight of a seat, however many of its decisions a stand-in made."""


@dataclass(frozen=True)
class Rating:
    """A skill belief: mean and standard deviation."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        """The conservative estimate ``mu − 3σ``."""
        return self.mu - 3.0 * self.sigma


def display(rating: Rating) -> int:
    """The value shown for a rating (see the module's notes)."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * rating.ordinal)


@dataclass(frozen=True)
class SeatResult:
    """One seat of a finished game, as the rating sees it."""

    player: str | None
    """The rated player's id; ``None`` for a computer (then ``fixed`` is its rating)."""
    team: int
    """The side the seat plays for (partners share one)."""
    rank: int
    """The side's place, 1 = best; equal places tie."""
    standin_share: float = 0.0
    """The share of the seat's decisions a computer made for the person (0…1)."""
    left: bool = False
    """The person left and did not return within the grace period."""
    fixed: Rating | None = None
    """A computer's fixed rating."""


@dataclass(frozen=True)
class Update:
    """The change of one person's rating."""

    seat: int
    player: str
    before: Rating
    after: Rating
    weight: float
    rank: int
    """The place the update used (a leaver's side is last)."""


def model() -> PlackettLuce:
    """The rating model with this module's constants."""
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA)


def seat_weight(seat: SeatResult) -> float:
    """How much a seat's result counts (a leaver's loss counts fully)."""
    if seat.left:
        return 1.0
    share = min(1.0, max(0.0, seat.standin_share))
    return max(MIN_WEIGHT, 1.0 - share)


def places(scores: Sequence[float], winners: Sequence[int], teams: Sequence[int]) -> list[int]:
    """Each seat's place (1 = best) from the game's final scores and winners: sides with a
    winning seat come first, then higher scores; equal sides share a place.

    >>> places([10, 30, 20], [1], [0, 1, 2])
    [3, 1, 2]
    >>> places([250, 250, 250, 250], [0, 2, 1, 3], [0, 1, 0, 1])
    [1, 1, 1, 1]
    """
    win = set(winners)
    side_key: dict[int, tuple[int, float]] = {}
    for seat, team in enumerate(teams):
        key = (0 if seat in win else 1, -float(scores[seat]))
        side_key[team] = min(side_key.get(team, key), key)
    ordered = sorted(set(side_key.values()))
    return [ordered.index(side_key[team]) + 1 for team in teams]


def rate_game(seats: Sequence[SeatResult], current: Mapping[str, Rating]) -> list[Update]:
    """The rating updates of one finished game's people (computers stay fixed).

    ``current`` holds each person's rating before the game (a missing one is new)."""
    if not seats:
        return []
    last = max(s.rank for s in seats) + 1
    leaving_teams = {s.team for s in seats if s.left and s.player is not None}
    team_ids = sorted({s.team for s in seats})
    members: dict[int, list[int]] = {t: [] for t in team_ids}
    for i, s in enumerate(seats):
        members[s.team].append(i)
    if len(team_ids) < 2:
        return []
    before: list[Rating] = []
    for s in seats:
        if s.player is None:
            before.append(s.fixed or Rating())
        else:
            before.append(current.get(s.player, Rating()))
    m = model()
    teams = [[m.create_rating([before[i].mu, before[i].sigma]) for i in members[t]]
             for t in team_ids]
    ranks = [float(last if t in leaving_teams else seats[members[t][0]].rank)
             for t in team_ids]
    rated = m.rate(teams, ranks=ranks)
    out: list[Update] = []
    for k, t in enumerate(team_ids):
        for j, i in enumerate(members[t]):
            s = seats[i]
            if s.player is None:
                continue
            old = before[i]
            new = rated[k][j]
            w = seat_weight(s)
            mu = old.mu + w * (float(new.mu) - old.mu)
            var = old.sigma ** 2 + w * (float(new.sigma) ** 2 - old.sigma ** 2)
            out.append(Update(seat=i, player=s.player, before=old,
                              after=Rating(mu, math.sqrt(max(var, 1e-9))), weight=w,
                              rank=int(ranks[k])))
    return out
