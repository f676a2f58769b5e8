"""Run toolbox operators of either style on the GA's numpy population.

Inside the GA a population is an int array of word indices and the package's own operators
work on whole arrays at once (the fast path).  DEAP's standard operators work on lists of
individuals instead: ``evaluate(ind) -> (fitness,)``, ``select(individuals, k)``,
``mate(ind1, ind2)``, ``mutate(ind) -> (ind,)``.  An operator marked with :func:`vectorised`
is called on arrays; any other is called the DEAP way on one-gene individuals built at the
boundary, so ``tools.selTournament`` or a per-individual ``evaluate`` plug in unchanged.

Operators that only make sense on several genes (DEAP's position crossovers and real-valued
mutations) are refused by :class:`WordToolbox` when registered, with the alternative named.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable

import numpy as np
from deap import base

from ..errors import EvoWordleError
from .creator import individual

#: The attribute that marks an operator as working on whole int arrays.
MARKER = "evo_wordle_vectorised"

#: Toolbox entries the GA calls through this adapter.
OPERATORS = ("evaluate", "select", "mate", "mutate", "choose")

_MATE_ALTERNATIVE = (
    "a word is one gene, so position crossovers cannot mix two words; keep the package's mate "
    "(GAConfig crossover 'recombine' takes each letter from one parent, 'uniform' draws a consistent word) "
    "or register a DEAP-style mate(ind1, ind2) that returns two individuals holding word indices"
)
_MUTATE_ALTERNATIVE = (
    "a word is one integer gene (its index in the allowed list); keep the package's mutate (a one-letter "
    "neighbour) or use tools.mutUniformInt(low=0, up=len(ctx.words) - 1, indpb=1.0)"
)
#: DEAP operators that cannot make sense on a one-gene word individual, with what to use instead.
REFUSED = {
    **{name: _MATE_ALTERNATIVE for name in (
        "cxOnePoint", "cxTwoPoint", "cxUniform", "cxPartialyMatched", "cxUniformPartialyMatched", "cxOrdered",
        "cxBlend", "cxSimulatedBinary", "cxSimulatedBinaryBounded", "cxMessyOnePoint", "cxESBlend",
        "cxESTwoPoint", "cxESTwoPoints")},
    **{name: _MUTATE_ALTERNATIVE for name in (
        "mutGaussian", "mutPolynomialBounded", "mutShuffleIndexes", "mutFlipBit", "mutESLogNormal")},
}


def vectorised(fn: Callable) -> Callable:
    """Mark ``fn`` as a whole-population operator: it receives int arrays of word indices
    (and, for ``select``/``choose``, the fitness array) instead of DEAP individuals.

    >>> @vectorised
    ... def select_best(words, k, fitness):
    ...     return words[np.argsort(-fitness, kind="stable")[:k]]
    """
    setattr(fn, MARKER, True)
    return fn


def _unwrap(fn: Callable) -> Callable:
    while isinstance(fn, functools.partial):
        fn = fn.func
    return fn


def is_vectorised(fn: Callable) -> bool:
    """True when ``fn`` (or the function a ``partial`` wraps) carries the :func:`vectorised` marker."""
    return bool(getattr(fn, MARKER, False) or getattr(_unwrap(fn), MARKER, False))


def refusal(fn: Callable) -> str | None:
    """Why ``fn`` cannot be a word-GA operator (None when it can)."""
    inner = _unwrap(fn)
    if getattr(inner, "__module__", "").startswith("deap.tools"):
        why = REFUSED.get(getattr(inner, "__name__", ""))
        if why:
            return f"deap.tools.{inner.__name__} does not work on words: {why}"
    return None


class WordToolbox(base.Toolbox):
    """A ``deap.base.Toolbox`` that refuses operators which cannot work on word indices."""

    def register(self, alias: str, function: Callable, *args, **kargs) -> None:
        if alias in ("mate", "mutate"):
            why = refusal(function)
            if why:
                raise EvoWordleError(why)
        super().register(alias, function, *args, **kargs)


# --------------------------------------------------------------------------- boundary


def _gene(ind, n_words: int, what: str) -> int:
    """The word index an individual holds, checked."""
    try:
        (gene,) = ind
        word = operator.index(gene)
    except (TypeError, ValueError):
        raise EvoWordleError(f"{what} must give one-gene individuals holding a word index, got {ind!r}") from None
    if not 0 <= word < n_words:
        raise EvoWordleError(f"{what} gave word index {word}, outside 0..{n_words - 1}")
    return word


def _checked_words(out, n_words: int, what: str, length: int | None = None) -> np.ndarray:
    """A vectorised operator's words, checked as the DEAP route checks each gene: whole-number
    indices in range (a negative one would wrap to another word), ``length`` of them if given."""
    arr = np.asarray(out)
    if arr.ndim != 1 or (arr.size and arr.dtype.kind not in "iu"):
        raise EvoWordleError(f"a vectorised {what} must return a 1-D array of word indices, got "
                             f"{arr.dtype} of shape {arr.shape}")
    if length is not None and len(arr) != length:
        raise EvoWordleError(f"a vectorised {what} returned {len(arr)} words for {length}")
    if arr.size and not (0 <= arr.min() and arr.max() < n_words):
        bad = int(arr.min()) if arr.min() < 0 else int(arr.max())
        raise EvoWordleError(f"{what} gave word index {bad}, outside 0..{n_words - 1}")
    return arr.astype(np.int64, copy=False)


def _checked_fitness(out, n: int) -> np.ndarray:
    """A vectorised evaluate's values: one finite number per word (NaN would make every
    selection meaningless without a sound)."""
    try:
        values = np.asarray(out, dtype=np.float64)
    except (TypeError, ValueError):
        raise EvoWordleError(
            f"a vectorised evaluate must return an array of numbers, got {type(out).__name__}") from None
    if values.shape != (n,):
        raise EvoWordleError(f"a vectorised evaluate returned {values.size} fitness values of shape "
                             f"{values.shape} for {n} words")
    return values


def _finite(values: np.ndarray) -> np.ndarray:
    if not np.isfinite(values).all():
        bad = values[~np.isfinite(values)][0]
        raise EvoWordleError(f"evaluate gave a fitness of {bad}; fitness values must be finite numbers")
    return values


def _individuals(words: np.ndarray, fitness: np.ndarray | None = None) -> list:
    if fitness is None:
        return [individual(w) for w in words.tolist()]
    return [individual(w, f) for w, f in zip(words.tolist(), fitness.tolist())]


def evaluate(toolbox, words: np.ndarray) -> np.ndarray:
    """Fitness of each word: one call for a vectorised ``evaluate``, else one DEAP-style call
    ``evaluate(individual) -> (fitness,)`` per distinct word."""
    fn = toolbox.evaluate
    if is_vectorised(fn):
        return _finite(_checked_fitness(fn(words), len(words)))
    uniq, inverse = np.unique(words, return_inverse=True)
    values = np.empty(len(uniq))
    for i, ind in enumerate(_individuals(uniq)):
        value = fn(ind)
        try:
            (values[i],) = value
        except (TypeError, ValueError):
            raise EvoWordleError(
                f"a DEAP-style evaluate must return a 1-tuple (fitness,), got {value!r}"
            ) from None
    return _finite(values)[inverse.reshape(-1)]


def _selected(toolbox, alias: str, words: np.ndarray, k: int, fitness: np.ndarray) -> np.ndarray:
    fn = getattr(toolbox, alias)
    n = len(toolbox_words(toolbox))
    if is_vectorised(fn):
        out, what = _checked_words(fn(words, k, fitness), n, alias), "words"
    else:
        chosen = list(fn(_individuals(words, fitness), k))
        out, what = np.fromiter((_gene(ind, n, alias) for ind in chosen), dtype=np.int64, count=len(chosen)), \
            "individuals"
    if not len(out):
        raise EvoWordleError(f"{alias} returned no {what} (asked for {k})")
    return np.resize(out, k)  # fewer than k (selBest with k > population): repeat in order


def toolbox_words(toolbox):
    """The allowed words the toolbox's state plays with."""
    return toolbox.state.ctx.words


