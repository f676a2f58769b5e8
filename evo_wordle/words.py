"""Word lists: loading, validation and the word <-> index mapping every other module uses."""

from __future__ import annotations

import hashlib
import numbers
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from pathlib import Path

import numpy as np

from .errors import EvoWordleError
from .files import read_capped

#: Names of the bundled answer lists, usable wherever a list file is accepted.
BUNDLED_ANSWERS = {"nyt": "answers.txt", "original": "answers-original.txt"}
MAX_LENGTH = 10  # 3**10 patterns still fit in uint16
#: Largest word-list file read (bytes): far above any list whose pattern table can be built.
MAX_LIST_BYTES = 4 * 2**20


def _bundled(name: str) -> str:
    return resources.files("evo_wordle.wordlists").joinpath(name).read_text()


def _read(source: str | Path, what: str) -> tuple[str, str]:
    """Return (text, label) for a bundled name or a file path."""
    if isinstance(source, str) and source in BUNDLED_ANSWERS:
        return _bundled(BUNDLED_ANSWERS[source]), source
    if isinstance(source, str) and source == "allowed":
        return _bundled("allowed.txt"), "allowed"
    if source == "":  # Path("") is the current folder: it was refused as "a folder"
        names = f" (or {', '.join(BUNDLED_ANSWERS)})" if what == "answers" else ""
        raise EvoWordleError(f"{what} list needs a file name{names}, not an empty string")
    path = Path(source)
    if not path.exists() and not path.is_symlink():
        raise EvoWordleError(f"{what} list file not found: {path}")
    # regular files only: a FIFO with no writer blocked the open for ever
    data = read_capped(path, MAX_LIST_BYTES, f"{what} list")
    return _decode(data, str(path)), str(path)


def _decode(data: bytes, label: str) -> str:
    """UTF-8 text; a UTF-8 byte-order mark is dropped, UTF-16/32 and NUL bytes named as such."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise EvoWordleError(f"word list {label} is UTF-16 text (byte-order mark); save it as UTF-8")
    nul = data.find(b"\0")
    if nul >= 0:
        raise EvoWordleError(f"word list {label} holds NUL bytes (first at offset {nul}): not a text file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise EvoWordleError(f"word list {label} is not UTF-8 text (bad byte at offset {exc.start})") from None


def _parse(text: str, label: str) -> list[str]:
    return check_words([w.strip() for w in text.splitlines() if w.strip()], label)


def _normal(word: str) -> str:
    """A typed word as the lists hold it: surrounding whitespace dropped, lowercased.  The one
    rule for :meth:`WordSet.contains` and :meth:`WordSet.index`, and for list entries in :func:`check_words`."""
    return word.strip().lower()


def check_words(words, label: str) -> list[str]:
    """The words lowercased and sorted, or a clear error: empty list, a non-string, a
    non-letter word, mixed lengths, more than MAX_LENGTH letters or a duplicate.  The one
    check for word lists from files, from Python sequences and for :class:`WordSet`."""
    if isinstance(words, str | bytes):
        raise EvoWordleError(f"word list {label} must be a sequence of words, not one string")
    words = list(words)
    bad_type = next((w for w in words if not isinstance(w, str)), None)
    if bad_type is not None:
        raise EvoWordleError(f"word list {label} has a non-string entry: {bad_type!r}")
    words = [_normal(w) for w in words]
    if not words or not all(words):
        raise EvoWordleError(f"word list {label} is empty" if not words else f"word list {label} has an empty word")
    bad = next((w for w in words if not (w.isascii() and w.isalpha())), None)
    if bad is not None:
        shown = bad if len(bad) <= 20 else bad[:20] + "…"
        raise EvoWordleError(f"word list {label} has a non-letter word: {shown!r}")
    lengths = {len(w) for w in words}
    if len(lengths) > 1:
        raise EvoWordleError(f"word list {label} mixes word lengths {sorted(lengths)}")
    length = lengths.pop()
    if length > MAX_LENGTH:
        raise EvoWordleError(f"word list {label}: words of {length} letters (at most {MAX_LENGTH})")
    seen: set[str] = set()
    for w in words:  # linear: a set, not list.count
        if w in seen:
            raise EvoWordleError(f"word list {label} has a duplicate word: {w!r}")
        seen.add(w)
    return sorted(words)


@dataclass(frozen=True)
class WordSet:
    """The allowed guesses (sorted; a word *is* its index here) and the answers among them.

    ``label`` names the answer list in summaries and ``made_for`` blocks: :func:`load_words`
    gives the bundled name or the file's path; lists given here are ``"answers"``, as
    :func:`load_words` names a Python sequence (never ``"nyt"``, which they need not be)."""

    allowed: tuple[str, ...]
    answers: tuple[str, ...]
    label: str = "answers"
    _index: dict[str, int] = field(default=None, repr=False, compare=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        # The same checks as a list file; sorted, since a word's index is its rank.
        object.__setattr__(self, "allowed", tuple(check_words(self.allowed, "allowed")))
        object.__setattr__(self, "answers", tuple(check_words(self.answers, "answers")))
        object.__setattr__(self, "_index", {w: i for i, w in enumerate(self.allowed)})
        missing = [w for w in self.answers if w not in self._index]
        if missing:
            raise EvoWordleError(
                f"{len(missing)} {'answer is' if len(missing) == 1 else 'answers are'} not in the allowed list "
                f"(first: {missing[0]!r})"
            )
        # every answer is an allowed word, so the answers have the allowed words' length

    @property
    def length(self) -> int:
        return len(self.allowed[0])

    @property
    def n_patterns(self) -> int:
        return 3**self.length

    @property
    def solved(self) -> int:
        """The pattern code of an all-green row."""
        return 3**self.length - 1

    def __len__(self) -> int:
        return len(self.allowed)

    def __getitem__(self, index):
        """The allowed word at ``index`` (an int, a slice, or an array of indices: a list).
        An index outside 0 … n-1 (a negative one never wraps), a float, a bool or a word is
        refused in one line; a slice keeps Python's meaning."""
        if isinstance(index, slice):
            return list(self.allowed[index])
        if isinstance(index, np.ndarray) or isinstance(index, list | tuple):
            return [self.allowed[self.check_index(i)] for i in np.asarray(index, dtype=object).ravel()]
        return self.allowed[self.check_index(index)]

    def check_index(self, index, what: str = "word") -> int:
        """``index`` as a plain int if it is a whole number (a numpy integer too, never a bool)
        from 0 to n-1; else the one-line error naming ``what`` (a negative index never wraps)."""
        n = len(self.allowed)
        if type(index) is int and 0 <= index < n:  # the common case first: play passes ints
            return index
        if isinstance(index, str):
            raise EvoWordleError(f"{what} {index!r} is a word, not an index: pass ctx.words.index({index!r})")
        if isinstance(index, bool | np.bool_) or not isinstance(index, numbers.Integral):
            raise EvoWordleError(f"{what} {index!r} is not a whole-number index")
        if not 0 <= int(index) < n:
            raise EvoWordleError(f"{what} index {int(index)} is outside 0 … {n - 1} (the allowed list)")
        return int(index)

    def __iter__(self):
        return iter(self.allowed)

    @cached_property
    def answer_index(self) -> np.ndarray:
        return np.array([self._index[w] for w in self.answers], dtype=np.int64)

    @cached_property
    def letters(self) -> np.ndarray:
        """(n, length) uint8 letter codes, a=0 … z=25."""
        raw = np.frombuffer("".join(self.allowed).encode("ascii"), dtype=np.uint8)
        return (raw - ord("a")).reshape(len(self.allowed), self.length)

    @cached_property
    def digest(self) -> str:
        """sha256 of the allowed list: the pattern-table cache key."""
        return hashlib.sha256(("\n".join(self.allowed) + "\n").encode()).hexdigest()

    def contains(self, word: str) -> bool:
        """True if ``word`` is an allowed word, read as :meth:`index` reads it: any case,
        surrounding spaces dropped (as in a list file), so both agree on every string."""
        return isinstance(word, str) and _normal(word) in self._index

    def index(self, word: str) -> int:
        """Index of ``word`` (any case, surrounding spaces dropped), with a clear error for bad words."""
        if not isinstance(word, str):
            raise EvoWordleError(f"{word!r} is not a word (a string of {self.length} letters)")
        w = _normal(word)
        if len(w) != self.length or not (w.isascii() and w.isalpha()):
            raise EvoWordleError(f"{word!r} is not a {self.length}-letter word")
        try:
            return self._index[w]
        except KeyError:
            raise EvoWordleError(f"{word!r} is not an allowed word") from None

    def indices(self, words: list[str] | tuple[str, ...]) -> np.ndarray:
        """Indices of ``words`` in the allowed list (a clear error for a bad word)."""
        return np.array([self.index(w) for w in words], dtype=np.int64)


