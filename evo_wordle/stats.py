"""95 % confidence intervals of mean guess counts (``bench --repeat``, sweeps) and paired
differences game by game (``tune``, ``evolve-strategy --boards``)."""

from __future__ import annotations

import functools
import math

import numpy as np

from .errors import EvoWordleError

#: Student's t 97.5 % quantiles for 1 … 30 degrees of freedom.
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
         2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
         2.045, 2.042)


#: Gauss-Legendre nodes for the power of the t test (:func:`_ncp_for_power`).
_NODES = 400


def t975(df: int) -> float:
    """The 97.5 % quantile of Student's t (two-sided 95 % interval); a Cornish-Fisher
    expansion beyond the table (within 0.001 of the exact value there)."""
    if df < 1:
        return float("nan")
    if df <= len(_T975):
        return _T975[df - 1]
    z = 1.959964
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


def mean_ci(values) -> tuple[float, float]:
    """(mean, half-width of the 95 % t interval).  One value has a mean but no interval: the
    half-width is nan, which callers take as "no interval" (a sweep cell or bench run of one
    seed prints none); no values at all is an EvoWordleError (there is no mean to report)."""
    x = np.asarray(values, dtype=float).ravel()
    if len(x) == 0:
        raise EvoWordleError("a mean and its 95 % interval need at least one value, not none")
    if len(x) == 1:
        return float(x[0]), float("nan")
    return float(x.mean()), float(t975(len(x) - 1) * x.std(ddof=1) / math.sqrt(len(x)))


def interval(values) -> dict:
    """:func:`mean_ci` as a record: mean, ci95 (the half-width), and the interval's low and high ends."""
    mean, half = mean_ci(values)
    return {"mean": mean, "ci95": half, "low": mean - half, "high": mean + half}


@functools.lru_cache(maxsize=64)
def _ncp_for_power(df: int, power: float = 0.8) -> float:
    """The noncentrality at which the two-sided t test that :func:`paired` runs (|t| beyond
    :func:`t975`) rejects with ``power``.  The normal shortcut t975 + z(power) is 9 % short at
    3 games (df 2) and more below, since the estimated sd spreads the t statistic.  The power is
    the normal tail averaged over the sd's chi-square law, by Gauss-Legendre over its quantiles
    (smooth for any df; scipy's ``nct`` returns nan for df 1 near the answer)."""
    from scipy.optimize import brentq  # scipy loads slowly: only where a paired test is run
    from scipy.stats import chi2, norm

    nodes, weights = np.polynomial.legendre.leggauss(_NODES)
    cut = t975(df) * np.sqrt(chi2.ppf((nodes + 1) / 2, df) / df)  # the test's bar at each quantile of the sd

    def short(ncp: float) -> float:
        return float(weights @ (norm.cdf(ncp - cut) + norm.cdf(-ncp - cut))) / 2 - power

    low = t975(df)  # where the power is about a half
    high = 2 * low
    while short(high) < 0:
        high *= 2
    return float(brentq(short, low, high, xtol=1e-10))


def paired(a: np.ndarray, b: np.ndarray) -> dict:
    """Mean of ``a - b`` (game by game) with its 95 % interval and the smallest difference a
    test of this size would detect with 80 % power at the 5 % level.  ``a`` and ``b`` must be
    the scores of the same games (two 1-D arrays of equal length), at least 2 of them: one
    difference has no spread, so no interval or significance (EvoWordleError, as the CLI
    routes refuse it)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    if a.ndim != 1 or a.shape != b.shape:  # numpy would broadcast a single score over every game
        raise EvoWordleError("a paired difference needs one score per game for the same games on both sides, "
                             f"not shapes {a.shape} and {b.shape}")
    if len(a) < 2:
        raise EvoWordleError(f"a paired difference needs at least 2 games for its 95 % interval, not {len(a)}")
    d = a - b
    out = interval(d)
    sd = float(d.std(ddof=1))
    detectable = _ncp_for_power(len(d) - 1) * sd / math.sqrt(len(d))
    return {**out, "significant": bool(abs(out["mean"]) > out["ci95"]), "detectable": detectable, "games": int(len(d))}



def no_significant_difference(d: dict, unit: str = "games") -> str:
    """What a :func:`paired` result that is not significant says: the smallest difference the test
    detects with 80 % power; or, when every game's difference is 0 (no spread, so that size is 0
    and "detects 0.0000" would read as a perfect test), that the two scored alike on every one of
    the ``unit`` (games, or board sets)."""
    if d["detectable"] == 0:  # no spread and not significant: every difference is 0
        return f"no difference: both scored the same on each of the {d['games']} {unit}"
    return f"no significant difference (this test detects {d['detectable']:.4f} with 80 % power)"


def bound_text(x: float, digits: int = 4) -> str:
    """One end of an interval, signed, to ``digits`` decimals, unless that rounds a bound that is
    not 0 to 0: then to two significant digits (``+3.2e-05``), so an interval printed beside
    "significant" never shows a 0 it does not hold, and one beside "no significant difference"
    never seems to stop short of 0 at "-0.0000"."""
    text = f"{x:+.{digits}f}"
    return f"{x:+.1e}" if x != 0 and float(text) == 0 else text


def interval_text(d: dict, digits: int = 4) -> str:
    """``[low, high]`` of an :func:`interval` or :func:`paired` record, each end by :func:`bound_text`."""
    return f"[{bound_text(d['low'], digits)}, {bound_text(d['high'], digits)}]"
