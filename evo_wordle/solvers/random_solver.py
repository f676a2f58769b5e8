"""``random``: a uniformly random guessable word — the literature's floor (seeded per game)."""

from __future__ import annotations

from ..game import GameState
from .base import Solver, register


@register("random")
class RandomSolver(Solver):
    """Guess a uniformly random word from what the settings allow (by default the words still
    consistent with every clue).  Draws only from ``self.rng``, which the bench seeds per game."""
    blurb = "A uniformly random word among those still consistent with every clue"

    stochastic = True

    def pick(self, state: GameState) -> int:
        """A uniformly drawn guessable word."""
        pool = state.guessable(self.settings.guess_from)
        return int(pool[self.rng.integers(len(pool))])

    def choose(self, state: GameState) -> int:
        """A uniformly drawn guessable word (the opener too, unless one is fixed)."""
        # A random opener is drawn afresh every game unless the user fixed one.
        if state.turn == 0 and self.opener is not None:
            return self.opener
        return self.pick(state)
