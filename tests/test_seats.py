"""Seat helpers for 2 to 7 seats."""

from __future__ import annotations

import pytest

from cardplaza.core.seats import next_seat, opponents, partner, team_of


@pytest.mark.parametrize("seats", range(2, 8))
def test_next_seat_cycles_through_everyone(seats: int) -> None:
    seen, seat = [], 0
    for _ in range(seats):
        seen.append(seat)
        seat = next_seat(seat, seats)
    assert sorted(seen) == list(range(seats)) and seat == 0
    assert next_seat(0, seats, -1) == seats - 1


def test_partnerships_at_four() -> None:
    assert [partner(s) for s in range(4)] == [2, 3, 0, 1]
    assert [team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert opponents(0, 4) == (1, 3) and opponents(3, 4) == (0, 2)


@pytest.mark.parametrize("seats", [2, 3, 5, 6, 7])
def test_everyone_else_is_an_opponent_without_partners(seats: int) -> None:
    for s in range(seats):
        assert team_of(s, seats) == s
        assert opponents(s, seats) == tuple(x for x in range(seats) if x != s)
    with pytest.raises(ValueError, match="partnerships"):
        partner(0, seats)


@pytest.mark.parametrize(("seat", "seats"), [(0, 1), (0, 8), (4, 4), (-1, 3)])
def test_bad_seats_are_rejected(seat: int, seats: int) -> None:
    with pytest.raises(ValueError):
        next_seat(seat, seats)
