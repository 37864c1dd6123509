"""The server process's garbage collection, on a schedule that does not stall the tables.

Python's cyclic collector stops the whole process while it walks the objects it tracks.
A full pass over a busy server (every table's state, its log and the last message of
every connection) takes a tenth of a second or more, and the automatic schedule runs one
every few seconds under load: each holds up every table's messages, and the queue it
leaves behind takes longer still to clear. So a server process (``serve`` sets
``gc_schedule``):

* freezes what exists once it has started (modules, the app, the workers' handles: never
  garbage) out of the collector's sight, so no pass walks them again;
* keeps the automatic passes over the young generations, but after 10,000 new objects
  rather than Python's 700: a pass over the youngest generation walks the objects made
  since the last one that are still alive, and most of a message's objects are gone
  again before a pass that comes less often (at 100 two-hand tables the young passes'
  share of the event loop thread's processor time fell from about 7 % to 2–3 %, the
  longest of them rose from about 10 to 20–30 ms); the middle one after every fifth
  such pass;
* makes the full pass itself every ``gc_full_seconds``, not whenever the young passes
  have promoted enough objects (on a busy server: every few seconds).

Objects are still freed as soon as nothing refers to them; only cycles wait for a pass.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger("cardplaza.web")

YOUNG_THRESHOLDS = (10_000, 5)
"""Allocations before a pass over the youngest generation, and such passes before one
over the middle generation."""

NO_AUTOMATIC_FULL_PASS = 1 << 30
"""The oldest generation's threshold that Python's schedule never reaches."""


def take_over() -> None:
    """Freeze the objects that exist now and stop automatic full passes."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*YOUNG_THRESHOLDS, NO_AUTOMATIC_FULL_PASS)


def give_back() -> None:
    """Python's own schedule again (a server closing inside a longer-lived process)."""
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)


async def full_passes(seconds: float) -> None:
    """A full pass every ``seconds`` (each logged at debug level with its duration)."""
    while True:
        await asyncio.sleep(seconds)
        start = time.perf_counter()
        found = gc.collect()
        log.debug("full garbage collection: %d objects freed in %.0f ms", found,
                  1000 * (time.perf_counter() - start))


__all__ = ["full_passes", "give_back", "take_over"]
