"""The information-theory solvers: ``naive`` (max entropy) and ``greedy`` (priority × entropy).

Both are deterministic, so each decision is memoised by the candidate state: a full
benchmark visits only a few thousand distinct states.
"""

from __future__ import annotations

import numpy as np

from ..entropy import entropies
from ..game import GameState
from .base import Solver, register


class _EntropySolver(Solver):
    use_priority = False

    def __init__(self, ctx, settings, opener=None) -> None:
        super().__init__(ctx, settings, opener)
        self._memo: dict[bytes, int] = {}

    def scores(self, guesses: np.ndarray, state: GameState) -> np.ndarray:
        bits = entropies(self.ctx.table, guesses, state.candidates, n_patterns=self.ctx.words.n_patterns)
        return bits * self.ctx.priority[guesses] if self.use_priority else bits

    def pick(self, state: GameState) -> int:
        if len(state.candidates) == 1:
            return int(state.candidates[0])
        key = state.key()
        hit = self._memo.get(key)
        if hit is None:
            guesses = state.guessable(self.settings.guess_from)
            hit = int(guesses[np.argmax(self.scores(guesses, state))])  # ties: first = alphabetical
            self._memo[key] = hit
        return hit


@register("naive")
class NaiveSolver(_EntropySolver):
    """Pick the word of maximum entropy over the remaining candidates."""


@register("greedy")
class GreedySolver(_EntropySolver):
    """The baseline: maximise g(r_w)·H(X_w), g the thesis's frequency-priority curve."""

    use_priority = True
