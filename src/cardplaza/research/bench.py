"""``cardplaza bench GAME|all --adapter``: our OpenSpiel adapter beside the native engine.

Both measured the way :mod:`cardplaza.core.bench` measures every contender (random deals,
one ``rng.choice`` per chance node and per move, interleaved rounds until the ratio's 95%
interval is within ±5%).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardplaza.core.bench import Comparison, OpenSpielDeals, RandomDeals, Sampler, compare
from cardplaza.core.registry import GameSpec
from cardplaza.research.openspiel import game_name, parameters


def _samplers(spec: GameSpec, options: Any) -> dict[str, Sampler]:
    params = parameters(spec, options)
    if spec.deals_played is not None:
        params["max_deals"] = 1
    return {
        spec.name: RandomDeals(spec, options),
        adapter_name(spec): OpenSpielDeals(game_name(spec.name), params,
                                           passed_out=lambda state, moves: bool(
                                               spec.redeals is not None
                                               and state.inner.engine is not None
                                               and spec.redeals(state.inner.engine))),
    }


def adapter_name(spec: GameSpec) -> str:
    """The adapter's contender name in the figures."""
    return f"{spec.name} (OpenSpiel adapter)"


def adapters_versus_native(specs: Sequence[GameSpec], options: Mapping[str, Any] | None = None,
                           **kwargs: Any) -> Comparison:
    """Random deals/s of games through the OpenSpiel adapter (``pyspiel``, one deal per
    game by the ``max_deals`` parameter) beside the same engines driven natively, all in
    one run of interleaved rounds."""
    samplers: dict[str, Sampler] = {}
    for spec in specs:
        samplers.update(_samplers(spec, (options or {}).get(spec.name)))
    for s in samplers.values():
        s.run(0.02)
        s.deals = s.redeals = 0
        s.cpu = 0.0
    return compare(samplers, [(adapter_name(spec), spec.name) for spec in specs], **kwargs)


def adapter_versus_native(spec: GameSpec, options: Any = None, **kwargs: Any) -> Comparison:
    """:func:`adapters_versus_native` of one game."""
    return adapters_versus_native([spec], {spec.name: options}, **kwargs)


__all__ = ["adapter_name", "adapter_versus_native", "adapters_versus_native"]
