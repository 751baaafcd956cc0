"""Correlation at the summary, system and global level (the convention: package docstring).

With score matrices ``X`` (metric) and ``Z`` (human), ``X[i, j]`` = system i on input j:

- summary level: r(X[:, j], Z[:, j]) for every input j (across systems), averaged over the
  inputs where it is defined; inputs whose scores are constant across systems are skipped;
- system level: r of the per-system means over inputs, ``X.mean(1)`` and ``Z.mean(1)``;
- global level: r of all summaries pooled, ``X.ravel()`` and ``Z.ravel()``.
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from rougelab.metaeval.correlations import check_coefficient, coefficient
from rougelab.metaeval.matrices import score_matrices
from rougelab.metaeval.pairwise_accuracy import ACCURACIES
from rougelab.warn import warn

LEVELS = ("summary", "system", "global")
MIN_POINTS = 3


class UndefinedCorrelationWarning(RuntimeWarning):
    """A correlation was undefined (constant scores) and was skipped or returned as NaN."""


def check_level(level: str) -> None:
    """Raise ``ValueError`` unless ``level`` is one of ``LEVELS``."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: use one of {', '.join(LEVELS)}")


def check_size(X: np.ndarray, level: str, coef: str = "pearson") -> None:
    """Raise ``ValueError`` if ``X`` (systems x inputs) is too small for a ``level`` correlation.

    Summary and system level need at least ``MIN_POINTS`` systems; global level needs that many
    summaries (with two points every correlation is +-1, which says nothing). A pairwise accuracy
    needs one pair: two systems (or summaries).
    """
    least = 2 if coef in ACCURACIES else MIN_POINTS
    n_systems, n_inputs = X.shape[-2:]
    if level in ("summary", "system") and n_systems < least:
        raise ValueError(f"{level}-level {coef} needs at least {least} systems, the "
                         f"table has {n_systems}: add systems or use level='global'")
    if level == "global" and np.isfinite(X).sum() < least:
        raise ValueError(f"global {coef} needs at least {least} summaries, the table has "
                         f"{int(np.isfinite(X).sum())}")


def per_input(X: np.ndarray, Z: np.ndarray, coef: str = "pearson",
              kendall_variant: str = "b") -> np.ndarray:
    """r(X[..., :, j], Z[..., :, j]) for every input j, shape ``X.shape[:-2] + (n_inputs,)``.

    NaN where undefined (fewer than two systems, or constant scores).
    """
    return coefficient(np.swapaxes(X, -1, -2), np.swapaxes(Z, -1, -2), coef, kendall_variant)


def level_correlation(X: np.ndarray, Z: np.ndarray, level: str = "summary", coef: str = "pearson",
                      kendall_variant: str = "b") -> tuple[np.ndarray, np.ndarray]:
    """Correlation at ``level`` of score matrices ``X``, ``Z`` of shape ``(..., systems, inputs)``.

    ``X`` and ``Z`` are broadcast against each other (e.g. a stack of resampled metric matrices
    against one human matrix).

    Returns
    -------
    values : ndarray, shape ``X.shape[:-2]``
        The correlation (NaN where undefined).
    skipped : ndarray of int, same shape
        Summary level: the number of inputs whose correlation was undefined and left out of the
        average; other levels: 1 if the correlation itself is undefined, else 0.
    """
    check_level(level)
    X, Z = np.broadcast_arrays(np.asarray(X, dtype=float), np.asarray(Z, dtype=float))
    if level == "summary":
        r = per_input(X, Z, coef, kendall_variant)
        defined = np.isfinite(r)
        count = defined.sum(axis=-1)
        with np.errstate(invalid="ignore", divide="ignore"):
            values = np.where(defined, r, 0.0).sum(axis=-1) / count
        # Inputs with no summary at all (possible only in a resample) are not counted as skipped.
        present = (np.isfinite(X) & np.isfinite(Z)).any(axis=-2)
        return np.where(count > 0, values, np.nan), (present & ~defined).sum(axis=-1)
    if level == "system":
        with warnings.catch_warnings():
            # A system with no input left (possible in a resample) has a NaN mean: omitted.
            warnings.simplefilter("ignore", RuntimeWarning)
            means_x, means_z = np.nanmean(X, axis=-1), np.nanmean(Z, axis=-1)
        values = coefficient(means_x, means_z, coef, kendall_variant)
    else:
        flat = X.shape[:-2] + (-1,)
        values = coefficient(X.reshape(flat), Z.reshape(flat), coef, kendall_variant)
    return values, (~np.isfinite(values)).astype(int)


