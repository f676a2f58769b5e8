"""Objectives beyond the mean for branch-and-bound trees (``ga-tree --exact --objective``).

:class:`~evo_wordle.evolve.bnb.TreeSearch` minimises the total number of guesses under a depth
limit (the guesses every answer must be solved within).  The other objectives are built on top
of it by changing that limit, so the search itself stays one algorithm:

* ``mean``: the least total within the cap (what ``TreeSearch`` does).
* ``max``: the smallest worst case d (a tree within d guesses exists, none within d − 1), then
  the least total within d.  Limits are tried downwards from the cap; a tree found within d
  whose worst game is m < d is also the optimum within m (fewer trees, same tree), so the next
  limit tried is m − 1.  The first infeasible limit ends the search.
* ``mean-then-max``: the least total T* within the cap, then the smallest d whose optimum
  within d is still T* (the optimum only grows as d falls, so the first limit whose optimum
  exceeds T* ends the search; it is searched with the threshold T* + 1, fail-hard).

With the exhaustive search (``width=None``) each step is a proof: an infeasible limit means no
tree at all, an optimum above T* means no tree with T*.  With ``width=K`` the same steps run
over the K proposals per node: achievable trees, no proofs (a limit that fails with proposals
may have a tree), and the proposal optimum can even drop as the limit falls (a lower total is
then kept as the new T*).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..errors import EvoWordleError
from ..wording import count, plural
from .bnb import INFEASIBLE, TreeSearch

OBJECTIVES = ("mean", "max", "mean-then-max")


@dataclass
class Attempt:
    """One depth limit tried: the total found (None: no tree within it, or none at T*)."""

    depth_limit: int | None
    total: int | None
    worst: int | None
    seconds: float
    note: str = ""

    def as_dict(self) -> dict:
        """The attempt under the names ``ga-tree --json`` reports."""
        return {"depth_limit": self.depth_limit, "total": self.total, "worst": self.worst,
                "seconds": round(self.seconds, 2), "note": self.note}


@dataclass
class ObjectiveResult:
    """The chosen tree, its depth limit and what the attempts proved."""

    objective: str
    paths: dict[int, list[int]]
    depth_limit: int | None
    exhaustive: bool
    attempts: list[Attempt] = field(default_factory=list)

    @property
    def total(self) -> int:
        """Total guesses over every answer of the tree."""
        return sum(len(p) for p in self.paths.values())

    @property
    def worst(self) -> int:
        """Guesses of the tree's longest game."""
        return max(len(p) for p in self.paths.values())

    def as_dict(self) -> dict:
        """What was searched and proven (``ga-tree --json``'s ``objective_search``)."""
        failed = [a.depth_limit for a in self.attempts if a.total is None]
        out = {"objective": self.objective, "total": self.total, "worst": self.worst,
               "depth_limit": self.depth_limit, "exhaustive": self.exhaustive,
               "attempts": [a.as_dict() for a in self.attempts], "limits_failed": failed,
               "total_proven": self.exhaustive,
               "worst_case_proven": self.exhaustive and self.objective in ("max", "mean-then-max")}
        if self.objective == "max":
            out["infeasible_depths"] = failed
            always = f"{count(self.worst, 'guess', 'guesses')} always {plural(self.worst, 'suffices', 'suffice')}"
            if self.exhaustive:
                note = always + (f", {failed[-1]} do not" if failed else "")
            else:
                note = always + (
                    f"; no tree within {failed[-1]} among the proposals (not a proof)" if failed else "")
            out["worst_case_note"] = note
        elif self.objective == "mean-then-max":
            out["worst_case_note"] = (
                f"no tree with total {self.total} has a worst game below {self.worst}" if self.exhaustive else
                f"no tree with total {self.total} and a worst game below {self.worst} among the proposals "
                "(not a proof)")
        return out


