"""The odds tables' common form: exact chances beside their frequency in dealt hands."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from math import sqrt
from typing import Any


def odds_rows(rows: Sequence[tuple[dict[str, Any], Fraction]], hits: Sequence[int],
              simulate: int | None, hand: int, deck: int, seed: int) -> dict[str, Any]:
    """An odds table: each row's exact chance (float and fraction) and, with ``simulate``
    hands dealt, its frequency (``hits`` / ``simulate``) and the deviation in standard
    errors."""
    out = []
    for (head, p), hit in zip(rows, hits, strict=True):
        row: dict[str, Any] = {**head, "probability": float(p), "exact": True,
                               "fraction": f"{p.numerator}/{p.denominator}"}
        if simulate:
            sim = hit / simulate
            pf = float(p)
            se = sqrt(pf * (1 - pf) / simulate) if 0 < pf < 1 else 0.0
            row["simulated"] = sim
            row["deviation_se"] = (sim - pf) / se if se else 0.0
        out.append(row)
    table: dict[str, Any] = {"hand_size": hand, "deck_size": deck, "rows": out}
    if simulate:
        table["simulated_hands"] = simulate
        table["seed"] = seed
    return table


WHERE_LEGEND = ("♠ / A (each alike): the chance for one named suit or rank, the same for "
                "every suit or rank; any suit / any of …: for at least one of them; the cards "
                "named: exactly the cards of the meld.")
"""What the odds tables' "where" column means."""


def where_text(row: dict[str, Any]) -> str:
    """Where in the hand an odds row's meld is counted, in words: ``♠ (each alike)``,
    ``any suit``, ``A (each alike)``, ``any of A K Q J``, ``the cards named`` (a meld of
    fixed cards, such as pinochle), ``anywhere in the hand``."""
    scope = row["scope"]
    if scope in ("one suit", "named suit"):
        return f"{row.get('suit', '♠')} (each alike)" if "cards" not in row \
            else "the cards named"
    if scope == "any suit":
        return "any suit"
    if scope == "one rank":
        return f"{row['rank']} (each alike)" if "rank" in row else "the cards named"
    if scope == "any rank":
        return f"any of {row['ranks']}"
    if scope == "hand":
        return "anywhere in the hand"
    return str(scope)


def render_odds(console: Any, table: dict[str, Any], title: str,
                label: Callable[[str], str]) -> None:
    """Print an odds table with Rich: each row's meld (``label`` of its key), where it is
    counted (:func:`where_text`), its chance and "1 in N", with the legend below."""
    from rich.table import Table

    simulated = "simulated_hands" in table
    out = Table(title=f"{title}: {table['hand_size']} cards from {table['deck_size']}",
                caption=WHERE_LEGEND, caption_justify="left")
    out.add_column("meld", ratio=3)
    out.add_column("where", ratio=2)
    out.add_column("probability", justify="right", no_wrap=True)
    out.add_column("1 in", justify="right", no_wrap=True)
    if simulated:
        out.add_column(f"simulated ({table['simulated_hands']:,})", justify="right")
        out.add_column("dev (SE)", justify="right")
    for row in table["rows"]:
        p = row["probability"]
        cells = [label(row["meld"]), where_text(row), f"{p:.6g}",
                 f"{1 / p:,.1f}" if p else "—"]
        if simulated:
            cells += [f"{row['simulated']:.6g}", f"{row['deviation_se']:+.2f}"]
        out.add_row(*cells)
    console.print(out)
