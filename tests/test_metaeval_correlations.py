"""Correlations at summary / system / global level, checked against SciPy on random tables.

Expected values come from scipy.stats (pearsonr, spearmanr, kendalltau with variant 'b' and 'c')
applied the way each level is defined: summary = mean over docs of SciPy's coefficient across
the systems of that doc; system = SciPy on the groupby-system means; global = SciPy on the pooled
columns.
"""
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from rougelab.metaeval import UndefinedCorrelationWarning, correlate
from rougelab.metaeval.correlations import coefficient

SCIPY = {
    ("pearson", "b"): lambda x, y: stats.pearsonr(x, y).statistic,
    ("spearman", "b"): lambda x, y: stats.spearmanr(x, y).statistic,
    ("kendall", "b"): lambda x, y: stats.kendalltau(x, y).statistic,
    ("kendall", "c"): lambda x, y: stats.kendalltau(x, y, variant="c").statistic,
}


def random_table(seed=0, n_systems=7, n_inputs=12, drop=0.0, ties=True):
    """A tidy table with a metric ``m`` loosely tracking a human score ``h`` (and ``m2``, noisier).

    ``ties`` draws integer-valued scores so Spearman and Kendall see tied ranks; ``drop`` removes
    that share of rows at random (missing (system, input) pairs).
    """
    rng = np.random.default_rng(seed)
    quality = rng.normal(size=(n_systems, 1)) + rng.normal(size=(n_systems, n_inputs))
    human = quality + rng.normal(size=quality.shape)
    metric = quality + rng.normal(size=quality.shape)
    metric2 = quality + 2 * rng.normal(size=quality.shape)
    if ties:
        human, metric, metric2 = (np.round(a * 1.5) for a in (human, metric, metric2))
    rows = [(f"d{j}", f"s{i}", metric[i, j], metric2[i, j], human[i, j])
            for i in range(n_systems) for j in range(n_inputs)]
    table = pd.DataFrame(rows, columns=["doc_id", "system_id", "m", "m2", "h"])
    if drop:
        table = table[rng.random(len(table)) >= drop].reset_index(drop=True)
    return table


def scipy_level(table, level, coef, variant):
    f = SCIPY[(coef, variant)]
    if level == "global":
        return f(table["m"], table["h"])
    if level == "system":
        means = table.groupby("system_id")[["m", "h"]].mean()
        return f(means["m"], means["h"])
    values = []
    for _, group in table.groupby("doc_id"):
        if len(group) < 2 or group["m"].nunique() == 1 or group["h"].nunique() == 1:
            continue  # undefined: SciPy would return NaN (with a warning)
        values.append(f(group["m"], group["h"]))
    return np.mean(values)


CASES = [(level, coef, variant) for level in ("summary", "system", "global")
         for coef, variant in SCIPY]


@pytest.mark.parametrize("level,coef,variant", CASES)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_matches_scipy(level, coef, variant, seed):
    table = random_table(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedCorrelationWarning)
        ours = correlate(table, "m", "h", level, coef, kendall_variant=variant)
    assert ours == pytest.approx(scipy_level(table, level, coef, variant), abs=1e-12)


@pytest.mark.parametrize("level,coef,variant", CASES)
def test_matches_scipy_with_missing_summaries(level, coef, variant):
    # A fifth of the (system, input) pairs absent: NaN cells in the score matrices.
    table = random_table(5, n_systems=9, n_inputs=15, drop=0.2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedCorrelationWarning)
        ours = correlate(table, "m", "h", level, coef, kendall_variant=variant)
    assert ours == pytest.approx(scipy_level(table, level, coef, variant), abs=1e-12)


@pytest.mark.parametrize("coef,variant", list(SCIPY))
def test_continuous_scores_and_long_rows(coef, variant):
    # 300 points per row exercises the SciPy fallback of Kendall; no ties in continuous data.
    rng = np.random.default_rng(3)
    x = rng.normal(size=(4, 300))
    y = x + rng.normal(size=x.shape)
    expected = [SCIPY[(coef, variant)](x[i], y[i]) for i in range(4)]
    np.testing.assert_allclose(coefficient(x, y, coef, variant), expected, atol=1e-12)