def root_cost(search: TreeSearch, cand: np.ndarray, opener: int | None, depth: int | None,
              beta: int = INFEASIBLE) -> int:
    """The least total for ``cand`` within ``depth`` guesses (opening with ``opener`` if
    given) if it is below ``beta``; else a lower bound ≥ ``beta`` (≥ INFEASIBLE: no tree)."""
    cand = np.asarray(cand, dtype=np.int64)
    if opener is None:
        return search.search(cand, None, beta, depth)
    if depth is not None and (depth < 1 or (depth == 1 and (len(cand) > 1 or int(cand[0]) != opener))):
        return INFEASIBLE
    parts = sorted(search.parts(opener, cand), key=lambda part: -len(part[0]))
    running = len(cand) + sum(2 * len(c) - 1 for c, _ in parts)
    for members, legal in parts:
        base = 2 * len(members) - 1
        sub = search.search(members, legal, beta - running + base, None if depth is None else depth - 1)
        running += sub - base
        if running >= beta:
            return max(running, beta)
    return running


def _attempt(search: TreeSearch, cand, opener, depth, beta=INFEASIBLE) -> tuple[Attempt, dict | None]:
    start = time.monotonic()
    value = root_cost(search, cand, opener, depth, beta)
    paths = None
    if value < beta:
        paths = search.tree(cand, None, depth, opener)
    seconds = time.monotonic() - start
    if paths is None:
        note = "no tree within this limit" if value >= INFEASIBLE else f"every tree within it totals ≥ {value}"
        return Attempt(depth, None, None, seconds, note), None
    worst = max(len(p) for p in paths.values())
    return Attempt(depth, sum(len(p) for p in paths.values()), worst, seconds), paths


def optimise(search: TreeSearch, cand, opener: int | None, cap: int | None, objective: str = "mean") -> ObjectiveResult:
    """The tree of ``objective`` over ``cand`` within ``cap`` guesses (None: no cap)."""
    if objective not in OBJECTIVES:
        raise EvoWordleError(f"objective must be one of {', '.join(OBJECTIVES)}, not {objective!r}")
    cand = np.asarray(cand, dtype=np.int64)
    exhaustive = search.width is None
    start = time.monotonic()
    try:
        return _optimise(search, cand, opener, cap, objective, exhaustive)
    finally:
        search.stats.seconds = time.monotonic() - start  # every attempt, not only the tree walks


def _optimise(search: TreeSearch, cand: np.ndarray, opener: int | None, cap: int | None, objective: str,
              exhaustive: bool) -> ObjectiveResult:
    first, paths = _attempt(search, cand, opener, cap)
    if paths is None:
        search.tree(cand, None, cap, opener)  # raises the error naming the part that fails
        raise EvoWordleError(f"no tree solves these {len(cand)} answers within {cap} guesses"
                             + ("" if exhaustive else f" using the {search.width} best guesses per node"))
    result = ObjectiveResult(objective, paths, cap, exhaustive, [first])
    if objective == "mean":
        return result
    target = result.total
    while result.worst > 1:
        m = result.worst
        if exhaustive and (result.depth_limit is None or m < result.depth_limit):
            # the optimum within the old limit lies within m: it is the optimum within m
            result.attempts.append(Attempt(m, result.total, m, 0.0, "the tree above is within this limit"))
            result.depth_limit = m
        beta = target + 1 if exhaustive and objective == "mean-then-max" else INFEASIBLE
        step, paths = _attempt(search, cand, opener, m - 1, beta)
        result.attempts.append(step)
        if paths is None:
            break
        total = sum(len(p) for p in paths.values())
        if objective == "mean-then-max" and total > target:  # proposals only: the total got worse
            step.note = f"total above {target}"
            step.total = step.worst = None
            break
        target = min(target, total)
        result.paths, result.depth_limit = paths, m - 1
    result.depth_limit = result.worst  # proven the least (exhaustive), or claimed (proposals)
    return result


__all__ = ["OBJECTIVES", "Attempt", "ObjectiveResult", "optimise", "root_cost"]
