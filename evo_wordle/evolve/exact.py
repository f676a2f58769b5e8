"""Exhaustive optimal decision trees for small answer lists (the reference for ga-search).

``optimal_cost(ctx, answers, guesses)`` is the minimum over decision trees of the total number
of guesses needed to solve every answer (divide by ``len(answers)`` for the expected number),
each guess drawn from ``guesses``.  Branch and bound with memoisation on the candidate set:
a set of n > 1 answers needs at least 2n − 1 guesses (one of them solved by the first guess
at best, every other needing a second), and a guess that does not split the set is useless.
Meant for ≤ 30 answers and a guess list of up to a few hundred words.
"""

from __future__ import annotations

import numpy as np

from ..context import Context
from ..errors import EvoWordleError

MAX_ANSWERS = 30


class ExactSolver:
    """Memoised exact subtree costs over one guess list."""

    def __init__(self, ctx: Context, guesses: np.ndarray | None) -> None:
        """``guesses=None``: each set may only be guessed from itself (hard-mode safe)."""
        self.ctx = ctx
        self.guesses = None if guesses is None else np.unique(np.asarray(guesses, dtype=np.int64))
        self.solved = ctx.words.solved
        self.memo: dict[bytes, tuple[int, int]] = {}

    def cost(self, answers: np.ndarray) -> int:
        """Minimum total guesses to solve each of ``answers`` (sorted int64 indices)."""
        return self.best(np.asarray(answers, dtype=np.int64))[0]

    def best(self, answers: np.ndarray) -> tuple[int, int]:
        """(minimum total guesses, the first guess achieving it) for sorted ``answers``."""
        n = len(answers)
        if n == 1:
            return 1, int(answers[0])
        key = answers.tobytes()
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        guesses = answers if self.guesses is None else self.guesses
        from .strategy import transposed_table

        rows = transposed_table(self.ctx)[answers]  # (n, all words) patterns
        block = (rows[:, guesses] if len(guesses) != rows.shape[1] else rows).T  # (G, n)
        in_set = np.isin(guesses, answers)
        srt = np.sort(block, axis=1)
        parts = 1 + (srt[:, 1:] != srt[:, :-1]).sum(axis=1)
        # lower bound of a guess: n now, then 2c − 1 for each part of c answers not solved
        lower = 3 * n - in_set - parts
        useful = (parts > 1) | in_set
        order = np.flatnonzero(useful)[np.argsort(lower[useful], kind="stable")]
        best_cost, best_guess = None, -1
        for gi in order.tolist():
            bound = int(lower[gi])
            if best_cost is not None and bound >= best_cost:
                break  # guesses are in order of their bound
            row = block[gi]
            pats, counts = np.unique(row, return_counts=True)
            groups = [(p, c) for p, c in zip(pats.tolist(), counts.tolist()) if p != self.solved and c > 1]
            total = bound
            for p, c in sorted(groups, key=lambda pc: -pc[1]):
                total += self.best(answers[row == p])[0] - (2 * c - 1)
                if best_cost is not None and total >= best_cost:
                    total = None
                    break
            if total is not None and (best_cost is None or total < best_cost):
                best_cost, best_guess = total, int(guesses[gi])
        if best_cost is None:
            raise EvoWordleError("no guess in the list separates these answers")
        self.memo[key] = (best_cost, best_guess)
        return best_cost, best_guess

    def depth(self, answers: np.ndarray) -> int:
        """Worst-case guesses of the optimal tree :meth:`best` builds for ``answers``."""
        answers = np.asarray(answers, dtype=np.int64)
        if len(answers) <= 2:
            return len(answers)
        _, g = self.best(answers)
        row = np.asarray(self.ctx.table[g, answers])
        return 1 + max((self.depth(answers[row == p]) for p in np.unique(row) if p != self.solved), default=0)

    def tree(self, answers: np.ndarray) -> dict[int, list[int]]:
        """An optimal tree as ``{answer: [guess, …, answer]}``."""
        answers = np.asarray(answers, dtype=np.int64)
        out: dict[int, list[int]] = {}
        self._walk(answers, [], out)
        return out

    def _walk(self, answers: np.ndarray, path: list[int], out: dict) -> None:
        _, g = self.best(answers)
        row = np.asarray(self.ctx.table[g, answers])
        for p in np.unique(row):
            sub = answers[row == p]
            if p == self.solved:
                out[int(g)] = path + [int(g)]
            else:
                self._walk(sub, path + [int(g)], out)


def optimal_cost(ctx: Context, answers, guesses=None) -> int:
    """Minimum total guesses over all trees (``guesses`` default: the answers themselves)."""
    answers = np.unique(np.asarray(answers, dtype=np.int64))
    if len(answers) > MAX_ANSWERS:
        raise EvoWordleError(f"exact search is for at most {MAX_ANSWERS} answers, not {len(answers)}")
    guesses = answers if guesses is None else guesses
    return ExactSolver(ctx, np.asarray(guesses)).cost(answers)
