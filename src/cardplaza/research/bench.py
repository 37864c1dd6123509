"""``cardplaza bench GAME --adapter``: our OpenSpiel adapter beside the native engine.

Both measured the way :mod:`cardplaza.core.bench` measures every contender (random deals,
one ``rng.choice`` per chance node and per move, interleaved rounds until the ratio's 95%
interval is within ±5%).
"""

from __future__ import annotations

from typing import Any

from cardplaza.core.bench import Comparison, OpenSpielDeals, RandomDeals, Sampler, compare
from cardplaza.core.registry import GameSpec
from cardplaza.research.openspiel import game_name, parameters


def adapter_versus_native(spec: GameSpec, options: Any = None, **kwargs: Any) -> Comparison:
    """Random deals/s of a game through the OpenSpiel adapter (``pyspiel``, one deal per
    game by the ``max_deals`` parameter) beside the same engine driven natively."""
    params = parameters(spec, options)
    if spec.deals_played is not None:
        params["max_deals"] = 1
    adapter = f"{spec.name} (OpenSpiel adapter)"
    samplers: dict[str, Sampler] = {
        spec.name: RandomDeals(spec, options),
        adapter: OpenSpielDeals(game_name(spec.name), params,
                                passed_out=lambda state, moves: bool(
                                    spec.redeals is not None
                                    and state.inner.engine is not None
                                    and spec.redeals(state.inner.engine))),
    }
    for s in samplers.values():
        s.run(0.02)
        s.deals = s.redeals = 0
        s.cpu = 0.0
    return compare(samplers, [(adapter, spec.name)], **kwargs)


__all__ = ["adapter_versus_native"]
