"""Rule tests of evo_wordle/stats.py: the 95 % intervals beside repeated and compared figures.

The references are computed here independently (Student's t quantile by numerical integration
of its density, the interval and the power formula written out), so a changed constant or
operator in stats.py fails a test.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from evo_wordle import stats
from evo_wordle.errors import EvoWordleError
from evo_wordle.stats import mean_ci, no_significant_difference, paired, t975


def t_quantile(df: int, p: float = 0.975) -> float:
    """Student's t quantile: Simpson's rule on the density from 0, then bisection."""
    log_c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)

    def cdf(q: float) -> float:
        x = np.linspace(0.0, q, 20_001)
        y = np.exp(log_c - (df + 1) / 2 * np.log1p(x * x / df))
        h = x[1] - x[0]
        return 0.5 + h / 3 * (y[0] + y[-1] + 4 * y[1:-1:2].sum() + 2 * y[2:-1:2].sum())

    lo, hi = 0.0, 20.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if cdf(mid) < p else (lo, mid)
    return (lo + hi) / 2


@pytest.mark.parametrize("df", range(1, 31))
def test_the_table_holds_the_quantiles_to_three_decimals(df):
    assert abs(t975(df) - t_quantile(df)) < 0.0005 + 1e-6


@pytest.mark.parametrize("df", [31, 32, 40, 60, 100, 1000])
def test_beyond_the_table_the_expansion_is_within_a_thousandth(df):
    assert abs(t975(df) - t_quantile(df)) < 0.001


def test_the_expansion_takes_over_right_after_the_table():
    # 31 is the first degree of freedom the table does not hold: its value is the expansion's
    z = 1.959964
    expansion = z + (z**3 + z) / (4 * 31) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * 31**2)
    assert t975(31) == pytest.approx(expansion, rel=1e-12)
    assert t975(30) == 2.042
    assert t975(31) < t975(30)


@pytest.mark.parametrize("df", [0, -1])
def test_no_degrees_of_freedom_is_nan(df):
    assert math.isnan(t975(df))


def test_mean_ci_is_the_t_interval_written_out():
    x = [3.0, 5.0, 4.0, 7.0]
    mean, half = mean_ci(x)
    sd = math.sqrt(sum((v - 4.75) ** 2 for v in x) / 3)
    assert mean == 4.75
    assert half == pytest.approx(3.182 * sd / 2, rel=1e-12)
    mean, half = mean_ci(np.array([2, 2, 2, 2, 2]))
    assert (mean, half) == (2.0, 0.0)


def test_mean_ci_of_one_value_has_no_interval_and_of_none_is_an_error():
    """One value: its mean and a nan half-width, which sweeps and bench read as "no interval"
    (a documented value, not an error); no values: no mean either, so a one-line error."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy warning on the way (a spread of one value warns)
        mean, half = mean_ci([6.0])
        assert mean == 6.0 and math.isnan(half)
        assert isinstance(mean, float)
        assert mean_ci(np.array([[6.0]]))[0] == 6.0 and math.isnan(mean_ci(6.0)[1])
    for empty in ([], np.array([]), np.zeros((0, 3))):
        with pytest.raises(EvoWordleError) as err:
            mean_ci(empty)
        assert str(err.value) == "a mean and its 95 % interval need at least one value, not none"


def test_mean_ci_of_a_table_is_that_of_all_its_values():
    """A 2-D input is one sample of all its values (its mean and n agree), not rows of it."""
    mean, half = mean_ci(np.array([[3.0, 5.0], [4.0, 7.0]]))
    assert (mean, half) == mean_ci([3.0, 5.0, 4.0, 7.0])


def test_mean_ci_of_two_values_has_an_interval():
    mean, half = mean_ci([3.0, 5.0])
    assert mean == 4.0 and half == pytest.approx(12.706 * math.sqrt(2.0) / math.sqrt(2.0), rel=1e-12)


