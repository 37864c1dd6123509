"""Piquet and E-fuda-tori hints and review: exact endgames, hidden cards unused."""

from __future__ import annotations

import random

import pytest
from advice_helpers import permuted_pair, played_record, random_position

from cardplaza.ai.advice import Effort, advisor, helper_json, hint, hint_json
from cardplaza.ai.player import computer_player
from cardplaza.ai.review import review
from cardplaza.core.history import GameRecord
from cardplaza.core.protocol import Action
from cardplaza.games.efudatori import Options as EOptions
from cardplaza.games.efudatori.players import EXACT_LEAVES, play_orders
from cardplaza.games.efudatori.players import exact_values as efudatori_exact
from cardplaza.games.efudatori.state import EfudatoriState
from cardplaza.games.piquet import Options as POptions
from cardplaza.games.piquet.players import TrickRules, trick_position
from cardplaza.games.piquet.players import exact_values as piquet_exact
from cardplaza.games.piquet.state import PiquetState

# -- Piquet ---------------------------------------------------------------------------------

OPEN = POptions(younger_may_exchange_zero="on", show_untaken=True)
"""Younger may take no card and the untaken talon is shown: once Younger has exchanged
nothing, Elder sees every card but Younger's hand, so Elder's endgames are determined."""


@pytest.mark.parametrize("seed,steps", [(1, 0), (2, 1), (3, 12), (4, 30), (5, 50)])
def test_piquet_hint_never_uses_hidden_cards(seed: int, steps: int) -> None:
    state = random_position("piquet", seed, steps)
    a, b = permuted_pair("piquet", state, seed)
    legal = state.legal_actions()
    h1 = hint("piquet", a, legal, seed=3, effort=Effort(0.2))
    h2 = hint("piquet", b, legal, seed=3, effort=Effort(0.2))
    assert h1.best == h2.best and h1.reason == h2.reason
    assert [(c.action, c.value) for c in h1.evaluation.choices] == [
        (c.action, c.value) for c in h2.evaluation.choices]


def test_piquet_exchange_helper_lists_the_best_discards() -> None:
    state = random_position("piquet", 7, 0)
    obs = state.observation(state.current_player)
    assert obs["phase"] == "exchange_elder"
    table = helper_json("piquet", obs, state.legal_actions(), seed=1, seconds=None)
    assert table is not None and table["kind"] == "exchange" and table["role"] == "elder"
    values = [r["value"] for r in table["rows"]]
    assert len(values) >= 5 and values[0] == max(values)
    assert all(1 <= r["count"] <= 5 for r in table["rows"])
    out = hint_json("piquet", obs, state.legal_actions(), seed=1)
    assert out["best_text"].startswith("discard ") and "捨て" in out["reason"]["ja"]


def _elder_endgame(seed: int) -> tuple[PiquetState, dict[Action, float]] | None:
    """An Elder decision with at most five cards left in a determined endgame, with the
    exact value of each card (seat 0's margin, from Elder's side)."""
    state = PiquetState(OPEN, seed)
    players = [computer_player("piquet", "2", seed + s) for s in (0, 1)]
    rng = random.Random(seed)
    while not state.is_terminal and state.observation(0)["deal"] == 1:
        seat = state.current_player
        obs = state.observation(seat)
        legal = state.legal_actions()
        if obs["phase"] == "exchange_younger":
            zero = [a for a in legal if isinstance(a, tuple) and a[1] == 0]
            if not zero:
                return None
            state.apply(zero[0])
            continue
        if (obs["phase"] == "play" and seat == obs["elder"] and len(obs["hand"]) <= 5
                and len(set(legal)) > 1):
            cards = [a for a in legal if isinstance(a, int)]
            values, _nodes = piquet_exact(trick_position(state), cards, TrickRules.of(state))
            sign = 1 if seat == 0 else -1
            return state, {c: float(sign * v) for c, v in zip(cards, values, strict=True)}
        state.apply(players[seat].choose(obs, legal, rng))
    return None


def test_piquet_review_loss_matches_the_exact_endgame_solver() -> None:
    found = None
    for seed in range(60):
        got = _elder_endgame(seed)
        if got is None:
            continue
        state, exact = got
        if max(exact.values()) - min(exact.values()) >= 12:
            found = got
            break
    assert found is not None, "no endgame with a blunder to make"
    state, exact = found
    seat = state.current_player
    h = hint("piquet", state.observation(seat), state.legal_actions(), seed=1)
    assert h.evaluation.exact and h.evaluation.determined
    assert exact[h.best] == max(exact.values())
    worst = min(exact, key=lambda c: exact[c])
    record = GameRecord.of(state)
    record.actions.append((seat, state.action_to_json(worst)))
    d = review(record, seat).decisions[-1]
    assert d.action == worst and d.exact
    assert d.loss == pytest.approx(max(exact.values()) - exact[worst])
    assert d.mark == "blunder"


