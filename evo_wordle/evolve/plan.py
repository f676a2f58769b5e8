"""A plan for a player who does not know the answer list: a tree over the likeliest words.

A P0 player weighs every allowed word by a prior, so no decision tree covers its game.  It can
still plan: take the ``top`` words its prior weighs most as if they were the answer list, build
the tree of fewest total guesses over them by branch and bound
(:class:`~evo_wordle.evolve.bnb.TreeSearch`, ``width`` proposals per node) for each opener
tried, and keep the opener whose tree is cheapest.  The strategy file then stores the tree's
first ``depth`` decisions after the opener; the genome plays on under its prior, which still
weighs every allowed word, so an answer outside the planned words is found all the same.
Only the prior is read, never an answer list: the plan uses what a P0 player knows.
"""

from __future__ import annotations

import numpy as np

from ..context import Context
from ..errors import EvoWordleError
from ..game import Settings
from .bnb import TreeSearch
from .objectives import optimise
from .search import tree_json

#: Most openers one plan may try, most proposals per node, most decisions it may store.
MAX_OPENERS = 20
MAX_WIDTH = 100
MAX_DEPTH = 4


def likeliest(prior: np.ndarray, top: int) -> np.ndarray:
    """Indices of the ``top`` words of greatest weight, sorted (ties: the earlier word)."""
    if isinstance(top, bool) or not isinstance(top, int) or not 2 <= top <= len(prior):
        raise EvoWordleError(f"a plan covers 2 to {len(prior)} words (the allowed list), not {top!r}")
    return np.sort(np.argsort(-np.asarray(prior), kind="stable")[:top])


def plan_tree(ctx: Context, settings: Settings, prior: np.ndarray, top: int, openers: list[int],
              width: int = 20, depth: int = 1) -> tuple[dict[str, str], dict]:
    """(tree, info): the cheapest opener's tree over the ``top`` likeliest words, cut after
    ``depth`` decisions following the opener (history key → word, as a strategy file stores
    it); ``info`` gives each opener's total guesses over the planned words (the first least
    total wins) and the planned words' count."""
    if not 1 <= len(openers) <= MAX_OPENERS:
        raise EvoWordleError(f"a plan tries 1 to {MAX_OPENERS} openers, not {len(openers)}")
    if isinstance(width, bool) or not isinstance(width, int) or not 1 <= width <= MAX_WIDTH:
        raise EvoWordleError(f"a plan tries 1 to {MAX_WIDTH} guesses per node, not {width!r}")
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
        raise EvoWordleError(f"a plan stores 1 to {MAX_DEPTH} decisions after the opener, not {depth!r}")
    planned = likeliest(prior, top)
    totals, best, best_opener = {}, None, None
    for opener in openers:
        search = TreeSearch(ctx, settings.guess_from, settings.hard, width)
        found = optimise(search, planned, int(opener), settings.max_guesses)
        totals[ctx.words.allowed[opener]] = found.total
        if best is None or found.total < best.total:
            best, best_opener = found, ctx.words.allowed[opener]
    # the opener and the next ``depth`` guesses of each path: the keys of at most ``depth`` moves
    tree = tree_json(ctx, {a: path[: depth + 1] for a, path in best.paths.items()})
    info = {"planned": int(len(planned)), "totals": totals, "opener": best_opener,
            "mean_over_planned": best.total / len(planned), "tree_entries": len(tree)}
    return tree, info