def test_summary_level_skips_constant_inputs_and_says_how_many():
    table = random_table(0, n_systems=5, n_inputs=6, ties=False)
    table.loc[table["doc_id"] == "d2", "h"] = 3.0  # every system got the same human score
    table.loc[table["doc_id"] == "d4", "m"] = 0.5
    with pytest.warns(UndefinedCorrelationWarning, match="2 of 6 inputs skipped"):
        ours = correlate(table, "m", "h", "summary", "pearson")
    kept = table[~table["doc_id"].isin(["d2", "d4"])]
    expected = np.mean([stats.pearsonr(g["m"], g["h"]).statistic
                        for _, g in kept.groupby("doc_id")])
    assert ours == pytest.approx(expected, abs=1e-12)


def test_constant_metric_gives_nan_with_warning():
    table = random_table(0)
    table["m"] = 1.0
    with pytest.warns(UndefinedCorrelationWarning, match="undefined"):
        assert np.isnan(correlate(table, "m", "h", "system", "pearson"))


def test_row_order_and_custom_id_columns_do_not_matter():
    table = random_table(4)
    shuffled = (table.sample(frac=1.0, random_state=0)
                .rename(columns={"doc_id": "doc", "system_id": "sys"}))
    for level in ("summary", "system", "global"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedCorrelationWarning)
            a = correlate(table, "m", "h", level, "kendall")
            b = correlate(shuffled, "m", "h", level, "kendall", doc_col="doc", system_col="sys")
        assert a == pytest.approx(b, abs=1e-12)


@pytest.mark.parametrize("kwargs,message", [
    (dict(level="document"), "unknown level 'document'"),
    (dict(coef="kendal"), "unknown coef 'kendal'"),
    (dict(coef="kendall", kendall_variant="a"), "unknown kendall_variant"),
])
def test_unknown_names_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        correlate(random_table(0), "m", "h", **kwargs)


def test_missing_column_is_named():
    with pytest.raises(ValueError, match=r"\['rouge2_f'\] not in the table"):
        correlate(random_table(0), "rouge2_f", "h")


def test_nan_human_score_is_refused():
    table = random_table(0)
    table.loc[3, "h"] = np.nan
    with pytest.raises(ValueError, match="column 'h' has 1 NaN value"):
        correlate(table, "m", "h")


def test_infinite_or_text_scores_are_refused():
    table = random_table(0)
    table.loc[0, "m"] = np.inf
    with pytest.raises(ValueError, match="column 'm' has infinite values"):
        correlate(table, "m", "h")
    table = random_table(0).astype({"m": object})
    table.loc[0, "m"] = "high"
    with pytest.raises(ValueError, match="column 'm' has non-numeric values"):
        correlate(table, "m", "h")


def test_duplicate_summary_is_refused():
    table = random_table(0)
    table = pd.concat([table, table.iloc[[0]]], ignore_index=True)
    with pytest.raises(ValueError, match=r"\('s0', 'd0'\) occurs more than once"):
        correlate(table, "m", "h")


def test_missing_id_is_refused():
    table = random_table(0).astype({"doc_id": object})
    table.loc[5, "doc_id"] = None
    with pytest.raises(ValueError, match="id column 'doc_id' has missing values"):
        correlate(table, "m", "h")


def test_too_few_systems_or_summaries():
    table = random_table(0, n_systems=2)
    for level in ("summary", "system"):
        with pytest.raises(ValueError, match="needs at least 3 systems, the table has 2"):
            correlate(table, "m", "h", level)
    with pytest.raises(ValueError, match="needs at least 3 summaries"):
        correlate(random_table(0, n_systems=2, n_inputs=1), "m", "h", "global")
    with pytest.raises(ValueError, match="the table is empty"):
        correlate(random_table(0).iloc[:0], "m", "h")
