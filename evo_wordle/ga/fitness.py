"""Fitness functions of the word GAs, each evaluating a whole population in one numpy call.

* dynamic: ``H(X_w | candidates)·g(r_w) + ε`` over the *current* candidates;
* static: the same over the starting candidates, computed once per context (the thesis);
* expected: ``exp(−E[guesses left])``, with E estimated from the frequency-weighted entropy
  of w's feedback and the chance that w is the answer (the strategy genomes' cost model);
* first: the thesis's first GA, ``H(X_w) + 5·G(w) + 2·A(w) − 2·N(w)`` (clipped at ε).

ε keeps every fitness strictly positive so that roulette selection is always defined.
"""

from __future__ import annotations

import hashlib

import numpy as np

from ..cachedir import prepare, read_sealed_array, write_sealed_array
from ..context import Context
from ..entropy import entropies, pattern_counts
from ..frequency import priority_paper
from ..patterns import decode

#: Added to every fitness so roulette weights are strictly positive.
EPS = 1e-6
#: Above this many (word, candidate) cells the blockwise foundation routine is used.
BLOCK_CELLS = 1 << 21


def _cache_file(ctx: Context, candidates: np.ndarray):
    root = prepare(ctx.cache_root)
    tag = hashlib.sha256(np.ascontiguousarray(candidates, dtype=np.int64).tobytes()).hexdigest()[:12]
    return root / f"ga-static-entropy-{ctx.words.digest[:16]}-{tag}.cache"



def static_entropy(ctx: Context, candidates: np.ndarray | None = None) -> np.ndarray:
    """H(X_w) of every allowed word over ``candidates`` (default all allowed), computed once.

    Kept on the context and in the cache folder (≈1.5 s to compute for 12,972 × 12,972), so
    bench worker processes load it instead of recomputing it.
    """
    cand = ctx.all_words if candidates is None else np.asarray(candidates, dtype=np.int64)
    memo = ctx.__dict__.setdefault("_ga_static_entropy", {})
    key = cand.tobytes() if len(cand) != len(ctx.words) else b"all"
    hit = memo.get(key)
    if hit is not None:
        return hit
    path = _cache_file(ctx, cand)
    values = read_sealed_array(path, "ga-static-entropy", len(ctx.words))
    if values is None:
        values = entropies(ctx.table, ctx.all_words, cand, n_patterns=ctx.words.n_patterns)
        write_sealed_array(path, "ga-static-entropy", values)  # unwritable: only costs time
    values.setflags(write=False)
    memo[key] = values
    return values


def static_fitness(ctx: Context, candidates: np.ndarray | None = None) -> np.ndarray:
    """``H(X_w)·g(r_w) + ε`` for every allowed word over the starting candidates (the thesis)."""
    cand = ctx.all_words if candidates is None else np.asarray(candidates, dtype=np.int64)
    memo = ctx.__dict__.setdefault("_ga_static_fitness", {})
    key = cand.tobytes() if len(cand) != len(ctx.words) else b"all"
    hit = memo.get(key)
    if hit is None:
        hit = static_entropy(ctx, cand) * ctx.priority + EPS
        hit.setflags(write=False)
        memo[key] = hit
    return hit


def _xlogx(ctx: Context) -> np.ndarray:
    """x·log2(x) for x = 0 … number of words: entropy from counts by one table gather."""
    table = ctx.__dict__.get("_ga_xlogx")
    if table is None:
        x = np.arange(len(ctx.words) + 1, dtype=np.float64)
        table = ctx.__dict__["_ga_xlogx"] = x * np.log2(np.maximum(x, 1.0))
    return table


def dynamic_fitness(ctx: Context, words: np.ndarray, candidates: np.ndarray, *, distinct: bool = False) -> np.ndarray:
    """``H(X_w | candidates)·g(r_w) + ε`` for each word of a population (one entropy call; no
    candidates: 0 bits, so ε); ``distinct=True`` promises no repeated word (skips the deduplication)."""
    words = np.asarray(words, dtype=np.int64)
    if distinct:
        uniq, inverse = words, slice(None)
    else:
        uniq, inverse = np.unique(words, return_inverse=True)
    candidates = np.asarray(candidates, dtype=np.int64)
    n_pat = ctx.words.n_patterns
    if len(uniq) * len(candidates) > BLOCK_CELLS:
        bits = entropies(ctx.table, uniq, candidates, n_patterns=n_pat)
    else:
        counts = pattern_counts(ctx.table, uniq, candidates, n_patterns=n_pat)
        total = max(len(candidates), 1)  # no candidates: 0 bits, as entropies() gives, not NaN
        bits = np.log2(total) - _xlogx(ctx)[counts].sum(axis=1) / total
        bits = np.maximum(bits, 0.0)
    return (bits * ctx.priority[uniq] + EPS)[inverse]


#: The ``expected`` fitness's cost model, in the shape of the strategy genomes (docs/evolve.md)
#: with the genes ``evolve-strategy`` first found for P0 (data/strategies/p0-ga-genes.json), rounded:
#: the answer prior's steepness and midpoint, the future-cost coefficients k1 and k2, and the
#: weight of the chance to win now.
EXPECTED_MODEL = {"steepness": 8.3, "midpoint": 0.84, "k1": 0.34, "k2": 0.62, "bonus": 1.2}


