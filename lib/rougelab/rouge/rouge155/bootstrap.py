"""ROUGE-1.5.5's averages and bootstrap confidence intervals (``computeAverages``).

The printed average is not the plain mean of the per-evaluation scores: it is the mean of
``n_resamples`` bootstrap means, resample ``i`` drawing its instances with Perl's ``rand`` after
``srand(i)`` (see ``drand48``). The interval ends interpolate between two ranks of the sorted
resample means. Every floating-point sum runs in the Perl script's order, so the results match
its printed digits exactly.
"""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from rougelab._jit import jit_parallel, prange
from rougelab.rouge.rouge155.drand48 import resample_indices
from rougelab.scoring import prf


class Average(NamedTuple):
    """Bootstrap mean and confidence interval of (R, P, F), as ROUGE-1.5.5 prints them."""

    mean: tuple[float, float, float]
    low: tuple[float, float, float]
    high: tuple[float, float, float]


@lru_cache(maxsize=8)
def _indices(n_resamples: int, n_instances: int) -> np.ndarray:
    """``resample_indices``, kept as int32 (half the memory traffic of the sums)."""
    return resample_indices(n_resamples, n_instances).astype(np.int32)


@jit_parallel
def resample_sums(scores: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Per resample, the column sums of the drawn rows, added in draw order as Perl adds them
    (resamples spread over threads; each sum keeps its order, so the result is the same bit for bit;
    the columns of a row are added side by side, so many measures cost little more than one)."""
    total = np.zeros((idx.shape[0], scores.shape[1]))
    for i in prange(idx.shape[0]):
        row = np.zeros(scores.shape[1])
        for j in range(idx.shape[1]):
            drawn = idx[i, j]
            for k in range(scores.shape[1]):
                row[k] += scores[drawn, k]
        total[i, :] = row
    return total


def _resample_means(total: np.ndarray, n: int, per_token: bool, alpha: float) -> np.ndarray:
    """One row per resample from its sums of ``n`` drawn rows: mean (R, P, F), or for ``per_token``
    R/P/F of the pooled counts (model, peer, hit)."""
    if n == 0:
        return np.zeros((len(total), 3))
    if not per_token:
        return total / n
    return np.array([prf(hit, model, peer, alpha) for model, peer, hit in total.tolist()]).reshape(-1, 3)


def _at(values: np.ndarray, i: int) -> float:
    """Perl's ``$array[$i]`` in arithmetic: negative indices count from the end, missing is 0."""
    return float(values[i]) if -len(values) <= i < len(values) else 0.0


def bootstrap_averages(scores, n_resamples: int = 1000, confidence: float = 95.0, *,
                       per_token: bool = False, alpha: float = 0.5) -> list[Average]:
    """``bootstrap_average`` of several measures over the same evaluations, resampled together.

    ``scores`` has shape (n_instances, n_measures, 3); every measure sees the same draws (as in
    ROUGE-1.5.5, which re-seeds with ``srand(i)`` for each measure), and one pass over the draws sums
    all measures' rows, each sum in Perl's order. Returns one ``Average`` per measure.
    """
    if n_resamples < 1:
        raise ValueError(f"-r {n_resamples}: the bootstrap needs at least one resample")
    if not 0 <= confidence <= 100:
        raise ValueError("Confidence interval should be within 0 and 100.")
    scores = np.asarray(scores, dtype=np.float64)
    n_measures = scores.shape[1] if scores.ndim == 3 else 0
    flat = np.ascontiguousarray(scores.reshape(len(scores), 3 * n_measures))
    if len(flat):
        totals = resample_sums(flat, _indices(n_resamples, len(flat)))
    else:
        totals = np.zeros((n_resamples, 3 * n_measures))
    return [_average(_resample_means(totals[:, 3 * k:3 * k + 3], len(flat), per_token, alpha), confidence)
            for k in range(n_measures)]


def bootstrap_average(scores, n_resamples: int = 1000, confidence: float = 95.0, *,
                      per_token: bool = False, alpha: float = 0.5) -> Average:
    """ROUGE-1.5.5's bootstrap average of one measure over evaluations.

    Parameters
    ----------
    scores : array-like, shape (n_instances, 3)
        One row per (evaluation, peer) in ROUGE-1.5.5's instance order (sorted test IDs): the
        printed (R, P, F), or with ``per_token`` the counts (model, peer, hit) of ``-t 1``.
    n_resamples : int
        ``-r``; resample ``i`` is seeded with ``srand(i)``.
    confidence : float
        ``-c``, in percent.
    per_token : bool
        ``-t 1``: each resample pools counts, then computes R, P and F (with ``alpha``, ``-p``).

    Returns
    -------
    Average
        ``mean`` is the mean of the resample means (what ROUGE-1.5.5 prints as Average_X);
        ``low``/``high`` are the interval ends.
    """
    scores = np.asarray(scores, dtype=np.float64).reshape(-1, 1, 3)
    return bootstrap_averages(scores, n_resamples, confidence, per_token=per_token, alpha=alpha)[0]


def _average(means: np.ndarray, confidence: float) -> Average:
    """Mean and interval ends of the resample means (one row per resample), as ``computeAverages``."""
    n_resamples = len(means)
    ranked = np.sort(means, axis=0)
    mean = tuple(float(np.cumsum(ranked[:, k])[-1]) / n_resamples for k in range(3))
    delta = n_resamples * ((100 - confidence) / 2.0) / 100.0
    upper_a = int(n_resamples - delta - 1)
    lower_a = int(delta)
    ratio = n_resamples - delta - 1 - upper_a
    low, high = [], []
    for k in range(3):
        column = ranked[:, k]
        low.append(_at(column, lower_a) + (_at(column, lower_a + 1) - _at(column, lower_a)) * ratio)
        high.append(_at(column, upper_a) + (_at(column, upper_a + 1) - _at(column, upper_a)) * ratio)
    return Average(mean, tuple(low), tuple(high))
