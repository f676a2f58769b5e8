"""Selection, crossover and mutation on whole populations at once.

Inside the GA a population is a numpy int array of allowed-word indices; every operator
works on such arrays in a few numpy calls.  The DEAP convention still holds at the edges:
each operator also accepts DEAP individuals (one-gene lists with a ``fitness``), so
``toolbox.select(individuals, k)`` returns individuals and ``toolbox.mutate(ind)`` returns
a 1-tuple, as DEAP users expect.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..context import Context
from ..errors import EvoWordleError

# --------------------------------------------------------------------------- word codes


def word_codes(ctx: Context) -> np.ndarray:
    """Base-26 code of every allowed word; sorted, since the list is alphabetical."""
    cached = ctx.__dict__.get("_ga_codes")
    if cached is None:
        letters = ctx.words.letters.astype(np.int64)
        powers = 26 ** np.arange(letters.shape[1] - 1, -1, -1, dtype=np.int64)
        cached = letters @ powers
        ctx.__dict__["_ga_codes"] = cached
    return cached


def lookup_codes(ctx: Context, codes: np.ndarray, among: np.ndarray | None = None) -> np.ndarray:
    """Allowed-word index of each code, or −1 where the code is not an allowed word (or not
    one of the sorted word indices ``among``: a small set is searched much faster)."""
    table = word_codes(ctx)
    if among is not None:
        table = table[among]
    if len(table) == 0:
        return np.full(np.shape(codes), -1, dtype=np.int64)
    pos = np.searchsorted(table, codes)
    pos = np.minimum(pos, len(table) - 1)
    hit = table[pos] == codes
    if among is not None:
        pos = among[pos]
    return np.where(hit, pos, -1)


# --------------------------------------------------------------------------- neighbour index


@dataclass(frozen=True)
class NeighbourIndex:
    """CSR lists of each allowed word's one-letter neighbours (allowed words differing in
    exactly one position): ``words[start[w]:start[w+1]]``, with the substituted letter."""

    start: np.ndarray  # (n + 1,)
    words: np.ndarray  # neighbour indices, grouped by source word
    letter: np.ndarray  # the neighbour's letter at the changed position (0 = a … 25 = z)
    source: np.ndarray  # the source word of each entry
    length: int  # letters per word

    def degree(self, word: int) -> int:
        """How many one-letter neighbours ``word`` has."""
        return int(self.start[word + 1] - self.start[word])

    def of(self, word: int) -> np.ndarray:
        """The one-letter neighbours of ``word`` (allowed-word indices)."""
        return self.words[self.start[word] : self.start[word + 1]]


def neighbour_index(ctx: Context) -> NeighbourIndex:
    """Build (once per context, ≈50 ms) the one-letter neighbour index, fully vectorised:
    words sharing all letters but position p share a masked code."""
    cached = ctx.__dict__.get("_ga_neighbours")
    if cached is not None:
        return cached
    letters = ctx.words.letters.astype(np.int64)
    codes = word_codes(ctx)
    length = letters.shape[1]
    src, dst, sub = [], [], []
    for pos in range(length):
        key = codes - letters[:, pos] * 26 ** (length - 1 - pos)
        order = np.argsort(key, kind="stable")
        sk = key[order]
        for d in range(1, 26):
            same = sk[:-d] == sk[d:]
            if not same.any():
                break
            a, b = order[:-d][same], order[d:][same]
            src += [a, b]
            dst += [b, a]
            sub += [letters[b, pos], letters[a, pos]]
    src_a = np.concatenate(src) if src else np.zeros(0, np.int64)
    dst_a = np.concatenate(dst) if dst else np.zeros(0, np.int64)
    sub_a = np.concatenate(sub) if sub else np.zeros(0, np.int64)
    order = np.lexsort((dst_a, src_a))
    src_a, dst_a, sub_a = src_a[order], dst_a[order], sub_a[order]
    start = np.zeros(len(codes) + 1, dtype=np.int64)
    np.cumsum(np.bincount(src_a, minlength=len(codes)), out=start[1:])
    cached = NeighbourIndex(start, dst_a, sub_a.astype(np.int8), src_a, length)
    ctx.__dict__["_ga_neighbours"] = cached
    return cached


# --------------------------------------------------------------------------- mutation


def mutate_words(
    words: np.ndarray,
    index: NeighbourIndex,
    rng: np.random.Generator,
    word_mask: np.ndarray | None = None,
    skip_letter: int | None = None,
    tries: int | None = None,
    letters: int = 26,
) -> np.ndarray:
    """Replace each word by a uniformly chosen one-letter neighbour; a word with none stays.

    ``word_mask`` (bool per allowed word) restricts the neighbours that count, e.g. to the
    consistent words; ``skip_letter`` drops neighbours made with that letter.  With ``tries``
    the thesis's rejection loop is emulated exactly: each try draws a position and one of
    ``letters`` letters (the thesis used a–y: 25 letters, skipping z), so a word with k valid
    neighbours mutates with probability ``1 − (1 − k/(L·letters))**tries``, uniformly among
    them.  Only the mutating words' own neighbour lists are touched.
    """
    words = np.asarray(words, dtype=np.int64)
    m = len(words)
    out = words.copy()
    if m == 0 or len(index.words) == 0:
        return out
    lo = index.start[words]
    degree = index.start[words + 1] - lo
    if word_mask is None and skip_letter is None:
        count = degree
        choice = lo + np.floor(rng.random(m) * np.maximum(count, 1)).astype(np.int64)
    else:
        total = int(degree.sum())
        if total == 0:
            return out
        owner = np.repeat(np.arange(m), degree)
        first = np.cumsum(degree) - degree
        entries = lo[owner] + (np.arange(total) - first[owner])
        ok = np.ones(total, dtype=bool)
        if word_mask is not None:
            ok &= word_mask[index.words[entries]]
        if skip_letter is not None:
            ok &= index.letter[entries] != skip_letter
        count = np.bincount(owner, weights=ok, minlength=m).astype(np.int64)
        cum = np.cumsum(ok)
        before = np.where(first > 0, cum[np.maximum(first - 1, 0)], 0)
        before = np.where(degree > 0, before, 0)
        pick = np.floor(rng.random(m) * np.maximum(count, 1)).astype(np.int64)
        pos = np.searchsorted(cum, before + pick + 1)
        choice = entries[np.minimum(pos, total - 1)]
    hit = count > 0
    if tries is not None:
        space = letters * index.length
        hit &= rng.random(m) < 1.0 - (1.0 - count / space) ** tries
    out[hit] = index.words[choice[hit]]
    return out


# --------------------------------------------------------------------------- selection


def scaled_weights(fitness: np.ndarray, pressure: float = 1.0) -> np.ndarray:
    """Roulette weights ``fitness**pressure`` (0: uniform, 1: proportional, large: near-greedy),
    computed in log space so large pressures never overflow."""
    f = np.asarray(fitness, dtype=np.float64)
    if pressure == 1.0:
        return f / f.sum()
    if pressure == 0.0:  # f**0 = 1 for every f, 0 too (0 · log 0 made every weight NaN: always the first)
        return np.full(len(f), 1.0 / len(f))
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):  # log 0 = -inf: weight 0
        logs = pressure * np.log(f)
        w = np.exp(logs - logs.max())
        if not np.isfinite(w).all():  # pressure · log f overflowed (inf − inf): scale after the shift
            shifted = np.log(f) - np.log(f).max()  # ≤ 0, so pressure · shifted can only underflow to 0
            w = np.exp(pressure * shifted)
    return w / w.sum()


def roulette(fitness: np.ndarray, k: int, rng: np.random.Generator, pressure: float = 1.0, *,
             what: str = "the caller", hint: str = "") -> np.ndarray:
    """``k`` positions drawn with replacement, P(i) ∝ f_i**pressure (numpy, no Python loop).
    A negative fitness, or all zero, is refused: it gave a meaningless draw without a sound.
    ``what`` names where the fitness came from and ``hint`` (after "; ") what the user can do:
    the refusal speaks for the caller (the GA's evaluate, the opening GA), not for roulette."""
    fitness = np.asarray(fitness, dtype=np.float64)
    tail = f"; {hint}" if hint else ""
    if not fitness.size:
        raise EvoWordleError(f"roulette needs at least one fitness value ({what} gave none){tail}")
    if not (fitness >= 0).all() or not fitness.max() > 0:
        raise EvoWordleError(
            f"roulette needs fitness values of at least 0, one of them above 0 ({what} gave {fitness.min():g} "
            f"to {fitness.max():g}){tail}")
    cum = np.cumsum(scaled_weights(fitness, pressure))
    cum[-1] = 1.0
    return np.searchsorted(cum, rng.random(k), side="right").astype(np.int64)


def tournament(fitness: np.ndarray, k: int, rng: np.random.Generator, size: int = 3) -> np.ndarray:
    """``k`` tournaments of ``size`` aspirants drawn with replacement; the fittest wins."""
    fitness = np.asarray(fitness)
    aspirants = rng.integers(len(fitness), size=(k, size))
    return aspirants[np.arange(k), np.argmax(fitness[aspirants], axis=1)]


def best(fitness: np.ndarray, k: int, rng: np.random.Generator | None = None) -> np.ndarray:
    """The ``k`` fittest positions (ties: first), repeating the order if k > population."""
    order = np.argsort(-np.asarray(fitness), kind="stable")
    return order[np.arange(k) % len(order)]


# --------------------------------------------------------------------------- crossover


def uniform_children(candidates: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` words drawn uniformly from the consistent candidates (the thesis's crossover)."""
    return candidates[rng.integers(len(candidates), size=n)]


def _letter_masks(length: int) -> tuple[np.ndarray, np.ndarray]:
    """(place values 26**(L−1−p), the 2**L letter masks as an (L, M) 0/1 matrix), built once."""
    cached = _MASKS.get(length)
    if cached is None:
        powers = 26 ** np.arange(length - 1, -1, -1, dtype=np.int64)
        masks = (np.arange(2**length)[None, :] >> np.arange(length)[:, None]) & 1
        cached = _MASKS[length] = (powers, masks.astype(np.int64))
    return cached


_MASKS: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _recombinations(
    ctx: Context, p1: np.ndarray, p2: np.ndarray, consistent: np.ndarray, members: np.ndarray | None = None
) -> tuple:
    """(found, valid), both (n, 2**L): the word made by letter mask m (bit p set: position p
    from the second parent) if it is a consistent allowed word, and whether it is one other
    than a parent.  A mask's code is the first parent's code plus the masked letter
    differences, so all masks cost one small matrix product and one search among the
    consistent words' codes (few, once there is feedback)."""
    letters = ctx.words.letters
    powers, masks = _letter_masks(letters.shape[1])
    l1, l2 = letters[p1].astype(np.int64), letters[p2].astype(np.int64)
    codes = (l1 @ powers)[:, None] + ((l2 - l1) * powers) @ masks  # (n, M)
    found = lookup_codes(ctx, codes, np.flatnonzero(consistent) if members is None else members)
    valid = (found >= 0) & (found != p1[:, None]) & (found != p2[:, None])
    return found, valid


def _pick_children(
    found: np.ndarray, valid: np.ndarray, candidates: np.ndarray, rng: np.random.Generator, both: bool = False
) -> list[np.ndarray]:
    """Per row, a uniformly chosen valid word (a uniform consistent word for rows with none):
    the pick-th valid mask in mask order; with ``both`` also a second child, counted from the
    last mask backwards (the same rows with the parents swapped).  Draws as one call per child."""
    n = len(found)
    count = valid.view(np.uint8).sum(axis=1, dtype=np.int64)
    hits = np.flatnonzero(valid)  # row-major: each row's valid cells in mask order
    start = np.cumsum(count) - count
    last = max(len(hits) - 1, 0)
    flat = found.ravel()
    none = count == 0
    n_none = int(none.sum())
    children = []
    for reverse in (False, True) if both else (False,):
        pick = np.floor(rng.random(n) * np.maximum(count, 1)).astype(np.int64)
        at = start + (count - 1 - pick if reverse else pick)
        child = flat[hits[np.minimum(at, last)]] if len(hits) else np.zeros(n, np.int64)
        if n_none:
            child[none] = uniform_children(candidates, n_none, rng)
        children.append(child)
    return children


def recombine_children(
    ctx: Context,
    parents1: np.ndarray,
    parents2: np.ndarray,
    consistent: np.ndarray,
    candidates: np.ndarray,
    rng: np.random.Generator,
) -> np.ndarray:
    """One child per parent pair: a consistent allowed word taking every letter position from
    one of the two parents (not a copy of either), uniformly among such words; when none
    exists, a uniform consistent word.  All 2**L letter masks are looked up at once."""
    p1 = np.asarray(parents1, dtype=np.int64)
    p2 = np.asarray(parents2, dtype=np.int64)
    if len(p1) == 0:
        return p1.copy()
    return _pick_children(*_recombinations(ctx, p1, p2, consistent), candidates, rng)[0]


def recombine_pairs(
    ctx: Context,
    parents: tuple[np.ndarray, np.ndarray],
    consistent: np.ndarray,
    candidates: np.ndarray,
    rng: np.random.Generator,
    members: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Both children of each pair ``parents = (p1, p2)``, as ``recombine_children(p1, p2)`` then
    ``recombine_children(p2, p1)`` would draw them, looking the recombinations up once:
    swapping the parents complements the letter mask, i.e. reverses the mask axis.
    ``members``, if given, are the sorted indices where ``consistent`` is True."""
    p1, p2 = (np.asarray(p, dtype=np.int64) for p in parents)
    if len(p1) == 0:
        return p1.copy(), p2.copy()
    found_valid = _recombinations(ctx, p1, p2, consistent, members)
    first, second = _pick_children(*found_valid, candidates, rng, both=True)
    return first, second
