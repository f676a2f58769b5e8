"""One object holding the word lists and everything derived from them, loaded lazily."""

from __future__ import annotations

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
        if words is not None and not isinstance(words, WordSet):
            raise EvoWordleError(f"words must be a WordSet, not {type(words).__name__}")
        self.words = words if words is not None else load_words(allowed, answers)
        self.cache_dir = cache_dir

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

    def candidates(self, kind: str = "allowed") -> np.ndarray:
        """Indices of who may be the answer: ``allowed`` (P0) or ``answers`` (P1)."""
        return self.all_words if kind == "allowed" else self.words.answer_index

    def entropy(self, guesses, candidates: np.ndarray | None = None) -> np.ndarray:
        """Bits for each guess (words or indices) against ``candidates`` (default: all allowed)."""
        idx = np.asarray(
            [self.words.index(g) if isinstance(g, str) else int(g) for g in guesses], dtype=np.int64
        )
        cand = self.all_words if candidates is None else candidates
        return entropies(self.table, idx, cand, n_patterns=self.words.n_patterns)
