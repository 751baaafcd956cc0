"""Williams's test for two dependent correlations sharing one variable.

Williams (1959), as used for evaluation metrics by Graham & Baldwin (2014) and Graham (2015):
is the correlation r12 of metric A with the human scores higher than r13 of metric B, given the
correlation r23 of the two metrics on the same items?
"""
from __future__ import annotations

import math
from typing import NamedTuple

import pandas as pd
from scipy import stats

from rougelab.metaeval.correlations import CORRELATIONS, check_coefficient
from rougelab.metaeval.levels import check_level, level_correlation, paired_matrices
from rougelab.validation import check_float, check_int


ALTERNATIVES = ("greater", "less", "two-sided")
CORRELATION_SIGNS = ("signed", "absolute")


class WilliamsResult(NamedTuple):
    """Williams's t (n - 3 degrees of freedom) and its p-value under the chosen alternative."""

    t: float
    pvalue: float


def check_alternative(alternative: str) -> None:
    """Raise ``ValueError`` unless ``alternative`` is one of ``ALTERNATIVES``."""
    if alternative not in ALTERNATIVES:
        raise ValueError(f"unknown alternative {alternative!r}: use one of {', '.join(ALTERNATIVES)}")


def t_pvalue(t: float, df: int, alternative: str) -> float:
    """P-value of Student's ``t`` with ``df`` degrees of freedom: P(T >= t) for ``"greater"``,
    P(T <= t) for ``"less"``, P(|T| >= |t|) for ``"two-sided"``."""
    check_alternative(alternative)
    if alternative == "greater":
        return float(stats.t.sf(t, df))
    if alternative == "less":
        return float(stats.t.cdf(t, df))
    return float(min(1.0, 2 * stats.t.sf(abs(t), df)))


def williams_test(r12: float, r13: float, r23: float, n: int, alternative: str = "greater",
                  correlations: str = "signed") -> WilliamsResult:
    """Williams's t test of H0: rho12 = rho13 against H1: rho12 > rho13 (by default).

    Graham & Baldwin (2014), equation 3 (Williams 1959)::

        t(n - 3) = (r12 - r13) sqrt((n - 1)(1 + r23))
                   / sqrt(2 K (n - 1)/(n - 3) + ((r12 + r13)/2)^2 (1 - r23)^3)

    with K = 1 - r12^2 - r13^2 - r23^2 + 2 r12 r13 r23 (the determinant of the 3 x 3
    correlation matrix).

    Parameters
    ----------
    r12 : float
        Correlation of variable 1 (the human scores) with variable 2 (metric A).
    r13 : float
        Correlation of variable 1 with variable 3 (metric B).
    r23 : float
        Correlation of the two metrics.
    n : int
        Number of items the correlations were computed on (> 3).
    alternative : {"greater", "less", "two-sided"}
        H1: rho12 > rho13 (default, the one-sided test of Graham & Baldwin 2014), rho12 < rho13,
        or rho12 != rho13 (what psych::r.test prints by default).
    correlations : {"signed", "absolute"}
        ``"signed"`` (default): the correlations as given, so a metric that correlates
        negatively with the humans counts as worse. ``"absolute"``: |r12|, |r13|, |r23| are
        tested, the convention of nlpstats, sacrerouge and the WMT metrics tasks (which pass
        absolute values to psych::r.test); it treats a strongly anti-correlated metric as good.

    Returns
    -------
    WilliamsResult(t, pvalue)
        ``pvalue`` for Student's t with n - 3 degrees of freedom under ``alternative``.
    """
    check_alternative(alternative)
    if correlations not in CORRELATION_SIGNS:
        raise ValueError(f"unknown correlations {correlations!r}: use 'signed' or 'absolute'")
    r12, r13, r23 = (check_float(r, name, low=-1, high=1, hint=" (a correlation)")
                     for name, r in (("r12", r12), ("r13", r13), ("r23", r23)))
    n = check_int(n, "n", minimum=4, hint=" (items: Williams's test has n - 3 degrees of freedom)")
    if correlations == "absolute":
        r12, r13, r23 = abs(r12), abs(r13), abs(r23)
    K = 1 - r12 ** 2 - r13 ** 2 - r23 ** 2 + 2 * r12 * r13 * r23
    if K < -1e-12:
        raise ValueError(f"r12 = {r12}, r13 = {r13}, r23 = {r23} cannot be the correlations of "
                         "three variables (their correlation matrix is not positive semi-definite)")
    K = max(K, 0.0)
    denominator = math.sqrt(2 * K * (n - 1) / (n - 3) + ((r12 + r13) / 2) ** 2 * (1 - r23) ** 3)
    if denominator == 0:
        raise ValueError("Williams's t is undefined here (r23 = 1 with r12 = r13): the two metrics "
                         "are perfectly correlated")
    t = (r12 - r13) * math.sqrt((n - 1) * (1 + r23)) / denominator
    return WilliamsResult(float(t), t_pvalue(t, n - 3, alternative))


def williams_metrics(table: pd.DataFrame, metric_a: str, metric_b: str, human_col: str,
                     level: str = "system", coef: str = "pearson", *, alternative: str = "greater",
                     correlations: str = "signed", kendall_variant: str = "b",
                     doc_col: str = "doc_id", system_col: str = "system_id") -> WilliamsResult:
    """Williams's test that ``metric_a`` correlates with ``human_col`` better than ``metric_b``.

    ``table`` is read as score matrices X[i][j] = system i on input j (package docstring). The
    three correlations r(human, A), r(human, B) and r(A, B) are taken at ``level``:
    ``"system"`` (n = number of systems, as Graham & Baldwin 2014 do for MT systems) or
    ``"global"`` (n = number of summaries). Summary-level correlations are averages over inputs
    and have no single n, so that level is refused, as are the pairwise accuracies (not
    correlations).

    ``coef`` may be Pearson (for which the test is derived), Spearman or Kendall: the rank
    coefficients are plugged into the same formula, as nlpstats and the WMT metrics tasks do; for
    Spearman this is the usual approximation, for Kendall's tau (whose variance differs from r's)
    a rougher one: prefer ``permutation_test`` when it matters. ``alternative`` and
    ``correlations`` (signed by default, or absolute) as in ``williams_test``.
    """
    check_level(level)
    if level == "summary":
        raise ValueError("Williams's test needs one correlation over n items: use level='system' "
                         "or 'global', or permutation_test for summary level")
    if coef not in CORRELATIONS:
        raise ValueError(f"Williams's test compares correlations, not {coef!r}: use one of "
                         f"{', '.join(CORRELATIONS)}, or permutation_test for an accuracy")
    check_coefficient(coef, kendall_variant)
    check_alternative(alternative)
    A, B, H = paired_matrices(table, metric_a, metric_b, human_col, level, coef, doc_col=doc_col,
                              system_col=system_col)
    r12, r13, r23 = (float(level_correlation(u, v, level, coef, kendall_variant)[0])
                     for u, v in ((H, A), (H, B), (A, B)))
    if not all(map(math.isfinite, (r12, r13, r23))):
        raise ValueError(f"a {level}-level correlation among {human_col!r}, {metric_a!r}, "
                         f"{metric_b!r} is undefined (constant scores)")
    n = A.shape[0] if level == "system" else int((~pd.isna(A)).sum())  # systems, or summaries
    return williams_test(r12, r13, r23, n, alternative, correlations)
