"""Pairwise accuracy (Kocmi et al. 2021; Deutsch, Foster & Freitag 2023) against SciPy and brute force."""
import itertools

import numpy as np
import pytest
from scipy import stats

from rougelab.metaeval import bootstrap_ci, correlate, pairwise_accuracy
from rougelab.metaeval.pairwise_accuracy import pair_counts
from test_metaeval_correlations import random_table


def brute_force(x, y, ties, epsilon=0.0):
    """Every unordered pair enumerated with itertools, counted by the definitions in words."""
    right = counted = 0.0
    for a, b in itertools.combinations(range(len(x)), 2):
        metric_tie = abs(x[a] - x[b]) <= epsilon
        human_tie = y[a] == y[b]
        same_order = (x[a] - x[b]) * (y[a] - y[b]) > 0
        if ties == "accuracy-eq":
            counted += 1
            right += (metric_tie and human_tie) or (not metric_tie and not human_tie and same_order)
        elif not human_tie:
            counted += 1
            right += 0.5 if (metric_tie and ties == "accuracy-half") else (not metric_tie and same_order)
    return right / counted if counted else np.nan


@pytest.mark.parametrize("ties", ["accuracy", "accuracy-half", "accuracy-eq"])
@pytest.mark.parametrize("seed", range(5))
def test_matches_brute_force_with_ties(ties, seed):
    rng = np.random.default_rng(seed)
    x, y = rng.integers(0, 4, size=(2, 3, 15)).astype(float)  # many ties of every kind
    got = pairwise_accuracy(x, y, ties)
    assert got == pytest.approx([brute_force(a, b, ties) for a, b in zip(x, y)], abs=1e-12)


def test_epsilon_makes_close_metric_scores_ties():
    x, y = np.array([0.10, 0.12, 0.5, 0.9]), np.array([1.0, 2.0, 3.0, 3.0])
    assert pairwise_accuracy(x, y, "accuracy-eq", 0.05) == pytest.approx(brute_force(x, y, "accuracy-eq", 0.05))
    assert pairwise_accuracy(x, y, "accuracy-eq", 0.05) != pairwise_accuracy(x, y, "accuracy-eq")


@pytest.mark.parametrize("seed", range(5))
def test_half_is_one_plus_scipy_somers_d_over_two(seed):
    # Pairs untied by the humans: C + D + T_m; Somers' d(metric | human) = (C - D) / (C + D + T_m),
    # so (C + T_m / 2) / (C + D + T_m) = (1 + d) / 2 (scipy.stats.somersd, rows = human).
    rng = np.random.default_rng(seed)
    x, y = rng.integers(0, 5, size=(2, 30)).astype(float)
    d = stats.somersd(y, x).statistic
    assert pairwise_accuracy(x, y, "accuracy-half") == pytest.approx((1 + d) / 2, abs=1e-12)


def test_without_ties_every_convention_is_one_plus_kendall_over_two():
    rng = np.random.default_rng(3)
    x, y = rng.normal(size=(2, 25))
    tau = stats.kendalltau(x, y).statistic
    for ties in ("accuracy", "accuracy-half", "accuracy-eq"):
        assert pairwise_accuracy(x, y, ties) == pytest.approx((1 + tau) / 2, abs=1e-12)


def test_nan_positions_are_absent_and_no_pair_is_nan():
    x, y = np.array([1.0, np.nan, 3.0, 2.0]), np.array([1.0, 5.0, 2.0, 3.0])
    assert pairwise_accuracy(x, y) == pytest.approx(brute_force([1, 3, 2], [1, 2, 3], "accuracy"))
    assert np.isnan(pairwise_accuracy([1.0, 2.0], [3.0, 3.0]))  # the one pair is a human tie
    assert pair_counts([1.0, 2.0], [3.0, 3.0])["T_h"] == 1


def test_rank19_layout_share_of_pairs_and_interval_over_pairs():
    # Two "systems" (correct, incorrect) per input: summary-level accuracy is the share of inputs
    # whose correct summary scores higher; the Boot-Inputs interval resamples pairs, here checked
    # against scipy.stats.bootstrap (percentile method) fed the same draws.
    import pandas as pd

    rng = np.random.default_rng(0)
    n = 60
    good, bad = rng.normal(0.3, 1, n).round(1), rng.normal(0, 1, n).round(1)
    table = pd.DataFrame({"doc_id": np.repeat(np.arange(n), 2), "system_id": ["correct", "incorrect"] * n,
                          "m": np.column_stack([good, bad]).ravel(), "fact": [1.0, 0.0] * n})
    right = (good > bad).astype(float)
    assert correlate(table, "m", "fact", "summary", "accuracy") == pytest.approx(right.mean())
    assert correlate(table, "m", "fact", "summary", "accuracy-half") == pytest.approx(
        (right + 0.5 * (good == bad)).mean())
    ci = bootstrap_ci(table, "m", "fact", "summary", "accuracy", n_resamples=2000, resample="inputs",
                      seed=7)
    reference = stats.bootstrap((right,), np.mean, n_resamples=2000, method="percentile",
                                vectorized=True, rng=np.random.default_rng(7))
    assert (ci.low, ci.high) == pytest.approx(tuple(reference.confidence_interval), abs=1e-12)


def test_system_level_accuracy_is_kocmi_pairwise_system_accuracy():
    table = random_table(2, n_systems=9, n_inputs=6, ties=False)
    means = table.groupby("system_id", sort=False)[["m", "h"]].mean()
    expected = brute_force(means["m"].to_numpy(), means["h"].to_numpy(), "accuracy")
    assert correlate(table, "m", "h", "system", "accuracy") == pytest.approx(expected)


def test_unknown_convention_is_refused():
    with pytest.raises(ValueError, match="unknown pairwise accuracy 'acc'"):
        pairwise_accuracy([1, 2], [1, 2], "acc")
    with pytest.raises(ValueError, match="epsilon"):
        pairwise_accuracy([1, 2], [1, 2], "accuracy-eq", -1)
