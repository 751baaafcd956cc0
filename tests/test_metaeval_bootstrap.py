"""Bootstrap confidence intervals (Deutsch, Dror & Roth 2021): seeded, and equal to a plain loop.

The reference is a straightforward per-resample loop written here: the same RNG draws (as
``draw_indices`` documents them), a resampled pivot table, SciPy's coefficient, np.quantile.
"""
import warnings

import numpy as np
import pandas as pd
import pytest

from rougelab.metaeval import CI, UndefinedCorrelationWarning, bootstrap_ci, correlate
from test_metaeval_correlations import SCIPY, random_table


def matrix(table, col):
    """Systems x inputs pivot, rows and columns in order of first appearance."""
    return (table.pivot(index="system_id", columns="doc_id", values=col)
            .reindex(index=pd.unique(table["system_id"]), columns=pd.unique(table["doc_id"]))
            .to_numpy())


def loop_reference(table, level, coef, variant, n_resamples, resample, confidence, seed):
    X, Z = matrix(table, "m"), matrix(table, "h")
    n_sys, n_in = X.shape
    rng = np.random.default_rng(seed)
    rows = rng.integers(0, n_sys, (n_resamples, n_sys)) if resample != "inputs" else None
    cols = rng.integers(0, n_in, (n_resamples, n_in)) if resample != "systems" else None
    f = SCIPY[(coef, variant)]
    samples = []
    for b in range(n_resamples):
        r = rows[b] if rows is not None else np.arange(n_sys)
        c = cols[b] if cols is not None else np.arange(n_in)
        x, z = X[r][:, c], Z[r][:, c]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SciPy warns on constant input, returns NaN
            if level == "global":
                value = f(x.ravel(), z.ravel())
            elif level == "system":
                value = f(x.mean(axis=1), z.mean(axis=1))
            else:
                per_input = [f(x[:, j], z[:, j]) for j in range(x.shape[1])
                             if len(set(x[:, j])) > 1 and len(set(z[:, j])) > 1]
                value = np.mean(per_input) if per_input else np.nan
        samples.append(value)
    samples = np.array(samples, dtype=float)
    alpha = 1 - confidence
    return np.quantile(samples[np.isfinite(samples)], [alpha / 2, 1 - alpha / 2])


@pytest.mark.parametrize("level", ["summary", "system", "global"])
@pytest.mark.parametrize("coef,variant", [("pearson", "b"), ("spearman", "b"), ("kendall", "b"),
                                          ("kendall", "c")])
@pytest.mark.parametrize("resample", ["both", "systems", "inputs"])
def test_equals_plain_loop(level, coef, variant, resample):
    table = random_table(7, n_systems=6, n_inputs=8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedCorrelationWarning)
        ci = bootstrap_ci(table, "m", "h", level, coef, n_resamples=60, resample=resample,
                          confidence=0.9, seed=11, kendall_variant=variant)
        value = correlate(table, "m", "h", level, coef, kendall_variant=variant)
    low, high = loop_reference(table, level, coef, variant, 60, resample, 0.9, 11)
    assert ci.value == value
    assert (ci.low, ci.high) == pytest.approx((low, high), abs=1e-12)


def test_seeded_and_reproducible():
    table = random_table(1, n_systems=8, n_inputs=20)
    a = bootstrap_ci(table, "m", "h", "system", "kendall", n_resamples=200, seed=3)
    b = bootstrap_ci(table, "m", "h", "system", "kendall", n_resamples=200, seed=3)
    c = bootstrap_ci(table, "m", "h", "system", "kendall", n_resamples=200, seed=4)
    assert isinstance(a, CI) and a == b
    assert (a.low, a.high) != (c.low, c.high)


@pytest.mark.parametrize("level", ["summary", "system", "global"])
def test_interval_contains_estimate(level):
    table = random_table(2, n_systems=10, n_inputs=40, ties=False)
    ci = bootstrap_ci(table, "m", "h", level, "pearson", n_resamples=300)
    assert ci.low < ci.value < ci.high


def test_interval_narrows_as_inputs_grow():
    widths = []
    for n_inputs in (10, 40, 160):
        ci = bootstrap_ci(random_table(3, n_systems=8, n_inputs=n_inputs, ties=False), "m", "h",
                          "summary", "pearson", n_resamples=300, resample="inputs")
        widths.append(ci.high - ci.low)
    assert widths[0] > widths[1] > widths[2]
    # Roughly 1/sqrt(n): quadrupling the inputs about halves the width.
    assert 0.3 < widths[2] / widths[1] < 0.8


def test_interval_narrows_as_confidence_drops():
    table = random_table(3, n_systems=8, n_inputs=30)
    wide = bootstrap_ci(table, "m", "h", "global", "spearman", n_resamples=300, confidence=0.99)
    narrow = bootstrap_ci(table, "m", "h", "global", "spearman", n_resamples=300, confidence=0.5)
    assert wide.low < narrow.low < narrow.high < wide.high


def test_undefined_resamples_are_dropped_with_warning():
    # Three systems: resampling systems often draws one system three times (constant means).
    table = random_table(0, n_systems=3, n_inputs=10, ties=False)
    with pytest.warns(UndefinedCorrelationWarning, match="resamples had an undefined correlation"):
        ci = bootstrap_ci(table, "m", "h", "system", "pearson", n_resamples=100, resample="systems")
    assert -1 <= ci.low <= ci.high <= 1


@pytest.mark.parametrize("kwargs,message", [
    (dict(resample="docs"), "unknown resample 'docs'"),
    (dict(n_resamples=0), r"n_resamples=0: must be a whole number >= 40 and <= 100000 \(a 95% percentile interval"),
    (dict(confidence=95), r"confidence=95: must be a finite number in \(0, 1\)"),
    (dict(level="corpus"), "unknown level"),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        bootstrap_ci(random_table(0), "m", "h", **kwargs)
