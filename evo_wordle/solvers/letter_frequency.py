"""``letter-frequency``: prefer words made of letters common among the remaining candidates."""

from __future__ import annotations

import numpy as np

from ..context import Context
from ..game import GameState, letter_counts
from .base import ScoringSolver, register


def letter_presence(ctx: Context) -> np.ndarray:
    """(n, 26) float32: 1 where the allowed word contains the letter at least once."""
    return (letter_counts(ctx) > 0).astype(np.float32)


@register("letter-frequency")
class LetterFrequencySolver(ScoringSolver):
    """Score each guessable word by the summed frequency of its *distinct* letters, a letter's
    frequency being how many remaining candidates contain it.  Ties go to the alphabetically
    first word.  Deterministic, so decisions are memoised on the state."""
    blurb = "The word whose distinct letters are most frequent among the candidates"

    def __init__(self, ctx, settings, opener=None) -> None:
        super().__init__(ctx, settings, opener)
        self._presence = letter_presence(ctx)

    def scores(self, guesses: np.ndarray, state: GameState) -> np.ndarray:
        """Summed letter frequencies over the candidates, each distinct letter counted once."""
        freq = self._presence[state.candidates].sum(axis=0)
        return self._presence[guesses] @ freq
