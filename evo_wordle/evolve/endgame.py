"""The endgame after a fixed opening: entropy-greedy play to the end on a group of candidates.

A fixed opening splits the candidates into groups (the candidates that share the opening's
joint feedback).  :class:`GreedyEndgame` gives the guesses the entropy-greedy policy needs to
finish a group, summed over the group's answers: at each turn the guess of most bits over the
candidates left, the package's ``naive`` solver
(:class:`~evo_wordle.solvers.entropy_solvers.NaiveSolver`, with the greedy solvers' tie-break:
the first word in list order, and with guesses from every allowed word a near-tie goes to a word
that may be the answer).  Every candidate counts the same, so no word-frequency weight.  The
same groups recur across openings, so the totals are memoised (up to :data:`MAX_MEMO` groups,
then nothing more is added).
"""

from __future__ import annotations

import numpy as np

from ..context import Context
from ..errors import EvoWordleError
from ..game import GameState, Settings
from ..params import as_choice, as_int
from ..solvers.entropy_solvers import NaiveSolver

#: At most this many groups are memoised (then totals are still computed, but not stored).
MAX_MEMO = 1_000_000


class GreedyEndgame:
    """Memoised totals of the entropy-greedy guesses to finish a group, counted from its first
    endgame guess (a group of one costs 1: its answer still has to be typed)."""

    def __init__(self, ctx: Context, guess_from: str = "candidates", max_memo: int | None = None) -> None:
        self.ctx = ctx
        self.guess_from = as_choice("guess_from", guess_from, ("candidates", "allowed"))
        self.max_memo = as_int("max_memo", MAX_MEMO if max_memo is None else max_memo, 0)
        self.solver = NaiveSolver(ctx, Settings(guess_from=self.guess_from), opener="")
        self.solved = ctx.words.solved
        self.memo: dict[bytes, int] = {}

    def total(self, group: np.ndarray) -> int:
        """Guesses the policy needs to solve every answer of ``group`` (sorted allowed-word
        indices, int64), summed: ``|group|`` for the guess each answer sees now, plus the totals
        of the parts the guess leaves unsolved."""
        m = len(group)
        if m == 1:
            return 1
        key = group.tobytes()
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        guess = self.solver.best_guess(GameState(self.ctx, group))
        patterns = self.ctx.table[guess, group]
        order = np.argsort(patterns, kind="stable")  # stable: every part stays sorted
        ordered = patterns[order]
        starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
        ends = np.r_[starts[1:], m]
        if len(starts) == 1 and ordered[0] != self.solved:
            word = self.ctx.words.allowed[guess]
            raise EvoWordleError(f"the endgame's guess {word!r} does not split its {m} candidates")
        value = m
        for s, e in zip(starts.tolist(), ends.tolist()):
            if ordered[s] != self.solved:
                value += self.total(group[order[s:e]])
        if len(self.memo) < self.max_memo:
            self.memo[key] = value
        return value
