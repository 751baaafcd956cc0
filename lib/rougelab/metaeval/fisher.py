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
from rougelab.validation import check_float, check_int, check_probability


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
    r = check_float(r, "r", low=-1, high=1, hint=" (a correlation)")
    rho0 = check_float(rho0, "rho0", low=-1, high=1, open_low=True, open_high=True)
    n = check_int(n, "n", minimum=4, hint=" (items: the Fisher-z interval has n - 3 degrees of freedom)")
    confidence = check_probability(confidence, "confidence")
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
