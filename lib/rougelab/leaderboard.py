"""Every metric against every dataset and criterion, with intervals and a test against the best.

For each (dataset, criterion, level) cell, the metric with the highest correlation is the best; a
paired permutation test (Deutsch, Dror & Roth 2021; H1: best > other) decides which others are
statistically indistinguishable from it (p > ``significance``).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from rougelab.evaluate import add_metric_scores, human_columns, supported
from rougelab.extras import require
from rougelab.metaeval import bootstrap_ci, bootstrap_difference, correlation_table, permutation_test
from rougelab.notebook import first_documents
from rougelab.progress import bar
from rougelab.validation import check_int, check_names, check_probability, check_seed, check_test_resamples


def leaderboard(datasets: list[str], metrics: list[str], *, levels=("system", "summary"),
                coef: str = "kendall", n_resamples: int = 1000, significance: float = 0.05, seed: int = 0,
                docs: int | None = None, progress: bool = True) -> pd.DataFrame:
    """One row per (dataset, criterion, level, metric).

    Columns: dataset, criterion, level, coef, metric, value, ci_low, ci_high (95% bootstrap over
    systems and inputs; over inputs only on a dataset of pairs such as Rank19), rank (1 = best in
    its cell), pvalue_vs_best (permutation test of the best metric against this one; NaN for the
    best itself) and tied_with_best. ``docs`` keeps only the first ``docs`` inputs of each dataset
    (a quick look). Every dataset must support every level and ``coef`` (``evaluate.supported``):
    board the factual-consistency sets in their own call (QAGS: ``levels=("global",)``; Rank19:
    ``levels=("summary",), coef="accuracy"``). ``significance`` lies in (0, 1) and ``n_resamples`` is at
    least 99 and 1 / significance - 1 (``rougelab.validation.check_test_resamples``), so that the test
    can tell a metric from the best; everything is checked before any scoring.
    """
    datasets, metrics, levels, n_resamples, significance = _checked(datasets, metrics, levels, n_resamples,
                                                                    seed, docs, significance)
    boards = []
    for dataset in bar(datasets, progress=progress, desc="datasets"):
        resample = _resample(dataset, levels, coef)
        table, humans = _scored(dataset, metrics, docs, progress)
        corr = correlation_table(table, metrics, humans, levels=list(levels), coefs=[coef],
                                 n_resamples=n_resamples, seed=seed, resample=resample,
                                 progress=False)
        corr.insert(0, "dataset", dataset)
        boards.append(_test_against_best(table, corr, n_resamples, significance, seed))
    return pd.concat(boards, ignore_index=True)


def _checked(datasets, metrics, levels, n_resamples, seed, docs, significance=None) -> tuple:
    """The parameters shared by ``leaderboard`` and ``versus``, checked (``rougelab.validation``)."""
    significance = None if significance is None else check_probability(significance, "significance")
    n_resamples = check_test_resamples(n_resamples, significance=significance)
    check_seed(seed)
    check_int(docs, "docs", minimum=1, none=True)
    return (check_names(datasets, "datasets"), check_names(metrics, "metrics"), check_names(levels, "levels"),
            n_resamples, significance)


def _resample(dataset: str, levels, coef: str) -> str:
    """How the dataset's bootstrap resamples; a level or coef its design does not support raises."""
    return {supported(dataset, level, coef) for level in levels}.pop()  # the same for every level


def _scored(dataset: str, metrics: list[str], docs: int | None, progress: bool) -> tuple[pd.DataFrame, list[str]]:
    """The dataset's table (its first ``docs`` inputs) with one column per metric, and its human columns."""
    from rougelab.data import load_dataset

    table = load_dataset(dataset)
    humans = human_columns(table)
    return add_metric_scores(first_documents(table, docs), metrics, progress=progress), humans


def _test_against_best(table, corr, n_resamples, significance, seed) -> pd.DataFrame:
    cells = []
    for (criterion, level), cell in corr.groupby(["criterion", "level"], sort=False):
        cell = cell.copy()
        cell["rank"] = cell["value"].rank(ascending=False, method="min")
        best = cell.loc[cell["value"].idxmax(), "metric"]
        cell["pvalue_vs_best"] = [
            np.nan if m == best else permutation_test(table, best, m, criterion, level, cell["coef"].iloc[0],
                                                      n_resamples=n_resamples, seed=seed).pvalue
            for m in cell["metric"]]
        cell["tied_with_best"] = (cell["metric"] == best) | (cell["pvalue_vs_best"] > significance)
        cells.append(cell)
    return pd.concat(cells)


def rank_table(board: pd.DataFrame, level: str = "system", metrics: list[str] | None = None) -> pd.DataFrame:
    """Each metric's mean rank over a dataset's criteria, one column per dataset (how rankings move).

    ``metrics``: rank among these only (re-ranked within each cell), so that datasets scored with extra
    metrics stay comparable; rows in that order.
    """
    at_level = board[board["level"] == level]
    if metrics is not None:
        at_level = at_level[at_level["metric"].isin(metrics)].copy()
        at_level["rank"] = (at_level.groupby(["dataset", "criterion"])["value"]
                            .rank(ascending=False, method="min"))
    table = at_level.pivot_table(index="metric", columns="dataset", values="rank", aggfunc="mean")
    return table if metrics is None else table.reindex(metrics)