def select(toolbox, words: np.ndarray, k: int, fitness: np.ndarray) -> np.ndarray:
    """``k`` parents (words): ``select(words, k, fitness)`` if vectorised, else DEAP's
    ``select(individuals, k)`` on individuals carrying ``fitness``."""
    return _selected(toolbox, "select", words, k, fitness)


def choose(toolbox, words: np.ndarray, fitness: np.ndarray) -> int:
    """The word to play: ``choose`` has ``select``'s signature and is asked for one winner."""
    return int(_selected(toolbox, "choose", words, 1, fitness)[0])


def mate(toolbox, parents1: np.ndarray, parents2: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two children per parent pair: one vectorised call, or DEAP's ``mate(ind1, ind2)`` per pair."""
    fn = toolbox.mate
    n = len(toolbox_words(toolbox))
    if is_vectorised(fn):
        kids = fn(parents1, parents2)
        try:
            first, second = kids
        except (TypeError, ValueError):
            raise EvoWordleError("a vectorised mate must return two arrays of children") from None
        return (_checked_words(first, n, "mate", len(parents1)), _checked_words(second, n, "mate", len(parents2)))
    c1, c2 = np.empty(len(parents1), dtype=np.int64), np.empty(len(parents2), dtype=np.int64)
    for i, (a, b) in enumerate(zip(parents1.tolist(), parents2.tolist())):
        kids = fn(individual(a), individual(b))
        try:
            first, second = kids
        except (TypeError, ValueError):
            raise EvoWordleError(f"a DEAP-style mate must return two individuals, got {kids!r}") from None
        c1[i], c2[i] = _gene(first, n, "mate"), _gene(second, n, "mate")
    return c1, c2


def mutate(toolbox, words: np.ndarray) -> np.ndarray:
    """Mutants of ``words``: one vectorised call, or DEAP's ``mutate(ind) -> (ind,)`` per word."""
    fn = toolbox.mutate
    n = len(toolbox_words(toolbox))
    if is_vectorised(fn):
        return _checked_words(fn(words), n, "mutate", len(words))
    out = np.empty(len(words), dtype=np.int64)
    for i, w in enumerate(words.tolist()):
        res = fn(individual(w))
        try:
            (mutant,) = res
        except (TypeError, ValueError):
            raise EvoWordleError(f"a DEAP-style mutate must return a 1-tuple (individual,), got {res!r}") from None
        out[i] = _gene(mutant, n, "mutate")
    return out


def describe(toolbox) -> dict[str, str]:
    """Each replaced GA operator's function and bound arguments, as text (recorded next to
    results; the package's own operators are described by the GAConfig fields already)."""
    out = {}
    for alias in OPERATORS:
        fn = getattr(toolbox, alias, None)
        inner = _unwrap(fn) if fn is not None else None
        if inner is None or getattr(inner, "__module__", "") == "evo_wordle.ga.toolbox":
            continue
        name = f"{getattr(inner, '__module__', '?')}.{getattr(inner, '__qualname__', repr(inner))}"
        kw = dict(getattr(fn, "keywords", {}) or {})
        kw = {k: v for k, v in kw.items() if isinstance(v, int | float | str | bool)}
        out[alias] = name + (f"({', '.join(f'{k}={v!r}' for k, v in sorted(kw.items()))})" if kw else "")
    return out
