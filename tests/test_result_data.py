"""What the result screens draw comes from the observations: the score after each trick or
deal, the partnership hand's last-trick winner, each Piquet deal's shown combinations."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from cardplaza.core.registry import get_game
from cardplaza.games.pinochle4.rules import winning_index


def played_out(game: str, options: dict[str, Any], seed: int, stop: Any = None) -> Any:
    """A seeded random game played to the end (or until ``stop(state)``)."""
    spec = get_game(game)
    st = spec.new_game(spec.options(options), seed)
    rng = random.Random(seed)
    while not st.is_terminal and not (stop and stop(st)):
        legal = st.legal_actions()
        st.apply(legal[rng.randrange(len(legal))])
    return st


@pytest.mark.parametrize("seed", range(4))
def test_two_hand_course_ends_at_the_totals(seed: int) -> None:
    result = played_out("pinochle2", {}, seed).observation(0)["result"]
    course = result["course"]
    assert course[-1] == result["totals"]
    assert all(a[s] <= b[s] for a, b in itertools.pairwise(course) for s in (0, 1))


@pytest.mark.parametrize("players", [2, 4, 7])
def test_efudatori_course_has_the_score_after_each_trick(players: int) -> None:
    st = played_out("efudatori", {"players": players}, players)
    obs = st.observation(1)
    assert len(obs["course"]) == obs["tricks_total"] == len(obs["tricks"])
    assert obs["course"][-1] == obs["scores"]
    assert st.observation(0)["course"] == obs["course"]  # public: the same for every seat
    mid = played_out("efudatori", {"players": players}, players,
                     stop=lambda s: len(s.observation(0)["tricks"]) == 2)
    assert mid.observation(0)["course"] is None  # only at the end


@pytest.mark.parametrize("game", ["pinochle4", "pinochle3"])
def test_last_hand_names_the_winner_of_its_last_trick(game: str) -> None:
    def new_hand(st: Any) -> bool:
        return st.observation(0)["last_hand"] is not None

    st = played_out(game, {"target": 500}, 3, stop=new_hand)
    lh = st.observation(0)["last_hand"]
    cards = [c for _, c in lh["last_trick"]]
    leader = lh["last_trick"][0][0]
    n = 4 if game == "pinochle4" else 3
    assert lh["last_trick_winner"] == (leader + winning_index(cards, lh["trump"])) % n


def test_piquet_sheets_keep_each_deals_shown_combinations() -> None:
    st = played_out("piquet", {"four_deals": True}, 2)
    sheets = st.observation(0)["sheets"]
    assert len(sheets) >= 4
    assert any(sh["shown"] for sh in sheets)
    for sh in sheets:
        scored = {lab for _, _, lab in sh["events"]}
        for shown in sh["shown"]:
            assert shown["cards"] and shown["points"] > 0 and shown["seat"] in (0, 1)
            heading = {"point": "Point", "sequence": "Sequences", "set": "Sets"}[shown["class"]]
            assert heading in scored
