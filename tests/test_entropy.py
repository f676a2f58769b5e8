"""Entropy values quoted by the thesis, and the priority curves."""

from __future__ import annotations

import numpy as np
import pytest

from evo_wordle import frequency
from evo_wordle.entropy import entropies, entropy_from_counts, pattern_counts


@pytest.mark.parametrize(
    "word, bits",
    [("tares", 6.19405254), ("lares", 6.14991874), ("rales", 6.11434310), ("black", 4.14023705)],
)
def test_known_entropies(ctx, word, bits):
    assert ctx.entropy([word])[0] == pytest.approx(bits, abs=1e-6)


def test_naive_starter_ranking(ctx):
    bits = ctx.entropy(ctx.all_words)
    top = [ctx.words.allowed[i] for i in np.argsort(-bits, kind="stable")[:10]]
    assert top == ["tares", "lares", "rales", "rates", "teras", "nares", "soare", "tales", "reais", "tears"]


def test_weighted_uniform_equals_unweighted_and_blocks_agree(ctx, monkeypatch):
    guesses = np.arange(0, 12972, 97)
    cand = ctx.words.answer_index
    plain = entropies(ctx.table, guesses, cand)
    weighted = entropies(ctx.table, guesses, cand, weights=np.full(len(cand), 3.0))
    assert np.allclose(plain, weighted)
    import evo_wordle.entropy as ent

    monkeypatch.setattr(ent, "BLOCK_CELLS", 5000)  # many small blocks give the same answer
    assert np.array_equal(entropies(ctx.table, guesses, cand), plain)


def test_weighted_entropy_by_hand():
    # Two patterns with masses 1 and 3: H = -(1/4 log 1/4 + 3/4 log 3/4).
    expected = -(0.25 * np.log2(0.25) + 0.75 * np.log2(0.75))
    assert entropy_from_counts(np.array([[1.0, 3.0, 0.0]]))[0] == pytest.approx(expected)
    table = np.array([[0, 1, 1, 1]], dtype=np.uint8)
    counts = pattern_counts(table, np.array([0]), np.arange(4), n_patterns=3)
    assert counts.tolist() == [[1, 3, 0]]


def test_thesis_priority_curve():
    freqs = np.array([5e-6, 0.0, 1e-3, 0.0, 2e-8])
    g = frequency.priority_thesis(freqs)
    assert g.min() == pytest.approx(1 / (1 + np.exp(2))) and g.max() == pytest.approx(1 / (1 + np.exp(-2)))
    assert np.argmax(g) == 2
    # ties at frequency 0 keep list order: index 1 ranks below index 3
    assert g[1] < g[3] < g[4] < g[0] < g[2]


def test_priority_range_on_real_words(ctx):
    g = ctx.priority
    assert 0.1192 < g.min() < 0.1193 and 0.8807 < g.max() < 0.8808
    common, rare = ctx.words.index("about"), ctx.words.index("tares")
    assert g[common] > 0.85 > g[rare]


def test_paper_curve_and_prior():
    freqs = np.linspace(0, 1, 101)
    g = frequency.priority_paper(freqs)
    assert g[50] == pytest.approx(0.5) and g[0] == pytest.approx(1 / (1 + np.exp(5)))
    steep = frequency.priority_paper(freqs, steepness=40, midpoint=0.8)
    assert steep[80] == pytest.approx(0.5) and steep[60] < 0.001
    p = frequency.prior(freqs)
    assert p.sum() == pytest.approx(1.0) and np.all(np.diff(p) > 0)


# -- every read path gives the same bits ------------------------------------------------------


@pytest.mark.parametrize(
    "m, n",
    [(99, 100), (101, 100), (6485, 128), (6487, 128), (6487, 129), (300, 3), (1, 3000)],
)
def test_every_path_is_bitwise_identical_across_the_cut_offs(ctx, m, n):
    """The shapes on both sides of each cut-off of ``gather_path`` (more guesses than half
    the rows; 128 candidates; the small-candidate entropy path) read along every path give
    the very same counts and floats."""
    from evo_wordle.entropy import PATHS, gather_path

    rng = np.random.default_rng(m * 7 + n)
    guesses = np.sort(rng.choice(len(ctx.words), m, replace=False))
    cand = np.sort(rng.choice(len(ctx.words), n, replace=False))
    weights = rng.random(n)
    base = entropies(ctx.table, guesses, cand)
    counts = pattern_counts(ctx.table, guesses, cand)
    mass = pattern_counts(ctx.table, guesses, cand, weights=weights)
    for path in PATHS:
        assert np.array_equal(entropies(ctx.table, guesses, cand, path=path).view(np.int64), base.view(np.int64))
        assert np.array_equal(pattern_counts(ctx.table, guesses, cand, path=path), counts)
        assert np.array_equal(pattern_counts(ctx.table, guesses, cand, weights=weights, path=path), mass)
    idx = ctx.entropy(guesses, cand)
    assert np.array_equal(idx.view(np.int64), base.view(np.int64))
    expected = "columns" if 2 * m > len(ctx.words) and n <= 128 else "cells"
    assert gather_path(m, n, len(ctx.words)) == expected
