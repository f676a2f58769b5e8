"""Entropy rules: H(guess) is the partition formula on every code path, bit-identical between paths,
and zero (not an error) when there is nothing to split."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import evo_wordle.entropy as ent
from evo_wordle.entropy import entropies, entropy_from_counts, pattern_counts, small_entropies


def partition_entropy(table, guess: int, candidates, weights=None) -> float:
    """-Σ p log2 p over the feedback classes of ``candidates`` (plain Python)."""
    mass: Counter[int] = Counter()
    for i, c in enumerate(candidates):
        mass[int(table[guess, c])] += 1.0 if weights is None else float(weights[i])
    total = sum(mass.values())
    return -sum(m / total * np.log2(m / total) for m in mass.values() if m > 0)


def _sample(ctx, seed: int, n_guesses: int, n_cands: int):
    rng = np.random.default_rng(seed)
    guesses = rng.choice(len(ctx.words), n_guesses, replace=False)
    cands = np.sort(rng.choice(ctx.words.answer_index, n_cands, replace=False))
    return guesses, cands


@pytest.mark.parametrize(("n_guesses", "n_cands"), [(5, 1), (7, 2), (9, 3), (40, 20), (6, 128), (6, 129), (30, 400),
                                                    (300, 12)])
def test_entropy_is_the_partition_formula_on_every_path(ctx, n_guesses, n_cands):
    guesses, cands = _sample(ctx, n_guesses * 1000 + n_cands, n_guesses, n_cands)
    got = entropies(ctx.table, guesses, cands)
    want = [partition_entropy(ctx.table, g, cands) for g in guesses]
    assert got.shape == (n_guesses,)
    assert np.allclose(got, want, atol=1e-12)
    assert np.all(got <= np.log2(n_cands) + 1e-12)


def test_weighted_entropy_is_the_weighted_partition_formula(ctx):
    guesses, cands = _sample(ctx, 5, 25, 60)
    w = np.random.default_rng(1).random(len(cands)) + 0.1
    got = entropies(ctx.table, guesses, cands, weights=w)
    assert np.allclose(got, [partition_entropy(ctx.table, g, cands, w) for g in guesses], atol=1e-12)
    counts = pattern_counts(ctx.table, guesses, cands, weights=w)
    assert counts.dtype == np.float64 and np.allclose(counts.sum(axis=1), w.sum())


@pytest.mark.parametrize(("n_guesses", "n_cands"), [(50, 3), (50, 8), (50, 64), (50, 128), (400, 100), (3, 100)])
def test_small_path_is_bit_identical_to_counting(ctx, n_guesses, n_cands):
    guesses, cands = _sample(ctx, n_cands, n_guesses, n_cands)
    counted = entropy_from_counts(pattern_counts(ctx.table, guesses, cands))
    assert np.array_equal(small_entropies(ctx.table, guesses, cands), counted)
    assert np.array_equal(entropies(ctx.table, guesses, cands), counted)


def test_all_words_against_few_candidates_reads_columns_once(ctx):
    # more than 4× as many guesses as candidates and over a quarter of the table's rows
    guesses = np.arange(len(ctx.words))
    cands = ctx.words.answer_index[100:110]
    counts = pattern_counts(ctx.table, guesses, cands)
    assert counts.shape == (len(ctx.words), 243) and counts.sum(axis=1).tolist() == [10] * len(ctx.words)
    for g in (0, 4000, 12971):
        assert counts[g].tolist() == np.bincount(ctx.table[g, cands], minlength=243).tolist()


@pytest.mark.parametrize(("block", "gather"), [(1000, 128), (243, 0), (5000, 10**6)])
def test_blocks_and_gathering_change_nothing(ctx, monkeypatch, block, gather):
    guesses, cands = _sample(ctx, 3, 200, 90)
    want = pattern_counts(ctx.table, guesses, cands)
    weighted = pattern_counts(ctx.table, guesses, cands, weights=np.ones(len(cands)))
    monkeypatch.setattr(ent, "BLOCK_CELLS", block)
    monkeypatch.setattr(ent, "COLUMN_CANDIDATES", gather)
    assert np.array_equal(pattern_counts(ctx.table, guesses, cands), want)
    assert np.array_equal(pattern_counts(ctx.table, guesses, cands, weights=np.ones(len(cands))), weighted)


def test_exactly_two_blocks_are_both_kept(ctx, monkeypatch):
    guesses, cands = _sample(ctx, 4, 20, 90)
    want = pattern_counts(ctx.table, guesses, cands)
    monkeypatch.setattr(ent, "BLOCK_CELLS", 900)  # 10 rows per block: two blocks
    monkeypatch.setattr(ent, "COLUMN_CANDIDATES", 0)
    got = pattern_counts(ctx.table, guesses, cands)
    assert got.shape == (20, 243) and np.array_equal(got, want)


def test_no_candidates_and_no_guesses():
    table = np.array([[0, 1, 2], [1, 1, 1]], dtype=np.uint8)
    assert entropies(table, np.array([0, 1]), np.array([], dtype=np.int64)).tolist() == [0.0, 0.0]
    none = entropies(table, np.array([], dtype=np.int64), np.array([0, 1]), n_patterns=3)
    assert none.shape == (0,)
    empty = pattern_counts(table, np.array([0, 1]), np.array([], dtype=np.int64), n_patterns=3)
    assert empty.tolist() == [[0, 0, 0], [0, 0, 0]]
    counts = pattern_counts(table, np.array([], dtype=np.int64), np.arange(3), n_patterns=3)
    assert counts.shape == (0, 3) and counts.dtype == np.int64
    wcounts = pattern_counts(table, np.array([], dtype=np.int64), np.arange(3), weights=np.ones(3), n_patterns=3)
    assert wcounts.shape == (0, 3) and wcounts.dtype == np.float64


def test_small_table_by_hand():
    table = np.array([[0, 1, 2, 2], [1, 1, 1, 1], [0, 0, 2, 2]], dtype=np.uint8)
    h = entropies(table, np.arange(3), np.arange(4), n_patterns=3)
    assert h[0] == pytest.approx(1.5) and h[1] == 0.0 and h[2] == pytest.approx(1.0)
    assert pattern_counts(table, np.arange(3), np.arange(4), n_patterns=3).tolist() == [[1, 1, 2], [0, 4, 0],
                                                                                        [2, 0, 2]]


def test_entropy_from_counts_edges():
    assert entropy_from_counts(np.zeros((1, 5))).tolist() == [0.0]  # no mass: 0, not NaN
    assert entropy_from_counts(np.array([[0, 7, 0]])).tolist() == [0.0]
    assert entropy_from_counts(np.ones(243))[()] == pytest.approx(np.log2(243))
    assert entropy_from_counts(np.array([[2, 2, 0, 0]]))[0] == 1.0