def test_paired_differences_game_by_game():
    a = np.array([4, 3, 5, 4, 6, 3], float)
    b = np.array([4, 4, 4, 5, 5, 4], float)
    d = a - b
    res = paired(a, b)
    sd = float(np.std(d, ddof=1))
    half = 2.571 * sd / math.sqrt(6)
    assert res["games"] == 6
    assert res["mean"] == pytest.approx(d.mean(), rel=1e-12)
    assert res["ci95"] == pytest.approx(half, rel=1e-12)
    assert res["low"] == pytest.approx(d.mean() - half, rel=1e-12)
    assert res["high"] == pytest.approx(d.mean() + half, rel=1e-12)
    assert res["detectable"] == pytest.approx(stats._ncp_for_power(5) * sd / math.sqrt(6), rel=1e-12)
    assert res["significant"] is False
    # the sign is a - b: swapping the arguments swaps the interval
    swapped = paired(b, a)
    assert swapped["mean"] == pytest.approx(-res["mean"]) and swapped["low"] == pytest.approx(-res["high"])


def test_significance_needs_the_interval_to_miss_zero_on_either_side():
    base = np.array([4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0])
    better = base - np.array([1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0])
    assert paired(better, base)["significant"] is True and paired(better, base)["high"] < 0
    assert paired(base, better)["significant"] is True and paired(base, better)["low"] > 0
    # identical runs: mean 0 and interval 0 wide, which is no difference (|mean| > half is required)
    same = paired(base, base.copy())
    assert (same["mean"], same["ci95"], same["significant"]) == (0.0, 0.0, False)
    # two pairs are enough for an interval and a detectable difference
    two = paired(np.array([1.0, 0.0]), np.array([0.0, 0.0]))
    sd = math.sqrt(0.5)
    assert two["mean"] == 0.5 and two["ci95"] == pytest.approx(12.706 * sd / math.sqrt(2), rel=1e-12)
    assert two["detectable"] == pytest.approx(stats._ncp_for_power(1) * sd / math.sqrt(2), rel=1e-12)


@pytest.mark.parametrize("n", [0, 1])
def test_fewer_than_two_pairs_is_an_error_not_a_nan_interval(n):
    """One difference has no spread (the CLI routes refuse it too): a clear error from Python,
    never an interval of nan that reads as "not significant"."""
    with pytest.raises(EvoWordleError) as err:
        paired(np.full(n, 5.0), np.full(n, 3.0))
    assert str(err.value) == f"a paired difference needs at least 2 games for its 95 % interval, not {n}"
    assert isinstance(err.value, ValueError)


@pytest.mark.parametrize(("a", "b"), [
    ([4.0, 5.0, 3.0], [4.0]),  # numpy would broadcast the one score over every game
    ([4.0], [4.0, 5.0, 3.0]),
    ([4.0, 5.0, 3.0], [4.0, 5.0]),
    ([[4.0, 5.0], [3.0, 4.0]], [[4.0, 5.0], [3.0, 4.0]]),
    ([[4.0], [5.0]], [4.0, 5.0]),
    (4.0, 3.0),
])
def test_paired_needs_one_score_per_game_on_both_sides(a, b):
    with pytest.raises(EvoWordleError) as err:
        paired(a, b)
    shapes = f"{np.asarray(a).shape} and {np.asarray(b).shape}"
    assert str(err.value) == ("a paired difference needs one score per game for the same games on both sides, "
                              f"not shapes {shapes}")


def test_paired_takes_lists_as_arrays():
    assert paired([4, 3, 5], [3, 3, 3]) == paired(np.array([4.0, 3.0, 5.0]), np.array([3.0, 3.0, 3.0]))


