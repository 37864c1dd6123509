"""E-fuda-tori (絵札とり): trick-taking with a draw stock, a rotating trump and three
special cards; only captured K (20), Q (10) and J (5) score, a K-Q-J of one suit 50.

Rules: the E-fuda-tori specification (decisions E-1 … E-26). Cards are
:data:`cardplaza.core.cards.FULL_DECK` ids: ``suit * 13 + rank - 2`` with ♠ 0, ♥ 1, ♦ 2,
♣ 3 (``card % 13``: 0 = 2 … 12 = A) and the Joker 52. An action is the id of the card
played (JSON: that int; a card text such as ``"QH"`` is also accepted).

Observation schema (``state.observation(seat)``, JSON-ready; cards are ids as above,
seats are 0 … players-1 clockwise, so seat ``s + 1`` sits on ``s``'s left):

``game``            ``"efudatori"``
``seat``            the observing seat
``players``         number of players (2–7)
``names``           display name of each seat
``simple_scoring``  true if K-Q-J sets give no bonus
``deck``            the cards of this player count's deck (spec 3.1), sorted
``tricks_total``    tricks in the game (deck size / players)
``dealer``          the dealer's seat (the seat on his left led trick 1)
``trick_number``    current trick, 1-based (the last trick once the game is over)
``trump``           trump suit index of the current trick (♣ 3, ♦ 2, ♥ 1; never ♠ 0)
``leader``          leader of the current trick (winner of the last trick once over)
``to_play``         seat to play, -1 when the game is over
``hand``            the observing seat's own cards, sorted
``hand_sizes``      number of cards in each hand
``known_cards``     per seat, the cards publicly known to be in that hand: face-up stock
                    cards it drew and has not played yet
``stock_size``      cards left in the stock (the top one face down)
``trick``           cards of the current trick so far: ``[[seat, card], …]`` in play order
``tricks``          completed tricks: ``{"number", "trump", "leader",
                    "cards": [[seat, card], …], "winner"}``
``draws``           draw rounds: ``{"after_trick", "winner", "face_down", "face_up"}``;
                    ``face_down`` is the card the winner drew, shown only in the winner's
                    own observation (``null`` for everybody else); ``face_up`` lists
                    ``[seat, card]`` of the other players' draws in drawing order (public)
``captured``        per seat, every card it has captured (public, E-19)
``scores``          per seat, points of its captured cards so far
``sets``            per seat, number of complete K-Q-J suit sets captured
``legal``           the observing seat's legal cards when it is to play, else ``[]``
``terminal``        true once every hand is empty
``ranking``         competition rank of each seat at the end (1, 1, 3 …), else ``null``

Nothing else is visible: other hands (beyond ``known_cards``), the stock's order and
other winners' face-down draws stay hidden. The dealer is drawn with the state's RNG.
"""

from __future__ import annotations

from cardplaza.core.registry import GameSpec, register
from cardplaza.games.efudatori.rules import Options
from cardplaza.games.efudatori.state import EfudatoriState
from cardplaza.games.efudatori.worlds import check_invariants, permute_unseen, sample_world

SPEC = register(GameSpec(
    name="efudatori",
    title="E-fuda-tori",
    title_ja="絵札とり",
    options_type=Options,
    new_state=EfudatoriState,
    presets={
        "players2": Options(players=2),
        "players3": Options(players=3),
        "players5": Options(players=5),
        "players6": Options(players=6),
        "players7": Options(players=7),
        "simple_scoring": Options(simple_scoring=True),
    },
    check_invariants=check_invariants,
    permute_unseen=permute_unseen,
    sample_world=sample_world,
    levels=("1", "2", "3", "4", "expert"),
    hooks={
        "terminal": "cardplaza.games.efudatori.terminal:View",
        "bench": "cardplaza.games.efudatori.bench:extra_benchmarks",
        "players": "cardplaza.games.efudatori.players:make_player",
        "rematch": "cardplaza.games.efudatori.state:rematch_options",
        "kernels": "cardplaza.games.efudatori.kernels:KERNELS",
        "advice": "cardplaza.games.efudatori.advice:make_advisor",
        "research": "cardplaza.games.efudatori.research:CODEC",
    },
))

__all__ = ["SPEC", "EfudatoriState", "Options"]