def load_words(allowed=None, answers=None) -> WordSet:
    """Load the allowed list (bundled by default) and an answer list (``nyt``, ``original``,
    a file, or a Python sequence of words).

    ``allowed`` is a file path, ``"allowed"`` (the bundled list) or a sequence of words;
    ``answers=None`` means the NYT list with the bundled allowed list, and the allowed list
    itself (every word may be the answer) with a custom allowed list.  Sequences get the
    same checks as files (duplicates, mixed lengths, non-letters).
    """
    allowed_words = _words_from(allowed if allowed is not None else "allowed", "allowed")
    if answers is None and allowed is not None:
        answer_words, label = list(allowed_words), "allowed"
    else:
        answer_words = _words_from(answers if answers is not None else "nyt", "answers")
        label = answers if isinstance(answers, str) else "nyt" if answers is None else "answers"
        if isinstance(answers, Path):
            label = str(answers)
    if len(answer_words[0]) != len(allowed_words[0]):
        raise EvoWordleError(
            f"answers have {len(answer_words[0])} letters but allowed words have {len(allowed_words[0])}"
        )
    return WordSet(tuple(allowed_words), tuple(answer_words), label=label)


def _words_from(source, what: str) -> list[str]:
    """Checked, sorted words from a bundled name, a file path or a sequence of words."""
    if isinstance(source, str | Path):
        return _parse(*_read(source, what))
    if isinstance(source, bytes):
        raise EvoWordleError(f"{what} must be a file path or a sequence of words, not bytes")
    try:
        words = list(source)
    except TypeError:
        kind = type(source).__name__
        raise EvoWordleError(f"{what} must be a file path or a sequence of words, not {kind}") from None
    return check_words(words, f"{what} (Python sequence)")
