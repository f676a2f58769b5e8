"""One object holding the word lists and everything derived from them, loaded lazily."""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path

import numpy as np

from . import frequency
from .cachedir import default_cache_dir
from .entropy import entropies
from .errors import EvoWordleError
from .table import load_table
from .words import WordSet, load_words

#: A word list: a file path, a bundled name (``"allowed"``, ``"nyt"``, ``"original"``) or a
#: Python sequence of words.
WordSource = str | Path | Sequence[str]


class Context:
    """Words, pattern table, frequencies and priority for one pair of word lists.

    >>> ctx = Context()                      # bundled allowed list, NYT answers
    >>> ctx.entropy(["tares"])               # bits over all allowed words
    >>> six = Context(allowed=["planet", "plants", "stripe", "string"])   # any length, from Python

    Lists given as Python sequences (or as a ready :class:`WordSet` through ``words``) get the
    same checks as list files: no duplicates, one word length, letters only.
    """

    def __init__(
        self,
        allowed: WordSource | None = None,
        answers: WordSource | None = None,
        cache_dir: Path | None = None,
        words: WordSet | None = None,
    ) -> None:
        if words is not None and (allowed is not None or answers is not None):
            raise EvoWordleError("give either words=WordSet(...) or allowed/answers lists, not both")
        for name, value in (("allowed", allowed), ("answers", answers)):
            if value is not None and not isinstance(value, str | Path | Sequence) or isinstance(value, bytes):
                raise EvoWordleError(
                    f"{name} must be a file name, a list name, a sequence of words or None, not {type(value).__name__}"
                )
        if cache_dir is not None and not isinstance(cache_dir, str | Path):
            raise EvoWordleError(f"cache_dir must be a folder name or None, not {type(cache_dir).__name__}")
        if words is not None and not isinstance(words, WordSet):
            raise EvoWordleError(f"words must be a WordSet (see load_words), not {type(words).__name__}")
        self.words = words if words is not None else load_words(allowed, answers)
        self.cache_dir = Path(cache_dir) if cache_dir is not None else None

    def __getstate__(self) -> dict:
        """Only the word lists and the cache folder travel to other processes: the table is
        memory-mapped again from the cache there, derived memos are rebuilt on demand."""
        return {"words": self.words, "cache_dir": self.cache_dir}

    @property
    def cache_root(self) -> Path:
        """The folder for this context's caches: ``cache_dir``, else ``$EVO_WORDLE_CACHE`` or
        the user cache folder (read each time, so a changed environment is followed)."""
        return self.cache_dir or default_cache_dir()

    @cached_property
    def table(self) -> np.ndarray:
        """The pattern table: a plain ndarray view of the memory-mapped cache (memmap's
        subclass wrapping costs on every small index in the solvers' hot loops)."""
        return np.asarray(load_table(self.words, self.cache_dir))

    @cached_property
    def frequencies(self) -> np.ndarray:
        return frequency.word_frequencies(self.words, self.cache_dir)

    @cached_property
    def priority(self) -> np.ndarray:
        """The thesis's g(r_w) for every allowed word (greedy baseline, GA fitness)."""
        return frequency.priority_thesis(self.frequencies)

    @cached_property
    def all_words(self) -> np.ndarray:
        return np.arange(len(self.words), dtype=np.int64)

    def word_indices(self, values, what: str = "word") -> np.ndarray:
        """Words or allowed-word indices as an int64 array; an index outside 0 … n-1 (a negative
        one never wraps around), a float or a bool is refused in one line."""
        n = len(self.words)
        whats = what + ("es" if what.endswith("s") else "s")  # guesses, answers, candidates
        if isinstance(values, np.ndarray) and values.dtype.kind in "iu" and values.ndim == 1:
            bad = values[(values < 0) | (values >= n)]
            if len(bad):
                raise EvoWordleError(f"{what} index {int(bad[0])} is outside 0 … {n - 1} (the allowed list)")
            return values.astype(np.int64, copy=False)
        if isinstance(values, str | bytes):
            raise EvoWordleError(f"expected a sequence of {whats}, not one string {values!r}")
        try:
            items = list(values)
        except TypeError:
            raise EvoWordleError(f"expected a sequence of {whats}, not {type(values).__name__}") from None
        out = np.empty(len(items), dtype=np.int64)
        for k, item in enumerate(items):
            if isinstance(item, str):
                out[k] = self.words.index(item)
                continue
            if isinstance(item, bool | np.bool_) or not isinstance(item, numbers.Integral):
                shown = item.item() if isinstance(item, np.generic) else item  # 0.0, not np.float64(0.0)
                raise EvoWordleError(f"{what} {shown!r} is neither a word nor a whole-number index")
            if not 0 <= int(item) < n:
                raise EvoWordleError(f"{what} index {int(item)} is outside 0 … {n - 1} (the allowed list)")
            out[k] = int(item)
        return out

    def candidates(self, kind: str = "allowed") -> np.ndarray:
        """Indices of who may be the answer: ``allowed`` (P0) or ``answers`` (P1)."""
        if kind not in ("allowed", "answers"):
            raise EvoWordleError(f"candidates must be allowed or answers, not {kind!r}")
        return self.all_words if kind == "allowed" else self.words.answer_index

    def entropy(self, guesses, candidates: np.ndarray | None = None) -> np.ndarray:
        """Bits for each guess (words or indices) against ``candidates`` (default: all allowed)."""
        idx = self.word_indices(guesses, "guess")
        cand = self.all_words if candidates is None else self.word_indices(candidates, "candidate")
        return entropies(self.table, idx, cand, n_patterns=self.words.n_patterns)
