"""Which words a standard dictionary lists, and which it knows only as names.

Curated answer lists (Wordle's among them) hold ordinary dictionary words, while word
frequencies rank names (KEVIN), acronyms and slang high.  The strategy genes ``w_proper`` and
``w_unlisted`` multiply the prior of such words.  The dictionary is SCOWL's American English
from Debian's wamerican package (``data/lexicon.txt``, made by ``data/fetch_lexicon.py``): a
line in lower case is a dictionary word, a capitalised line a word known only with capitals.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

import numpy as np


@lru_cache(maxsize=1)
def _lexicon() -> tuple[frozenset[str], frozenset[str]]:
    text = resources.files("evo_wordle.wordlists").joinpath("lexicon.txt").read_text()
    lower, capital = set(), set()
    for word in text.split():
        (lower if word.islower() else capital).add(word.lower())
    return frozenset(lower), frozenset(capital - lower)


def word_classes(words) -> tuple[np.ndarray, np.ndarray]:
    """Two boolean arrays over ``words`` (lower case): known only as a name (capitalised in the
    dictionary), and not in the dictionary at all."""
    lower, capital = _lexicon()
    proper = np.fromiter((w in capital for w in words), dtype=bool, count=len(words))
    listed = np.fromiter((w in lower for w in words), dtype=bool, count=len(words))
    return proper, ~(listed | proper)
