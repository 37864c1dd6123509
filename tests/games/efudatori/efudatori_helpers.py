"""Helpers to build E-fuda-tori positions from card texts (seats 0-3 = P1-P4, P4 deals)."""

from __future__ import annotations

from cardplaza.core.cards import FULL_DECK
from cardplaza.games.efudatori import EfudatoriState, Options
from cardplaza.games.efudatori.rules import card as make_card


def c(text: str) -> int:
    """Card id of a text such as ``QH`` or ``Jo``."""
    return FULL_DECK.card(FULL_DECK.parse_face(text))


def cs(text: str) -> set[int]:
    """Set of card ids of a space-separated text."""
    return set(FULL_DECK.parse_cards(text))


def position(hands: list[str], trick_number: int, leader: int,
             players: int = 4, stock: list[int] | None = None) -> EfudatoriState:
    """A state at the start of trick ``trick_number`` with these hands (P1 first)."""
    s = EfudatoriState(Options(players=players), 0)
    s.dealer = (leader - 1) % players
    s.hands = [FULL_DECK.parse_mask(h) for h in hands]
    s.known = [0] * players
    s.captured = [0] * players
    s.stock = list(stock or [])
    s.trick_number = trick_number
    s.leader = leader
    s.trick = []
    s.cur = leader
    s.tricks_log = []
    s.draws_log = []
    return s


def play(s: EfudatoriState, cards: str) -> None:
    """Apply the cards of a space-separated text in order."""
    for t in cards.split():
        s.apply(c(t))


__all__ = ["c", "cs", "make_card", "play", "position"]
