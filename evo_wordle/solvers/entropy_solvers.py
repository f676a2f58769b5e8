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
            scores = self.scores(guesses, state)
            hit = int(guesses[np.argmax(scores)])  # ties: first = alphabetical
            if self.settings.guess_from == "allowed":
                hit = self._prefer_candidate(hit, guesses, scores, state)
            self._memo[key] = hit
        return hit


    @staticmethod
    def _prefer_candidate(hit: int, guesses: np.ndarray, scores: np.ndarray, state: GameState) -> int:
        """Among (near-)equal best scores, play a word that may itself be the answer.

        Equal partitions of the candidates can differ in the last bits of their entropy sums,
        hence the tolerance; without this rule two remaining candidates make an alphabetically
        earlier non-candidate win and waste a guess.
        """
        tied = guesses[scores >= scores.max() - 1e-9]
        possible = tied[np.isin(tied, state.candidates, assume_unique=True)]
        return int(possible[0]) if len(possible) and hit not in state.candidates else hit


@register("naive")
class NaiveSolver(_EntropySolver):
    """Pick the word of maximum entropy over the remaining candidates."""


@register("greedy")
class GreedySolver(_EntropySolver):
    """The baseline: maximise g(r_w)·H(X_w), g the thesis's frequency-priority curve."""

    use_priority = True