def correlate(table: pd.DataFrame, metric_col: str, human_col: str, level: str = "summary",
              coef: str = "pearson", *, kendall_variant: str = "b", doc_col: str = "doc_id",
              system_col: str = "system_id") -> float:
    """Correlation of ``metric_col`` with ``human_col`` at ``level`` with coefficient ``coef``.

    ``table`` has one row per summary (columns ``doc_col``, ``system_col`` and the scores); it is
    read as score matrices X[i][j] = system i on input j (see the package docstring).

    Parameters
    ----------
    level : {"summary", "system", "global"}
        Summary: per input across systems, averaged over inputs; system: per-system means over
        inputs; global: all summaries pooled.
    coef : {"pearson", "spearman", "kendall", "accuracy", "accuracy-half", "accuracy-eq"}
        A correlation, or a pairwise accuracy (``pairwise_accuracy``: the share of pairs ordered
        as the humans order them, metric ties as wrong, as half, or Deutsch et al.'s acc_eq). At
        summary level an accuracy is averaged over inputs like a correlation; with two systems
        (Rank19) that is the share of inputs whose pair the metric orders right.
    kendall_variant : {"b", "c"}
        Kendall's tau-b (default) or tau-c, as in ``scipy.stats.kendalltau``.

    Returns
    -------
    float
        The correlation. At summary level, inputs whose scores are constant across systems
        (correlation undefined) are left out of the average and an
        ``UndefinedCorrelationWarning`` says how many; an undefined result is NaN, with that
        warning.

    Raises
    ------
    ValueError
        Unknown level or coef, a missing column, a NaN score, too few systems or summaries.
    """
    check_level(level)
    check_coefficient(coef, kendall_variant)
    m = score_matrices(table, [metric_col, human_col], doc_col=doc_col, system_col=system_col)
    X, Z = m.scores[metric_col], m.scores[human_col]
    check_size(X, level, coef)
    value, skipped = level_correlation(X, Z, level, coef, kendall_variant)
    warn_skipped(int(skipped), len(m.inputs), level, metric_col, human_col)
    return float(value)


def warn_skipped(skipped: int, n_inputs: int, level: str, metric_col: str, human_col: str) -> None:
    """Issue an ``UndefinedCorrelationWarning`` describing what ``level_correlation`` skipped."""
    if not skipped:
        return
    if level == "summary":
        message = (f"summary-level {metric_col!r} vs {human_col!r}: {skipped} of {n_inputs} inputs "
                   "skipped (constant scores across systems, correlation undefined)")
    else:
        message = (f"{level}-level {metric_col!r} vs {human_col!r} is undefined (constant scores): "
                   "returning NaN")
    warn(message, UndefinedCorrelationWarning)


def paired_matrices(table: pd.DataFrame, metric_a: str, metric_b: str, human_col: str, level: str,
                    coef: str = "pearson", *, doc_col: str = "doc_id", system_col: str = "system_id"):
    """Score matrices (A, B, H) of two different metric columns and a human column, sized for ``level``."""
    if metric_a == metric_b:
        raise ValueError(f"metric_a and metric_b are both {metric_a!r}: compare two different "
                         "columns")
    m = score_matrices(table, [metric_a, metric_b, human_col], doc_col=doc_col, system_col=system_col)
    A, B, H = (m.scores[c] for c in (metric_a, metric_b, human_col))
    check_size(A, level, coef)
    return A, B, H
