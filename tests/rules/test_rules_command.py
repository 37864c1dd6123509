"""``cardplaza rules GAME [--lang ja]`` prints the same pages in the terminal."""

from __future__ import annotations

import io
import itertools
import re

import pytest
from rich.console import Console
from rich.style import Style
from typer.testing import CliRunner

from cardplaza.cli.main import app
from cardplaza.cli.rules import BLACK_CARD, JOKER_CARD, RED_CARD, RichWriter, print_page
from cardplaza.core.registry import games
from cardplaza.texts import markdown as md
from cardplaza.texts.rulepages import LANGUAGES, page_text

runner = CliRunner()


@pytest.mark.parametrize("game", list(games()))
@pytest.mark.parametrize("lang", LANGUAGES)
def test_prints_every_page_in_both_languages(game: str, lang: str) -> None:
    narrow = runner.invoke(app, ["rules", game, "--lang", lang, "--no-pager"],
                           env={"COLUMNS": "80"})
    assert narrow.exit_code == 0, narrow.output
    # Wide enough that no table cell wraps, so each token's cards stand together.
    result = runner.invoke(app, ["rules", game, "--lang", lang, "--no-pager"],
                           env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    tokens = md.parse(page_text(game, lang), lang)
    titles = [md.plain_text(tokens[i + 1].children, lang) for i, t in enumerate(tokens)
              if t.type == "heading_open"]
    assert titles[0] in result.output
    out = re.sub(r"\s+", "", result.output)
    # Every heading and every card of the page is printed.
    for title in titles:
        assert re.sub(r"\s+", "", title) in out
    text = page_text(game, lang)
    for faces in md.card_tokens(text):
        assert "".join(md.card_label(f, lang) for f in faces).replace(" ", "") in out
    assert "{{" not in result.output


def test_cards_are_coloured_red_and_black_on_a_colour_terminal() -> None:
    text = RichWriter("en").text("Lead {{cards: 10♥ A♠ Jo}}")
    styles = {text.plain[span.start:span.end]: span.style for span in text.spans}
    assert styles["\u00a010♥\u00a0"] == RED_CARD and styles["\u00a0A♠\u00a0"] == BLACK_CARD
    assert styles["\u00a0Joker\u00a0"] == JOKER_CARD
    assert RED_CARD.color is not None and RED_CARD.color.name.startswith("red")
    buf = io.StringIO()
    Console(file=buf, force_terminal=True, color_system="256", width=100).print(text)
    assert "\x1b[" in buf.getvalue() and "10♥" in buf.getvalue()


def test_japanese_emphasis_is_bold_in_the_terminal() -> None:
    text = RichWriter("ja").text("**レベル5（達人）**は{{cards: Jo}}")
    assert text.plain == "レベル5（達人）は\u00a0ジョーカー\u00a0"
    bold = [text.plain[s.start:s.end] for s in text.spans
            if isinstance(s.style, Style) and s.style.bold]
    assert "レベル5（達人）" in bold


def test_plain_output_keeps_the_card_text_readable() -> None:
    buf = io.StringIO()
    print_page(Console(file=buf, color_system=None, width=100), "pinochle2", "en")
    out = buf.getvalue()
    assert "A♠ 10♠ K♠ Q♠ J♠ 9♠" in out
    assert "\x1b[" not in out


def test_tables_and_lists_are_drawn() -> None:
    buf = io.StringIO()
    console = Console(file=buf, color_system=None, width=100)
    console.print(RichWriter("en").page("## Melds\n\n| Meld | Points |\n|---|---:|\n"
                                        "| Run | 150 |\n\n- one\n- two\n  - nested\n"))
    out = buf.getvalue()
    assert "Melds" in out and "Run" in out and "150" in out
    assert "• one" in out and "• nested" in out


def test_unknown_game_and_language_are_clear_errors() -> None:
    result = runner.invoke(app, ["rules", "bridge"])
    assert result.exit_code != 0 and "unknown game" in result.output
    result = runner.invoke(app, ["rules", "piquet", "--lang", "fr"])
    assert result.exit_code != 0 and "en or ja" in result.output


def test_japanese_wraps_between_characters_and_keeps_punctuation_attached() -> None:
    from cardplaza.cli.rules import wrap_offsets

    text = "メルドの点とトリックで取った点を足し、先に目標点（1500点）に届いた組の勝ちです。" * 3
    for width in (10, 17, 40):
        cuts = [0, *wrap_offsets(text, width), len(text)]
        lines = [text[a:b] for a, b in itertools.pairwise(cuts)]
        assert all(sum(2 if ord(c) > 0x2000 else 1 for c in ln) <= width for ln in lines)
        assert not any(ln[0] in "、。）" for ln in lines[1:])
        assert not any(ln[-1] == "（" for ln in lines)
    english = "Aces, tens and kings score in tricks"
    cuts = wrap_offsets(english, 12)
    assert all(english[c - 1] == " " for c in cuts)
