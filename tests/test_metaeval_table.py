"""correlation_table: a row per (metric, criterion, level, coef), as correlate / bootstrap_ci."""
import numpy as np
import pytest

from rougelab.metaeval import bootstrap_ci, correlate, correlation_table
from test_metaeval_correlations import random_table


def test_rows_equal_correlate_and_bootstrap_ci():
    table = random_table(2, n_systems=8, n_inputs=20, ties=False).assign(h2=lambda t: -t["h"] ** 3)
    out = correlation_table(table, ["m", "m2"], ["h", "h2"], ["summary", "system", "global"],
                            ["pearson", "kendall"], n_resamples=50, seed=5, progress=False)
    assert list(out.columns) == ["metric", "criterion", "level", "coef", "value", "ci_low",
                                 "ci_high"]
    assert len(out) == 2 * 2 * 3 * 2
    first = out[["metric", "criterion", "level", "coef"]].iloc[0].tolist()
    assert first == ["m", "h", "summary", "pearson"]
    for row in out.itertuples():
        ci = bootstrap_ci(table, row.metric, row.criterion, row.level, row.coef, n_resamples=50,
                          seed=5)
        assert row.value == correlate(table, row.metric, row.criterion, row.level, row.coef)
        assert (row.value, row.ci_low, row.ci_high) == pytest.approx(tuple(ci), abs=1e-12)


def test_without_bootstrap_the_interval_is_nan_and_strings_are_accepted():
    out = correlation_table(random_table(0), "m", "h", "system", "spearman")
    assert len(out) == 1
    assert out["value"].iloc[0] == correlate(random_table(0), "m", "h", "system", "spearman")
    assert np.isnan(out["ci_low"].iloc[0]) and np.isnan(out["ci_high"].iloc[0])


@pytest.mark.parametrize("kwargs,message", [
    (dict(levels=["system", "doc"]), "unknown level 'doc'"),
    (dict(coefs="tau"), "unknown coef 'tau'"),
    (dict(n_resamples=-1), r"n_resamples=-1: must be a whole number >= 0"),
    (dict(humans=["h", "coherence"]), r"\['coherence'\] not in the table"),
])
def test_bad_arguments(kwargs, message):
    args = dict(table=random_table(0), metrics="m", humans="h") | kwargs
    with pytest.raises(ValueError, match=message):
        correlation_table(**args)
