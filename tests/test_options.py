"""Options dataclasses from dicts and ``key=value`` text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import pytest

from cardplaza.core.options import (
    describe_options,
    options_from_dict,
    options_to_dict,
    parse_options_text,
)


@dataclass(frozen=True)
class Sample:
    target: Literal[500, 1000] = 1000
    redeal: bool = False
    names: tuple[str, ...] = ("You", "West")
    label: str = "x"
    minimum: int = 250

    def __post_init__(self) -> None:
        if self.minimum < 0:
            raise ValueError("minimum must not be negative")


def test_defaults_and_round_trip() -> None:
    opts = Sample()
    assert options_from_dict(Sample, options_to_dict(opts)) == opts
    assert options_to_dict(opts)["names"] == ["You", "West"]


def test_each_dict_is_the_callers_own() -> None:
    # The dict of an options value is made once and kept; changing what one call returned
    # (its lists too) changes nothing of the next call's answer.
    opts = Sample(names=("Ann", "Bob"))
    first = options_to_dict(opts)
    first["label"] = "changed"
    first["names"].append("Cy")
    assert options_to_dict(opts) == {"target": 1000, "redeal": False, "names": ["Ann", "Bob"],
                                     "label": "x", "minimum": 250}
    assert options_to_dict(Sample(label="y"))["label"] == "y"


def test_text_form_coerces_types() -> None:
    opts = parse_options_text(Sample, "target=500, redeal=on, names=Ann/Bob, minimum=300")
    assert opts == Sample(target=500, redeal=True, names=("Ann", "Bob"), minimum=300)


@pytest.mark.parametrize(("text", "message"), [
    ("target=700", "must be one of"), ("redeal=maybe", "on or off"),
    ("minimum=lots", "whole number"), ("colour=red", "unknown option"),
    ("target", "name=value"), ("minimum=-1", "negative"),
])
def test_bad_options_are_explained(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_options_text(Sample, text)


def test_describe_lists_every_field() -> None:
    rows = describe_options(Sample)
    assert [r[0] for r in rows] == ["target", "redeal", "names", "label", "minimum"]
    assert rows[0][1] == "500 | 1000"
