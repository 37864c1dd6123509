"""make test installs a Japanese font, so Japanese pages render instead of empty boxes."""

from __future__ import annotations

import re
from pathlib import Path

MAKEFILE = Path(__file__).resolve().parents[1] / "Makefile"


def test_system_packages_include_a_japanese_font() -> None:
    text = MAKEFILE.read_text(encoding="utf-8")
    packages = re.search(r"^SYSTEM_PACKAGES \?= (.+)$", text, re.M)
    assert packages is not None
    names = packages.group(1).split()
    assert {"fonts-noto-cjk", "fonts-ipafont-gothic"} & set(names)
    assert re.search(r"^test: .*system-deps", text, re.M)
