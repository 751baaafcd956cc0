"""Fisher-z confidence intervals and p-values for a Pearson correlation (Fisher 1921).

z = atanh(r) is close to normal with standard error 1 / sqrt(n - 3) (n items), so the interval
tanh(atanh(r) +- q / sqrt(n - 3)), q the normal quantile, and the test of H0: rho = rho0 by
Z = (atanh(r) - atanh(rho0)) sqrt(n - 3). This is the interval ``scipy.stats.pearsonr(...)
.confidence_interval()`` and R's ``cor.test`` give. It assumes independent items drawn from a
bivariate normal: it suits a global- or system-level Pearson r over n items, not a summary-level
average, and it ignores that systems and inputs are themselves samples (use ``bootstrap_ci``).
"""
from __future__ import annotations

import math
from typing import NamedTuple

import pandas as pd
from scipy import stats

from rougelab.metaeval.levels import check_size, level_correlation
from rougelab.metaeval.matrices import score_matrices
from rougelab.metaeval.williams import check_alternative


class FisherResult(NamedTuple):
    """A Pearson r over ``n`` items, its Fisher-z interval and the p-value of H0: rho = rho0."""

    value: float
    low: float
    high: float
    pvalue: float
    n: int


def fisher_z(r: float, n: int, confidence: float = 0.95, rho0: float = 0.0,
             alternative: str = "two-sided") -> FisherResult:
    """Fisher-z interval of ``r`` over ``n`` items and p-value of H0: rho = ``rho0``.

    ``alternative``: ``"two-sided"`` (rho != rho0; the interval is always two-sided),
    ``"greater"`` (rho > rho0) or ``"less"``.
    """
    check_alternative(alternative)
    if not -1.0 <= r <= 1.0 or not -1.0 < rho0 < 1.0:
        raise ValueError(f"r = {r!r} must lie in [-1, 1] and rho0 = {rho0!r} in (-1, 1)")
    if int(n) != n or n <= 3:
        raise ValueError(f"the Fisher-z interval needs n > 3 items, got n = {n!r}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie strictly between 0 and 1, got {confidence!r}")
    se = 1 / math.sqrt(n - 3)
    z = math.atanh(min(max(r, -1 + 1e-16), 1 - 1e-16))
    q = stats.norm.ppf((1 + confidence) / 2)
    statistic = (z - math.atanh(rho0)) / se
    pvalue = {"greater": stats.norm.sf(statistic), "less": stats.norm.cdf(statistic),
              "two-sided": 2 * stats.norm.sf(abs(statistic))}[alternative]
    return FisherResult(float(r), math.tanh(z - q * se), math.tanh(z + q * se), float(pvalue), int(n))


def fisher_ci(table: pd.DataFrame, metric_col: str, human_col: str, level: str = "global",
              confidence: float = 0.95, rho0: float = 0.0, alternative: str = "two-sided", *,
              doc_col: str = "doc_id", system_col: str = "system_id") -> FisherResult:
    """Pearson r of ``metric_col`` with ``human_col`` at ``level`` with ``fisher_z``'s interval.

    ``level``: ``"global"`` (n = summaries) or ``"system"`` (n = systems); the summary level (an
    average of per-input correlations) has no single n and is refused.
    """
    if level not in ("global", "system"):
        raise ValueError(f"the Fisher-z interval needs one correlation over n items: use "
                         f"level='global' or 'system', not {level!r}")
    m = score_matrices(table, [metric_col, human_col], doc_col=doc_col, system_col=system_col)
    X, Z = m.scores[metric_col], m.scores[human_col]
    check_size(X, level)
    r = float(level_correlation(X, Z, level, "pearson")[0])
    if not math.isfinite(r):
        raise ValueError(f"the {level}-level Pearson r of {metric_col!r} with {human_col!r} is "
                         "undefined (constant scores)")
    n = X.shape[0] if level == "system" else int(pd.notna(X).sum())
    return fisher_z(r, n, confidence, rho0, alternative)
