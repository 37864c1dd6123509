"""What the load benchmark's two drivers share — over the network (:mod:`.generator`) and in
process (:mod:`.inproc`): the cap on tables, the budgets a benchmark server lifts and the
computer level of each table."""

from __future__ import annotations

MAX_TABLES = 2_000

LOOPBACK_BUDGETS = (f"max_open_tables_per_address={10 * MAX_TABLES}",
                    f"tables_burst_per_address={10 * MAX_TABLES}",
                    f"tables_per_minute_per_address={60 * MAX_TABLES}",
                    f"address_rate_per_second={100 * MAX_TABLES}",
                    f"address_rate_burst={200 * MAX_TABLES}",
                    f"hints_per_minute_per_address={60 * MAX_TABLES}",
                    f"hints_burst_per_address={10 * MAX_TABLES}",
                    f"connections_per_minute_per_address={600 * MAX_TABLES}",
                    f"connections_burst_per_address={10 * MAX_TABLES}")
"""Every table of the benchmark is played from one address: its server lifts the budgets
of one address (and keeps those of one connection)."""


def table_levels(game: str, text: str) -> list[str]:
    """The computer level of each table in turn, from ``--level``: names separated by
    commas, ``expert`` for the game's strongest, ``all`` (the default) for each of the
    game's levels; an unknown level stops the run."""
    from cardplaza.core.registry import get_game

    spec = get_game(game)
    levels = [lv.strip() for lv in text.split(",") if lv.strip()]
    if levels == ["all"]:
        levels = [lv for lv in spec.levels if lv != "random"]
    levels = [spec.levels[-1] if lv == "expert" and "expert" not in spec.levels else lv
              for lv in levels]
    for lv in levels:
        if lv != "random" and lv not in spec.levels:
            raise SystemExit(f"unknown level {lv!r} for {game}: {', '.join(spec.levels)}")
    return levels
