"""The information-theory solvers: ``naive`` (max entropy) and ``greedy`` (priority × entropy).

Both are deterministic, so each decision is memoised by the candidate state
(:class:`~evo_wordle.solvers.base.ScoringSolver`): a full benchmark visits only a few
thousand distinct states.
"""

from __future__ import annotations

import numpy as np

from ..context import Context
from ..entropy import entropies
from ..game import GameState, Settings
from .base import ScoringSolver, baseline_opener, register


class _EntropySolver(ScoringSolver):
    use_priority = False
    prefer_candidates = True

    def scores(self, guesses: np.ndarray, state: GameState) -> np.ndarray:
        bits = entropies(self.ctx.table, guesses, state.candidates, n_patterns=self.ctx.words.n_patterns)
        return bits * self.ctx.priority[guesses] if self.use_priority else bits


@register("naive")
class NaiveSolver(_EntropySolver):
    """Pick the word of maximum entropy over the remaining candidates."""


@register("greedy")
class GreedySolver(_EntropySolver):
    """The baseline: maximise g(r_w)·H(X_w), g the thesis's frequency-priority curve.

    It opens with :data:`~evo_wordle.solvers.base.BASELINE_OPENER` (TALES) when any allowed
    word may be the answer, otherwise with its own best word (``opener=""`` always asks it).
    """

    blurb = "The baseline: maximise frequency priority × entropy; opens with TALES"
    use_priority = True

    def preset_opener(self, ctx: Context, settings: Settings) -> str | None:
        return baseline_opener(ctx, settings)