def test_no_spread_says_the_two_scored_alike_not_that_the_test_detects_zero():
    """Equal scores on every game printed "detects 0.0000 with 80 % power", as if the test were perfect."""
    same = paired([3, 4, 5, 4], [3, 4, 5, 4])
    assert same["detectable"] == 0 and not same["significant"]
    assert no_significant_difference(same) == "no difference: both scored the same on each of the 4 games"
    assert no_significant_difference(same, "board sets").endswith("each of the 4 board sets")
    spread = paired([3, 4, 5, 4], [4, 4, 4, 4])
    assert no_significant_difference(spread) == (f"no significant difference (this test detects "
                                                 f"{spread['detectable']:.4f} with 80 % power)")


def test_an_interval_end_that_is_not_zero_never_prints_as_zero():
    """A significant interval [0.00002, 0.0123] printed "[+0.0000, +0.0123] (95 %): significant", a 0
    at its end that the interval does not hold; one ending at -0.00004 read "-0.0000", short of 0.
    An end that rounds to 0 but is not 0 now takes two significant digits; others keep 4 decimals."""
    from evo_wordle.stats import bound_text, interval_text

    assert bound_text(0.00002) == "+2.0e-05" and bound_text(-0.00004) == "-4.0e-05"
    assert bound_text(0.0) == "+0.0000" and bound_text(0.01234) == "+0.0123" and bound_text(-0.00005) == "-0.0001"
    assert bound_text(0.004, 2) == "+4.0e-03" and bound_text(0.004, 3) == "+0.004"
    assert interval_text({"low": 0.00002, "high": 0.0123}) == "[+2.0e-05, +0.0123]"
    d = paired(np.array([1.0, 2.0, 3.0, 4.0]), np.array([1.0, 2.0, 3.0, 4.0]) - 0.5)
    assert interval_text(d) == "[+0.5000, +0.5000]"  # every difference 0.5: no spread


@pytest.mark.parametrize(("games", "ncp", "samples"), [(2, 16.3337, 200_000), (3, 5.6539, 200_000),
                                                     (6, 3.5144, 200_000), (31, 2.8951, 100_000),
                                                     (401, 2.8083, 10_000)])
def test_the_detectable_difference_is_rejected_four_times_in_five(games, ncp, samples):
    """"Detects x with 80 % power" must mean what it says: games drawn with a true mean difference of
    ncp·sd/√games are called significant by paired's own test 80 % of the time.  The normal shortcut
    (t975 + 0.8416) said 5.1446 at 3 games, where the test rejects 73 % of the time.  Checked by
    simulation (seeded samples: the rate's standard error is 0.0009 at 200,000, 0.004 at 10,000) and
    against the noncentral t computed independently (the ncp column, scipy quad over the chi-square law)."""
    assert stats._ncp_for_power(games - 1) == pytest.approx(ncp, abs=1e-4)
    rng = np.random.default_rng(games)
    d = rng.standard_normal((samples, games)) + ncp / math.sqrt(games)
    t = d.mean(axis=1) / (d.std(axis=1, ddof=1) / math.sqrt(games))
    assert np.mean(np.abs(t) > stats.t975(games - 1)) == pytest.approx(0.8, abs=4 * math.sqrt(0.16 / samples))
    # the paired record scales it by the games' own spread
    a = rng.standard_normal(games)
    res = paired(a, np.zeros(games))
    assert res["detectable"] == pytest.approx(ncp * a.std(ddof=1) / math.sqrt(games), rel=1e-4)


@pytest.mark.parametrize("df", [5, 30, 400, 9999])
def test_the_power_counts_both_tails_as_scipy_s_noncentral_t(df):
    """Where scipy's noncentral t is sound, its root of power 0.8 for paired's own two-sided test
    (|t| beyond t975) is the same to 1e-6 (the quadrature is within 3e-7 of it); counting the upper
    tail alone moves the root by 3e-6 at 30 games and more."""
    from scipy.optimize import brentq
    from scipy.stats import nct

    crit = stats.t975(df)
    root = brentq(lambda n: nct.sf(crit, df, n) + nct.cdf(-crit, df, n) - 0.8, crit, 2 * crit, xtol=1e-13)
    assert stats._ncp_for_power(df) == pytest.approx(root, abs=1e-6)
