"""Fisher-z interval and p-value of a Pearson r, against SciPy's pearsonr confidence interval."""
import numpy as np
import pytest
from scipy import stats

from rougelab.metaeval import fisher_ci, fisher_z
from test_metaeval_correlations import random_table


@pytest.mark.parametrize("n,confidence", [(10, 0.95), (40, 0.9), (235, 0.99)])
def test_interval_equals_scipy_pearsonr_confidence_interval(n, confidence):
    rng = np.random.default_rng(n)
    x = rng.normal(size=n)
    y = x + rng.normal(size=n)
    res = stats.pearsonr(x, y)
    expected = res.confidence_interval(confidence_level=confidence)
    got = fisher_z(res.statistic, n, confidence)
    assert (got.low, got.high) == pytest.approx((expected.low, expected.high), abs=1e-12)


def test_pvalue_is_dual_to_scipy_interval():
    # The two-sided test of H0: rho = rho0 has p = 1 - confidence exactly when rho0 is an end of
    # the interval; one-sided p-values are half of it on the matching side.
    rng = np.random.default_rng(1)
    x = rng.normal(size=50)
    y = x + 2 * rng.normal(size=50)
    res = stats.pearsonr(x, y)
    low, high = res.confidence_interval(confidence_level=0.9)
    assert fisher_z(res.statistic, 50, rho0=low).pvalue == pytest.approx(0.1, abs=1e-10)
    assert fisher_z(res.statistic, 50, rho0=high).pvalue == pytest.approx(0.1, abs=1e-10)
    assert fisher_z(res.statistic, 50, rho0=low, alternative="greater").pvalue == pytest.approx(0.05, abs=1e-10)
    assert fisher_z(res.statistic, 50, rho0=high, alternative="less").pvalue == pytest.approx(0.05, abs=1e-10)


def test_zero_correlation_has_pvalue_one_and_symmetric_interval():
    got = fisher_z(0.0, 30)
    assert got.pvalue == pytest.approx(1.0) and got.low == pytest.approx(-got.high)


@pytest.mark.parametrize("level", ["global", "system"])
def test_fisher_ci_on_a_table_uses_the_level_and_its_n(level):
    table = random_table(5, n_systems=8, n_inputs=10, ties=False)
    data = table.groupby("system_id")[["m", "h"]].mean() if level == "system" else table
    res = stats.pearsonr(data["m"], data["h"])
    got = fisher_ci(table, "m", "h", level)
    assert got.n == len(data) and got.value == pytest.approx(res.statistic)
    assert (got.low, got.high) == pytest.approx(tuple(res.confidence_interval()), abs=1e-12)


@pytest.mark.parametrize("args,kwargs,message", [
    ((0.5, 3), {}, r"n=3: must be a whole number >= 4"),
    ((1.5, 30), {}, r"r=1.5: must be a finite number in \[-1, 1\]"),
    ((0.5, 30), {"alternative": "bigger"}, "unknown alternative"),
])
def test_bad_arguments(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        fisher_z(*args, **kwargs)


def test_summary_level_is_refused():
    with pytest.raises(ValueError, match="level='global' or 'system'"):
        fisher_ci(random_table(0), "m", "h", "summary")