def versus(datasets: list[str], metric: str, baseline: str = "rouge-2", *, levels=("system", "summary"),
           coef: str = "kendall", n_resamples: int = 1000, seed: int = 0, docs: int | None = None,
           progress: bool = True) -> pd.DataFrame:
    """``metric`` against ``baseline`` in every (dataset, criterion, level) cell, both ways.

    Columns: dataset, criterion, level, coef, metric, baseline; ``value`` / ``ci_low`` / ``ci_high``
    of each (``metric_*``, ``baseline_*``: bootstrap percentile intervals, Deutsch, Dror & Roth
    2021), delta (r(metric) - r(baseline)) with ``delta_low`` / ``delta_high`` (95% paired bootstrap,
    the same resamples for both metrics) and ``pvalue_bootstrap`` (its one-sided test, H1:
    ``metric`` correlates better), pvalue_better (paired permutation test, H1: ``metric`` correlates
    better) and pvalue_worse (H1: ``baseline`` correlates better). Levels, ``coef`` and resampling
    as in ``leaderboard``; ``docs`` and ``n_resamples`` too.
    """
    datasets, _, levels, n_resamples, _ = _checked(datasets, [metric, baseline], levels, n_resamples, seed, docs)
    rows = []
    for dataset in bar(datasets, progress=progress, desc="datasets"):
        resample = _resample(dataset, levels, coef)
        table, humans = _scored(dataset, [metric, baseline], docs, progress)
        for criterion in humans:
            for level in levels:
                args = (criterion, level, coef)
                better = permutation_test(table, metric, baseline, *args, n_resamples=n_resamples, seed=seed)
                worse = permutation_test(table, baseline, metric, *args, n_resamples=n_resamples, seed=seed)
                diff = bootstrap_difference(table, metric, baseline, *args, n_resamples=n_resamples,
                                            resample=resample, seed=seed)
                ci = {name: bootstrap_ci(table, column, *args, n_resamples=n_resamples, resample=resample,
                                         seed=seed) for name, column in (("metric", metric), ("baseline", baseline))}
                rows.append(dict(dataset=dataset, criterion=criterion, level=level, coef=coef, metric=metric,
                                 baseline=baseline,
                                 **{f"{name}_{part}": getattr(ci[name], attr) for name in ci
                                    for part, attr in (("value", "value"), ("ci_low", "low"), ("ci_high", "high"))},
                                 delta=better.delta, delta_low=diff.low, delta_high=diff.high,
                                 pvalue_bootstrap=diff.pvalue, pvalue_better=better.pvalue,
                                 pvalue_worse=worse.pvalue))
    return pd.DataFrame(rows)


def heatmap(board: pd.DataFrame, levels=("system", "summary"), *, metrics: list[str] | None = None):
    """A matplotlib Figure, one panel per level: metrics (rows) x dataset/criterion (columns).

    Colour and label: the correlation (``value``); a bold label marks a metric tied with the best of its
    column (``tied_with_best``). Rows follow ``metrics`` (default: by mean value over all columns, best first).
    """
    require("matplotlib", extra="lab", needed_for="the heatmap")
    import matplotlib.pyplot as plt

    if metrics is None:
        metrics = list(board.groupby("metric")["value"].mean().sort_values(ascending=False).index)
    columns = list(dict.fromkeys(zip(board["dataset"], board["criterion"])))
    limit = float(np.nanmax(np.abs(board["value"]))) or 1.0
    fig, axes = plt.subplots(1, len(levels), squeeze=False,
                             figsize=(0.8 * len(columns) * len(levels) + 3, 0.35 * len(metrics) + 2))
    for ax, level in zip(axes[0], levels):
        cells = board[board["level"] == level].set_index(["metric", "dataset", "criterion"])
        values = np.array([[cells["value"].get((m, *c), np.nan) for c in columns] for m in metrics], dtype=float)
        tied = [[bool(cells["tied_with_best"].get((m, *c), False)) for c in columns] for m in metrics]
        image = ax.imshow(values, cmap="RdBu", vmin=-limit, vmax=limit, aspect="auto")
        for i, j in np.ndindex(values.shape):
            if not np.isnan(values[i, j]):
                ax.text(j, i, f"{values[i, j]:.2f}", ha="center", va="center", fontsize=7,
                        fontweight="bold" if tied[i][j] else "normal")
        ax.set_xticks(range(len(columns)), [f"{d}\n{c}" for d, c in columns], rotation=90, fontsize=7)
        ax.set_yticks(range(len(metrics)), metrics, fontsize=8)
        coef = board["coef"].iloc[0]
        ax.set_title(f"{level} level, {coef}\nbold: tied with the best of its column")
    fig.colorbar(image, ax=axes[0].tolist(), shrink=0.8)
    return fig


def ties(board: pd.DataFrame) -> pd.DataFrame:
    """For each (level, dataset, criterion) cell: the ``best`` metric, its ``best_value``, the metrics ``tied``
    with it (comma-separated, by rank) and ``n_tied`` (the best included)."""
    tied = board[board["tied_with_best"]].sort_values(["rank", "metric"])
    return (tied.groupby(["level", "dataset", "criterion"])
            .agg(best=("metric", "first"), best_value=("value", "first"),
                 tied=("metric", lambda m: ", ".join(m.iloc[1:])), n_tied=("metric", "size")))
