"""What the browser spends drawing the table: Chromium's CPU over a fixed, seeded piece of
play, with the main thread's style, layout and task times, then the same for opening the
rules pages.

A server with a fresh SQLite database and no computer pause is started, a seeded game
(double-deck to 250 by default) is begun from the lobby and the person's first ``--moves``
decisions are clicked as the browser tests click them. The CPU is every Chromium process's
user and system time, read from ``/proc`` before and after; run the old and the new tree in
turn, several times, and compare ranges (the machine's load moves the figures).

    PYTHONPATH=src python scripts/browser_cost.py --moves 40
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from cp_browser import SHOWS_JS, goto_drawn, my_move, new_page, start_from_lobby  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from conftest import CHROMIUM, launch_args, running_server  # noqa: E402

OPTIONS: dict[str, dict[str, Any]] = {
    "pinochle_dd": {"target": 250, "__level": "weak"},
    "pinochle4": {"target": 500, "strength": "weak"},
    "pinochle2": {},
}
METRICS = ("RecalcStyleDuration", "LayoutDuration", "ScriptDuration", "TaskDuration")


def chromium_cpu() -> float:
    """User and system CPU seconds of every running Chromium process."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if b"chromium" not in f.read():
                    continue
            with open(f"/proc/{pid}/stat", encoding="ascii") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def metrics(cdp: Any) -> dict[str, float]:
    return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="pinochle_dd", choices=sorted(OPTIONS))
    ap.add_argument("--moves", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp, running_server(Path(tmp), 0.0) as base, \
            sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=launch_args(p))
        page = new_page(browser)
        page.goto(f"{base}/#/")
        page.wait_for_selector("main h1, main h2")
        cdp = page.context.new_cdp_session(page)
        cdp.send("Performance.enable")
        m0, c0, t0 = metrics(cdp), chromium_cpu(), time.perf_counter()
        start_from_lobby(page, base, args.game, OPTIONS[args.game], seed=args.seed)
        made = 0
        while made < args.moves:
            shows = page.evaluate(SHOWS_JS)
            if shows == "end":
                break
            if shows == "continue":
                page.click("#continue-btn")
            elif shows == "turn" and my_move(page):
                made += 1
            else:
                page.wait_for_timeout(20)
        m1, c1, t1 = metrics(cdp), chromium_cpu(), time.perf_counter()
        times = "  ".join(f"{k.removesuffix('Duration').lower()} {m1[k] - m0[k]:.2f} s"
                          for k in METRICS)
        print(f"{args.game}: {made} moves, Chromium CPU {c1 - c0:.1f} s, wall {t1 - t0:.1f} s;"
              f" main thread: {times}")
        for game in ("pinochle4", "piquet", "efudatori"):
            c2 = chromium_cpu()
            goto_drawn(page, f"{base}/#/rules/{game}")
            page.evaluate("() => new Promise(r => requestAnimationFrame("
                          "() => requestAnimationFrame(r)))")
            n = page.evaluate("() => document.querySelectorAll('*').length")
            print(f"rules/{game}: {n} elements, Chromium CPU {chromium_cpu() - c2:.1f} s")
        browser.close()


if __name__ == "__main__":
    main()
