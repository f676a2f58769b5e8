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
    return entropy_from_counts(pattern_counts(table, guesses, candidates, weights, n_patterns))
