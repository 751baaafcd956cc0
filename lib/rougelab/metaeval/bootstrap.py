"""Bootstrap confidence intervals for a correlation (Deutsch, Dror & Roth 2021).

Score matrices X (metric) and Z (human), X[i][j] = system i on input j (package docstring).
Each resample draws systems (rows), inputs (columns) or both with replacement, keeps the same
rows and columns of X and Z, and recomputes the correlation; the interval is the percentile
interval of the resampled values (Boot-Systems, Boot-Inputs, Boot-Both in the paper).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from rougelab.metaeval.correlations import check_coefficient
from rougelab.metaeval.levels import (UndefinedCorrelationWarning, check_level, check_size,
                                      level_correlation, warn_skipped)
from rougelab.metaeval.matrices import score_matrices
from rougelab.metaeval.resampling import check_resample, chunks, draw_indices, percentile_interval
from rougelab.validation import check_interval_resamples, check_probability, check_seed
from rougelab.warn import warn


class CI(NamedTuple):
    """A point estimate and its confidence interval."""

    value: float
    low: float
    high: float


def check_bootstrap_args(n_resamples, resample: str, confidence: float, seed, *,
                         optional: bool = False) -> int:
    """The number of resamples as an ``int``, checked with ``resample``, ``confidence`` (in (0, 1)) and
    ``seed``: enough resamples for the percentile interval (``rougelab.validation``), or 0 (no
    interval) when ``optional``; ``InputError`` names the parameter otherwise."""
    check_resample(resample)
    check_seed(seed)
    confidence = check_probability(confidence, "confidence")
    return check_interval_resamples(n_resamples, confidence, optional=optional)


def bootstrap_samples(X: np.ndarray, Z: np.ndarray, level: str = "summary", coef: str = "pearson",
                      n_resamples: int = 1000, resample: str = "both", seed: int = 0,
                      kendall_variant: str = "b") -> np.ndarray:
    """The correlation of each of ``n_resamples`` bootstrap resamples of X and Z (NaN if undefined).

    ``X`` and ``Z`` are systems x inputs score matrices; draws as in ``draw_indices`` from
    ``np.random.default_rng(seed)``.
    """
    X = np.asarray(X, dtype=float)
    Z = np.asarray(Z, dtype=float)
    rows, cols = draw_indices(np.random.default_rng(seed), *X.shape, n_resamples, resample)
    out = np.empty(n_resamples)
    for part in chunks(n_resamples, X.size):
        r = rows[part, :, None]
        c = cols[part, None, :]
        out[part], _ = level_correlation(X[r, c], Z[r, c], level, coef, kendall_variant)
    return out


def bootstrap_interval(X: np.ndarray, Z: np.ndarray, level: str, coef: str, n_resamples: int,
                       resample: str, confidence: float, seed: int, kendall_variant: str,
                       what: str) -> tuple[float, float]:
    """Percentile interval of ``bootstrap_samples``; warns, naming ``what``, of undefined ones."""
    samples = bootstrap_samples(X, Z, level, coef, n_resamples, resample, seed, kendall_variant)
    undefined = int((~np.isfinite(samples)).sum())
    if undefined:
        warn(f"bootstrap of {what}: {undefined} of {n_resamples} resamples had an "
             "undefined correlation and were dropped", UndefinedCorrelationWarning)
    return percentile_interval(samples, confidence)


def bootstrap_ci(table: pd.DataFrame, metric_col: str, human_col: str, level: str = "summary",
                 coef: str = "pearson", n_resamples: int = 1000, resample: str = "both",
                 confidence: float = 0.95, seed: int = 0, *, kendall_variant: str = "b",
                 doc_col: str = "doc_id", system_col: str = "system_id") -> CI:
    """Correlation of ``metric_col`` with ``human_col`` and its bootstrap percentile interval.

    Deutsch, Dror & Roth (2021), "A Statistical Analysis of Summarization Evaluation Metrics using
    Resampling Methods": Boot-Systems (``resample="systems"``), Boot-Inputs
    (``"inputs"``) or Boot-Both (``"both"``). ``table`` is read as score matrices X[i][j] = system
    i on input j (package docstring); ``level``, ``coef`` and ``kendall_variant`` as in
    ``correlate``.

    Parameters
    ----------
    n_resamples : int
        Number of bootstrap resamples: at least 2 / (1 - confidence), 40 at 95%
        (``rougelab.validation.check_interval_resamples``).
    confidence : float
        Coverage of the percentile interval, in (0, 1).
    seed : int
        Seed of ``np.random.default_rng``; the same seed gives the same interval.

    Returns
    -------
    CI(value, low, high)
        ``value`` is the correlation on the full table (as ``correlate``); ``low`` and ``high``
        the percentile interval over the resamples whose correlation is defined. Resamples with an
        undefined correlation (e.g. the same system drawn every time) are dropped, with an
        ``UndefinedCorrelationWarning`` saying how many.
    """
    check_level(level)
    check_coefficient(coef, kendall_variant)
    n_resamples = check_bootstrap_args(n_resamples, resample, confidence, seed)
    m = score_matrices(table, [metric_col, human_col], doc_col=doc_col, system_col=system_col)
    X, Z = m.scores[metric_col], m.scores[human_col]
    check_size(X, level, coef)
    value, skipped = level_correlation(X, Z, level, coef, kendall_variant)
    warn_skipped(int(skipped), len(m.inputs), level, metric_col, human_col)
    what = f"{metric_col!r} vs {human_col!r} ({level}, {coef})"
    low, high = bootstrap_interval(X, Z, level, coef, n_resamples, resample, confidence, seed,
                                   kendall_variant, what)
    return CI(float(value), low, high)
