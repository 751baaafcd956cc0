"""Paired permutation test: does metric A correlate with humans better than metric B?

Deutsch, Dror & Roth (2021): Perm-Both, Perm-Systems, Perm-Inputs. Score matrices X
(metric A), Y (metric B), Z (human), X[i][j] = system i on input j (package docstring).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from rougelab.metaeval.resampling import check_resample, chunks
from rougelab.metaeval.correlations import check_coefficient
from rougelab.metaeval.levels import (UndefinedCorrelationWarning, check_level,
                                      paired_matrices, level_correlation)
from rougelab.metaeval.williams import check_alternative
from rougelab.validation import check_seed, check_test_resamples
from rougelab.warn import warn


class PermutationResult(NamedTuple):
    """``delta`` = r(A, human) - r(B, human); ``pvalue`` under the test's alternative."""

    delta: float
    pvalue: float


def standardize(X: np.ndarray) -> np.ndarray:
    """(X - mean) / std over all present entries of the matrix (NaN ignored)."""
    std = np.nanstd(X)
    if not std > 0:
        raise ValueError("a metric's scores are all equal: nothing to compare")
    return (X - np.nanmean(X)) / std


def permutation_samples(X: np.ndarray, Y: np.ndarray, Z: np.ndarray, level: str = "summary",
                        coef: str = "pearson", n_resamples: int = 1000, resample: str = "both",
                        seed: int = 0, kendall_variant: str = "b") -> tuple[float, np.ndarray]:
    """Observed r(X, Z) - r(Y, Z) and its values under ``n_resamples`` random swaps of X and Y.

    X and Y are first standardized (``standardize``, as the authors' nlpstats code does) so that
    swapping their scores is meaningful; that leaves every correlation unchanged. A swap
    exchanges X and Y, each with probability 1/2, per summary (``resample="both"``), per system
    row (``"systems"``) or per input column (``"inputs"``); the draws are
    ``rng.random(shape) < 0.5`` from ``np.random.default_rng(seed)``.
    """
    check_resample(resample)
    X, Y = standardize(np.asarray(X, dtype=float)), standardize(np.asarray(Y, dtype=float))
    Z = np.asarray(Z, dtype=float)
    n_systems, n_inputs = X.shape
    shape = {"both": (n_resamples, n_systems, n_inputs), "systems": (n_resamples, n_systems, 1),
             "inputs": (n_resamples, 1, n_inputs)}[resample]
    swap = np.random.default_rng(seed).random(shape) < 0.5
    observed = (level_correlation(X, Z, level, coef, kendall_variant)[0]
                - level_correlation(Y, Z, level, coef, kendall_variant)[0])
    samples = np.empty(n_resamples)
    for part in chunks(n_resamples, X.size):
        s = swap[part]
        a, _ = level_correlation(np.where(s, Y, X), Z, level, coef, kendall_variant)
        b, _ = level_correlation(np.where(s, X, Y), Z, level, coef, kendall_variant)
        samples[part] = a - b
    return float(observed), samples


def permutation_test(table: pd.DataFrame, metric_a: str, metric_b: str, human_col: str,
                     level: str = "summary", coef: str = "pearson", n_resamples: int = 1000,
                     seed: int = 0, resample: str = "both", *, alternative: str = "greater",
                     kendall_variant: str = "b", doc_col: str = "doc_id",
                     system_col: str = "system_id") -> PermutationResult:
    """Paired permutation test of H0: r(A, human) = r(B, human), H1: r(A, human) > r(B, human).

    Deutsch, Dror & Roth (2021). ``table`` is read as score matrices X[i][j] = system
    i on input j (package docstring); ``level``, ``coef`` and ``kendall_variant`` as in
    ``correlate``; ``resample`` picks Perm-Both (``"both"``), Perm-Systems or Perm-Inputs.

    ``alternative`` is H1: ``"greater"`` (default, A better, as in the paper), ``"less"`` (B
    better) or ``"two-sided"`` (they differ). ``n_resamples``: at least
    ``rougelab.validation.MIN_TEST_RESAMPLES`` (99; the reason is given there).

    Returns
    -------
    PermutationResult(delta, pvalue)
        ``delta`` = r(A, human) - r(B, human) on the table; ``pvalue`` = (1 + k) / (1 + n), where k
        of the n permutations with a defined correlation give a delta >= the observed one
        (``"greater"``), <= it (``"less"``), or of absolute value >= its absolute value
        (``"two-sided"``; the swap distribution is symmetric about 0). (The
        paper counts k / n; the +1 counts the observed assignment among the permutations, so the
        p-value is never 0.) Permutations with an undefined correlation are dropped with a warning.
    """
    check_level(level)
    check_coefficient(coef, kendall_variant)
    check_resample(resample)
    check_alternative(alternative)
    n_resamples = check_test_resamples(n_resamples)
    check_seed(seed)
    X, Y, Z = paired_matrices(table, metric_a, metric_b, human_col, level, coef, doc_col=doc_col,
                              system_col=system_col)
    observed, samples = permutation_samples(X, Y, Z, level, coef, n_resamples, resample, seed,
                                            kendall_variant)
    if not np.isfinite(observed):
        raise ValueError(f"the {level}-level correlation of {metric_a!r} or {metric_b!r} with "
                         f"{human_col!r} is undefined (constant scores): nothing to test")
    defined = samples[np.isfinite(samples)]
    if defined.size < samples.size:
        warn(f"permutation test {metric_a!r} vs {metric_b!r}: "
             f"{samples.size - defined.size} of {samples.size} permutations undefined "
             "and dropped",
             UndefinedCorrelationWarning)
    extreme = {"greater": defined >= observed, "less": defined <= observed,
               "two-sided": np.abs(defined) >= abs(observed)}[alternative]
    pvalue = (1 + int(extreme.sum())) / (1 + defined.size)
    return PermutationResult(observed, pvalue)


