"""One table of correlations: every (metric, human criterion, level, coefficient) combination."""
from __future__ import annotations

import itertools

import pandas as pd

from rougelab.metaeval.bootstrap import bootstrap_interval, check_bootstrap_args
from rougelab.metaeval.correlations import check_coefficient
from rougelab.metaeval.levels import check_level, check_size, level_correlation, warn_skipped
from rougelab.metaeval.matrices import score_matrices
from rougelab.progress import bar

COLUMNS = ["metric", "criterion", "level", "coef", "value", "ci_low", "ci_high"]


def _names(value) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def correlation_table(table: pd.DataFrame, metrics, humans, levels="summary", coefs="pearson",
                      n_resamples: int = 0, *, resample: str = "both", confidence: float = 0.95,
                      seed: int = 0, kendall_variant: str = "b", doc_col: str = "doc_id",
                      system_col: str = "system_id", progress: bool = True) -> pd.DataFrame:
    """Correlations of every metric column with every human column, at every level and coefficient.

    ``table`` is read as score matrices X[i][j] = system i on input j (package docstring). Each
    value is what ``correlate`` returns; with ``n_resamples > 0`` each row also gets the bootstrap
    percentile interval of ``bootstrap_ci`` (Deutsch et al. 2021), every row drawing from the same
    ``seed``, so a row does not depend on which other rows are in the table.

    Parameters
    ----------
    metrics, humans : str or sequence of str
        Metric and human score columns.
    levels : str or sequence of {"summary", "system", "global"}
    coefs : str or sequence of ``COEFFICIENTS`` (correlations and pairwise accuracies)
    n_resamples : int
        0 (default): no interval, ``ci_low``/``ci_high`` are NaN; else at least 2 / (1 - confidence).
    progress : bool
        A progress bar while bootstrapping (``rougelab.progress``).

    Returns
    -------
    DataFrame
        Columns metric, criterion, level, coef, value, ci_low, ci_high; one row per combination,
        in the order metrics x humans x levels x coefs.
    """
    metrics, humans, levels, coefs = map(_names, (metrics, humans, levels, coefs))
    for level in levels:
        check_level(level)
    for coef in coefs:
        check_coefficient(coef, kendall_variant)
    n_resamples = check_bootstrap_args(n_resamples, resample, confidence, seed, optional=True)
    m = score_matrices(table, [*metrics, *humans], doc_col=doc_col, system_col=system_col)
    for level, coef in itertools.product(levels, coefs):
        check_size(next(iter(m.scores.values())), level, coef)
    combos = list(itertools.product(metrics, humans, levels, coefs))
    rows = []
    for metric, human, level, coef in bar(combos, progress=progress and n_resamples > 0, desc="correlations"):
        X, Z = m.scores[metric], m.scores[human]
        value, skipped = level_correlation(X, Z, level, coef, kendall_variant)
        warn_skipped(int(skipped), len(m.inputs), level, metric, human)
        low = high = float("nan")
        if n_resamples:
            what = f"{metric!r} vs {human!r} ({level}, {coef})"
            low, high = bootstrap_interval(X, Z, level, coef, n_resamples, resample,
                                           confidence, seed, kendall_variant, what)
        rows.append((metric, human, level, coef, float(value), low, high))
    return pd.DataFrame(rows, columns=COLUMNS)
