"""Paired bootstrap test of the difference between two metrics' correlations with humans.

Score matrices A, B (two metrics) and H (human), X[i][j] = system i on input j (package docstring).
Each resample draws the same systems and inputs (``draw_indices``: both by default, as
``bootstrap_ci`` does) for A, B and H, so the two correlations stay paired; the resampled
differences r(A*, H*) - r(B*, H*) give a percentile interval, and the p-value is the shift test of
Berg-Kirkpatrick, Burkett & Klein (2012, section 2.2): under H0 the differences are centred on 0,
so a resample counts against H0 when its difference exceeds twice the observed one.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from rougelab.metaeval.bootstrap import bootstrap_samples, check_bootstrap_args
from rougelab.metaeval.resampling import percentile_interval
from rougelab.metaeval.correlations import check_coefficient
from rougelab.metaeval.levels import (UndefinedCorrelationWarning, check_level, level_correlation,
                                      paired_matrices)
from rougelab.metaeval.williams import check_alternative
from rougelab.validation import check_test_resamples
from rougelab.warn import warn


class DifferenceResult(NamedTuple):
    """``delta`` = r(A, human) - r(B, human), its percentile interval, and the test's p-value."""

    delta: float
    low: float
    high: float
    pvalue: float


def difference_samples(A: np.ndarray, B: np.ndarray, H: np.ndarray, level: str = "summary",
                       coef: str = "pearson", n_resamples: int = 1000, resample: str = "both",
                       seed: int = 0, kendall_variant: str = "b") -> np.ndarray:
    """r(A*, H*) - r(B*, H*) of each of ``n_resamples`` paired resamples (NaN if undefined).

    Both are ``bootstrap_samples`` with the same ``seed``, hence the same draws (``draw_indices``):
    resample b takes the same systems and inputs of A, B and H.
    """
    args = (level, coef, n_resamples, resample, seed, kendall_variant)
    return bootstrap_samples(A, H, *args) - bootstrap_samples(B, H, *args)


def bootstrap_difference(table: pd.DataFrame, metric_a: str, metric_b: str, human_col: str,
                         level: str = "summary", coef: str = "pearson", n_resamples: int = 1000,
                         resample: str = "both", confidence: float = 0.95, seed: int = 0, *,
                         alternative: str = "greater", kendall_variant: str = "b",
                         doc_col: str = "doc_id", system_col: str = "system_id") -> DifferenceResult:
    """Paired bootstrap of r(A, human) - r(B, human), with interval and p-value.

    ``level``, ``coef``, ``resample`` (Boot-Both by default: systems and inputs together),
    ``confidence`` and ``seed`` as in ``bootstrap_ci``. ``alternative`` is H1: ``"greater"``
    (A correlates better; default), ``"less"`` or ``"two-sided"``. With d the observed difference
    and d*_b the resampled ones, k counts d*_b - d >= d (``"greater"``), d*_b - d <= d
    (``"less"``) or |d*_b - d| >= |d| (``"two-sided"``), and p = (1 + k) / (1 + n) over the n
    defined resamples (those with an undefined correlation are dropped with a warning).
    ``n_resamples``: at least ``rougelab.validation.MIN_TEST_RESAMPLES`` (99; the reason is given there).
    """
    check_level(level)
    check_coefficient(coef, kendall_variant)
    n_resamples = check_bootstrap_args(check_test_resamples(n_resamples), resample, confidence, seed)
    check_alternative(alternative)
    A, B, H = paired_matrices(table, metric_a, metric_b, human_col, level, coef, doc_col=doc_col,
                              system_col=system_col)
    observed = float(level_correlation(A, H, level, coef, kendall_variant)[0]
                     - level_correlation(B, H, level, coef, kendall_variant)[0])
    if not np.isfinite(observed):
        raise ValueError(f"the {level}-level {coef} of {metric_a!r} or {metric_b!r} with "
                         f"{human_col!r} is undefined (constant scores): nothing to test")
    samples = difference_samples(A, B, H, level, coef, n_resamples, resample, seed,
                                 kendall_variant)
    defined = samples[np.isfinite(samples)]
    if defined.size < samples.size:
        warn(f"paired bootstrap {metric_a!r} vs {metric_b!r}: "
             f"{samples.size - defined.size} of {samples.size} resamples undefined and "
             "dropped", UndefinedCorrelationWarning)
    shifted = defined - observed
    extreme = {"greater": shifted >= observed, "less": shifted <= observed,
               "two-sided": np.abs(shifted) >= abs(observed)}[alternative]
    low, high = percentile_interval(defined, confidence)
    return DifferenceResult(observed, low, high, (1 + int(extreme.sum())) / (1 + defined.size))
