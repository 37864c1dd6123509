"""Seat arithmetic shared by every game (2 to 7 seats, numbered clockwise).

>>> next_seat(3, 4), partner(1, 4), team_of(2, 4), opponents(0, 4)
(0, 3, 0, (1, 3))
>>> opponents(1, 3)
(0, 2)
"""

from __future__ import annotations

MIN_SEATS = 2
MAX_SEATS = 7


def _check(seat: int, seats: int) -> None:
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError(f"a table has {MIN_SEATS} to {MAX_SEATS} seats, not {seats}")
    if not 0 <= seat < seats:
        raise ValueError(f"seat {seat} does not exist at a {seats}-seat table")


def next_seat(seat: int, seats: int, step: int = 1) -> int:
    """The seat ``step`` places clockwise (to the left) of ``seat``."""
    _check(seat, seats)
    return (seat + step) % seats


def partner(seat: int, seats: int = 4) -> int:
    """The partner across the table; only four-seat tables have partners."""
    _check(seat, seats)
    if seats != 4:
        raise ValueError("only a four-seat table has partnerships")
    return (seat + 2) % 4


def team_of(seat: int, seats: int = 4) -> int:
    """Team number: 0 and 2 form team 0, 1 and 3 team 1; other tables play alone."""
    _check(seat, seats)
    return seat % 2 if seats == 4 else seat


def opponents(seat: int, seats: int) -> tuple[int, ...]:
    """Every seat playing against ``seat`` (not partner, not itself)."""
    _check(seat, seats)
    mine = team_of(seat, seats)
    return tuple(s for s in range(seats) if team_of(s, seats) != mine)
