"""One message catalog per language: every short text the browser, the server's errors and
the terminal's play loop show, found by key.

The catalogs are ``catalogs/<lang>.json`` beside this module, one flat JSON object per
language (``en``, ``ja``) with the same keys in both. A key is dotted, and its first part
names where the text is used:

=================================  =====================================================
``app nav lobby desc suits …``     the browser's lobby, table and pages (``i18n.js``'s
                                   former dictionary; ``p2 p4 pq ef`` the game panels)
``opt.<game>.<name>``, ``opt.*``   a rule option's label; ``val.<name>.<value>`` a value
``level.*``                        the computer levels' names
``meld.<key>``                     a meld's name (four-hand keys; two-hand names map to them)
``err.<code>``                     every error the server sends (:mod:`cardplaza.web.errors`),
                                   its English text is the server's ``message``
``eng.*``                          the Japanese of the engines' English texts (moves,
                                   reasons, Piquet's declarations): ``i18n.js`` matches the
                                   English by pattern; the English entry says the same with
                                   the same placeholders (English pages show the engine's
                                   own text)
``hist rec rep mark rev stats``    the hand's history, records, replay, review, statistics
``learn.*``                        hints, the decision helper and undo at the table
``cli.*``                          the terminal's play loop and commands (not sent to the
                                   browser)
=================================  =====================================================

A count is a placeholder ``{n}``; where a language words one thing differently ("1 trick",
"3 tricks") the key has a singular form ``<key>.one``, chosen when ``n`` is 1 (by
:func:`text` and ``t`` alike).

A text's placeholders are ``{name}`` (letters, digits, ``_``), filled by name by
:func:`text` here and by ``t(key, {name: …})`` in ``i18n.js`` alike; numbers are formatted
by the caller. Both languages of a key have the same placeholders (``tests/texts``).

:func:`text` falls back to English for a key missing in a language, and to the key itself
when English lacks it too; with ``CARDPLAZA_STRICT_TEXTS=1`` in the environment (the test
suite sets it) a missing key or an unfilled placeholder raises :class:`MissingText`
instead.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

CATALOG_DIR = Path(__file__).resolve().parent / "catalogs"
LANGUAGES = ("en", "ja")
DEFAULT_LANGUAGE = "en"
STRICT_ENV = "CARDPLAZA_STRICT_TEXTS"
TERMINAL_ONLY = "cli."
"""Keys that only the terminal shows (left out of the browser's catalog)."""
ONE = ".one"
"""A key's singular form: ``<key>.one`` is used instead of ``<key>`` when ``n`` is 1."""
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")

log = logging.getLogger("cardplaza.texts")


class MissingText(KeyError):
    """A key (or a placeholder's value) the catalog does not have, in strict mode."""


def language(tag: str | None) -> str:
    """``"ja"`` for any Japanese language tag or locale (``ja``, ``ja-JP``, ``ja_JP.UTF-8``),
    else ``"en"``."""
    return "ja" if (tag or "").strip().lower().startswith("ja") else "en"


def locale_language(environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language from the locale: the first of ``LC_ALL``, ``LC_MESSAGES``
    and ``LANG`` that is set (as the C library reads them) — ``"ja"`` when it starts with
    ``ja``, else ``"en"``."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return language(value)
    return DEFAULT_LANGUAGE


def strict() -> bool:
    """Whether a missing key or placeholder raises (``CARDPLAZA_STRICT_TEXTS=1``)."""
    return os.environ.get(STRICT_ENV, "") not in ("", "0")


@cache
def catalog(lang: str) -> Mapping[str, str]:
    """The texts of one language, exactly as its file holds them (read once)."""
    if lang not in LANGUAGES:
        raise ValueError(f"no catalog for language {lang!r} (languages: {LANGUAGES})")
    data: Any = json.loads((CATALOG_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise ValueError(f"catalog {lang} is not an object of texts")
    return MappingProxyType(data)


def placeholders(template: str) -> set[str]:
    """The names of a text's ``{placeholders}``."""
    return set(PLACEHOLDER.findall(template))


_warned: set[tuple[str, str]] = set()


def _missing(key: str, lang: str, what: str) -> None:
    if strict():
        raise MissingText(f"{what} {key!r} ({lang})")
    if (key, lang) not in _warned:
        _warned.add((key, lang))
        log.warning("text catalog: %s %r (%s)", what, key, lang)


def fill(template: str, params: Mapping[str, Any], key: str = "", lang: str = "") -> str:
    """``template`` with each ``{name}`` replaced by ``str(params[name])``; a placeholder
    without a value stays as it is (or raises in strict mode)."""
    def one(m: re.Match[str]) -> str:
        name = m.group(1)
        if name in params:
            return str(params[name])
        _missing(f"{key}:{{{name}}}", lang, "no value for the placeholder")
        return m.group(0)

    return PLACEHOLDER.sub(one, template)


def text(key: str, lang: str = DEFAULT_LANGUAGE, /, **params: Any) -> str:
    """The text of ``key`` in ``lang`` (``en`` or ``ja``; anything else reads English) with
    its placeholders filled from ``params`` (extra ``params`` are ignored).

    A key missing in ``lang`` falls back to English, then to the key itself (a warning is
    logged once); in strict mode either raises :class:`MissingText`."""
    lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    if params.get("n") == 1 and (key + ONE) in catalog(DEFAULT_LANGUAGE):
        key += ONE
    template = catalog(lang).get(key)
    if template is None:
        _missing(key, lang, "no text for")
        template = catalog(DEFAULT_LANGUAGE).get(key, key)
    return fill(template, params, key, lang)


def has(key: str, lang: str = DEFAULT_LANGUAGE) -> bool:
    """Whether the catalog of ``lang`` has ``key``."""
    return key in catalog(lang if lang in LANGUAGES else DEFAULT_LANGUAGE)


@cache
def browser_catalog(lang: str) -> tuple[bytes, str]:
    """The JSON the browser loads for ``lang`` — every key but the terminal's, English
    filling any gap — and its entity tag (a hash of those bytes)."""
    merged = dict(catalog(DEFAULT_LANGUAGE))
    merged.update(catalog(lang))
    body = json.dumps({k: v for k, v in merged.items() if not k.startswith(TERMINAL_ONLY)},
                      ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def reason_texts(reason: Mapping[str, Any]) -> dict[str, str]:
    """A computer's reason in each language: its catalog sentences (``{"parts": [[key,
    params], …]}``) filled and joined (a space between English sentences, none between
    Japanese ones), or its own ``en`` and ``ja`` texts."""
    parts = reason.get("parts")
    if parts is None:
        return {lang: str(reason.get(lang, "")) for lang in LANGUAGES}
    return {lang: ("" if lang == "ja" else " ").join(
        text(key, lang, **params) for key, params in parts) for lang in LANGUAGES}


__all__ = ["LANGUAGES", "MissingText", "browser_catalog", "catalog", "has", "language",
           "locale_language", "placeholders", "reason_texts", "text"]

