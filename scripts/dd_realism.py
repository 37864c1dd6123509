"""Print how often each level of the double-deck Pinochle computer shows the habits
players ask of a partner (see :mod:`cardplaza.games.pinochle_dd.realism`).

    python scripts/dd_realism.py --deals 1000 --levels normal,strong,expert
"""

from __future__ import annotations

import argparse
import time

from cardplaza.games.pinochle_dd.realism import measure


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--levels", default="normal,expert")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--auction-only", action="store_true",
                        help="stop each deal when the auction ends (bidding rates only)")
    args = parser.parse_args()
    for level in args.levels.split(","):
        start = time.perf_counter()
        habits = measure(level, args.deals, args.seed, auction_only=args.auction_only)
        took = time.perf_counter() - start
        what = "auction" if args.auction_only else "auction, passing, first trick"
        print(f"{level}: {habits.deals} deals ({what}), {took:.0f} s")
        for label, rate in habits.rows():
            print(f"  {label:62s} {rate.hits:5d} / {rate.cases:5d} = {rate.share:6.1%}")


if __name__ == "__main__":
    main()