@pytest.mark.slow
def test_piquet_experts_own_moves_are_marked_good() -> None:
    record = played_record("piquet", ["expert", "4"], 3, POptions(four_deals=True),
                           stop=lambda s: s.observation(0)["deal"] > 2)
    marks = [d.mark for d in review(record, 0).decisions]
    assert len(marks) >= 12
    assert marks.count("good") >= 0.9 * len(marks)


# -- E-fuda-tori ------------------------------------------------------------------------------

@pytest.mark.parametrize("players,seed,steps", [(4, 1, 0), (4, 2, 9), (3, 3, 20),
                                                (2, 4, 30), (7, 5, 10)])
def test_efudatori_hint_never_uses_hidden_cards(players: int, seed: int, steps: int) -> None:
    state = random_position("efudatori", seed, steps, EOptions(players=players))
    a, b = permuted_pair("efudatori", state, seed)
    legal = state.legal_actions()
    h1 = hint("efudatori", a, legal, seed=3, effort=Effort(0.2))
    h2 = hint("efudatori", b, legal, seed=3, effort=Effort(0.2))
    assert h1.best == h2.best and h1.reason == h2.reason
    assert [(c.action, c.value) for c in h1.evaluation.choices] == [
        (c.action, c.value) for c in h2.evaluation.choices]


def _two_player_end(seed: int) -> tuple[EfudatoriState, dict[int, float]] | None:
    state = random_position("efudatori", seed, 0, EOptions(players=2),
                            keep=lambda s: s.observation(s.current_player)["stock_size"] == 0
                            and len(s.legal_actions()) > 1)
    assert isinstance(state, EfudatoriState)
    seat = state.current_player
    cards = [a for a in state.legal_actions() if isinstance(a, int)]
    values = efudatori_exact(state.hands, state.trick, state.leader, state.trick_number,
                             state.captured, cards, seat, 2, state.tricks_total, False)
    return state, dict(zip(cards, values, strict=True))


def test_efudatori_clearly_best_card_and_exact_review_loss() -> None:
    found = None
    for seed in range(80):
        got = _two_player_end(seed)
        if got is None:
            continue
        vals = sorted(got[1].values(), reverse=True)
        if vals[0] - vals[1] >= 20:
            found = got
            break
    assert found is not None, "no two-player end with one clearly best card"
    state, exact = found
    seat = state.current_player
    h = hint("efudatori", state.observation(seat), state.legal_actions(), seed=2)
    assert h.evaluation.exact and h.evaluation.determined
    assert h.best == max(exact, key=lambda c: exact[c])
    assert "Exact" in h.reason["en"]
    worst = min(exact, key=lambda c: exact[c])
    record = GameRecord.of(state)
    record.actions.append((seat, state.action_to_json(worst)))
    d = review(record, seat).decisions[-1]
    assert d.exact and d.loss == pytest.approx(max(exact.values()) - exact[worst])
    assert d.mark == "blunder"


@pytest.mark.parametrize("players", [3, 4])
def test_efudatori_hint_solves_the_endings_the_expert_solves(players: int) -> None:
    """Three or four hands of four once the stock is empty: more play orders than the lower
    levels solve, but the expert solves them, and so does its hint: exact values, no trick
    chances read off play-outs."""
    state = random_position("efudatori", 1, 0, EOptions(players=players),
                            keep=lambda s: s.observation(s.current_player)["stock_size"] == 0
                            and len(s.legal_actions()) > 1)
    obs = state.observation(state.current_player)
    assert play_orders(obs["hand_sizes"]) > EXACT_LEAVES
    h = hint("efudatori", obs, state.legal_actions(), seed=2)
    assert h.evaluation.exact and not h.evaluation.determined
    assert all(c.facts == {} for c in h.evaluation.choices)
    assert "exactly" in h.reason["en"]


@pytest.mark.slow
def test_efudatori_experts_own_moves_are_marked_good() -> None:
    marks: list[str | None] = []
    for seed in (1, 2):
        record = played_record("efudatori", ["expert", "2", "2", "2"], seed)
        marks += [d.mark for d in review(record, 0).decisions]
    assert len(marks) >= 12
    assert marks.count("good") >= 0.9 * len(marks)


def test_thresholds_are_per_game() -> None:
    got = {g: advisor(g).thresholds_for(random_position(g, 1, 0).observation(0))
           for g in ("pinochle2", "pinochle4", "piquet", "efudatori")}
    assert len({(t.inaccuracy, t.mistake, t.blunder) for t in got.values()}) == 4
