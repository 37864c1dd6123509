"""The trick of a Pinochle state, kept with its winning card as cards are played.

Both the single-deck games (cards) and double-deck Pinochle (faces) keep the trick so far
in ``_trick`` and its winner in ``_win`` / ``_wpos`` (``-2``: not yet worked out), so a
played card is compared with the winner alone. The state's class names its table of
beaters: ``_BEATERS[trump][w] >> c & 1`` when ``c`` beats ``w`` (of identical highest
cards, the first played wins).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar


class KeptTrick:
    """The ``trick`` property and the winner's lookup shared by the Pinochle engines."""

    _BEATERS: ClassVar[Sequence[Sequence[int]]]
    _trick: list[int]
    _win: int
    _wpos: int
    _legal: Any
    _lmask: int
    trump: int

    @property
    def trick(self) -> list[int]:
        """The trick so far, in play order (read-only: set it whole)."""
        return self._trick

    @trick.setter
    def trick(self, cards: list[int]) -> None:
        self._trick = cards
        self._win = -2
        self._legal = None
        self._lmask = 0

    def _trick_winner(self) -> int:
        """Work out the winning card of the current (non-empty) trick and its position."""
        trick = self._trick
        bt = self._BEATERS[self.trump]
        w, wi = trick[0], 0
        for i in range(1, len(trick)):
            c = trick[i]
            if bt[w] >> c & 1:
                w, wi = c, i
        self._win, self._wpos = w, wi
        return w
