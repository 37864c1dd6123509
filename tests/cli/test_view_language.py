"""Views learn the player's language from :func:`cardplaza.cli.view.make_view`, whether
their class takes a ``lang`` keyword or not."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console

from cardplaza.cli.view import ViewBase, engine_words, make_view
from cardplaza.core.registry import get_game


class OldStyle(ViewBase):
    """A view written before views had a language: ``__init__(console, seat)``."""

    def __init__(self, console: Console, seat: int) -> None:
        super().__init__(console, seat)
        self.made = True


def test_make_view_passes_lang_or_sets_it(monkeypatch: Any) -> None:
    console = Console(file=io.StringIO())
    spec = get_game("piquet")
    view = make_view(spec, console, 0, "ja")
    assert view.lang == "ja" and view.name({}, 0) == "あなた"
    monkeypatch.setattr("cardplaza.cli.view.view_class", lambda spec: OldStyle)
    old = make_view(spec, console, 1, "ja")
    assert isinstance(old, OldStyle) and old.made and old.lang == "ja"
    assert old.say("cli.rest.you") == "あなた"
    assert make_view(spec, console, 1).lang == "en"


def test_engine_words_in_japanese() -> None:
    assert engine_words("bid 250", "ja") == "250 をビッド"
    assert engine_words("You must follow suit: you hold ♥ (play a ♥)", "ja") == \
        "♥を持っているので、♥を出してください"
    assert engine_words("bid 250", "en") == "bid 250"
    assert engine_words("something else", "ja") == "something else"
