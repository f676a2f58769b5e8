"""``letter-frequency``: prefer words made of letters common among the remaining candidates."""

from __future__ import annotations

import numpy as np

from ..context import Context
from ..game import GameState, letter_counts
from .base import Solver, register


def letter_presence(ctx: Context) -> np.ndarray:
    """(n, 26) float32: 1 where the allowed word contains the letter at least once."""
    return (letter_counts(ctx) > 0).astype(np.float32)


@register("letter-frequency")
class LetterFrequencySolver(Solver):
    """Score each guessable word by the summed frequency of its *distinct* letters, a letter's
    frequency being how many remaining candidates contain it.  Ties go to the alphabetically
    first word.  Deterministic, so decisions are memoised on the state."""

    def __init__(self, ctx, settings, opener=None) -> None:
        super().__init__(ctx, settings, opener)
        self._presence = letter_presence(ctx)
        self._memo: dict[bytes, int] = {}

    def scores(self, guesses: np.ndarray, state: GameState) -> np.ndarray:
        freq = self._presence[state.candidates].sum(axis=0)
        return self._presence[guesses] @ freq

    def pick(self, state: GameState) -> int:
        if len(state.candidates) == 1:
            return int(state.candidates[0])
        key = state.key()
        hit = self._memo.get(key)
        if hit is None:
            guesses = state.guessable(self.settings.guess_from)
            hit = int(guesses[np.argmax(self.scores(guesses, state))])
            self._memo[key] = hit
        return hit
