"""Every error the server can send has a text in both languages of the message catalog the
front end loads, and the two languages have the same keys (no string falls back to the
other language)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardplaza.texts.catalog import LANGUAGES, catalog

WEB = Path(__file__).resolve().parents[2] / "src" / "cardplaza" / "web"


def server_codes() -> set[str]:
    codes: set[str] = set()
    for path in WEB.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        codes |= set(re.findall(r'(?:WebError|_error|error_message|http_body)\(\s*(?:\d+,\s*)?'
                                r'"([a-z_]+)"', text))
    return codes


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_server_error_code_has_a_text(language: str) -> None:
    keys = set(catalog(language))
    codes = server_codes()
    assert len(codes) >= 30
    missing = sorted(c for c in codes if f"err.{c}" not in keys)
    assert not missing, f"error codes without a {language} text: {missing}"


def test_both_languages_have_the_same_keys() -> None:
    en, ja = set(catalog("en")), set(catalog("ja"))
    assert len(en) > 500 and en == ja, (sorted(en - ja), sorted(ja - en))
