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


def test_gather_path_reads_columns_only_for_most_rows_and_few_candidates():
    # the documented rule: more guesses than half the table's rows, and at most 128 candidates
    assert ent.gather_path(5, 10, 10) == "cells"  # exactly half the rows: not more
    assert ent.gather_path(6, 10, 10) == "columns"
    assert ent.gather_path(6, 128, 10) == "columns"
    assert ent.gather_path(6, 129, 10) == "cells"
    assert ent.gather_path(3000, 10, 12972) == "cells"


def test_every_path_reads_the_cells_of_a_non_square_table():
    table = np.arange(3 * 7, dtype=np.uint8).reshape(3, 7) % 5  # 3 guesses, 7 candidates
    guesses, cands = np.array([2, 0]), np.array([6, 1, 3])
    want = [[(7 * g + c) % 5 for c in cands] for g in guesses]  # cell (g, c) written out
    for path in ent.PATHS:
        assert ent.gather_codes(table, guesses, cands, path).tolist() == want, path
    assert ent.gather_codes(table, guesses, cands).tolist() == want
    counts = pattern_counts(table, guesses, cands, n_patterns=5, path="cells")
    assert want == [[0, 0, 2], [1, 1, 3]]  # 20, 15, 17 and 6, 1, 3 mod 5
    assert counts.tolist() == [[2, 0, 1, 0, 0], [0, 2, 0, 1, 0]]


def test_a_strided_table_larger_than_memory_is_read_cell_by_cell():
    """Few guesses of a huge non-contiguous table (here a 4 EiB strided view of one row, 2^60 rows):
    the default path gathers the cells and nothing copies the table or its columns whole."""
    row = np.array([0, 1, 2, 1], dtype=np.uint8)
    huge = np.lib.stride_tricks.as_strided(row, shape=(2**60, 4), strides=(0, 1), writeable=False)
    guesses, cands = np.array([0, 7, 2**60 - 1]), np.arange(4)
    assert ent.gather_codes(huge, guesses, cands).tolist() == [[0, 1, 2, 1]] * 3
    assert pattern_counts(huge, guesses, cands, n_patterns=3).tolist() == [[1, 2, 1]] * 3
    assert entropies(huge, guesses, cands, n_patterns=3).tolist() == [1.5] * 3  # -(¼ log ¼ + ½ log ½ + ¼ log ¼)


def test_the_columns_path_copies_the_candidates_columns_once(monkeypatch):
    """pattern_counts on the columns path narrows the table to the candidates' columns once, then
    reads rows of that copy in every block; on the cells path it gathers cells of the whole table."""
    table = (np.arange(10 * 300, dtype=np.int64).reshape(10, 300) % 3).astype(np.uint8)
    guesses, cands = np.arange(10), np.array([5, 17, 299])
    seen = []
    real = ent.gather_codes

    def spy(t, g, c, path=None):
        seen.append((path, t.shape))
        return real(t, g, c, path)

    monkeypatch.setattr(ent, "gather_codes", spy)
    monkeypatch.setattr(ent, "BLOCK_CELLS", 12)  # 4 guesses per block: three blocks
    want = [[sum((300 * g + c) % 3 == k for c in cands) for k in range(3)] for g in guesses]
    for path in (None, "columns"):  # 10 of 10 rows, 3 candidates: the default is the columns path
        seen.clear()
        assert pattern_counts(table, guesses, cands, n_patterns=3, path=path).tolist() == want
        assert seen == [("rows", (10, 3))] * 3, path
    seen.clear()
    assert pattern_counts(table, guesses, cands, n_patterns=3, path="cells").tolist() == want
    assert seen == [("cells", (10, 300))] * 3
    seen.clear()
    assert pattern_counts(table, guesses[:4], cands, n_patterns=3).tolist() == want[:4]  # 4 of 10 rows
    assert seen == [("cells", (10, 300))]


def test_small_entropies_takes_its_options_by_keyword():
    table = np.array([[0, 1, 2, 2], [1, 1, 1, 1]], dtype=np.uint8)
    h = small_entropies(table, np.arange(2), np.arange(4), n_patterns=3, path="rows")
    assert h.tolist() == [1.5, 0.0]  # classes of sizes 1, 1, 2 and one class of 4
    with pytest.raises(TypeError):
        small_entropies(table, np.arange(2), np.arange(4), 3, "rows")  # path is keyword-only
