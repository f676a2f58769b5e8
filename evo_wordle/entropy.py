"""Shannon entropy of feedback patterns, for many guesses against a candidate set at once."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

#: Cells (guesses × candidates) handled per bincount; bounds the temporary memory.
BLOCK_CELLS = 1 << 22

#: How a (guesses × candidates) block of the pattern table is read:
#: ``cells`` gathers just those cells (flat indices), ``rows`` copies the guesses' whole rows
#: then picks the columns, ``columns`` copies the candidates' columns of every row once.
PATHS = ("cells", "rows", "columns")

#: With more guesses than half the table's rows and at most this many candidates, copying
#: the candidates' columns once beats gathering cells (experiments/entropy_shapes.py).
COLUMN_CANDIDATES = 128

#: Feedback codes of a 5-letter game (3^5), the default of every function here: one constant,
#: so a changed default is one site that the count shapes reveal (other lengths pass their own).
PATTERNS_5 = 243


def gather_path(n_guesses: int, n_candidates: int, n_rows: int) -> str:
    """The fastest way (one of :data:`PATHS`) to read ``n_guesses × n_candidates`` cells of a
    table with ``n_rows`` rows.  Gathering just the cells wins almost everywhere (copying
    rows first only adds work); reading whole columns wins when nearly every row is wanted
    and the candidates are few.  experiments/entropy_shapes.py checks every shape against
    every path (goal: within 2× of the fastest)."""
    if 2 * n_guesses > n_rows and n_candidates <= COLUMN_CANDIDATES:
        return "columns"
    return "cells"


def gather_codes(table: np.ndarray, guesses: np.ndarray, candidates: np.ndarray, path: str | None = None) -> np.ndarray:
    """The (len(guesses), len(candidates)) block of pattern codes, read along ``path``
    (default: :func:`gather_path`'s choice).  Every path returns the same values."""
    path = path or gather_path(len(guesses), len(candidates), table.shape[0])
    if path == "cells":
        if not table.flags.c_contiguous:
            return table[np.ix_(guesses, candidates)]
        return np.take(table.reshape(-1), (guesses * table.shape[1])[:, None] + candidates[None, :])
    if path == "rows":
        return table[guesses][:, candidates]
    if path == "columns":
        return np.take(table, candidates, axis=1)[guesses]
    raise ValueError(f"unknown gather path {path!r} (one of {', '.join(PATHS)})")


def pattern_counts(
    table: np.ndarray,
    guesses: np.ndarray,
    candidates: np.ndarray,
    weights: np.ndarray | None = None,
    n_patterns: int = PATTERNS_5,
    *,
    path: str | None = None,
) -> np.ndarray:
    """(len(guesses), n_patterns) counts (or summed ``weights``) of each pattern.

    The cells are read along ``path`` (default: the cheapest for this shape, see
    :func:`gather_path`); the counts do not depend on it."""
    guesses = np.asarray(guesses, dtype=np.int64)
    candidates = np.asarray(candidates, dtype=np.int64)
    path = path or gather_path(len(guesses), len(candidates), table.shape[0])
    if path == "columns":  # read the candidates' columns once, then rows of that narrow copy
        table = np.take(table, candidates, axis=1)
        candidates = np.arange(len(candidates))
        path = "rows"
    step = max(1, BLOCK_CELLS // max(len(candidates), 1))
    parts = []
    for start in range(0, len(guesses), step):
        rows = guesses[start : start + step]
        block = gather_codes(table, rows, candidates, path).astype(np.int64)
        block += (np.arange(len(rows)) * n_patterns)[:, None]
        w = None if weights is None else np.broadcast_to(weights, block.shape).ravel()
        counts = np.bincount(block.ravel(), weights=w, minlength=len(rows) * n_patterns)
        parts.append(counts.reshape(len(rows), n_patterns))
    if len(parts) == 1:  # the usual case: no copy into a fresh (page-faulting) buffer
        return parts[0]
    if not parts:
        return np.zeros((0, n_patterns), dtype=np.float64 if weights is not None else np.int64)
    return np.concatenate(parts)


def entropy_from_counts(counts: np.ndarray) -> np.ndarray:
    """Entropy in bits of each row of pattern counts (or masses)."""
    counts = np.asarray(counts, dtype=np.float64)
    total = counts.sum(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(counts > 0, counts / total, 0.0)
        logs = np.where(p > 0, np.log2(np.where(p > 0, p, 1.0)), 0.0)
    return -(p * logs).sum(axis=-1)


def entropies(
    table: np.ndarray,
    guesses: np.ndarray,
    candidates: np.ndarray,
    weights: np.ndarray | None = None,
    n_patterns: int = PATTERNS_5,
    *,
    path: str | None = None,
) -> np.ndarray:
    """H(X_w) in bits for each guess w, candidates uniform or weighted by ``weights``
    (``path``: how the table is read, see :func:`gather_path`; the bits do not depend on it)."""
    if len(candidates) == 0:
        return np.zeros(len(guesses))
    if weights is None and len(candidates) <= SMALL_CANDIDATES:
        return small_entropies(table, guesses, candidates, n_patterns, path=path)
    return entropy_from_counts(pattern_counts(table, guesses, candidates, weights, n_patterns, path=path))


#: Up to this many (uniform) candidates, :func:`small_entropies` beats counting every pattern.
SMALL_CANDIDATES = 128

_PAIRWISE_BLOCK = 128  # numpy's PW_BLOCKSIZE: rows up to this long are summed in 8 lanes


def _pairwise_plan(lo: int, hi: int, cols: dict) -> tuple:
    """The order in which numpy's pairwise summation adds a[lo:hi]; leaves become columns."""
    n = hi - lo
    if n < 8:
        return ("seq", [cols.setdefault(("e", c), len(cols)) for c in range(lo, hi)])
    if n <= _PAIRWISE_BLOCK:
        end = lo + n - n % 8
        lanes = [cols.setdefault(("lane", lo, j), len(cols)) for j in range(8)]
        rest = [cols.setdefault(("e", c), len(cols)) for c in range(end, hi)]
        return ("block", lo, end, lanes, rest)
    half = n // 2
    half -= half % 8
    return ("split", _pairwise_plan(lo, lo + half, cols), _pairwise_plan(lo + half, hi, cols))


@lru_cache(maxsize=8)
def _pairwise(n_patterns: int) -> tuple[tuple, np.ndarray, int]:
    """(plan, column of each pattern code, number of columns) for rows of ``n_patterns``."""
    cols: dict = {}
    plan = _pairwise_plan(0, n_patterns, cols)
    column = np.empty(n_patterns, dtype=np.int64)
    for key, col in cols.items():
        if key[0] == "e":
            column[key[1]] = col

    def lanes(node: tuple) -> None:
        if node[0] == "block":
            _, lo, end, cols_, _ = node
            column[lo:end] = np.asarray(cols_)[(np.arange(lo, end) - lo) % 8]
        elif node[0] == "split":
            lanes(node[1])
            lanes(node[2])

    lanes(plan)
    return plan, column, len(cols)


def _evaluate(node: tuple, leaves: np.ndarray) -> np.ndarray:
    if node[0] == "seq":
        res = np.zeros(leaves.shape[0])
        for c in node[1]:
            res = res + leaves[:, c]
        return res
    if node[0] == "block":
        r = [leaves[:, c] for c in node[3]]
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        for c in node[4]:
            res = res + leaves[:, c]
        return res
    return _evaluate(node[1], leaves) + _evaluate(node[2], leaves)


def small_entropies(
    table: np.ndarray, guesses: np.ndarray, candidates: np.ndarray, n_patterns: int = PATTERNS_5, *,
    path: str | None = None,
) -> np.ndarray:
    """H(X_w) for few uniform candidates; bitwise equal to the counting path, but faster.

    Reads the cells along the cheapest path (:func:`gather_path`) and finds each guess's
    pattern classes by sorting its n codes.  The p·log p terms are then added in
    exactly the order numpy's pairwise sum over all patterns uses in
    :func:`entropy_from_counts` (zeros change nothing), so ties between guesses break exactly
    as on the counting path.
    """
    guesses = np.asarray(guesses, dtype=np.int64)
    candidates = np.asarray(candidates, dtype=np.int64)
    m, n = len(guesses), len(candidates)
    codes = np.sort(gather_codes(table, guesses, candidates, path), axis=1)
    starts = np.ones(codes.shape, dtype=bool)
    starts[:, 1:] = codes[:, 1:] != codes[:, :-1]
    rows, cols = np.nonzero(starts)
    flat = rows * n + cols
    sizes = np.diff(np.append(flat, m * n)).astype(np.float64)  # runs never cross rows: each row starts one
    p = sizes / float(n)
    values = p * np.log2(p)
    classes = np.bincount(rows, minlength=m)
    # Two terms sum alike in any order; rows of 3+ classes follow numpy's summation order.
    out = np.bincount(rows, weights=values, minlength=m)
    wide = np.nonzero(classes >= 3)[0]
    if len(wide):
        plan, column, n_cols = _pairwise(n_patterns)
        pick = classes[rows] >= 3
        slot = np.searchsorted(wide, rows[pick])
        leaf = slot * n_cols + column[codes[rows[pick], cols[pick]]]
        # bincount adds each leaf's terms in input order, i.e. by increasing pattern code.
        leaves = np.bincount(leaf, weights=values[pick], minlength=len(wide) * n_cols).reshape(len(wide), n_cols)
        out[wide] = _evaluate(plan, leaves)
    return -out
