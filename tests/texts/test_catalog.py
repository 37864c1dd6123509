"""The message catalog: both languages have every key with the same placeholders, every key
is used by some code (or belongs to a family of keys that code builds from names, checked
against those names), and the loader falls back sensibly — or fails loudly in strict mode."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

import pytest

from cardplaza.ai.advice import MARKS
from cardplaza.core.fairness import FAIL_CODES
from cardplaza.core.options import describe_options
from cardplaza.core.registry import games
from cardplaza.texts import catalog as cat
from cardplaza.texts.catalog import (
    LANGUAGES,
    MissingText,
    browser_catalog,
    catalog,
    language,
    locale_language,
    placeholders,
    text,
)
from cardplaza.web.errors import CODES, ERRORS, http_body
from cardplaza.web.settings import PACES

SRC = Path(__file__).resolve().parents[2] / "src" / "cardplaza"
EN, JA = catalog("en"), catalog("ja")


def sources() -> str:
    return "\n".join(p.read_text(encoding="utf-8")
                     for p in sorted([*SRC.rglob("*.py"), *SRC.rglob("*.js")]))


SOURCES = sources()
LITERALS = set(re.findall(r"""["'`]([A-Za-z0-9_.]+)["'`]""", SOURCES))

# Keys that code builds from a name (a game, an option, a code …): the pattern of the keys,
# the code that builds them (it must still be in the source), and why.
FAMILIES: list[tuple[str, str, str]] = [
    (r"err\.\w+", "`err.${code}`", "errorText: a server error by its code"),
    (r"meld\.\w+", "`meld.${", "meldText and engineText: a meld by its key"),
    (r"opt\.(\w+\.)?\w+", "`opt.${game}.${name}`", "optionLabel: an option's label"),
    (r"val\.\w+\.[\w-]+", "`val.${name}.${value}`", "valueLabel: an option value's label"),
    (r"level\.(\w+\.)?\w+", "`level.${game}.${lv}`", "a computer level's name"),
    (r"desc\.\w+", "`desc.${", "a game's line in the lobby"),
    (r"look\.cpu\.\d", "`look.cpu.${", "a computer player's name by seat"),
    (r"suit\.[SHDC]", "`suit.${", "a card's spoken suit"),
    (r"rank\.\w+", "`rank.${c.rank}`", "a card's spoken rank"),
    (r"pace\.\w+", "`pace.${p}`", "a pace of play"),
    (r"mark\.\w+", "`mark.${", "a review mark"),
    (r"stats\.outcome\.\w+", "`stats.outcome.${", "a game's outcome in the statistics"),
    (r"learn\.hint\.value\.\w+", "`learn.hint.value.${unit}`", "a hint's unit"),
    (r"learn\.helper\.(bids|exchange|melds)(\.note)?", "`learn.helper.${kind}",
     "a decision helper's title and note by its kind"),
    (r"room\.notice\.\w+", "`room.notice.${msg.kind}`", "a notice to a room's table"),
    (r"talk\.say\.\w+", "`talk.say.${", "a table-talk phrase by its preset id"),
    (r"room\.undo\.ended\.\w+", "`room.undo.ended.${msg.reason}`",
     "how an undo request ended"),
    (r"pd\.mult\.\w+", "`pd.mult.${mult}`", "a double-deck meld's multiple"),
    (r"cli\.stats\.\w+", 'f"cli.stats.{col}"', "a column of cardplaza stats"),
    (r"fair\.fail\.\w+", "`fair.fail.${res.code", "why a record failed the fair-deal check"),
    (r"fair\.check\.(browser|server)", "`fair.check.${mode}`",
     "where the fair-deal check computed its hashes"),
    (r"cli\.streak\.outcome\.\w+", 'f"cli.streak.outcome.{outcome}"',
     "how a streak game ended"),
    (r"[\w.]+\.one", "`${key}.one`", "a count's singular form, read when n is 1"),
    (r"cli\.review\.col\.\w+", 'f"cli.review.col.{col}"', "a column of cardplaza review"),
    (r"cli\.review\.hcol\.\w+", 'f"cli.review.hcol.{col}"',
     "a column of cardplaza review's per-hand table"),
    (r"cli\.rest\.ef\.ob\.\w+", 'f"cli.rest.ef.ob.{kind}"',
     "the E-fuda-tori rule binding the next card, by its kind"),
    (r"cli\.pin\.[\w.]+", 'PREFIX = "cli.pin."',
     "a Pinochle terminal view's text (pinochle_common.view_parts.say adds the prefix)"),
]


# Errors the browser makes itself (the connection is lost, an unknown code, any failure).
BROWSER_ERRORS = {"generic", "unknown", "reconnecting"}


def family(key: str) -> str | None:
    return next((pat for pat, _, _ in FAMILIES if re.fullmatch(pat, key)), None)


# -- the files ------------------------------------------------------------------------------

def test_both_languages_have_the_same_keys_and_placeholders() -> None:
    assert len(EN) > 600 and set(EN) == set(JA), (sorted(set(EN) ^ set(JA)))
    differ = {k: (placeholders(EN[k]), placeholders(JA[k])) for k in EN
              if placeholders(EN[k]) != placeholders(JA[k])}
    assert not differ, differ


@pytest.mark.parametrize("lang", LANGUAGES)
def test_texts_are_well_formed(lang: str) -> None:
    raw = json.loads((cat.CATALOG_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    assert list(raw) == list(EN), "the same order in both files (easier to compare)"
    for key, value in raw.items():
        # dotted names; an option value may hold a hyphen ("val.bid_steps.1-then-5")
        assert re.fullmatch(r"[a-z0-9_]+(\.[A-Za-z0-9_-]+)*", key), key
        assert value.strip() or value == " or ", key
        # Every brace is a placeholder's.
        assert "{" not in cat.PLACEHOLDER.sub("", value) and "}" not in \
            cat.PLACEHOLDER.sub("", value), (key, value)
    if lang == "ja":
        same = [k for k in raw if raw[k] == EN[k]
                and re.search(r"[A-Za-z]{4}", cat.PLACEHOLDER.sub("", raw[k]))]
        assert not same, f"English left in the Japanese catalog: {same}"


def test_every_key_is_used() -> None:
    unused = sorted(k for k in EN if k not in LITERALS and family(k) is None)
    assert not unused, f"keys no code uses: {unused}"
    for pattern, built_by, why in FAMILIES:
        assert built_by in SOURCES, f"no code builds {pattern} ({why}) any more"
        assert any(re.fullmatch(pattern, k) for k in EN), pattern


def test_families_match_what_they_are_built_from() -> None:
    """The keys code builds from names exist only for names that exist."""
    specs = games()
    fields = {spec.name: {name for name, _, _ in describe_options(spec.options_type)}
              for spec in specs.values()}
    every_field = set().union(*fields.values())
    levels = {spec.name: set(spec.levels) for spec in specs.values()}
    wrong = []
    for key in EN:
        if key in LITERALS:
            continue
        parts = key.split(".")
        head = parts[0]
        if head == "err":
            ok = parts[1] in CODES or parts[1] in BROWSER_ERRORS
        elif head == "opt":
            ok = parts[-1] in (fields.get(parts[1], set()) if len(parts) == 3 else every_field)
        elif head == "val":
            ok = parts[1] in every_field
        elif head == "level":
            ok = (parts[2] in levels.get(parts[1], set()) if len(parts) == 3
                  else any(parts[1] in lv for lv in levels.values()))
        elif head in ("desc", "suits"):
            ok = parts[1] in specs
        elif head == "pace":
            ok = parts[1] in PACES
        elif head == "mark":
            ok = parts[1] in MARKS
        elif head == "fair" and parts[1] == "fail":
            # the check's own codes, and the browser's comparison with what the table showed
            ok = parts[2] in FAIL_CODES or parts[2] in ("seen", "seen_log")
        else:
            ok = True
        if not ok:
            wrong.append(key)
    assert not wrong, f"keys for names that do not exist: {wrong}"


def test_every_server_error_has_its_text() -> None:
    """The server's English message is the catalog's sentence with the parameters in it;
    the browser has the same key in Japanese."""
    assert set(CODES) == set(ERRORS)
    browser_only = {k for k in EN if k.startswith("err.")} - {f"err.{c}" for c in CODES}
    assert browser_only == {f"err.{c}" for c in BROWSER_ERRORS}
    for code in CODES:
        params = {name: f"<{name}>" for name in placeholders(EN[f"err.{code}"])}
        body = http_body(code, **params)
        assert body["error"] == text(f"err.{code}", "en", **params), code
        assert all(f"<{name}>" in body["error"] for name in params), code
        assert JA[f"err.{code}"] != EN[f"err.{code}"]
    reason = "You must follow suit: you hold ♥"
    assert http_body("illegal", reason=reason)["error"] == reason
    assert http_body("illegal")["error"] == EN["err.illegal"]


# -- the loader -------------------------------------------------------------------------------

def test_text_fills_placeholders_in_either_language() -> None:
    assert text("cli.thinking", "en", name="Ann") == "Ann is thinking…"
    assert text("cli.thinking", "ja", name="Ann") == "Annが考えています…"
    assert text("lobby.players.range", "ja", lo=2, hi=7, extra="ignored") == "2～7人"
    assert text("err.bad_name", limit=20) == EN["err.bad_name"].replace("{limit}", "20")


def test_strict_mode_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cat.STRICT_ENV, "1")
    with pytest.raises(MissingText, match=r"no\.such\.key"):
        text("no.such.key", "en")
    with pytest.raises(MissingText, match="name"):
        text("cli.thinking", "ja")


def test_lenient_mode_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cat.STRICT_ENV, "0")
    assert text("no.such.key", "ja") == "no.such.key"
    assert text("cli.thinking", "en") == "{name} is thinking…"
    assert text("cli.thinking", "fr", name="Ann") == "Ann is thinking…"  # English

    real = cat.catalog

    def without(lang: str) -> Mapping[str, str]:
        texts = dict(real(lang))
        if lang == "ja":
            del texts["cli.again"]
        return MappingProxyType(texts)

    monkeypatch.setattr(cat, "catalog", without)
    assert text("cli.again", "ja") == EN["cli.again"]
    assert text("cli.quit.done", "ja") == JA["cli.quit.done"]


def test_languages_from_tags_and_the_locale() -> None:
    assert [language(t) for t in ("ja", "ja-JP", "JA_jp.UTF-8", "en-US", "", None, "fr")] == \
        ["ja", "ja", "ja", "en", "en", "en", "en"]
    assert locale_language({"LANG": "ja_JP.UTF-8"}) == "ja"
    assert locale_language({"LC_ALL": "", "LANG": "ja_JP.UTF-8"}) == "ja"
    assert locale_language({"LC_ALL": "C.UTF-8", "LANG": "ja_JP.UTF-8"}) == "en"
    assert locale_language({"LC_ALL": "ja_JP.UTF-8", "LANG": "C"}) == "ja"
    assert locale_language({"LC_MESSAGES": "ja_JP", "LANG": "en_US"}) == "ja"
    assert locale_language({}) == "en"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_browser_gets_every_key_but_the_terminals(lang: str) -> None:
    body, etag = browser_catalog(lang)
    sent = json.loads(body)
    assert sent == {k: v for k, v in catalog(lang).items() if not k.startswith("cli.")}
    assert etag.startswith('"') and etag != browser_catalog("ja" if lang == "en" else "en")[1]


def test_a_count_of_one_reads_the_singular_form() -> None:
    """``{n}`` of 1 picks ``<key>.one`` where the key has one ("1 trick", "3 tricks"), in
    both languages; every singular form has its plural key and the same placeholders."""
    assert text("seat.tricks", "en", n=1) == "1 trick"
    assert text("seat.tricks", "en", n=3) == "3 tricks"
    assert text("seat.tricks", "ja", n=1) == "1トリック"
    assert text("ef.sets", "en", n=1) == "1 K-Q-J set"
    assert text("ef.sets", "en", n=2).startswith("2 ")
    for lang in LANGUAGES:
        keys = catalog(lang)
        for key, value in keys.items():
            if key.endswith(".one") and key[:-4] in keys:
                base = set(re.findall(r"\{(\w+)\}", keys[key[:-4]]))
                assert set(re.findall(r"\{(\w+)\}", value)) <= base, key
                assert "n" in base, key


@pytest.mark.parametrize(("key", "params", "en", "ja"), [
    ("table.cards", {"n": 1}, "1 card", "1枚"),
    ("table.cards", {"n": 3}, "3 cards", "3枚"),
    ("rev.total", {"n": 1, "lost": "2.5"}, "1 decision reviewed, 2.5 points lost in all",
     "1回の判断を検討、損失は合計2.5点"),
    ("rev.total", {"n": 4, "lost": "0.0"}, "4 decisions reviewed, 0.0 points lost in all",
     "4回の判断を検討、損失は合計0.0点"),
])
def test_counts_of_one_read_in_the_singular(key: str, params: dict[str, object], en: str,
                                            ja: str) -> None:
    assert cat.text(key, "en", **params) == en
    assert cat.text(key, "ja", **params) == ja
