"""Every error the server can send has a text in both languages of the front end, and the
two dictionaries have the same keys (no string falls back to the other language)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "src" / "cardplaza" / "web"
I18N = (WEB / "static" / "i18n.js").read_text(encoding="utf-8")


def table(name: str, language: str) -> set[str]:
    """The keys of one language of a dictionary in i18n.js (quoted or bare)."""
    body = I18N.split(f"const {name} = {{", 1)[1]
    start = body.index(f"\n  {language}: {{")
    end = body.find("\n  },", start)
    keys: set[str] = set()
    # Strings are consumed whole, so words inside a text are never taken for keys.
    for m in re.finditer(r'"((?:[^"\\]|\\.)*)"(\s*:)?|([A-Za-z_]\w*)\s*:', body[start:end]):
        if m.group(2) or m.group(3):
            keys.add(m.group(1) if m.group(2) else m.group(3))
    keys.discard(language)
    return keys


def server_codes() -> set[str]:
    codes: set[str] = set()
    for path in WEB.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        codes |= set(re.findall(r'(?:WebError|_error|error)\(\s*(?:\d+,\s*)?"([a-z_]+)"', text))
    errors = WEB / "errors.py"
    if errors.exists():
        codes |= set(re.findall(r'^    "([a-z_]+)": "', errors.read_text(encoding="utf-8"), re.M))
    return codes


@pytest.mark.parametrize("language", ["en", "ja"])
def test_every_server_error_code_has_a_text(language: str) -> None:
    keys = table("DICT", language)
    codes = server_codes()
    assert len(codes) >= 10
    missing = sorted(c for c in codes if f"err.{c}" not in keys)
    assert not missing, f"error codes without a {language} text: {missing}"


@pytest.mark.parametrize("name", ["DICT", "OPTIONS", "MELDS"])
def test_both_languages_have_the_same_keys(name: str) -> None:
    en, ja = table(name, "en"), table(name, "ja")
    assert en and en == ja, (sorted(en - ja), sorted(ja - en))
