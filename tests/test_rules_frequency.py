"""Rule tests of evo_wordle/frequency.py: the frequency ranks and the priority curves that
greedy's score, the GA fitness and the strategy priors are made of (references written out)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from evo_wordle import frequency
from evo_wordle.words import WordSet


def plain_rank(freqs):
    """0 = rarest; equal frequencies ranked in list order."""
    order = sorted(range(len(freqs)), key=lambda i: (freqs[i], i))
    rank = [0] * len(freqs)
    for r, i in enumerate(order):
        rank[i] = r
    return rank


@pytest.mark.parametrize("freqs", [[3.0, 1.0, 2.0], [0.0, 0.0, 5.0, 0.0, 1.0], [2.0, 2.0, 2.0, 2.0], [7.0]])
def test_rank_is_zero_for_the_rarest_and_keeps_list_order_among_equals(freqs):
    rank = frequency.frequency_rank(np.array(freqs))
    assert rank.tolist() == plain_rank(freqs)
    assert rank.dtype == np.int64


def test_rank_of_a_long_list_with_ties():
    rng = np.random.default_rng(4)
    freqs = rng.integers(0, 5, size=300).astype(float)
    assert frequency.frequency_rank(freqs).tolist() == plain_rank(freqs.tolist())


def plain_thesis(freqs, slope=2.0):
    n = len(freqs)
    rank = plain_rank(freqs)
    x = [-1.0 + 2.0 * r / (n - 1) for r in rank]
    return [1.0 / (1.0 + math.exp(-slope * v)) for v in x]


def plain_paper(freqs, steepness=10.0, midpoint=0.5):
    n = len(freqs)
    rank = plain_rank(freqs)
    return [1.0 / (1.0 + math.exp(-steepness * (r / max(n - 1, 1) - midpoint))) for r in rank]


@pytest.mark.parametrize("slope", [2.0, 0.5, 7.0])
def test_thesis_curve_maps_rank_onto_minus_one_to_one(slope):
    freqs = [4.0, 0.0, 9.0, 1.0, 1.0, 3.0]
    got = frequency.priority_thesis(np.array(freqs), slope=slope) if slope != 2.0 else \
        frequency.priority_thesis(np.array(freqs))
    np.testing.assert_allclose(got, plain_thesis(freqs, slope), rtol=1e-13)


@pytest.mark.parametrize(("steepness", "midpoint"), [(10.0, 0.5), (3.0, 0.2), (25.0, 0.9)])
def test_paper_curve_on_rank_over_n_minus_one(steepness, midpoint):
    freqs = [4.0, 0.0, 9.0, 1.0, 1.0, 3.0, 8.0]
    if (steepness, midpoint) == (10.0, 0.5):
        got = frequency.priority_paper(np.array(freqs))
    else:
        got = frequency.priority_paper(np.array(freqs), steepness, midpoint)
    np.testing.assert_allclose(got, plain_paper(freqs, steepness, midpoint), rtol=1e-13)


def test_paper_curve_of_two_words_spans_rank_zero_to_one():
    got = frequency.priority_paper(np.array([0.5, 0.1]), 4.0, 0.25)
    np.testing.assert_allclose(got, [1.0 / (1.0 + math.exp(-3.0)), 1.0 / (1.0 + math.exp(1.0))], rtol=1e-13)


def test_paper_curve_of_one_word_is_defined():
    # one word: rank 0 over max(n - 1, 1) = 1, so r = 0 and no division by zero
    got = frequency.priority_paper(np.array([0.3]), 4.0, 0.25)
    assert got.tolist() == pytest.approx([1.0 / (1.0 + math.exp(1.0))], rel=1e-13)


def test_prior_is_the_paper_curve_normalised_with_its_defaults():
    freqs = [4.0, 0.0, 9.0, 1.0, 1.0]
    p = frequency.prior(np.array(freqs))
    g = plain_paper(freqs)
    np.testing.assert_allclose(p, [v / sum(g) for v in g], rtol=1e-13)
    q = frequency.prior(np.array(freqs), steepness=3.0, midpoint=0.7)
    g = plain_paper(freqs, 3.0, 0.7)
    np.testing.assert_allclose(q, [v / sum(g) for v in g], rtol=1e-13)


def test_word_frequencies_are_wordfreqs_and_read_back_from_the_cache(tmp_path, monkeypatch):
    import wordfreq

    words = WordSet(("about", "cigar", "qxqxq", "xylyl"), ("about", "cigar"), label="tiny-freq")
    expected = [wordfreq.word_frequency(w, "en") for w in words.allowed]
    first = frequency.word_frequencies(words, tmp_path)
    assert first.tolist() == expected and first.dtype == np.float64
    assert expected[0] > expected[1] > 0.0 and expected[2] == 0.0
    files = list(tmp_path.rglob("freq-*.cache"))
    assert len(files) == 1 and words.digest[:16] in files[0].name

    def refuse(*args, **kwargs):
        raise AssertionError("wordfreq asked again: the cache was not read")

    monkeypatch.setattr(wordfreq, "word_frequency", refuse)
    again = frequency.word_frequencies(words, tmp_path)
    assert again.tolist() == expected
    # another list of the same length is not served this list's values
    other = WordSet(("about", "cigar", "qxqxq", "zoned"), ("about", "cigar"), label="tiny-freq-2")
    monkeypatch.undo()
    assert frequency.word_frequencies(other, tmp_path)[3] == wordfreq.word_frequency("zoned", "en")
