"""Word frequencies (wordfreq) and the priority curves that turn them into g(r) ∈ (0, 1)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .cachedir import prepare, read_sealed_array, write_sealed_array
from .words import WordSet


def _wordfreq_version() -> str:
    from importlib.metadata import version

    return version("wordfreq")


def word_frequencies(words: WordSet, cache_dir: Path | None = None) -> np.ndarray:
    """``wordfreq.word_frequency(w, "en")`` for every allowed word, cached next to the table
    (a sealed file: a damaged or planted copy is detected by its digest and recomputed)."""
    root = prepare(cache_dir)
    path = root / f"freq-{words.digest[:16]}-wordfreq{_wordfreq_version()}.cache"
    values = read_sealed_array(path, "word-frequencies", len(words))
    if values is not None:
        return values
    from wordfreq import word_frequency

    freqs = np.array([word_frequency(w, "en") for w in words.allowed], dtype=np.float64)
    write_sealed_array(path, "word-frequencies", freqs)
    return freqs


def frequency_rank(freqs: np.ndarray) -> np.ndarray:
    """Rank of each word by frequency, 0 = rarest; ties keep list (alphabetical) order."""
    order = np.argsort(freqs, kind="stable")
    rank = np.empty(len(freqs), dtype=np.int64)
    rank[order] = np.arange(len(freqs))
    return rank


def priority_thesis(freqs: np.ndarray, slope: float = 2.0) -> np.ndarray:
    """The thesis's g: rank mapped onto ``linspace(-1, 1, N)``, then ``1/(1+exp(-slope·x))``."""
    n = len(freqs)
    x = np.linspace(-1.0, 1.0, n)[frequency_rank(freqs)]
    return 1.0 / (1.0 + np.exp(-slope * x))


def priority_paper(freqs: np.ndarray, steepness: float = 10.0, midpoint: float = 0.5) -> np.ndarray:
    """The paper's g(r) = 1/(1+exp(-steepness·(r − midpoint))) on rank r ∈ [0, 1]."""
    n = len(freqs)
    r = frequency_rank(freqs) / max(n - 1, 1)
    return 1.0 / (1.0 + np.exp(-steepness * (r - midpoint)))


def prior(freqs: np.ndarray, steepness: float = 10.0, midpoint: float = 0.5) -> np.ndarray:
    """A probability that each word is the answer: the paper's curve, normalised to sum 1.

    Common words get nearly equal weight and rare ones little, which models a hand-picked
    answer list better than raw frequencies (which span seven orders of magnitude).
    """
    g = priority_paper(freqs, steepness, midpoint)
    return g / g.sum()
