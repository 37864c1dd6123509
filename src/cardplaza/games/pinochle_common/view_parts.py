"""Pieces of the Pinochle terminal views that read the same observation fields in every
Pinochle game: the menu, numbers typed in the auction, the header, trick lines, the hand's
history and a forced card. A game's ``View`` mixes in :class:`PinochleViewParts` before the
terminal's ``ViewBase`` and supplies :meth:`_card` (a card as Rich markup),
:meth:`_scores` and :attr:`PLAY_KIND`; :meth:`_rich` turns a line into what the console
prints (the game's view may colour the cards in it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.console import Console
from rich.text import Text

from cardplaza.core.protocol import Action, GameState, IllegalAction
from cardplaza.games.pinochle_common.actions import SUIT_SYMBOLS


class PinochleViewParts:
    """Shared parts of the Pinochle terminal views (see the module docstring)."""

    PLAY_KIND: ClassVar[int]
    console: Console
    seat: int

    # -- hooks ----------------------------------------------------------------------------
    def name(self, obs: dict[str, Any], seat: int) -> str:
        raise NotImplementedError

    def _card(self, card: int) -> str:
        raise NotImplementedError

    def _scores(self, obs: dict[str, Any]) -> str:
        raise NotImplementedError

    def _rich(self, text: str) -> str | Text:
        """A line as printed (plain Rich markup unless the view colours cards)."""
        return text

    def _bids_line(self, obs: dict[str, Any]) -> str:
        """The auction so far, one ``seat amount`` a bid."""
        return ", ".join(f"{self.name(obs, s)} {'pass' if a == 0 else a}"
                         for s, a in obs["bids"]) or "no bids yet"

    def _fallback_forced(self, state: GameState, observation: dict[str, Any],
                         action: Action) -> None:
        raise NotImplementedError

    # -- shared parts ---------------------------------------------------------------------
    def menu(self, state: GameState, observation: dict[str, Any],
             legal: Sequence[Action]) -> list[Action]:
        """The engine's numbered menu."""
        return list(state.choices())  # type: ignore[attr-defined]

    def parse_number(self, state: GameState, observation: dict[str, Any],
                     number: int) -> Action | None:
        """In the auction a bare number is a bid amount."""
        if observation["phase"] != "bidding":
            return None
        action = state.parse_action(f"bid {number}")
        reason = state.illegal_reason(action)
        if reason is not None:
            raise IllegalAction(f"{reason}. In the auction a number is a bid amount; "
                                f"#{number} picks item {number} of the list")
        return action

    def show_forced(self, state: GameState, observation: dict[str, Any],
                    action: Action) -> None:
        """A forced card: the trick so far and the card."""
        obs = observation
        if obs["phase"] == "play" and isinstance(action, tuple) and action[0] == self.PLAY_KIND:
            trick = self._trick_line(obs, obs["trick"])
            where = f"Trick: {trick}.  " if trick else ""
            self.console.print(f"{where}Your only legal card: {self._card(action[1])}.")
            return
        self._fallback_forced(state, observation, action)

    def show_history(self, state: GameState, observation: dict[str, Any]) -> None:
        """The auction and every trick of this hand."""
        obs = observation
        self.console.rule(f"Hand {obs['hand_number']} so far")
        self.console.print(f"Auction: {self._bids_line(obs)}")
        if obs["bidder"] is not None:
            stuck = " (stuck dealer)" if obs["stuck_dealer"] else ""
            trump = "" if obs["trump"] is None else f", trump {SUIT_SYMBOLS[obs['trump']]}"
            self.console.print(f"Contract: {obs['contract']} by "
                               f"{self.name(obs, obs['bidder'])}{stuck}{trump}")
        if not obs["tricks"]:
            self.console.print("No trick has been played yet in this hand.")
        for i, t in enumerate(obs["tricks"], 1):
            self.console.print(self._rich(f"Trick {i:2d}: {self._trick_line(obs, t['cards'])}"
                                          f"  → {self.name(obs, t['winner'])}"))

    def _header(self, obs: dict[str, Any]) -> None:
        trump = "—" if obs["trump"] is None else SUIT_SYMBOLS[obs["trump"]]
        contract = ""
        if obs["bidder"] is not None:
            contract = f"  Contract: {obs['contract']} by {self.name(obs, obs['bidder'])}"
        self.console.rule(f"Hand {obs['hand_number']} — dealer {self.name(obs, obs['dealer'])}"
                          f"  Trump: {trump}{contract}")
        self.console.print(self._scores(obs))

    def _trick_line(self, obs: dict[str, Any], cards: list[list[int]]) -> str:
        return "  ".join(f"{self.name(obs, s)}: {self._card(c)}" for s, c in cards)

    def _play_news(self, obs: dict[str, Any], who: str, card: int) -> None:
        """A card played, and the trick's winner when it completes the trick."""
        self.console.print(self._rich(f"{who} plays {self._card(card)}"))
        if not obs["trick"] and obs["tricks"] and obs["phase"] == "play":
            self.console.print(f"  → trick to {self.name(obs, obs['tricks'][-1]['winner'])}")

    def _give_news(self, obs: dict[str, Any], seat: int, who: str, card: int) -> None:
        """A card passed: shown to the giver, counted for the others once all are given."""
        if seat == self.seat:
            self.console.print(self._rich(f"{who} passes {self._card(card)}"))
        elif obs["passing"]["done"][seat] and (seat + 2) % 4 != self.seat:
            to = self.name(obs, (seat + 2) % 4)
            self.console.print(f"{who} passes {obs['passing']['count']} cards to {to}.")
