"""``cardplaza replay`` tells a deal's details: two-hand Pinochle's trump and turn-up card,
the hands dealt, every draw from the stock, meld points and the running scores; Piquet's
and E-fuda-tori's hands, draws and scores the same way."""

from __future__ import annotations

import io
import random
import re

from rich.console import Console

from cardplaza.cli.replay import replay_record
from cardplaza.core.cards import FULL_DECK, PINOCHLE, PIQUET
from cardplaza.core.history import GameRecord
from cardplaza.core.registry import get_game


def _told(game: str, seed: int) -> tuple[str, GameRecord]:
    spec = get_game(game)
    state = spec.new_game(spec.options_type(), seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        state.apply(rng.choice(list(state.legal_actions())))
    record = GameRecord.of(state)
    out = io.StringIO()
    replay_record(record, Console(file=out, width=200))
    return out.getvalue(), record


def test_two_hand_pinochle_replay_tells_the_deal() -> None:
    text, record = _told("pinochle2", 11)
    start = record.new_state()
    obs = start.observation(0)
    turn_up = PINOCHLE.text(obs["turn_up"])
    assert f"Trump {obs['trump_symbol']} (turn-up card {turn_up})" in text
    for seat in (0, 1):
        hand = PINOCHLE.format_cards(start.observation(seat)["hand"], sort=True)
        assert f"Dealt to Player {seat + 1}: {hand}" in text
    # twelve rounds of draws from the stock, each seat one card a round
    assert len(re.findall(r"Player 1 gets \S+", text)) == 12
    assert len(re.findall(r"Player 2 gets \S+", text)) == 12
    final = record.final_state().observation(0)["result"]
    melds = final["meld_points"]
    assert f"meld points: Player 1 {melds[0]} · Player 2 {melds[1]}" in text
    # the running score after each trick, ending at the final totals
    scores = re.findall(r"score: Player 1 (\d+) · Player 2 (\d+)", text)
    assert len(scores) >= 10
    ones = [int(a) for a, _ in scores]
    assert ones == sorted(ones)                       # scores only grow in a deal
    totals = final["totals"]
    assert f"Player 1 {totals[0]:g}" in text.split("Result")[-1]


def test_piquet_and_efudatori_replays_tell_hands_and_draws() -> None:
    text, record = _told("piquet", 5)
    first = record.new_state()
    hand = PIQUET.format_cards(first.observation(0)["hand"], sort=True)
    assert f"Dealt to Player 1: {hand}" in text
    assert re.search(r"Player 1 gets( \S+){1,5}\n", text)   # the exchange's draws
    assert "deal score: Player 1" in text
    text, record = _told("efudatori", 5)
    first = record.new_state()
    hand = FULL_DECK.format_cards(first.observation(2)["hand"], sort=True)
    assert f"Dealt to Player 3: {hand}" in text
    assert "Player 3 gets" in text and "score: Player 1" in text


def test_a_japanese_replay_shows_no_english_word() -> None:
    """``cardplaza replay --lang ja`` of a whole game of each game: no English word on it
    (card faces such as the Joker's "Jo", and the Enter key, aside)."""
    for game in ("pinochle2", "pinochle4", "pinochle3", "pinochle_dd", "piquet", "efudatori"):
        spec = get_game(game)
        state = spec.new_game(spec.options_type(), 4)
        rng = random.Random(4)
        while not state.is_terminal and len(state.history) < 400:
            state.apply(rng.choice(list(state.legal_actions())))
        out = io.StringIO()
        replay_record(GameRecord.of(state), Console(file=out, width=200), lang="ja")
        told = out.getvalue()
        assert "切り札" in told or not game.startswith("pinochle"), game
        english = sorted({w for w in re.findall(r"[A-Za-z]{2,}", told)
                          if w not in ("Enter", "Jo")})  # a key, the Joker's face
        assert english == [], (game, english)
