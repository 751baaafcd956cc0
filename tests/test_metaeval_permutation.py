"""Paired permutation test (Deutsch, Dror & Roth 2021): calibrated under H0, powerful off it."""
import numpy as np
import pandas as pd
import pytest
from scipy import stats

from rougelab.metaeval import PermutationResult, correlate, permutation_test
from test_metaeval_correlations import random_table


def twin_metrics(seed, n_systems=8, n_inputs=15, noise_a=1.0, noise_b=1.0):
    """Human score h and two metrics a, b = quality + independent noise of the given sizes."""
    rng = np.random.default_rng(seed)
    quality = rng.normal(size=(n_systems, 1)) + rng.normal(size=(n_systems, n_inputs))
    human = quality + 0.5 * rng.normal(size=quality.shape)
    a = quality + noise_a * rng.normal(size=quality.shape)
    b = quality + noise_b * rng.normal(size=quality.shape)
    return pd.DataFrame([(f"d{j}", f"s{i}", a[i, j], b[i, j], human[i, j])
                         for i in range(n_systems) for j in range(n_inputs)],
                        columns=["doc_id", "system_id", "a", "b", "h"])


@pytest.mark.parametrize("level,resample", [("global", "both"), ("summary", "inputs"),
                                            ("system", "systems")])
def test_pvalues_uniform_under_the_null(level, resample):
    # a and b are equally good (same noise size): p should be ~ Uniform(0, 1).
    pvalues = [permutation_test(twin_metrics(seed), "a", "b", "h", level, "pearson",
                                n_resamples=199, seed=seed, resample=resample).pvalue
               for seed in range(120)]
    assert stats.kstest(pvalues, "uniform").pvalue > 0.01
    assert np.mean(np.array(pvalues) <= 0.05) < 0.12


@pytest.mark.parametrize("level", ["summary", "system", "global"])
@pytest.mark.parametrize("coef", ["pearson", "kendall"])
def test_small_pvalue_when_a_is_the_human_score_plus_tiny_noise(level, coef):
    table = twin_metrics(0, n_systems=10, n_inputs=30, noise_b=4.0)
    table["a"] = table["h"] + 1e-3 * np.random.default_rng(1).normal(size=len(table))
    result = permutation_test(table, "a", "b", "h", level, coef, n_resamples=500)
    assert result.pvalue <= 0.01
    # ... and the reverse direction is nowhere near significant.
    assert permutation_test(table, "b", "a", "h", level, coef, n_resamples=500).pvalue > 0.5


def test_delta_is_the_difference_of_correlations():
    table = random_table(3, n_systems=8, n_inputs=20, ties=False)
    result = permutation_test(table, "m", "m2", "h", "system", "spearman", n_resamples=100)
    assert isinstance(result, PermutationResult)
    expected = (correlate(table, "m", "h", "system", "spearman")
                - correlate(table, "m2", "h", "system", "spearman"))
    assert result.delta == pytest.approx(expected, abs=1e-12)
    assert 1 / 51 <= result.pvalue <= 1


def test_seeded_and_reproducible():
    table = twin_metrics(5)
    a = permutation_test(table, "a", "b", "h", "global", n_resamples=100, seed=2)
    assert a == permutation_test(table, "a", "b", "h", "global", n_resamples=100, seed=2)
    other = permutation_test(table, "a", "b", "h", "global", n_resamples=100, seed=3)
    assert a.pvalue != other.pvalue


def test_scale_of_a_metric_does_not_matter():
    # Scores are standardized before swapping, so a metric in other units gives the same test.
    table = twin_metrics(6)
    scaled = table.assign(b=table["b"] * 100 + 7)
    plain = permutation_test(table, "a", "b", "h", "summary", n_resamples=200)
    rescaled = permutation_test(scaled, "a", "b", "h", "summary", n_resamples=200)
    assert plain.pvalue == pytest.approx(rescaled.pvalue)
    assert plain.delta == pytest.approx(rescaled.delta, abs=1e-12)


@pytest.mark.parametrize("kwargs,message", [
    (dict(metric_b="a"), "both 'a'"),
    (dict(resample="pairs"), "unknown resample"),
    (dict(n_resamples=0), r"n_resamples=0: must be a whole number >= 99 and <= 100000 \(a permutation or bootstrap p-value"),
    (dict(human_col="relevance"), r"\['relevance'\] not in the table"),
])
def test_bad_arguments(kwargs, message):
    args = dict(table=twin_metrics(0), metric_a="a", metric_b="b", human_col="h") | kwargs
    with pytest.raises(ValueError, match=message):
        permutation_test(**args)


def test_constant_metric_is_refused():
    table = twin_metrics(0).assign(b=2.0)
    with pytest.raises(ValueError, match="scores are all equal"):
        permutation_test(table, "a", "b", "h")


@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
def test_alternatives_match_scipy_exact_paired_permutation_test(alternative):
    # Global level, 2 systems x 5 inputs = 10 summaries: scipy.stats.permutation_test enumerates
    # all 2^10 swaps of the (standardized) paired scores exactly; ours samples them.
    table = twin_metrics(8, n_systems=2, n_inputs=5, noise_b=2.0)
    a, b, h = (table[c].to_numpy() for c in ("a", "b", "h"))
    a, b = (a - a.mean()) / a.std(), (b - b.mean()) / b.std()
    statistic = lambda x, y: stats.pearsonr(x, h).statistic - stats.pearsonr(y, h).statistic
    exact = stats.permutation_test((a, b), statistic, permutation_type="samples",
                                   alternative=alternative).pvalue
    ours = permutation_test(table, "a", "b", "h", "global", n_resamples=40_000,
                            alternative=alternative).pvalue
    assert ours == pytest.approx(exact, abs=0.01)


def test_less_is_greater_with_the_metrics_swapped():
    table = twin_metrics(2, noise_b=2.0)
    less = permutation_test(table, "b", "a", "h", "summary", n_resamples=300, alternative="less")
    greater = permutation_test(table, "a", "b", "h", "summary", n_resamples=300)
    assert less.pvalue == pytest.approx(greater.pvalue)
