"""Text on the felt is readable: white on every felt colour meets WCAG AA (4.5:1)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CSS = Path(__file__).resolve().parents[2] / "src" / "cardplaza" / "web" / "static" / "style.css"


def luminance(hex_colour: str) -> float:
    """WCAG relative luminance of ``#rrggbb``."""
    channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_contrast_formula() -> None:
    assert round(contrast("#ffffff", "#000000"), 1) == 21.0
    assert round(contrast("#ffffff", "#2a8a57"), 2) == 4.31  # the felt's old light tone


@pytest.mark.parametrize("name", ["--felt", "--felt-light", "--felt-dark"])
def test_white_text_on_the_felt_meets_aa(name: str) -> None:
    found = re.search(rf"{name}:\s*(#[0-9a-fA-F]{{6}})", CSS.read_text(encoding="utf-8"))
    assert found, name
    assert contrast("#ffffff", found.group(1)) >= 4.5
