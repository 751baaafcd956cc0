"""Paired bootstrap of a correlation difference, against a loop of scipy.stats calls on the same draws."""
import numpy as np
import pytest
from scipy import stats

from rougelab.metaeval import bootstrap_difference
from rougelab.metaeval.resampling import draw_indices
from test_metaeval_correlations import random_table


def scipy_loop(table, level, coef, n_resamples, seed):
    """Each resample rebuilt as a DataFrame and correlated with scipy.stats, one at a time."""
    systems, docs = table["system_id"].unique(), table["doc_id"].unique()
    rows, cols = draw_indices(np.random.default_rng(seed), len(systems), len(docs), n_resamples, "both")
    indexed = table.set_index(["system_id", "doc_id"])
    func = {"pearson": stats.pearsonr, "kendall": stats.kendalltau}[coef]
    out = []
    for r, c in zip(rows, cols):
        pick = indexed.loc[[(systems[i], docs[j]) for i in r for j in c]]
        pick = pick.assign(sys=np.repeat(np.arange(len(r)), len(c)), doc=np.tile(np.arange(len(c)), len(r)))
        if level == "system":
            pick = pick.groupby("sys")[["m", "m2", "h"]].mean()
            out.append(func(pick["m"], pick["h"]).statistic - func(pick["m2"], pick["h"]).statistic)
        else:
            out.append(np.mean([func(g["m"], g["h"]).statistic for _, g in pick.groupby("doc")])
                       - np.mean([func(g["m2"], g["h"]).statistic for _, g in pick.groupby("doc")]))
    return np.array(out)


@pytest.mark.parametrize("level,coef", [("system", "pearson"), ("summary", "kendall")])
def test_interval_and_pvalue_match_a_scipy_loop(level, coef):
    table = random_table(11, n_systems=6, n_inputs=5, ties=False)
    samples = scipy_loop(table, level, coef, 200, seed=3)
    got = bootstrap_difference(table, "m", "m2", "h", level, coef, n_resamples=200, seed=3)
    observed = got.delta
    assert (got.low, got.high) == pytest.approx(tuple(np.quantile(samples, [0.025, 0.975])), abs=1e-10)

    def between(pvalue, statistic, bound):
        # a resample on the boundary may fall either side by rounding: bracket the count
        k_low, k_high = ((statistic >= bound + e).sum() for e in (1e-9, -1e-9))
        assert (1 + k_low) / 201 <= pvalue <= (1 + k_high) / 201

    between(got.pvalue, samples - observed, observed)
    two = bootstrap_difference(table, "m", "m2", "h", level, coef, n_resamples=200, seed=3,
                               alternative="two-sided")
    between(two.pvalue, np.abs(samples - observed), abs(observed))


def test_a_metric_that_tracks_humans_better_wins_and_swapping_reverses():
    table = random_table(4, n_systems=20, n_inputs=20, ties=False)
    better = bootstrap_difference(table, "m", "m2", "h", "summary", n_resamples=300)
    worse = bootstrap_difference(table, "m2", "m", "h", "summary", n_resamples=300)
    assert better.delta == pytest.approx(-worse.delta)
    assert better.low > 0 and better.pvalue < 0.01 < worse.pvalue
    less = bootstrap_difference(table, "m2", "m", "h", "summary", n_resamples=300, alternative="less")
    assert less.pvalue == pytest.approx(better.pvalue)


def test_same_metric_twice_is_refused():
    with pytest.raises(ValueError, match="compare two different columns"):
        bootstrap_difference(random_table(0), "m", "m", "h")
