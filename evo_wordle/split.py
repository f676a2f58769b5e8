"""Train / validation / test split of the answers, rebuilt exactly from one printed seed.

Anything trained or tuned on answers (strategy evolution, ``tune``) fits on ``train``, picks
its winner on ``validation`` and reports its headline figure on ``test``, touched once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import EvoWordleError
from .wording import plural

#: Default shares of the answers for training and validation; the test part takes the rest (35 %):
#: 2,309 NYT answers give 924 / 577 / 808.
DEFAULT_FRACTIONS = (0.40, 0.25)
_SALT = 0x5B17  # keeps this stream apart from every other use of the same seed


@dataclass(frozen=True)
class Split:
    """Three disjoint, sorted index arrays and the seed that rebuilds them."""

    seed: int
    train: np.ndarray
    validation: np.ndarray
    test: np.ndarray

    def part(self, name: str) -> np.ndarray:
        """The answer indices of part ``name`` (train, validation or test)."""
        if name not in ("train", "validation", "test"):
            raise EvoWordleError(f"unknown split part {name!r} (train, validation or test)")
        return getattr(self, name)

    def sizes(self) -> dict[str, int]:
        """How many answers each part holds."""
        return {"train": len(self.train), "validation": len(self.validation), "test": len(self.test)}

    def describe(self) -> str:
        """The line commands print so a reader can rebuild the split."""
        s = self.sizes()
        return (f"split seed {self.seed}: train {s['train']}, validation {s['validation']}, test {s['test']} "
                f"{plural(s['test'], 'answer')}")

    def as_dict(self, words) -> dict:
        """JSON form listing the words of each part (``words[i]`` maps an index to its word)."""
        parts = ("train", "validation", "test")
        return {"seed": self.seed, **{k: [words[int(i)] for i in self.part(k)] for k in parts}}


def _count(share: int | float, total: int, name: str) -> int:
    if isinstance(share, bool) or not isinstance(share, (int, float, np.integer, np.floating)):
        raise EvoWordleError(f"the {name} size must be a number, not {share!r}")
    if isinstance(share, (float, np.floating)):
        if not (0.0 < share < 1.0):
            raise EvoWordleError(f"the {name} share must be between 0 and 1, not {share}")
        return int(round(share * total))
    return int(share)


def split_answers(
    answers: np.ndarray,
    seed: int,
    train: int | float = DEFAULT_FRACTIONS[0],
    validation: int | float = DEFAULT_FRACTIONS[1],
    test: int | float | None = None,
) -> Split:
    """Split ``answers`` (word indices) three ways from ``seed``.

    Sizes are counts (int) or shares of the answers (float in (0, 1)); ``test=None`` takes
    every answer left.  Each part must hold at least one answer and the parts never overlap.
    """
    answers = np.asarray(answers, dtype=np.int64)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise EvoWordleError(f"the split seed must be a whole number ≥ 0, not {seed!r}")
    if len(np.unique(answers)) != len(answers):
        raise EvoWordleError("the answers to split hold duplicates")
    n = len(answers)
    n_train = _count(train, n, "train")
    n_val = _count(validation, n, "validation")
    n_test = n - n_train - n_val if test is None else _count(test, n, "test")
    if min(n_train, n_val, n_test) < 1:
        raise EvoWordleError(
            f"a train/validation/test split of {n} answers needs each part ≥ 1 "
            f"(asked for {n_train}/{n_val}/{n_test})"
        )
    if n_train + n_val + n_test > n:
        raise EvoWordleError(
            f"train {n_train} + validation {n_val} + test {n_test} exceed the {n} answers"
        )
    perm = np.random.default_rng(np.random.SeedSequence([int(seed), _SALT])).permutation(n)
    parts = np.split(answers[perm[: n_train + n_val + n_test]], [n_train, n_train + n_val])
    return Split(int(seed), *(np.sort(p) for p in parts))


def _recorded_count(record: dict, key: str, lo: int, where: str, hi: int | None = None) -> int:
    """``record[key]`` as a whole number from ``lo`` (to ``hi``, if given; ``2.5``, ``"3"``, ``True``
    refused: no rounding)."""
    if key not in record:
        raise EvoWordleError(f"provenance.split of {where} lacks {key}")
    value = record[key]
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < lo:
        raise EvoWordleError(f"provenance.split.{key} of {where} must be a whole number ≥ {lo}, not {value!r}")
    if hi is not None and value > hi:
        raise EvoWordleError(f"provenance.split.{key} of {where} must be at most {hi}, not {value!r}")
    return int(value)


def recorded_split(record: object, words, where: str = "the file") -> Split | None:
    """The split a file's ``provenance.split`` records, rebuilt on ``words`` (a
    :class:`~evo_wordle.words.WordSet`), or None if it records none.

    ``evolve-strategy`` lists each part's words; ``tune`` records the seed and part sizes
    (its split of the answer list), which rebuild the same parts.  Anything else (not an
    object, a seed or size that is not a whole number, a part that is not a list of allowed
    words, parts that overlap) is a one-line EvoWordleError naming the field and ``where``.
    """
    if record is None:
        return None
    parts = ("train", "validation", "test")
    if not isinstance(record, dict):
        raise EvoWordleError(f"provenance.split of {where} must be an object (seed, train, validation, test), "
                             f"not {type(record).__name__}")
    # a seed past 2**63 - 1 was refused later as "--seed must be …", a flag nobody had given
    seed = _recorded_count(record, "seed", 0, where, 2**63 - 1)
    if any(isinstance(record.get(p), list) for p in parts):  # the words of each part
        lists = []
        for p in parts:
            if not isinstance(record.get(p), list) or not record[p]:
                raise EvoWordleError(f"provenance.split.{p} of {where} must be a non-empty list of words")
            try:
                lists.append(np.sort(words.indices(record[p])))
            except EvoWordleError as exc:
                raise EvoWordleError(f"provenance.split.{p} of {where}: {exc}") from None
        split = Split(seed, *lists)
    else:  # the seed and the sizes of the parts
        sizes = [_recorded_count(record, p, 1, where) for p in parts]
        try:
            split = split_answers(words.answer_index, seed, *sizes)
        except EvoWordleError as exc:
            raise EvoWordleError(f"provenance.split of {where}: {exc}") from None
    if len(np.unique(np.concatenate([split.train, split.validation, split.test]))) != sum(split.sizes().values()):
        raise EvoWordleError(f"provenance.split of {where} has parts that overlap")
    return split
