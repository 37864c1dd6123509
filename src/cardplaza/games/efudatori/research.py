"""E-fuda-tori for the research adapters: card ids as action numbers, tensors of a view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardplaza.core.protocol import Action, GameState
from cardplaza.core.registry import GameSpec, get_game
from cardplaza.games.efudatori.rules import deck_mask
from cardplaza.research.core import ResearchCodec, Tensor

DECK = 53


class EfudatoriCodec(ResearchCodec):
    """Action ``c`` is card ``c`` (0 … 52, the Joker 52)."""

    chance_at_deal_start_only = True
    """The one deal (and its drawn number) is the game's only chance: the adapter keeps no
    list of the deal's actions to replay."""

    def spec(self) -> GameSpec:
        """E-fuda-tori."""
        return get_game("efudatori")

    def num_actions(self, options: Any) -> int:
        """53 cards."""
        return DECK

    def encode(self, state: GameState, action: Action) -> int:
        """The card id."""
        assert type(action) is int
        return action

    def numbers(self, state: GameState, player: int | None = None) -> list[int]:
        """The legal cards, which the engine lists in order (a copy: the engine keeps its
        list)."""
        if player is not None and player != state.current_player:
            return []
        return state.legal_actions().copy()  # type: ignore[attr-defined, no-any-return]

    def max_game_length(self, options: Any, max_deals: int | None = None) -> int:
        """One deal, always this long: the dealer drawn (one chance node), the deck dealt
        (a chance node per card but the last) and every card played."""
        cards = deck_mask(options.players).bit_count()
        return 1 + (cards - 1) + cards

    def fixed_actions(self, options: Any) -> tuple[int, Sequence[Action]]:
        """Cards: the number is the card."""
        return 0, tuple(range(DECK))

    def decode(self, state: GameState, number: int) -> Action:
        """The card id."""
        if not 0 <= number < DECK:
            raise ValueError(f"{number} is not a card")
        return number

    def tensor(self, observation: dict[str, Any], options: Any,
               perfect_recall: bool) -> list[float]:
        """Own hand; per seat (from the observer on) the face-up drawn cards held, the card
        in the current trick, the captured cards and the score; trick number, trump, seat
        to play and leader; with perfect recall the deal's order of play."""
        o = observation
        n, me = o["players"], o["seat"]
        t = Tensor()
        t.cards(o["hand"], DECK)
        rel = [(me + i) % n for i in range(n)]
        trick = dict(o["trick"])
        for s in rel:
            t.cards(o["known_cards"][s], DECK)
            t.cards([trick[s]] if s in trick else [], DECK)
            t.cards(o["captured"][s], DECK)
            t.value(o["scores"][s] / 140)
        t.value(o["trick_number"] / o["tricks_total"])
        t.one_hot(o["trump"], 4)
        t.one_hot((o["to_play"] - me) % n if o["to_play"] >= 0 else None, n)
        t.one_hot((o["leader"] - me) % n, n)
        t.value(o["stock_size"] / DECK)
        if perfect_recall:
            plays = [((s - me) % n, c, i) for i, tr in enumerate(o["tricks"])
                     for s, c in tr["cards"]]
            plays += [((s - me) % n, c, len(o["tricks"])) for s, c in o["trick"]]
            t.play_order(plays, DECK, n, o["tricks_total"])
        return t.values


CODEC = EfudatoriCodec()