def answer_weights(ctx: Context, candidates_rule: str) -> np.ndarray:
    """Prior weight of every allowed word being the answer (not normalised): the paper's
    frequency curve when any allowed word may be the answer, uniform when the answer list is known."""
    memo = ctx.__dict__.setdefault("_ga_answer_weights", {})
    if candidates_rule not in memo:
        if candidates_rule == "allowed":
            w = priority_paper(ctx.frequencies, EXPECTED_MODEL["steepness"], EXPECTED_MODEL["midpoint"])
        else:
            w = np.ones(len(ctx.words))
        w.setflags(write=False)
        memo[candidates_rule] = w
    return memo[candidates_rule]


def expected_cost(ctx: Context, words: np.ndarray, candidates: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Estimated guesses still needed if each word is played next (including itself):
    ``1 + (1 − min(1, bonus·p))·(1 + k1·rem + k2·log2(1 + rem))``, where ``p`` is the word's
    chance of being the answer and ``rem`` the bits its feedback is expected to leave, both
    under the candidates' ``weights`` (over all allowed words)."""
    words = np.asarray(words, dtype=np.int64)
    candidates = np.asarray(candidates, dtype=np.int64)
    w = weights[candidates]
    w = w / w.sum()
    h_now = float(-(w * np.log2(w)).sum())
    n_pat = ctx.words.n_patterns
    mass = pattern_counts(ctx.table, words, candidates, weights=w, n_patterns=n_pat).ravel()
    nz = np.flatnonzero(mass)
    h = -np.bincount(nz // n_pat, weights=mass[nz] * np.log2(mass[nz]), minlength=len(words))
    rem = np.maximum(h_now - h, 0.0)
    pos = np.minimum(np.searchsorted(candidates, words), len(candidates) - 1)
    p = np.where(candidates[pos] == words, w[pos], 0.0)
    m = EXPECTED_MODEL
    future = 1.0 + m["k1"] * rem + m["k2"] * np.log2(1.0 + rem)
    return 1.0 + (1.0 - np.minimum(1.0, m["bonus"] * p)) * future


def expected_fitness(
    ctx: Context, words: np.ndarray, candidates: np.ndarray, weights: np.ndarray, *, distinct: bool = False
) -> np.ndarray:
    """``exp(−expected_cost)`` for each word: strictly positive, and roulette with pressure X
    then weighs words by ``exp(−X·cost)`` (Boltzmann selection at temperature 1/X guesses);
    no candidates: ε for every word, as :func:`dynamic_fitness` gives (there is no cost to
    estimate, and roulette still needs positive weights); ``distinct=True`` promises no
    repeated word (skips the deduplication)."""
    words = np.asarray(words, dtype=np.int64)
    if len(candidates) == 0:
        return np.full(len(words), EPS)
    if distinct:
        return np.exp(-expected_cost(ctx, words, candidates, weights))
    uniq, inverse = np.unique(words, return_inverse=True)
    return np.exp(-expected_cost(ctx, uniq, candidates, weights))[inverse]


class FirstKnowledge:
    """What the thesis's first GA remembers: per position the strongest colour seen and the
    letter that earned it (``colors`` 0/1/2, ``letters`` 0–25, -1 while nothing is known there),
    plus the set of letters ever marked grey (``gray``, one flag per letter a–z)."""

    def __init__(self, length: int) -> None:
        self.colors = np.zeros(length, dtype=np.int8)
        self.letters = np.full(length, -1, dtype=np.int16)
        self.gray = np.zeros(26, dtype=bool)

    def update(self, guess_letters: np.ndarray, pattern: int) -> None:
        """Take in one guess's letters and its feedback pattern."""
        trits = np.asarray(decode(int(pattern), len(self.colors)), dtype=np.int8)
        stronger = trits > self.colors
        self.colors[stronger] = trits[stronger]
        self.letters[stronger] = guess_letters[stronger]
        self.gray[guess_letters[trits == 0]] = True

    def weak_mask(self, letters: np.ndarray, counts: np.ndarray | None = None) -> np.ndarray:
        """Words that pass the first GA's crossover filter: every known green in place, every
        known yellow letter present but not where it was yellow (grey letters are not checked).
        ``counts`` (words × 26 letter counts) speeds up the presence test."""
        ok = np.ones(len(letters), dtype=bool)
        for pos in np.flatnonzero(self.colors == 2):
            ok &= letters[:, pos] == self.letters[pos]
        for pos in np.flatnonzero(self.colors == 1):
            c = self.letters[pos]
            present = counts[:, c] > 0 if counts is not None else (letters == c).any(axis=1)
            ok &= (letters[:, pos] != c) & present
        return ok


def first_fitness(ctx: Context, words: np.ndarray, knowledge: FirstKnowledge, entropy: np.ndarray) -> np.ndarray:
    """The first GA's ``H(X_w) + 5·G(w) + 2·A(w) − 2·N(w)`` (counted per position, as the
    thesis's code does), clipped below at ε."""
    words = np.asarray(words, dtype=np.int64)
    letters = ctx.words.letters[words].astype(np.int16)
    known = knowledge.letters[None, :]
    green = ((knowledge.colors == 2)[None, :] & (letters == known)).sum(axis=1)
    present = (letters[:, :, None] == knowledge.letters[None, None, :]).any(axis=1)  # known letter j in word
    amber = ((knowledge.colors == 1)[None, :] & (letters != known) & present).sum(axis=1)
    grey = knowledge.gray[letters].sum(axis=1)
    raw = entropy[words] + 5.0 * green + 2.0 * amber - 2.0 * grey
    return np.maximum(raw, EPS)
