"""experiments/tune_vs_grid.py: the held-out difference between a study's incumbent and the grid's choice."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from .experiment_scripts import load_experiment


def test_the_heldout_interval_is_over_answers_not_answers_times_seeds():
    """Every held-out answer plays with 5 bench seeds; the 2,885 games (577 answers × 5) were paired
    as 2,885 independent games, so an answer's own effect counted five times and the interval
    shrank towards 1/sqrt(5) of its width where that effect dominates.  The interval is now over
    the answers' mean differences (576 degrees of freedom there), whatever the seeds add."""
    diff = load_experiment("tune_vs_grid").heldout_difference
    rng = np.random.default_rng(3)
    answer_effect = rng.normal(0, 1, size=40)  # what each answer does to the difference, on every seed
    mine = 4 + answer_effect + rng.normal(0, 0.1, size=(5, 40))
    grid = np.full((5, 40), 4.0)
    d = diff(mine, grid)
    per_answer = (mine - grid).mean(axis=0)
    low, high = stats.ttest_1samp(per_answer, 0).confidence_interval()
    assert d["games"] == 40 and d["mean"] == pytest.approx((mine - grid).mean())
    assert (d["low"], d["high"]) == pytest.approx((low, high), abs=2e-4)  # the table's t quantile: 3 decimals
    flat = stats.ttest_1samp((mine - grid).ravel(), 0).confidence_interval()
    assert d["high"] - d["low"] > 2 * (flat.high - flat.low)  # the old pooled interval was far too narrow


def test_heldout_scores_must_be_seeds_by_answers_on_both_sides():
    diff = load_experiment("tune_vs_grid").heldout_difference
    with pytest.raises(ValueError, match="seeds × answers"):
        diff(np.ones(10), np.ones(10))
    with pytest.raises(ValueError, match="seeds × answers"):
        diff(np.ones((5, 10)), np.ones((4, 10)))
