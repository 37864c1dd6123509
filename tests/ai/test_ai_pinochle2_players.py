"""Two-hand Pinochle computer levels 1–5 (spec section 11)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardplaza.core.bench import random_steps
from cardplaza.core.cards import PINOCHLE
from cardplaza.games.pinochle2 import SPEC
from cardplaza.games.pinochle2.engine import (
    NO_MELD,
    POINTS,
    ROYAL,
    RUN,
    STEP_MELD,
    STEP_PLAY,
    Options,
    Pinochle2State,
    generate_melds,
)
from cardplaza.games.pinochle2.players import (
    PLAYER_LEVELS,
    Level1,
    Level2,
    Level3,
    SimulationPlayer,
    View,
    make_player,
)
from cardplaza.games.pinochle2.solver import solve_playoff


def cards(text: str) -> list[int]:
    return PINOCHLE.parse_cards(text)


def mask(cs: list[int]) -> int:
    return sum(1 << c for c in cs)


def position(trump_up: str, mine: str, theirs: str, stock: int, lead: str | None = None,
             seat: int = 1) -> Pinochle2State:
    """A stock-phase (or playoff, ``stock=0``) position built by hand.

    ``mine`` is ``seat``'s hand; ``theirs`` the opponent's (including a led card, named
    again in ``lead``). The turn-up plus ``stock - 1`` further cards form the stock; all
    other cards are in finished tricks.
    """
    st = Pinochle2State(Options(), 0)
    my = cards(mine)
    used = set(my)
    th: list[int] = []
    for c in cards(theirs):
        c2 = c if c not in used else c + 24 if c < 24 else c - 24
        th.append(c2)
        used.add(c2)
    rest = [c for c in range(48) if c not in used]
    up = PINOCHLE.parse_cards(trump_up)[0]
    if up in used:
        up = up + 24 if up < 24 else up - 24
    if up in used:  # both copies held: any free card of the suit is the turn-up
        up = next(c for c in rest if (c % 24) // 6 == (up % 24) // 6)
    if stock:
        rest.remove(up)
    stock_cards = [up, *rest[:max(0, stock - 1)]] if stock else []
    played = rest[max(0, stock - 1):] if stock else rest
    st.trump = (up % 24) // 6
    st.stock = stock_cards
    st.hands = [0, 0]
    st.hands[seat] = mask(my)
    st.hands[1 - seat] = mask(th)
    st.tricks = [(0, played[i], played[i + 1], 0) for i in range(0, len(played), 2)]
    st.counters = [sum(POINTS[c] for c in played), 0]
    st.melded = [0, 0]
    st.known = [0, 0]
    st.used = [0] * 6
    st.step = STEP_PLAY
    st.lead = -1
    st.turn = seat
    if lead is not None:
        lc = next(c for c in th if PINOCHLE.text(c) == lead)
        st.hands[1 - seat] &= ~(1 << lc)
        st.lead = lc
    return st


def choose(player: Any, state: Pinochle2State, seed: int = 0) -> Any:
    seat = state.turn
    return player.choose(state.observation(seat), state.legal_actions(), random.Random(seed))


def text(state: Pinochle2State, action: Any) -> str:
    return state.action_text(action)


def small(level: str) -> Any:
    """Levels 4 and 5 with few samples (same code paths) for fast tests."""
    if level == "4":
        return SimulationPlayer("4", 3, exact_playoff=False, min_samples=3)
    if level == "5":
        return SimulationPlayer("5", 3, exact_playoff=True, min_samples=3)
    return make_player(level, 0)


def advance(seed: int, steps: int) -> Pinochle2State:
    state = Pinochle2State(Options(), seed)
    random_steps(state, random.Random(seed), steps)
    return state


# -- common requirements (11.1) --------------------------------------------------------

@pytest.mark.parametrize("level", PLAYER_LEVELS)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 60), choice=st.integers(0, 999))
@settings(max_examples=12, deadline=None)
def test_fairness_redealing_unseen_cards_never_changes_the_decision(level, seed, steps,
                                                                    choice) -> None:
    """11.1: permuting the cards the computer cannot see never changes its decision."""
    state = advance(seed, steps)
    if state.is_terminal:
        return
    seat = state.turn
    other = SPEC.permute_unseen(state, seat, random.Random(seed ^ 0x5A5A))  # type: ignore[misc]
    assert other.observation(seat) == state.observation(seat)
    a = small(level).choose(state.observation(seat), state.legal_actions(),
                            random.Random(choice))
    b = small(level).choose(other.observation(seat), other.legal_actions(),
                            random.Random(choice))
    assert a == b
    assert a in state.legal_actions()


@pytest.mark.parametrize("level", PLAYER_LEVELS)
def test_levels_play_whole_deals_legally_and_reproducibly(level: str) -> None:
    def play(seed: int) -> list[Any]:
        state = Pinochle2State(Options(), seed)
        players = [small(level), small("3" if level != "3" else "2")]
        rngs = [random.Random(seed), random.Random(seed + 1)]
        while not state.is_terminal:
            seat = state.turn
            legal = state.legal_actions()
            action = players[seat].choose(state.observation(seat), legal, rngs[seat])
            assert action in legal
            state.apply(action)
        return list(state.history)

    assert play(4) == play(4)


def test_make_player_rejects_unknown_levels() -> None:
    with pytest.raises(ValueError, match="levels: 1, 2, 3, 4, 5"):
        make_player("6", 0)
    assert PLAYER_LEVELS == ("1", "2", "3", "4", "5")


# -- level 1 ----------------------------------------------------------------------------

def test_level1_always_melds_when_it_can() -> None:
    """T-28: level 1 never declines an available meld."""
    for seed in range(40):
        state = advance(seed, 0)
        rng = random.Random(seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            action = Level1().choose(state.observation(state.turn), legal, rng)
            if state.step == STEP_MELD and len(legal) > 1:
                assert action != NO_MELD
            state.apply(action)


# -- level 2 (11.3) ---------------------------------------------------------------------

def test_level2_melds_the_most_points() -> None:
    state = position("9♠", "A♠ 10♠ K♠ Q♠ J♠ Q♠ J♦ A♥ A♦ A♣ 9♥ 9♣", "9♦ " * 1 + "10♥ 10♦ 10♣ "
                     "K♥ K♦ K♣ Q♥ Q♦ Q♣ J♥ J♣", stock=20)
    # Make it the meld step for seat 1 after a won trick.
    state.step = STEP_MELD
    state.pending = generate_melds(state.hands[1], 0, 0, state.used, state.trump, False, True)
    action = choose(Level2(), state)
    assert action[0] == RUN
    assert choose(Level3(), state)[0] == RUN


def test_level2_wins_with_its_cheapest_winning_card() -> None:
    """11.3: meld ready or counter led -> cheapest winner: a non-counter of the led suit,
    then the lowest trump (never A or 10 of trump), then a counter of the led suit."""
    # A marriage (K♦ Q♦) is ready: win the 9♥ with Q♥.
    state = position("9♠", "A♥ Q♥ 9♠ J♣ 9♣ Q♦ 9♦ J♦ Q♣ 10♣ K♦ 10♦", "9♥ 9♠ A♣ K♥ K♣ "
                     "A♦ 10♥ 10♠ J♠ Q♠ K♠ A♠", stock=20, lead="9♥")
    assert text(state, choose(Level2(), state)) == "play Q♥"
    # A counter led: the 9♠ (lowest trump) before the A♥.
    state = position("9♠", "A♥ Q♥ 9♠ J♣ 9♣ Q♦ 9♦ J♦ Q♣ 9♥ K♦ 10♦", "K♥ 9♠ A♣ 10♣ K♣ "
                     "A♦ 10♥ 10♠ J♠ Q♠ K♠ A♠", stock=20, lead="10♥")
    assert text(state, choose(Level2(), state)) == "play 9♠"
    # Only the A and 10 of trump would trump it: the A♥ wins instead.
    state = position("9♠", "A♥ Q♥ A♠ J♣ 9♣ Q♦ 9♦ J♦ Q♣ 9♥ 10♠ 10♦", "K♥ 9♠ A♣ 10♣ K♣ "
                     "A♦ 10♥ K♠ J♠ Q♠ K♠ 9♠", stock=20, lead="10♥")
    assert text(state, choose(Level2(), state)) == "play A♥"


def test_level2_never_wins_with_the_ace_or_ten_of_trump_in_the_stock_phase() -> None:
    state = position("9♠", "A♠ 10♠ J♣ 9♣ Q♦ 9♦ J♦ Q♣ 9♥ J♥ Q♥ 9♣", "K♥ 9♠ A♣ 10♣ K♣ "
                     "A♦ 10♥ 10♠ J♠ Q♠ K♠ A♥", stock=20, lead="A♥")
    action = choose(Level2(), state)
    assert text(state, action) not in ("play A♠", "play 10♠")
    assert POINTS[action] == 0  # it cannot win cheaply: least valuable card


def test_level2_leads_a_low_plain_card_not_needed_for_a_meld() -> None:
    state = position("9♠", "K♥ Q♥ 9♦ A♠ 10♠ A♥ 10♦ K♣ 9♥ J♣ A♣ 10♣", "K♦ Q♦ J♦ 9♠ Q♣ "
                     "A♦ 10♥ 10♠ J♠ Q♠ K♠ J♥", stock=20)
    # K♥ Q♥ is a marriage: not led; the lowest plain non-counter is 9♦ or 9♥ (rank 9).
    assert text(state, choose(Level2(), state)) in ("play 9♦", "play 9♥")


def test_level2_playoff_leads_a_plain_ace() -> None:
    state = position("9♠", "A♥ 9♦ J♠", "K♥ 10♦ Q♠", stock=0)
    assert text(state, choose(Level2(), state)) == "play A♥"


def test_level2_playoff_must_win_with_the_lowest_winner() -> None:
    state = position("9♠", "A♥ 10♥ 9♦", "K♥ 10♦ Q♠", stock=0, lead="K♥")
    assert text(state, choose(Level2(), state)) == "play 10♥"


# -- level 3 (11.4) ---------------------------------------------------------------------

def test_level3_prefers_another_meld_while_waiting_for_the_run() -> None:
    state = position("9♠", "K♠ Q♠ K♥ Q♥ 9♦ 9♣ J♣ 9♥ J♥ 9♦ 10♦ 10♥", "A♦ Q♦ K♦ A♣ "
                     "10♣ K♣ A♥ Q♣ 9♠ 10♠ J♠ J♦", stock=20)
    state.step = STEP_MELD
    state.pending = generate_melds(state.hands[1], 0, 0, state.used, state.trump, False, True)
    assert choose(Level2(), state)[0] == ROYAL  # level 2: most points
    assert choose(Level3(), state)[0] != ROYAL  # the A, 10, J of trump are still unseen


def test_level3_keeps_meld_cards_when_leading() -> None:
    state = position("9♠", "K♥ Q♥ K♦ Q♦ K♣ Q♣ Q♠ J♦ A♠ A♥ A♦ 9♥", "A♣ 10♦ J♠ 9♠ Q♥ "
                     "10♥ 10♠ 10♣ J♣ J♥ K♠ 9♦", stock=20)
    assert text(state, choose(Level3(), state)) == "play 9♥"


def test_level3_tries_to_lose_trick_12_under_a_high_turn_up() -> None:
    state = position("A♠", "9♥ J♣ 9♣ Q♦ 9♦ J♦ Q♣ J♥ Q♥ K♦ 10♦ 9♠", "K♥ 9♠ A♣ 10♣ K♣ "
                     "A♦ 10♥ 10♠ J♠ Q♠ K♠ A♥", stock=2, lead="J♠")
    action = choose(Level3(), state)
    assert text(state, action) != "play 9♠" and POINTS[action] == 0


def test_level3_playoff_reads_one_trick_ahead() -> None:
    """Leading: the A♦ wins a counter only if the opponent must follow with a counter."""
    state = position("9♠", "A♦ 9♥", "K♦ Q♥", stock=0)
    assert text(state, choose(Level3(), state)) == "play A♦"
    # Following: take the 10 with the A when it can.
    state = position("9♠", "A♦ 9♦ J♠", "10♦ Q♥ K♣", stock=0, lead="10♦")
    assert text(state, choose(Level3(), state)) == "play A♦"


def test_view_from_state_matches_view_from_observation() -> None:
    for seed in range(25):
        state = advance(seed, seed * 2)
        if state.is_terminal:
            continue
        a = View.from_state(state)
        b = View.from_observation(state.observation(state.turn))
        for name in ("seat", "trump", "hand", "melded", "known", "stock_count", "turn_up",
                     "lead", "step", "played", "unseen", "opp_hand"):
            assert getattr(a, name) == getattr(b, name), name
        assert list(a.used) == list(b.used)


# -- levels 4 and 5 ---------------------------------------------------------------------

def test_level4_simulates_40_samples_in_the_stock_phase() -> None:
    state = advance(1, 0)
    player = make_player("4", 0)
    player.search.worlds = 40
    action = choose(player, state)
    assert action in state.legal_actions()
    assert player.last_stats["worlds"] == 40


def test_level4_plays_level3_in_the_playoff() -> None:
    state = position("9♠", "A♦ 9♥ K♣", "K♦ Q♥ 10♣", stock=0)
    assert choose(make_player("4", 0), state) == choose(Level3(), state)


def test_level5_plays_the_exact_solver_in_the_playoff() -> None:
    state = advance(9, 0)
    rng = random.Random(9)
    while state.stock or state.step != STEP_PLAY:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    action = choose(make_player("5", 0), state)
    best = solve_playoff(state)
    child = state.clone()
    child.apply(action)
    seat = state.turn
    before = state.totals()[seat] - state.totals()[1 - seat]
    # The chosen card is worth the optimal value.
    if child.turn == seat:
        value = solve_playoff(child).value
    else:
        value = -solve_playoff(child).value if not child.is_terminal else 0
    after = child.totals()[seat] - child.totals()[1 - seat]
    assert after - before + value == best.value


def _meld_step(state: Pinochle2State) -> Pinochle2State:
    state.step = STEP_MELD
    seat = state.turn
    state.pending = generate_melds(state.hands[seat], 0, 0, state.used, state.trump, False,
                                   True)
    return state


def test_level3_waits_for_the_run_instead_of_melding_the_royal_marriage() -> None:
    """Seed 001: level 3 keeps the royal marriage unmelded while a run is still possible.
    K♥ Q♥ A♥ held, 10♥ and J♥ unseen, 22 cards in the stock, the royal marriage the only
    meld: level 3 declines (as level 4 does), level 2 melds it."""
    state = _meld_step(position("9♥", "K♥ Q♥ A♥ 9♠ J♠ 9♦ J♦ 9♣ J♣ A♣ K♦ 10♠", "Q♠ Q♦ "
                                "K♣ A♦ 10♦ A♠ K♠ 10♣ Q♣ 9♣ J♣ 9♦", stock=22))
    assert [a[0] for a in state.pending] == [ROYAL]
    obs = state.observation(state.turn)
    assert {PINOCHLE.text(c) for c in obs["unseen"]} >= {"10♥", "J♥"}
    assert choose(Level2(), state)[0] == ROYAL
    assert choose(Level3(), state) == NO_MELD
    assert choose(make_player("4"), state) == NO_MELD


def test_level3_melds_the_royal_marriage_once_the_run_is_impossible() -> None:
    """Both 10♥ are gone (played): no run can be made, so the royal marriage is melded."""
    state = _meld_step(position("9♥", "K♥ Q♥ A♥ 9♠ J♠ 9♦ J♦ 9♣ J♣ A♣ K♦ 10♠", "Q♠ Q♦ "
                                "K♣ A♦ 10♦ A♠ K♠ 10♣ Q♣ 9♣ J♣ 9♦", stock=6))
    assert choose(Level3(), state) == NO_MELD  # 6 cards left, 10♥ and J♥ unseen: it waits
    tens = [c for c in range(48) if PINOCHLE.text(c) == "10♥"]
    for c in tens:  # swap each 10♥ of the stock with a plain card of a finished trick
        if c in state.stock:
            i = state.stock.index(c)
            k, trick = next((k, t) for k, t in enumerate(state.tricks)
                            if POINTS[t[1]] == 0 and PINOCHLE.text(t[1])[-1] != "♥")
            state.stock[i] = trick[1]
            state.tricks[k] = (trick[0], c, trick[2], trick[3])
    obs = state.observation(state.turn)
    assert not any(PINOCHLE.text(c) == "10♥" for c in obs["unseen"])
    assert choose(Level3(), state)[0] == ROYAL
