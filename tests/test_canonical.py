"""The canonical JSON bytes behind commitments and log digests never change form."""

from __future__ import annotations

import json
from typing import Any, Literal

from hypothesis import given, settings
from hypothesis import strategies as st

from cardplaza.core.fairness import canonical, log_step


def reference(value: Any) -> bytes:
    """The definition: compact JSON, keys sorted, text not escaped beyond what JSON needs."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True,
                      ensure_ascii=False).encode("utf-8")


_SURROGATES: tuple[Literal["Cs"]] = ("Cs",)
_TEXT = st.text(alphabet=st.characters(exclude_categories=_SURROGATES), max_size=12)
_LEAVES = (st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
           | st.floats(allow_nan=False) | _TEXT)
_VALUES = st.recursive(
    _LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=20)


@settings(max_examples=150, deadline=None)
@given(_VALUES)
def test_canonical_bytes_are_those_of_the_definition(value: Any) -> None:
    assert canonical(value) == reference(value)


def test_canonical_bytes_of_values_the_fast_encoder_refuses_or_writes_otherwise() -> None:
    for value in ({1: "a", 2: "b"}, [2**64], [-(2**63) - 1], [1e16, 0.1, -0.0, 1e-7],
                  ("a", ["b", ("c",)]), {"é": "\u2028\x00\x1f\x7f"}, True, None):
        assert canonical(value) == reference(value), value


def test_a_log_step_digest_is_stable() -> None:
    # A digest published at a table must verify for ever: the bytes hashed are fixed.
    assert log_step("0" * 64, 1, {"card": "QS"}) == log_step("0" * 64, 1, {"card": "QS"})
    assert log_step("0" * 64, 1, {"card": "QS"}) == \
        "16e5fd63d5784855b7e0c9715e51540b7e77199cbdc6628a5b7ed23eaef12d6a"
