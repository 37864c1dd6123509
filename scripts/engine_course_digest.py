"""A digest of many random games of one engine, to show that a change kept its behaviour.

For many seeds and a few option sets, a seeded random driver plays each game (its first
deal, then a few whole games) and hashes, step by step: the seat to act and the legal
actions; for the first seeds also every seat's observation, the public observation, the
actions' text and JSON forms and the reasons given for unplayable cards; now and then some
illegal actions (their messages, and that the state did not change) and a clone's legal
actions; at the end the returns, winners, history and redeal count. Run it before and
after a change to an engine: the digests must be equal.

    PYTHONPATH=src python scripts/engine_course_digest.py pinochle2 2000
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

from cardplaza.core.protocol import IllegalAction
from cardplaza.core.registry import get_game

_BAD_ACTIONS: tuple[Any, ...] = (-1, 999, (3, 5), "x", 47, 0, 12, 31)
"""Actions tried when they are not legal (each must be refused, the state unchanged)."""


def _view(state: Any, seat: int) -> str:
    return json.dumps(state.observation(seat), sort_keys=True, default=str)


def digest(name: str, options: list[Any], seeds: int, detailed: int, whole: bool) -> str:
    """The digest of ``seeds`` random games per option set (observations and action forms
    for the first ``detailed`` seeds); ``whole``: the whole game, not its first deal."""
    spec = get_game(name)
    h = hashlib.sha256()

    def put(x: Any) -> None:
        h.update(repr(x).encode())
        h.update(b"|")

    for index, opts in enumerate(options):
        for seed in range(seeds):
            st = spec.new_game(opts, seed)
            if not whole and spec.deals_played is not None:
                st.deal_limit = 1
            rng = random.Random(seed * 31 + index)
            step = 0
            while not st.is_terminal:
                seat = st.current_player
                legal = list(st.legal_actions())
                put((seat, legal))
                if seed < detailed:
                    for s in range(st.num_players):
                        put(_view(st, s))
                    put(json.dumps(st.public_observation(), sort_keys=True, default=str))
                    put([st.action_text(a) for a in legal])
                    put([json.dumps(st.action_to_json(a)) for a in legal])
                    put(sorted(st.illegal_card_reasons().items()))
                if seed % 5 == 0 and step % 7 == 3:
                    before = _view(st, seat)
                    for bad in _BAD_ACTIONS:
                        if bad in legal:
                            continue
                        try:
                            st.apply(bad)
                            put(("applied", bad))
                        except IllegalAction as e:
                            put(("illegal", str(e)))
                        except Exception as e:  # (its kind is part of the digest)
                            put(("error", type(e).__name__))
                    if _view(st, seat) != before:
                        raise AssertionError(f"{name} seed {seed}: a refused action changed "
                                             "the state")
                    put(list(st.legal_actions()) == legal)
                if seed % 10 == 1 and step == 11:
                    put(list(st.clone().legal_actions()))
                st.apply(rng.choice(legal))
                step += 1
            put(("end", st.returns(), st.winners(), list(st.history)))
            if seed < detailed:
                for s in range(st.num_players):
                    put(_view(st, s))
            put(spec.redeals(st) if spec.redeals else None)
    return h.hexdigest()


def _option_sets(name: str) -> list[Any]:
    o = get_game(name).options_type
    if name == "pinochle2":
        return [o(), o(double_melds=True, new_card_rule=False, dealer=0)]
    if name == "piquet":
        return [o(), o(sinking=True, carte_rouge=True, show_untaken=True, au_cent=True),
                o(four_deals=True, last_trick_ten=True, younger_may_exchange_zero="on")]
    if name == "efudatori":
        return [o(), o(players=2, dealer=0), o(players=7, simple_scoring=True), o(players=5)]
    return [o()]


def main() -> None:
    name = sys.argv[1]
    seeds = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    options = _option_sets(name)
    print(name, "first deals", digest(name, options, seeds, 150, whole=False))
    print(name, "whole games", digest(name, options[:2], max(seeds // 20, 20), 20, whole=True))


if __name__ == "__main__":
    main()
