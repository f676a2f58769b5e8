"""Shannon entropy of feedback patterns, for many guesses against a candidate set at once."""

from __future__ import annotations

import numpy as np

#: Cells (guesses × candidates) handled per bincount; bounds the temporary memory.
BLOCK_CELLS = 1 << 22


def pattern_counts(
    table: np.ndarray,
    guesses: np.ndarray,
    candidates: np.ndarray,
    weights: np.ndarray | None = None,
    n_patterns: int = 243,
) -> np.ndarray:
    """(len(guesses), n_patterns) counts (or summed ``weights``) of each pattern."""
    guesses = np.asarray(guesses, dtype=np.int64)
    candidates = np.asarray(candidates, dtype=np.int64)
    out = np.empty((len(guesses), n_patterns), dtype=np.float64 if weights is not None else np.int64)
    step = max(1, BLOCK_CELLS // max(len(candidates), 1))
    for start in range(0, len(guesses), step):
        rows = guesses[start : start + step]
        block = table[rows][:, candidates].astype(np.int64)
        block += (np.arange(len(rows)) * n_patterns)[:, None]
        w = None if weights is None else np.broadcast_to(weights, block.shape).ravel()
        counts = np.bincount(block.ravel(), weights=w, minlength=len(rows) * n_patterns)
        out[start : start + len(rows)] = counts.reshape(len(rows), n_patterns)
    return out


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
    n_patterns: int = 243,
) -> np.ndarray:
    """H(X_w) in bits for each guess w, candidates uniform or weighted by ``weights``."""
    if len(candidates) == 0:
        return np.zeros(len(guesses))
    if weights is None and len(candidates) <= SMALL_CANDIDATES:
        return small_entropies(table, guesses, candidates, n_patterns)
    return entropy_from_counts(pattern_counts(table, guesses, candidates, weights, n_patterns))


#: Up to this many (uniform) candidates, :func:`small_entropies` beats counting every pattern.
SMALL_CANDIDATES = 96


def small_entropies(
    table: np.ndarray, guesses: np.ndarray, candidates: np.ndarray, n_patterns: int = 243
) -> np.ndarray:
    """H(X_w) for few uniform candidates; bitwise equal to the counting path, but faster.

    Reads only the candidates' columns when there are more guesses than candidates and finds each
    guess's pattern classes by sorting its n codes.  A guess with three or more classes gets its
    p·log p terms placed at their pattern positions, so the sum runs in exactly the order of
    :func:`entropy_from_counts` (ties between guesses then break exactly as before).
    """
    guesses = np.asarray(guesses, dtype=np.int64)
    candidates = np.asarray(candidates, dtype=np.int64)
    m, n = len(guesses), len(candidates)
    if m > n:
        codes = np.take(table, candidates, axis=1)[guesses]
    else:
        codes = table[guesses][:, candidates]
    codes = np.sort(codes, axis=1).astype(np.int64)
    starts = np.ones(codes.shape, dtype=bool)
    starts[:, 1:] = codes[:, 1:] != codes[:, :-1]
    rows, cols = np.nonzero(starts)
    flat = rows * n + cols
    sizes = np.diff(np.append(flat, m * n)).astype(np.float64)  # runs never cross rows: each row starts one
    p = sizes / float(n)
    values = p * np.log2(p)
    classes = np.bincount(rows, minlength=m)
    # Two terms sum alike in any order; only rows of 3+ classes need the 243-wide sum.
    out = np.bincount(rows, weights=values, minlength=m)
    wide = np.nonzero(classes >= 3)[0]
    if len(wide):
        pick = classes[rows] >= 3
        slot = np.searchsorted(wide, rows[pick])
        terms = np.zeros((len(wide), n_patterns))
        terms[slot, codes[rows[pick], cols[pick]]] = values[pick]
        out[wide] = terms.sum(axis=-1)
    return -out
