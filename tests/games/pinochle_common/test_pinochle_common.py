"""The parts the Pinochle games share: action text/JSON forms and the terminal views'
common pieces, exercised through every Pinochle game."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

from cardplaza.core.protocol import ActionParseError
from cardplaza.core.registry import get_game

GAMES = ("pinochle4", "pinochle3", "pinochle_dd")


def _play_to_trick(game: str, tricks: int, seed: int = 2) -> object:
    spec = get_game(game)
    st = spec.new_state(spec.options_type(), seed)
    rng = random.Random(seed)
    while not st.is_terminal:
        obs = st.observation(0)
        if obs["phase"] == "play" and len(obs["tricks"]) >= tricks:
            break
        legal = [a for a in st.legal_actions() if st.action_text(a) != "throw in"]
        st.apply(legal[rng.randrange(len(legal))])
    return st


@pytest.mark.parametrize("game", GAMES)
def test_every_legal_action_round_trips_through_text_and_json(game: str) -> None:
    st = _play_to_trick(game, 3)
    seen = 0
    for _ in range(40):
        if st.is_terminal:  # type: ignore[attr-defined]
            break
        for a in st.legal_actions():  # type: ignore[attr-defined]
            assert st.action_from_json(st.action_to_json(a)) == a  # type: ignore[attr-defined]
            text = st.action_text(a)  # type: ignore[attr-defined]
            # (single-deck cards come in two identical copies: either copy will do)
            parsed = st.parse_action(text)  # type: ignore[attr-defined]
            assert parsed in st.legal_actions() and st.action_text(parsed) == text, (  # type: ignore[attr-defined]
                text, a)
            assert st.describe(a)  # type: ignore[attr-defined]
            seen += 1
        st.apply(st.legal_actions()[0])  # type: ignore[attr-defined]
    assert seen > 40
    with pytest.raises(ActionParseError):
        st.action_from_json({"kind": "shuffle", "card": 1})  # type: ignore[attr-defined]
    with pytest.raises(ActionParseError, match="Cannot read"):
        st.parse_action("nonsense words")  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", GAMES)
def test_views_show_history_and_a_forced_card(game: str) -> None:
    st = _play_to_trick(game, 2)
    out = io.StringIO()
    view = get_game(game).hook("terminal")(Console(file=out, width=120), 0)
    obs = st.observation(0)  # type: ignore[attr-defined]
    view.show_history(st, obs)
    legal = st.legal_actions()  # type: ignore[attr-defined]
    view.show_forced(st, obs, legal[0])
    text = out.getvalue()
    assert "Trick  1:" in text and "Trick  2:" in text and "Auction:" in text
    assert "Contract:" in text
    if st.current_player == 0:  # type: ignore[attr-defined]
        assert "Your only legal card" in text


def test_odds_rows_say_where_a_meld_is_counted() -> None:
    """Melds of fixed cards (pinochle, round table) read "the cards named", never "one
    suit"; suit and rank rows name the suit or rank they were computed for."""
    import io

    from rich.console import Console

    from cardplaza.games.pinochle4.odds import odds_table, render_odds
    from cardplaza.games.pinochle_common.odds import where_text

    rows = odds_table()["rows"]
    where = {(r["meld"], r["scope"]): where_text(r) for r in rows}
    assert where[("pinochle", "one suit")] == "the cards named"
    assert where[("double_pinochle", "one suit")] == "the cards named"
    assert where[("round_table", "one rank")] == "the cards named"
    assert where[("run", "one suit")] == "♠ (each alike)"
    assert where[("run", "any suit")] == "any suit"
    assert where[("around", "one rank")] == "A (each alike)"
    out = io.StringIO()
    render_odds(Console(file=out, width=200), odds_table())
    shown = out.getvalue()
    assert "one suit" not in shown and "No card of a rank" in shown
    assert "Exactly 1 card of a rank" in shown and "Exactly 2 cards of a rank" in shown
