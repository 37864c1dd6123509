"""Two-hand Pinochle hints and review: exact playoff values, hidden cards unused."""

from __future__ import annotations

import pytest
from advice_helpers import permuted_pair, played_record, random_position

from cardplaza.ai.advice import Effort, hint, hint_json
from cardplaza.ai.review import review
from cardplaza.ai.solver import brute_force
from cardplaza.core.cards import PINOCHLE
from cardplaza.core.history import GameRecord
from cardplaza.games.pinochle2.engine import POINTS, Options, Pinochle2State


def _cards(text: str, taken: set[int]) -> list[int]:
    out = []
    for t in text.split():
        f = PINOCHLE.parse_face(t)
        c = f if f not in taken else f + 24
        assert c not in taken
        taken.add(c)
        out.append(c)
    return out


def playoff(mine: str, theirs: str, trump: int, behind: int = 0) -> Pinochle2State:
    """Seat 0 to lead in the playoff with these hands; every other card lies in finished
    tricks won by seat 0, and seat 1 has ``behind`` more meld points than seat 0 needs to
    tie the counters so far."""
    st = Pinochle2State(Options(), 0)
    taken: set[int] = set()
    my, th = _cards(mine, taken), _cards(theirs, taken)
    rest = [c for c in range(48) if c not in taken]
    st.trump = trump
    st.stock = []
    st.hands = [sum(1 << c for c in my), sum(1 << c for c in th)]
    st.tricks = [(0, rest[i], rest[i + 1], 0) for i in range(0, len(rest), 2)]
    st.counters = [sum(POINTS[c] for c in rest), 0]
    st.meld_points = [0, st.counters[0] + behind]
    st.melded = [0, 0]
    st.known = [0, 0]
    st.used = [0] * 6
    st.nine_bonus = -1
    st.turn = 0
    st.lead = -1
    return st


def _exact_values(st: Pinochle2State) -> dict[int, float]:
    out = {}
    for a in st.legal_actions():
        child = st.clone()
        child.apply(a)
        out[a % 24] = brute_force(child, 0)
    return out


def test_hint_names_the_one_clearly_best_playoff_card() -> None:
    """Leading the 9♦ first draws the K♦, then the A♥ catches the 10♥: +20; the A♥ first
    gives 0, the 9♥ first −40 (checked by brute force)."""
    st = playoff("A♥ 9♥ 9♦", "10♥ K♦ 9♣", trump=0, behind=10)
    exact = _exact_values(st)
    best_face = max(exact, key=lambda f: exact[f])
    ordered = sorted(exact.values(), reverse=True)
    assert PINOCHLE.text(best_face) == "9♦" and ordered[0] - ordered[1] >= 20
    h = hint("pinochle2", st.observation(0), st.legal_actions(), seed=1)
    assert h.best % 24 == best_face
    assert h.evaluation.exact and h.evaluation.determined
    for c in h.evaluation.choices:
        assert c.value == exact[c.action % 24]  # exact final margins
    out = hint_json("pinochle2", st.observation(0), st.legal_actions(), seed=1)
    assert out["best_text"] == "play 9♦"
    assert out["choices"][0]["value"] == 10.0 and "Exact" in out["reason"]["en"]
    assert "正確" in out["reason"]["ja"]


class _From(GameRecord):
    """A record that starts from a built position instead of a fresh deal."""

    start: Pinochle2State

    def new_state(self) -> Pinochle2State:
        return self.start.clone()


def test_review_marks_a_game_losing_playoff_card_a_blunder_with_the_exact_loss() -> None:
    st = playoff("A♥ 9♥ 9♦", "10♥ K♦ 9♣", trump=0, behind=10)
    exact = _exact_values(st)
    a_hearts = next(a for a in st.legal_actions() if a % 24 == PINOCHLE.parse_face("A♥"))
    rec = _From("pinochle2", {}, 0, [(0, st.action_to_json(a_hearts))])
    rec.start = st
    rev = review(rec, 0)
    (d,) = rev.decisions
    assert d.text == "play A♥" and d.best_text == "play 9♦"
    loss = exact[PINOCHLE.parse_face("9♦")] - exact[PINOCHLE.parse_face("A♥")]
    assert d.exact and d.loss == loss == 20
    # 20 points alone would be an inaccuracy; turning a win into a loss is a blunder.
    assert d.mark == "blunder" and d.win_drop == 1.0
    assert rev.to_json()["summary"]["blunder"] == 1


@pytest.mark.parametrize("seed,steps", [(1, 0), (2, 5), (3, 14), (4, 30), (5, 40)])
def test_hint_never_uses_hidden_cards(seed: int, steps: int) -> None:
    state = random_position("pinochle2", seed, steps)
    a, b = permuted_pair("pinochle2", state, seed)
    legal = state.legal_actions()
    h1 = hint("pinochle2", a, legal, seed=9, effort=Effort(0.25))
    h2 = hint("pinochle2", b, legal, seed=9, effort=Effort(0.25))
    assert h1.best == h2.best and h1.reason == h2.reason
    assert [(c.action, c.value, c.share) for c in h1.evaluation.choices] == [
        (c.action, c.value, c.share) for c in h2.evaluation.choices]


def test_meld_step_hint_and_helper_compare_melds_by_simulation() -> None:
    from cardplaza.ai.advice import helper_json

    state = random_position("pinochle2", 11, 0, keep=lambda s: s.observation(
        s.current_player)["step"] == "meld" and len(s.legal_actions()) > 2)
    obs = state.observation(state.current_player)
    legal = state.legal_actions()
    h = hint("pinochle2", obs, legal, seed=3, effort=Effort(0.2))
    assert h.evaluation.kind == "meld" and h.best in legal
    assert all(c.value is not None for c in h.evaluation.choices)
    table = helper_json("pinochle2", obs, legal, seed=3, seconds=None)
    assert table is not None and table["kind"] == "meld"
    assert {r["text"] for r in table["rows"]} >= {"no meld"}
    assert all(r["text_ja"] for r in table["rows"])


@pytest.mark.slow
def test_experts_own_moves_are_marked_good() -> None:
    """The expert's stock-phase decisions in a game, reviewed with its own budget."""
    marks: list[str | None] = []
    for seed in (21,):
        record = played_record("pinochle2", ["5", "3"], seed,
                               stop=lambda s: len(s.observation(0)["tricks"]) >= 7)
        marks += [d.mark for d in review(record, 0).decisions]
    assert len(marks) >= 6
    assert marks.count("good") >= 0.9 * len(marks)
