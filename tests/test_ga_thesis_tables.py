"""experiments/ga_thesis_tables.py: a row's figures from each seed's game lengths."""

from __future__ import annotations

import statistics

import numpy as np
import pytest

from .experiment_scripts import load_experiment


def test_the_spread_of_the_seed_means_is_the_sample_standard_deviation():
    """The ±sd column (the JSON's ``sd``) was numpy's population formula (ddof=0), which understates
    the spread of 3 seeds' means by a factor sqrt(2/3): 0.0178 printed where the seeds' sample
    standard deviation is 0.0218 (N=10 mut 0.1's seed means 4.771, 4.745, 4.728)."""
    figures = load_experiment("ga_thesis_tables").seed_figures
    lengths = [np.array([3, 4, 5, 12]), np.array([4, 4, 4, 6]), np.array([2, 5, 7, 31])]
    means = [6.0, 4.5, 11.25]
    row = figures(lengths)
    assert row["seed_means"] == means and row["mean"] == pytest.approx(statistics.mean(means))
    assert row["sd"] == pytest.approx(statistics.stdev(means))  # n - 1 in the denominator
    assert row["cap9"] == pytest.approx(np.mean([(3 + 4 + 5 + 9) / 4, 4.5, (2 + 5 + 7 + 9) / 4]))
    assert row["over6"] == pytest.approx(100 * np.mean([1 / 4, 0, 2 / 4])) and row["max"] == 31


def test_one_seed_has_no_spread_not_a_spread_of_zero():
    """One seed's mean has no spread to report: None (printed "–"), never 0.0, which read as exact."""
    row = load_experiment("ga_thesis_tables").seed_figures([np.array([4, 5, 6])])
    assert row["sd"] is None and row["mean"] == 5.0
